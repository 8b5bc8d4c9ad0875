"""ROUGE tokenization: rouge-score's default tokenizer, ROUGE-1.5.5's, and a Porter stemmer.

* :func:`tokenize_rouge_score` reproduces rouge-score's ``DefaultTokenizer``: Unicode lowercasing,
  every run of characters other than ``a-z0-9`` is a separator, and with stemming every token
  longer than three characters is stemmed.
* :func:`tokenize_rouge155` reproduces ROUGE-1.5.5's reading of a text (``readText``): only ASCII
  ``A-Z`` are lowercased, anything other than ``a-z0-9`` separates tokens. The two differ only on
  characters whose Unicode lowercase is ASCII (the Kelvin sign, dotted capital I).
* :class:`PorterStemmer` is the Porter (1980) algorithm with the modifications that NLTK's
  ``PorterStemmer`` applies in its default ``NLTK_EXTENSIONS`` mode, which is what rouge-score
  uses for ``use_stemmer=True``: a small table of irregular forms (``dying`` -> ``die``, ``news``),
  ``ies``/``ied`` on four-letter words, ``y`` -> ``i`` only after a consonant that is not the first
  letter, ``alli``/``fulli``/``logi``/``bli`` in step 2, and the ``cvc`` test for two-letter stems.
  It is our own implementation, checked against NLTK on the xray vocabulary. ROUGE-1.5.5's ``-m``
  stemmer (its own Porter port plus WordNet exception lists) is not reproduced.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

__all__ = ["PorterStemmer", "porter_stem", "tokenize_rouge155", "tokenize_rouge_score"]

_NON_ALNUM = re.compile(r"[^a-z0-9]+")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_VOWELS = frozenset("aeiou")

_IRREGULAR = {
    "sky": "sky",
    "skies": "sky",
    "dying": "die",
    "lying": "lie",
    "tying": "tie",
    "news": "news",
    "innings": "inning",
    "inning": "inning",
    "outings": "outing",
    "outing": "outing",
    "cannings": "canning",
    "canning": "canning",
    "howe": "howe",
    "proceed": "proceed",
    "exceed": "exceed",
    "succeed": "succeed",
}


def _consonants(word: str) -> list[bool]:
    # 'y' is a consonant at the start and after a vowel, a vowel after a consonant.
    flags: list[bool] = []
    for i, char in enumerate(word):
        if char in _VOWELS:
            flags.append(False)
        elif char == "y":
            flags.append(True if i == 0 else not flags[i - 1])
        else:
            flags.append(True)
    return flags


def _measure(stem: str) -> int:
    """Porter's m: the number of vowel-consonant transitions."""
    flags = _consonants(stem)
    return sum(1 for a, b in pairwise(flags) if not a and b)


def _has_vowel(stem: str) -> bool:
    return not all(_consonants(stem))


def _double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _consonants(word)[-1]


def _cvc(word: str) -> bool:
    if len(word) >= 3:
        flags = _consonants(word)
        if flags[-3] and not flags[-2] and flags[-1] and word[-1] not in "wxy":
            return True
    if len(word) == 2:
        flags = _consonants(word)
        return not flags[0] and flags[1]
    return False


def _step1a(word: str) -> str:
    if word.endswith("ies") and len(word) == 4:
        return word[:-3] + "ie"
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith("ies"):
        return word[:-2]
    if word.endswith("ss"):
        return word
    if word.endswith("s"):
        return word[:-1]
    return word


def _step1b(word: str) -> str:
    if word.endswith("ied"):
        return word[:-3] + ("ie" if len(word) == 4 else "i")
    if word.endswith("eed"):
        stem = word[:-3]
        return stem + "ee" if _measure(stem) > 0 else word
    for suffix in ("ed", "ing"):
        if word.endswith(suffix) and _has_vowel(word[: -len(suffix)]):
            stem = word[: -len(suffix)]
            break
    else:
        return word
    if stem.endswith(("at", "bl", "iz")):
        return stem + "e"
    if _double_consonant(stem):
        return stem[:-1] if stem[-1] not in "lsz" else stem
    if _measure(stem) == 1 and _cvc(stem):
        return stem + "e"
    return stem


def _step1c(word: str) -> str:
    if word.endswith("y") and len(word) > 2 and _consonants(word)[-2]:
        return word[:-1] + "i"
    return word


_STEP2 = (
    ("ational", "ate"),
    ("tional", "tion"),
    ("enci", "ence"),
    ("anci", "ance"),
    ("izer", "ize"),
    ("bli", "ble"),
    ("alli", "al"),
    ("entli", "ent"),
    ("eli", "e"),
    ("ousli", "ous"),
    ("ization", "ize"),
    ("ation", "ate"),
    ("ator", "ate"),
    ("alism", "al"),
    ("iveness", "ive"),
    ("fulness", "ful"),
    ("ousness", "ous"),
    ("aliti", "al"),
    ("iviti", "ive"),
    ("biliti", "ble"),
    ("fulli", "ful"),
)


def _step2(word: str) -> str:
    if word.endswith("alli") and _measure(word[:-4]) > 0:
        return _step2(word[:-4] + "al")
    for suffix, replacement in _STEP2:
        if word.endswith(suffix):
            stem = word[: -len(suffix)]
            return stem + replacement if _measure(stem) > 0 else word
    if word.endswith("logi"):
        # the condition looks at the stem with the 'l' kept
        return word[:-1] if _measure(word[:-3]) > 0 else word
    return word


_STEP3 = (
    ("icate", "ic"),
    ("ative", ""),
    ("alize", "al"),
    ("iciti", "ic"),
    ("ical", "ic"),
    ("ful", ""),
    ("ness", ""),
)

_STEP4 = (
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou",
    "ism", "ate", "iti", "ous", "ive", "ize",
)  # fmt: skip


def _step3(word: str) -> str:
    for suffix, replacement in _STEP3:
        if word.endswith(suffix):
            stem = word[: -len(suffix)]
            return stem + replacement if _measure(stem) > 0 else word
    return word


def _step4(word: str) -> str:
    for suffix in _STEP4:
        if word.endswith(suffix):
            stem = word[: -len(suffix)]
            if _measure(stem) > 1 and (suffix != "ion" or stem[-1:] in ("s", "t")):
                return stem
            return word
    return word


def _step5(word: str) -> str:
    if word.endswith("e"):
        stem = word[:-1]
        m = _measure(stem)
        if m > 1 or (m == 1 and not _cvc(stem)):
            word = stem
    if word.endswith("ll") and _measure(word[:-1]) > 1:
        word = word[:-1]
    return word


@lru_cache(maxsize=2**17)
def porter_stem(word: str) -> str:
    """Stem one word as NLTK's ``PorterStemmer()`` (``NLTK_EXTENSIONS`` mode) does.

    Example:
        >>> [porter_stem(w) for w in ("works", "learning", "generalization", "dying")]
        ['work', 'learn', 'gener', 'die']
    """
    stem = word.lower()
    if stem in _IRREGULAR:
        return _IRREGULAR[stem]
    if len(word) <= 2:
        return stem
    stem = _step1a(stem)
    stem = _step1b(stem)
    stem = _step1c(stem)
    stem = _step2(stem)
    stem = _step3(stem)
    stem = _step4(stem)
    return _step5(stem)


class PorterStemmer:
    """Callable wrapper of :func:`porter_stem` (picklable, stateless)."""

    __slots__ = ()

    def __call__(self, word: str) -> str:
        return porter_stem(word)


@lru_cache(maxsize=2**16)
def tokenize_rouge_score(text: str, stem: bool = False) -> tuple[str, ...]:
    """rouge-score's default tokenizer.

    Example:
        >>> tokenize_rouge_score("He works on machine-learning.", True)
        ('he', 'work', 'on', 'machin', 'learn')
    """
    tokens = _NON_ALNUM.split(text.lower())
    if stem:
        return tuple(porter_stem(t) if len(t) > 3 else t for t in tokens if t)
    return tuple(t for t in tokens if t)


@lru_cache(maxsize=2**16)
def tokenize_rouge155(text: str, stem: bool = False) -> tuple[str, ...]:
    """ROUGE-1.5.5's tokenization of a sentence (ASCII lowercasing only).

    With ``stem`` the Porter stemmer above is applied to tokens longer than three characters
    (this is not ROUGE-1.5.5's own ``-m`` stemmer).
    """
    tokens = _NON_ALNUM.split(text.translate(_ASCII_LOWER))
    if stem:
        return tuple(porter_stem(t) if len(t) > 3 else t for t in tokens if t)
    return tuple(t for t in tokens if t)
