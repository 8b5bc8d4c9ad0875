"""SGML mode of the jar: Java container order, the line-based reader, score files, warnings."""

from __future__ import annotations

import functools
import io
from pathlib import Path

import pytest

from meteor_eval.jar.config import JarConfigError, resolve_settings
from meteor_eval.jar.options import parse_jar_args
from meteor_eval.jar.sgml import (
    JavaHashtable,
    SgmlData,
    _by_prefix,
    _by_segment,
    hashset_order,
    parse_sgml,
    run_sgml,
)
from meteor_eval.metrics.meteor import Meteor


class TestJavaHashtable:
    def test_iterates_from_the_last_bucket_down(self) -> None:
        # String.hashCode of "0".."7" is 48..55: buckets 4..10 and 0 of 11.
        table: JavaHashtable[int] = JavaHashtable()
        for k in range(8):
            table.put(str(k), k)
        assert table.keys() == ["6", "5", "4", "3", "2", "1", "0", "7"]
        assert list(table.items())[:2] == [("6", 6), ("5", 5)]
        assert len(table) == 8

    def test_rehashes_to_23_buckets_at_the_ninth_key(self) -> None:
        table: JavaHashtable[int] = JavaHashtable()
        for k in range(10):
            table.put(str(k), k)
        # 48..57 % 23 = 2..11: plain descending order.
        assert table.keys() == [str(k) for k in range(9, -1, -1)]

    def test_new_keys_go_to_the_head_of_their_bucket(self) -> None:
        table: JavaHashtable[str] = JavaHashtable()
        table.put("0", "a")  # hash 48, bucket 4
        table.put(";", "b")  # hash 59, bucket 4
        assert table.keys() == [";", "0"]

    def test_replacing_keeps_the_position_and_count(self) -> None:
        table: JavaHashtable[str] = JavaHashtable()
        table.put("1", "a")
        table.put("2", "b")
        table.put("1", "c")
        assert table.keys() == ["2", "1"]
        assert (table.get("1"), table.get("3"), len(table)) == ("c", None, 2)


class TestHashsetOrder:
    def test_orders_by_spread_hash_bucket_and_drops_duplicates(self) -> None:
        # "10".hashCode() = 1567, bucket 15 of 16; "1" and "2" are buckets 1 and 2.
        assert hashset_order(["10", "2", "1", "2"]) == ["1", "2", "10"]

    def test_keeps_insertion_order_inside_a_bucket(self) -> None:
        assert hashset_order(["@", "0"]) == ["@", "0"]  # 64 and 48: both bucket 0
        assert hashset_order(["0", "@"]) == ["0", "@"]

    def test_grows_to_32_buckets_past_12_keys(self) -> None:
        keys = [str(k) for k in range(13)]
        # Buckets of 32: "0".."9" -> 16..25, "10" -> 31, "11" -> 0, "12" -> 1.
        assert hashset_order(keys) == ["11", "12", *[str(k) for k in range(10)], "10"]


def parse(tmp_path: Path, text: str) -> SgmlData:
    path = tmp_path / "f.sgm"
    path.write_text(text, encoding="utf-8")
    data: SgmlData = JavaHashtable()
    parse_sgml(str(path), data)
    return data


def segments(data: SgmlData, set_id: str, sys_id: str, doc_id: str) -> dict[str, str]:
    systems = data.get(set_id)
    assert systems is not None
    docs = systems.get(sys_id)
    assert docs is not None
    segs = docs.get(doc_id)
    assert segs is not None
    return dict(segs.items())


class TestParseSgml:
    def test_reads_sets_systems_documents_and_segments(self, tmp_path: Path) -> None:
        data = parse(
            tmp_path,
            '<tstset setid="s" srclang="x">\n'
            '<doc sysid="A" docid="d1">\n'
            '<seg id="1"> the &amp;LT; &QUOT;cat&quot; </seg>\n'
            "<seg id=2>one\n"
            "line\tmore</seg>\n"
            "</doc>\n"
            '<DOC SYSID="B" DOCID="d1"><SEG ID="x">b</SEG></DOC>\n'
            "</tstset>\n",
        )
        assert data.keys() == ["s"]
        # Entities case-insensitively, &amp; last (so &amp;LT; stays &LT;), lines joined without
        # a separator, Java whitespace turned into spaces, the text trimmed.
        assert segments(data, "s", "A", "d1") == {"2": "oneline more", "1": 'the &LT; "cat"'}
        assert segments(data, "s", "B", "d1") == {"x": "b"}

    def test_set_header_system_applies_to_documents_without_one(self, tmp_path: Path) -> None:
        data = parse(
            tmp_path, '<refset setid="s" refid="r">\n<doc docid="d"><seg id="1">t</seg></doc>\n'
        )
        assert segments(data, "s", "r", "d") == {"1": "t"}

    def test_a_second_file_adds_to_the_same_data(self, tmp_path: Path) -> None:
        first = tmp_path / "a.sgm"
        second = tmp_path / "b.sgm"
        first.write_text('<tstset setid="s" sysid="A"><doc docid="d"><seg id="1">a</seg>\n')
        second.write_text('<tstset setid="s" sysid="B"><doc docid="d"><seg id="1">b</seg>\n')
        data: SgmlData = JavaHashtable()
        parse_sgml(str(first), data)
        parse_sgml(str(second), data)
        systems = data.get("s")
        assert systems is not None
        assert sorted(systems.keys()) == ["A", "B"]

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            (
                '<tstset id="s">',
                "Error: Could not score SGML files: Set ID (setid) required in line:"
                ' <tstset id="s">',
            ),
            (
                '<tstset setid="s">\n<doc docid="d">',
                "Error: Could not score SGML files: System ID (sysid or refid) must be specified"
                ' in either Set or Doc header: <doc docid="d">',
            ),
            (
                '<tstset setid="s">\n<doc sysid="A">',
                "Error: Could not score SGML files: Doc ID (docid) required in line:"
                ' <doc sysid="A">',
            ),
            (
                '<tstset setid="s" sysid="A">\n<doc docid="d">\n</seg><seg id="1">',
                "Error: Could not score SGML files: Couldn't read segment from line:"
                ' </seg><seg id="1">',
            ),
        ],
    )
    def test_the_jars_own_errors(self, tmp_path: Path, text: str, message: str) -> None:
        with pytest.raises(JarConfigError) as caught:
            parse(tmp_path, text)
        assert str(caught.value) == message

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ('<doc sysid="A" docid="d">', "document header before any set header"),
            ('<seg id="1">x</seg>', "segment 1 before any document header"),
            (
                '<tstset setid="s" sysid="A">\n<doc docid="d">\n<seg id="7">open\nstill open\n',
                "segment 7 has no closing </seg> tag (the jar hangs)",
            ),
        ],
    )
    def test_where_the_jar_crashes_or_hangs(self, tmp_path: Path, text: str, message: str) -> None:
        with pytest.raises(JarConfigError) as caught:
            parse(tmp_path, text)
        assert str(caught.value) == f"Error: {tmp_path / 'f.sgm'}: {message}"


class TestScoreFileOrder:
    def test_system_and_document_lines_sort_on_everything_before_the_value(self) -> None:
        lines = ["s\tb\t0.5", "s\ta\t0.9", "s\ta\t0.1"]
        # Equal keys keep their order (a stable sort, as Collections.sort).
        assert sorted(lines, key=functools.cmp_to_key(_by_prefix)) == [
            "s\ta\t0.9",
            "s\ta\t0.1",
            "s\tb\t0.5",
        ]

    def test_segment_ids_compare_as_integers_when_both_are(self) -> None:
        lines = ["s\tA\td\t10\t0.1", "s\tA\td\t9\t0.2", "s\tA\td\tx\t0.3", "s\tA\tc\t99\t0.4"]
        assert sorted(lines, key=functools.cmp_to_key(_by_segment)) == [
            "s\tA\tc\t99\t0.4",
            "s\tA\td\t9\t0.2",
            "s\tA\td\t10\t0.1",
            "s\tA\td\tx\t0.3",
        ]

    def test_strings_compare_by_utf16_code_units(self) -> None:
        # U+1F600 sorts after U+FF5E in code points, before it in UTF-16 (surrogate D83D).
        assert "\U0001f600" > "\uff5e"
        assert _by_prefix("\U0001f600\tx", "\uff5e\tx") < 0
        assert _by_segment("s\t\U0001f600\t1\tx", "s\t\uff5e\t1\tx") < 0


TEST_SGM = """<tstset setid="s" srclang="any">
<doc sysid="A" docid="d1">
<seg id="1">the cat sat</seg>
<seg id="2">a dog</seg>
</doc>
<doc sysid="A" docid="only-test">
<seg id="1">lonely</seg>
</doc>
</tstset>
"""
REF_SGM = """<refset setid="s" srclang="any">
<doc refid="r1" docid="d1">
<seg id="1">the cat sat</seg>
<seg id="3">not in the test</seg>
</doc>
<doc refid="r2" docid="d1">
<seg id="1">the cat</seg>
</doc>
</refset>
"""


def run(tmp_path: Path, test: str, ref: str, *options: str) -> tuple[int, str, str]:
    (tmp_path / "t.sgm").write_text(test, encoding="utf-8")
    (tmp_path / "r.sgm").write_text(ref, encoding="utf-8")
    argv = [str(tmp_path / "t.sgm"), str(tmp_path / "r.sgm"), "-sgml", "-m", "exact"]
    parsed = parse_jar_args([*argv, "-f", str(tmp_path / "o"), *options])
    settings = resolve_settings(parsed)
    out, err = io.StringIO(), io.StringIO()
    status = run_sgml(Meteor(settings.meteor_config()), parsed, out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def read(tmp_path: Path, suffix: str) -> str:
    return (tmp_path / f"o{suffix}").read_text(encoding="utf-8")


class TestRunSgml:
    def test_scores_warnings_and_files(self, tmp_path: Path) -> None:
        status, out, err = run(tmp_path, TEST_SGM, REF_SGM)
        assert status == 0
        # Documents in HashSet order: "only-test" comes before "d1".
        assert hashset_order(["d1", "only-test"]) == ["only-test", "d1"]
        assert err.splitlines() == [
            "Warning: no data for reference [r2] on document [s][only-test]",
            "Warning: no data for reference [r1] on document [s][only-test]",
            "Warning: no usable references for document [s][only-test] - skipping this document",
            "Warning: no data for reference [r2] on segment [s][d1][2]",
            "Warning: no data for reference [r1] on segment [s][d1][2]",
            "Warning: no usable references for segment [s][d1][2] - skipping this segment",
            "Warning: no data for system [A] on segment [s][d1][3] - scoring empty segment",
            "Warning: no data for reference [r2] on segment [s][d1][3]",
        ]
        assert out.startswith("[s][A] \n\n           Test Matches")
        assert out.endswith("\n\n")
        assert read(tmp_path, "-seg.scr") == "s\tA\td1\t1\t1.0\ns\tA\td1\t3\t0.0\n"
        system_score = float(read(tmp_path, "-sys.scr").split("\t")[2])
        assert read(tmp_path, "-sys.scr") == f"s\tA\t{system_score!r}\n"
        assert read(tmp_path, "-doc.scr") == f"s\tA\td1\t{system_score!r}\n"
        assert 0.0 < system_score < 1.0
        assert not (tmp_path / "o-align.out").exists()

    def test_ss_out_writes_statistics_to_the_files_only(self, tmp_path: Path) -> None:
        _, out, _ = run(tmp_path, TEST_SGM, REF_SGM, "-ssOut")
        assert out == ""
        assert read(tmp_path, "-seg.scr").split("\n")[0].split("\t")[4].split() == (
            "3.0 3.0 1.0 1.0 2.0 2.0 1.0 1.0".split() + ["0.0"] * 12 + ["1.0", "3.0", "3.0"]
        )

    def test_v_out_values_take_part_in_the_sort_key(self, tmp_path: Path) -> None:
        run(tmp_path, TEST_SGM, REF_SGM, "-vOut")
        # The jar's comparator cuts at the last tab, which with -vOut is inside the values.
        assert read(tmp_path, "-sys.scr").count("\t") == 5

    def test_write_alignments_follows_the_segment_file_order(self, tmp_path: Path) -> None:
        run(tmp_path, TEST_SGM, REF_SGM, "-writeAlignments")
        text = read(tmp_path, "-align.out")
        assert text.startswith("Alignment\ts\tA\td1\t1\t1.0\t1.0\t0.0\t1.0\n")
        labels = [line.split("\t")[1:6] for line in text.split("\n") if line.startswith("Align")]
        assert labels == [["s", "A", "d1", "1", "1.0"], ["s", "A", "d1", "3", "NaN"]]
        assert text.endswith("\n\n")

    def test_unwritable_files_are_one_line_errors(self, tmp_path: Path) -> None:
        (tmp_path / "o-align.out").mkdir()
        with pytest.raises(JarConfigError) as caught:
            run(tmp_path, TEST_SGM, REF_SGM, "-writeAlignments")
        assert (
            str(caught.value) == f"Error: cannot write {tmp_path / 'o'}-align.out (Is a directory)"
        )
        assert (tmp_path / "o-seg.scr").is_file()  # the score files come first
        (tmp_path / "o-sys.scr").unlink()
        (tmp_path / "o-sys.scr").mkdir()
        with pytest.raises(JarConfigError) as caught:
            run(tmp_path, TEST_SGM, REF_SGM)
        assert str(caught.value) == f"Error: cannot write {tmp_path / 'o'}-sys.scr (Is a directory)"

    @pytest.mark.parametrize(
        ("test", "ref", "message"),
        [
            (
                TEST_SGM,
                REF_SGM.replace('setid="s"', 'setid="t"'),
                "Error: set [s] is missing from the reference file",
            ),
            (
                TEST_SGM.replace('setid="s"', 'setid="t"'),
                REF_SGM,
                "Error: set [s] is missing from the test file",
            ),
            (
                TEST_SGM,
                '<refset setid="s" refid="r1">\n<doc docid="d1">\n</doc>\n</refset>\n',
                "Error: no segment of document [s][d1] could be scored (the jar crashes here)",
            ),
            (
                TEST_SGM,
                REF_SGM.replace('docid="d1"', 'docid="d9"'),
                "Error: no segment of system [s][A] could be scored (the jar crashes here)",
            ),
        ],
    )
    def test_where_the_jar_crashes(self, tmp_path: Path, test: str, ref: str, message: str) -> None:
        with pytest.raises(JarConfigError) as caught:
            run(tmp_path, test, ref)
        assert str(caught.value) == message
