"""Building the arrays of a paraphrase index: the gzip table streamed in blocks, numpy for the trie.

The index layout (see :mod:`meteor_eval.resources.paraphrases`) is canonical: token ids follow
the order in which tokens first occur in the table (phrase A before phrase B, record by record),
and trie nodes are numbered breadth-first with the children of a node sorted by token id, i.e.
by phrase length and then lexicographically by token ids. Nothing depends on the order in which
nodes are discovered, so the build may discover them in any order, a block at a time:

1. Decompress 2 MiB of text (the next block in a second thread), cut it at the last line end,
   translate ``\r\n`` and ``\r`` to ``\n`` (Java's ``readLine``, spec J5).
2. Keep whole three-line records (the rest waits for the next block); take the first phrase A
   of each run of equal A lines and every phrase B, in file order (A before B), and replace
   invalid UTF-8 as the text decoder would.
3. Map their tokens to ids through one dictionary (the compiled ``paraphrase_tokenize``, or
   C-level ``map`` over ``bytes.split`` without the extension) and, depth by depth, look
   up ``(parent node, token)`` keys in that depth's sorted key arrays (``numpy.unique``,
   ``searchsorted``), adding the keys not seen before as new nodes.
4. Keep each record's phrase-A and phrase-B node (4 bytes each).

At the end, each depth's nodes are sorted by (final parent id, token) to give the breadth-first
numbering, and records are grouped by their phrase-A node, file order within a node, by an
in-place sort of ``A << 32 | record number`` keys. For the English table (5.27 million
records) this took 5.0 s of CPU time and 241 MB at its peak, against 21.9 s and 587 MB for the
former per-token Python loop (``benchmarks/bench_first_run.py``, ``docs/performance.md``).

With the compiled extension, steps 1 to 4 and the breadth-first numbering are one C pass
instead (``paraphrase_index_pass``, ``_ext/tokens.c``; :func:`_build_compiled`): the
decompressed blocks (still read ahead in a second thread, the GIL released while C reads) are
cut into lines and records, tokens get their ids and phrases their nodes through two hash
tables (token bytes -> id, ``(parent, token)`` -> node), a batch of phrases at a time with the
look-ups of one depth prefetched, and no Python object is made per line or token. The numpy
steps above are its twin (``METEOR_EVAL_PURE_PYTHON=1``); both give the same arrays, so the
same index bytes. Grouping the records (:func:`_assemble`) is shared.
"""

from __future__ import annotations

import gzip
import itertools
import mmap
import operator
import os
import re
import zlib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Final

import numpy as np
import numpy.typing as npt

from meteor_eval._ext import compiled_function
from meteor_eval.errors import ResourceError

__all__ = ["BuiltArrays", "build_arrays"]

#: Records regrouped per step at the end.
_GATHER: Final = 1 << 20
#: Decompressed bytes read per block.
_BLOCK: Final = 1 << 21
#: Phrases the compiled pass reads before looking up their nodes (tests make it small).
_PASS_BATCH: Final = 1 << 15

# Java's StringTokenizer separators (spec J2) as bytes; bytes.split() also splits on \x0b, so
# text holding a vertical tab takes this (slower) exact pattern.
_TOKEN_RE: Final = re.compile(rb"[^ \t\n\r\f]+")
_SEPARATORS: Final = (ord(" "), ord("\t"), ord("\f"), ord("\n"))
# The compiled tokeniser (same ids, same counts, no bytes object per token), when built.
_COMPILED_TOKENIZE: Final = compiled_function("paraphrase_tokenize")
# The compiled single pass (lines, tokens and trie nodes in C; same arrays), when built.
_COMPILED_PASS: Final = compiled_function("paraphrase_index_pass")

U32 = npt.NDArray[np.uint32]
_EMPTY: Final[U32] = np.empty(0, np.uint32)
I64 = npt.NDArray[np.int64]


@dataclass(slots=True)
class BuiltArrays:
    """The sections of an index, final numbering (native unsigned 32-bit arrays)."""

    vocab: bytes
    vocab_count: int
    first_child: U32
    token: U32
    parent: U32
    record_start: U32
    record_b: U32
    skipped: int

    def release(self, name: str) -> None:
        """Drop one array section (once it has been copied out)."""
        setattr(self, name, b"" if name == "vocab" else _EMPTY)


def _mapped(count: int, dtype: type[np.generic]) -> npt.NDArray[Any]:
    """An uninitialised array in its own anonymous memory map.

    The arrays that live through the whole build (the trie, the records) are replaced or grown
    block after block; from the ordinary heap they leave holes that the allocator cannot give
    back (about 90 MB for the English table). A map of their own is returned to the system
    when the array is freed.
    """
    size = count * np.dtype(dtype).itemsize
    if size == 0:
        return np.empty(0, dtype)
    return np.frombuffer(mmap.mmap(-1, size), dtype)


def _insert_sorted(
    known: npt.NDArray[Any], where: I64, values: npt.NDArray[Any]
) -> npt.NDArray[Any]:
    """``numpy.insert(known, where, values)`` into a fresh :func:`_mapped` array."""
    merged = _mapped(len(known) + len(values), known.dtype.type)
    slots = where + np.arange(len(values))
    keep = np.ones(len(merged), bool)
    keep[slots] = False
    merged[keep] = known
    merged[slots] = values
    return merged


class _Records:
    """Phrase-A and phrase-B node (discovery ids) of every kept record, in file order, in two
    arrays that double in capacity when full."""

    def __init__(self) -> None:
        self.a: U32 = _mapped(1 << 16, np.uint32)
        self.b: U32 = _mapped(1 << 16, np.uint32)
        self.count = 0

    @classmethod
    def of(cls, a: U32, b: U32) -> _Records:
        """The records already read (two arrays of equal length)."""
        records = cls.__new__(cls)
        records.a, records.b, records.count = a, b, len(a)
        return records

    def extend(self, a_nodes: I64, b_nodes: I64) -> None:
        """Append the nodes of some records."""
        end = self.count + len(a_nodes)
        if end > len(self.a):
            capacity = max(end, 2 * len(self.a))
            for name in ("a", "b"):
                grown = _mapped(capacity, np.uint32)
                grown[: self.count] = getattr(self, name)[: self.count]
                setattr(self, name, grown)
        self.a[self.count : end] = a_nodes
        self.b[self.count : end] = b_nodes
        self.count = end


class _Vocabulary(dict[bytes, int]):
    """Token -> id, ids given in order of first lookup."""

    def __missing__(self, word: bytes) -> int:
        value = self[word] = len(self)
        return value


class _Level:
    """The trie nodes of one depth discovered so far: sorted ``parent << 32 | token`` keys and
    the node id (in discovery order; 0 is the root) of each key.

    New nodes go to a small sorted ``recent`` part, merged into the large ``main`` part (in a
    map of its own) when it reaches a quarter of it: each block then copies only the small part.
    """

    def __init__(self) -> None:
        self.main_keys: npt.NDArray[np.uint64] = np.empty(0, np.uint64)
        self.main_ids: U32 = np.empty(0, np.uint32)
        self.recent_keys: npt.NDArray[np.uint64] = np.empty(0, np.uint64)
        self.recent_ids: U32 = np.empty(0, np.uint32)

    def find(self, keys: npt.NDArray[np.uint64], ids: I64) -> npt.NDArray[np.bool_]:
        """Fill ``ids`` for the sorted distinct ``keys`` already known; returns which were."""
        found = np.zeros(len(keys), bool)
        for known_keys, known_ids in (
            (self.main_keys, self.main_ids),
            (self.recent_keys, self.recent_ids),
        ):
            where = np.searchsorted(known_keys, keys)
            hit = where < len(known_keys)
            hit[hit] = known_keys[where[hit]] == keys[hit]
            ids[hit] = known_ids[where[hit]]
            found |= hit
        return found

    def add(self, keys: npt.NDArray[np.uint64], ids: U32) -> None:
        """Add new sorted keys and their ids."""
        where = np.searchsorted(self.recent_keys, keys)
        self.recent_keys = np.insert(self.recent_keys, where, keys)
        self.recent_ids = np.insert(self.recent_ids, where, ids)
        if len(self.recent_keys) > max(len(self.main_keys) // 4, 1 << 16):
            self.merge()

    def merge(self) -> None:
        """Move the recent part into the main part."""
        where = np.searchsorted(self.main_keys, self.recent_keys)
        self.main_keys = _insert_sorted(self.main_keys, where, self.recent_keys)
        self.main_ids = _insert_sorted(self.main_ids, where, self.recent_ids)
        self.recent_keys = np.empty(0, np.uint64)
        self.recent_ids = _EMPTY


class _Trie:
    """Trie nodes discovered so far, one :class:`_Level` per depth."""

    def __init__(self) -> None:
        self.levels: list[_Level] = []
        self.count = 1

    def child_ids(self, depth: int, keys: npt.NDArray[np.uint64]) -> I64:
        """Node ids of the (parent, token) ``keys`` at ``depth`` (1-based), adding new ones."""
        if depth > len(self.levels):
            self.levels.append(_Level())
        level = self.levels[depth - 1]
        distinct, inverse = np.unique(keys, return_inverse=True)
        result = np.empty(len(distinct), np.int64)
        new = ~level.find(distinct, result)
        added = int(np.count_nonzero(new))
        if added:
            fresh = np.arange(self.count, self.count + added, dtype=np.uint32)
            self.count += added
            result[new] = fresh
            level.add(distinct[new], fresh)
        return result[inverse.reshape(-1)]


def _read_ahead(raw: IO[bytes], handle: gzip.GzipFile) -> Iterator[tuple[bytes, int]]:
    """Decompressed blocks (``b""`` at the end), each with the compressed bytes read so far.

    The next block is decompressed in a second thread while the caller works on this one
    (zlib releases the GIL), which hides most of the decompression on a machine with two cores.
    """

    def read() -> tuple[bytes, int]:
        data = handle.read(_BLOCK)
        return data, raw.tell()

    with ThreadPoolExecutor(max_workers=1) as pool:
        ahead = pool.submit(read)
        while True:
            data, position = ahead.result()
            if data:
                ahead = pool.submit(read)
            yield data, position
            if not data:
                return


def _blocks(chunks: Iterator[tuple[bytes, int]], path: Path) -> Iterator[tuple[list[bytes], int]]:
    """Lines of the table (newlines translated, UTF-8 repaired), a whole number of records at a
    time, with the compressed position reached.

    Raises:
        ResourceError: if the last record is incomplete.
    """
    pending = b""
    carry: list[bytes] = []
    records = 0
    for data, position in chunks:
        text = pending + data if pending else data
        if not data:
            pending, complete = b"", text
        else:
            # A final \r may be the first half of \r\n: keep it for the next block.
            end = max(text.rfind(b"\n"), text.rfind(b"\r", 0, len(text) - 1))
            pending, complete = text[end + 1 :], text[: end + 1]
        lines = _lines(complete) if complete else []
        if carry:
            lines[:0] = carry
        usable = len(lines) - len(lines) % 3
        carry = lines[usable:]
        if usable:
            records += usable // 3
            yield (lines if usable == len(lines) else lines[:usable]), position
    if carry:
        raise ResourceError(
            f"paraphrase table {path} ends inside a record (record {records + 1} is missing "
            "its phrase lines)"
        )


def _lines(text: bytes) -> list[bytes]:
    """Lines of a text that ends at a line end (or at the end of the file)."""
    if b"\r" in text:
        text = text.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    lines = text.split(b"\n")
    if text.endswith(b"\n"):
        lines.pop()
    return lines


def _tokenize(phrases: list[bytes], vocabulary: _Vocabulary) -> tuple[U32, I64]:
    """Token ids of ``phrases`` (concatenated) and the number of tokens of each phrase."""
    joined = b"\n".join(phrases)
    if not joined:
        return np.empty(0, np.uint32), np.zeros(len(phrases), np.int64)
    if not joined.isascii():
        # As the text decoder of a table opened with errors="replace" would (lines end with an
        # ASCII byte, so repairing lines joined by \n equals repairing the whole file).
        try:
            joined.decode("utf-8")
        except UnicodeDecodeError:
            joined = joined.decode("utf-8", "replace").encode("utf-8")
    tokenize = _COMPILED_TOKENIZE
    if tokenize is not None:
        ids_bytes, counts_bytes = tokenize(joined, vocabulary)
        return np.frombuffer(ids_bytes, np.uint32), np.frombuffer(counts_bytes, np.int64)
    return _tokenize_python(joined, vocabulary)


def _tokenize_python(joined: bytes, vocabulary: _Vocabulary) -> tuple[U32, I64]:
    """:func:`_tokenize` of the joined phrases in Python and numpy (the compiled kernel's twin,
    ``paraphrase_tokenize`` in ``_ext/tokens.c``)."""
    words = _TOKEN_RE.findall(joined) if b"\x0b" in joined else joined.split()
    ids = np.fromiter(map(vocabulary.__getitem__, words), np.uint32, count=len(words))
    del words
    text = np.frombuffer(joined, np.uint8)
    newline = text == _SEPARATORS[3]
    separator = newline.copy()
    for byte in _SEPARATORS[:3]:
        separator |= text == byte
    starts = ~separator
    starts[1:] &= separator[:-1]
    # Tokens started so far at each line end, then per line.
    started = np.cumsum(starts, dtype=np.int64)
    counts = np.diff(started[np.flatnonzero(newline)], prepend=0, append=started[-1:])
    if int(counts.sum()) != len(ids):
        raise ResourceError("internal error: tokenisation mismatch while building the index")
    return ids, counts.astype(np.int64, copy=False)


def _phrase_nodes(phrases: list[bytes], vocabulary: _Vocabulary, trie: _Trie) -> I64:
    """Trie node of each phrase (0 for a phrase without tokens), adding missing nodes."""
    ids, counts = _tokenize(phrases, vocabulary)
    offsets = np.zeros(len(phrases), np.int64)
    np.cumsum(counts[:-1], out=offsets[1:])
    nodes = np.zeros(len(phrases), np.int64)
    for depth in range(1, int(counts.max(initial=0)) + 1):
        chosen = np.flatnonzero(counts >= depth)
        keys = (nodes[chosen].astype(np.uint64) << np.uint64(32)) | ids[
            offsets[chosen] + depth - 1
        ].astype(np.uint64)
        nodes[chosen] = trie.child_ids(depth, keys)
    return nodes


def _block_records(lines: list[bytes], vocabulary: _Vocabulary, trie: _Trie) -> tuple[I64, I64]:
    """Phrase-A and phrase-B nodes of the records of a block (phrase B may be the root).

    Records are usually grouped by phrase A, so only the first A of each run of equal A lines
    is looked up; repeated phrases elsewhere simply find their node again. Phrases are looked up
    in file order (A before B), which gives tokens their first-occurrence ids.
    """
    count = len(lines) // 3
    a_lines = lines[1::3]
    b_lines = lines[2::3]
    del lines
    run_start = np.ones(count, bool)
    if count > 1:
        run_start[1:] = np.fromiter(
            map(operator.ne, a_lines[1:], a_lines[:-1]), bool, count=count - 1
        )
    phrases: list[bytes] = [b""] * (2 * count)
    phrases[0::2] = a_lines
    phrases[1::2] = b_lines
    del a_lines, b_lines
    keep = np.ones(2 * count, bool)
    keep[0::2] = run_start
    nodes = np.zeros(2 * count, np.int64)
    kept = np.flatnonzero(keep)
    nodes[kept] = _phrase_nodes(list(itertools.compress(phrases, keep.tolist())), vocabulary, trie)
    del phrases
    a_nodes = nodes[0::2][run_start][np.cumsum(run_start) - 1]
    return a_nodes, nodes[1::2]


@dataclass(slots=True)
class _Numbering:
    """Breadth-first id of every discovered node (``final``, by discovery id), with each node's
    token and parent in final order."""

    final: U32
    token: U32
    parent: U32


def _final_numbering(trie: _Trie) -> _Numbering:
    """The :class:`_Numbering` of the discovered nodes. Empties the trie."""
    final = np.zeros(trie.count, np.uint32)
    tokens = [np.zeros(1, np.uint32)]
    parents = [np.zeros(1, np.uint32)]
    next_id = 1
    while trie.levels:
        level = trie.levels.pop(0)
        level.merge()
        keys, ids = level.main_keys, level.main_ids
        del level
        parent = final[keys >> np.uint64(32)]
        token = (keys & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        del keys
        order = np.argsort((parent.astype(np.uint64) << np.uint64(32)) | token)
        final[ids[order]] = np.arange(next_id, next_id + len(order), dtype=np.uint32)
        tokens.append(token[order])
        parents.append(parent[order])
        next_id += len(order)
    return _Numbering(final, np.concatenate(tokens), np.concatenate(parents))


def build_arrays(path: Path, progress: Callable[[int, int], None] | None = None) -> BuiltArrays:
    """Read a gzip paraphrase table and return the sections of its index.

    Args:
        path: The gzip table.
        progress: Called after each block with (compressed bytes read, compressed size).

    Raises:
        ResourceError: if the table cannot be read, is malformed or is too large for the format.
    """
    if _COMPILED_PASS is not None:
        return _build_compiled(path, progress)
    vocabulary = _Vocabulary()
    trie = _Trie()
    records = _Records()
    skipped = 0
    try:
        with path.open("rb") as raw, gzip.GzipFile(fileobj=raw, mode="rb") as handle:
            size = os.fstat(raw.fileno()).st_size
            for lines, position in _blocks(_read_ahead(raw, handle), path):
                a_nodes, b_nodes = _block_records(lines, vocabulary, trie)
                kept = b_nodes != 0
                skipped += len(kept) - int(np.count_nonzero(kept))
                records.extend(a_nodes[kept], b_nodes[kept])
                if trie.count >= 1 << 32 or records.count >= 1 << 32:
                    raise ResourceError("paraphrase table too large for index format 1")
                if progress is not None:
                    progress(min(position, size), size)
    except (OSError, EOFError, zlib.error) as exc:
        raise ResourceError(f"cannot read paraphrase table {path}: {exc}") from exc
    return _assemble(
        b"\n".join(vocabulary), len(vocabulary), _final_numbering(trie), records, skipped
    )


def _build_compiled(path: Path, progress: Callable[[int, int], None] | None) -> BuiltArrays:
    """:func:`build_arrays` with the compiled pass (``paraphrase_index_pass``, ``_ext/tokens.c``):
    the decompressed blocks go to C, which reads lines, records, tokens and trie nodes in one
    pass (the numpy steps above are its twin) and numbers the nodes; :func:`_assemble` then
    groups the records as for the twin."""
    assert _COMPILED_PASS is not None
    try:
        with path.open("rb") as raw, gzip.GzipFile(fileobj=raw, mode="rb") as handle:
            size = os.fstat(raw.fileno()).st_size

            def blocks() -> Iterator[bytes]:
                # Progress is reported once a block has been read (when the pass asks for the
                # next one), as the twin does after each block.
                for data, position in _read_ahead(raw, handle):
                    if data:
                        yield data
                    if progress is not None:
                        progress(min(position, size), size)

            passed = _COMPILED_PASS(blocks(), _PASS_BATCH)
    except (OSError, EOFError, zlib.error) as exc:
        raise ResourceError(f"cannot read paraphrase table {path}: {exc}") from exc
    except OverflowError as exc:
        raise ResourceError(str(exc)) from exc
    vocab, vocab_count, final, token, parent, a_nodes, b_nodes, skipped, lines = passed
    del passed
    if lines % 3:
        raise ResourceError(
            f"paraphrase table {path} ends inside a record (record {lines // 3 + 1} is missing "
            "its phrase lines)"
        )
    numbering = _Numbering(
        np.frombuffer(final, np.uint32),
        np.frombuffer(token, np.uint32),
        np.frombuffer(parent, np.uint32),
    )
    del final, token, parent
    records = _Records.of(np.frombuffer(a_nodes, np.uint32), np.frombuffer(b_nodes, np.uint32))
    del a_nodes, b_nodes
    return _assemble(vocab, vocab_count, numbering, records, skipped)


def _positions(haystack: npt.NDArray[Any], count: int, *, shift: int) -> U32:
    """``searchsorted(haystack, k << shift)`` for k in ``range(count)``, as unsigned 32-bit
    integers, a step at a time (a single call would make two 64-bit arrays of ``count``)."""
    out = np.empty(count, np.uint32)
    for start in range(0, count, _GATHER):
        stop = min(start + _GATHER, count)
        needles = np.arange(start, stop, dtype=haystack.dtype)
        needles <<= haystack.dtype.type(shift)
        out[start:stop] = np.searchsorted(haystack, needles)
    return out


def _assemble(
    vocab: bytes,
    vocab_count: int,
    numbering: _Numbering,
    records: _Records,
    skipped: int,
) -> BuiltArrays:
    """Records grouped by phrase A (file order within a node), in the final numbering."""
    final, token, parent = numbering.final, numbering.token, numbering.parent
    numbering.final = numbering.token = numbering.parent = _EMPTY
    nodes = len(token)
    a_final = final[records.a[: records.count]]
    records.a = _EMPTY
    # Group the records by phrase A, file order within a group: sort (A << 32 | record number)
    # in place, which needs half the memory of a stable argsort plus its keys.
    order = np.empty(len(a_final), np.uint64)
    for start in range(0, len(order), _GATHER):
        part = order[start : start + _GATHER]
        part[:] = a_final[start : start + len(part)]
        part <<= np.uint64(32)
        part |= np.arange(start, start + len(part), dtype=np.uint64)
    del a_final
    order.sort()
    record_start = _positions(order, nodes + 1, shift=32)
    order &= np.uint64(0xFFFFFFFF)
    grouped = np.empty(len(order), np.uint32)
    for start in range(0, len(order), _GATHER):
        chunk = order[start : start + _GATHER]
        grouped[start : start + len(chunk)] = final[records.b[chunk]]
    records.b = _EMPTY
    del order
    del final
    # Children are contiguous and parents non-decreasing: a node's first child comes after
    # every node whose parent has a smaller id.
    first_child = _positions(parent[1:], nodes + 1, shift=0)
    first_child += 1
    return BuiltArrays(
        vocab=vocab,
        vocab_count=vocab_count,
        first_child=first_child,
        token=token,
        parent=parent,
        record_start=record_start,
        record_b=grouped,
        skipped=skipped,
    )
