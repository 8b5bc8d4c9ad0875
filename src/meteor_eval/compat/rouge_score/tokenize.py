"""rouge-score's ``tokenize`` module: lowercase, split on anything but ``a-z0-9``, stem.

Example:
    >>> tokenize("One Two, three!", None)
    ['one', 'two', 'three']
"""

from __future__ import annotations

import re
from typing import Any

from meteor_eval.text.rouge_tokenizer import tokenize_rouge_score

__all__ = [
    "NON_ALPHANUM_PATTERN",
    "NON_ALPHANUM_RE",
    "SPACES_PATTERN",
    "SPACES_RE",
    "VALID_TOKEN_PATTERN",
    "VALID_TOKEN_RE",
    "tokenize",
]

NON_ALPHANUM_PATTERN = r"[^a-z0-9]+"
NON_ALPHANUM_RE = re.compile(NON_ALPHANUM_PATTERN)
SPACES_PATTERN = r"\s+"
SPACES_RE = re.compile(SPACES_PATTERN)
VALID_TOKEN_PATTERN = r"^[a-z0-9]+$"
VALID_TOKEN_RE = re.compile(VALID_TOKEN_PATTERN)


def tokenize(text: str, stemmer: Any) -> list[str]:
    """The tokens of ``text`` as rouge-score's ``tokenize.tokenize``.

    Args:
        text: The text.
        stemmer: ``None``, or an object with ``stem(word)`` applied to tokens longer than three
            characters (stems that are not ``a-z0-9`` are dropped, as in rouge-score).
    """
    tokens = tokenize_rouge_score(text, False)
    if not stemmer:
        return list(tokens)
    stemmed = [stemmer.stem(t) if len(t) > 3 else t for t in tokens]
    return [t for t in stemmed if VALID_TOKEN_RE.match(t)]
