"""Nonbreaking-prefix lists of the METEOR 1.5 normaliser (from the Moses tokenizer).

A word ending in a dot keeps its dot when the part before the dot is a listed prefix (``Mr.``,
``Dr.``), or, for prefixes marked ``#NUMERIC_ONLY#`` (``No.``, ``Art.``, ``pp.``), when the next
word starts with a digit. The files are the ones shipped inside the official METEOR 1.5 jar
(``nonbreaking/<language>.prefixes``), byte-identical, for the six languages the jar can
normalise; they are parsed the way the jar parses them (spec §2.6):

* each line is split on space, tab, newline, carriage return and form feed;
* empty lines and lines whose first token starts with ``#`` are skipped;
* the first token is the prefix, case-sensitive; it is numeric-only iff the second token is
  exactly ``#NUMERIC_ONLY#``. A prefix listed twice keeps its last type.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from meteor_eval.errors import ResourceError
from meteor_eval.resources.registry import ResourceSpec, cached_loader, data_file, file_sha256

__all__ = ["NONBREAKING_LANGUAGES", "nonbreaking_prefixes", "nonbreaking_spec", "parse_prefixes"]

#: Long names of the languages with a shipped prefix list.
NONBREAKING_LANGUAGES: Final = ("czech", "english", "french", "german", "russian", "spanish")

_TOKEN_RE: Final = re.compile("[^ \t\n\r\f]+")
_NUMERIC_ONLY: Final = "#NUMERIC_ONLY#"
_SHORT_NAMES: Final = {
    "czech": "cz",
    "english": "en",
    "french": "fr",
    "german": "de",
    "russian": "ru",
    "spanish": "es",
}


def _check_language(language_long_name: str) -> None:
    if language_long_name not in NONBREAKING_LANGUAGES:
        raise ResourceError(
            f"no nonbreaking-prefix list for language {language_long_name!r}; available: "
            f"{', '.join(NONBREAKING_LANGUAGES)}"
        )


def parse_prefixes(text: str) -> dict[str, bool]:
    """Parse the text of a ``.prefixes`` file into ``{prefix: numeric_only}``.

    Example:
        >>> parse_prefixes("# comment\\nMr\\nNo #NUMERIC_ONLY# \\n\\n")
        {'Mr': False, 'No': True}
    """
    prefixes: dict[str, bool] = {}
    # Java's readLine treats \\n, \\r and \\r\\n as line ends; CR is also a token delimiter, so
    # splitting on \\n alone gives the same tokens.
    for line in text.split("\n"):
        tokens = _TOKEN_RE.findall(line)
        if not tokens or tokens[0].startswith("#"):
            continue
        prefixes[tokens[0]] = len(tokens) > 1 and tokens[1] == _NUMERIC_ONLY
    return prefixes


@cached_loader
def nonbreaking_prefixes(language_long_name: str) -> Mapping[str, bool]:
    """Read-only ``{prefix: numeric_only}`` mapping for a language, loaded once.

    Args:
        language_long_name: ``english``, ``czech``, ``french``, ``spanish``, ``german`` or
            ``russian``.

    Raises:
        ResourceError: no list exists for the language, or the shipped file is missing.

    Example:
        >>> prefixes = nonbreaking_prefixes("english")
        >>> prefixes["Mr"], prefixes["No"], "mr" in prefixes
        (False, True, False)
    """
    _check_language(language_long_name)
    path = data_file("nonbreaking", f"{language_long_name}.prefixes")
    text = path.read_bytes().decode("utf-8", errors="replace")
    return MappingProxyType(parse_prefixes(text))


@cached_loader
def nonbreaking_spec(language_long_name: str) -> ResourceSpec:
    """:class:`ResourceSpec` of a language's prefix list (SHA-256 of the shipped file)."""
    _check_language(language_long_name)
    path = data_file("nonbreaking", f"{language_long_name}.prefixes")
    return ResourceSpec(
        name="nonbreaking-prefixes",
        language=_SHORT_NAMES[language_long_name],
        version="meteor-1.5",
        sha256=file_sha256(path),
        licence="LGPL-2.1",
    )
