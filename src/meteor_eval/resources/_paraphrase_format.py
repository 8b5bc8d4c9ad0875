"""The paraphrase index file: its layout, how it is written, and the checks it must pass.

Layout (native byte order, all arrays unsigned 32-bit, each section 8-byte aligned):

* header (:data:`HEADER_SIZE` bytes): magic, format version, byte order, the table's content key,
  counts, the body size, a CRC32 of sampled body blocks (written for compatibility with earlier
  readers, no longer checked), a CRC32 of the whole body and a CRC32 of the header itself;
* ``vocab``: every token of the table, UTF-8, joined by ``\\n``; a token's id is its position;
* one trie over **all** phrases (A and B), numbered breadth-first so that the children of a node
  are contiguous and sorted by token id, and the records whose phrase A ends at a node, in file
  order, each stored as the trie node of its phrase B:

  - ``nodes``: the node table, nodes + 1 pairs (``first_child``, ``record_start``) side by side:
    node ``i``'s children are ``first_child[i] .. first_child[i + 1]`` and its records
    ``record_start[i] .. record_start[i + 1]``. A step of a walk reads both ranges, usually from
    one cache line (format version 1 kept them in two arrays: two cache misses a step);
  - ``token`` (token id on the edge into each node) and ``parent``;
  - ``record_b``: every record's phrase-B node, the lists of the nodes one after the other.

The builder (:mod:`~meteor_eval.resources._paraphrase_build`) gives ``first_child`` and
``record_start`` as two arrays; :func:`node_table` interleaves them when the file is written.

Checks, in the order :func:`check_header` and :func:`check_structure` apply them:

* on every open: magic, header CRC (and zeros in the header's unused end), version, byte
  order, content key, the exact file size its counts imply;
* the CRC32 of the **whole body**, so that a changed byte anywhere is caught before any score is
  computed. It costs a new process about 35 to 45 ms for the 75 MB English index (reading every
  page of the map; ``benchmarks/bench_open.py``), so it is done on an open only when the file is
  not known unchanged since it last passed:
  :func:`~meteor_eval.resources.registry.record_verified` leaves a stamp beside the index
  (``.<index>.verified``) with its device, inode, size, modification and status-change times,
  any write to the file or replacement of it changes them, and an open that finds them equal
  skips the body check (:func:`~meteor_eval.resources.registry.verified_before`). A file is
  stamped only once its last change is two seconds old, so a later change cannot share its
  timestamps. Damage that no write explains (a failing disk) is then left to the next full check
  (``meteor-eval resources verify``) and to the readers' own bounds checks;
* with ``verify="full"`` (``meteor-eval resources verify`` and ``resources build``), the
  structure as well: ``first_child`` and ``record_start`` monotone and within bounds, every
  parent the node whose child list holds the node (so parents precede children and
  :meth:`~meteor_eval.resources.paraphrases.ParaphraseTable.phrase` ends), child tokens strictly
  increasing and below the vocabulary size, phrase-B nodes within the trie, a vocabulary without
  duplicates. This catches a file written with a valid checksum by a faulty writer; it takes
  numpy about 0.2 s on the English index, hence not on every open.

The readers do not depend on the structural check to be safe: the compiled walk checks every
offset it follows and the pure-Python one raises ``IndexError`` (both reported as a damaged
index), and :meth:`~meteor_eval.resources.paraphrases.ParaphraseTable.phrase` stops after as many
steps as the trie has nodes.
"""

from __future__ import annotations

import array
import mmap
import struct
import sys
import zlib
from typing import TYPE_CHECKING, Final

from meteor_eval.errors import ResourceError

if TYPE_CHECKING:
    from meteor_eval.resources._paraphrase_build import BuiltArrays

__all__ = [
    "FORMAT_VERSION",
    "HEADER_SIZE",
    "U32",
    "CorruptIndexError",
    "check_header",
    "check_structure",
    "layout",
    "serialize",
]

#: Version of the on-disk index layout; bump whenever the layout or the build rules change.
#: 2: ``first_child`` and ``record_start`` interleaved into one node table.
FORMAT_VERSION: Final = 2
#: Size of the fixed header in bytes.
HEADER_SIZE: Final = 256

MAGIC: Final = b"MEPARIDX"
# magic, version, byte order (1 = little), key, vocab count, node count, record count,
# skipped records, vocab bytes, body size, sampled CRC, full CRC
HEADER: Final = struct.Struct("<8sII32sQQQQQQII")
_SAMPLE_BLOCKS: Final = 64
_SAMPLE_SIZE: Final = 4096

#: Array typecode of an unsigned 32-bit integer on this platform.
U32: Final = "I" if array.array("I").itemsize == 4 else "L"

#: The order of the body's sections.
SECTIONS: Final = ("vocab", "nodes", "token", "parent", "record_b")


class CorruptIndexError(Exception):
    """An index file failed one of its checks (internal; triggers a rebuild)."""


def _byte_order() -> int:
    return 1 if sys.byteorder == "little" else 2


def layout(vocab_bytes: int, nodes: int, records: int) -> list[tuple[int, int]]:
    """(offset, length) of each body section (:data:`SECTIONS`), from the start of the file."""
    sizes = [vocab_bytes, 8 * (nodes + 1), 4 * nodes, 4 * nodes, 4 * records]
    out: list[tuple[int, int]] = []
    offset = HEADER_SIZE
    for size in sizes:
        out.append((offset, size))
        offset += (size + 7) & ~7
    return out


def _sample_crc(body: bytes | memoryview | mmap.mmap, start: int, end: int) -> int:
    """CRC32 of :data:`_SAMPLE_BLOCKS` evenly spaced blocks of ``body[start:end]`` (all of it if
    small): the header field that format version 1 readers checked, still written for them."""
    length = end - start
    if length <= _SAMPLE_BLOCKS * _SAMPLE_SIZE:
        return zlib.crc32(body[start:end])
    crc = 0
    step = (length - _SAMPLE_SIZE) // (_SAMPLE_BLOCKS - 1)
    for block in range(_SAMPLE_BLOCKS):
        offset = start + block * step
        crc = zlib.crc32(body[offset : offset + _SAMPLE_SIZE], crc)
    return crc


def node_table(built: BuiltArrays, into: memoryview) -> None:
    """Write the ``nodes`` section into ``into`` (8 x (nodes + 1) bytes) and release the two
    arrays it is made of: ``first_child[i]`` then ``record_start[i]``, node after node."""
    table = memoryview(into).cast(U32)
    for offset, name in enumerate(("first_child", "record_start")):
        column = memoryview(getattr(built, name)).cast("B").cast(U32)
        if 2 * len(column) != len(table):
            raise ResourceError("internal error: index layout mismatch")
        table[offset::2] = column
        column.release()
        built.release(name)
    table.release()


def serialize(built: BuiltArrays, key: bytes) -> tuple[bytes, bytearray]:
    """The index file as its header and its body.

    The body is allocated once and each section is released as soon as it is copied, so that
    the arrays and the body are not both held in full.
    """
    nodes = len(built.token)
    records = len(built.record_b)
    vocab_size = len(built.vocab)
    sections = layout(vocab_size, nodes, records)
    offset, size = sections[-1]
    body = bytearray(offset + ((size + 7) & ~7) - HEADER_SIZE)
    for (offset, size), name in zip(sections, SECTIONS, strict=True):
        start = offset - HEADER_SIZE
        if name == "nodes":
            with memoryview(body) as whole:
                node_table(built, whole[start : start + size])
            continue
        section = memoryview(getattr(built, name)).cast("B")
        if len(section) != size:
            raise ResourceError("internal error: index layout mismatch")
        body[start : start + size] = section
        section.release()
        built.release(name)
    body_view = memoryview(body)
    header = HEADER.pack(
        MAGIC,
        FORMAT_VERSION,
        _byte_order(),
        key,
        built.vocab_count,
        nodes,
        records,
        built.skipped,
        vocab_size,
        len(body),
        _sample_crc(body_view, 0, len(body)),
        zlib.crc32(body_view),
    )
    body_view.release()
    header += struct.pack("<I", zlib.crc32(header))
    header += bytes(HEADER_SIZE - len(header))
    return header, body


def check_header(view: memoryview, key: bytes, *, body: bool = True) -> tuple[int, int, int, int]:
    """Check an index's header, its size and (``body``) the CRC32 of its whole body.

    Returns:
        The vocabulary count, nodes, records and vocabulary bytes.

    Raises:
        CorruptIndexError: naming the first check that failed.
    """
    if len(view) < HEADER_SIZE:
        raise CorruptIndexError("shorter than its header")
    fields = HEADER.unpack_from(view, 0)
    magic, version, order, stored_key, vocab_count, nodes, records, _skip, vocab_bytes = fields[:9]
    body_size, _sample, full_crc = fields[9:]
    (header_crc,) = struct.unpack_from("<I", view, HEADER.size)
    if magic != MAGIC:
        raise CorruptIndexError("magic")
    if zlib.crc32(view[: HEADER.size]) != header_crc:
        raise CorruptIndexError("header checksum")
    if view[HEADER.size + 4 : HEADER_SIZE] != bytes(HEADER_SIZE - HEADER.size - 4):
        raise CorruptIndexError("header padding")  # unused, but a sound file has zeros there
    if version != FORMAT_VERSION or order != _byte_order():
        raise CorruptIndexError("format version or byte order")
    if stored_key != key:
        raise CorruptIndexError("built from a different table")
    if nodes < 1 or nodes >= 1 << 32 or records >= 1 << 32 or vocab_count > nodes:
        raise CorruptIndexError("counts")
    offset, size = layout(vocab_bytes, nodes, records)[-1]
    end = HEADER_SIZE + body_size
    if offset + ((size + 7) & ~7) != end or len(view) != end:
        raise CorruptIndexError("size")
    if body and zlib.crc32(view[HEADER_SIZE:end]) != full_crc:
        raise CorruptIndexError("body checksum")
    return vocab_count, nodes, records, vocab_bytes


def check_structure(
    arrays: dict[str, memoryview], vocab_count: int, words: list[str] | None = None
) -> None:
    """Check the trie and record arrays of an index completely (vectorised with numpy).

    Args:
        arrays: ``nodes``, ``token``, ``parent`` and ``record_b``.
        vocab_count: The vocabulary size from the header.
        words: The decoded vocabulary, checked for duplicates when given.

    Raises:
        CorruptIndexError: naming the first invariant that does not hold.
    """
    import numpy as np  # only for a full check: importing it costs 0.1 s

    def u32(name: str) -> np.ndarray[tuple[int], np.dtype[np.int64]]:
        return np.frombuffer(arrays[name], dtype=np.uint32).astype(np.int64)

    table = u32("nodes")
    if len(table) % 2:
        raise CorruptIndexError("structure: node table")
    first_child, record_start = table[0::2], table[1::2]
    token, parent, record_b = u32("token"), u32("parent"), u32("record_b")
    nodes = len(token)
    counts = np.diff(first_child)
    if first_child[0] != 1 or first_child[-1] != nodes or (counts < 0).any():
        raise CorruptIndexError("structure: child lists")
    # Each node's parent is the node whose child list holds it: this also means that parents
    # come before their children (first_child[i] > i follows from the breadth-first order).
    owners = np.repeat(np.arange(nodes, dtype=np.int64), counts)
    if (
        parent[0] != 0
        or not np.array_equal(owners, parent[1:])
        or (owners >= np.arange(1, nodes)).any()
    ):
        raise CorruptIndexError("structure: parents")
    if nodes > 1 and (token[1:] >= vocab_count).any():
        raise CorruptIndexError("structure: token ids")
    siblings = parent[2:] == parent[1:-1]
    if (token[2:][siblings] <= token[1:-1][siblings]).any():
        raise CorruptIndexError("structure: child order")
    if (
        record_start[0] != 0
        or record_start[-1] != len(record_b)
        or (np.diff(record_start) < 0).any()
    ):
        raise CorruptIndexError("structure: record lists")
    if len(record_b) and (record_b.min() < 1 or record_b.max() >= nodes):
        raise CorruptIndexError("structure: phrase-B nodes")
    if words is not None and len(set(words)) != len(words):
        raise CorruptIndexError("structure: repeated vocabulary entries")
