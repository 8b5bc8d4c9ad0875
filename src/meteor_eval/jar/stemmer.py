"""The jar's stemming tool: ``java -cp meteor-1.5.jar Stemmer LANG < in > out``.

Reproduced byte for byte (``tests/reference/test_matcher_stemmer_golden.py``): each input line
(``\\n``, ``\\r`` or ``\\r\\n`` ends one) becomes one output line, its blank-separated tokens
stemmed one by one with the jar's Snowball stemmer for ``LANG`` (case kept) and joined by single
spaces; an empty or blank line gives an empty line. A token made only of decimal digits and
``, . -`` is left as it is (the Finnish stemmer would otherwise turn ``--`` into ``-``); a digit
here is what Java's ``Character.isDigit(char)`` accepts, a decimal digit of the Basic
Multilingual Plane (``٣`` and ``０`` are, ``𝟏`` outside it and ``²`` are not: checked with the
jar). ``LANG`` is any name or code the jar accepts
(``en``, ``English``, ``se``, ...). Anything but exactly one argument prints the usage text on
stderr, exit status 1.

Where the jar dies with a stack trace, one ``Error: ...`` line is printed on stderr instead, exit
status 1: ``ar`` (listed in the jar's usage, refused by it: ``Unknown language (ar)``), an
unknown language, and languages without a stemmer (``cz``, ``other``). The legacy Arabic stemmer
(``ar-bw-red``) is a lookup table inside the jar that meteor-eval does not ship, so it is refused
too (``meteor-eval stem --lang ar-bw-red --stem-table FILE`` takes such a table).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Final, TextIO

from meteor_eval.errors import ConfigError
from meteor_eval.text.tokenize import java_split

__all__ = ["STEMMER_USAGE", "is_number_token", "jar_stemmer", "run_stemmer", "stem_line"]

#: The Stemmer's usage text (printed on stderr, exit status 1).
STEMMER_USAGE: Final = """Snowball stem some text in a supported language
Languages: en ar da de es fi fr hu it nl no pt ro ru se tr
Usage: Stemmer lang < in > out
"""


def jar_stemmer(language: str) -> Callable[[str], str]:
    """The stemmer the jar's ``Stemmer LANG`` uses.

    Raises:
        ConfigError: the jar has no stemmer for ``language`` (the message is the jar's).
    """
    from meteor_eval.metrics.meteor.presets import resolve_language
    from meteor_eval.resources.stemmers import get_stemmer

    try:
        name = resolve_language(language).long_name
    except ConfigError:
        raise ConfigError(f"Unknown language ({language})") from None
    if name == "arabic-buckwalter-reduced":
        raise ConfigError(
            "the ar-bw-red stemmer is the jar's lookup table stem/arabic-buckwalter-reduced.gz, "
            "which meteor-eval does not ship (meteor-eval stem --lang ar-bw-red --stem-table FILE)"
        )
    try:
        return get_stemmer(name)
    except ConfigError:
        raise ConfigError(f"No stemmer for language ({name})") from None


def is_number_token(token: str) -> bool:
    """Whether the jar's ``Stemmer`` leaves ``token`` unstemmed (see the module docstring).

    Example:
        >>> is_number_token("1,000.5"), is_number_token("--"), is_number_token("12a")
        (True, True, False)
    """
    return all(ch in ",.-" or (ch.isdecimal() and ord(ch) < 0x10000) for ch in token)


def stem_line(line: str, stem: Callable[[str], str]) -> str:
    """One line's tokens stemmed and joined by single spaces (the jar's output line)."""
    return " ".join(token if is_number_token(token) else stem(token) for token in java_split(line))


def run_stemmer(argv: Sequence[str], *, lines: Iterable[str], out: TextIO, err: TextIO) -> int:
    """Run ``Stemmer`` with ``argv`` (after the class name); returns the exit status.

    Args:
        argv: ``LANG``.
        lines: Standard input's lines.
        out: Standard output.
        err: Standard error.
    """
    if len(argv) != 1:
        err.write(STEMMER_USAGE)
        return 1
    try:
        stem = jar_stemmer(argv[0])
    except ConfigError as exc:
        err.write(f"Error: {exc}\n")
        return 1
    for line in lines:
        out.write(stem_line(line, stem) + "\n")
    return 0
