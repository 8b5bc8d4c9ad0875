"""Long documents score as the METEOR 1.5 jar scores them (issue 25): no token limit, memory
linear in the candidate matches.

A document is the first N lines of the xray data joined by spaces into one line. Goldens:
``golden/meteor15/longdoc.json``, made by ``scripts/make_longdoc_stats_golden.py`` with
``java -Xmx8g -jar meteor-1.5.jar DOC.hyp DOC.ref -l en -norm [-ssOut]`` (pycocoevalcap 1.2's
jar, OpenJDK 17; the jar needs 5 to 7 GB for 130 lines, about 2,500 tokens a side, and its
default 2 GB heap is not enough).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meteor_eval.javafmt import java_double
from meteor_eval.metrics.meteor import Meteor, MeteorConfig

GOLDEN = json.loads(
    (Path(__file__).parent / "golden" / "meteor15" / "longdoc.json").read_text(encoding="utf-8")
)


def _document(data: Path, name: str, lines: int) -> str:
    return " ".join((data / name).read_text(encoding="utf-8").split("\n")[:lines])


@pytest.fixture(scope="module")
def scorer() -> Meteor:
    return Meteor(MeteorConfig.preset("meteor15", normalization="norm"))


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_long_document_equals_the_jar(name: str, meteor_data: Path, scorer: Meteor) -> None:
    golden = GOLDEN[name]
    hyp = _document(meteor_data, "xray-system1.hyp", golden["lines"])
    ref = _document(meteor_data, "xray-reference", golden["lines"])
    assert len(scorer.tokenize(hyp)) > 2_000  # longer than the old token limit
    stats = scorer.best_stats(hyp, [ref])
    assert list(stats.to_row()) == golden["stats"]
    assert java_double(scorer.segment_score(hyp, [ref]).score) == golden["score"]
    # The batch path (one compiled call for many pairs) gives the same row.
    rows = scorer.segment_rows([(hyp, [ref]), ("a", ["a"])])
    assert list(rows[0]) == golden["stats"]
