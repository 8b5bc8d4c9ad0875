"""Line reading as the METEOR 1.5 jar does it (spec J5).

The jar reads every input through ``BufferedReader.readLine`` over a UTF-8 decoder:

* ``\\n``, ``\\r`` and ``\\r\\n`` each end a line (a lone CR *is* a line break, unlike
  :meth:`str.splitlines`, which also breaks on ``\\x0b``, ``\\x1c``-``\\x1e``, ``\\x85``,
  U+2028...);
* a UTF-8 byte order mark is kept as U+FEFF at the start of the first line;
* malformed UTF-8 becomes U+FFFD;
* a final line terminator does not start an empty last line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, Final, TextIO

from meteor_eval.errors import InputError

__all__ = ["iter_stream_lines", "iter_text_stream_lines", "read_jar_lines", "split_jar_lines"]

_BREAK: Final = re.compile("\r\n|\r|\n")


def split_jar_lines(text: str) -> list[str]:
    """Split decoded text into the lines ``readLine`` would return.

    Example:
        >>> split_jar_lines("a\\rb\\r\\nc\\n")
        ['a', 'b', 'c']
    """
    if not text:
        return []
    lines = _BREAK.split(text)
    if lines[-1] == "":
        lines.pop()
    return lines


def read_jar_lines(path: str | Path) -> list[str]:
    """Every line of a UTF-8 file, read as the jar reads it.

    Raises:
        InputError: the file cannot be read.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"{path} ({exc.strerror or exc})") from None
    return split_jar_lines(data.decode("utf-8", errors="replace"))


def iter_stream_lines(stream: BinaryIO) -> Iterator[str]:
    """Lines of a binary stream as they arrive (for the stdio protocol).

    Reads one ``\\n``-terminated chunk at a time so that an interactive client gets each answer
    before it sends the next command; a lone CR inside a chunk still splits it (spec J5).
    """
    pending_cr = False
    while True:
        chunk = stream.readline()
        if not chunk:
            return
        text = chunk.decode("utf-8", errors="replace")
        if pending_cr and text.startswith("\n"):
            text = text[1:]
        pending_cr = text.endswith("\r")
        yield from split_jar_lines(text)


def iter_text_stream_lines(source: TextIO) -> Iterator[str]:
    """Standard input's lines as the jar reads them: from its binary buffer one at a time when
    it has one (a real stream), else from its whole text (an in-memory stream)."""
    buffer = getattr(source, "buffer", None)
    if buffer is not None:
        yield from iter_stream_lines(buffer)
    else:
        yield from split_jar_lines(source.read())
