"""The METEOR 1.5 spec's edge cases E1-E45 (section 8) against the jar's own outputs.

The golden file ``golden/meteor15/edge_cases.json`` was made by ``scripts/make_edge_golden.py``:
the jar (pycocoevalcap 1.2, OpenJDK 17) run on the 45 cases as one plaintext file, with
``-l en -m "exact stem synonym"`` and each of ``-norm``, no flag, ``-lower``, with and without
``-ssOut``. Every statistics line, segment score and the system score must be identical.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from meteor_eval.javafmt import java_double
from meteor_eval.metrics.meteor import Meteor, MeteorConfig

MODES = {"norm": "norm", "none": "none", "lower": "lower"}


def _load(golden_dir: Path) -> dict[str, Any]:
    return json.loads((golden_dir / "meteor15" / "edge_cases.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def golden(golden_dir: Path) -> dict[str, Any]:
    return _load(golden_dir)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_edge_cases_match_the_jar(mode: str, golden: dict[str, Any]) -> None:
    config = MeteorConfig.preset(
        "meteor15",
        normalization=MODES[mode],
        modules=("exact", "stem", "synonym"),  # type: ignore[arg-type]
    )
    scorer = Meteor(config)
    cases = golden["cases"]
    result = scorer.corpus_score(
        [c["hypothesis"] for c in cases], [[c["reference"]] for c in cases], segments=True
    )
    mismatches = []
    for case, seg in zip(cases, result.segments, strict=True):
        row = " ".join(java_double(float(x)) for x in seg.stats.to_row())
        if row != case[f"stats_{mode}"] or java_double(seg.score) != case[f"score_{mode}"]:
            mismatches.append(
                (case["id"], row, case[f"stats_{mode}"], seg.score, case[f"score_{mode}"])
            )
    assert mismatches == []
    assert java_double(result.score) == cases[0][f"system_{mode}"]


def test_no_score_is_nan(golden: dict[str, Any]) -> None:
    scorer = Meteor(MeteorConfig.preset("meteor15", normalization="norm", modules=("exact",)))
    for case in golden["cases"]:
        score = scorer.segment_score(case["hypothesis"], [case["reference"]])
        for value in (score.score, score.precision, score.recall, score.fmean, score.penalty):
            assert value == value  # not NaN
        assert 0.0 <= score.score <= 1.0
