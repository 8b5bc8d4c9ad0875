"""Stemmers of the official METEOR 1.5 jar, plus the original Porter algorithm.

METEOR's ``stem`` module compares Snowball stems of tokens. The jar bundles Java Snowball stemmers
generated around 2010, and later Snowball releases changed several algorithms, so any current
stemmer gives different stems for some words. This module reproduces the jar's stemmers exactly with
pure-Python Snowball code vendored in :mod:`meteor_eval.resources._snowball`:

* English: ``snowballstemmer`` 2.2.0 (identical to the jar; 3.x differs, e.g. ``added``).
* French, Spanish, Portuguese, Russian, Danish, Romanian, Hungarian, Turkish, Finnish, Dutch,
  Italian, Norwegian, Swedish: ``snowballstemmer`` 1.2.1 (later releases differ for French
  ``-ïque``, Portuguese, Hungarian, Finnish, Danish upper-case letters and Russian ``ё``).
* German: 1.2.1 without the rule that turns a final ``-niss`` into ``-nis`` (the jar's older
  revision lacks it: ``Ergebnissen`` stems to ``Ergebniss``).
* Finnish: 1.2.1 run as the jar's Java runtime runs it. That runtime evaluates the condition
  attached to a suffix-table entry (``den``, ``tten``, ``siin`` need ``i`` plus a vowel before
  them, ``seen`` a long vowel) on a separate, empty stemmer object, so the condition always fails
  and a shorter suffix is removed instead: the jar stems ``huoneeseen`` to ``huonees``, where
  Snowball proper gives ``huone``. No other bundled stemmer has such conditions.
* Arabic (``ar-bw-red``): a lookup table read from a gzip file the user supplies, keyed like the
  jar by the Java ``String.hashCode`` of the word (see :func:`arabic_table_stemmer`).
* Porter: the original 1980 Porter algorithm as written in Snowball (from 2.2.0), used by the
  2005-paper flavour; the jar ships the same algorithm.

Stemming is applied to the token as it is: it is case-sensitive, and the English stemmer does not
lower-case. Identity with the jar is checked on the whole WordNet vocabulary and on synthetic word
lists for every other language (``tests/reference/test_stemmers_vs_jar.py``).

The English and Porter stemmers run compiled when the optional extension is built (the ``stem``
kernel of ``meteor_eval._ext``: C transcriptions of the same Snowball programs, about 80 times
faster and identical on every input: ``tests/unit/resources/test_compiled_stemmers.py``); the
vendored Python engines are the reference and the fallback (forced with
``METEOR_EVAL_PURE_PYTHON=1``).

Every stemmer is a plain ``Callable[[str], str]``. Results are cached per word in a dictionary
shared by all callers in the process, and each thread drives its own Snowball engine (the engines
keep state while they stem), so the callables may be used from several threads.

Example:
    >>> stem = get_stemmer("english")
    >>> stem("generously"), stem("added"), stem("Running")
    ('generous', 'ad', 'Run')
    >>> porter_stemmer()("ponies")
    'poni'

References:
    Snowball: https://snowballstem.org/. METEOR 1.5: Denkowski and Lavie (2014), "Meteor Universal:
    Language Specific Translation Evaluation for Any Target Language", WMT.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
from array import array
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, NamedTuple

from meteor_eval._ext import compiled_function
from meteor_eval._lazy import lazy_pattern
from meteor_eval.errors import ConfigError, ResourceError
from meteor_eval.resources.registry import ResourceSpec, cached_loader, file_sha256, sha256

__all__ = [
    "SNOWBALL_LANGUAGES",
    "arabic_table_spec",
    "arabic_table_stemmer",
    "compiled_stem_function",
    "get_stemmer",
    "normalize_language",
    "porter_spec",
    "porter_stemmer",
    "stemmer_spec",
]

Stemmer = Callable[[str], str]

#: Entries kept in a stemmer's word cache before it is emptied and refilled (bounds memory).
_CACHE_MAX_WORDS: Final = 1 << 18

_SNOWBALL_LICENCE: Final = "BSD-3-Clause"


class _Algorithm(NamedTuple):
    """Where a vendored Snowball stemmer lives and how it is identified.

    A named tuple, not a dataclass: the module makes sixteen at import, and a dataclass's
    generated methods are compiled when its class is made (about 4 M instructions, in every
    run that stems)."""

    code: str  # METEOR language code, as in the jar's ``-l`` option
    package: str  # subpackage of ``_snowball`` holding the upstream release
    module: str
    cls: str
    version: str  # upstream snowballstemmer release (plus a suffix when edited)


def _alg(code: str, name: str, package: str = "v1_2_1", version: str = "1.2.1") -> _Algorithm:
    return _Algorithm(code, package, f"{name}_stemmer", f"{name.capitalize()}Stemmer", version)


_ALGORITHMS: Final[dict[str, _Algorithm]] = {
    "english": _alg("en", "english", "v2_2_0", "2.2.0"),
    "french": _alg("fr", "french"),
    "german": _alg("de", "german", version="1.2.1-noniss"),
    "spanish": _alg("es", "spanish"),
    "portuguese": _alg("pt", "portuguese"),
    "russian": _alg("ru", "russian"),
    "danish": _alg("da", "danish"),
    "romanian": _alg("ro", "romanian"),
    "hungarian": _alg("hu", "hungarian"),
    "turkish": _alg("tr", "turkish"),
    "finnish": _alg("fi", "finnish", version="1.2.1-nocond"),
    "dutch": _alg("nl", "dutch"),
    "italian": _alg("it", "italian"),
    "norwegian": _alg("no", "norwegian"),
    "swedish": _alg("se", "swedish"),
}
_PORTER: Final = _alg("en", "porter", "v2_2_0", "2.2.0")

#: Long names of the languages that have a built-in Snowball stemmer, in the jar's order.
SNOWBALL_LANGUAGES: Final[tuple[str, ...]] = tuple(_ALGORITHMS)

# Language names and codes the jar accepts (case-insensitive), mapped to its long names.
_LANGUAGE_NAMES: Final[dict[str, str]] = {
    **{name: name for name in _ALGORITHMS},
    **{alg.code: name for name, alg in _ALGORITHMS.items()},
    "sv": "swedish",
    "czech": "czech",
    "cz": "czech",
    "cs": "czech",
    "arabic-buckwalter-reduced": "arabic-buckwalter-reduced",
    "ar-bw-red": "arabic-buckwalter-reduced",
    "other": "other",
    "xx": "other",
}


def normalize_language(language: str) -> str:
    """Map a METEOR language name or code to the jar's long name (``"de"`` → ``"german"``).

    Args:
        language: A name or code the jar accepts, in any case (``"en"``, ``"English"``, ``"se"``).

    Returns:
        The long name: one of :data:`SNOWBALL_LANGUAGES`, ``"czech"``,
        ``"arabic-buckwalter-reduced"`` or ``"other"``.

    Raises:
        ConfigError: if the jar does not know the language.
    """
    try:
        return _LANGUAGE_NAMES[language.lower()]
    except KeyError:
        allowed = ", ".join(sorted(_LANGUAGE_NAMES))
        raise ConfigError(f"Unknown language ({language}); allowed: {allowed}") from None


class _StemCache(dict[str, str]):
    """Word → stem dictionary that stems missing words on lookup.

    The stemmer handed out is the bound ``__getitem__`` of this dictionary, so a cached word costs
    one C-level dictionary lookup. Snowball engines keep the word being stemmed in instance state,
    so each thread creates its own engine; the dictionary itself is shared.
    """

    __slots__ = ("_factory", "_local")

    def __init__(self, factory: Callable[[], Any]) -> None:
        super().__init__()
        self._factory = factory
        self._local = threading.local()

    def __missing__(self, word: str) -> str:
        local = self._local
        engine = getattr(local, "engine", None)
        if engine is None:
            engine = local.engine = self._factory()
        engine.set_current(word)
        engine._stem()
        stem: str = engine.get_current()
        if len(self) >= _CACHE_MAX_WORDS:
            self.clear()
        self[word] = stem
        return stem


class _CompiledStemCache(dict[str, str]):
    """Word → stem dictionary over a compiled, stateless stemming function."""

    __slots__ = ("_function",)

    def __init__(self, function: Callable[[str], str]) -> None:
        super().__init__()
        self._function = function

    @property
    def stem_function(self) -> Callable[[str], str]:
        """The compiled function itself, for callers that stem words met for the first time
        (no dictionary work per word)."""
        return self._function

    def __missing__(self, word: str) -> str:
        stem = self._function(word)
        if len(self) >= _CACHE_MAX_WORDS:
            self.clear()
        self[word] = stem
        return stem


def compiled_stem_function(name: str) -> Callable[[str], str] | None:
    """The compiled stemmer of a Snowball algorithm, or ``None`` when there is none to use.

    Only English (``"english"``) and Porter (``"porter"``, :func:`porter_stemmer`'s algorithm)
    are compiled. ``None`` also when the extension is not built or ``METEOR_EVAL_PURE_PYTHON=1``
    is set.
    """
    if name not in ("english", "porter"):
        return None
    return compiled_function(f"snowball_{name}")


def _engine_class(alg: _Algorithm) -> Callable[[], Any]:
    module = importlib.import_module(f"meteor_eval.resources._snowball.{alg.package}.{alg.module}")
    factory: Callable[[], Any] = getattr(module, alg.cls)
    return factory


def _long_name_with_stemmer(language: str) -> str:
    name = normalize_language(language)
    if name == "arabic-buckwalter-reduced":
        raise ConfigError(
            f"No built-in stemmer for language ({name}): it stems with a lookup table; "
            "pass the table's path to arabic_table_stemmer()"
        )
    if name not in _ALGORITHMS:
        raise ConfigError(f"No stemmer for language ({name})")
    return name


@cached_loader
def _snowball_stemmer(name: str) -> Stemmer:
    compiled = compiled_stem_function(name)
    if compiled is not None:
        return _CompiledStemCache(compiled).__getitem__
    return _StemCache(_engine_class(_ALGORITHMS[name])).__getitem__


def get_stemmer(language: str) -> Stemmer:
    """The METEOR 1.5 jar's Snowball stemmer for a language.

    Args:
        language: A long name (``"english"``, ``"german"``, ...) or the jar's code (``"en"``,
            ``"de"``, ``"se"``); case-insensitive.

    Returns:
        A cached, thread-safe ``stem(word) -> str``. Repeated calls return the same callable.

    Raises:
        ConfigError: for an unknown language, and for Czech, ``other`` and the Arabic table
            language, which have no Snowball stemmer (as in the jar).

    Example:
        >>> get_stemmer("de")("Ergebnissen")
        'Ergebniss'
    """
    return _snowball_stemmer(_long_name_with_stemmer(language))


@cached_loader
def porter_stemmer() -> Stemmer:
    """The original Porter (1980) algorithm, as written in Snowball (``snowballstemmer`` 2.2.0).

    Compiled when the extension is built (see :func:`compiled_stem_function`), else the vendored
    Python engine.

    Returns:
        A cached, thread-safe ``stem(word) -> str``.

    Example:
        >>> porter_stemmer()("caresses")
        'caress'
    """
    compiled = compiled_stem_function("porter")
    if compiled is not None:
        return _CompiledStemCache(compiled).__getitem__
    return _StemCache(_engine_class(_PORTER)).__getitem__


def _vendored_sha256(alg: _Algorithm) -> str:
    """SHA-256 over the vendored files that define an algorithm (its module, then the runtime)."""
    root = Path(__file__).resolve().parent / "_snowball" / alg.package
    digest = sha256()
    for name in (f"{alg.module}.py", "basestemmer.py", "among.py"):
        digest.update(root.joinpath(name).read_bytes())
    return digest.hexdigest()


@cached_loader
def _snowball_spec(alg: _Algorithm, name: str) -> ResourceSpec:
    return ResourceSpec(
        name=name,
        language=alg.code,
        version=alg.version,
        sha256=_vendored_sha256(alg),
        licence=_SNOWBALL_LICENCE,
    )


def stemmer_spec(language: str) -> ResourceSpec:
    """Identity of :func:`get_stemmer`'s stemmer for signatures (e.g. ``snowball-en-2.2.0-…``).

    Raises:
        ConfigError: as :func:`get_stemmer`.
    """
    return _snowball_spec(_ALGORITHMS[_long_name_with_stemmer(language)], "snowball")


@cached_loader
def porter_spec() -> ResourceSpec:
    """Identity of :func:`porter_stemmer` for signatures (``snowball-porter-en-2.2.0-…``)."""
    return _snowball_spec(_PORTER, "snowball-porter")


# --- Arabic lookup table --------------------------------------------------------------------

# java.util.StringTokenizer's default delimiters, and a Java int as Integer.parseInt reads it.
# Where Python's str.split()/splitlines() disagree with Java's StringTokenizer and readLine():
# ASCII characters that Python treats as whitespace or line breaks and Java does not (or the
# reverse), and non-ASCII line breaks. Without them the fast str methods give Java's result.
# Compiled by the first table read, not at import: only the languages with a lookup table
# (Arabic) read one, and compiling them is about 3 M instructions.
_JAVA_WHITESPACE: Final = lazy_pattern(r"[ \t\n\r\f]+")
_JAVA_INT: Final = lazy_pattern(r"[+-]?[0-9]+")
_ASCII_NOT_JAVA: Final = lazy_pattern("[\x0b\x0c\x1c-\x1f]")
_BREAK_NOT_JAVA: Final = lazy_pattern("[\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
_JAVA_LINE_BREAK: Final = lazy_pattern(r"\r\n|\r|\n")


_BIG_ENDIAN: Final = sys.byteorder == "big"


def _java_string_hash(text: str) -> int:
    """Java's ``String.hashCode``: a polynomial over UTF-16 code units, as a signed 32-bit int."""
    if text.isascii():
        units: bytes | array[int] = text.encode("ascii")
    else:
        units = array("H", text.encode("utf-16-le"))
        if _BIG_ENDIAN:
            units.byteswap()
    value = 0
    if len(units) <= 64:  # small enough to reduce modulo 2**32 once at the end
        for unit in units:
            value = value * 31 + unit
        value &= 0xFFFFFFFF
    else:
        for unit in units:
            value = (value * 31 + unit) & 0xFFFFFFFF
    return value - 0x100000000 if value & 0x80000000 else value


def _read_stem_table(path: Path) -> dict[int, str]:
    """Parse a ``word count stem [count stem ...]`` gzip table into hash(word) → first stem."""
    import gzip  # only here: the Arabic table is the one gzip resource a stemmer reads

    try:
        with gzip.open(path, "rb") as handle:
            text = handle.read().decode("utf-8", errors="replace")
    except (OSError, EOFError, gzip.BadGzipFile) as error:
        raise ResourceError(f"cannot read stem table {path}: {error}") from error
    odd_ascii = _ASCII_NOT_JAVA.search(text) is not None
    if _BREAK_NOT_JAVA.search(text) is None:
        lines = text.splitlines()
    else:
        lines = _JAVA_LINE_BREAK.split(text)
    table: dict[int, str] = {}
    java_hash = _java_string_hash
    java_split, java_int = _JAVA_WHITESPACE.split, _JAVA_INT.fullmatch  # once, not a line
    for number, line in enumerate(lines, start=1):
        if line.isascii() and not odd_ascii:
            fields = line.split(None, 3)
        else:  # Python's split() would also break at e.g. U+00A0, which Java keeps in a token
            fields = java_split(line.strip(" \t\n\r\f"), 3)
        if len(fields) < 3 or not java_int(fields[1]):
            if fields in ([], [""]):
                continue  # blank line (the jar would fail on it)
            raise ResourceError(
                f"{path}:{number}: expected 'word count stem [count stem ...]', got {line!r}"
            )
        # Like the jar: key by the word's hash, keep the first stem, later lines win.
        table[java_hash(fields[0])] = fields[2]
    return table


class _TableStemCache(dict[str, str]):
    """Word → stem cache in front of a hash-keyed lookup table; unknown words stem to themselves."""

    __slots__ = ("_table",)

    def __init__(self, table: dict[int, str]) -> None:
        super().__init__()
        self._table = table

    def __missing__(self, word: str) -> str:
        stem = self._table.get(_java_string_hash(word), word)
        if len(self) >= _CACHE_MAX_WORDS:
            self.clear()
        self[word] = stem
        return stem


def _resolve(path: str | os.PathLike[str]) -> Path:
    resolved = Path(path).expanduser().resolve()
    if not resolved.is_file():
        raise ResourceError(f"stem table not found: {resolved}")
    return resolved


@cached_loader
def _table_stemmer(path: Path) -> Stemmer:
    return _TableStemCache(_read_stem_table(path)).__getitem__


def arabic_table_stemmer(path: str | os.PathLike[str]) -> Stemmer:
    """The jar's Arabic (``ar-bw-red``) stemmer: a lookup table read from a gzip file.

    The file holds UTF-8 lines ``word count stem [count stem ...]``. As in the jar, only the first
    stem of a line is used, the table is keyed by the Java ``String.hashCode`` of the word (so a
    later line whose word has the same hash wins, and a word that merely shares a hash with a
    listed word gets that word's stem), and words not in the table stem to themselves. The jar
    ships such a table as ``stem/arabic-buckwalter-reduced.gz``; meteor-eval does not.

    Args:
        path: The gzip file. It is loaded once per resolved path.

    Returns:
        A cached ``stem(word) -> str``.

    Raises:
        ResourceError: if the file is missing, is not gzip, or has a malformed line.
    """
    return _table_stemmer(_resolve(path))


def arabic_table_spec(path: str | os.PathLike[str]) -> ResourceSpec:
    """Identity of a user-supplied Arabic stem table for signatures (checksum of the file)."""
    resolved = _resolve(path)
    return ResourceSpec(
        name="stem-table",
        language="ar-bw-red",
        version="user",
        sha256=file_sha256(resolved),
        licence="user-supplied",
    )
