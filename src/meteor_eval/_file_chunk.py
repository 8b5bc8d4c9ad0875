"""A chunk of segment files by byte ranges, :class:`FileChunk`, for processes that read their
own lines.

It is a dataclass, and making its class compiles the methods :mod:`dataclasses` generates
(about 3.4 M instructions), so it lives apart from :mod:`meteor_eval.io`, which gives it as
``io.FileChunk`` on first use (PEP 562): a run in one process (``--jobs 1``) cuts no file into
chunks and does not make the class.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FileChunk"]


@dataclass(frozen=True)
class FileChunk:
    """Lines ``first_line + 1 ..`` of a hypothesis file and its reference files, by bytes.

    Attributes:
        first_line: Lines before this chunk (its first line is ``first_line + 1``).
        ranges: Per file (hypothesis first), ``(path, start, end)`` byte offsets.
        lines: The number of lines (segments) in the chunk.
    """

    first_line: int
    ranges: tuple[tuple[str, int, int], ...]
    lines: int = 0
