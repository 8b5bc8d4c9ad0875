"""``iter_segments``/``iter_lines`` read exactly what ``read_segments``/``read_lines`` read."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

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


def test_segments_match_read_segments(tmp_path: Path) -> None:
    names = []
    for k, text in enumerate(("h1\nh2\nh3\n", "r1\nr2\nr3", "s1\ns2\ns3\n")):
        path = tmp_path / str(k)
        path.write_text(text, encoding="utf-8")
        names.append(str(path))
    hyps, refs = read_segments(names[0], names[1:])
    assert list(iter_segments(names[0], names[1:])) == list(zip(hyps, refs, strict=True))


@pytest.mark.parametrize(("lengths", "bad"), [((3, 2, 3), 1), ((3, 3, 4), 2), ((2, 3, 3), 1)])
def test_count_mismatch_message(tmp_path: Path, lengths: tuple[int, ...], bad: int) -> None:
    names = []
    for k, n in enumerate(lengths):
        path = tmp_path / str(k)
        path.write_text("x\n" * n, encoding="utf-8")
        names.append(str(path))
    with pytest.raises(InputError) as eager:
        read_segments(names[0], names[1:])
    with pytest.raises(InputError) as lazy:
        list(iter_segments(names[0], names[1:]))
    assert str(lazy.value) == str(eager.value)
    assert f"has {lengths[bad]}" in str(lazy.value)


def test_missing_file_is_reported_before_the_first_pair(tmp_path: Path) -> None:
    path = tmp_path / "h"
    path.write_text("x\n", encoding="utf-8")
    with pytest.raises(InputError, match="file not found"):
        iter_segments(str(path), [str(tmp_path / "missing")])
    with pytest.raises(InputError, match="one file only"):
        iter_segments("-", ["-"])
