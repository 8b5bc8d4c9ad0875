"""WordNet 3.0 for the synonym matchers (moved to :mod:`meteor_eval.resources.wordnet`).

This module keeps the old import path working; new code imports from the package.
"""

from __future__ import annotations

from meteor_eval.resources.wordnet import (
    METEOR_BINARY_FILE,
    METEOR_MORPH_RULES,
    NLTK_BINARY_FILE,
    NLTK_SUBSTITUTIONS,
    WORDNET_FILES,
    MeteorWordNet,
    NltkWordNet,
    WordNetPos,
    meteor_wordnet,
    meteor_wordnet_from_dir,
    nltk_wordnet,
    wordnet_spec,
)

__all__ = [
    "METEOR_BINARY_FILE",
    "METEOR_MORPH_RULES",
    "NLTK_BINARY_FILE",
    "NLTK_SUBSTITUTIONS",
    "WORDNET_FILES",
    "MeteorWordNet",
    "NltkWordNet",
    "WordNetPos",
    "meteor_wordnet",
    "meteor_wordnet_from_dir",
    "nltk_wordnet",
    "wordnet_spec",
]
