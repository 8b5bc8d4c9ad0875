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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Final, Literal

from meteor_eval.errors import ResourceError
from meteor_eval.resources.registry import ResourceSpec, cached_loader, data_file, file_sha256

__all__ = [
    "METEOR_BINARY_FILE",
    "METEOR_MORPH_RULES",
    "NLTK_BINARY_FILE",
    "NLTK_SUBSTITUTIONS",
    "WORDNET_FILES",
    "MeteorWordNet",
    "NltkWordNet",
    "WordNetPos",
    "build_meteor_binary",
    "build_nltk_binary",
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

#: The NLTK view (lemma -> part of speech -> offsets, synset -> type and lemma names) in a compact
#: binary form derived from ``index.tsv.gz`` and ``synsets.tsv.gz`` (by
#: ``scripts/build_wordnet.py`` via :func:`build_nltk_binary`). Loading it is a decompression and
#: a split of the lemma list; entries are decoded when looked up. Like
#: :data:`METEOR_BINARY_FILE` it is not part of the resource's identity and is ignored when the
#: checksum of its sources it records does not match the shipped text files.
NLTK_BINARY_FILE: Final = "nltk-wordnet.bin.gz"

# magic, format version, lemmas, index offsets, bytes of the lemma list, synsets, bytes of the
# lemma names, SHA-256 over the SHA-256 digests of index.tsv.gz and synsets.tsv.gz
_NLTK_HEADER: Final = struct.Struct("<8sIIIIII32s")
_NLTK_MAGIC: Final = b"MEWNNLTK"
_NLTK_VERSION: Final = 1
# Parts of speech of a lemma's index entry in the binary form, in slot order.
_NLTK_SLOTS: Final = ("n", "v", "a", "s", "r")
_NLTK_SLOT_OF: Final = {pos: slot for slot, pos in enumerate(_NLTK_SLOTS)}
# Synset keys: file part of speech code << 32 | offset.
_NLTK_FILE_POS: Final = {"n": 0, "v": 1, "a": 2, "r": 3}

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

    __slots__ = ("_exceptions", "_index", "_lemma_names", "_offsets", "_synsets")

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
        self._offsets: Callable[[str, str], Sequence[int] | None]
        if isinstance(index, _NltkIndex):
            self._offsets = index.offsets
        else:

            def offsets(word: str, pos: str) -> Sequence[int] | None:
                entry = index.get(word)
                return None if entry is None else entry.get(pos)

            self._offsets = offsets
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
        offsets = self._offsets
        result: list[str] = []
        for candidate in candidates:
            if offsets(candidate, pos) is not None and candidate not in result:
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
        # What synsets(word) finds, without building its list: the parts of speech walked are
        # n, v, a, r, each the file of its own synsets.
        names: set[str] = set()
        synsets = self._synsets
        offsets = self._offsets
        lemma = word.lower()
        for pos in _NLTK_POS_ORDER:
            for form in self.morphy_forms(lemma, pos):
                for offset in offsets(form, pos) or ():
                    names.update(synsets[pos, offset][1])
        return frozenset(names) if names else _EMPTY_NAMES


def _nltk_tables(
    index_text: str, synsets_text: str
) -> tuple[
    dict[str, dict[str, tuple[int, ...]]], dict[tuple[str, int], tuple[str, tuple[str, ...]]]
]:
    """NLTK's lemma index and synset table from the text of the two shipped files."""
    synsets: dict[tuple[str, int], tuple[str, tuple[str, ...]]] = {}
    satellites: set[int] = set()
    for line in synsets_text.splitlines():
        ss_type, offset_text, names = line.split("\t")
        offset = int(offset_text)
        if ss_type == "s":
            satellites.add(offset)
        synsets["a" if ss_type == "s" else ss_type, offset] = (ss_type, tuple(names.split(" ")))
    index: dict[str, dict[str, tuple[int, ...]]] = {}
    for line in index_text.splitlines():
        pos, lemma, offsets_text = line.split("\t")
        offsets = tuple(map(int, offsets_text.split()))
        entry = index.setdefault(lemma, {})
        entry[pos] = offsets
        if pos == "a":
            # NLTK 3.10 gives every adjective lemma an ``s`` entry: its satellites, index order.
            entry["s"] = tuple(offset for offset in offsets if offset in satellites)
    return index, synsets


def _nltk_source_digest(index_gz: bytes, synsets_gz: bytes) -> bytes:
    return hashlib.sha256(
        hashlib.sha256(index_gz).digest() + hashlib.sha256(synsets_gz).digest()
    ).digest()


def _gunzip_text(data: bytes, what: str) -> str:
    try:
        return gzip.decompress(data).decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as error:
        raise ResourceError(f"WordNet {what} is corrupt ({error})") from error


def _pad4(data: bytes) -> bytes:
    return data + bytes(-len(data) % 4)


def build_nltk_binary(index_gz: bytes, synsets_gz: bytes) -> bytes:
    """The gzip'd content of :data:`NLTK_BINARY_FILE` for the shipped ``index``/``synsets`` files.

    Layout after the header (little-endian), each section zero-padded to 4 bytes: the lemmas
    sorted by code point, joined by ``\n`` (UTF-8); one byte per lemma with a bit per part of
    speech present (``n v a s r``, bit 0 first); ``5 * lemmas + 1`` uint32 starts into the
    offsets (one slot per lemma and part of speech); the uint32 offsets in index order; the
    synsets sorted by key ``file pos code << 32 | offset`` (``n v a r`` = 0 to 3) as uint64; one
    ASCII type byte per synset; ``synsets + 1`` uint32 starts into the names; the lemma names
    of each synset joined by spaces (UTF-8). Deterministic: same inputs, same bytes.

    Raises:
        ResourceError: an input is corrupt or an offset does not fit 32 bits.
    """
    index, synsets = _nltk_tables(
        _gunzip_text(index_gz, "index"), _gunzip_text(synsets_gz, "synset list")
    )
    lemmas = sorted(index)
    masks = bytearray()
    starts = array("I", [0])
    offsets = array("I")
    keys = array("Q")
    types = bytearray()
    name_starts = array("I", [0])
    names = bytearray()
    try:
        for lemma in lemmas:
            entry = index[lemma]
            mask = 0
            for bit, pos in enumerate(_NLTK_SLOTS):
                found = entry.get(pos)
                if found is not None:
                    mask |= 1 << bit
                    offsets.extend(found)
                starts.append(len(offsets))
            masks.append(mask)
        for file_pos, offset in sorted(synsets, key=lambda k: (_NLTK_FILE_POS[k[0]], k[1])):
            ss_type, lemma_names = synsets[file_pos, offset]
            keys.append(_NLTK_FILE_POS[file_pos] << 32 | offset)
            types.extend(ss_type.encode("ascii"))
            names.extend(" ".join(lemma_names).encode("utf-8"))
            name_starts.append(len(names))
    except (OverflowError, ValueError) as error:
        raise ResourceError(f"WordNet: value out of range for the binary form ({error})") from error
    arrays = (starts, offsets, keys, name_starts)
    if sys.byteorder != "little":
        for each in arrays:
            each.byteswap()
    blob = "\n".join(lemmas).encode("utf-8")
    header = _NLTK_HEADER.pack(
        _NLTK_MAGIC,
        _NLTK_VERSION,
        len(lemmas),
        len(offsets),
        len(blob),
        len(keys),
        len(names),
        _nltk_source_digest(index_gz, synsets_gz),
    )
    body = b"".join(
        (
            header,
            _pad4(blob),
            _pad4(bytes(masks)),
            starts.tobytes(),
            offsets.tobytes(),
            keys.tobytes(),
            _pad4(bytes(types)),
            name_starts.tobytes(),
            bytes(names),
        )
    )
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0, compresslevel=9) as gz:
        gz.write(body)
    return buffer.getvalue()


class _NltkIndex(Mapping[str, Mapping[str, tuple[int, ...]]]):
    """Lemma -> part of speech -> offsets over the binary form, decoded per lookup."""

    __slots__ = ("_masks", "_offsets", "_position", "_starts", "_words")

    def __init__(self, words: list[str], masks: bytes, starts: array[int], offsets: array[int]):
        self._words = words
        self._position = dict(zip(words, range(len(words)), strict=True))
        self._masks = masks
        self._starts = starts
        self._offsets = offsets

    def _entry(self, at: int) -> dict[str, tuple[int, ...]]:
        mask = self._masks[at]
        starts = self._starts
        offsets = self._offsets
        base = 5 * at
        return {
            pos: tuple(offsets[starts[base + slot] : starts[base + slot + 1]])
            for slot, pos in enumerate(_NLTK_SLOTS)
            if mask >> slot & 1
        }

    def __getitem__(self, word: str) -> dict[str, tuple[int, ...]]:
        return self._entry(self._position[word])

    def offsets(self, word: str, pos: str) -> Sequence[int] | None:
        """The offsets listed for ``word`` as ``pos``, ``None`` when it has no such entry."""
        at = self._position.get(word)
        if at is None:
            return None
        slot = _NLTK_SLOT_OF[pos]
        if not self._masks[at] >> slot & 1:
            return None
        base = 5 * at + slot
        return self._offsets[self._starts[base] : self._starts[base + 1]]

    def get(self, word: str, default: object = None) -> dict[str, tuple[int, ...]] | object:  # type: ignore[override]
        at = self._position.get(word)
        return default if at is None else self._entry(at)

    def __contains__(self, word: object) -> bool:
        return word in self._position

    def __iter__(self) -> Iterator[str]:
        return iter(self._words)

    def __len__(self) -> int:
        return len(self._words)


class _NltkSynsets(Mapping[tuple[str, int], tuple[str, tuple[str, ...]]]):
    """(file pos, offset) -> (synset type, lemma names) over the binary form, by bisection."""

    __slots__ = ("_keys", "_name_starts", "_names", "_types")

    def __init__(self, keys: array[int], types: bytes, name_starts: array[int], names: bytes):
        self._keys = keys
        self._types = types
        self._name_starts = name_starts
        self._names = names

    def _at(self, key: object) -> int:
        if not isinstance(key, tuple) or len(key) != 2:
            return -1
        pos, offset = key
        code = _NLTK_FILE_POS.get(pos) if isinstance(pos, str) else None
        if code is None or not isinstance(offset, int) or not 0 <= offset < 1 << 32:
            return -1
        wanted = code << 32 | offset
        keys = self._keys
        at = bisect.bisect_left(keys, wanted)
        return at if at < len(keys) and keys[at] == wanted else -1

    def __getitem__(self, key: tuple[str, int]) -> tuple[str, tuple[str, ...]]:
        at = self._at(key)
        if at < 0:
            raise KeyError(key)
        text = self._names[self._name_starts[at] : self._name_starts[at + 1]].decode("utf-8")
        return chr(self._types[at]), tuple(text.split(" "))

    def __contains__(self, key: object) -> bool:
        return self._at(key) >= 0

    def __iter__(self) -> Iterator[tuple[str, int]]:
        pos_names = {code: pos for pos, code in _NLTK_FILE_POS.items()}
        return ((pos_names[key >> 32], key & 0xFFFFFFFF) for key in self._keys)

    def __len__(self) -> int:
        return len(self._keys)


def _load_nltk_binary(index_gz: bytes, synsets_gz: bytes) -> tuple[_NltkIndex, _NltkSynsets] | None:
    """The shipped binary NLTK view, or ``None`` when it is absent, corrupt or stale."""
    try:
        raw = gzip.decompress(data_file("wordnet", NLTK_BINARY_FILE).read_bytes())
    except (ResourceError, OSError, EOFError):
        return None
    if len(raw) < _NLTK_HEADER.size:
        return None
    magic, version, count, total, blob_size, n_synsets, names_size, source = (
        _NLTK_HEADER.unpack_from(raw, 0)
    )
    if (
        magic != _NLTK_MAGIC
        or version != _NLTK_VERSION
        or source != _nltk_source_digest(index_gz, synsets_gz)
    ):
        return None
    at = _NLTK_HEADER.size
    sections: list[bytes] = []
    for size in (
        blob_size,
        count,
        4 * (5 * count + 1),
        4 * total,
        8 * n_synsets,
        n_synsets,
        4 * (n_synsets + 1),
    ):
        sections.append(raw[at : at + size])
        at += size + (-size % 4)
    names = raw[at:]
    if len(names) != names_size:
        return None
    blob, masks, starts_raw, offsets_raw, keys_raw, types, name_starts_raw = sections
    words = blob.decode("utf-8").split("\n") if count else []
    starts, offsets = array("I", starts_raw), array("I", offsets_raw)
    keys, name_starts = array("Q", keys_raw), array("I", name_starts_raw)
    if sys.byteorder != "little":
        for each in (starts, offsets, keys, name_starts):
            each.byteswap()
    if (
        len(words) != count
        or len(starts) != 5 * count + 1
        or starts[-1] != total
        or len(name_starts) != n_synsets + 1
        or name_starts[-1] != names_size
    ):
        return None
    return _NltkIndex(words, masks, starts, offsets), _NltkSynsets(keys, types, name_starts, names)


@cached_loader
def nltk_wordnet() -> NltkWordNet:
    """The shared NLTK view of the shipped WordNet 3.0 (loaded on first call).

    Reads the compact binary form (:data:`NLTK_BINARY_FILE`) when it matches the shipped text
    files, else parses them (same content, slower).
    """
    raw: dict[str, bytes] = {}
    for name in ("index.tsv.gz", "synsets.tsv.gz"):
        path = data_file("wordnet", name)
        try:
            raw[name] = path.read_bytes()
        except OSError as error:
            raise ResourceError(f"WordNet data file {path} is unreadable ({error})") from error
    index_gz, synsets_gz = raw["index.tsv.gz"], raw["synsets.tsv.gz"]
    loaded = _load_nltk_binary(index_gz, synsets_gz)
    index: Mapping[str, Mapping[str, tuple[int, ...]]]
    synsets: Mapping[tuple[str, int], tuple[str, tuple[str, ...]]]
    if loaded is not None:
        index, synsets = loaded
    else:
        index, synsets = _nltk_tables(
            _gunzip_text(index_gz, "index"), _gunzip_text(synsets_gz, "synset list")
        )
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
