"""``iter_segments``/``iter_lines`` read exactly what ``read_segments``/``read_lines`` read."""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval import io as io_module
from meteor_eval.errors import InputError
from meteor_eval.io import count_lines, iter_lines, iter_segments, read_lines, read_segments

CASES = [
    b"",
    b"\n",
    b"a\nb\n",
    b"a\nb",
    b"a\r\nb\r\n\r\n",
    b"\xef\xbb\xbf",
    b"\xef\xbb\xbfx y\nz\n",
    b"one\rtwo\nthree\n",
    b"caf\xc3\xa9\n\n\nend",
]


@pytest.mark.parametrize("data", CASES)
def test_lines_match_read_lines(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "f"
    path.write_bytes(data)
    with warnings.catch_warnings(record=True) as eager:
        warnings.simplefilter("always")
        expected = read_lines(str(path))
    with warnings.catch_warnings(record=True) as lazy:
        warnings.simplefilter("always")
        got = list(iter_lines(str(path)))
    assert got == expected
    assert [str(w.message) for w in lazy] == [str(w.message) for w in eager]
    if data != b"\xef\xbb\xbf":  # a file of nothing but the mark counts as one line here
        assert count_lines(str(path)) == len(expected)


def test_invalid_utf8(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"ok\nbad \xff byte\n")
    with pytest.raises(InputError) as eager:
        read_lines(str(path))
    with pytest.raises(InputError) as lazy:
        list(iter_lines(str(path)))
    assert str(lazy.value) == str(eager.value)
    assert str(lazy.value).startswith(f"{path}:2: invalid UTF-8 (byte 0xff)")
    assert list(iter_lines(str(path), errors="replace")) == read_lines(str(path), errors="replace")


def _files(folder: Path, texts: Iterable[str]) -> list[str]:
    """Each text written to its own file in ``folder`` (named 0, 1, ...); their paths."""
    names = []
    for k, text in enumerate(texts):
        path = folder / str(k)
        path.write_text(text, encoding="utf-8")
        names.append(str(path))
    return names


def _same_pairs(names: list[str]) -> None:
    """The streaming reader gives the pairs the eager reader gives."""
    hyps, refs = read_segments(names[0], names[1:])
    assert list(iter_segments(names[0], names[1:])) == list(zip(hyps, refs, strict=True))


def _same_error(names: list[str]) -> str:
    """Both readers refuse the files with the same message; that message."""
    with pytest.raises(InputError) as eager:
        read_segments(names[0], names[1:])
    with pytest.raises(InputError) as lazy:
        list(iter_segments(names[0], names[1:]))
    assert str(lazy.value) == str(eager.value)
    return str(lazy.value)


def test_segments_match_read_segments(tmp_path: Path) -> None:
    _same_pairs(_files(tmp_path, ("h1\nh2\nh3\n", "r1\nr2\nr3", "s1\ns2\ns3\n")))


@pytest.mark.parametrize(("lengths", "bad"), [((3, 2, 3), 1), ((3, 3, 4), 2), ((2, 3, 3), 1)])
def test_count_mismatch_message(tmp_path: Path, lengths: tuple[int, ...], bad: int) -> None:
    message = _same_error(_files(tmp_path, ("x\n" * n for n in lengths)))
    assert f"has {lengths[bad]}" in message


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=2, max_size=4))
def test_stream_pairs_or_count_error_equal_the_eager_reader(
    tmp_path_factory: pytest.TempPathFactory, lengths: list[int]
) -> None:
    # The files are read in step by zip(): pairs, or the count error naming the first file
    # whose count differs, as read_segments() gives them, whichever file ends first.
    texts = ("".join(f"{k}-{j}\n" for j in range(n)) for k, n in enumerate(lengths))
    names = _files(tmp_path_factory.mktemp("files"), texts)
    if len(set(lengths)) > 1:
        assert f"has {lengths[0]} lines" in _same_error(names)
    else:
        _same_pairs(names)


def test_missing_file_is_reported_before_the_first_pair(tmp_path: Path) -> None:
    path = tmp_path / "h"
    path.write_text("x\n", encoding="utf-8")
    with pytest.raises(InputError, match="file not found"):
        iter_segments(str(path), [str(tmp_path / "missing")])
    with pytest.raises(InputError, match="one file only"):
        iter_segments("-", ["-"])


def _reference_lines(data: bytes, errors: str) -> tuple[list[str], list[str]]:
    """The line rules applied one line at a time (the behaviour the block reader must keep):
    lines and warnings."""
    lines: list[str] = []
    notes: list[str] = []
    if not data:
        return lines, notes
    for k, raw in enumerate(data.split(b"\n")[: -1 if data.endswith(b"\n") else None]):
        if k == 0 and raw.startswith(b"\xef\xbb\xbf"):
            notes.append("f:1: dropped a UTF-8 byte-order mark")
            raw = raw[3:]
            if not raw and data == b"\xef\xbb\xbf":
                return [], notes
        line = raw.decode("utf-8", errors=errors)
        if line.endswith("\r"):
            line = line[:-1]
        if "\r" in line:
            notes.append(f"f:{k + 1}: a carriage return inside the line is read as a space")
            line = line.replace("\r", " ")
        lines.append(line)
    return lines, notes


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"a", b"\xc3\xa9", b"\xe2\x82", b"\xff", b"\r", b" ", b"\n"])))
def test_block_reader_equals_line_rules(
    tmp_path_factory: pytest.TempPathFactory, parts: list[bytes]
) -> None:
    data = b"".join(parts)
    path = tmp_path_factory.mktemp("io") / "f"
    path.write_bytes(data)
    expected, notes = _reference_lines(data, "replace")
    for block_bytes in (1 << 16, 3):  # one block, and blocks of a line or two
        with (
            warnings.catch_warnings(record=True) as seen,
            mock.patch.object(io_module, "_BLOCK_BYTES", block_bytes),
        ):
            warnings.simplefilter("always")
            got = list(iter_lines(str(path), errors="replace"))
        assert got == expected
        assert [str(w.message).replace(str(path), "f") for w in seen] == notes


def test_errors_name_the_line_across_blocks(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    lines = [f"line {k} caf\u00e9" for k in range(70_000)]
    data = bytearray("\n".join(lines).encode("utf-8") + b"\n")
    at = data.index(b"line 65432 ")
    data[at] = 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(InputError, match=r"big\.txt:65433: invalid UTF-8 \(byte 0xff\)"):
        list(iter_lines(str(path)))
    got = list(iter_lines(str(path), errors="replace"))
    assert len(got) == 70_000 and got[65432] == "\ufffdine 65432 caf\u00e9"
    assert got[:3] == lines[:3] and got[-1] == lines[-1]
    data[at] = ord("l")
    (tmp_path / "cr.txt").write_bytes(bytes(data).replace(b"line 50000 ", b"line\r50000 "))
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        got = list(iter_lines(str(tmp_path / "cr.txt")))
    assert got[50000] == "line 50000 caf\u00e9" and len(got) == 70_000
    assert [str(w.message).split(": ", 1)[0][-5:] for w in seen] == ["50001"]
