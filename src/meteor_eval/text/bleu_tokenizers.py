"""sacrebleu's BLEU tokenizers, re-implemented: ``13a``, ``intl``, ``char``, ``none``, ``zh``.

Each tokenizer maps a line to a string of space-separated tokens, exactly as sacrebleu 2.x does,
so that BLEU computed here equals sacrebleu's. They are written from the behaviour of
``mteval-v13a.pl`` / ``mteval-v14.pl`` (the WMT scorers) and sacrebleu's documentation.

* ``13a``: mteval-v13a: unescapes four XML entities, splits punctuation and symbols off words, but
  keeps periods and commas between digits (``3.14``, ``1,000``) and splits a dash after a digit.
* ``intl``: mteval-v14 ``--international-tokenization``: splits Unicode punctuation unless it sits
  between digits on the relevant side, and every Unicode symbol. sacrebleu uses the ``regex``
  module's ``\\p{P}``, ``\\p{S}``, ``\\p{N}``; we build the same classes from :mod:`unicodedata`,
  so characters added to Unicode after Python's database version may be classified differently.
* ``char``: every character is a token (spaces included as separators, as in sacrebleu).
* ``none``: the line unchanged.
* ``zh``: every CJK character is a token, the rest is tokenized by the 13a rules (without 13a's
  entity handling and padding). sacrebleu's table of CJK ranges writes two astral ranges with
  four-digit escapes, so in effect they cover U+2001-U+2A6D and U+2F81-U+2FA1 (general
  punctuation, arrows, mathematical operators, ...). We reproduce that quirk for equality.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import cache, lru_cache
from typing import Literal, get_args

__all__ = ["BLEU_TOKENIZERS", "COMPILED_TOKENIZERS", "BleuTokenizerName", "get_bleu_tokenizer"]

BleuTokenizerName = Literal["13a", "intl", "char", "none", "zh"]

#: Names accepted by :func:`get_bleu_tokenizer`, in documentation order.
BLEU_TOKENIZERS: tuple[str, ...] = get_args(BleuTokenizerName)

#: The tokenizers the compiled BLEU kernel (``_ext/texttok.c``) reproduces, by its code for
#: them; ``zh`` stays in Python.
COMPILED_TOKENIZERS: dict[str, int] = {"13a": 0, "intl": 1, "char": 2, "none": 3}

# mteval-v13a's language-dependent rules. The first class holds every ASCII punctuation mark and
# symbol except period, comma, hyphen-minus and apostrophe, written as ranges.
_RULES_13A: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    # a period or comma not preceded by a digit
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    # a period or comma not followed by a digit
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    # a dash after a digit
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
)


@lru_cache(maxsize=2**16)
def _post_13a(line: str) -> str:
    for pattern, replacement in _RULES_13A:
        line = pattern.sub(replacement, line)
    return " ".join(line.split())


@lru_cache(maxsize=2**16)
def tokenize_13a(line: str) -> str:
    """Tokenize like mteval-v13a (sacrebleu's default ``13a``)."""
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        line = (
            line.replace("&quot;", '"')
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
        )
    return _post_13a(f" {line} ")


def _class_of(prefix: str) -> str:
    """A regular-expression character class body covering one Unicode major category."""
    parts: list[str] = []
    start = -1
    for code in range(0x110000 + 1):
        inside = code < 0x110000 and unicodedata.category(chr(code)).startswith(prefix)
        if inside and start < 0:
            start = code
        elif not inside and start >= 0:
            end = code - 1
            if start == end:
                parts.append(re.escape(chr(start)))
            else:
                parts.append(f"{re.escape(chr(start))}-{re.escape(chr(end))}")
            start = -1
    return "".join(parts)


@cache
def _intl_rules() -> tuple[tuple[re.Pattern[str], str], ...]:
    # Built on first use (a scan of the code space takes a fraction of a second).
    punct, symbol, number = _class_of("P"), _class_of("S"), _class_of("N")
    return (
        (re.compile(f"([^{number}])([{punct}])"), r"\1 \2 "),
        (re.compile(f"([{punct}])([^{number}])"), r" \1 \2"),
        (re.compile(f"([{symbol}])"), r" \1 "),
    )


@lru_cache(maxsize=2**16)
def tokenize_intl(line: str) -> str:
    """Tokenize like mteval-v14 with international tokenization (sacrebleu's ``intl``)."""
    for pattern, replacement in _intl_rules():
        line = pattern.sub(replacement, line)
    return " ".join(line.split())


@lru_cache(maxsize=2**16)
def tokenize_char(line: str) -> str:
    """One token per character (sacrebleu's ``char``)."""
    return " ".join(line)


def tokenize_none(line: str) -> str:
    """No tokenization: the line is split on whitespace only (sacrebleu's ``none``)."""
    return line


# Code point ranges (inclusive) that sacrebleu's ``zh`` tokenizer treats as Chinese characters,
# including the effective ranges of its two mistyped astral entries (see the module docstring).
_ZH_RANGES: tuple[tuple[int, int], ...] = (
    (0x3400, 0x4DB5),
    (0x4E00, 0x9FA5),
    (0x9FA6, 0x9FBB),
    (0xF900, 0xFA2D),
    (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9),
    (0x2001, 0x2A6D),
    (0x2F81, 0x2FA1),
    (0xFF00, 0xFFEF),
    (0x2E80, 0x2EFF),
    (0x3000, 0x303F),
    (0x31C0, 0x31EF),
    (0x2F00, 0x2FDF),
    (0x2FF0, 0x2FFF),
    (0x3100, 0x312F),
    (0x31A0, 0x31BF),
    (0xFE10, 0xFE1F),
    (0xFE30, 0xFE4F),
    (0x2600, 0x26FF),
    (0x2700, 0x27BF),
    (0x3200, 0x32FF),
    (0x3300, 0x33FF),
)


@lru_cache(maxsize=2**16)
def _is_chinese_char(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _ZH_RANGES)


@lru_cache(maxsize=2**16)
def tokenize_zh(line: str) -> str:
    """Split CJK characters apart, then apply the 13a rules (sacrebleu's ``zh``)."""
    spaced = "".join(f" {char} " if _is_chinese_char(char) else char for char in line.strip())
    return _post_13a(spaced)


_TOKENIZERS: dict[str, Callable[[str], str]] = {
    "13a": tokenize_13a,
    "intl": tokenize_intl,
    "char": tokenize_char,
    "none": tokenize_none,
    "zh": tokenize_zh,
}


def get_bleu_tokenizer(name: str) -> Callable[[str], str]:
    """The tokenizer function called ``name``.

    Args:
        name: One of ``13a``, ``intl``, ``char``, ``none``, ``zh``.

    Returns:
        A function from a line to its space-separated tokens.

    Raises:
        ValueError: If ``name`` is unknown.

    Example:
        >>> get_bleu_tokenizer("13a")("Hello, world.")
        'Hello , world .'
    """
    try:
        return _TOKENIZERS[name]
    except KeyError:
        raise ValueError(
            f"tokenize: got {name!r}, expected one of {', '.join(BLEU_TOKENIZERS)}"
        ) from None
