"""Reading segment files strictly: one segment per line, nothing dropped, nothing re-paired.

Lines end with LF or CRLF. A lone CR inside a line is treated as a space and a UTF-8 byte-order
mark at the start of a file is dropped; both are reported with a warning naming the file and line,
because either would otherwise shift or change segments silently. Bytes that are not UTF-8 raise
:class:`~meteor_eval.errors.InputError` naming the file and line, unless ``errors="replace"``
asks for the jar's behaviour (each bad byte becomes U+FFFD).

This is the only module that knows about reference *streams* (one file per reference set); the
library itself takes references grouped per segment.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import sys
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Literal, TextIO

from meteor_eval._lazy import lazy_names
from meteor_eval.errors import InputError
from meteor_eval.types import PerSegment

if TYPE_CHECKING:
    from meteor_eval._file_chunk import FileChunk as FileChunk

__all__ = [
    "EncodingErrors",
    "FileChunk",
    "count_lines",
    "file_chunks",
    "head_chunks",
    "iter_lines",
    "iter_segments",
    "line_offsets",
    "output_file",
    "read_chunk",
    "read_lines",
    "read_range",
    "read_segments",
    "read_text",
    "streams_to_segments",
]

EncodingErrors = Literal["strict", "replace"]

#: ``FileChunk`` is imported from :mod:`meteor_eval._file_chunk` on first use (PEP 562): a run
#: in one process makes no chunk of files, and the dataclass compiles its methods when made.
__getattr__, __dir__ = lazy_names(__name__, globals(), {"FileChunk": "meteor_eval._file_chunk"})

_BOM = b"\xef\xbb\xbf"


def _display(name: str) -> str:
    return "<stdin>" if name == "-" else name


def read_text(path: str | Path) -> str:
    """The whole text of a UTF-8 file, for the readers of small side files (tuning data,
    caption files).

    Raises:
        InputError: the file does not exist, or is not valid UTF-8 (the file and the byte
            named).
    """
    file = Path(path)
    try:
        return file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{file}: no such file") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{file}: not valid UTF-8 ({exc.reason} at byte {exc.start})") from None


def read_lines(name: str, *, errors: EncodingErrors = "strict") -> list[str]:
    """All segments of a file (``"-"`` for standard input), one per line.

    Raises:
        InputError: the file is missing or unreadable, or a line is not valid UTF-8.
    """
    return list(iter_lines(name, errors=errors))


def streams_to_segments(streams: Sequence[Sequence[str]]) -> PerSegment:
    """Transpose reference streams (one list per reference set) into per-segment groups
    (declared per segment: :class:`~meteor_eval.types.PerSegment`)."""
    if not streams:
        return PerSegment()
    return PerSegment(list(group) for group in zip(*streams, strict=True))


def read_segments(
    hyp: str, refs: Sequence[str], *, errors: EncodingErrors = "strict"
) -> tuple[list[str], list[list[str]]]:
    """Hypotheses and per-segment references from one hypothesis file and reference files.

    Args:
        hyp: Hypothesis file, or ``"-"`` for standard input.
        refs: One file per reference set; line ``i`` of each is a reference of hypothesis ``i``.
        errors: ``"strict"`` rejects invalid UTF-8; ``"replace"`` substitutes U+FFFD.

    Raises:
        InputError: a file cannot be read, or the files' line counts differ (naming both).
    """
    pairs = list(iter_segments(hyp, refs, errors=errors))
    return [h for h, _ in pairs], [r for _, r in pairs]


# Bytes of lines read and decoded at a time.
_BLOCK_BYTES = 1 << 16
# Bytes read at a time when only line breaks are counted.
_SCAN_BYTES = 1 << 20


_GZIP_MAGIC = b"\x1f\x8b"


def _open_binary(name: str) -> IO[bytes]:
    """The file opened for reading bytes; a gzip file is named as such (its bytes would
    otherwise be reported as invalid UTF-8).

    Raises:
        InputError: missing, a directory, unreadable, or gzip-compressed.
    """
    label = _display(name)
    if name == "-":
        return sys.stdin.buffer
    try:
        handle = open(name, "rb")  # noqa: SIM115 - closed by the caller or on error below
    except FileNotFoundError:
        raise InputError(f"{label}: file not found") from None
    except IsADirectoryError:
        raise InputError(f"{label}: is a directory, expected a text file") from None
    except OSError as exc:
        raise InputError(f"{label}: cannot read ({exc.strerror})") from None
    try:
        compressed = handle.peek(2)[:2] == _GZIP_MAGIC
    except OSError:
        compressed = False
    if compressed:
        handle.close()
        raise InputError(f"{label}: gzip-compressed; decompress it first (gunzip)")
    return handle


def _iter_open(name: str, handle: IO[bytes], errors: EncodingErrors) -> Iterator[str]:
    """The lines of an open file, decoded a block of lines at a time.

    A newline byte is never part of a multi-byte UTF-8 sequence, so decoding a block and then
    splitting it at newlines gives the lines that decoding each line would (with
    ``errors="replace"`` too). Blocks with an invalid byte (in strict mode) or a carriage return
    go line by line, for the exact line number of the error or the warnings.
    """
    label = _display(name)
    try:
        number = 0  # lines read so far
        first = True
        while True:
            block = handle.readlines(_BLOCK_BYTES)
            if not block:
                return
            if first:
                first = False
                if block[0].startswith(_BOM):
                    warnings.warn(f"{label}:1: dropped a UTF-8 byte-order mark", stacklevel=3)
                    block[0] = block[0][len(_BOM) :]
                    if not block[0] and len(block) == 1:  # nothing but the mark
                        return
            try:
                text = b"".join(block).decode("utf-8", errors=errors)
            except UnicodeDecodeError:
                text = None
            if text is None or "\r" in text:
                yield from _slow_lines(label, block, number, errors)
            else:
                lines = text.split("\n")
                if text.endswith("\n"):
                    lines.pop()
                yield from lines
            number += len(block)
    finally:
        if handle is not sys.stdin.buffer:
            handle.close()


def _slow_lines(
    label: str, block: list[bytes], number: int, errors: EncodingErrors
) -> Iterator[str]:
    """Lines of ``block`` (whose first line is line ``number + 1``) one at a time, with the
    exact line of an invalid byte and the carriage-return rules."""
    for k, raw in enumerate(block, start=number):
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        try:
            line = raw.decode("utf-8", errors=errors)
        except UnicodeDecodeError as exc:
            raise InputError(
                f"{label}:{k + 1}: invalid UTF-8 (byte 0x{raw[exc.start]:02x}); fix the file "
                "or use --encoding-errors replace to turn bad bytes into U+FFFD as the METEOR "
                "jar does"
            ) from None
        if line.endswith("\r"):
            line = line[:-1]
        if "\r" in line:
            warnings.warn(
                f"{label}:{k + 1}: a carriage return inside the line is read as a space",
                stacklevel=4,
            )
            line = line.replace("\r", " ")
        yield line


def iter_lines(name: str, *, errors: EncodingErrors = "strict") -> Iterator[str]:
    """:func:`read_lines` one line at a time, so memory does not grow with the file.

    The file is opened at once (a missing file raises here, not at the first ``next``); the
    lines, warnings and errors are those of :func:`read_lines`.

    Raises:
        InputError: the file is missing or unreadable, or a line is not valid UTF-8.
    """
    return _iter_open(name, _open_binary(name), errors)


def count_lines(name: str) -> int | None:
    """Number of segments in a regular file (``None`` for standard input or a pipe).

    Counts line breaks in binary blocks without decoding, for progress reports.
    """
    if name == "-":
        return None
    path = Path(name)
    try:
        if not path.is_file():
            return None
        count = 0
        last = b""
        with path.open("rb") as handle:
            while block := handle.read(1 << 20):
                count += block.count(b"\n")
                last = block
    except OSError:
        return None
    if last and not last.endswith(b"\n"):
        count += 1
    return count


def line_offsets(
    name: str,
    every: int,
    most: int | None = None,
    resume: tuple[list[int], int] | None = None,
) -> tuple[list[int], int]:
    """Where lines ``0, every, 2 * every, ...`` start (byte offsets) and how many lines the
    file has (a last line without a line break counts), by one pass over its bytes.

    Cuts a file into ranges of ``every`` lines that :func:`read_range` reads independently (on
    other machines too), as :func:`iter_lines` would read them. With ``most``, the scan stops
    once ``most`` offsets after the first are found (the first ``most + 1`` offsets of the
    whole scan, and the count of the lines before the last of them); a shorter file is
    scanned whole. ``resume`` is such a stopped scan's answer (same ``every``): the scan goes
    on from its last offset instead of reading those bytes again, with the same answer as a
    scan from the start.

    Raises:
        InputError: the file is missing or unreadable.
    """
    if every < 1:
        raise ValueError(f"every: {every!r}; expected an integer >= 1")
    offsets = [0]
    count = 0
    position = 0
    last = b""
    with _open_binary(name) as handle:
        if resume is not None and len(resume[0]) > 1:
            # A stopped scan ends at a line start, after exactly count lines.
            offsets, count = list(resume[0]), resume[1]
            position = offsets[-1]
            handle.seek(position)
        while block := handle.read(_SCAN_BYTES):
            last = block
            newlines = block.count(b"\n")
            index = -1
            while newlines and count + newlines >= len(offsets) * every:
                # Find the line break that ends line number len(offsets) * every.
                need = len(offsets) * every - count
                width = (position + index + 1) / (count or 1) if position + index > 0 else 64.0
                index = _nth_newline(block, index + 1, need, width)
                offsets.append(position + index + 1)
                count += need
                newlines -= need
                if most is not None and len(offsets) > most:
                    return offsets, count
            count += newlines
            position += len(block)
    if last and not last.endswith(b"\n") and not _only_bom(name, count, position):
        count += 1  # a last line without a line break
    if offsets[-1] == position and len(offsets) > 1:
        offsets.pop()  # no line starts at the end of the file
    return offsets, count


#: Line breaks :func:`_nth_newline` steps over one at a time (below this, or once its estimate
#: is this close); further ones are counted in bulk (``bytes.count`` over a range).
_STEP_LINES = 8


def _nth_newline(block: bytes, start: int, n: int, width: float) -> int:
    """Index of the ``n``-th line break of ``block[start:]`` (``n >= 1``; there are at least
    ``n``), ``width`` being a guess of a line's length in bytes.

    One ``bytes.index`` call per line costs a Python-level call for each of the ``n`` lines (a
    chunk of 256 or 4,096); here the end of the ``n`` lines is guessed from ``width``, the
    line breaks up to the guess are counted in one call (C speed), the guess is corrected from
    the lines' measured width until it is within :data:`_STEP_LINES` lines, and the last
    few are stepped over one at a time, so the answer is exact whatever the guess.
    """
    index = start - 1
    if n <= _STEP_LINES:
        for _ in range(n):
            index = block.index(b"\n", index + 1)
        return index
    size = len(block)
    end = min(size, start + max(1, int(n * width)))
    found = block.count(b"\n", start, end)  # line breaks in block[start:end]
    for _ in range(8):  # a bounded number of corrections, then steps
        if abs(found - n) <= _STEP_LINES:
            break
        width = (end - start) / found if found else 2.0 * width + 1.0
        if found < n:
            step = min(size, end + max(1, int((n - found) * width)))
            found += block.count(b"\n", end, step)
        else:
            step = max(start, end - max(1, int((found - n) * width)))
            found -= block.count(b"\n", step, end)
        end = step
    if found >= n:  # the n-th is the (found - n + 1)-th last before end
        index = end
        for _ in range(found - n + 1):
            index = block.rindex(b"\n", start, index)
        return index
    index = end - 1
    for _ in range(n - found):
        index = block.index(b"\n", index + 1)
    return index


def _only_bom(name: str, count: int, position: int) -> bool:
    """True for a file holding nothing but a UTF-8 byte-order mark (no line at all)."""
    if count or position != len(_BOM):
        return False
    with _open_binary(name) as handle:
        return handle.read() == _BOM


def read_range(
    name: str, start: int, end: int, first_line: int, *, errors: EncodingErrors = "strict"
) -> list[str]:
    """The lines in bytes ``[start, end)`` of a file, whose first is line ``first_line + 1``,
    with the rules, warnings and errors of :func:`iter_lines` (a byte-order mark is dropped
    only at offset 0).

    Raises:
        InputError: the file is unreadable, or a line is not valid UTF-8 (file and line named).
    """
    label = _display(name)
    with _open_binary(name) as handle:
        handle.seek(start)
        data = handle.read(end - start)
    if start == 0 and data.startswith(_BOM):
        warnings.warn(f"{label}:1: dropped a UTF-8 byte-order mark", stacklevel=2)
        data = data[len(_BOM) :]
    if not data:
        return []
    parts = data.split(b"\n")
    if data.endswith(b"\n"):
        parts.pop()
    try:
        text = data.decode("utf-8", errors=errors)
    except UnicodeDecodeError:
        text = None
    if text is None or "\r" in text:
        block = [part + b"\n" for part in parts]
        return list(_slow_lines(label, block, first_line, errors))
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return lines


#: A stopped scan of each file (:func:`head_scans`): its offsets and the lines before the last.
HeadScans = list[tuple[list[int], int]]


def file_chunks(
    paths: Sequence[str], chunk_lines: int, resume: HeadScans | None = None
) -> list[FileChunk]:
    """Chunks of ``chunk_lines`` segments of a hypothesis file and its reference files, found
    by one pass over each file's bytes (nothing decoded), for processes that read their own;
    with ``resume`` (:func:`head_scans` of the same files and chunk size), each file's scan
    goes on where its head's stopped.

    Raises:
        InputError: a file is unreadable, or the files' line counts differ (both named).
    """
    from meteor_eval._file_chunk import FileChunk

    scans = [
        line_offsets(path, chunk_lines, resume=None if resume is None else resume[k])
        for k, path in enumerate(paths)
    ]
    counts = [count for _, count in scans]
    for path, count in zip(paths[1:], counts[1:], strict=True):
        if count != counts[0]:
            raise InputError(
                f"{_display(paths[0])} has {counts[0]} lines but {_display(path)} has {count}; "
                "every reference file needs one line per hypothesis"
            )
    sizes = [os.path.getsize(path) for path in paths]
    chunks: list[FileChunk] = []
    n_chunks = len(scans[0][0]) if counts[0] else 0
    for k in range(n_chunks):
        ranges = []
        for path, (offsets, _), size in zip(paths, scans, sizes, strict=True):
            end = offsets[k + 1] if k + 1 < len(offsets) else size
            ranges.append((path, offsets[k], end))
        first = k * chunk_lines
        chunks.append(FileChunk(first, tuple(ranges), min(chunk_lines, counts[0] - first)))
    return chunks


def head_chunks(paths: Sequence[str], chunk_lines: int, chunks: int) -> list[FileChunk]:
    """The first ``chunks`` chunks of :func:`file_chunks` (same arguments), found by scanning
    only their bytes, so that work can start before the rest of the files is scanned; an
    empty list when a file has fewer than ``chunks * chunk_lines`` lines ended by a line break
    (scan it whole then). The files' line counts are not checked: :func:`file_chunks` does
    that.

    Raises:
        InputError: a file is unreadable.
    """
    return head_scans(paths, chunk_lines, chunks)[0]


def head_scans(
    paths: Sequence[str], chunk_lines: int, chunks: int
) -> tuple[list[FileChunk], HeadScans | None]:
    """:func:`head_chunks`, and the stopped scans they came from, for :func:`file_chunks`
    to go on from (None with no chunks: the whole scan starts from the beginning)."""
    from meteor_eval._file_chunk import FileChunk

    stopped = [line_offsets(path, chunk_lines, most=chunks) for path in paths]
    scans = [offsets for offsets, _ in stopped]
    if any(len(offsets) <= chunks for offsets in scans):
        return [], None
    return [
        FileChunk(
            k * chunk_lines,
            tuple(
                (path, offsets[k], offsets[k + 1])
                for path, offsets in zip(paths, scans, strict=True)
            ),
            chunk_lines,
        )
        for k in range(chunks)
    ], stopped


def read_chunk(chunk: FileChunk, errors: EncodingErrors) -> list[tuple[str, Sequence[str]]]:
    """The ``(hypothesis, references)`` pairs of a chunk, with the rules, warnings and errors
    of :func:`iter_segments`.

    Raises:
        InputError: a file is unreadable, or a line is not valid UTF-8 (file and line named).
    """
    columns = [
        read_range(path, start, end, chunk.first_line, errors=errors)
        for path, start, end in chunk.ranges
    ]
    pairs: list[tuple[str, Sequence[str]]] = [
        (hyp, list(refs)) for hyp, *refs in zip(*columns, strict=True)
    ]
    return pairs


def iter_segments(
    hyp: str, refs: Sequence[str], *, errors: EncodingErrors = "strict"
) -> Iterator[tuple[str, list[str]]]:
    """:func:`read_segments` as a stream of ``(hypothesis, references)`` pairs.

    Every file is opened before the first pair is produced, so a missing file is reported at
    once. The files are then read in step; when one ends, the others are read to their end and
    the line counts are compared with :func:`read_segments`'s checks and message, so a mismatch
    is still an error (raised after the last pair instead of before the first). The arguments
    and errors are :func:`read_segments`'s.
    """
    if isinstance(refs, str):
        raise TypeError("refs: expected a sequence of file names, got a str")
    if not refs:
        raise InputError("at least one reference file is required")
    if sum(1 for name in [hyp, *refs] if name == "-") > 1:
        raise InputError("standard input ('-') can be used for one file only")
    names = [hyp, *refs]
    handles: list[IO[bytes]] = []
    try:
        for name in names:
            handles.append(_open_binary(name))
    except InputError:
        for handle in handles:
            if handle is not sys.stdin.buffer:
                handle.close()
        raise
    streams = [_iter_open(n, h, errors) for n, h in zip(names, handles, strict=True)]
    return _pairs(names, streams, handles)


_END = object()  # marks the end of a stream in _pairs()


def _pairs(
    names: list[str], streams: list[Iterator[str]], handles: list[IO[bytes]]
) -> Iterator[tuple[str, list[str]]]:
    # zip() reads the files in step (one line of each per pair, in file order, as a loop
    # would) without a Python call per line; each stream ends with _END, so the first file to
    # end is seen in the tuple where it ends.
    ended = [itertools.chain(stream, (_END,)) for stream in streams]
    n = 0  # pairs yielded so far
    try:
        for lines in zip(*ended, strict=False):
            if _END not in lines:
                n += 1
                yield lines[0], list(lines[1:])
                continue
            # A file ended: read the others to their ends and compare the counts.
            counts = [
                n if line is _END else n + 1 + sum(1 for x in rest if x is not _END)
                for line, rest in zip(lines, ended, strict=True)
            ]
            hyp = names[0]
            for name, count in zip(names[1:], counts[1:], strict=True):
                if count != counts[0]:
                    raise InputError(
                        f"{_display(hyp)} has {counts[0]} lines but {_display(name)} has "
                        f"{count}; every reference file needs one line per hypothesis"
                    )
            return
    finally:
        for stream in streams:
            close = getattr(stream, "close", None)
            if close is not None:
                close()
        # A stream never started does not run its own clean-up when closed: an error in an
        # earlier file would leave the later ones open (a ResourceWarning for the user).
        for handle in handles:
            if handle is not sys.stdin.buffer:
                handle.close()


@contextlib.contextmanager
def output_file(path: str) -> Iterator[TextIO]:
    """``path`` opened for writing (UTF-8); a write error names the file and removes what was
    written.

    Errors while writing (a full disk, an I/O error) carry no file name of their own; this adds
    it (the command line prints it), and no half-written file is left behind. Devices (such as
    ``/dev/full``) and pipes are never removed.
    """
    try:
        with open(path, "w", encoding="utf-8") as out:
            yield out
    except OSError as exc:
        if not exc.filename:
            if os.path.isfile(path):
                with contextlib.suppress(OSError):
                    os.unlink(path)
            raise OSError(exc.errno, exc.strerror or str(exc), path) from None
        raise
