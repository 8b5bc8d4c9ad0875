"""The two binary WordNet formats: constants, section parsing and validation.

Both files are written by ``scripts/build_wordnet.py`` (``scripts/wordnet_build/``, which
documents each layout byte by byte) and shipped xz-compressed; the readers here parse the unpacked
bytes, usually a read-only memory map, in place: sections become ``memoryview`` casts on
little-endian machines and nothing is decoded until looked up.

Each header records the *source digest*: SHA-256 over the raw SHA-256 digests of the gzip'd
text files the binary was built from (``index.tsv.gz`` and ``exceptions.tsv.gz`` for the METEOR
view; ``index.tsv.gz``, ``synsets.tsv.gz`` and ``exceptions.tsv.gz`` for the NLTK view). Those
text files are the resource's canonical form; they are not shipped, but ``manifest.json`` keeps
their digests, so a binary is accepted only when it was built from exactly the data the manifest
(and with it the resource's identity in score signatures) describes.

Parsing is pure: it raises :class:`BinaryFormatError` with a reason, and the caller
(:mod:`meteor_eval.resources.wordnet.shipped`) turns that into a :class:`ResourceError` naming
the file.
"""

from __future__ import annotations

import itertools
import mmap
import struct
import sys
from array import array
from collections.abc import Sequence
from typing import Final

from meteor_eval.resources.registry import sha256
from meteor_eval.resources.wordnet.keytable import (
    KeyTable,
    u32_section,
    uint32s,
    valid_key_table,
)

__all__ = [
    "METEOR_BINARY_FILE",
    "METEOR_HEADER",
    "METEOR_MAGIC",
    "METEOR_VERSION",
    "NLTK_BINARY_FILE",
    "NLTK_HEADER",
    "NLTK_MAGIC",
    "NLTK_VERSION",
    "BinaryFormatError",
    "MeteorSections",
    "NltkSections",
    "parse_meteor_binary",
    "parse_nltk_binary",
    "source_digest",
]

#: The METEOR view: each word's synsets and each word's or inflected form's complete synonym
#: set S(t), as sorted int64 values behind a CRC-32 key table. It loads in a few milliseconds
#: without building a dict, and a first lookup is a slice.
METEOR_BINARY_FILE: Final = "meteor-synsets.bin.xz"

#: The NLTK view: lemma -> part of speech -> synsets, synset -> type and lemma names, and the
#: exception lists' text. Lemmas are found through a CRC-32 key table and entries are decoded
#: when looked up.
NLTK_BINARY_FILE: Final = "nltk-wordnet.bin.xz"

# magic, format version, keys, listed words, int64 values in the pool, bytes of the keys, log2
# of the key table slots, source digest (index, exceptions)
METEOR_HEADER: Final = struct.Struct("<8s6I32s")
METEOR_MAGIC: Final = b"MEWNSYN\0"
METEOR_VERSION: Final = 2

# magic, format version, lemmas, entries, bytes of the lemma keys, log2 of the key table
# slots, synsets of each file part of speech (n v a r), bytes of the lemma names, bytes of the
# exception text, source digest (index, synsets, exceptions)
NLTK_HEADER: Final = struct.Struct("<8s11I32s")
NLTK_MAGIC: Final = b"MEWNNLTK"
NLTK_VERSION: Final = 2

# Larger key tables than 2**30 slots do not fit the format's uint32 arrays anyway.
_MAX_BITS: Final = 30


class BinaryFormatError(ValueError):
    """The bytes are not a valid binary view (the message says why, without the file name)."""


def source_digest(*sha256_hex: str) -> bytes:
    """The source digest a header records: SHA-256 over the raw digests, in the given order.

    Example:
        >>> import hashlib
        >>> one = hashlib.sha256(b"a").hexdigest()
        >>> source_digest(one) == hashlib.sha256(hashlib.sha256(b"a").digest()).digest()
        True
    """
    return sha256(b"".join(bytes.fromhex(each) for each in sha256_hex)).digest()


def _check_header(
    magic: bytes, version: int, bits: int, source: bytes, expected: tuple[bytes, int, bytes]
) -> None:
    want_magic, want_version, want_source = expected
    if magic != want_magic:
        raise BinaryFormatError(f"is not a WordNet table of this kind (magic {magic!r})")
    if version != want_version:
        raise BinaryFormatError(
            f"has format version {version}; this meteor-eval reads version {want_version}"
        )
    if bits > _MAX_BITS:
        raise BinaryFormatError(f"has an impossible key table size (2**{bits} slots)")
    if source != want_source:
        raise BinaryFormatError(
            "was built from other WordNet data than manifest.json describes (checksum mismatch)"
        )


_TRUNCATED: Final = "is truncated or damaged (its sections do not match its header)"


class MeteorSections:
    """The sections of the METEOR view, read in place (a plain record, not a dataclass, so
    that loading WordNet does not import :mod:`dataclasses`).

    Attributes:
        keys: Listed words and inflected forms of the exception lists, sorted by code point.
        starts: ``keys + 1`` starts of each key's segment of the pool (int64 values).
        own_ends: End of each key's own synsets in its segment; S(key) follows when it differs.
        pool: The int64 synset offsets.
        words: How many keys are listed words (have synsets of their own).
        pool_bytes: ``(buffer, byte offset)`` of the pool as native int64 values, when the
            buffer already holds them (little-endian machines); else ``None``.
    """

    __slots__ = ("keys", "own_ends", "pool", "pool_bytes", "starts", "words")

    def __init__(
        self,
        keys: KeyTable,
        starts: Sequence[int],
        own_ends: Sequence[int],
        pool: Sequence[int],
        words: int,
        pool_bytes: tuple[bytes | mmap.mmap, int] | None,
    ) -> None:
        self.keys = keys
        self.starts = starts
        self.own_ends = own_ends
        self.pool = pool
        self.words = words
        self.pool_bytes = pool_bytes


def parse_meteor_binary(raw: bytes | mmap.mmap, expected_source: bytes) -> MeteorSections:
    """The sections of the unpacked METEOR view ``raw``.

    Args:
        raw: The unpacked file.
        expected_source: The source digest the header must record (see :func:`source_digest`).

    Raises:
        BinaryFormatError: wrong magic or version, another source digest, or sizes that do not
            add up (a truncated or damaged file).
    """
    if len(raw) < METEOR_HEADER.size:
        raise BinaryFormatError(_TRUNCATED)
    magic, version, count, words, total, blob_size, bits, source = METEOR_HEADER.unpack_from(raw, 0)
    _check_header(magic, version, bits, source, (METEOR_MAGIC, METEOR_VERSION, expected_source))
    at = METEOR_HEADER.size
    blob = raw[at : at + blob_size]
    at += blob_size + (-blob_size % 4)
    view = memoryview(raw)
    sections: list[Sequence[int]] = []
    for size in (count + 1, 1 << bits, count + 1, count):
        sections.append(u32_section(view, at, size))
        at += 4 * size
    at += -at % 8
    if at > len(raw) or (len(raw) - at) % 8:
        raise BinaryFormatError(_TRUNCATED)
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
        or not valid_key_table(blob, key_starts, table)
        or starts[0] != 0
        or starts[-1] != total
    ):
        raise BinaryFormatError(_TRUNCATED)
    return MeteorSections(
        KeyTable(blob, key_starts, table),
        starts,
        own_ends,
        pool,
        words,
        (raw, at) if sys.byteorder == "little" else None,
    )


class NltkSections:
    """The sections of the NLTK view, read in place (arrays and byte strings, no dicts; a plain
    record, not a dataclass, so that the NLTK flavour does not import :mod:`dataclasses`).

    Synsets are numbered in the order of their key (file part of speech ``n v a r``, then
    offset).

    Attributes:
        keys: The lemmas, sorted by code point.
        masks: One byte per lemma, a bit per part of speech present (``n v a r``, bit 0 first).
        entry_starts: ``lemmas + 1`` starts into ``entries``.
        entries: Synset numbers of each lemma, grouped by part of speech, index order within.
        bounds: First synset number of each file part of speech, then the synset count.
        synset_offsets: Princeton byte offset of each synset.
        types: ASCII synset type of each synset (``n v a s r``).
        name_starts: ``synsets + 1`` starts into ``names``.
        names: The lemma names of each synset joined by spaces (UTF-8).
        exceptions_text: The exception lists as ``pos<TAB>form<TAB>bases`` lines.
    """

    __slots__ = (
        "bounds",
        "entries",
        "entry_starts",
        "exceptions_text",
        "keys",
        "masks",
        "name_starts",
        "names",
        "synset_offsets",
        "types",
    )

    def __init__(
        self,
        keys: KeyTable,
        masks: Sequence[int],
        entry_starts: Sequence[int],
        entries: Sequence[int],
        bounds: tuple[int, int, int, int, int],
        synset_offsets: Sequence[int],
        types: Sequence[int],
        name_starts: Sequence[int],
        names: bytes,
        exceptions_text: str,
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
        self.exceptions_text = exceptions_text


def parse_nltk_binary(raw: bytes | mmap.mmap, expected_source: bytes) -> NltkSections:
    """The sections of the unpacked NLTK view ``raw`` (arguments and errors: those of
    :func:`parse_meteor_binary`)."""
    if len(raw) < NLTK_HEADER.size:
        raise BinaryFormatError(_TRUNCATED)
    (magic, version, count, total, blob_size, bits, *per_pos, names_size, exc_size, source) = (
        NLTK_HEADER.unpack_from(raw, 0)
    )
    _check_header(magic, version, bits, source, (NLTK_MAGIC, NLTK_VERSION, expected_source))
    n_synsets = sum(per_pos)
    at = NLTK_HEADER.size
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
        if at + size > len(raw):
            raise BinaryFormatError(_TRUNCATED)
        sections.append(view[at : at + size])
        at += size + (-size % 4)
    exceptions_raw = raw[at:]
    if at > len(raw) or len(exceptions_raw) != exc_size:
        raise BinaryFormatError(_TRUNCATED)
    blob = bytes(sections[0])
    masks, types = sections[3], sections[7]
    names = bytes(sections[9])
    lemma_starts, table, entry_starts, entries, synset_offsets, name_starts = (
        uint32s(sections[k]) for k in (1, 2, 4, 5, 6, 8)
    )
    if (
        not valid_key_table(blob, lemma_starts, table)
        or len(lemma_starts) != count + 1
        or len(entry_starts) != count + 1
        or entry_starts[-1] != total
        or len(synset_offsets) != n_synsets
        or len(name_starts) != n_synsets + 1
        or name_starts[-1] != names_size
        or len(names) != names_size
    ):
        raise BinaryFormatError(_TRUNCATED)
    try:
        exceptions_text = exceptions_raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BinaryFormatError("is damaged (its exception lists are not UTF-8)") from None
    bounds = (0, *itertools.accumulate(per_pos))
    return NltkSections(
        KeyTable(blob, lemma_starts, table),
        masks,
        entry_starts,
        entries,
        (bounds[0], bounds[1], bounds[2], bounds[3], bounds[4]),
        synset_offsets,
        types,
        name_starts,
        names,
        exceptions_text,
    )
