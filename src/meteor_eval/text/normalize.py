"""The METEOR 1.5 text normaliser (``-norm`` and ``-norm -noPunct``), step by step.

This is a port of the behaviour of the normaliser in the official METEOR 1.5 jar (Denkowski &
Lavie, 2014), which its authors derived from the Moses tokenizer and extended with quote, dash
and dot handling. It reproduces the jar's output for English, Czech, French, Spanish, German
and Russian, checked against the jar on thousands of adversarial lines (see
``tests/reference/test_normalize_vs_jar.py``), including its quirks:

* replacements are Java ``replaceAll`` calls whose context characters are consumed, so in
  ``a,b,c`` only the first comma is split and ``a-b-c`` becomes ``a b-c``;
* character classes are explicit (ASCII digits, Latin-1/Latin Extended-A, Cyrillic and the
  phonetic extensions count as letters; Greek, CJK, Arabic and the like do not, so each such
  letter becomes a token of its own);
* runs of dots are protected with a ``DOTMULTI`` placeholder, so the literal word ``DOTMULTI``
  turns into ``.``;
* sentence-final dots are split off unless the word is a nonbreaking prefix (looked up in its
  original case), is followed by a lower-case word, or mixes dots and letters (``U.S.`` becomes
  ``US``).

Lower-casing is not part of the normaliser: the jar lower-cases afterwards (see
:func:`meteor_eval.text.tokenize.preprocess`). The normaliser for Arabic and "other" present in
the jar's source is unreachable there and is not provided.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Final

from meteor_eval._ext import compiled_function
from meteor_eval._lazy import lazy_pattern
from meteor_eval.errors import ConfigError
from meteor_eval.resources.nonbreaking import nonbreaking_prefixes

__all__ = ["NORMALIZED_LANGUAGES", "normalize", "normalize_python", "normalizer_language"]

# --- Character classes (spec J9: explicit, never Python's Unicode-aware shorthands) -----------

_ALPHA: Final = (
    "A-Za-z\u0160\u017d\u0161\u017e\u0178\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017e"
    "\u0400-\u04ff\u0500-\u0527\ua640-\ua66e\ua67e-\ua697\u1d00-\u1d7f"
)
_ALNUM: Final = "0-9" + _ALPHA
# java.util.regex \s without the UNICODE_CHARACTER_CLASS flag.
_JAVA_WS: Final = " \t\n\x0b\f\r"
# Characters the final whitespace collapse treats as spaces.
_SPACES: Final = " \u2000-\u200a\u202f\u205f\u3000\u00a0"
# Characters the trim at the end removes (String.trim: every code point <= U+0020).
_TRIM_CHARS: Final = "".join(chr(code) for code in range(0x21))


# The pure-Python steps' patterns, compiled on first use: the compiled normaliser does not need
# them, and their large character classes take several milliseconds to compile.


_ALPHA_RE: Final = lazy_pattern(f"[{_ALPHA}]")
_SEP_OTHER_RE: Final = lazy_pattern(f"([^{_ALNUM}{_JAVA_WS}.'`,\\-\u2018\u2019])")
_MULTI_DOT_RE: Final = lazy_pattern(r"\.(\.+)")
_MULTI_DOT_FOLLOWED_RE: Final = lazy_pattern(r"DOTMULTI\.([^.])")
_COMMA_RES: Final = (
    lazy_pattern(r"([^0-9]),([^0-9])"),
    lazy_pattern(r"([0-9]),([^0-9])"),
    lazy_pattern(r"([^0-9]),([0-9])"),
)
_DIGIT_COMMA_RE: Final = lazy_pattern("[0-9],|,[0-9]")
# Two commas at most one character apart: a match of the first comma pass may consume the
# character the next comma needs.
_CLOSE_COMMAS_RE: Final = lazy_pattern(",.?,", re.DOTALL)
_SINGLE_QUOTE_RE: Final = lazy_pattern("[`\u2018\u2019]")
_DOUBLE_QUOTE_RE: Final = lazy_pattern("[\u201c\u201d]|''")
_INTRA_WORD_DASH_RE: Final = lazy_pattern(f"([{_ALNUM}.])-([{_ALNUM}])")
_TOKEN_RE: Final = lazy_pattern("[^ \t\n\r\f]+")
_NON_ALNUM_RE: Final = lazy_pattern(f"[^{_ALNUM}]")
_SPACES_RE: Final = lazy_pattern(f"[{_SPACES}]+")
_UNICODE_SPACE_RE: Final = lazy_pattern(f"[{_SPACES[1:]}]")

# English apostrophes: split contractions to the right (don't -> don 't).
# Each rule is (pattern, text put between its two groups): the jar's replacement "$1 ' $2" etc.
_EN_APOSTROPHE_RULES: Final = (
    (lazy_pattern(f"([^{_ALPHA}])'([^{_ALPHA}])"), " ' "),
    (lazy_pattern(f"([^{_ALPHA}0-9])'([{_ALPHA}])"), " ' "),
    (lazy_pattern(f"([{_ALPHA}])'([^{_ALPHA}])"), " ' "),
    (lazy_pattern(f"([{_ALPHA}])'([{_ALPHA}])"), " '"),
    (lazy_pattern(r"([0-9])'(s)"), " '"),
)
# French apostrophes: split elisions to the left (l'homme -> l' homme).
_FR_APOSTROPHE_RULES: Final = (
    (lazy_pattern(f"([^{_ALPHA}])'([^{_ALPHA}])"), " ' "),
    (lazy_pattern(f"([^{_ALPHA}])'([{_ALPHA}])"), " ' "),
    (lazy_pattern(f"([{_ALPHA}])'([^{_ALPHA}])"), " ' "),
    (lazy_pattern(f"([{_ALPHA}])'([{_ALPHA}])"), "' "),
)

# Language codes and long names accepted by the jar (case-insensitive) -> long name.
_LANGUAGE_NAMES: Final[Mapping[str, str]] = {
    "en": "english",
    "english": "english",
    "cz": "czech",
    "cs": "czech",
    "czech": "czech",
    "fr": "french",
    "french": "french",
    "es": "spanish",
    "spanish": "spanish",
    "de": "german",
    "german": "german",
    "ru": "russian",
    "russian": "russian",
    "ar-bw-red": "arabic-buckwalter-reduced",
    "arabic-buckwalter-reduced": "arabic-buckwalter-reduced",
    "pt": "portuguese",
    "portuguese": "portuguese",
    "da": "danish",
    "danish": "danish",
    "ro": "romanian",
    "romanian": "romanian",
    "hu": "hungarian",
    "hungarian": "hungarian",
    "tr": "turkish",
    "turkish": "turkish",
    "fi": "finnish",
    "finnish": "finnish",
    "nl": "dutch",
    "dutch": "dutch",
    "it": "italian",
    "italian": "italian",
    "no": "norwegian",
    "norwegian": "norwegian",
    "se": "swedish",
    "sv": "swedish",
    "swedish": "swedish",
    "other": "other",
    "xx": "other",
}

#: Long names of the languages that have a normaliser (the jar's "supported" languages).
NORMALIZED_LANGUAGES: Final = frozenset(
    {"english", "czech", "french", "spanish", "german", "russian"}
)


def normalizer_language(language: str) -> str:
    """Long language name whose normaliser applies to ``language`` (a code or long name).

    Raises:
        ConfigError: the language is unknown, or known but without a normaliser.

    Example:
        >>> normalizer_language("CS")
        'czech'
    """
    long_name = _LANGUAGE_NAMES.get(language.lower())
    if long_name is None:
        raise ConfigError(
            f"unknown language {language!r}; expected one of {', '.join(sorted(_LANGUAGE_NAMES))}"
        )
    if long_name not in NORMALIZED_LANGUAGES:
        raise ConfigError(
            f"no normaliser for language {language!r} ({long_name}): only en, cz, fr, es, de and "
            "ru can be normalised. Pre-process the input files and run Meteor without the -norm "
            "option."
        )
    return long_name


# --- Substitution helpers ----------------------------------------------------------------------
# Python 3.11 expands a replacement template such as r"\1 , \2" in Python code for every match;
# splitting on the pattern (its groups are kept in the result) and joining is the same text built
# in C. Both scan left to right for non-overlapping matches, and none of these patterns can match
# the empty string, so the results are identical.


def _sub_spaced(pattern: re.Pattern[str], line: str) -> str:
    """``pattern.sub(r" \\1 ", line)`` for a pattern whose one group is the whole match."""
    return " ".join(pattern.split(line))


def _sub_pair(pattern: re.Pattern[str], middle: str, line: str) -> str:
    """``pattern.sub(r"\\1" + middle + r"\\2", line)`` for a pattern ``(a)x(b)``."""
    parts = pattern.split(line)
    if len(parts) == 1:
        return line
    # parts = [text, a, b, text, a, b, ..., text]: put ``middle`` between each a and b.
    parts[1::3] = [a + middle for a in parts[1::3]]
    return "".join(parts)


# --- The steps, in the order the jar applies them ---------------------------------------------


def _isolate_other_characters(line: str) -> str:
    """Surround every character that is not a letter/digit, Java whitespace or one of
    ``. ' ` , - ‘ ’`` with spaces (each Greek/CJK letter and each emoji becomes a token)."""
    return _sub_spaced(_SEP_OTHER_RE, line)


def _protect_dot_runs(line: str) -> str:
    """Replace each run of two or more dots by a ``DOTMULTI``-based placeholder token.

    First ``..`` + more dots becomes `` DOTMULTI`` + the remaining dots; then each
    ``DOTMULTI.`` is folded into ``DOTDOTMULTI`` (followed by a space when a non-dot follows)
    until no ``DOTMULTI.`` is left, exactly as the jar loops.
    """
    if ".." in line:  # the pattern needs two dots in a row
        line = _MULTI_DOT_RE.sub(r" DOTMULTI\1", line)
    while "DOTMULTI." in line:
        line = _MULTI_DOT_FOLLOWED_RE.sub(r"DOTDOTMULTI \1", line)
        line = line.replace("DOTMULTI.", "DOTDOTMULTI")
    return line


def _split_commas(line: str) -> str:
    """Split commas unless they sit between two digits (three consuming passes)."""
    if "," not in line:  # fast path: the passes below only ever touch commas
        return line
    if _DIGIT_COMMA_RE.search(line) is None:
        # No comma touches a digit, and the first pass only puts spaces next to commas, so the
        # two passes that need a digit beside a comma cannot match.
        if _CLOSE_COMMAS_RE.search(line) is None and line[0] != "," and line[-1] != ",":
            # Every comma has a character on each side that no other match consumes: the
            # first pass pads every comma.
            return line.replace(",", " , ")
        return _sub_pair(_COMMA_RES[0], " , ", line)
    for pattern in _COMMA_RES:
        line = _sub_pair(pattern, " , ", line)
    return line


def _normalize_quotes(line: str) -> str:
    """Map `` ` ‘ ’`` to ``'``, then ``“ ”`` and ``''`` to a spaced ``"``."""
    if "`" in line or "\u2018" in line or "\u2019" in line:
        line = _SINGLE_QUOTE_RE.sub("'", line)
    if "''" in line or "\u201c" in line or "\u201d" in line:
        line = _DOUBLE_QUOTE_RE.sub(' " ', line)
    return line


def _normalize_dashes(line: str) -> str:
    """En dash to hyphen, then one literal pass of ``--`` to ``-``."""
    return line.replace("\u2013", "-").replace("--", "-")


def _remove_intra_word_hyphens(line: str) -> str:
    """Replace a hyphen between a letter/digit/dot and a letter/digit by a space."""
    if "-" not in line:
        return line
    return _sub_pair(_INTRA_WORD_DASH_RE, " ", line)


def _apply_apostrophe_rules(line: str, rules: Iterable[tuple[re.Pattern[str], str]]) -> str:
    """``rules`` (pattern, middle) applied in order to a line holding an apostrophe."""
    if "'" not in line:
        return line
    for pattern, middle in rules:
        line = _sub_pair(pattern, middle, line)
    return line


def _split_apostrophes_english(line: str) -> str:
    """English contractions split to the right (``don't`` -> ``don 't``, ``90's`` -> ``90 's``)."""
    return _apply_apostrophe_rules(line, _EN_APOSTROPHE_RULES)


def _split_apostrophes_french(line: str) -> str:
    """French elisions split to the left: ``l'homme`` -> ``l' homme``."""
    return _apply_apostrophe_rules(line, _FR_APOSTROPHE_RULES)


def _split_apostrophes_everywhere(line: str) -> str:
    """Czech, Spanish, German, Russian: every apostrophe becomes its own token."""
    return line.replace("'", " ' ")


_APOSTROPHE_STEP: Final[Mapping[str, Callable[[str], str]]] = {
    "english": _split_apostrophes_english,
    "french": _split_apostrophes_french,
    "czech": _split_apostrophes_everywhere,
    "spanish": _split_apostrophes_everywhere,
    "german": _split_apostrophes_everywhere,
    "russian": _split_apostrophes_everywhere,
}


def _split_sentence_dots(line: str, prefixes: Mapping[str, bool]) -> str:
    """Split a word-final dot off unless the word is an abbreviation.

    For each token longer than one character that ends in ``.`` (``pre`` = the token without
    that dot): a ``pre`` containing a dot and a letter loses all its dots (``U.S.`` -> ``US``);
    a prefix listed for any context, or a token followed by a word starting with ``a``-``z``,
    stays; a numeric-only prefix followed by a word starting with a digit stays; anything else
    becomes ``pre .``. Lookups use the original case, since the jar lower-cases only later.
    Every emitted token is followed by one space.
    """
    words = _TOKEN_RE.findall(line)
    if not words:
        return ""
    if "." in line:
        last = len(words) - 1
        # Decisions look at the original following word, so fill a copy.
        out = list(words)
        for i, word in enumerate(words):
            if word[-1] != "." or len(word) < 2:
                continue
            pre = word[:-1]
            numeric_only = prefixes.get(pre)
            following = words[i + 1] if i < last else ""
            if "." in pre and _ALPHA_RE.search(pre) is not None:
                out[i] = word.replace(".", "")
            elif not (
                numeric_only is False
                or "a" <= following[:1] <= "z"
                or (numeric_only and "0" <= following[:1] <= "9")
            ):
                out[i] = pre + " ."
        words = out
    words.append("")
    return " ".join(words)


def _restore_dot_runs(line: str) -> str:
    """Turn the placeholders back into dots (``DOTDOTMULTI`` -> ``DOTMULTI.`` -> ``..``)."""
    while "DOTDOTMULTI" in line:
        line = line.replace("DOTDOTMULTI", "DOTMULTI.")
    return line.replace("DOTMULTI", ".")


def _remove_punctuation(line: str) -> str:
    """``-noPunct``: every character that is not a letter or digit becomes a space."""
    return _NON_ALNUM_RE.sub(" ", line)


def _collapse_spaces(line: str) -> str:
    """Collapse runs of (Unicode) spaces to one space, then trim like ``String.trim``."""
    if _UNICODE_SPACE_RE.search(line) is not None:
        line = _SPACES_RE.sub(" ", line)
    else:
        # Only ASCII spaces to collapse: splitting on " " is the same and much faster.
        line = " ".join(part for part in line.split(" ") if part)
    return line.strip(_TRIM_CHARS)


# Apostrophe rule of each language for the compiled normaliser: 0 English, 1 French, 2 the
# rest (every apostrophe its own token).
_KERNEL_MODES: Final[Mapping[str, int]] = {"english": 0, "french": 1}


# The compiled normaliser (``_ext/normalize.c``) when the extension is built and not disabled.
_normalize_line: Callable[[str, int, bool, dict[str, bool]], str] | None = compiled_function(
    "normalize_line"
)
# Nonbreaking prefixes as plain dictionaries, for the compiled normaliser (one per language).
_prefix_dicts: dict[str, dict[str, bool]] = {}


def normalize(text: str, language: str, *, keep_punctuation: bool = True) -> str:
    """Normalise one segment exactly as METEOR 1.5 does with ``-norm`` (spec §1.7).

    The result keeps the input's case; the jar lower-cases it afterwards.

    Args:
        text: One line of text (without line breaks; any other character is allowed).
        language: Code or long name of en, cz (cs), fr, es, de or ru, case-insensitive.
        keep_punctuation: ``False`` reproduces ``-noPunct``: every non-alphanumeric character
            is dropped at the end.

    Returns:
        The normalised text, tokens separated by single spaces.

    Raises:
        ConfigError: the language is unknown or has no normaliser.

    Example:
        >>> normalize("Mr. Smith met Dr. Who at 5 p.m. today.", "en")
        'Mr. Smith met Dr. Who at 5 pm today .'
        >>> normalize("l'homme d'affaires", "fr")
        "l' homme d' affaires"
    """
    long_name = normalizer_language(language)
    if _normalize_line is not None:
        prefixes = _prefix_dicts.get(long_name)
        if prefixes is None:
            prefixes = _prefix_dicts[long_name] = dict(nonbreaking_prefixes(long_name))
        return _normalize_line(text, _KERNEL_MODES.get(long_name, 2), keep_punctuation, prefixes)
    return normalize_python(text, long_name, keep_punctuation=keep_punctuation)


def normalize_python(text: str, language: str, *, keep_punctuation: bool = True) -> str:
    """:func:`normalize` in pure Python: the reference for the compiled normaliser, and the
    code that runs when the extension is not built (same arguments, same result)."""
    long_name = normalizer_language(language)
    line = f" {text} "
    line = _isolate_other_characters(line)
    line = _protect_dot_runs(line)
    line = _split_commas(line)
    line = _normalize_quotes(line)
    line = _normalize_dashes(line)
    line = _remove_intra_word_hyphens(line)
    line = _APOSTROPHE_STEP[long_name](line)
    line = _split_sentence_dots(line, nonbreaking_prefixes(long_name))
    line = _restore_dot_runs(line)
    if not keep_punctuation:
        line = _remove_punctuation(line)
    elif _UNICODE_SPACE_RE.search(line) is None:
        # The dot step joined the tokens with single ASCII spaces and nothing since added any:
        # there is no run to collapse, only the trim.
        return line.strip(_TRIM_CHARS)
    return _collapse_spaces(line)
