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
import itertools
import mmap
import struct
import sys
import zlib
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Final, Literal

from meteor_eval.errors import ResourceError
from meteor_eval.resources.registry import (
    ResourceSpec,
    cached_loader,
    data_file,
    file_sha256,
    unpacked_file,
)

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

#: The METEOR view in a compact binary form derived from ``index.tsv.gz`` and
#: ``exceptions.tsv.gz`` (by ``scripts/build_wordnet.py`` via :func:`build_meteor_binary`): each
#: word's synsets and each word's or inflected form's complete synonym set S(t), as sorted int64
#: values behind a CRC-32 key table. It loads in a few milliseconds without building a dict, and
#: a first lookup is a slice. Not part of the resource's identity (it holds nothing that the text
#: files do not); it records a checksum of its sources and is ignored (the text index is parsed)
#: when that does not match.
METEOR_BINARY_FILE: Final = "meteor-synsets.bin.gz"

#: The NLTK view (lemma -> part of speech -> synsets, synset -> type and lemma names, and the
#: exception lists) in a compact binary form derived from ``index.tsv.gz``, ``synsets.tsv.gz``
#: and ``exceptions.tsv.gz`` (by ``scripts/build_wordnet.py`` via :func:`build_nltk_binary`).
#: Loading it is a decompression; lemmas are found through a CRC-32 key table and entries are
#: decoded when looked up. Like :data:`METEOR_BINARY_FILE` it is not part of the resource's
#: identity and is ignored when the checksum of its sources it records does not match.
NLTK_BINARY_FILE: Final = "nltk-wordnet.bin.gz"

# magic, format version, lemmas, entries, bytes of the lemma keys, log2 of the key table
# slots, synsets of each file part of speech (n v a r), bytes of the lemma names, bytes of the
# exception text, SHA-256 over the SHA-256 digests of index, synsets and exceptions files
_NLTK_HEADER: Final = struct.Struct("<8s11I32s")
_NLTK_MAGIC: Final = b"MEWNNLTK"
_NLTK_VERSION: Final = 2
# Parts of speech of a lemma's index entry, as the Mapping view reports them.
_NLTK_SLOTS: Final = ("n", "v", "a", "s", "r")
# File part of speech -> its rank in the synset numbering (and in the key order n v a r).
_NLTK_FILE_POS: Final = {"n": 0, "v": 1, "a": 2, "r": 3}
# Part of speech -> its bit in a lemma's mask (a satellite entry rides on the adjective one).
_NLTK_POS_BIT: Final = {"n": 1, "v": 2, "a": 4, "s": 4, "r": 8}
_ALL_POS_BITS: Final = 15
_SATELLITE: Final = ord("s")

# magic, format version, keys, listed words, int64 values in the pool, bytes of the keys, log2
# of the key table slots, SHA-256 over the SHA-256 digests of index.tsv.gz and exceptions.tsv.gz
_BINARY_HEADER: Final = struct.Struct("<8s6I32s")
_BINARY_MAGIC: Final = b"MEWNSYN\0"
_BINARY_VERSION: Final = 2

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


def _nltk_rules_by_last_char() -> dict[str, tuple[tuple[str, int, str, int], ...]]:
    """NLTK's substitutions of n, v and a merged: (suffix, length, replacement, pos bits)."""
    bits: dict[tuple[str, str], int] = {}
    for pos in ("n", "v", "a"):
        for suffix, replacement in NLTK_SUBSTITUTIONS[pos]:
            bits[suffix, replacement] = bits.get((suffix, replacement), 0) | _NLTK_POS_BIT[pos]
    grouped: dict[str, list[tuple[str, int, str, int]]] = {}
    for (suffix, replacement), found in bits.items():
        grouped.setdefault(suffix[-1], []).append((suffix, len(suffix), replacement, found))
    return {last: tuple(group) for last, group in grouped.items()}


_NLTK_RULES_BY_LAST: Final = _nltk_rules_by_last_char()

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


def _rules_by_last_char(
    rules: Iterable[tuple[str, str]],
) -> dict[str, tuple[tuple[str, int, str], ...]]:
    """Suffix rules grouped by the suffix's last character, order kept, repeats dropped.

    A word can only match rules whose suffix ends in its own last character, so grouping skips
    the other rules without changing which rule is first to match; a repeated rule yields the
    same candidate as its first occurrence and is dropped.
    """
    grouped: dict[str, list[tuple[str, int, str]]] = {}
    seen: set[tuple[str, str]] = set()
    for suffix, replacement in rules:
        if (suffix, replacement) not in seen:
            seen.add((suffix, replacement))
            grouped.setdefault(suffix[-1], []).append((suffix, len(suffix), replacement))
    return {last: tuple(group) for last, group in grouped.items()}


_METEOR_RULES_BY_LAST: Final = _rules_by_last_char(METEOR_MORPH_RULES)


def _hash_bits(count: int, *, sparse: bool) -> int:
    """log2 of the slot count of a key table holding ``count`` keys.

    ``sparse`` keeps the load factor at most 1/3, else at most 0.6. A sparse table keeps probe
    sequences short, above all for words that are not keys (most lookups of morphological
    candidates miss), at the price of a larger file to decompress at load.
    """
    bits = 4
    while (1 << bits) < 3 * count if sparse else 3 * (1 << bits) < 5 * count:
        bits += 1
    return bits


def _build_key_table(
    keys: Sequence[bytes], *, sparse: bool
) -> tuple[bytes, array[int], array[int], int]:
    """The concatenated keys, their starts, and an open-addressing table over them.

    Slot ``zlib.crc32(key) & mask`` (then the following slots, wrapping) holds ``index + 1`` of
    the key; 0 marks an empty slot. Keys are inserted in the given order, so the table is
    deterministic.
    """
    bits = _hash_bits(len(keys), sparse=sparse)
    mask = (1 << bits) - 1
    table = array("I", bytes(4 << bits))
    starts = array("I", [0])
    total = 0
    for number, key in enumerate(keys, 1):
        total += len(key)
        starts.append(total)
        slot = zlib.crc32(key) & mask
        while table[slot]:
            slot = (slot + 1) & mask
        table[slot] = number
    return b"".join(keys), starts, table, bits


class _KeyTable:
    """Exact string -> index lookup over a shipped key table, without building a dict.

    Loading costs nothing beyond reading the arrays; a lookup encodes the word, hashes it with
    CRC-32 and compares the stored key bytes of the slots it probes (about one).

    Attributes:
        blob: The keys' UTF-8 bytes, concatenated.
        starts: ``keys + 1`` starts of the keys in ``blob``.
        table: The slots, ``index + 1`` of a key or 0 (see :func:`_build_key_table`).
    """

    __slots__ = ("_mask", "blob", "starts", "table")

    def __init__(self, blob: bytes, starts: Sequence[int], table: Sequence[int]) -> None:
        self.blob = blob
        self.starts = starts
        self.table = table
        self._mask = len(table) - 1

    def find(self, word: str) -> int:
        """The index of ``word`` among the keys, ``-1`` when it is not one."""
        try:
            data = word.encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates: never a key
            return -1
        table = self.table
        mask = self._mask
        slot = zlib.crc32(data) & mask
        number = table[slot]
        while number:
            starts = self.starts
            if self.blob[starts[number - 1] : starts[number]] == data:
                return number - 1
            slot = (slot + 1) & mask
            number = table[slot]
        return -1

    def key(self, index: int) -> str:
        """The key at ``index``."""
        return self.blob[self.starts[index] : self.starts[index + 1]].decode("utf-8")

    def __len__(self) -> int:
        return len(self.starts) - 1


def _uint32s(data: memoryview) -> Sequence[int]:
    """The little-endian uint32 values of ``data``: a zero-copy view on little-endian machines."""
    if sys.byteorder == "little" and array("I").itemsize == 4:
        return data.cast("I")
    values = array("I", bytes(data))
    if sys.byteorder != "little":
        values.byteswap()
    return values


def _valid_key_table(blob: bytes, starts: Sequence[int], table: Sequence[int]) -> bool:
    """Cheap structural checks of a loaded key table (sizes and bounds, not every key)."""
    count = len(starts) - 1
    return (
        count >= 0
        and len(table) >= 2
        and len(table) & (len(table) - 1) == 0
        and starts[0] == 0
        and starts[-1] == len(blob)
    )


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

    __slots__ = ("_exception_table", "_exceptions_loader", "_packed", "_synonym_set", "_synsets")

    _synsets: Mapping[str, tuple[int, ...]]

    def __init__(
        self,
        synsets: Mapping[str, tuple[int, ...]],
        exceptions: Mapping[str, tuple[str, ...]] | Callable[[], Mapping[str, tuple[str, ...]]],
    ) -> None:
        """Wrap the two tables; use :func:`meteor_wordnet` for the shipped data.

        Args:
            synsets: Word -> its synset offsets (all parts of speech).
            exceptions: Inflected form -> its base forms, or a function returning them on
                first use (the binary table already folds the exceptions into its synonym
                sets, so the lists are parsed only if asked for).
        """
        self._synsets = synsets if isinstance(synsets, _SynsetTable) else dict(synsets)
        self._exception_table: dict[str, tuple[str, ...]] | None = None
        self._exceptions_loader: Callable[[], Mapping[str, tuple[str, ...]]] | None = None
        if callable(exceptions):
            self._exceptions_loader = exceptions
        else:
            self._exception_table = dict(exceptions)
        self._synonym_set = functools.lru_cache(maxsize=_CACHE_SIZE)(self._compute_synonym_set)
        self._packed: dict[str, bytes] = {}

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
    def _exceptions(self) -> dict[str, tuple[str, ...]]:
        table = self._exception_table
        if table is None:
            assert self._exceptions_loader is not None
            table = self._exception_table = dict(self._exceptions_loader())
        return table

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
        for suffix, size, replacement in _METEOR_RULES_BY_LAST.get(token[-1], ()):
            if token.endswith(suffix):
                candidate = token[: len(token) - size] + replacement
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

    def packed_synonym_set(self, token: str) -> bytes:
        """:meth:`synonym_set` as ascending native int64 values packed into bytes, cached.

        This is the form the compiled synonym kernel intersects. The shipped table stores each
        key's set in this form, so a first lookup is a slice of it.

        Raises:
            OverflowError: an identifier does not fit a signed 64-bit integer (custom tables).

        Example:
            >>> from array import array
            >>> wn = meteor_wordnet()
            >>> list(array("q", wn.packed_synonym_set("cats"))) == sorted(wn.synonym_set("cats"))
            True
        """
        return self.packed_synonym_sets((token,))[0]

    def packed_synonym_sets(self, tokens: Sequence[str]) -> list[bytes]:
        """:meth:`packed_synonym_set` of every token, in order (one call per segment).

        Raises:
            OverflowError: an identifier does not fit a signed 64-bit integer (custom tables).
        """
        packed = self._packed
        try:
            return list(map(packed.__getitem__, tokens))
        except KeyError:
            pass
        if len(packed) >= _CACHE_SIZE:
            packed.clear()
        table = self._synsets
        if isinstance(table, _SynsetTable):
            return table.packed_sets(tokens, packed)
        get = packed.get
        out = []
        synonym_set = self._synonym_set
        for token in tokens:
            found = get(token)
            if found is None:
                found = packed[token] = array("q", sorted(synonym_set(token))).tobytes()
            out.append(found)
        return out

    def _compute_synonym_set(self, token: str) -> frozenset[int]:
        table = self._synsets
        if isinstance(table, _SynsetTable):
            values = table.synonym_values(token)
            return frozenset(values) if values else _EMPTY_OFFSETS
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


def _meteor_exceptions(rows: Iterable[list[str]]) -> dict[str, tuple[str, ...]]:
    """The jar's inflected form -> sorted distinct bases (all parts of speech) from rows."""
    bases: dict[str, set[str]] = {}
    for _pos, form, listed in rows:
        bases.setdefault(form, set()).update(listed.split())
    return {form: tuple(sorted(found)) for form, found in bases.items()}


def _tsv_rows(data: bytes, what: str) -> list[list[str]]:
    return [line.split("\t") for line in _gunzip_text(data, what).splitlines()]


def _pair_digest(first: bytes, second: bytes) -> bytes:
    return hashlib.sha256(hashlib.sha256(first).digest() + hashlib.sha256(second).digest()).digest()


def _gzip_deterministic(body: bytes) -> bytes:
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0, compresslevel=9) as gz:
        gz.write(body)
    return buffer.getvalue()


def build_meteor_binary(index_gz: bytes, exceptions_gz: bytes) -> bytes:
    """The gzip'd content of :data:`METEOR_BINARY_FILE` for the shipped index and exceptions.

    Keys are the listed words and the inflected forms of the exception lists, sorted by code
    point. Layout after the header (little-endian), sections zero-padded to 4 bytes (the last
    uint32 section to 8): the keys' UTF-8 bytes concatenated; ``keys + 1`` uint32 starts into
    them; the key table (``2 ** bits`` uint32 slots, see :func:`_build_key_table`); ``keys + 1``
    uint32 starts into the value pool; ``keys`` uint32 ends of each key's own synsets; the pool
    of int64 synset offsets. A key's segment of the pool holds its own synsets (ascending), then,
    when S(key) differs from them, S(key) itself (ascending). Deterministic: same inputs, same
    bytes.

    Raises:
        ResourceError: an input is corrupt or a value does not fit its field.
    """
    synsets = _merged_synsets(_tsv_rows(index_gz, "index"))
    exceptions = _meteor_exceptions(_tsv_rows(exceptions_gz, "exception list"))
    reference = MeteorWordNet(synsets, exceptions)
    keys = sorted(synsets.keys() | exceptions.keys())
    starts = array("I", [0])
    own_ends = array("I")
    pool = array("q")
    try:
        for key in keys:
            own = synsets.get(key, ())
            pool.extend(own)
            own_ends.append(len(pool))
            full = sorted(reference.synonym_set(key))
            if full != list(own):
                pool.extend(full)
            starts.append(len(pool))
    except OverflowError as error:
        raise ResourceError(f"WordNet: value out of range for the binary form ({error})") from error
    blob, key_starts, table, bits = _build_key_table(
        [key.encode("utf-8") for key in keys], sparse=True
    )
    if sys.byteorder != "little":
        for each in (key_starts, table, starts, own_ends, pool):
            each.byteswap()
    header = _BINARY_HEADER.pack(
        _BINARY_MAGIC,
        _BINARY_VERSION,
        len(keys),
        len(synsets),
        len(pool),
        len(blob),
        bits,
        _pair_digest(index_gz, exceptions_gz),
    )
    body = bytearray(header)
    body += _pad4(blob)
    for each in (key_starts, table, starts, own_ends):
        body += each.tobytes()
    body += bytes(-len(body) % 8)
    body += pool.tobytes()
    return _gzip_deterministic(bytes(body))


def _shifted(values: Sequence[int]) -> array[int]:
    """``[0, *values]`` as uint32 (copied in one block from an in-place section)."""
    out = array("I", [0])
    if isinstance(values, memoryview):
        out.frombytes(values.cast("B"))
    else:
        out.extend(values)
    return out


def _packed_sets_function(
    keys: _KeyTable,
    starts: Sequence[int],
    own_ends: Sequence[int],
    pool_bytes: bytes | mmap.mmap,
    base: int = 0,
) -> Callable[[Sequence[str], dict[str, bytes]], list[bytes]]:
    """The first-sight hot path: packed S(t) of many tokens, lookups inlined, results cached.

    The returned function maps ``(tokens, cache)`` to the packed S(t) of each token, taking
    what ``cache`` holds and storing there what it computes. A key's S(t) is its stored slice;
    any other token takes the own synsets of its :meth:`MeteorWordNet.morph` base, which is
    empty when the token ends in ``ss`` or is short (then the token is its own base, and it is
    not listed). ``starts`` and ``own_ends`` count int64 values of ``pool_bytes`` from byte
    ``base`` on.
    """
    blob = keys.blob
    table = keys.table
    mask = len(table) - 1
    crc32 = zlib.crc32
    rules = _METEOR_RULES_BY_LAST
    short = _utf16_length_at_most_2
    empty = b""
    # Indexed by slot value (key index + 1): key bytes [key_lo, key_hi); in int64 values, own
    # synsets [own_lo, own_hi), then S(t) up to full_hi when it differs from the own synsets.
    key_lo = _shifted(keys.starts)
    key_hi = keys.starts
    own_lo = _shifted(starts)
    own_hi = _shifted(own_ends)
    full_hi = starts

    def packed_sets(tokens: Sequence[str], cache: dict[str, bytes]) -> list[bytes]:
        get = cache.get
        out = []
        for token in tokens:
            found = get(token)
            if found is None:
                found = empty
                try:
                    data = token.encode("utf-8")
                except UnicodeEncodeError:  # lone surrogates: neither it nor a base is listed
                    data = empty
                slot = crc32(data) & mask
                number = table[slot]
                while number:
                    if blob[key_lo[number] : key_hi[number]] == data:
                        start = own_hi[number]
                        end = full_hi[number]
                        if start == end:
                            start = own_lo[number]
                        found = pool_bytes[base + 8 * start : base + 8 * end]
                        break
                    slot = (slot + 1) & mask
                    number = table[slot]
                else:
                    if data and not (token.endswith("ss") or short(token)):
                        for suffix, size, replacement in rules.get(token[-1], ()):
                            if not token.endswith(suffix):
                                continue
                            data = (token[: len(token) - size] + replacement).encode("utf-8")
                            slot = crc32(data) & mask
                            number = table[slot]
                            while number:
                                if blob[key_lo[number] : key_hi[number]] == data:
                                    break
                                slot = (slot + 1) & mask
                                number = table[slot]
                            if number:
                                start = own_lo[number]
                                end = own_hi[number]
                                if start < end:  # a listed word, not only an inflected form
                                    found = pool_bytes[base + 8 * start : base + 8 * end]
                                    break
                cache[token] = found
            out.append(found)
        return out

    return packed_sets


class _SynsetTable(Mapping[str, tuple[int, ...]]):
    """Word -> synset offsets over the binary form, plus each key's precomputed S(t).

    Nothing is decoded per word until it is looked up, and no dict is built, which makes
    loading cheap (the METEOR view needs a few thousand of the 147,306 words in a typical run).
    S(t) of a key (a listed word or an inflected form of the exception lists) is a stored slice;
    for any other token it is the own synsets of its :meth:`MeteorWordNet.morph` base.
    """

    __slots__ = ("_keys", "_own_ends", "_pool", "_starts", "_words", "packed_sets")

    def __init__(
        self,
        keys: _KeyTable,
        starts: Sequence[int],
        own_ends: Sequence[int],
        pool: Sequence[int],
        word_count: int,
        pool_bytes: tuple[bytes | mmap.mmap, int] | None = None,
    ) -> None:
        """Wrap the loaded sections.

        ``pool_bytes`` is ``(buffer, byte offset)`` of the pool as native int64 values, when
        the caller has it (the loaded file itself); otherwise the pool is packed here.
        """
        self._keys = keys
        self._starts = starts
        self._own_ends = own_ends
        self._pool = pool
        self._words = word_count
        if pool_bytes is None:
            pool_bytes = (array("q", pool).tobytes(), 0)
        #: (tokens, cache) -> packed S(t) of each token (see :func:`_packed_sets_function`).
        self.packed_sets = _packed_sets_function(keys, starts, own_ends, *pool_bytes)

    def _own(self, word: object) -> tuple[int, int]:
        """Pool range of the own synsets of ``word`` (empty when it is not a listed word)."""
        at = self._keys.find(word) if isinstance(word, str) else -1
        if at < 0:
            return 0, 0
        return self._starts[at], self._own_ends[at]

    def synonym_values(self, token: str) -> array[int]:
        """S(token) in ascending order."""
        values = array("q")
        values.frombytes(self.packed_sets((token,), {})[0])
        return values

    def __getitem__(self, word: str) -> tuple[int, ...]:
        start, end = self._own(word)
        if start == end:
            raise KeyError(word)
        return tuple(self._pool[start:end])

    def get(self, word: str, default: object = None) -> tuple[int, ...] | object:  # type: ignore[override]
        start, end = self._own(word)
        if start == end:
            return default
        return tuple(self._pool[start:end])

    def __contains__(self, word: object) -> bool:
        start, end = self._own(word)
        return start < end

    def __iter__(self) -> Iterator[str]:
        keys = self._keys
        starts = self._starts
        own_ends = self._own_ends
        return (keys.key(at) for at in range(len(keys)) if starts[at] < own_ends[at])

    def __len__(self) -> int:
        return self._words


def _load_meteor_binary(index_gz: bytes, exceptions_gz: bytes) -> _SynsetTable | None:
    """The shipped binary table, or ``None`` when it is absent, corrupt or stale.

    The table is read from its unpacked copy in the cache (see :func:`unpacked_file`); a copy
    that does not validate is unpacked again once before giving up.
    """
    for refresh in (False, True):
        try:
            raw = unpacked_file(
                data_file("wordnet", METEOR_BINARY_FILE), refresh=refresh, mapped=True
            )
        except (ResourceError, OSError, EOFError, zlib.error):
            return None
        table = _parse_meteor_binary(raw, index_gz, exceptions_gz)
        if table is not None:
            return table
    return None


def _parse_meteor_binary(
    raw: bytes | mmap.mmap, index_gz: bytes, exceptions_gz: bytes
) -> _SynsetTable | None:
    """The table held by the unpacked binary ``raw``, or ``None`` when corrupt or stale.

    On little-endian machines the sections are read in place (``memoryview`` casts over
    ``raw``, usually a memory map): nothing but the key bytes is copied.
    """
    if len(raw) < _BINARY_HEADER.size:
        return None
    magic, version, count, words, total, blob_size, bits, source = _BINARY_HEADER.unpack_from(
        raw, 0
    )
    if (
        magic != _BINARY_MAGIC
        or version != _BINARY_VERSION
        or bits > 30
        or source != _pair_digest(index_gz, exceptions_gz)
    ):
        return None
    at = _BINARY_HEADER.size
    blob = raw[at : at + blob_size]
    at += blob_size + (-blob_size % 4)
    view = memoryview(raw)
    sections: list[Sequence[int]] = []
    for size in (count + 1, 1 << bits, count + 1, count):
        sections.append(_u32_section(view, at, size))
        at += 4 * size
    at += -at % 8
    if (len(raw) - at) % 8:
        return None
    pool: Sequence[int]
    if sys.byteorder == "little":
        pool = view[at:].cast("q")
    else:
        pool = array("q", view[at:])
        pool.byteswap()
    key_starts, table, starts, own_ends = sections
    if (
        len(pool) != total
        or len(own_ends) != count
        or len(starts) != count + 1
        or len(blob) != blob_size
        or not _valid_key_table(blob, key_starts, table)
        or starts[0] != 0
        or starts[-1] != total
    ):
        return None
    return _SynsetTable(
        _KeyTable(blob, key_starts, table),
        starts,
        own_ends,
        pool,
        words,
        (raw, at) if sys.byteorder == "little" else None,
    )


def _u32_section(view: memoryview, at: int, size: int) -> Sequence[int]:
    """``size`` little-endian uint32 values at byte ``at`` (in place when native)."""
    part = view[at : at + 4 * size]
    if len(part) != 4 * size:
        return array("I")
    if sys.byteorder == "little":
        return part.cast("I")
    values = array("I", part)
    values.byteswap()
    return values


def _read_source(name: str) -> bytes:
    path = data_file("wordnet", name)
    try:
        return path.read_bytes()
    except OSError as error:
        raise ResourceError(f"WordNet data file {path} is unreadable ({error})") from error


@cached_loader
def meteor_wordnet() -> MeteorWordNet:
    """The shared METEOR 1.5 view of the shipped WordNet 3.0 (loaded on first call).

    Reads the compact binary table (:data:`METEOR_BINARY_FILE`) when it matches the shipped
    index and exception lists, else parses the text index (same content, slower).
    """
    index_gz = _read_source("index.tsv.gz")
    exceptions_gz = _read_source("exceptions.tsv.gz")

    def exceptions() -> dict[str, tuple[str, ...]]:
        return _meteor_exceptions(_tsv_rows(exceptions_gz, "exception list"))

    synsets: Mapping[str, tuple[int, ...]] | None = _load_meteor_binary(index_gz, exceptions_gz)
    if synsets is None:
        synsets = _merged_synsets(_tsv_rows(index_gz, "index"))
        return MeteorWordNet(synsets, exceptions())  # also checks the lists now
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

    __slots__ = (
        "_binary",
        "_exception_forms",
        "_exceptions",
        "_index",
        "_lemma_names",
        "_offsets",
        "_synsets",
    )

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
        self._binary = index if isinstance(index, _NltkIndex) else None
        if isinstance(index, _NltkIndex):
            self._offsets = index.offsets
        else:

            def offsets(word: str, pos: str) -> Sequence[int] | None:
                entry = index.get(word)
                return None if entry is None else entry.get(pos)

            self._offsets = offsets
        # Inflected form -> ((part-of-speech bit, bases), ...) over the parts of speech that
        # lemma_names walks, for the fast path over the binary form.
        forms: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
        for pos in _NLTK_POS_ORDER:
            for form, bases in exceptions.get(pos, {}).items():
                forms.setdefault(form, []).append((_NLTK_POS_BIT[pos], bases))
        self._exception_forms = {form: tuple(found) for form, found in forms.items()}
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
        if self._binary is not None:
            return self._binary.lemma_names(word.lower(), self._exception_forms)
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


def _nltk_exceptions(text: str) -> dict[str, dict[str, tuple[str, ...]]]:
    """pos -> inflected form -> bases, NLTK's way (a later line for a form replaces it)."""
    exceptions: dict[str, dict[str, tuple[str, ...]]] = {pos: {} for pos in _NLTK_POS_ORDER}
    for line in text.splitlines():
        pos, form, bases = line.split("\t")
        exceptions[pos][form] = tuple(bases.split())
    exceptions["s"] = exceptions["a"]
    return exceptions


def _gunzip_text(data: bytes, what: str) -> str:
    try:
        return gzip.decompress(data).decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError, zlib.error) as error:
        raise ResourceError(f"WordNet {what} is corrupt ({error})") from error


def _pad4(data: bytes) -> bytes:
    return data + bytes(-len(data) % 4)


def build_nltk_binary(index_gz: bytes, synsets_gz: bytes, exceptions_gz: bytes) -> bytes:
    """The gzip'd content of :data:`NLTK_BINARY_FILE` for the three shipped text files.

    Synsets are numbered in the order of their key (file part of speech ``n v a r``, then
    offset); the header gives the count of each part of speech. Layout after the header
    (little-endian), each section zero-padded to 4 bytes: the lemmas' UTF-8 bytes concatenated
    (sorted by code point); ``lemmas + 1`` uint32 starts into them; the key table (``2 ** bits``
    uint32 slots, see :func:`_build_key_table`); one byte per lemma with a bit per part of
    speech present (``n v a r``, bit 0 first; an adjective lemma also has its ``s`` entry);
    ``lemmas + 1`` uint32 starts into the entries; the entries, uint32 synset numbers grouped by
    part of speech in ``n v a r`` order and in index order within each; the uint32 offset of
    each synset; one ASCII type byte per synset; ``synsets + 1`` uint32 starts into the names;
    the lemma names of each synset joined by spaces (UTF-8); the exception lists' text (UTF-8,
    as shipped). Deterministic: same inputs, same bytes.

    Raises:
        ResourceError: an input is corrupt or a value does not fit its field.
    """
    index, synsets = _nltk_tables(
        _gunzip_text(index_gz, "index"), _gunzip_text(synsets_gz, "synset list")
    )
    exceptions_text = _gunzip_text(exceptions_gz, "exception list")
    ordered = sorted(synsets, key=lambda k: (_NLTK_FILE_POS[k[0]], k[1]))
    number = {key: at for at, key in enumerate(ordered)}
    per_pos = [0, 0, 0, 0]
    synset_offsets = array("I")
    types = bytearray()
    name_starts = array("I", [0])
    names = bytearray()
    lemmas = sorted(index)
    masks = bytearray()
    entry_starts = array("I", [0])
    entries = array("I")
    try:
        for file_pos, offset in ordered:
            ss_type, lemma_names = synsets[file_pos, offset]
            per_pos[_NLTK_FILE_POS[file_pos]] += 1
            synset_offsets.append(offset)
            types.extend(ss_type.encode("ascii"))
            names.extend(" ".join(lemma_names).encode("utf-8"))
            name_starts.append(len(names))
        for lemma in lemmas:
            entry = index[lemma]
            mask = 0
            for pos in _NLTK_POS_ORDER:
                found = entry.get(pos)
                if found is not None:
                    mask |= _NLTK_POS_BIT[pos]
                    entries.extend(number[pos, offset] for offset in found)
            entry_starts.append(len(entries))
            masks.append(mask)
    except (OverflowError, ValueError, KeyError) as error:
        raise ResourceError(f"WordNet: value out of range for the binary form ({error})") from error
    blob, lemma_starts, table, bits = _build_key_table(
        [lemma.encode("utf-8") for lemma in lemmas], sparse=False
    )
    arrays = (lemma_starts, table, entry_starts, entries, synset_offsets, name_starts)
    if sys.byteorder != "little":
        for each in arrays:
            each.byteswap()
    exceptions_blob = exceptions_text.encode("utf-8")
    header = _NLTK_HEADER.pack(
        _NLTK_MAGIC,
        _NLTK_VERSION,
        len(lemmas),
        len(entries),
        len(blob),
        bits,
        *per_pos,
        len(names),
        len(exceptions_blob),
        _nltk_source_digest(index_gz, synsets_gz, exceptions_gz),
    )
    body = b"".join(
        (
            header,
            _pad4(blob),
            lemma_starts.tobytes(),
            table.tobytes(),
            _pad4(bytes(masks)),
            entry_starts.tobytes(),
            entries.tobytes(),
            synset_offsets.tobytes(),
            _pad4(bytes(types)),
            name_starts.tobytes(),
            _pad4(bytes(names)),
            exceptions_blob,
        )
    )
    return _gzip_deterministic(body)


def _nltk_source_digest(index_gz: bytes, synsets_gz: bytes, exceptions_gz: bytes) -> bytes:
    return hashlib.sha256(
        b"".join(hashlib.sha256(data).digest() for data in (index_gz, synsets_gz, exceptions_gz))
    ).digest()


class _NltkData:
    """The decoded sections of the binary NLTK view (arrays and byte strings, no dicts)."""

    __slots__ = (
        "bounds",
        "entries",
        "entry_starts",
        "keys",
        "masks",
        "name_starts",
        "names",
        "synset_offsets",
        "types",
    )

    def __init__(
        self,
        keys: _KeyTable,
        masks: Sequence[int],
        entry_starts: Sequence[int],
        entries: Sequence[int],
        bounds: tuple[int, int, int, int, int],
        synset_offsets: Sequence[int],
        types: Sequence[int],
        name_starts: Sequence[int],
        names: bytes,
    ) -> None:
        self.keys = keys
        self.masks = masks
        self.entry_starts = entry_starts
        self.entries = entries
        self.bounds = bounds
        self.synset_offsets = synset_offsets
        self.types = types
        self.name_starts = name_starts
        self.names = names


class _NltkIndex(Mapping[str, Mapping[str, tuple[int, ...]]]):
    """Lemma -> part of speech -> offsets over the binary form, decoded per lookup."""

    __slots__ = ("_data", "_name_cache")

    def __init__(self, data: _NltkData) -> None:
        self._data = data
        self._name_cache: dict[int, list[str]] = {}

    def _numbers(self, at: int, pos: str) -> Sequence[int] | None:
        """Synset numbers of lemma ``at`` as ``pos`` in index order, ``None`` if absent."""
        data = self._data
        bit = _NLTK_POS_BIT[pos]
        if not data.masks[at] & bit:
            return None
        found = data.entries[data.entry_starts[at] : data.entry_starts[at + 1]]
        if data.masks[at] == bit:
            return found
        slot = _NLTK_FILE_POS["a" if pos == "s" else pos]
        low, high = data.bounds[slot], data.bounds[slot + 1]
        return array("I", [number for number in found if low <= number < high])

    def _offsets_at(self, at: int, pos: str) -> tuple[int, ...] | None:
        numbers = self._numbers(at, pos)
        if numbers is None:
            return None
        data = self._data
        offsets = data.synset_offsets
        if pos == "s":
            types = data.types
            return tuple(offsets[number] for number in numbers if types[number] == _SATELLITE)
        return tuple(offsets[number] for number in numbers)

    def _entry(self, at: int) -> dict[str, tuple[int, ...]]:
        entry: dict[str, tuple[int, ...]] = {}
        for pos in _NLTK_SLOTS:
            found = self._offsets_at(at, pos)
            if found is not None:
                entry[pos] = found
        return entry

    def __getitem__(self, word: str) -> dict[str, tuple[int, ...]]:
        at = self._data.keys.find(word) if isinstance(word, str) else -1
        if at < 0:
            raise KeyError(word)
        return self._entry(at)

    def offsets(self, word: str, pos: str) -> Sequence[int] | None:
        """The offsets listed for ``word`` as ``pos``, ``None`` when it has no such entry."""
        at = self._data.keys.find(word)
        return None if at < 0 else self._offsets_at(at, pos)

    def get(self, word: str, default: object = None) -> dict[str, tuple[int, ...]] | object:  # type: ignore[override]
        at = self._data.keys.find(word) if isinstance(word, str) else -1
        return default if at < 0 else self._entry(at)

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self._data.keys.find(word) >= 0

    def __iter__(self) -> Iterator[str]:
        keys = self._data.keys
        return (keys.key(at) for at in range(len(keys)))

    def __len__(self) -> int:
        return len(self._data.keys)

    def lemma_names(
        self, lemma: str, exception_forms: Mapping[str, tuple[tuple[int, tuple[str, ...]], ...]]
    ) -> frozenset[str]:
        """NltkWordNet.lemma_names of a lower-cased word, computed over the binary arrays.

        Collects the synset numbers of every (morphy form, part of speech) pair that NLTK's
        ``synsets(lemma)`` walks (n, v, a, r), then the names of those synsets. The lemma itself
        is a form for every part of speech it has; the other forms come from the exception
        lists or else from the suffix substitutions, each valid only for its own parts of speech.
        """
        data = self._data
        find = data.keys.find
        entry_starts = data.entry_starts
        entries = data.entries
        at = find(lemma)
        numbers: list[int] = (
            [] if at < 0 else list(entries[entry_starts[at] : entry_starts[at + 1]])
        )
        listed = exception_forms.get(lemma)
        if listed is None:
            rules = _NLTK_RULES_BY_LAST.get(lemma[-1:])
            if rules is not None:
                # Candidate form -> parts of speech (bits) it is a morphy candidate for.
                candidates: dict[str, int] = {}
                for suffix, size, replacement, bits in rules:
                    if lemma.endswith(suffix):
                        form = lemma[: len(lemma) - size] + replacement
                        candidates[form] = candidates.get(form, 0) | bits
                self._add_numbers(candidates, numbers)
        else:
            candidates = {}
            substituted = _ALL_POS_BITS
            for bit, bases in listed:
                substituted &= ~bit
                for base in bases:
                    candidates[base] = candidates.get(base, 0) | bit
            for suffix, size, replacement, bits in _NLTK_RULES_BY_LAST.get(lemma[-1:], ()):
                bits &= substituted
                if bits and lemma.endswith(suffix):
                    form = lemma[: len(lemma) - size] + replacement
                    candidates[form] = candidates.get(form, 0) | bits
            self._add_numbers(candidates, numbers)
        if not numbers:
            return _EMPTY_NAMES
        names: set[str] = set()
        cache = self._name_cache
        name_starts = data.name_starts
        blob = data.names
        for number in numbers:
            listed_names = cache.get(number)
            if listed_names is None:
                text = blob[name_starts[number] : name_starts[number + 1]].decode("utf-8")
                listed_names = cache[number] = text.split(" ")
            names.update(listed_names)
        return frozenset(names)

    def _add_numbers(self, candidates: Mapping[str, int], numbers: list[int]) -> None:
        """Append the synset numbers of each listed candidate form for its parts of speech."""
        data = self._data
        find = data.keys.find
        masks = data.masks
        entry_starts = data.entry_starts
        entries = data.entries
        for form, bits in candidates.items():
            at = find(form)
            if at < 0:
                continue
            mask = masks[at]
            wanted = mask & bits
            if not wanted:
                continue
            found = entries[entry_starts[at] : entry_starts[at + 1]]
            if wanted == mask:
                numbers.extend(found)
            else:
                bounds = data.bounds
                for slot in range(4):
                    if wanted >> slot & 1:
                        low, high = bounds[slot], bounds[slot + 1]
                        numbers.extend(number for number in found if low <= number < high)


class _NltkSynsets(Mapping[tuple[str, int], tuple[str, tuple[str, ...]]]):
    """(file pos, offset) -> (synset type, lemma names) over the binary form, by bisection."""

    __slots__ = ("_data",)

    def __init__(self, data: _NltkData) -> None:
        self._data = data

    def _at(self, key: object) -> int:
        if not isinstance(key, tuple) or len(key) != 2:
            return -1
        pos, offset = key
        slot = _NLTK_FILE_POS.get(pos) if isinstance(pos, str) else None
        if slot is None or not isinstance(offset, int):
            return -1
        data = self._data
        low, high = data.bounds[slot], data.bounds[slot + 1]
        at = bisect.bisect_left(data.synset_offsets, offset, low, high)
        return at if at < high and data.synset_offsets[at] == offset else -1

    def __getitem__(self, key: tuple[str, int]) -> tuple[str, tuple[str, ...]]:
        at = self._at(key)
        if at < 0:
            raise KeyError(key)
        data = self._data
        text = data.names[data.name_starts[at] : data.name_starts[at + 1]].decode("utf-8")
        return chr(data.types[at]), tuple(text.split(" "))

    def __contains__(self, key: object) -> bool:
        return self._at(key) >= 0

    def __iter__(self) -> Iterator[tuple[str, int]]:
        data = self._data
        for slot, pos in enumerate(_NLTK_POS_ORDER):
            for at in range(data.bounds[slot], data.bounds[slot + 1]):
                yield pos, data.synset_offsets[at]

    def __len__(self) -> int:
        return self._data.bounds[4]


def _load_nltk_binary(
    index_gz: bytes, synsets_gz: bytes, exceptions_gz: bytes
) -> tuple[_NltkIndex, _NltkSynsets, str] | None:
    """The shipped binary NLTK view and exception text, or ``None`` if absent, corrupt or stale.

    Read from the unpacked copy in the cache, unpacked again once if that does not validate.
    """
    for refresh in (False, True):
        try:
            raw = unpacked_file(
                data_file("wordnet", NLTK_BINARY_FILE), refresh=refresh, mapped=True
            )
        except (ResourceError, OSError, EOFError, zlib.error):
            return None
        loaded = _parse_nltk_binary(raw, index_gz, synsets_gz, exceptions_gz)
        if loaded is not None:
            return loaded
    return None


def _parse_nltk_binary(
    raw: bytes | mmap.mmap, index_gz: bytes, synsets_gz: bytes, exceptions_gz: bytes
) -> tuple[_NltkIndex, _NltkSynsets, str] | None:
    """The NLTK view held by the unpacked binary ``raw``, or ``None`` if corrupt or stale."""
    if len(raw) < _NLTK_HEADER.size:
        return None
    (magic, version, count, total, blob_size, bits, *per_pos, names_size, exc_size, source) = (
        _NLTK_HEADER.unpack_from(raw, 0)
    )
    if (
        magic != _NLTK_MAGIC
        or version != _NLTK_VERSION
        or bits > 30
        or source != _nltk_source_digest(index_gz, synsets_gz, exceptions_gz)
    ):
        return None
    n_synsets = sum(per_pos)
    at = _NLTK_HEADER.size
    view = memoryview(raw)
    sections: list[memoryview] = []
    for size in (
        blob_size,
        4 * (count + 1),
        4 << bits,
        count,
        4 * (count + 1),
        4 * total,
        4 * n_synsets,
        n_synsets,
        4 * (n_synsets + 1),
        names_size,
    ):
        sections.append(view[at : at + size])
        at += size + (-size % 4)
    exceptions_raw = raw[at:]
    if len(exceptions_raw) != exc_size or at > len(raw):
        return None
    blob = bytes(sections[0])
    masks, types = sections[3], sections[7]
    names = bytes(sections[9])
    lemma_starts, table, entry_starts, entries, synset_offsets, name_starts = (
        _uint32s(sections[k]) for k in (1, 2, 4, 5, 6, 8)
    )
    if (
        not _valid_key_table(blob, lemma_starts, table)
        or len(lemma_starts) != count + 1
        or len(entry_starts) != count + 1
        or entry_starts[-1] != total
        or len(synset_offsets) != n_synsets
        or len(name_starts) != n_synsets + 1
        or name_starts[-1] != names_size
        or len(names) != names_size
    ):
        return None
    bounds = (0, *itertools.accumulate(per_pos))
    try:
        exceptions_text = exceptions_raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    data = _NltkData(
        _KeyTable(blob, lemma_starts, table),
        masks,
        entry_starts,
        entries,
        (bounds[0], bounds[1], bounds[2], bounds[3], bounds[4]),
        synset_offsets,
        types,
        name_starts,
        names,
    )
    return _NltkIndex(data), _NltkSynsets(data), exceptions_text


@cached_loader
def nltk_wordnet() -> NltkWordNet:
    """The shared NLTK view of the shipped WordNet 3.0 (loaded on first call).

    Reads the compact binary form (:data:`NLTK_BINARY_FILE`) when it matches the shipped text
    files, else parses them (same content, slower).
    """
    index_gz = _read_source("index.tsv.gz")
    synsets_gz = _read_source("synsets.tsv.gz")
    exceptions_gz = _read_source("exceptions.tsv.gz")
    loaded = _load_nltk_binary(index_gz, synsets_gz, exceptions_gz)
    index: Mapping[str, Mapping[str, tuple[int, ...]]]
    synsets: Mapping[tuple[str, int], tuple[str, tuple[str, ...]]]
    if loaded is not None:
        index, synsets, exceptions_text = loaded
    else:
        index, synsets = _nltk_tables(
            _gunzip_text(index_gz, "index"), _gunzip_text(synsets_gz, "synset list")
        )
        exceptions_text = _gunzip_text(exceptions_gz, "exception list")
    return NltkWordNet(index, synsets, _nltk_exceptions(exceptions_text))


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
