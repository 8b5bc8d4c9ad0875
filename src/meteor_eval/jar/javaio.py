"""File reading and writing as the METEOR 1.5 jar's resource tools do it (``Parex``,
``FilterParaphrase``).

* Text files are read through ``BufferedReader.readLine`` over a UTF-8 decoder (the JVM's
  default charset in a UTF-8 locale): ``\\n``, ``\\r`` and ``\\r\\n`` end a line, malformed UTF-8
  becomes U+FFFD, a final line break does not start an empty line. Files are streamed, so
  a corpus larger than memory is read line by line.
* Gzip files are written as ``java.util.zip.GZIPOutputStream`` writes them in Java 17: a
  10-byte header with no name, a zero time stamp, no extra flags and OS byte 255, a raw
  deflate stream at zlib's default level (6, window 15, memory level 8), then the CRC32 and the
  length. With the same zlib the bytes equal the jar's (checked on the golden files of
  ``tests/data/parex``); the tests compare the decompressed text too, so a different zlib
  version cannot hide a difference in content.
* Outputs are written through :func:`replaced_on_success`: to a temporary file beside the
  output, renamed to it at the end, so a tool that fails midway (a damaged input, a full disk)
  leaves no partly written file where the jar would.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import gzip
import os
import re
import secrets
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, Final

__all__ = [
    "JavaGzipWriter",
    "iter_binary_lines",
    "iter_file_lines",
    "iter_gzip_lines",
    "replaced_on_success",
]

_BREAK: Final = re.compile("\r\n|\r|\n")
_CHUNK: Final = 1 << 16
#: Java 17's gzip header: magic, deflate, no flags, time 0, no extra flags, OS 255 (unknown).
_GZIP_HEADER: Final = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"


def iter_binary_lines(stream: BinaryIO) -> Iterator[str]:
    """The lines ``readLine`` returns from a UTF-8 byte stream, one at a time.

    Example:
        >>> import io
        >>> list(iter_binary_lines(io.BytesIO(b"a\\rb\\r\\nc\\xff\\n\\nd")))
        ['a', 'b', 'c\\ufffd', '', 'd']
    """
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    pending = ""
    skip_lf = False  # the last chunk ended with CR: a LF starting the next one is its pair
    while True:
        chunk = stream.read(_CHUNK)
        final = not chunk
        text = decoder.decode(chunk, final=final)
        if text:
            if skip_lf and text.startswith("\n"):
                text = text[1:]
            skip_lf = text.endswith("\r")
        parts = _BREAK.split(pending + text)
        pending = parts.pop()  # an unfinished line continues in the next chunk
        yield from parts
        if final:
            if pending:
                yield pending
            return


def iter_file_lines(path: str | Path) -> Iterator[str]:
    """The lines of a UTF-8 text file (``FileReader`` + ``readLine``).

    Raises:
        OSError: the file cannot be opened or read.
    """
    with open(path, "rb") as handle:
        yield from iter_binary_lines(handle)


def iter_gzip_lines(path: str | Path) -> Iterator[str]:
    """The lines of a gzip UTF-8 text file (``GZIPInputStream`` + ``readLine``).

    Raises:
        OSError: the file cannot be opened or read, or is not gzip (``gzip.BadGzipFile``).
        EOFError: the gzip stream is truncated.
    """
    with gzip.open(path, "rb") as handle:
        yield from iter_binary_lines(handle)  # type: ignore[arg-type]


class JavaGzipWriter:
    """``PrintWriter(GZIPOutputStream(FileOutputStream(path)))``: ``println`` ends lines with
    ``\\n``; :meth:`close` writes the trailer. The file is created when the writer is made.

    Raises:
        OSError: the file cannot be created or written.
    """

    def __init__(self, path: str | Path) -> None:
        self._handle = open(path, "wb")  # noqa: SIM115 - closed by close()
        self._handle.write(_GZIP_HEADER)
        self._deflate = zlib.compressobj(6, zlib.DEFLATED, -15, 8, zlib.Z_DEFAULT_STRATEGY)
        self._crc = 0
        self._size = 0
        self._buffer: list[bytes] = []
        self._buffered = 0

    def println(self, line: str) -> None:
        """Write ``line`` and a line feed."""
        data = (line + "\n").encode(
            "utf-8", errors="replace"
        )  # Java writes "?" for a lone surrogate
        self._buffer.append(data)
        self._buffered += len(data)
        if self._buffered >= _CHUNK:
            self._flush()

    def _flush(self) -> None:
        data = b"".join(self._buffer)
        self._buffer.clear()
        self._buffered = 0
        self._crc = zlib.crc32(data, self._crc)
        self._size += len(data)
        self._handle.write(self._deflate.compress(data))

    def close(self) -> None:
        """Finish the deflate stream, write the trailer and close the file."""
        self._flush()
        self._handle.write(self._deflate.flush(zlib.Z_FINISH))
        self._handle.write(struct.pack("<II", self._crc, self._size & 0xFFFFFFFF))
        self._handle.close()

    def __enter__(self) -> JavaGzipWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _temporary_beside(path: Path) -> Path:
    """Create an empty, new temporary file in ``path``'s folder (with the permissions ``open``
    gives a new file, unlike ``mkstemp``'s 0600) and return its path."""
    while True:
        temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        os.close(handle)
        return temporary


@contextlib.contextmanager
def replaced_on_success(path: Path) -> Iterator[Path]:
    """A temporary path beside ``path`` to write the output to: renamed to ``path`` when the
    block ends without an error, removed when it raises. A failed run so leaves no partly
    written output, and a file already at ``path`` is replaced only by a complete one.

    Errors name ``path``, not the temporary file, so messages show the output asked for; an
    output path that is a folder is refused before the block runs, as opening it would be.

    Raises:
        OSError: the temporary file cannot be created or renamed (or the block's own error).
    """
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    try:
        temporary = _temporary_beside(path)
    except OSError as exc:
        exc.filename = str(path)
        raise
    try:
        yield temporary
        os.replace(temporary, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        if isinstance(exc, OSError) and str(exc.filename) == str(temporary):
            exc.filename, exc.filename2 = str(path), None
        raise
