"""The jar's line reading: readLine's three line breaks, the kept BOM, U+FFFD, streamed input."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from meteor_eval.errors import InputError
from meteor_eval.jar.lines import iter_stream_lines, read_jar_lines, split_jar_lines


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("", []),
        ("\n", [""]),
        ("a", ["a"]),
        ("a\n", ["a"]),
        ("a\n\n", ["a", ""]),
        ("a\r\nb", ["a", "b"]),
        ("a\rb\r", ["a", "b"]),
        ("a\r\rb", ["a", "", "b"]),
        ("a\n\rb", ["a", "", "b"]),  # LF then CR: two breaks, unlike CR LF
        # Not line breaks for readLine, though str.splitlines breaks on each of them.
        ("a\x0bb\x0cc\x1cd\x85e\u2028f\u2029g", ["a\x0bb\x0cc\x1cd\x85e\u2028f\u2029g"]),
    ],
)
def test_split_like_readline(text: str, lines: list[str]) -> None:
    assert split_jar_lines(text) == lines


def test_file_keeps_the_bom_and_replaces_malformed_utf8(tmp_path: Path) -> None:
    path = tmp_path / "in.txt"
    path.write_bytes(b"\xef\xbb\xbfcaf\xc3\xa9\r\nbad \xff byte\rlast")
    assert read_jar_lines(path) == ["\ufeffcafé", "bad \ufffd byte", "last"]


def test_missing_file_is_an_input_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "absent.txt"
    with pytest.raises(InputError, match=r"absent\.txt \(No such file or directory\)"):
        read_jar_lines(path)


class _Chunks:
    """A binary stream whose ``readline`` returns the given chunks (as a pipe may)."""

    def __init__(self, chunks: list[bytes]) -> None:
        self._chunks: Iterator[bytes] = iter(chunks)

    def readline(self) -> bytes:
        return next(self._chunks, b"")


def test_stream_lines_split_on_every_break() -> None:
    stream = io.BytesIO(b"SCORE a\r\nEVAL b\rSING c\nlast")
    assert list(iter_stream_lines(stream)) == ["SCORE a", "EVAL b", "SING c", "last"]


def test_stream_cr_lf_split_across_reads_is_one_break() -> None:
    stream = _Chunks([b"a\r", b"\nb\n", b"c\r", b"d\n"])
    assert list(iter_stream_lines(stream)) == ["a", "b", "c", "d"]  # type: ignore[arg-type]


def test_stream_lines_arrive_one_read_at_a_time() -> None:
    reads: list[int] = []

    class Counting(_Chunks):
        def readline(self) -> bytes:
            reads.append(1)
            return super().readline()

    lines = iter_stream_lines(Counting([b"one\n", b"two\n"]))  # type: ignore[arg-type]
    assert next(lines) == "one"
    assert len(reads) == 1  # the first answer needs no second read
    assert list(lines) == ["two"]


def test_stream_replaces_malformed_utf8() -> None:
    assert list(iter_stream_lines(io.BytesIO(b"\xc3(\n"))) == ["\ufffd("]
