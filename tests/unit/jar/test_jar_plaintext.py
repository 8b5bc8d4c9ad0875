"""Plaintext mode of the jar: reference groups (-r), output per option, alignment file, errors."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from meteor_eval.jar.config import JarConfigError, resolve_settings
from meteor_eval.jar.options import parse_jar_args
from meteor_eval.jar.plaintext import run_plaintext
from meteor_eval.metrics.meteor import Meteor

PERFECT_ROW = "2.0 2.0 1.0 1.0 1.0 1.0 1.0 1.0 " + "0.0 " * 12 + "1.0 2.0 2.0"


class SpyMeteor(Meteor):
    """A real scorer that records the references it was given for each hypothesis."""

    calls: list[tuple[str, list[str]]]

    def segment_stats(self, hypothesis: str, references: Sequence[str]) -> Any:
        self.calls.append((hypothesis, list(references)))
        return super().segment_stats(hypothesis, references)


def run(tmp_path: Path, hyps: str, refs: str, *options: str) -> tuple[int, str, str, SpyMeteor]:
    (tmp_path / "h.txt").write_text(hyps, encoding="utf-8")
    (tmp_path / "r.txt").write_text(refs, encoding="utf-8")
    parsed = parse_jar_args([str(tmp_path / "h.txt"), str(tmp_path / "r.txt"), *options])
    settings = resolve_settings(parsed)
    meteor = SpyMeteor(settings.meteor_config())
    meteor.calls = []
    out, err = io.StringIO(), io.StringIO()
    status = run_plaintext(meteor, parsed, out=out, err=err)
    return status, out.getvalue(), err.getvalue(), meteor


def test_segment_lines_then_the_system_block(tmp_path: Path) -> None:
    status, out, err, _ = run(tmp_path, "the cat\ndog\n", "the cat\nthe cat\n", "-m", "exact")
    assert (status, err) == (0, "")
    assert out.startswith(
        "Segment 1 score:\t1.0\nSegment 2 score:\t0.0\n\nSystem level statistics:\n"
    )
    assert "Test words:             3\n" in out
    assert "Reference words:        4\n" in out


def test_ss_out_prints_statistics_only(tmp_path: Path) -> None:
    _, out, err, _ = run(tmp_path, "the cat\n", "the cat\n", "-m", "exact", "-ssOut")
    assert (out, err) == (PERFECT_ROW + "\n", "")


def test_ss_out_with_no_segment_prints_nothing(tmp_path: Path) -> None:
    assert run(tmp_path, "", "", "-m", "exact", "-ssOut")[:3] == (0, "", "")


def test_v_out_prints_precision_recall_penalty_score(tmp_path: Path) -> None:
    _, out, _, _ = run(tmp_path, "the cat\n", "the cat\n", "-m", "exact", "-vOut")
    assert out.startswith("Segment 1 score:\t1.0\t1.0\t0.0\t1.0\n\nSystem level statistics:")


def test_quiet_puts_segments_on_stderr_and_the_bare_score_on_stdout(tmp_path: Path) -> None:
    _, out, err, _ = run(tmp_path, "the cat\ndog\n", "the cat\nthe cat\n", "-m", "exact", "-q")
    assert err == "1.0\n0.0\n"
    assert len(out.splitlines()) == 1
    assert 0.0 < float(out) < 1.0


def test_ref_count_groups_consecutive_reference_lines(tmp_path: Path) -> None:
    refs = "a b\nthe cat\nc d\ne f\n"
    _, _, _, meteor = run(tmp_path, "the cat\nx\n", refs, "-m", "exact", "-r", "2")
    assert meteor.calls == [("the cat", ["a b", "the cat"]), ("x", ["c d", "e f"])]


def test_length_mismatch_prints_the_jar_message_and_exits_zero(tmp_path: Path) -> None:
    status, out, err, meteor = run(tmp_path, "a\nb\n", "a\nb\nc\n", "-m", "exact")
    assert (status, out, err) == (0, "", "Error: test and reference not same length\n")
    assert meteor.calls == []


def test_short_last_group_reads_null_under_norm(tmp_path: Path) -> None:
    _, _, _, meteor = run(tmp_path, "a\nb\n", "a\nx\nb\n", "-m", "exact", "-r", "2", "-norm")
    assert meteor.calls[1] == ("b", ["b", "null"])


def test_short_last_group_without_norm_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(JarConfigError) as caught:
        run(tmp_path, "a\nb\n", "a\nx\nb\n", "-m", "exact", "-r", "2")
    assert str(caught.value) == (
        "Error: the reference file ends inside the group of segment 2 (-r 2);"
        " the jar crashes here without -norm"
    )


@pytest.mark.parametrize("count", ["0", "-3"])
def test_non_positive_ref_count_pairs_lines_without_checking_counts(
    tmp_path: Path, count: str
) -> None:
    _, _, _, meteor = run(tmp_path, "a\nb\n", "a\nb\nc\n", "-m", "exact", "-r", count)
    assert meteor.calls == [("a", ["a"]), ("b", ["b"])]


def test_non_positive_ref_count_with_too_few_references_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(JarConfigError) as caught:
        run(tmp_path, "a\nb\n", "a\n", "-m", "exact", "-r", "0")
    assert str(caught.value) == "Error: 2 test lines but only 1 references (-r 0)"


def test_bad_ref_count_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(JarConfigError, match='-r needs an integer, got "two"'):
        run(tmp_path, "a\n", "a\n", "-r", "two")


def test_no_segment_is_an_error_without_ss_out(tmp_path: Path) -> None:
    with pytest.raises(JarConfigError) as caught:
        run(tmp_path, "", "", "-m", "exact")
    assert str(caught.value) == "Error: no segments to score (the jar crashes on empty input)"


def test_write_alignments_writes_one_record_per_segment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    run(tmp_path, "the cat\ndog\n", "the cat\nthe cat\n", "-m", "exact", "-writeAlignments")
    text = (tmp_path / "meteor-align.out").read_text(encoding="utf-8")
    assert text.startswith("Alignment\t1\t1.0\t1.0\t0.0\t1.0\nthe cat\nthe cat\n")
    assert "\nAlignment\t2\t0.0\t0.0\t" in text
    assert text.endswith("\n\n")


def test_unwritable_alignment_file_is_an_error(tmp_path: Path) -> None:
    prefix = str(tmp_path / "missing-dir" / "p")
    with pytest.raises(JarConfigError, match=r"^Error: cannot write .*p-align\.out \("):
        run(tmp_path, "a\n", "a\n", "-m", "exact", "-writeAlignments", "-f", prefix)
