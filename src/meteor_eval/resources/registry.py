"""Where shipped data lives, how it is identified, and how it is loaded once.

Every linguistic resource is described by a :class:`ResourceSpec` (name, language, version,
checksum, licence); the spec's short id goes into score signatures so that a number can be traced
to the exact data that produced it. Loaders are wrapped with :func:`cached_loader`, which loads on
first use and then shares the same read-only object with every scorer in the process.
"""

from __future__ import annotations

import contextlib
import functools
import lzma
import mmap
import os
import struct
import time
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal, ParamSpec, Protocol, TypeVar, overload

from meteor_eval._lazy import lazy_names
from meteor_eval._log import get_logger
from meteor_eval.errors import ResourceError

if TYPE_CHECKING:
    from meteor_eval.resources._spec import ResourceSpec

__all__ = [
    "ResourceSpec",
    "cached_loader",
    "check_unpacked_copy",
    "data_file",
    "file_sha256",
    "record_verified",
    "remove_stale_temporaries",
    "sha256",
    "verified_before",
    "write_atomically",
]

P = ParamSpec("P")
R = TypeVar("R")


#: ``ResourceSpec`` is imported from :mod:`meteor_eval.resources._spec` on first use (PEP 562): the
#: dataclass machinery is loaded only by runs that describe a resource.
__getattr__, __dir__ = lazy_names(
    __name__, globals(), {"ResourceSpec": "meteor_eval.resources._spec"}
)


_DATA_ROOT = Path(__file__).resolve().parent / "data"


def data_file(*parts: str) -> Path:
    """Path of a file shipped in ``meteor_eval/resources/data``.

    Raises:
        ResourceError: if the file is not part of the installed package.
    """
    # The package is installed as files (the data is memory-mapped and read by path), so the
    # directory next to this module is the data root; importlib.resources would add ~5 ms of
    # imports to every start-up for the same answer.
    path = _DATA_ROOT.joinpath(*parts)
    if not path.is_file():
        raise ResourceError(
            f"shipped data file {'/'.join(parts)!r} is missing from the installed package "
            f"(looked in {path.parent}); reinstall meteor-eval"
        )
    return path


class Digest(Protocol):
    """A running SHA-256 (what :func:`sha256` returns)."""

    def update(self, data: bytes, /) -> None: ...
    def digest(self) -> bytes: ...
    def hexdigest(self) -> str: ...


def sha256(data: bytes = b"") -> Digest:
    """A SHA-256 of ``data`` (more with ``update``) from Python's own implementation where it
    has one, else :mod:`hashlib`'s.

    Why: importing :mod:`hashlib` loads OpenSSL's libcrypto, about 3.8 MB resident in every
    process that scores anything, for the few hashes of resource identities (tens of kilobytes;
    the largest is the paraphrase table's key, 2 MiB, about 14 ms slower than OpenSSL's). The
    digests are the same.
    """
    builtin = _builtin_sha256()
    if builtin is None:  # pragma: no cover - an interpreter built without it
        import hashlib

        return hashlib.sha256(data)
    found: Digest = builtin(data)
    return found


@functools.cache
def _builtin_sha256() -> Callable[[bytes], Digest] | None:
    """CPython's own SHA-256 constructor: ``_sha2.sha256`` from Python 3.12 on, ``_sha256.sha256``
    in 3.11; ``None`` where the interpreter has neither (then :func:`sha256` uses hashlib)."""
    for module_name in ("_sha2", "_sha256"):
        try:
            module = __import__(module_name)
        except ImportError:
            continue
        constructor: Callable[[bytes], Digest] = module.sha256
        return constructor
    return None


def file_sha256(path: Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    digest = sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def cached_loader(func: Callable[P, R]) -> Callable[P, R]:
    """Load a resource on first call and share the result afterwards (per argument tuple)."""
    return functools.cache(func)  # type: ignore[return-value]


def cache_dir() -> Path:
    """Folder for files derived from resources (paraphrase indexes, unpacked data):
    ``$METEOR_EVAL_CACHE``, ``$XDG_CACHE_HOME/meteor-eval`` or ``~/.cache/meteor-eval``."""
    explicit = os.environ.get("METEOR_EVAL_CACHE")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "meteor-eval"


#: A temporary file with no writer is removed only once it is this old (seconds), where the
#: writer cannot be detected through a file lock (no ``fcntl``).
_STALE_AFTER = 3600.0


def _lock_exclusive(fd: int, *, wait: bool) -> bool:
    """Take an exclusive ``flock`` on ``fd``: True if held, False if another holds it; True
    without a lock where ``fcntl`` is missing."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    return True


def remove_stale_temporaries(target: Path) -> list[Path]:
    """Delete the temporary files that interrupted writes of ``target`` left behind.

    :func:`write_atomically` holds an exclusive ``flock`` on its temporary file until it is
    renamed, so a temporary that can be locked has no writer left (its process was killed
    mid-write: a 73 MB paraphrase index, for instance). Where ``fcntl`` is missing, only
    temporaries untouched for an hour are removed. Errors are ignored (another process may be
    cleaning too). Returns the files removed.
    """
    removed: list[Path] = []
    try:
        candidates = list(target.parent.glob(f".{target.name}.*.tmp"))
    except OSError:
        return removed
    for temp in candidates:
        try:
            fd = os.open(temp, os.O_RDONLY)
        except OSError:
            continue
        try:
            has_fcntl = _has_fcntl()
            free = _lock_exclusive(fd, wait=False)
            old = time.time() - os.fstat(fd).st_mtime > _STALE_AFTER
            if free and (has_fcntl or old):
                temp.unlink(missing_ok=True)
                removed.append(temp)
        except OSError:
            pass
        finally:
            os.close(fd)
    return removed


def _has_fcntl() -> bool:
    try:
        import fcntl  # noqa: F401
    except ImportError:  # pragma: no cover - Windows
        return False
    return True


def write_atomically(target: Path, chunks: Sequence[bytes | bytearray]) -> None:
    """Write ``chunks`` to ``target`` via a synced temporary file in the same folder, so that
    an interrupted write never leaves a partial file in place.

    The temporary file is locked while it is written; temporaries of ``target`` that no
    process holds any more (a writer killed mid-write) are removed first
    (:func:`remove_stale_temporaries`).
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    import tempfile  # only when a file is written

    remove_stale_temporaries(target)
    handle = tempfile.NamedTemporaryFile(  # noqa: SIM115 - closed explicitly before the rename
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp", delete=False
    )
    temp = Path(handle.name)
    try:
        locks = _has_fcntl()
        with handle:
            _lock_exclusive(handle.fileno(), wait=True)
            for chunk in chunks:
                handle.write(chunk)
            handle.flush()
            os.fsync(handle.fileno())
            if locks:  # renamed while still locked, so that no cleaner can take it
                os.replace(temp, target)
        if not locks:  # pragma: no cover - Windows cannot rename an open file
            os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    try:  # make the rename itself durable; not possible everywhere (e.g. Windows)
        folder = os.open(target.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(folder)
    except OSError:
        pass
    finally:
        os.close(folder)


# -- verification stamps --------------------------------------------------------------------------

#: A file is stamped as verified only once its last change is this old (nanoseconds), so that a
#: later change cannot share its timestamps even on file systems with coarse clocks.
_SETTLED_NS: Final = 2_000_000_000


def _stamp_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.verified")


def file_identity(stat: os.stat_result) -> str:
    """What changes whenever the file's bytes are changed through the file system (device,
    inode, size, modification and status-change times), as one line of text."""
    return _identity(stat)


def settled(stat: os.stat_result) -> bool:
    """Whether the file's last change is old enough (two seconds) for a stamp of its identity
    to be trusted later (see :func:`record_verified`)."""
    return time.time_ns() - max(stat.st_mtime_ns, stat.st_ctime_ns) >= _SETTLED_NS


def _identity(stat: os.stat_result) -> str:
    """What changes whenever the file's bytes are changed through the file system."""
    return f"{stat.st_dev} {stat.st_ino} {stat.st_size} {stat.st_mtime_ns} {stat.st_ctime_ns}\n"


def verified_before(path: Path, stat: os.stat_result) -> bool:
    """Whether the cached file with this ``stat`` passed its full check before and is unchanged
    since (same device, inode, size, modification and status-change times), by its stamp
    ``.<name>.verified`` (see :func:`record_verified`)."""
    try:  # bytes, not a text stream: that would import the ascii codec's module
        return _stamp_path(path).read_bytes().decode("ascii") == _identity(stat)
    except (OSError, ValueError):
        return False


def record_verified(path: Path, stat: os.stat_result | None) -> None:
    """Stamp the cached file with this ``stat`` as checked in full (``None``: remove the stamp).

    Checking a whole file on every use costs a new process a read of every page (a 75 MB
    paraphrase index: 25 to 60 ms); with the stamp, later uses skip the check while nothing has
    changed the file through the file system. The stamp is written only once the file's last
    change is two seconds old, so that a change soon after cannot share its timestamps on a
    coarse clock. Best effort: an unwritable cache only means a check at the next use, and a
    torn stamp never matches.
    """
    stamp = _stamp_path(path)
    with contextlib.suppress(OSError):
        if stat is None:
            stamp.unlink(missing_ok=True)
        elif time.time_ns() - max(stat.st_mtime_ns, stat.st_ctime_ns) >= _SETTLED_NS:
            stamp.write_bytes(_identity(stat).encode("ascii"))


@overload
def unpacked_file(source: Path, *, refresh: bool = ..., mapped: Literal[False] = ...) -> bytes: ...


@overload
def unpacked_file(source: Path, *, refresh: bool = ..., mapped: bool) -> bytes | mmap.mmap: ...


def unpacked_file(
    source: Path, *, refresh: bool = False, mapped: bool = False
) -> bytes | mmap.mmap:
    """The decompressed content of a compressed shipped data file (``.xz`` or ``.gz``).

    The package ships its larger binary tables compressed (xz: the WordNet views); decompressing
    one costs tens of milliseconds at every start-up, so the result is kept in
    :func:`cache_dir` (``data/`` inside it), keyed by the shipped file's name, size and
    modification time, and read from there afterwards. With ``mapped`` the copy is
    memory-mapped read-only. A read of the copy checks its length and CRC32 against those the
    shipped file records for its content (:func:`content_crc32`: the gzip trailer, or an xz
    file's index and block check), unless a stamp shows the copy unchanged since it last passed
    (:func:`record_verified`; the check reads every page of an 8 MB copy, about 3 ms in a new
    process): a copy that differs in any byte is unpacked again, with a warning on the
    ``meteor_eval`` logger. Callers still validate the
    content as they would the shipped file, and call again with ``refresh=True`` on a mismatch.
    Copies of other versions of the same file are removed. When the cache cannot be written,
    the file is decompressed every time.

    Raises:
        OSError, EOFError, zlib.error, lzma.LZMAError: the shipped file cannot be read or
            decompressed.
    """
    expected = content_crc32(source)
    target = _copy_path(source, expected)
    name = _unpacked_name(source)
    if not refresh and expected is not None:
        problem = _read_copy(target, expected, mapped=mapped)
        if not isinstance(problem, str):
            return problem
        if problem:
            get_logger(__name__).warning(
                "unpacked copy %s is damaged (%s); unpacking it again", target, problem
            )
    packed = source.read_bytes()
    if source.suffix == ".xz":
        raw = lzma.decompress(packed)
    else:
        import gzip  # only here: the files shipped packed are xz

        raw = gzip.decompress(packed)
    if (zlib.crc32(raw), len(raw) & 0xFFFFFFFF) != expected:
        return raw  # several members or blocks: no record describes the whole; not kept
    with contextlib.suppress(OSError):
        write_atomically(target, (raw,))
        # Keep the newest copies of this file only (several installations may share the
        # cache, so not just the one written now).
        copies = sorted(
            target.parent.glob(f"{name}.*-*"), key=lambda p: p.stat().st_mtime_ns, reverse=True
        )
        for stale in copies[_UNPACKED_COPIES:]:
            stale.unlink(missing_ok=True)
            record_verified(stale, None)
    return raw


def _copy_path(source: Path, record: tuple[int, int] | None) -> Path:
    """Where the unpacked copy of the shipped ``source`` is kept: keyed by the length and CRC32
    of its content (``record``, :func:`content_crc32`), so that installations of the same data
    sharing one cache folder (several environments, a CI checkout beside a development tree)
    share one copy instead of evicting each other's; by the shipped file's size and
    modification time when it records no CRC32 (such a copy is never kept)."""
    name = _unpacked_name(source)
    if record is None:
        stat = source.stat()
        return cache_dir() / "data" / f"{name}.{stat.st_size}-{stat.st_mtime_ns}"
    crc, length = record
    return cache_dir() / "data" / f"{name}.{length}-{crc:08x}"


def check_unpacked_copy(source: Path) -> tuple[Path, str | None] | None:
    """The unpacked copy of the shipped ``source`` in the cache and what is wrong with it
    (``None`` if it matches the shipped file's CRC32 and length), or ``None`` when there is no
    copy; nothing is changed (for ``meteor-eval resources verify``)."""
    try:
        expected = content_crc32(source)
    except OSError:
        return None  # no shipped file to name a copy by (the resource checks report it)
    target = _copy_path(source, expected)
    if not target.is_file():
        return None
    if expected is None:
        return target, "the shipped file records no CRC32 of its content (not gzip or xz)"
    found = _read_copy(target, expected, mapped=False, trust=False)
    if isinstance(found, str):
        return target, found or "unreadable"
    return target, None


def _unpacked_name(source: Path) -> str:
    """The shipped file's name without its compression suffix."""
    return source.name.removesuffix(".gz").removesuffix(".xz")


def content_crc32(source: Path) -> tuple[int, int] | None:
    """(CRC32, length modulo 2**32) of a compressed file's content, read from the file without
    decompressing it: a gzip trailer (:func:`_gzip_trailer`), or an xz file of one block with
    CRC32 checks (:func:`_xz_record`); ``None`` for a file that records no such pair
    (decompressing it then says what is wrong, and its copy is not kept).

    Raises:
        OSError: the file cannot be read.
    """
    return _xz_record(source) if source.suffix == ".xz" else _gzip_trailer(source)


def _xz_varint(data: bytes, at: int) -> tuple[int, int]:
    """An xz multibyte integer at ``at`` (7 bits a byte, low first) and the offset after it.

    Raises:
        IndexError: the data ends inside it.
    """
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80 or shift > 63:
            return value, at


def _xz_record(source: Path) -> tuple[int, int] | None:
    """(CRC32, length modulo 2**32) of the content of an xz file made of one stream with one
    block and CRC32 integrity checks (how the WordNet views are written: ``lzma.compress(...,
    check=lzma.CHECK_CRC32)``): the length from the stream's index, the CRC32 from the block's
    check field, the last 4 bytes before the index (the xz file format 1.0.4, sections 2.1.2,
    3.4 and 4). ``None`` for any other layout, or when the index's own CRC32 is wrong.

    Raises:
        OSError: the file cannot be read.
    """
    with source.open("rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if size < 32:  # stream header and footer (12 bytes each) and a block and index at least
            return None
        handle.seek(size - 12)
        footer = handle.read(12)
        # footer: CRC32, backward size, stream flags (0x00, check type), magic "YZ"
        if footer[10:] != b"YZ" or footer[8:10] != b"\x00\x01":
            return None
        index_size = (int.from_bytes(footer[4:8], "little") + 1) * 4
        index_start = size - 12 - index_size
        if index_start < 12:
            return None
        handle.seek(index_start)
        index = handle.read(index_size)
        if index[0] != 0 or zlib.crc32(index[:-4]) != int.from_bytes(index[-4:], "little"):
            return None
        try:
            records, at = _xz_varint(index, 1)
            unpadded, at = _xz_varint(index, at)
            length, at = _xz_varint(index, at)
        except IndexError:
            return None
        # the one block runs from the stream header to the index, padded to 4 bytes
        if records != 1 or 12 + unpadded + (-unpadded % 4) != index_start:
            return None
        handle.seek(index_start - 4)
        crc = int.from_bytes(handle.read(4), "little")
    return crc, length & 0xFFFFFFFF


def _gzip_trailer(source: Path) -> tuple[int, int] | None:
    """(CRC32, length modulo 2**32) of the uncompressed data, from a gzip file's last 8 bytes
    (``None`` if it is too short to be a gzip file: decompressing it says why).

    Raises:
        OSError: the file cannot be read.
    """
    with source.open("rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if size < 18:  # a gzip header (10 bytes) and trailer (8 bytes) at least
            return None
        handle.seek(size - 8)
        crc, length = struct.unpack("<II", handle.read(8))
    return crc, length


def _read_copy(
    target: Path, expected: tuple[int, int], *, mapped: bool, trust: bool = True
) -> bytes | mmap.mmap | str:
    """The unpacked copy if its length and CRC32 are ``expected``; else why not (``""``: there
    is no copy, or it cannot be read). The CRC32 is skipped for a copy stamped unchanged since
    it last passed (:func:`verified_before`), unless ``trust`` is false."""
    data: bytes | mmap.mmap
    try:
        with target.open("rb") as handle:
            stat = os.fstat(handle.fileno())
            if not stat.st_size:
                data = b""
            elif mapped:
                data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
            else:
                data = handle.read()
    except OSError:
        return ""
    crc, length = expected
    if len(data) & 0xFFFFFFFF != length:
        problem = f"{len(data)} bytes, expected {length}"
    elif trust and verified_before(target, stat):
        return data
    elif zlib.crc32(data) != crc:
        problem = "checksum"
    else:
        record_verified(target, stat)
        return data
    if isinstance(data, mmap.mmap):
        data.close()
    record_verified(target, None)
    return problem


# Unpacked copies of one shipped file kept in the cache (the most recently written ones).
_UNPACKED_COPIES = 3
