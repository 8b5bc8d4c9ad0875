"""Snowball stemmer modules vendored verbatim (up to formatting) from snowballstemmer 2.2.0."""
