"""With the paraphrase module, scores and chosen alignments equal the official METEOR 1.5 jar's.

Golden files (``golden/paraphrase``, commands in its README) come from ``meteor-1.5.jar`` with the
English table shipped in pycocoevalcap. The inputs are the xray data of ``../shared/data/meteor15``.
Scores are compared as the jar prints them (Java ``Double.toString``), i.e. exactly; alignments
match line for line (spec section 6.3: ``refStart:len  hypStart:len  stage  1.0``).

The tests skip when no English paraphrase table is installed. The first run builds the table's
index in the cache folder (about 1.5 minutes, once per machine).
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from meteor_eval.errors import ResourceError
from meteor_eval.io import read_lines
from meteor_eval.javafmt import java_double
from meteor_eval.match.base import Match
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.resources.paraphrases import find_paraphrase_table

_SEGMENT = re.compile(r"^Segment (\d+) score:\t(\S+)$", re.M)
_FINAL = re.compile(r"^Final score:\s+(\S+)$", re.M)
_MATCH = re.compile(r"^(\d+):(\d+)\t+(\d+):(\d+)\t+(\d+)\t+1\.0$")

# Segments of the fast subset; the slow tests score all 2,489.
FAST_SEGMENTS = 150


@pytest.fixture(scope="module")
def meteor() -> Meteor:
    try:
        find_paraphrase_table("en")
    except ResourceError:
        pytest.skip("no English paraphrase table installed")
    return Meteor(MeteorConfig.preset("meteor15", normalization="norm"))


def jar_scores(golden_dir: Path, name: str) -> tuple[list[str], str]:
    text = gzip.decompress((golden_dir / "paraphrase" / name).read_bytes()).decode("utf-8")
    segments = [m.group(2) for m in _SEGMENT.finditer(text)]
    final = _FINAL.search(text)
    if final is None:
        raise AssertionError(f"{name} has no final score")
    return segments, final.group(1)


def jar_alignments(golden_dir: Path) -> list[list[Match]]:
    """Chosen matches per segment from the jar's alignment file."""
    raw = (golden_dir / "paraphrase" / "xray-system1.en-norm-align.out.gz").read_bytes()
    out: list[list[Match]] = []
    for line in gzip.decompress(raw).decode("utf-8").split("\n"):
        if line.startswith("Alignment\t"):
            out.append([])
            continue
        found = _MATCH.match(line)
        if found:
            ref_start, ref_len, hyp_start, hyp_len, stage = map(int, found.groups())
            out[-1].append(Match(ref_start, ref_len, hyp_start, hyp_len, stage))
    return out


def inputs(meteor_data: Path, system: str) -> tuple[list[str], list[str]]:
    hyps = read_lines(str(meteor_data / f"{system}.hyp"))
    refs = read_lines(str(meteor_data / "xray-reference"))
    return hyps, refs


def test_golden_files_are_complete(golden_dir: Path) -> None:
    for name in ("xray-system1.en-norm.out.gz", "xray-system2.en-norm.out.gz"):
        segments, _ = jar_scores(golden_dir, name)
        assert len(segments) == 2489
    alignments = jar_alignments(golden_dir)
    assert len(alignments) == 2489
    # The paraphrase module (stage 3) is chosen somewhere, e.g. "us" -> "the american" (seg 2).
    assert Match(1, 1, 0, 1, 3) in alignments[1]
    assert sum(m.stage == 3 for seg in alignments for m in seg) > 1000


def test_segment_scores_subset(meteor: Meteor, meteor_data: Path, golden_dir: Path) -> None:
    hyps, refs = inputs(meteor_data, "xray-system1")
    expected, _ = jar_scores(golden_dir, "xray-system1.en-norm.out.gz")
    got = [
        java_double(meteor.segment_score(h, [r]).score)
        for h, r in zip(hyps[:FAST_SEGMENTS], refs[:FAST_SEGMENTS], strict=True)
    ]
    assert got == expected[:FAST_SEGMENTS]


def test_alignments_subset(meteor: Meteor, meteor_data: Path, golden_dir: Path) -> None:
    hyps, refs = inputs(meteor_data, "xray-system1")
    expected = jar_alignments(golden_dir)[:FAST_SEGMENTS]
    for index, (h, r) in enumerate(zip(hyps[:FAST_SEGMENTS], refs[:FAST_SEGMENTS], strict=True)):
        alignment = meteor.segment_score(h, [r], alignment=True).alignment
        assert alignment is not None
        assert list(alignment.matches) == expected[index], f"segment {index + 1}"


@pytest.mark.slow
@pytest.mark.parametrize("system", ["xray-system1", "xray-system2"])
def test_all_segment_scores_and_final_score(
    meteor: Meteor, meteor_data: Path, golden_dir: Path, system: str
) -> None:
    hyps, refs = inputs(meteor_data, system)
    expected, final = jar_scores(golden_dir, f"{system}.en-norm.out.gz")
    score = meteor.corpus_score(hyps, [[r] for r in refs], segments=True)
    assert [java_double(s.score) for s in score.segments] == expected
    assert java_double(score.score) == final


@pytest.mark.slow
def test_all_alignments(meteor: Meteor, meteor_data: Path, golden_dir: Path) -> None:
    hyps, refs = inputs(meteor_data, "xray-system1")
    expected = jar_alignments(golden_dir)
    got = []
    for h, r in zip(hyps, refs, strict=True):
        alignment = meteor.segment_score(h, [r], alignment=True).alignment
        assert alignment is not None
        got.append(list(alignment.matches))
    assert got == expected
