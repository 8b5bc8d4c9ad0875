"""Snowball stemmers vendored from PyPI ``snowballstemmer`` (BSD-3-Clause).

Two upstream releases are kept side by side because the METEOR 1.5 jar bundles Snowball stemmers
generated around 2010: English and Porter come from 2.2.0 (``v2_2_0``), every other language from
1.2.1 (``v1_2_1``). See README.md for the exact origin of each file and the one behavioural edit.
Use :mod:`meteor_eval.resources.stemmers` instead of importing these modules directly.
"""
