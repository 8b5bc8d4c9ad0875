"""NLTK's Porter stemmer (``nltk.stem.porter.PorterStemmer``, default mode ``NLTK_EXTENSIONS``).

NLTK's METEOR (``nltk.translate.meteor_score``) stems with ``PorterStemmer()`` in its default mode.
That mode is Porter's 1980 algorithm plus the changes Martin Porter later endorsed plus NLTK's own
extensions, so it differs from both the published algorithm and the Snowball ``porter`` stemmer
that the ``paper2005`` flavour uses (e.g. ``"generously"`` gives NLTK ``"gener"``, Snowball
``"generous"``). This module is an independent implementation of that behaviour, written from
the algorithm's description and NLTK's documented deviations:

* the word is lower-cased first; a short table of irregular forms is looked up before any rule
  (``skies -> sky``, ``dying -> die``, ``innings -> inning``, ``proceed`` stays, ...);
* words of at most two characters (measured *before* lower-casing) are returned lower-cased;
* step 1a maps a four-letter ``-ies`` word to ``-ie`` (``dies -> die``, but ``flies -> fli``);
* step 1b maps ``-ied`` to ``-ie`` in a four-letter word, else to ``-i``, and stops there;
* step 1c turns a final ``y`` into ``i`` only after a consonant that is not the whole stem
  (``happy -> happi``, ``enjoy``, ``by`` unchanged);
* condition ``*o`` also holds for a two-letter vowel-consonant stem;
* step 2 tries ``-alli -> -al`` first and re-runs step 2 on the result; it has ``-bli -> -ble``
  (not ``-abli``), ``-fulli -> -ful`` and ``-logi -> -log`` measured with the ``l``;
* every rule list stops at the first suffix that matches, whether or not its condition holds.

Like NLTK we also keep one oddity of its step 1b, which tests the "double consonant" rule by a
literal suffix ``"*d"`` when the stem does not end in a double consonant (``"a*ded"`` ->
``"ad"``); it only affects tokens containing ``*``.

Results are cached per word. When the optional extension is built (``meteor_eval._ext``), the
rule steps run compiled (``nltk_porter_rules``, a C transcription of :func:`_stem_lowered`,
identical on the whole WordNet vocabulary and on random strings:
``tests/unit/resources/test_compiled_stemmers.py``); this module's Python code is the reference
and the fallback (forced with ``METEOR_EVAL_PURE_PYTHON=1``). Equality with NLTK 3.10 is tested on
the whole WordNet vocabulary plus the tokens of the METEOR example data
(``tests/unit/resources/test_nltk_porter.py``).

References:
    M. F. Porter. An algorithm for suffix stripping. Program 14(3), 130-137, 1980.
    NLTK documentation of ``nltk.stem.porter.PorterStemmer``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from meteor_eval._ext import compiled_function
from meteor_eval.resources.registry import cached_loader, sha256

if TYPE_CHECKING:
    from meteor_eval.resources.registry import ResourceSpec

__all__ = [
    "IRREGULAR_FORMS",
    "NltkPorterStemmer",
    "nltk_porter_spec",
    "nltk_porter_stem",
    "nltk_porter_stem_function",
    "nltk_porter_stemmer",
]

#: NLTK's table of irregular forms: word -> its stem, looked up before any rule.
IRREGULAR_FORMS: Final[dict[str, str]] = {
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

_VOWELS: Final = frozenset("aeiou")
# Per-word results are cached; past this many entries the cache starts afresh.
_CACHE_LIMIT: Final = 1 << 20

Condition = Callable[[str], bool]
Rule = tuple[str, str, Condition]


def _pattern(word: str) -> str:
    """One letter per character: ``c`` for a consonant, ``v`` for a vowel.

    A ``y`` is a consonant at the start of a word or after a vowel, and a vowel after a
    consonant. Every character other than ``a e i o u y`` (digits and punctuation included) is
    a consonant.
    """
    out: list[str] = []
    previous_consonant = False
    for char in word:
        if char in _VOWELS:
            consonant = False
        elif char == "y":
            consonant = not previous_consonant if out else True
        else:
            consonant = True
        out.append("c" if consonant else "v")
        previous_consonant = consonant
    return "".join(out)


def _measure(stem: str) -> int:
    """Porter's m: the number of vowel-sequence/consonant-sequence pairs in ``[C](VC){m}[V]``."""
    return _pattern(stem).count("vc")


def _positive_measure(stem: str) -> bool:
    return _measure(stem) > 0


def _measure_above_one(stem: str) -> bool:
    return _measure(stem) > 1


def _has_vowel(stem: str) -> bool:
    return "v" in _pattern(stem)


def _ends_double_consonant(word: str) -> bool:
    """Condition ``*d``: the word ends in two equal consonants."""
    return len(word) >= 2 and word[-1] == word[-2] and _pattern(word)[-1] == "c"


def _ends_cvc(word: str) -> bool:
    """Condition ``*o``: consonant-vowel-consonant ending, last not w/x/y; or a two-letter VC."""
    if len(word) >= 3:
        return _pattern(word)[-3:] == "cvc" and word[-1] not in ("w", "x", "y")
    return len(word) == 2 and _pattern(word) == "vc"


def _first_rule(word: str, rules: tuple[Rule, ...]) -> str:
    """Apply the first rule whose suffix ends ``word``; its condition decides, no later rule."""
    for suffix, replacement, condition in rules:
        if word.endswith(suffix):
            stem = word[: len(word) - len(suffix)]
            return stem + replacement if condition(stem) else word
    return word


def _always(_stem: str) -> bool:
    return True


def _rules(condition: Condition, replacements: tuple[tuple[str, str], ...]) -> tuple[Rule, ...]:
    """A step's rules: each ``(suffix, replacement)`` under the same ``condition``."""
    return tuple((suffix, replacement, condition) for suffix, replacement in replacements)


_STEP1A: Final = _rules(_always, (("sses", "ss"), ("ies", "i"), ("ss", "ss"), ("s", "")))

_STEP3: Final = _rules(
    _positive_measure,
    (
        ("icate", "ic"),
        ("ative", ""),
        ("alize", "al"),
        ("iciti", "ic"),
        ("ical", "ic"),
        ("ful", ""),
        ("ness", ""),
    ),
)


def _ion_condition(stem: str) -> bool:
    return _measure(stem) > 1 and stem[-1] in ("s", "t")


_STEP4: Final[tuple[Rule, ...]] = tuple(
    (suffix, "", _ion_condition if suffix == "ion" else _measure_above_one)
    for suffix in (
        "al",
        "ance",
        "ence",
        "er",
        "ic",
        "able",
        "ible",
        "ant",
        "ement",
        "ment",
        "ent",
        "ion",
        "ou",
        "ism",
        "ate",
        "iti",
        "ous",
        "ive",
        "ize",
    )
)

# Step 2 without its last rule (``-logi``, whose condition looks at the stem plus its "l").
_STEP2_HEAD: Final = _rules(
    _positive_measure,
    (
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
    ),
)


def _step1a(word: str) -> str:
    if len(word) == 4 and word.endswith("ies"):
        return word[:-3] + "ie"
    return _first_rule(word, _STEP1A)


def _step1b(word: str) -> str:
    if word.endswith("ied"):
        return word[:-3] + ("ie" if len(word) == 4 else "i")
    if word.endswith("eed"):
        stem = word[:-3]
        return stem + "ee" if _measure(stem) > 0 else word
    if word.endswith("ed") and _has_vowel(word[:-2]):
        stem = word[:-2]
    elif word.endswith("ing") and _has_vowel(word[:-3]):
        stem = word[:-3]
    else:
        return word
    # Tidying after -ed/-ing removal: restore the e of -ate/-ble/-ize, undouble a final
    # consonant (but not l, s, z), or add an e to a short consonant-vowel-consonant stem.
    if stem.endswith(("at", "bl", "iz")):
        return stem + "e"
    if _ends_double_consonant(stem):
        return stem if stem[-1] in ("l", "s", "z") else stem[:-1]
    if stem.endswith("*d"):
        # NLTK tests the double-consonant rule as a literal suffix "*d" too (see module docs).
        return stem[:-2] + "d"
    if _measure(stem) == 1 and _ends_cvc(stem):
        return stem + "e"
    return stem


def _step1c(word: str) -> str:
    if word.endswith("y"):
        stem = word[:-1]
        if len(stem) > 1 and _pattern(stem)[-1] == "c":
            return stem + "i"
    return word


def _step2(word: str) -> str:
    if word.endswith("alli") and _measure(word[:-4]) > 0:
        return _step2(word[:-4] + "al")
    for suffix, replacement, condition in _STEP2_HEAD:
        if word.endswith(suffix):
            stem = word[: len(word) - len(suffix)]
            return stem + replacement if condition(stem) else word
    if word.endswith("logi"):
        return word[:-4] + "log" if _measure(word[:-3]) > 0 else word
    return word


def _step5a(word: str) -> str:
    if word.endswith("e"):
        stem = word[:-1]
        m = _measure(stem)
        if m > 1 or (m == 1 and not _ends_cvc(stem)):
            return stem
    return word


def _step5b(word: str) -> str:
    if word.endswith("ll") and _measure(word[:-1]) > 1:
        return word[:-1]
    return word


def _stem_lowered(word: str) -> str:
    """All rule steps on an already lower-cased word longer than two characters."""
    word = _step1a(word)
    word = _step1b(word)
    word = _step1c(word)
    word = _step2(word)
    word = _first_rule(word, _STEP3)
    word = _first_rule(word, _STEP4)
    word = _step5a(word)
    return _step5b(word)


# The compiled rule steps when available and allowed, else :func:`_stem_lowered`.
_RULES: Final[Callable[[str], str]] = compiled_function("nltk_porter_rules") or _stem_lowered
# The compiled whole stem of one word, ``(IRREGULAR_FORMS, word)`` (see :func:`nltk_porter_stem`).
_WORD: Final[Callable[[dict[str, str], str], str] | None] = compiled_function("nltk_porter_word")


def nltk_porter_stem(word: str) -> str:
    """``PorterStemmer().stem(word)`` of NLTK without a cache: for callers that keep their own
    per-word cache (the ``nltk`` flavour's), so that a new word costs one call.

    Compiled, the lower-casing, the irregular forms (:data:`IRREGULAR_FORMS`, read from this
    module's table), the length rule and the rule steps all run in ``nltk_porter_word``;
    :meth:`NltkPorterStemmer._stem` is its Python twin (the fallback, and the reference of the
    tests).

    Example:
        >>> nltk_porter_stem("Generously"), nltk_porter_stem("dies")
        ('gener', 'die')
    """
    if _WORD is not None:
        return _WORD(IRREGULAR_FORMS, word)
    return NltkPorterStemmer._stem(word, word.lower())


def nltk_porter_stem_function() -> Callable[[str], str]:
    """:func:`nltk_porter_stem` as the cheapest callable of one word: compiled, the kernel
    bound to :data:`IRREGULAR_FORMS` by :func:`functools.partial` (no Python frame a word,
    for a per-word cache's function); else :func:`nltk_porter_stem` itself.

    Example:
        >>> nltk_porter_stem_function()("Dying")
        'die'
    """
    if _WORD is None:
        return nltk_porter_stem
    return functools.partial(_WORD, IRREGULAR_FORMS)


class NltkPorterStemmer:
    """NLTK's ``PorterStemmer()`` (mode ``NLTK_EXTENSIONS``) with a per-word cache.

    Obtain the shared instance with :func:`nltk_porter_stemmer`. ``stem`` has NLTK's call
    signature, so the object can stand in for NLTK's stemmer (also inside NLTK's own METEOR).

    Example:
        >>> stemmer = nltk_porter_stemmer()
        >>> [stemmer.stem(w) for w in ("caresses", "dies", "flies", "generously", "Running")]
        ['caress', 'die', 'fli', 'gener', 'run']
    """

    __slots__ = ("_cache",)

    def __init__(self) -> None:
        """Create a stemmer with an empty cache."""
        self._cache: dict[str, str] = {}

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return (nltk_porter_stemmer, ())

    def __repr__(self) -> str:
        return "<NltkPorterStemmer>"

    def stem(self, word: str, to_lowercase: bool = True) -> str:
        """The stem of ``word``, as NLTK's ``PorterStemmer().stem(word, to_lowercase)``.

        Args:
            word: One token.
            to_lowercase: Lower-case the word first (NLTK's default). With ``False`` the rules
                run on the word as given (upper-case letters then count as consonants).
        """
        if not to_lowercase:
            return self._stem(word, word)
        cache = self._cache
        found = cache.get(word)
        if found is None:
            if len(cache) >= _CACHE_LIMIT:
                cache.clear()
            found = nltk_porter_stem(word)
            cache[word] = found
        return found

    __call__ = stem

    @staticmethod
    def _stem(original: str, word: str) -> str:
        irregular = IRREGULAR_FORMS.get(word)
        if irregular is not None:
            return irregular
        # NLTK measures the length of the word as given, before lower-casing.
        if len(original) <= 2:
            return word
        return _RULES(word)


@cached_loader
def nltk_porter_stemmer() -> NltkPorterStemmer:
    """The shared NLTK-compatible Porter stemmer (its cache is shared too)."""
    return NltkPorterStemmer()


@cached_loader
def nltk_porter_spec() -> ResourceSpec:
    """Identity of this stemmer for signatures.

    The checksum covers the rule tables (irregular forms and suffix lists), so it changes only
    when the rules do.
    """
    tables = [sorted(IRREGULAR_FORMS.items())]
    tables.extend(
        [(s, r) for s, r, _c in rules] for rules in (_STEP1A, _STEP2_HEAD, _STEP3, _STEP4)
    )
    digest = sha256(repr(tables).encode()).hexdigest()
    from meteor_eval.resources.registry import ResourceSpec  # on first use: a dataclass

    return ResourceSpec(
        name="porter-nltk", language="en", version="3.10", sha256=digest, licence="Apache-2.0"
    )
