"""METEOR 1.5 paraphrase tables, behind a memory-mapped index that is built once per table.

A paraphrase table (spec sections 2.6 and 3.4) is a gzip UTF-8 file of three-line records: a
probability (ignored, as in the jar), phrase A and phrase B, each split on the five Java
whitespace characters (spec J2). METEOR 1.5 files every record under A, in file order, in a
trie keyed by A's tokens.

The official jar parses the English table (5,274,084 records) on every start, which takes about
11 s and 1.2 GB. Here the first use of a table builds a compact binary **index** in the user's
cache directory; later processes ``mmap`` it and read only the few pages that the sentences at
hand touch.

The index holds the table's vocabulary, one trie over all phrases (A and B) numbered
breadth-first, and per trie node the records whose phrase A ends there, each stored as the trie
node of its phrase B (layout and checks: :mod:`meteor_eval.resources._paraphrase_format`).

Because phrase B is a trie node, "does B occur in the sentence at position i" becomes "does the
walk from i pass through that node", so no phrase is ever decoded while matching.

Identity and integrity:

* The table is identified by a **content key**: SHA-256 over the file size, its first and last
  MiB. Hashing a 60 MB gzip in full on every run costs about 0.2 s; the gzip trailer (last 8
  bytes) holds the CRC32 and length of the uncompressed text, so any change to the content changes
  the key. The key is path independent (a copied table reuses the index) and is what
  :attr:`ParaphraseTable.spec` reports as its ``sha256``.
* An index is used only if its magic, version, byte order, header CRC, key, section sizes (the
  file size must match exactly), a few structural invariants and the CRC32 of its **whole body**
  check out; otherwise, and whatever error reading it raises, it is rebuilt with one warning on
  the ``meteor_eval`` logger. The body's CRC32 is skipped when a stamp beside the index shows
  the file unchanged (same inode, size, modification and status-change times) since it last
  passed, which keeps an open of the English index at about 16 ms instead of 55 ms
  (``benchmarks/bench_open.py``, ``docs/performance.md``). ``verify="full"`` (``meteor-eval
  resources verify``) checks the body and the structure of the trie and records completely.
* Indexes are written to a temporary file in the cache directory, flushed, ``fsync``-ed and then
  moved into place with :func:`os.replace`, so an interrupted build never leaves a partial index
  under the final name. If the cache directory is not writable the index is kept in memory.
* A build holds a lock next to the index (:mod:`meteor_eval.resources._paraphrase_lock`), so
  simultaneous first runs build once; temporary files left by a killed build are deleted
  (:func:`~meteor_eval.resources.registry.remove_stale_temporaries`).
* Building is streamed and vectorised (:mod:`meteor_eval.resources._paraphrase_build`): the
  English table took 5.0 s of CPU time and 241 MB at its peak (``docs/performance.md``). The
  library announces a build on the ``meteor_eval`` logger and reports its progress to the
  callback set with :func:`set_build_progress`; the command line shows both on stderr.

Differences from the jar: a record whose phrase B is empty would make the jar propose
zero-length matches; such records (absent from every distributed table) are skipped with a
warning. A truncated last record is a :class:`~meteor_eval.errors.ResourceError` here (the jar
crashes).
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import importlib.util
import itertools
import mmap
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal, Protocol

from meteor_eval._ext import compiled_kernels
from meteor_eval._log import get_logger
from meteor_eval.errors import ResourceError
from meteor_eval.resources._paraphrase_format import (
    FORMAT_VERSION,
    HEADER,
    HEADER_SIZE,
    U32,
    CorruptIndexError,
    check_header,
    check_structure,
    layout,
    serialize,
)
from meteor_eval.resources._paraphrase_lock import LOCK_TIMEOUT, build_lock, lock_path_for
from meteor_eval.resources.registry import (
    ResourceSpec,
    cache_dir,
    file_identity,
    record_verified,
    remove_stale_temporaries,
    settled,
    sha256,
    verified_before,
    write_atomically,
)

if TYPE_CHECKING:
    import logging

__all__ = [
    "FORMAT_VERSION",
    "HEADER_SIZE",
    "LOCK_TIMEOUT",
    "BuildProgress",
    "ParaphraseTable",
    "build_estimate",
    "build_index",
    "built_indexes",
    "cache_dir",
    "check_index_file",
    "find_paraphrase_table",
    "index_path_for",
    "lock_path_for",
    "open_index",
    "paraphrase_table",
    "set_build_progress",
    "stamped_table_key",
    "table_key",
]


def __getattr__(name: str) -> logging.Logger:
    """``logger``, the module's logger, made on first use: a run that logs nothing (an index
    already built) does not import :mod:`logging` (see :mod:`meteor_eval._log`)."""
    if name == "logger":
        return get_logger(__name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_KEY_CHUNK: Final = 1 << 20

# The five characters of Java's StringTokenizer (spec J2); same set as text.tokenize.java_split.
_TOKEN_RE: Final = re.compile("[^ \t\n\r\f]+")

_INSTALL_HINT: Final = (
    'install the English table with `pip install "meteor-eval[paraphrase]"` (it ships in '
    "pycocoevalcap), or pass a table in METEOR 1.5's format with --paraphrase-table PATH "
    "(API: MeteorConfig(paraphrase_table=PATH)), or set METEOR_EVAL_PARAPHRASE_{LANG} to its "
    "path or METEOR_EVAL_PARAPHRASE_DIR to a folder holding paraphrase-{lang}.gz"
)

#: Number of index builds in this process (lets tests check that an index is reused).
build_count = 0

#: Checks on opening: ``"checksum"`` (header, size, body CRC32) or ``"full"`` (and structure).
Verify = Literal["checksum", "full"]


# -- locating the table ------------------------------------------------------------------------


def find_paraphrase_table(language: str, path: str | os.PathLike[str] | None = None) -> Path:
    """Locate the paraphrase table of a language.

    Looks, in order, at the explicit ``path``; the environment variable
    ``METEOR_EVAL_PARAPHRASE_<LANG>`` (e.g. ``METEOR_EVAL_PARAPHRASE_EN``); the folder named by
    ``METEOR_EVAL_PARAPHRASE_DIR`` (file ``paraphrase-<lang>.gz``); and, without importing it,
    an installed ``pycocoevalcap`` (``meteor/data/paraphrase-<lang>.gz``, English only in practice).

    Args:
        language: METEOR 1.5 short language name (``"en"``, ``"fr"``, ...).
        path: An explicit table, which must exist.

    Returns:
        The path of the gzip table.

    Raises:
        ResourceError: if the explicit path or the file named by the language variable is missing,
            or if no table is found anywhere (the message says how to get one).
    """
    if path is not None:
        explicit = Path(path)
        if not explicit.is_file():
            raise ResourceError(f"paraphrase table not found: {explicit}")
        return explicit
    variable = f"METEOR_EVAL_PARAPHRASE_{language.upper().replace('-', '_')}"
    named = os.environ.get(variable)
    if named:
        candidate = Path(named)
        if not candidate.is_file():
            raise ResourceError(f"paraphrase table not found: {candidate} (from ${variable})")
        return candidate
    file_name = f"paraphrase-{language}.gz"
    folder = os.environ.get("METEOR_EVAL_PARAPHRASE_DIR")
    if folder and (Path(folder) / file_name).is_file():
        return Path(folder) / file_name
    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is not None and spec.submodule_search_locations:
        for root in spec.submodule_search_locations:
            candidate = Path(root) / "meteor" / "data" / file_name
            if candidate.is_file():
                return candidate
    hint = _INSTALL_HINT.format(LANG=language.upper(), lang=language)
    raise ResourceError(f"no paraphrase table for language {language!r}: {hint}")


def table_key(path: Path) -> bytes:
    """Path-independent content key of a table: SHA-256 of its size, first and last MiB.

    Raises:
        ResourceError: if the file cannot be read.
    """
    try:
        with path.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            digest = sha256(b"meteor-eval paraphrase table\0%d\0" % size)
            digest.update(handle.read(_KEY_CHUNK))
            if size > _KEY_CHUNK:
                handle.seek(max(_KEY_CHUNK, size - _KEY_CHUNK))
                digest.update(handle.read(_KEY_CHUNK))
    except OSError as exc:
        raise ResourceError(f"cannot read paraphrase table {path}: {exc}") from exc
    return digest.digest()


def stamped_table_key(path: Path, directory: Path | None = None) -> bytes:
    """:func:`table_key` of ``path``, read from a stamp in the cache folder while the table is
    unchanged since it was written (``.table-<digest of the path>.key``: the table's device,
    inode, size, modification and status-change times, then the key; written once the table's
    last change is two seconds old, as the index's verification stamp, and its index is in the
    folder). Hashing the table's
    first and last MiB with Python's own SHA-256 cost a new process about 100 M instructions
    (7% of a small job); a missing, torn or stale stamp only means the hash is computed again.

    Raises:
        ResourceError: if the file cannot be read.
    """
    try:
        stat = path.stat()
    except OSError:
        return table_key(path)  # (raises the error of an unreadable table)
    folder = cache_dir() if directory is None else directory
    name = sha256(os.fsencode(os.path.abspath(path))).hexdigest()[:32]
    stamp = folder / f".table-{name}.key"
    identity = file_identity(stat)
    # The stamp is read and written as bytes: a text stream would import the ascii codec's
    # module (``bytes.decode`` and ``str.encode`` know the codec without it).
    with contextlib.suppress(OSError, ValueError):
        lines = stamp.read_bytes().decode("ascii").split("\n")
        if len(lines) == 3 and lines[0] + "\n" == identity and len(lines[1]) == 64:
            return bytes.fromhex(lines[1])
    key = table_key(path)
    # Stamped only once its index is in the folder: a first run leaves the index alone there.
    if settled(stat) and index_path_for(key, folder).is_file():
        with contextlib.suppress(OSError):
            stamp.write_bytes(f"{identity}{key.hex()}\n".encode("ascii"))
    return key


def index_path_for(key: bytes, directory: Path | None = None) -> Path:
    """Where the index of the table with content ``key`` lives."""
    folder = cache_dir() if directory is None else directory
    return folder / f"paraphrase-{key.hex()[:32]}.v{FORMAT_VERSION}.idx"


# -- building ----------------------------------------------------------------------------------


# Endless default argument for ``dict.get`` in ``map`` (an unknown token has id -1).
_MISSING_IDS: Final = itertools.repeat(-1)

#: The compiled vocabulary table (``paraphrase_vocab``), or ``None`` (the dict of words serves).
_VOCAB_KERNEL = compiled_kernels("paraphrase_vocab", "paraphrase_vocab_ids")


def build_index(
    table: Path,
    key: bytes | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[bytes, bytearray]:
    """Build the index of a table and return its header and body.

    The table is streamed in blocks and the trie is built by one compiled pass, or by the
    numpy builder where the extension is absent
    (:mod:`meteor_eval.resources._paraphrase_build`). For the English table (5.27 million
    records, 3.3 million trie nodes) a whole first run, build included, took 6.4 s of CPU time
    and 234 MB peak memory, once per machine (``docs/performance.md``, round 9); the index is
    75 MB.

    Args:
        table: The gzip paraphrase table.
        key: Its content key (computed with :func:`table_key` when omitted).
        progress: Called as the table is read with (compressed bytes read, compressed size).

    Raises:
        ResourceError: if the table cannot be read or is malformed.
    """
    from meteor_eval.resources._paraphrase_build import build_arrays

    global build_count
    build_count += 1
    content_key = table_key(table) if key is None else key
    built = build_arrays(table, progress)
    if not len(built.record_b):
        raise _no_records(table)
    if built.skipped:
        get_logger(__name__).warning(
            "paraphrase table %s: skipped %d records with an empty phrase B", table, built.skipped
        )
    return serialize(built, content_key)


def _is_empty(table: Path) -> bool:
    """Whether the table file has no bytes at all (if unreadable, the build says why)."""
    with contextlib.suppress(OSError):
        return table.stat().st_size == 0
    return False


def _no_records(table: Path) -> ResourceError:
    """The error for a table without records: an empty file reads as an empty gzip stream, and
    matching nothing would silently turn the paraphrase module off."""
    return ResourceError(
        f"paraphrase table {table} has no paraphrase records (an empty file, or not a "
        "METEOR 1.5 paraphrase table); give the jar's paraphrase-<lang>.gz"
    )


# -- reading -----------------------------------------------------------------------------------


class ParaphraseTable:
    """A paraphrase table backed by its index (memory-mapped file or in-memory bytes).

    Token ids, trie nodes and record lists are exposed for the matcher
    (:class:`meteor_eval.match.paraphrase.ParaphraseMatcher`); :meth:`paraphrases` decodes a
    lookup for people. Opening checks the index (:mod:`meteor_eval.resources._paraphrase_format`)
    and raises an internal error on damage, which :func:`open_index` turns into a rebuild;
    ``verify`` chooses the checks, and ``trusted`` skips the body's checksum of a file known
    unchanged since it last passed (``verify="checksum"`` only).

    Attributes:
        spec: Resource identity (name ``paraphrase``, version ``1.5``, ``sha256`` = content key).
        path: The gzip table the index was built from.
        index_path: The index file, or ``None`` when the index lives in memory.
        records: Number of records in the table (after skipping empty-B records).
    """

    __slots__ = (
        "_buffer",
        "_first_child",
        "_mmap",
        "_nodes",
        "_parent",
        "_record_b",
        "_record_start",
        "_text",
        "_token",
        "_vocab",
        "_vocab_table",
        "_words",
        "index_path",
        "path",
        "records",
        "spec",
    )

    def __init__(
        self,
        buffer: bytes | mmap.mmap,
        *,
        key: bytes,
        path: Path,
        language: str,
        index_path: Path | None,
        verify: Verify = "checksum",
        trusted: bool = False,
    ) -> None:
        view = memoryview(buffer)
        self._buffer = view
        self._mmap = buffer if isinstance(buffer, mmap.mmap) else None
        try:
            self._load(view, key, verify, trusted=trusted)
        except BaseException:
            self._release()
            raise
        self.spec = ResourceSpec(
            name="paraphrase",
            language=language,
            version="1.5",
            sha256=key.hex(),
            licence="LGPL-2.1",
        )
        self.path = path
        self.index_path = index_path

    def _load(self, view: memoryview, key: bytes, verify: Verify, *, trusted: bool) -> None:
        body = verify == "full" or not trusted
        vocab_count, nodes, records, vocab_bytes = check_header(view, key, body=body)
        sections = layout(vocab_bytes, nodes, records)

        def u32(section: int) -> memoryview:
            offset, size = sections[section]
            return view[offset : offset + size].cast(U32)

        offset, size = sections[0]
        self._words: list[str] | None = None
        self._vocab: dict[str, int] | None = None
        self._vocab_table: object = None
        found = vocab_count
        # Released at once (an exception's frame must not keep the mapping exported).
        with view[offset : offset + size] as section:
            try:
                self._text = str(section, "utf-8", "surrogatepass")
            except UnicodeDecodeError:  # only from a writer that computed a valid checksum
                raise CorruptIndexError("vocabulary encoding") from None
            if vocab_count == 0:
                self._words = []
                self._vocab = {}
            elif _VOCAB_KERNEL is not None:
                # The word -> id table in C, over the section's bytes (a copy; no str or dict
                # entry a word: the words and the dict are made only if something asks).
                self._vocab_table, found = _VOCAB_KERNEL.paraphrase_vocab(section)
            else:
                found = len(self.words())
        if found != vocab_count:
            raise CorruptIndexError("vocabulary size")
        # The node table interleaves each node's first child and first record (format version 2);
        # the pure-Python readers see its two columns as strided views.
        self._nodes = u32(1)
        self._first_child = self._nodes[0::2]
        self._record_start = self._nodes[1::2]
        self._token = u32(2)
        self._parent = u32(3)
        self._record_b = u32(4)
        if (
            self._first_child[0] != 1
            or self._first_child[nodes] != nodes
            or self._record_start[0] != 0
            or self._record_start[nodes] != records
        ):
            raise CorruptIndexError("structure")
        if verify == "full":
            arrays = {
                "nodes": self._nodes,
                "token": self._token,
                "parent": self._parent,
                "record_b": self._record_b,
            }
            check_structure(arrays, vocab_count, self.words())
        self.records = records

    def _release(self) -> None:
        for name in (
            "_first_child",
            "_record_start",
            "_nodes",
            "_token",
            "_parent",
            "_record_b",
            "_buffer",
        ):
            view = getattr(self, name, None)
            if view is not None:
                view.release()

    def words(self) -> list[str]:
        """The vocabulary: the word of each token id, in id order (the section is decoded when
        the table opens, as its encoding check; the list is split on first use)."""
        words = self._words
        if words is None:
            words = self._words = self._text.split("\n")
        return words

    def _word_ids(self) -> dict[str, int]:
        """Word -> token id (built on first use; a repeated word has its last id)."""
        vocab = self._vocab
        if vocab is None:
            words = self.words()
            vocab = self._vocab = dict(zip(words, range(len(words)), strict=True))
        return vocab

    def token_id(self, token: str) -> int:
        """Id of a token in the table's vocabulary, ``-1`` if the table never uses it."""
        return self.token_ids((token,))[0]

    def token_ids(self, tokens: Sequence[str]) -> list[int]:
        """:meth:`token_id` of every token: by the compiled table when there is one, else
        :meth:`token_ids_python`."""
        table = self._vocab_table
        if table is not None and _VOCAB_KERNEL is not None:
            ids: list[int] = _VOCAB_KERNEL.paraphrase_vocab_ids(table, tokens)
            return ids
        return self.token_ids_python(tokens)

    def token_ids_python(self, tokens: Sequence[str]) -> list[int]:
        """:meth:`token_ids` by the dict of the decoded words (the twin of the compiled
        table)."""
        return list(map(self._word_ids().get, tokens, _MISSING_IDS))

    def walk(self, ids: Sequence[int], start: int) -> list[tuple[int, int]]:
        """Follow the trie along ``ids[start:]``.

        Returns:
            ``(depth, node)`` for every depth reached, shallow first; the walk stops at the first
            token with no continuation (or the end of ``ids``). Nodes are phrases of the table
            (as A or B, or prefixes of them).
        """
        first_child = self._first_child
        token = self._token
        node = 0
        out: list[tuple[int, int]] = []
        for depth, position in enumerate(range(start, len(ids)), start=1):
            word = ids[position]
            if word < 0:
                break
            lo = first_child[node]
            hi = first_child[node + 1]
            child = bisect.bisect_left(token, word, lo, hi)
            if child == hi or token[child] != word:
                break
            node = child
            out.append((depth, node))
        return out

    def index_arrays(self) -> tuple[memoryview, memoryview, memoryview]:
        """The index's node table (``first_child`` and ``record_start`` interleaved), ``token``
        and ``record_b`` arrays.

        Read-only views of native unsigned 32-bit integers (see
        :mod:`~meteor_eval.resources._paraphrase_format` for the layout), for the compiled
        candidate generator; valid while the table is open.
        """
        return self._nodes, self._token, self._record_b

    def paraphrases_of(self, node: int) -> memoryview:
        """Phrase-B nodes of the records whose phrase A is ``node``, in file order."""
        return self._record_b[self._record_start[node] : self._record_start[node + 1]]

    def record_count(self, node: int) -> int:
        """Number of records whose phrase A is ``node``."""
        return self._record_start[node + 1] - self._record_start[node]

    def phrase(self, node: int) -> tuple[str, ...]:
        """The tokens of the phrase that ends at ``node``.

        Raises:
            ResourceError: the parents do not lead back to the root (a damaged index that
                passed its checksum; in a sound one each parent precedes its child).
        """
        words: list[str] = []
        vocabulary = self.words()
        parent = self._parent
        token = self._token
        limit = len(token)
        try:
            while node:
                if len(words) >= limit:
                    raise IndexError("the parent links form a loop")
                words.append(vocabulary[token[node]])
                node = parent[node]
        except IndexError as exc:
            raise ResourceError(
                f"paraphrase index {self.index_path} is damaged ({exc}); delete it to rebuild it"
            ) from None
        return tuple(reversed(words))

    def paraphrases(self, phrase: Sequence[str]) -> list[tuple[str, ...]]:
        """Phrases B of the records whose phrase A is exactly ``phrase``, in file order.

        Example:
            For a table with the records ``(a b -> c)`` and ``(a b -> d e)``,
            ``table.paraphrases(["a", "b"])`` is ``[("c",), ("d", "e")]``.
        """
        if not phrase:
            return []
        steps = self.walk(self.token_ids(phrase), 0)
        if len(steps) != len(phrase):
            return []
        return [self.phrase(node) for node in self.paraphrases_of(steps[-1][1])]

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        # A memory map cannot be pickled; a worker process reopens the (cached) index instead.
        return (paraphrase_table, (self.spec.language, str(self.path)))

    def close(self) -> None:
        """Release the memory map (the table must not be used afterwards)."""
        self._release()
        if self._mmap is not None:
            self._mmap.close()


def check_index_file(path: Path) -> str | None:
    """Check a built index completely (header, sizes, CRC32 of the whole body, the structure
    of its trie and records) against the content key in its own header and in its file name.

    Returns:
        ``None`` if it is sound, else what is wrong.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        return f"unreadable ({exc})"
    if len(data) < HEADER.size:
        return "shorter than its header"
    key = HEADER.unpack_from(data, 0)[3]
    if path.name != index_path_for(key, path.parent).name:
        return "its name does not match the table key in its header"
    try:
        ParaphraseTable(data, key=key, path=path, language="?", index_path=path, verify="full")
    except (CorruptIndexError, ValueError, LookupError, TypeError) as problem:
        return str(problem)
    return None


def built_indexes(directory: Path | None = None) -> list[Path]:
    """The paraphrase index files of the current format in the cache folder."""
    folder = cache_dir() if directory is None else directory
    return sorted(folder.glob(f"paraphrase-*.v{FORMAT_VERSION}.idx"))


def _map_file(path: Path) -> tuple[mmap.mmap, os.stat_result] | None:
    """A read-only map of the file and its status (taken before the map, on the same handle)."""
    try:
        with path.open("rb") as handle:
            stat = os.fstat(handle.fileno())
            if stat.st_size == 0:
                return None
            return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ), stat
    except OSError:  # absent, or the cache folder is unusable: build (and maybe keep in memory)
        return None


class BuildProgress(Protocol):
    """Receives the progress of one index build (the command line draws a bar with it)."""

    def __call__(self, done: int, total: int) -> None:
        """Compressed bytes of the table read so far, out of ``total``."""

    def close(self) -> None:
        """The build is over (finished or failed)."""


# Makes a BuildProgress for (table, index path) when a build starts; None shows nothing.
_progress_factory: Callable[[Path, Path], BuildProgress] | None = None


def set_build_progress(factory: Callable[[Path, Path], BuildProgress] | None) -> None:
    """Show the progress of the index builds of this process (``None``: show nothing).

    ``factory(table, index_path)`` is called when a build starts; the library itself prints
    nothing (it logs the start of a build on the ``meteor_eval`` logger, at INFO level).
    """
    global _progress_factory
    _progress_factory = factory


#: Compressed table bytes indexed per second, measured for the English table on the
#: development machine (``benchmarks/bench_first_run.py``); only for the announced estimate.
_BUILD_BYTES_PER_SECOND: Final = 10e6


def build_estimate(table: Path) -> int:
    """Rough number of seconds the index build of ``table`` takes (at least 1)."""
    try:
        size = table.stat().st_size
    except OSError:
        return 1
    return max(1, round(size / _BUILD_BYTES_PER_SECOND))


def _open_existing(
    target: Path,
    table: Path,
    key: bytes,
    language: str,
    verify: Verify,
    *,
    report: bool,
) -> ParaphraseTable | None:
    """The index at ``target`` if it is present and sound (``report``: log why it is not)."""
    found = _map_file(target)
    if found is None:
        return None
    mapped, stat = found
    trusted = verify == "checksum" and verified_before(target, stat)
    try:
        opened = ParaphraseTable(
            mapped,
            key=key,
            path=table,
            language=language,
            index_path=target,
            verify=verify,
            trusted=trusted,
        )
    except (CorruptIndexError, ValueError, LookupError, TypeError, OSError) as problem:
        # ValueError and the rest: a damaged file that a check let through and the reading of
        # it then tripped over; rebuilt all the same.
        mapped.close()
        record_verified(target, None)
        if report:
            get_logger(__name__).warning(
                "paraphrase index %s is unusable (%s); rebuilding it", target, problem
            )
        return None
    if not trusted:
        record_verified(target, stat)
    if not opened.records:  # an index built before empty tables were refused
        opened.close()
        raise _no_records(table)
    return opened


def open_index(
    table: Path,
    language: str,
    *,
    directory: Path | None = None,
    verify: Verify = "checksum",
    progress: BuildProgress | None = None,
    lock_timeout: float = LOCK_TIMEOUT,
) -> ParaphraseTable:
    """Open a table through its cached index, building (or rebuilding) the index if needed.

    A build holds a lock file next to the index: a second process that needs the same index
    meanwhile waits for it and then opens the finished index instead of building it again.

    Args:
        table: The gzip paraphrase table.
        language: Language short name recorded in the spec.
        directory: Cache folder (default :func:`cache_dir`).
        verify: ``"sample"`` checks sampled blocks of the body, ``"full"`` the whole body.
        progress: Receives the build's progress (default: the one set with
            :func:`set_build_progress`, if any).
        lock_timeout: Seconds to wait for another process building the same index.

    Returns:
        The opened table.

    Raises:
        ResourceError: if the table cannot be read or is malformed, or the wait times out.
    """
    key = stamped_table_key(table, directory)
    target = index_path_for(key, directory)
    opened = _open_existing(target, table, key, language, verify, report=True)
    if opened is not None:
        return opened
    if _is_empty(table):  # refused before a build is announced: one line, the error
        raise _no_records(table)
    with build_lock(target, lock_timeout) as locked:
        # Another process may have built it while this one waited for the lock.
        opened = _open_existing(target, table, key, language, verify, report=False)
        if opened is not None:
            return opened
        if locked:  # no other build of this index is writing a temporary file now
            remove_stale_temporaries(target)
        header, body = _build_announced(table, key, target, progress)
        try:
            write_atomically(target, (header, body))
        except OSError as exc:
            get_logger(__name__).warning(
                "cannot write the paraphrase index to %s (%s); keeping it in memory for this run",
                target,
                exc,
            )
            return ParaphraseTable(
                header + body,
                key=key,
                path=table,
                language=language,
                index_path=None,
                verify=verify,
            )
    del header, body
    found = _map_file(target)
    if found is None:
        raise ResourceError(f"paraphrase index {target} vanished right after it was written")
    mapped = found[0]
    try:
        return ParaphraseTable(
            mapped, key=key, path=table, language=language, index_path=target, verify=verify
        )
    except CorruptIndexError as problem:
        mapped.close()
        raise ResourceError(f"paraphrase index {target} is unreadable ({problem})") from None


def _build_announced(
    table: Path, key: bytes, target: Path, progress: BuildProgress | None
) -> tuple[bytes, bytearray]:
    """:func:`build_index`, announced on the log and reported to ``progress`` (or the factory
    set with :func:`set_build_progress`)."""
    get_logger(__name__).info(
        "building the paraphrase index for %s (once, ~%d s) into %s",
        table.name,
        build_estimate(table),
        target,
    )
    if progress is None and _progress_factory is not None:
        progress = _progress_factory(table, target)
    try:
        return build_index(table, key, progress=progress)
    finally:
        if progress is not None:
            progress.close()


@functools.cache
def paraphrase_table(language: str, path: str | os.PathLike[str] | None = None) -> ParaphraseTable:
    """The paraphrase table of a language, opened once per process and shared.

    Args:
        language: METEOR 1.5 short language name (``"en"``).
        path: Explicit table; otherwise found by :func:`find_paraphrase_table`.

    Raises:
        ResourceError: if no table is found or it is malformed.
    """
    table = find_paraphrase_table(language, path)
    return open_index(table, language)
