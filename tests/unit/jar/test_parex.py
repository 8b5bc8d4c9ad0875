"""The pieces of ``jar-compat Parex`` and ``FilterParaphrase``, on hand-computed cases.

The whole tools are compared with the jar in ``tests/reference/test_parex_golden.py``.
"""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval.cli.jar_compat import run_jar
from meteor_eval.jar.javaio import JavaGzipWriter, iter_binary_lines
from meteor_eval.jar.lines import split_jar_lines
from meteor_eval.jar.parex import (
    NgramIndex,
    ParexSettings,
    TableLine,
    combine_paraphrases,
    common_words,
    extract_paraphrases,
    group_paraphrases,
    is_subphrase,
    parse_table_line,
)


def test_common_words_follow_java_hashtable_order() -> None:
    """ "a", "b", "c" hash to 97, 98, 99: buckets 9, 10 and 0 of 11, iterated from the last."""
    assert common_words(["a b c a"], 0.0) == ["b", "a", "c"]


def test_common_words_need_a_share_above_the_threshold() -> None:
    # 4 tokens: "a" has 0.5, "b" and "c" 0.25 each; "more than" excludes 0.25 itself.
    assert common_words(["a b", "c a"], 0.25) == ["a"]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("f ||| e ||| 0.5 x 0.25", TableLine("f", "e", 0.5, 0.25)),
        ("f ||| e ||| 0.3d 1 0x1p-2 |||", TableLine("f", "e", 0.3, 0.25)),
        ("f g ||| e\th ||| 1e-1 1 +5E-1", TableLine("f g", "e\th", 0.1, 0.5)),
        ("f ||| e ||| 0.5 0.5", None),
        ("f ||| e", None),
        ("f ||| e ||| zero 1 1", None),
        ("|||", None),
        ("", None),
    ],
)
def test_table_lines_parse_as_the_jar_parses_them(line: str, expected: TableLine | None) -> None:
    assert parse_table_line(line) == expected


def test_symbols_are_characters_anywhere_in_a_phrase() -> None:
    """The released jar drops "1.1 million" (it contains "."), keeps "11 million"."""
    lines = [
        "x ||| 11 million ||| 0.5 1 0.5",
        "x ||| 1.1 million ||| 0.5 1 0.5",
        "x ||| ten million ||| 0.5 1 0.5",
    ]
    target = NgramIndex([["11", "million", "1.1", "million", "ten", "million"]])
    raw = list(
        extract_paraphrases(
            lambda: iter(lines), target, frozenset(), frozenset(), ParexSettings(), lambda m: None
        )
    )
    assert raw == [
        "ten million ||| 11 million ||| x ||| 0.25",
        "11 million ||| ten million ||| x ||| 0.25",
    ]


def test_a_symbol_outside_the_bmp_is_its_two_surrogates() -> None:
    symbols = ParexSettings.symbol_set("\U0001f600")
    assert symbols == {chr(0xD83D), chr(0xDE00)}


def test_grouping_sorts_by_utf16_code_units() -> None:
    """Java puts U+10000 (surrogates D800 DC00) before U+FFFF; code points would not."""
    raw = ["\uffff ||| b ||| p ||| 0.5", "\U00010000 ||| b ||| p ||| 0.25", "a ||| b ||| p ||| 1.0"]
    assert group_paraphrases(raw) == [
        "a ||| b ||| 1.0",
        "\U00010000 ||| b ||| 0.25",
        "\uffff ||| b ||| 0.5",
    ]


def test_combining_sums_equal_pairs_and_filters() -> None:
    grouped = [
        "a ||| b ||| 0.004",
        "a ||| b ||| 0.007",  # 0.011 in all: kept
        "a ||| c ||| 0.009",  # below 0.01: dropped
        "a b ||| b ||| 0.5",  # "b" inside "a b": dropped
        "ab ||| b ||| 0.5",  # not as a whole word: kept
    ]
    assert list(combine_paraphrases(grouped, 0.01)) == ["a ||| b ||| 0.011", "ab ||| b ||| 0.5"]


def test_subphrases_are_whole_words() -> None:
    assert is_subphrase("the cat", "the cat sat") and is_subphrase("cat sat", "cat")
    assert not is_subphrase("cat", "cats")


def test_ngram_index_holds_every_contiguous_phrase() -> None:
    index = NgramIndex([["a", "b", "c"]])
    assert ("b", "c") in index and () in index
    assert ("a", "c") not in index


def _filter(tmp_path: Path, records: list[str], ref: str) -> tuple[int, list[str], str, str]:
    table = tmp_path / "t.gz"
    table.write_bytes(gzip.compress("".join(r + "\n" for r in records).encode()))
    (tmp_path / "ref.txt").write_text(ref + "\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    status = run_jar(
        ["FilterParaphrase", str(table), str(tmp_path / "f.gz"), str(tmp_path / "ref.txt")],
        stdout=out,
        stderr=err,
    )
    kept = []
    if (tmp_path / "f.gz").exists():
        kept = gzip.decompress((tmp_path / "f.gz").read_bytes()).decode().splitlines()
    return status, kept, out.getvalue(), err.getvalue()


def test_filter_compares_words_by_java_hash_after_normalising(tmp_path: Path) -> None:
    """The table's "bB" and the reference's "aa" share hash 3104 (the table is taken as it is;
    the reference is normalised without punctuation and lower-cased: "hello world aa")."""
    records = ["0.5", "bB", "x", "0.5", "hello world", "y", "0.5", "world ,", "z", "0.5", "q", ""]
    status, kept, _, err = _filter(tmp_path, records, "Hello, world! aa")
    assert (status, err) == (0, "")
    assert kept == ["0.5", "bB", "x", "0.5", "hello world", "y", "0.5", "q", ""]


def test_filter_refuses_a_truncated_record_and_leaves_no_output(tmp_path: Path) -> None:
    status, kept, out, err = _filter(tmp_path, ["0.5", "a", "b", "0.5", "a"], "a")
    assert status == 1 and kept == []
    assert err == f"Error: {tmp_path / 't.gz'}: the last record has fewer than three lines\n"
    assert out.endswith("Filtering paraphrases...\n")
    assert not (tmp_path / "f.gz").exists()


def test_gzip_header_is_java_17s(tmp_path: Path) -> None:
    with JavaGzipWriter(tmp_path / "x.gz") as writer:
        writer.println("a")
    data = (tmp_path / "x.gz").read_bytes()
    assert data[:10] == b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
    assert gzip.decompress(data) == b"a\n"


def test_a_crlf_split_between_chunks_is_one_break() -> None:
    data = b"x" * 65535 + b"\r\ny\r"
    assert list(iter_binary_lines(io.BytesIO(data))) == ["x" * 65535, "y"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["a", "\r", "\n", "\r\n", "é", "\xff", " "]), max_size=40))
def test_streamed_lines_equal_the_whole_file_split(parts: list[str]) -> None:
    data = "".join(parts).encode("latin-1" if "\xff" in parts else "utf-8", errors="replace")
    expected = split_jar_lines(data.decode("utf-8", errors="replace"))
    assert list(iter_binary_lines(io.BytesIO(data))) == expected


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",))), max_size=20))
def test_gzip_writer_round_trips(
    tmp_path_factory: pytest.TempPathFactory, lines: list[str]
) -> None:
    path = tmp_path_factory.mktemp("gz") / "x.gz"
    with JavaGzipWriter(path) as writer:
        for line in lines:
            writer.println(line)
    assert gzip.decompress(path.read_bytes()).decode("utf-8") == "".join(x + "\n" for x in lines)


DATA = Path(__file__).resolve().parents[2] / "data" / "parex"


def _parex(out_dir: Path, table: Path) -> tuple[int, str]:
    err = io.StringIO()
    corpora = [str(DATA / "corpus.f"), str(DATA / "corpus.e"), str(table), str(DATA / "corpus.e")]
    status = run_jar(["Parex", *corpora, str(out_dir)], stdout=io.StringIO(), stderr=err)
    return status, err.getvalue()


def test_parex_failing_on_a_damaged_table_leaves_no_partial_file(tmp_path: Path) -> None:
    """The table's gzip stream ends early, while step 2 writes ``parex.raw.gz``: only the
    files of the finished step remain (complete, equal to the jar's), no half-written one."""
    data = (DATA / "phrase-table.gz").read_bytes()
    table = tmp_path / "cut.gz"
    table.write_bytes(data[: len(data) // 2])
    out_dir = tmp_path / "out"
    status, err = _parex(out_dir, table)
    assert status == 1
    assert err.splitlines()[-1] == (
        f"Error: cannot read {table}: Compressed file ended before the end-of-stream marker "
        "was reached"
    )
    assert sorted(p.name for p in out_dir.iterdir()) == ["parex.e", "parex.f"]
    for name in ("parex.e", "parex.f"):
        golden = DATA / "golden" / "parex" / name
        assert (out_dir / name).read_bytes() == golden.read_bytes()


def test_parex_failing_to_write_leaves_no_partial_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write error (a full disk) in the last step: ``paraphrase.gz`` is not left half
    written, and the message names the folder as before."""
    import errno

    import meteor_eval.jar.parex as parex

    made: list[int] = []

    class FullDisk(JavaGzipWriter):
        def __init__(self, path: str | Path) -> None:
            super().__init__(path)
            made.append(1)
            self._full = len(made) == 3  # raw, group, then the final table

        def println(self, line: str) -> None:
            if self._full:
                raise OSError(errno.ENOSPC, "No space left on device")
            super().println(line)

    monkeypatch.setattr(parex, "JavaGzipWriter", FullDisk)
    out_dir = tmp_path / "out"
    status, err = _parex(out_dir, DATA / "phrase-table.gz")
    assert status == 1
    assert err.splitlines()[-1] == f"Error: cannot write {out_dir}: No space left on device"
    assert sorted(p.name for p in out_dir.iterdir()) == [
        "parex.e",
        "parex.f",
        "parex.group.gz",
        "parex.raw.gz",
    ]
    golden = DATA / "golden" / "parex" / "parex.group.gz"
    assert gzip.decompress((out_dir / "parex.group.gz").read_bytes()) == gzip.decompress(
        golden.read_bytes()
    )


def test_filter_replaces_an_existing_output_only_when_it_succeeds(tmp_path: Path) -> None:
    """A failed filter leaves a file already at the output path as it was, and no temporary."""
    earlier = gzip.compress(b"earlier output\n")
    (tmp_path / "f.gz").write_bytes(earlier)
    status, kept, _, _ = _filter(tmp_path, ["0.5", "a", "b", "0.5", "a"], "a")
    assert (status, kept) == (1, ["earlier output"])
    assert (tmp_path / "f.gz").read_bytes() == earlier
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.gz", "ref.txt", "t.gz"]
    status, kept, _, _ = _filter(tmp_path, ["0.5", "a", "b"], "a")
    assert (status, kept) == (0, ["0.5", "a", "b"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.gz", "ref.txt", "t.gz"]
