"""Function-word lists of METEOR 1.5.

METEOR splits matches into function and content words (the ``δ`` parameter weighs them). A
token is a function word iff its Java lower-case form (:func:`meteor_eval.text.tokenize.java_lower`
applied by the caller) is an entry of the language's list. The lists are the files
``function/<language>.words`` shipped inside the official METEOR 1.5 jar, byte-identical; the
jar's authors built them from word frequencies in large corpora, so they contain punctuation
too. English, Czech, French, German, Russian and Spanish have entries; every other language has
an empty list, so all its words count as content words.

Files are read like the jar reads them (spec §2.6): UTF-8 (malformed bytes become U+FFFD), one
entry per line, lines end at ``\\n``, ``\\r`` or ``\\r\\n``, and entries are taken verbatim
(no trimming, a byte-order mark stays part of the first entry). ``-s file`` in the jar replaces
the list with a user file: :func:`load_function_words_file`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from meteor_eval.errors import ResourceError
from meteor_eval.resources.registry import ResourceSpec, cached_loader, data_file, sha256

__all__ = [
    "FUNCTION_WORD_LANGUAGES",
    "function_words",
    "function_words_spec",
    "load_function_words_file",
    "parse_function_words",
]

# Long name -> short name of every language the jar knows (spec §2.1).
_SHORT_NAMES: Final = {
    "english": "en",
    "czech": "cz",
    "french": "fr",
    "spanish": "es",
    "german": "de",
    "arabic-buckwalter-reduced": "ar-bw-red",
    "portuguese": "pt",
    "russian": "ru",
    "danish": "da",
    "romanian": "ro",
    "hungarian": "hu",
    "turkish": "tr",
    "finnish": "fi",
    "dutch": "nl",
    "italian": "it",
    "norwegian": "no",
    "swedish": "se",
    "other": "other",
}

#: Long names of the languages with a shipped (possibly empty) function-word list.
FUNCTION_WORD_LANGUAGES: Final = tuple(_SHORT_NAMES)


def parse_function_words(data: bytes) -> frozenset[str]:
    """Entries of a function-word file given its bytes, read as the jar reads them.

    Example:
        >>> sorted(parse_function_words(b"the\\r\\n a\\rof\\n\\xff\\n"))
        [' a', 'of', 'the', '\\ufffd']
    """
    text = data.decode("utf-8", errors="replace")
    # Universal line ends, as Java's BufferedReader.readLine sees them.
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()  # the text after the final line break is not a line
    return frozenset(lines)


def _check_language(language_long_name: str) -> None:
    if language_long_name not in _SHORT_NAMES:
        raise ResourceError(
            f"no function-word list for language {language_long_name!r}; available: "
            f"{', '.join(FUNCTION_WORD_LANGUAGES)}"
        )


@cached_loader
def function_words(language_long_name: str) -> frozenset[str]:
    """The shipped function words of a language, loaded once.

    Args:
        language_long_name: A long language name such as ``english`` or ``danish``.

    Raises:
        ResourceError: the language is unknown or its file is missing from the package.

    Example:
        >>> words = function_words("english")
        >>> len(words), "the" in words, "The" in words
        (93, True, False)
        >>> len(function_words("danish"))
        0
    """
    _check_language(language_long_name)
    return parse_function_words(_shipped_bytes(language_long_name))


def _shipped_bytes(language_long_name: str) -> bytes:
    """The bytes of the shipped list of a language (checked by the caller)."""
    return data_file("function", f"{language_long_name}.words").read_bytes()


def _user_bytes(path: Path) -> bytes:
    """The bytes of a user's function-word file.

    Raises:
        ResourceError: the file cannot be read.
    """
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise ResourceError(f"cannot read function-word file {str(path)!r}: {error}") from error


@cached_loader
def load_function_words_file(path: Path) -> frozenset[str]:
    """Function words from a user file (the jar's ``-s file`` option), loaded once per path.

    Raises:
        ResourceError: the file cannot be read.
    """
    return parse_function_words(_user_bytes(path))


@cached_loader
def function_words_spec(language_long_name: str, path: Path | None = None) -> ResourceSpec:
    """:class:`ResourceSpec` of a shipped list, or of the user file ``path`` if given.

    The checksum is the SHA-256 of the file's bytes; a user file gets version ``user``.
    """
    _check_language(language_long_name)
    if path is None:
        data = _shipped_bytes(language_long_name)
        version = "meteor-1.5"
        licence = "LGPL-2.1"
    else:
        data = _user_bytes(path)
        version = "user"
        licence = "unknown"
    return ResourceSpec(
        name="function-words",
        language=_SHORT_NAMES[language_long_name],
        version=version,
        sha256=sha256(data).hexdigest(),
        licence=licence,
    )
