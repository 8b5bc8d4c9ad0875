"""Byte ranges of segment files (meteor_eval.io.line_offsets / read_range): reading a file as
ranges gives exactly the lines, warnings and errors of reading it whole."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval import io as mio
from meteor_eval.errors import InputError

_line = st.text(alphabet=st.sampled_from(list("ab é\r\u00e9")), max_size=6)


@settings(max_examples=200, deadline=None)
@given(
    lines=st.lists(_line, max_size=30),
    final_break=st.booleans(),
    bom=st.booleans(),
    every=st.integers(1, 7),
    scan=st.integers(1, 9),
)
def test_ranges_read_as_the_whole_file(
    tmp_path_factory: pytest.TempPathFactory,
    lines: list[str],
    final_break: bool,
    bom: bool,
    every: int,
    scan: int,
) -> None:
    text = "\n".join(lines) + ("\n" if final_break and lines else "")
    path = tmp_path_factory.mktemp("ranges") / "f.txt"
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    old = mio._SCAN_BYTES
    mio._SCAN_BYTES = scan  # several blocks, boundaries anywhere
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = mio.read_lines(str(path))
            offsets, count = mio.line_offsets(str(path), every)
            got: list[str] = []
            size = path.stat().st_size
            for k, start in enumerate(offsets):
                end = offsets[k + 1] if k + 1 < len(offsets) else size
                got += mio.read_range(str(path), start, end, k * every)
    finally:
        mio._SCAN_BYTES = old
    assert count == len(want)
    assert got == want
    assert len(offsets) == (count + every - 1) // every or (count == 0 and offsets == [0])


def test_errors_and_warnings_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_bytes(b"one\ntwo\nth\xffree\nfour\rx\n")
    offsets, count = mio.line_offsets(str(path), 2)
    assert (offsets, count) == ([0, 8], 4)
    with pytest.raises(InputError, match=r"f.txt:3: invalid UTF-8 \(byte 0xff\)"):
        mio.read_range(str(path), 8, path.stat().st_size, 2)
    with pytest.warns(UserWarning, match=r"f.txt:4: a carriage return"):
        lines = mio.read_range(str(path), 8, path.stat().st_size, 2, errors="replace")
    assert lines == ["th\ufffdree", "four x"]
    with pytest.raises(ValueError, match="every"):
        mio.line_offsets(str(path), 0)


Columns = tuple[list[list[str]], bool, bool]


@st.composite
def _columns(draw: st.DrawFn, extra: int = 0) -> Columns:
    """The arguments of :func:`_write_columns` after the folder: two columns of up to 25 lines,
    the second one up to ``extra`` lines longer (files of different lengths), ``final_break``
    and ``bom``."""
    lines = draw(st.lists(st.tuples(_line, _line), max_size=25))
    longer = draw(st.integers(0, extra))
    columns = [
        [pair[side] for pair in lines] + ["x"] * (longer if side else 0) for side in range(2)
    ]
    return columns, draw(st.booleans()), draw(st.booleans())


def _write_columns(
    folder: Path, columns: list[list[str]], final_break: bool, bom: bool
) -> list[str]:
    """One file per column of lines (``f0.txt``, ``f1.txt``, ...), the last line ended by a
    line break when ``final_break`` (an empty last line exists only with its line break); a
    byte-order mark before every file but the first when ``bom``."""
    paths = []
    for side, rows in enumerate(columns):
        path = folder / f"f{side}.txt"
        last_break = rows and (final_break or not rows[-1])
        text = "\n".join(rows) + ("\n" if last_break else "")
        path.write_bytes((b"\xef\xbb\xbf" if bom and side else b"") + text.encode("utf-8"))
        paths.append(str(path))
    return paths


@settings(max_examples=100, deadline=None)
@given(files=_columns(), every=st.integers(1, 7))
def test_file_chunks_read_as_the_pairs_of_the_files(
    tmp_path_factory: pytest.TempPathFactory, files: Columns, every: int
) -> None:
    """What ``--jobs`` workers read (one chunk each) is what one process streams."""
    paths = _write_columns(tmp_path_factory.mktemp("chunks"), *files)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = list(mio.iter_segments(paths[0], paths[1:]))
        chunks = mio.file_chunks(paths, every)
        got = [pair for chunk in chunks for pair in mio.read_chunk(chunk, "strict")]
    assert got == want
    assert [chunk.first_line for chunk in chunks] == list(range(0, len(want), every))
    assert [chunk.lines for chunk in chunks] == [
        min(every, len(want) - first) for first in range(0, len(want), every)
    ]


@settings(max_examples=150, deadline=None)
@given(
    files=_columns(extra=3),
    every=st.integers(1, 5),
    chunks=st.integers(1, 8),
    scan=st.integers(1, 9),
)
def test_head_chunks_are_the_first_chunks_of_the_whole_scan(
    tmp_path_factory: pytest.TempPathFactory, files: Columns, every: int, chunks: int, scan: int
) -> None:
    """The first tasks of ``--jobs`` come from a scan of the files' first bytes only
    (``head_chunks``): they are the first chunks of the whole scan, and there are none unless
    every file has the lines they hold (files of different lengths included: the whole scan
    refuses those later)."""
    paths = _write_columns(tmp_path_factory.mktemp("head"), *files)
    old = mio._SCAN_BYTES
    mio._SCAN_BYTES = scan  # the scan stops inside a block, or at a block's end
    try:
        head = mio.head_chunks(paths, every, chunks)
        again, stopped = mio.head_scans(paths, every, chunks)
        counts = [mio.line_offsets(path, every)[1] for path in paths]
        whole = [mio.line_offsets(path, every)[0] for path in paths]
        # the whole scan going on from where the head's stopped: the same answer
        resumed = [
            mio.line_offsets(path, every, resume=None if stopped is None else stopped[k])
            for k, path in enumerate(paths)
        ]
    finally:
        mio._SCAN_BYTES = old
    assert again == head
    assert resumed == list(zip(whole, counts, strict=True))
    if min(counts) < every * chunks or (min(counts) == every * chunks and not head):
        # too short (or exactly as long, its last line without a line break)
        assert head == []
        assert stopped is None
        return
    assert len(head) == chunks
    for k, chunk in enumerate(head):
        assert (chunk.first_line, chunk.lines) == (k * every, every)
        ends = [
            offsets[k + 1] if k + 1 < len(offsets) else Path(path).stat().st_size
            for path, offsets in zip(paths, whole, strict=True)
        ]
        assert chunk.ranges == tuple(
            (path, offsets[k], end) for path, offsets, end in zip(paths, whole, ends, strict=True)
        )
    if counts[0] == counts[1]:
        assert head == mio.file_chunks(paths, every)[:chunks]
        assert mio.file_chunks(paths, every, resume=stopped) == mio.file_chunks(paths, every)
    else:
        with pytest.raises(InputError, match="lines but"):
            mio.file_chunks(paths, every, resume=stopped)


def _nth_naive(block: bytes, start: int, n: int) -> int:
    index = start - 1
    for _ in range(n):
        index = block.index(b"\n", index + 1)
    return index


@settings(max_examples=300, deadline=None)
@given(
    widths=st.lists(st.integers(0, 40), min_size=60, max_size=400),
    start_line=st.integers(0, 50),
    n=st.integers(1, 400),
    guess=st.one_of(st.floats(0.0, 200.0), st.sampled_from([0.0, 1e-9, 1e6])),
)
def test_nth_newline_is_the_naive_walk(
    widths: list[int], start_line: int, n: int, guess: float
) -> None:
    """The counted search for the n-th line break equals one ``index`` call per line, for any
    line lengths (empty lines, one long line among short ones) and any guess of the width."""
    block = b"".join(b"x" * width + b"\n" for width in widths) + b"tail"
    breaks = [i for i, byte in enumerate(block) if byte == 10]
    start_line = min(start_line, len(breaks) - 1)
    start = breaks[start_line - 1] + 1 if start_line else 0
    n = min(n, len(breaks) - start_line)  # at least 10
    assert mio._nth_newline(block, start, n, guess) == _nth_naive(block, start, n)


@settings(max_examples=60, deadline=None)
@given(
    widths=st.lists(st.integers(0, 30), max_size=900),
    every=st.sampled_from([9, 10, 33, 256, 300]),
    scan=st.sampled_from([7, 64, 1000, 1 << 20]),
)
def test_line_offsets_of_long_chunks(
    tmp_path_factory: pytest.TempPathFactory, widths: list[int], every: int, scan: int
) -> None:
    """Chunks of many lines (the counted search) start where a walk over every line says."""
    data = b"".join(b"y" * width + b"\n" for width in widths)
    path = tmp_path_factory.mktemp("long") / "f.txt"
    path.write_bytes(data)
    starts = [0] + [i + 1 for i, byte in enumerate(data) if byte == 10]
    want = starts[: len(widths)][::every] if widths else [0]
    old = mio._SCAN_BYTES
    mio._SCAN_BYTES = scan
    try:
        assert mio.line_offsets(str(path), every) == (want, len(widths))
    finally:
        mio._SCAN_BYTES = old
