"""BLEU intervals and paired tests against sacrebleu 2.6.0's ``PairedTest``.

Goldens in golden/significance/sacrebleu.json (made by scripts/make_significance_golden.py:
xray system1 as baseline, system2, a near copy and an exact copy; seed 12345; ``bs`` 1000
resamples, ``ar`` 10000 trials with 1000 bootstrap resamples for intervals). With sacrebleu
installed the same comparison also runs live.

Where the two differ, by design:

* sacrebleu counts resampled statistics strictly greater than the observed one; meteor-eval
  counts ties too, so an exact copy of the baseline gets p = 1 (sacrebleu: the minimum p-value,
  which would call two identical systems significantly different);
* sacrebleu scores resamples from float32 sums, meteor-eval from exact integer sums: means and
  half-widths agree to about 1e-6 BLEU points, not bit for bit.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from make_significance_golden import sacrebleu_paired, systems

from meteor_eval.metrics.bleu import Bleu
from meteor_eval.significance import SignificanceResult, paired_tests

GOLDEN = Path(__file__).parent / "golden" / "significance" / "sacrebleu.json"

pytestmark = pytest.mark.skipif(
    not (Path(__file__).resolve().parents[3] / "shared" / "data").is_dir(),
    reason="../shared/data is not beside the repository",
)


@cache
def _golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


@cache
def _ours(method: str) -> SignificanceResult:
    named, ref = systems()
    bleu = Bleu()
    rows = {name: bleu.corpus_rows(hyps, [[r] for r in ref]) for name, hyps in named.items()}
    return paired_tests(bleu, rows, method=method, seed=12345)


def _check(method: str, expected: dict[str, dict[str, Any]]) -> None:
    ours = _ours(method)
    for name, want in expected.items():
        got = ours.estimates[name]["bleu"]
        assert got.score == want["score"]
        assert got.mean == pytest.approx(want["mean"], abs=1e-5)
        assert got.half_width == pytest.approx(want["ci"], abs=1e-5)
        if name == "copy":
            # Ties counted: the exact copy is not significantly different (sacrebleu: min p).
            assert got.p_value == 1.0
            assert want["p_value"] == pytest.approx(1 / (ours.n_samples + 1))
        elif want["p_value"] is None:
            assert got.p_value is None
        else:
            assert got.p_value == want["p_value"]


@pytest.mark.parametrize("method", ["bs", "ar"])
def test_bleu_significance_equals_sacrebleu_golden(method: str) -> None:
    _check(method, _golden()["tests"][method]["systems"])


@pytest.mark.parametrize("method", ["bs", "ar"])
def test_near_copy_is_not_at_the_minimum_p_value(method: str) -> None:
    """The near copy exercises the counting itself (p well above 1/(n+1), below 0.1)."""
    p = _ours(method).estimates["near"]["bleu"].p_value
    assert p is not None and 0.01 < p < 0.1


@pytest.mark.oracle
@pytest.mark.parametrize("method", ["bs", "ar"])
def test_bleu_significance_equals_live_sacrebleu(method: str) -> None:
    pytest.importorskip("sacrebleu")
    _, expected = sacrebleu_paired(method)
    _check(method, expected)
