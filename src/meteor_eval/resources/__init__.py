"""Linguistic resources: word lists, stemmers, WordNet and paraphrase tables, loaded lazily once."""
