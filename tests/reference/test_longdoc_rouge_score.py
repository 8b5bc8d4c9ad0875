"""The rouge-score drop-in scores long natural documents as rouge-score does (no refusal for
their length): goldens made by ``scripts/make_longdoc_rouge_golden.py`` with rouge-score 0.1.2
(``RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"]).score(REF, HYP)``). The document
of about 10,000 tokens is marked ``slow`` (ROUGE-L's table has 100 million cells)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meteor_eval.compat.rouge_score import rouge_scorer

ROOT = Path(__file__).resolve().parents[1]
GOLDEN_FILE = ROOT / "reference" / "golden" / "longdoc" / "rouge_score.json"
DATA = ROOT.parents[1] / "shared" / "data" / "meteor15"
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
CASES = json.loads(GOLDEN_FILE.read_text(encoding="utf-8"))["cases"]


def lines(name: str, n_lines: int) -> list[str]:
    text = (DATA / name).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines()[:n_lines]]


@pytest.mark.skipif(not DATA.is_dir(), reason="the shared xray data is not present")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(
            c,
            id=f"{c['hyp_tokens']}-tokens",
            marks=[pytest.mark.slow] if c["hyp_tokens"] > 5_000 else [],
        )
        for c in CASES
    ],
)
def test_long_document_equals_rouge_score(case: dict[str, object]) -> None:
    n = int(str(case["lines"]))
    hyp, ref = lines("xray-system1.hyp", n), lines("xray-reference", n)
    scorer = rouge_scorer.RougeScorer(TYPES)
    flat = scorer.score(" ".join(ref), " ".join(hyp))
    summary = scorer.score("\n".join(ref), "\n".join(hyp))
    expected = case["scores"]
    assert isinstance(expected, dict)
    for rouge_type in TYPES:
        s = (summary if rouge_type == "rougeLsum" else flat)[rouge_type]
        assert [repr(s.precision), repr(s.recall), repr(s.fmeasure)] == expected[rouge_type]
