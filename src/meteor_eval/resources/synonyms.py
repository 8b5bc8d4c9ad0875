"""WordNet 3.0 for the synonym matchers: the METEOR 1.5 view and the NLTK view.

One shipped resource (``data/wordnet/``, built by ``scripts/build_wordnet.py`` from Debian's
``wordnet-base`` files, with synset offsets restored to those of Princeton's WordNet 3.0 release)
serves two readers:

* :class:`MeteorWordNet` reproduces the official METEOR 1.5 jar's synonym module
  (``SynonymDictionary`` over ``synonym/english.synsets`` and ``synonym/english.exceptions``):
  a word maps to the set of its synset offsets as plain integers, all parts of speech mixed (a
  noun and a verb synset with the same byte offset count as the same set), and
  :meth:`MeteorWordNet.synonym_set` computes the spec's S(t) = synsets(t) ∪ baseSynsets(t) with
  the jar's exception lookup and its 20 suffix rules. Lookups are case-sensitive, as in the jar.
  The word -> offset sets equal the jar's for all 147,306 words (tested).
* :class:`NltkWordNet` reproduces what ``nltk.corpus.wordnet`` (NLTK 3.10, Princeton WordNet 3.0
  data) returns from ``wordnet.synsets(word)``: the input is lower-cased, ``_morphy`` runs per
  part of speech (exception list, else one pass of NLTK's suffix substitutions, keeping the
  word itself when it is a lemma), and synsets come in NLTK's order with their lemma names in
  data-file order and case. NLTK's METEOR (``nltk.translate.meteor_score``) uses only the lemma
  names: :meth:`NltkWordNet.lemma_names`.

Where we differ from the tools: nothing in the results. The jar builds its table from
``index.sense``, NLTK reads the dictionary files at run time; we ship one derived copy.

References:
    Miller, G. A. (1995). WordNet: a lexical database for English. CACM 38(11).
    Denkowski, M. and Lavie, A. (2014). Meteor Universal. WMT.
"""

from __future__ import annotations

import bisect
import functools
import gzip
import hashlib
import io
import struct
import sys
from array import array
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Final, Literal

from meteor_eval.errors import ResourceError
from meteor_eval.resources.registry import ResourceSpec, cached_loader, data_file, file_sha256

__all__ = [
    "METEOR_BINARY_FILE",
    "METEOR_MORPH_RULES",
    "NLTK_SUBSTITUTIONS",
    "WORDNET_FILES",
    "MeteorWordNet",
    "NltkWordNet",
    "WordNetPos",
    "meteor_wordnet",
    "nltk_wordnet",
    "wordnet_spec",
]

#: Files of the shipped resource, under ``data/wordnet/``.
WORDNET_FILES: Final = ("index.tsv.gz", "synsets.tsv.gz", "exceptions.tsv.gz")

#: The METEOR view's word -> synset table in a compact binary form derived from ``index.tsv.gz``
#: (by ``scripts/build_wordnet.py`` via :func:`build_meteor_binary`), so that it loads in a few
#: milliseconds instead of parsing the text index. Not part of the resource's identity (it holds
#: nothing that ``index.tsv.gz`` does not); it records the SHA-256 of the index it came from and
#: is ignored (the text index is parsed) when that does not match.
METEOR_BINARY_FILE: Final = "meteor-synsets.bin.gz"

# magic, format version, words, offsets, bytes of the word list, SHA-256 of index.tsv.gz
_BINARY_HEADER: Final = struct.Struct("<8sIIII32s")
_BINARY_MAGIC: Final = b"MEWNSYN\0"
_BINARY_VERSION: Final = 1

#: A WordNet part of speech as NLTK spells it (``s`` = adjective satellite).
WordNetPos = Literal["n", "v", "a", "s", "r"]

#: The jar's morphological rules (suffix, replacement), tried in this order (spec §3.3): the noun,
#: verb and adjective rules of WordNet's morphy concatenated, with ``s -> ""`` and
#: ``ies -> y`` appearing twice.
METEOR_MORPH_RULES: Final[tuple[tuple[str, str], ...]] = (
    ("s", ""),
    ("ses", "s"),
    ("xes", "x"),
    ("zes", "z"),
    ("ches", "ch"),
    ("shes", "sh"),
    ("men", "man"),
    ("ies", "y"),
    ("s", ""),
    ("ies", "y"),
    ("es", "e"),
    ("es", ""),
    ("ed", "e"),
    ("ed", ""),
    ("ing", "e"),
    ("ing", ""),
    ("er", ""),
    ("est", ""),
    ("er", "e"),
    ("est", "e"),
)

_ADJ_RULES: Final = (("er", ""), ("est", ""), ("er", "e"), ("est", "e"))

#: NLTK 3.10's ``WordNetCorpusReader.MORPHOLOGICAL_SUBSTITUTIONS`` (note ``ves -> f``).
NLTK_SUBSTITUTIONS: Final[Mapping[str, tuple[tuple[str, str], ...]]] = MappingProxyType(
    {
        "n": (
            ("s", ""),
            ("ses", "s"),
            ("ves", "f"),
            ("xes", "x"),
            ("zes", "z"),
            ("ches", "ch"),
            ("shes", "sh"),
            ("men", "man"),
            ("ies", "y"),
        ),
        "v": (
            ("s", ""),
            ("ies", "y"),
            ("es", "e"),
            ("es", ""),
            ("ed", "e"),
            ("ed", ""),
            ("ing", "e"),
            ("ing", ""),
        ),
        "a": _ADJ_RULES,
        "s": _ADJ_RULES,
        "r": (),
    }
)

# NLTK's POS_LIST: the parts of speech ``synsets(word)`` walks when no pos is given.
_NLTK_POS_ORDER: Final = ("n", "v", "a", "r")
_EMPTY_OFFSETS: Final[frozenset[int]] = frozenset()
_EMPTY_NAMES: Final[frozenset[str]] = frozenset()
# Per-token results are cached; the bound keeps memory flat on endless vocabularies.
_CACHE_SIZE: Final = 1 << 20


def _read_rows(name: str) -> list[list[str]]:
    """Tab-separated rows of one shipped file."""
    path = data_file("wordnet", name)
    try:
        text = gzip.decompress(path.read_bytes()).decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as error:
        raise ResourceError(f"WordNet data file {path} is corrupt ({error}); reinstall") from error
    return [line.split("\t") for line in text.splitlines()]


@cached_loader
def wordnet_spec() -> ResourceSpec:
    """Identity of the shipped WordNet resource, for signatures.

    The checksum is the SHA-256 of the lines ``"<file name> <sha256 of the file>\\n"`` for the
    files of :data:`WORDNET_FILES`, in that order.
    """
    digest = hashlib.sha256()
    for name in WORDNET_FILES:
        digest.update(f"{name} {file_sha256(data_file('wordnet', name))}\n".encode())
    return ResourceSpec(
        name="wordnet",
        language="en",
        version="3.0",
        sha256=digest.hexdigest(),
        licence="WordNet-3.0",
    )


def _utf16_length_at_most_2(token: str) -> bool:
    # Java's String.length() counts UTF-16 units: a non-BMP character counts twice.
    if len(token) > 2:
        return False
    return len(token) + sum(1 for char in token if ord(char) > 0xFFFF) <= 2


class MeteorWordNet:
    """The METEOR 1.5 jar's view of WordNet: words -> integer synset sets, plus exceptions.

    Obtain the shared instance with :func:`meteor_wordnet`. It is read-only and pickles as a
    reference to the shared instance (a worker process loads its own copy once).

    Example:
        >>> wn = meteor_wordnet()
        >>> bool(wn.synonym_set("big") & wn.synonym_set("large"))
        True
        >>> wn.morph("churches"), wn.morph("class"), wn.morph("handful")
        ('church', 'class', '')
    """

    __slots__ = ("_exceptions", "_synonym_set", "_synsets")

    _synsets: Mapping[str, tuple[int, ...]]

    def __init__(
        self, synsets: Mapping[str, tuple[int, ...]], exceptions: Mapping[str, tuple[str, ...]]
    ) -> None:
        """Wrap the two tables; use :func:`meteor_wordnet` for the shipped data.

        Args:
            synsets: Word -> its synset offsets (all parts of speech).
            exceptions: Inflected form -> its base forms.
        """
        self._synsets = synsets if isinstance(synsets, _SynsetTable) else dict(synsets)
        self._exceptions = dict(exceptions)
        self._synonym_set = functools.lru_cache(maxsize=_CACHE_SIZE)(self._compute_synonym_set)

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return (meteor_wordnet, ())

    def __len__(self) -> int:
        """Number of words with synsets (147,306 for the shipped data)."""
        return len(self._synsets)

    def __contains__(self, word: object) -> bool:
        return word in self._synsets

    def words(self) -> Iterable[str]:
        """Every word of the table (lower case, multiword entries joined by ``_``)."""
        return self._synsets.keys()

    @property
    def exceptions(self) -> Mapping[str, tuple[str, ...]]:
        """Inflected form -> base forms (sorted, deduplicated) from WordNet's ``*.exc`` lists."""
        return MappingProxyType(self._exceptions)

    def synsets(self, word: str) -> frozenset[int]:
        """Synset offsets listed for ``word`` exactly as written (empty when unlisted)."""
        return frozenset(self._synsets.get(word, ()))

    def morph(self, token: str) -> str:
        """The jar's suffix-rule base form of ``token`` (spec §3.3 morph).

        Returns ``token`` itself if it ends in ``ss`` or has at most two UTF-16 units; otherwise
        the first rule candidate that is a listed word; otherwise ``""``. Words ending in
        ``ful`` fall through every rule (no suffix matches them), as in the jar.
        """
        if token.endswith("ss") or _utf16_length_at_most_2(token):
            return token
        table = self._synsets
        for suffix, replacement in METEOR_MORPH_RULES:
            if token.endswith(suffix):
                candidate = token[: len(token) - len(suffix)] + replacement
                if candidate in table:
                    return candidate
        return ""

    def synonym_set(self, token: str) -> frozenset[int]:
        """S(t) = synsets(t) ∪ baseSynsets(t) of spec §3.3, cached per token.

        baseSynsets uses the exception list when ``token`` is an inflected form in it (union
        over all its bases), otherwise :meth:`morph`. Case-sensitive.

        Example:
            >>> wn = meteor_wordnet()
            >>> wn.synonym_set("went") >= wn.synsets("go")
            True
        """
        return self._synonym_set(token)

    def _compute_synonym_set(self, token: str) -> frozenset[int]:
        table = self._synsets
        offsets = list(table.get(token, ()))
        bases = self._exceptions.get(token)
        if bases is not None:
            for base in bases:
                offsets.extend(table.get(base, ()))
        else:
            offsets.extend(table.get(self.morph(token), ()))
        return frozenset(offsets) if offsets else _EMPTY_OFFSETS


def _merged_synsets(rows: Iterable[list[str]]) -> dict[str, tuple[int, ...]]:
    """The jar's word -> sorted distinct synset offsets (all parts of speech) from index rows."""
    merged: dict[str, list[int]] = {}
    for _pos, lemma, offsets in rows:
        merged.setdefault(lemma, []).extend(map(int, offsets.split()))
    return {word: tuple(sorted(set(offsets))) for word, offsets in merged.items()}


def build_meteor_binary(index_gz: bytes) -> bytes:
    """The gzip'd content of :data:`METEOR_BINARY_FILE` for the given ``index.tsv.gz`` bytes.

    Layout after the header (little-endian): the words sorted by code point and joined by ``\n``
    (UTF-8), zero-padded to 4 bytes; ``words + 1`` uint32 starts into the offsets; the uint32
    synset offsets of each word, ascending. Deterministic: the same index gives the same bytes.

    Raises:
        ResourceError: the index is corrupt or an offset does not fit 32 bits.
    """
    try:
        text = gzip.decompress(index_gz).decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as error:
        raise ResourceError(f"WordNet index is corrupt ({error})") from error
    synsets = _merged_synsets(line.split("\t") for line in text.splitlines())
    words = sorted(synsets)
    starts = array("I", [0])
    offsets = array("I")
    try:
        for word in words:
            offsets.extend(synsets[word])
            starts.append(len(offsets))
    except OverflowError as error:
        raise ResourceError("WordNet index: a synset offset does not fit 32 bits") from error
    blob = "\n".join(words).encode("utf-8")
    if sys.byteorder != "little":
        starts.byteswap()
        offsets.byteswap()
    header = _BINARY_HEADER.pack(
        _BINARY_MAGIC,
        _BINARY_VERSION,
        len(words),
        len(offsets),
        len(blob),
        hashlib.sha256(index_gz).digest(),
    )
    body = header + blob + bytes(-len(blob) % 4) + starts.tobytes() + offsets.tobytes()
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0, compresslevel=9) as gz:
        gz.write(body)
    return buffer.getvalue()


class _SynsetTable(Mapping[str, tuple[int, ...]]):
    """Word -> synset offsets over the binary form: a sorted word list searched by bisection.

    Nothing is decoded per word until it is looked up, which makes loading cheap (the METEOR
    view needs a few thousand of the 147,306 words in a typical run).
    """

    __slots__ = ("_offsets", "_starts", "_words")

    def __init__(self, words: list[str], starts: array[int], offsets: array[int]) -> None:
        self._words = words
        self._starts = starts
        self._offsets = offsets

    def _position(self, word: object) -> int:
        words = self._words
        if not isinstance(word, str):
            return -1
        at = bisect.bisect_left(words, word)
        return at if at < len(words) and words[at] == word else -1

    def __getitem__(self, word: str) -> tuple[int, ...]:
        at = self._position(word)
        if at < 0:
            raise KeyError(word)
        return tuple(self._offsets[self._starts[at] : self._starts[at + 1]])

    def get(self, word: str, default: object = None) -> tuple[int, ...] | object:  # type: ignore[override]
        at = self._position(word)
        if at < 0:
            return default
        return tuple(self._offsets[self._starts[at] : self._starts[at + 1]])

    def __contains__(self, word: object) -> bool:
        return self._position(word) >= 0

    def __iter__(self) -> Iterator[str]:
        return iter(self._words)

    def __len__(self) -> int:
        return len(self._words)


def _load_meteor_binary(index_gz: bytes) -> _SynsetTable | None:
    """The shipped binary table, or ``None`` when it is absent, corrupt or stale."""
    try:
        raw = gzip.decompress(data_file("wordnet", METEOR_BINARY_FILE).read_bytes())
    except (ResourceError, OSError, EOFError):
        return None
    if len(raw) < _BINARY_HEADER.size:
        return None
    magic, version, count, total, blob_size, source = _BINARY_HEADER.unpack_from(raw, 0)
    if (
        magic != _BINARY_MAGIC
        or version != _BINARY_VERSION
        or source != hashlib.sha256(index_gz).digest()
    ):
        return None
    start = _BINARY_HEADER.size
    starts_at = start + blob_size + (-blob_size % 4)
    offsets_at = starts_at + 4 * (count + 1)
    if len(raw) != offsets_at + 4 * total:
        return None
    words = raw[start : start + blob_size].decode("utf-8").split("\n") if count else []
    starts = array("I", raw[starts_at:offsets_at])
    offsets = array("I", raw[offsets_at:])
    if sys.byteorder != "little":
        starts.byteswap()
        offsets.byteswap()
    if len(words) != count or starts[0] != 0 or starts[-1] != total:
        return None
    return _SynsetTable(words, starts, offsets)


@cached_loader
def meteor_wordnet() -> MeteorWordNet:
    """The shared METEOR 1.5 view of the shipped WordNet 3.0 (loaded on first call).

    Reads the compact binary table (:data:`METEOR_BINARY_FILE`) when it matches the shipped
    index, else parses the text index (same content, slower).
    """
    index_path = data_file("wordnet", "index.tsv.gz")
    try:
        index_gz = index_path.read_bytes()
    except OSError as error:
        raise ResourceError(f"WordNet data file {index_path} is unreadable ({error})") from error
    synsets: Mapping[str, tuple[int, ...]] | None = _load_meteor_binary(index_gz)
    if synsets is None:
        synsets = _merged_synsets(_read_rows("index.tsv.gz"))
    bases: dict[str, set[str]] = {}
    for _pos, form, listed in _read_rows("exceptions.tsv.gz"):
        bases.setdefault(form, set()).update(listed.split())
    exceptions = {form: tuple(sorted(found)) for form, found in bases.items()}
    return MeteorWordNet(synsets, exceptions)


class NltkWordNet:
    """NLTK 3.10's ``wordnet`` reader, reduced to what synonym matching needs.

    Obtain the shared instance with :func:`nltk_wordnet`. Synsets are identified by
    ``(pos, offset)`` where pos is the synset's own type (``s`` for satellites) and offset is
    Princeton's byte offset in the data file, as NLTK's ``Synset.pos()``/``offset()`` report.

    Example:
        >>> wn = nltk_wordnet()
        >>> sorted(wn.lemma_names("dogs"))[:3]
        ['Canis_familiaris', 'andiron', 'blackguard']
    """

    __slots__ = ("_exceptions", "_index", "_lemma_names", "_synsets")

    def __init__(
        self,
        index: Mapping[str, Mapping[str, tuple[int, ...]]],
        synsets: Mapping[tuple[str, int], tuple[str, tuple[str, ...]]],
        exceptions: Mapping[str, Mapping[str, tuple[str, ...]]],
    ) -> None:
        """Wrap the tables; use :func:`nltk_wordnet` for the shipped data.

        Args:
            index: Lemma -> pos (``n``, ``v``, ``a``, ``s``, ``r``) -> offsets in index order.
            synsets: (file pos ``n``/``v``/``a``/``r``, offset) -> (synset type, lemma names).
            exceptions: pos -> inflected form -> bases (one entry per form, NLTK's last line).
        """
        self._index = index
        self._synsets = synsets
        self._exceptions = exceptions
        self._lemma_names = functools.lru_cache(maxsize=_CACHE_SIZE)(self._compute_lemma_names)

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return (nltk_wordnet, ())

    def morphy_forms(
        self, form: str, pos: WordNetPos, *, check_exceptions: bool = True
    ) -> list[str]:
        """NLTK's ``_morphy(form, pos)``: candidate lemmas of ``form`` that exist for ``pos``.

        ``form`` itself comes first when it is a lemma; then the exception list's bases, or
        else one pass of the suffix substitutions; duplicates removed, order kept.
        """
        exceptions = self._exceptions[pos]
        if check_exceptions and form in exceptions:
            candidates = [form, *exceptions[form]]
        else:
            candidates = [form]
            candidates.extend(
                form[: len(form) - len(old)] + new
                for old, new in NLTK_SUBSTITUTIONS[pos]
                if form.endswith(old)
            )
        index = self._index
        result: list[str] = []
        for candidate in candidates:
            entry = index.get(candidate)
            if entry is not None and pos in entry and candidate not in result:
                result.append(candidate)
        return result

    def morphy(self, form: str, pos: WordNetPos | None = None) -> str | None:
        """NLTK's public ``morphy``: the first base form found, trying n, v, a, r if no pos."""
        for each in (pos,) if pos else _NLTK_POS_ORDER:
            forms = self.morphy_forms(form, each)
            if forms:
                return forms[0]
        return None

    def synsets(
        self, word: str, pos: WordNetPos | None = None, *, check_exceptions: bool = True
    ) -> list[tuple[str, int]]:
        """``wordnet.synsets(word, pos)`` as ``(synset pos, offset)`` pairs in NLTK's order.

        The word is lower-cased (``str.lower``), then for each part of speech (n, v, a, r when
        ``pos`` is None) each morphy form contributes its index offsets in sense order.
        Duplicates are kept, as NLTK keeps them.
        """
        lemma = word.lower()
        result: list[tuple[str, int]] = []
        for each in (pos,) if pos else _NLTK_POS_ORDER:
            file_pos = "a" if each == "s" else each
            for form in self.morphy_forms(lemma, each, check_exceptions=check_exceptions):
                for offset in self._index[form].get(each, ()):
                    result.append((self._synsets[file_pos, offset][0], offset))
        return result

    def synset_lemma_names(self, pos: WordNetPos, offset: int) -> tuple[str, ...]:
        """``synset.lemma_names()``: the synset's lemma names in order, with their case.

        Raises:
            KeyError: if there is no such synset.
        """
        return self._synsets["a" if pos == "s" else pos, offset][1]

    def lemma_names(self, word: str) -> frozenset[str]:
        """``set(chain.from_iterable(s.lemma_names() for s in wordnet.synsets(word)))``, cached.

        NLTK's METEOR keeps the names without ``_`` and adds the word itself.
        """
        return self._lemma_names(word)

    def _compute_lemma_names(self, word: str) -> frozenset[str]:
        names: set[str] = set()
        synsets = self._synsets
        for pos, offset in self.synsets(word):
            names.update(synsets["a" if pos == "s" else pos, offset][1])
        return frozenset(names) if names else _EMPTY_NAMES


@cached_loader
def nltk_wordnet() -> NltkWordNet:
    """The shared NLTK view of the shipped WordNet 3.0 (loaded on first call)."""
    synsets: dict[tuple[str, int], tuple[str, tuple[str, ...]]] = {}
    satellites: set[int] = set()
    for ss_type, offset_text, names in _read_rows("synsets.tsv.gz"):
        offset = int(offset_text)
        if ss_type == "s":
            satellites.add(offset)
        synsets["a" if ss_type == "s" else ss_type, offset] = (ss_type, tuple(names.split(" ")))
    index: dict[str, dict[str, tuple[int, ...]]] = {}
    for pos, lemma, offsets_text in _read_rows("index.tsv.gz"):
        offsets = tuple(map(int, offsets_text.split()))
        entry = index.setdefault(lemma, {})
        entry[pos] = offsets
        if pos == "a":
            # NLTK 3.10 gives every adjective lemma an ``s`` entry: its satellites, index order.
            entry["s"] = tuple(offset for offset in offsets if offset in satellites)
    exceptions: dict[str, dict[str, tuple[str, ...]]] = {pos: {} for pos in _NLTK_POS_ORDER}
    for pos, form, bases in _read_rows("exceptions.tsv.gz"):
        exceptions[pos][form] = tuple(bases.split())  # a later line replaces an earlier one
    exceptions["s"] = exceptions["a"]
    return NltkWordNet(index, synsets, exceptions)


class _DirectoryWordNet(MeteorWordNet):
    """A METEOR view read from a user folder in the jar's format (pickles by its path)."""

    __slots__ = ("_origin",)

    def __init__(
        self,
        synsets: Mapping[str, tuple[int, ...]],
        exceptions: Mapping[str, tuple[str, ...]],
        origin: tuple[str, str],
    ) -> None:
        super().__init__(synsets, exceptions)
        self._origin = origin

    def __reduce__(self) -> tuple[object, tuple[str, str]]:  # type: ignore[override]
        return (meteor_wordnet_from_dir, self._origin)


def _line_pairs(path: Path) -> list[tuple[str, str]]:
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except FileNotFoundError:
        raise ResourceError(f"synonym data: {path} not found") from None
    if lines and lines[-1] == "":
        lines.pop()
    return [(lines[k], lines[k + 1] if k + 1 < len(lines) else "") for k in range(0, len(lines), 2)]


@cached_loader
def meteor_wordnet_from_dir(directory: str, language_long_name: str = "english") -> MeteorWordNet:
    """The METEOR view from ``<directory>/<language>.synsets`` and ``.exceptions`` (jar's ``-d``).

    Both files hold pairs of lines: a word and its synset numbers separated by spaces; a base form
    and the inflected forms that map to it.

    Raises:
        ResourceError: a file is missing.
    """
    root = Path(directory)
    synsets = {
        word: tuple(int(x) for x in numbers.split())
        for word, numbers in _line_pairs(root / f"{language_long_name}.synsets")
    }
    bases: dict[str, list[str]] = {}
    for base, forms in _line_pairs(root / f"{language_long_name}.exceptions"):
        for form in forms.split():
            bases.setdefault(form, []).append(base)
    exceptions = {form: tuple(b) for form, b in bases.items()}
    return _DirectoryWordNet(synsets, exceptions, (directory, language_long_name))
