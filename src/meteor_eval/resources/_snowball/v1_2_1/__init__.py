"""Snowball stemmer modules vendored verbatim (up to formatting) from snowballstemmer 1.2.1."""
