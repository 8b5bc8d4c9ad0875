"""Java-compatible string primitives and the METEOR 1.5 preprocessing pipeline.

METEOR 1.5 (Denkowski & Lavie, 2014; the official Java jar) never tokenises with anything
smarter than ``java.util.StringTokenizer`` and compares words through ``String.hashCode``. A
score-compatible port therefore needs exact Python equivalents of a handful of Java string
operations, which live here:

* :func:`java_split` -- ``StringTokenizer`` with its default delimiters (space, ``\\t``, ``\\n``,
  ``\\r``, ``\\f``). ``str.split()`` is *not* equivalent: it also splits on ``\\x0b``, ``\\x1c``
  to ``\\x1f``, NBSP and the other Unicode spaces.
* :func:`java_trim` -- ``String.trim``: strips code points up to U+0020 and nothing else.
* :func:`java_lower` -- ``String.toLowerCase`` of Java 17 in an English locale.
* :func:`java_hash` -- ``String.hashCode``: the signed 32-bit polynomial hash over UTF-16 code
  units, which the jar uses as word identity (distinct words with equal hashes match).
* :func:`utf16_len` -- ``String.length``, used by character-based scoring.

:func:`preprocess` chains them the way the jar's scorer does for each hypothesis and reference
(flags ``-norm``, ``-norm -noPunct``, ``-lower``, or none).

Where Python and Java differ, the Java behaviour wins; see :func:`java_lower` for the two places
where lower-casing differs from ``str.lower``.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from typing import Final, Literal

from meteor_eval._ext import compiled_function
from meteor_eval._lazy import lazy_pattern
from meteor_eval.errors import ConfigError
from meteor_eval.text.normalize import normalize
from meteor_eval.types import Tokens

__all__ = [
    "NormalizationLevel",
    "java_hash",
    "java_hash_python",
    "java_lower",
    "java_split",
    "java_split_fields",
    "java_trim",
    "lower_sensitive",
    "preprocess",
    "utf16_len",
]

#: Preprocessing levels of the jar: ``none`` (no flag), ``lower`` (``-lower``), ``norm``
#: (``-norm``) and ``norm_nopunct`` (``-norm -noPunct``).
NormalizationLevel = Literal["none", "lower", "norm", "norm_nopunct"]

_LEVELS: Final = ("none", "lower", "norm", "norm_nopunct")

# StringTokenizer's default delimiter set; a token is any maximal run of other characters.
_TOKEN_RE: Final = re.compile("[^ \t\n\r\f]+")

# String.trim removes every code point <= U+0020 from both ends.
_TRIM_CHARS: Final = "".join(chr(code) for code in range(0x21))

# Upper-case letters whose lower-case mapping first appeared in Unicode 14.0. Java 17 implements
# Unicode 13.0, where these code points are unassigned and therefore left unchanged by
# toLowerCase; Python 3.11 (Unicode 14.0) would map them. The set was obtained by comparing
# Java 17's String.toLowerCase with str.lower over every code point.
_UNICODE14_UPPER: Final = frozenset(
    chr(code)
    for code in (
        [0x2C2F, 0xA7C0, 0xA7D0, 0xA7D6, 0xA7D8]
        + [code for code in range(0x10570, 0x10596) if code not in (0x1057B, 0x1058B, 0x10593)]
    )
)
# Compiled on first use (a text with a capital sigma or a code point from U+2C2F on): a class of
# 36 code points, most past the Basic Multilingual Plane, costs about 1.5 M instructions to
# compile, in every run with a non-ASCII line otherwise.
_UNICODE14_UPPER_RE: Final = lazy_pattern("[" + "".join(sorted(_UNICODE14_UPPER)) + "]")
# Where java_lower may differ from str.lower: a capital sigma, or a code point at or above the
# lowest of _UNICODE14_UPPER. A text has the latter when its largest code point is at least this
# one: ``max`` finds it in one compiled pass, where the equivalent one-range pattern
# ``[\u03a3\u2c2f-\U0010ffff]`` took about 6 ms to compile (the compiler walks a range past the
# Basic Multilingual Plane in Python) in every run with a non-ASCII line.
_FIRST_UNICODE14_UPPER: Final = min(_UNICODE14_UPPER)


_CAPITAL_SIGMA: Final = "\u03a3"
_SMALL_SIGMA: Final = "\u03c3"
_FINAL_SIGMA: Final = "\u03c2"

# What java_lower and str.lower give where they differ: a capital sigma becomes a small or a
# final sigma either way, and a letter new in Unicode 14 stays as it is (Java) or becomes its
# lower-case form (Python). Every other character is lowered alike by both.
_DIFFERENCE_LETTERS: Final = frozenset(
    {
        _SMALL_SIGMA,
        _FINAL_SIGMA,
        *_UNICODE14_UPPER,
        *(letter.lower() for letter in _UNICODE14_UPPER),
    }
)


def java_split(text: str) -> list[str]:
    """Split ``text`` like ``new StringTokenizer(text)`` (J2).

    Tokens are maximal runs of characters other than space, tab, newline, carriage return and
    form feed; no empty tokens are produced.

    Example:
        >>> java_split("  a\\tb\\u00a0c\\x0bd  ")
        ['a', 'b\\xa0c\\x0bd']
    """
    return _TOKEN_RE.findall(text)


def java_trim(text: str) -> str:
    """Remove leading and trailing code points ``<= U+0020`` like ``String.trim`` (J3).

    Example:
        >>> java_trim("\\x0b the cat\\x01 \\u00a0")
        'the cat\\x01 \\xa0'
    """
    return text.strip(_TRIM_CHARS)


def utf16_len(text: str) -> int:
    """Length of ``text`` in UTF-16 code units, i.e. Java's ``String.length()``.

    Example:
        >>> utf16_len("a\\U0001f600")
        3
    """
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for char in text if char > "\uffff")


@functools.lru_cache(maxsize=1 << 18)
def java_hash_python(token: str) -> int:
    """Java ``String.hashCode`` of ``token``: signed 32-bit, over UTF-16 code units (J1).

    The jar compares words by this hash, so two different words with equal hashes (``Aa`` and
    ``BB``) count as the same word. :data:`java_hash` is the compiled version of this function
    when the optional extension is built (same results, tested on random strings); this pure
    Python one is the reference and the fallback. Results are cached because the function runs
    for every token of every segment.

    Example:
        >>> java_hash("Aa") == java_hash("BB") == 2112
        True
        >>> java_hash("\\U0001f600")
        1772899
    """
    value = 0
    if token.isascii() or max(token) <= "\uffff":
        units: list[int] | bytes = [ord(char) for char in token]
    else:
        encoded = token.encode("utf-16-be", "surrogatepass")
        units = [encoded[i] << 8 | encoded[i + 1] for i in range(0, len(encoded), 2)]
    if len(units) <= 48:
        # Python integers do not overflow; one mask at the end is cheaper than one per unit.
        for unit in units:
            value = value * 31 + unit
    else:
        for unit in units:
            value = (value * 31 + unit) & 0xFFFFFFFF
    value &= 0xFFFFFFFF
    return value - 0x100000000 if value & 0x80000000 else value


#: Java ``String.hashCode`` of a string (see :func:`java_hash_python`): the compiled kernel when
#: available, else the pure-Python function.
java_hash: Callable[[str], int] = compiled_function("java_hash") or java_hash_python


def java_lower(text: str) -> str:
    """Lower-case ``text`` like Java 17's ``String.toLowerCase()`` in an English locale (J4).

    ``str.lower`` gives the same result except in two places, both reproduced here:

    * the 40 upper-case letters added in Unicode 14.0 are unassigned in Java 17 and stay
      unchanged;
    * the capital sigma ``Σ`` becomes final ``ς`` by Java's rule (a cased letter earlier in the
      same word and none later, where "word" follows ``java.text.BreakIterator``), which
      differs from Python's Unicode ``Final_Sigma`` rule around punctuation such as ``:``,
      ``·`` or ``’`` and modifier letters.

    ``İ`` (U+0130) becomes ``i̇`` (``i`` + U+0307) as in both languages.

    Example:
        >>> java_lower("ΟΔΟΣ Σ:A İ")
        'οδος σ:a i̇'
    """
    if text.isascii() or (_CAPITAL_SIGMA not in text and max(text) < _FIRST_UNICODE14_UPPER):
        return text.lower()  # no capital sigma, no code point from the first Unicode 14 one on
    if max(text) >= _FIRST_UNICODE14_UPPER and _UNICODE14_UPPER_RE.search(text) is not None:
        # Lower the pieces between the unassigned-in-Java letters and keep those letters.
        pieces = re.split(f"({_UNICODE14_UPPER_RE.pattern})", text)
        return "".join(
            piece if piece in _UNICODE14_UPPER else _lower_with_java_sigma(piece)
            for piece in pieces
        )
    return _lower_with_java_sigma(text)


def lower_sensitive(word: str) -> bool:
    """Whether ``word`` holds a letter that :func:`java_lower` and ``str.lower`` give where
    they lower a text differently (a small or final sigma, a letter new in Unicode 14 in
    either case). Where the two differ, both results hold such a letter: so whether a text,
    lower-cased, is in a set of words none of which is sensitive does not depend on which of
    the two lowered it.

    Example:
        >>> lower_sensitive("\u00e9t\u00e9"), lower_sensitive("\u03bf\u03b4\u03bf\u03c2")
        (False, True)
    """
    return not _DIFFERENCE_LETTERS.isdisjoint(word)


def _lower_with_java_sigma(text: str) -> str:
    """``str.lower`` with every capital sigma decided by Java's final-sigma rule."""
    if _CAPITAL_SIGMA not in text:
        return text.lower()
    parts = text.split(_CAPITAL_SIGMA)
    out: list[str] = [parts[0].lower()]
    position = len(parts[0])
    for part in parts[1:]:
        out.append(_FINAL_SIGMA if _java_final_sigma(text, position) else _SMALL_SIGMA)
        out.append(part.lower())
        position += 1 + len(part)
    return "".join(out)


# --- Java's final-sigma condition -------------------------------------------------------------
#
# java.lang.ConditionalSpecialCasing lower-cases U+03A3 to U+03C2 when, inside the word that
# contains it (as delimited by BreakIterator.getWordInstance), a cased character precedes it and
# no cased character follows it. The word segmentation used below is the part of the JDK's word
# rules that can matter next to a sigma: letters (L, Mc) and digits (N) with their combining
# marks form one word, format characters (Cf) are transparent, and a single "mid-word" mark
# (dash/connector punctuation, soft hyphen, U+2027, '"', "'", '.') joins letters on both sides,
# while a single "mid-number" mark ('"', "'", ',', U+066B, '.') joins digits.

_MID_WORD_EXTRA: Final = frozenset("\u00ad\u2027\"'.")
_MID_NUM: Final = frozenset("\"',\u066b.")
_OTHER_CASED_RANGES: Final = (
    (0x02B0, 0x02B8),
    (0x02C0, 0x02C1),
    (0x02E0, 0x02E4),
    (0x0345, 0x0345),
    (0x037A, 0x037A),
    (0x1D2C, 0x1D61),
    (0x2160, 0x217F),
    (0x24B6, 0x24E9),
)
# Letters the JDK word rules keep out of ordinary words (kanji, kana, CJK marks).
_CJK_RANGES: Final = (
    (0x3005, 0x3005),
    (0x4E00, 0x9FA5),
    (0xF900, 0xFA2D),
    (0x30A1, 0x30FA),
    (0x30FD, 0x30FE),
    (0x3041, 0x3094),
    (0x309D, 0x309E),
    (0x3099, 0x309C),
    (0x30FB, 0x30FC),
)


def _in_ranges(code: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(low <= code <= high for low, high in ranges)


def _java_is_cased(char: str) -> bool:
    """``ConditionalSpecialCasing.isCased``: Lu/Ll/Lt or a fixed Other_Lower/Upper list."""
    if unicodedata.category(char) in ("Lu", "Ll", "Lt"):
        return True
    return _in_ranges(ord(char), _OTHER_CASED_RANGES)


def _word_class(char: str) -> str:
    """Class of ``char`` for the word segmentation: L(etter), D(igit), E(nclosing), I(gnore),
    M(id-word), N(mid-number), B(oth mid marks) or O(ther)."""
    if char > "\uffff":
        # The JDK's legacy word iterator does not put supplementary characters inside words.
        return "O"
    category = unicodedata.category(char)
    if category == "Cf":
        return "I"
    if category in ("Mn", "Me"):
        return "E"
    if (category[0] == "L" or category == "Mc") and not _in_ranges(ord(char), _CJK_RANGES):
        return "L"
    if category[0] == "N":
        return "D"
    mid_word = category in ("Pd", "Pc") or char in _MID_WORD_EXTRA
    mid_num = char in _MID_NUM
    if mid_word and mid_num:
        return "B"
    if mid_word:
        return "M"
    if mid_num:
        return "N"
    return "O"


class _WordScan:
    """The JDK word segmentation of one text, read around a position (classes memoised).

    A position is inside a word when it is a letter or digit, a format character, a combining
    mark attached to a letter or digit, or a single mid mark joining two letters or two digits.
    """

    __slots__ = ("_memo", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._memo: dict[int, str] = {}

    def cls(self, i: int) -> str:
        """The :func:`_word_class` of ``text[i]``."""
        found = self._memo.get(i)
        if found is None:
            found = self._memo[i] = _word_class(self._text[i])
        return found

    def _core_before(self, i: int) -> int:
        """The nearest position before ``i`` that is not a combining or format character
        (-1 if none)."""
        left = i - 1
        while left >= 0 and self.cls(left) in ("E", "I"):
            left -= 1
        return left

    def _joins(self, i: int) -> bool:
        # A single mid mark inside a word: letter-mark-letter or digit-mark-digit, looking
        # through combining and format characters.
        left = self._core_before(i)
        right = i + 1
        while right < len(self._text) and self.cls(right) == "I":
            right += 1
        if left < 0 or right >= len(self._text):
            return False
        kind = self.cls(i)
        pair = (self.cls(left), self.cls(right))
        if kind in ("M", "B") and pair == ("L", "L"):
            return True
        return kind in ("N", "B") and pair == ("D", "D")

    def in_word(self, i: int) -> bool:
        """Whether ``text[i]`` continues the word next to it."""
        kind = self.cls(i)
        if kind in ("L", "D", "I"):
            return True  # format characters are transparent (and never cased)
        if kind == "E":
            # A combining mark belongs to the word of the letter/digit before it.
            left = self._core_before(i)
            return left >= 0 and self.cls(left) in ("L", "D")
        return self._joins(i)

    def word_bounds(self, index: int) -> tuple[int, int]:
        """``(start, end)`` of the word holding ``text[index]`` (end exclusive)."""
        start = index
        while start > 0 and self.in_word(start - 1):
            start -= 1
        end = index + 1
        while end < len(self._text) and self.in_word(end):
            end += 1
        return start, end


def _java_final_sigma(text: str, index: int) -> bool:
    """Whether the capital sigma at ``text[index]`` lower-cases to final sigma in Java."""
    start, end = _WordScan(text).word_bounds(index)
    before = any(_java_is_cased(text[i]) for i in range(start, index))
    after = any(_java_is_cased(text[i]) for i in range(index + 1, end))
    return before and not after


def preprocess(text: str, *, language: str, level: NormalizationLevel) -> Tokens:
    """Turn one hypothesis or reference into the tokens the jar scores (spec §1.6).

    * ``norm`` / ``norm_nopunct``: the §1.7 normaliser (keeping or dropping punctuation), then
      :func:`java_lower`, then :func:`java_split`;
    * ``lower``: :func:`java_lower`, then :func:`java_split`;
    * ``none``: :func:`java_split` only.

    The jar trims only inside the normaliser and when it reads stdio fields or SGML segments;
    plain-text lines are not trimmed, which is invisible here because trimming can only drop
    characters that are either delimiters or kept inside the first/last token. Callers that
    read stdio or SGML input apply :func:`java_trim` themselves.

    Args:
        text: One segment.
        language: Language code or long name (``en``, ``english``, ``cz``, ...); only used by
            the normalising levels.
        level: One of ``none``, ``lower``, ``norm``, ``norm_nopunct``.

    Returns:
        The tokens.

    Raises:
        ConfigError: ``level`` is unknown, or a normalising level is requested for a language
            that has no normaliser (only en, cz, fr, es, de and ru have one).

    Example:
        >>> preprocess("He said: \\"It's John's car.\\"", language="en", level="norm")
        ('he', 'said', ':', '"', 'it', "'s", 'john', "'s", 'car', '.', '"')
    """
    if level == "none":
        return tuple(_TOKEN_RE.findall(text))
    if level == "lower":
        return tuple(_TOKEN_RE.findall(java_lower(text)))
    if level in ("norm", "norm_nopunct"):
        normalised = java_lower(normalize(text, language, keep_punctuation=level == "norm"))
        # The normaliser's output has its tokens separated by single ASCII spaces, no other
        # delimiter and no space at either end, so splitting on " " is java_split (and faster).
        return tuple(normalised.split(" ")) if normalised else ()
    raise ConfigError(f"level must be one of {', '.join(_LEVELS)}; got {level!r}")


def java_split_fields(line: str) -> list[str]:
    """``line.split("\\\\|\\\\|\\\\|")``: split on ``|||``, trailing empty fields removed.

    Example:
        >>> java_split_fields("SCORE ||| a ||| b |||")
        ['SCORE ', ' a ', ' b ']
    """
    parts = line.split("|||")
    while parts and parts[-1] == "":
        parts.pop()
    return parts
