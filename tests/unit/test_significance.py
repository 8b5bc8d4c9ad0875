"""Intervals and paired tests (meteor_eval.significance): hand-computed cases, the properties
the comparison issue asks for (a system against itself, against a damaged copy, interval
coverage), and resampled totals scored exactly as corpus scores."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval.errors import ConfigError, InputError
from meteor_eval.metrics.bleu import Bleu
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.metrics.rouge import Rouge, RougeConfig
from meteor_eval.significance import (
    Estimate,
    _p_value,
    confidence_interval,
    interval_bounds,
    paired_tests,
    paired_tests_with_scores,
    significance_signature,
)

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "meteor15"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is missing")


@cache
def _meteor() -> Meteor:
    return Meteor(MeteorConfig.preset("meteor15", normalization="norm", modules=("exact", "stem")))


@cache
def _xray(n: int = 400) -> tuple[list[str], list[list[str]]]:
    hyps = (DATA / "xray-system1.hyp").read_text(encoding="utf-8").splitlines()[:n]
    refs = (DATA / "xray-reference").read_text(encoding="utf-8").splitlines()[:n]
    return hyps, [[r] for r in refs]


def _xray_rows(n: int = 400) -> list[tuple[float, ...]]:
    """METEOR's statistics rows of :func:`_xray`."""
    return _meteor().corpus_rows(*_xray(n))


def _damaged(lines: list[str], share: float, seed: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for line in lines:
        words = [w for w in line.split() if rng.random() >= share]
        rng.shuffle(words)
        out.append(" ".join(words) or "x")
    return out


# -- hand-computed -------------------------------------------------------------------------


def test_interval_bounds_are_sacrebleus_order_statistics() -> None:
    scores = np.arange(1000, dtype=float)[::-1].copy()
    assert interval_bounds(scores, 0.95) == (25.0, 974.0)  # n // 40 from each end
    assert interval_bounds(np.arange(100, dtype=float), 0.9) == (5.0, 94.0)
    assert interval_bounds(np.array([3.0]), 0.95) == (3.0, 3.0)


def test_p_value_counts_ties_and_adds_one() -> None:
    stats = np.array([0.0, 1.0, 2.0, 3.0])
    assert _p_value(stats, 2.0) == (2 + 1) / (4 + 1)  # 2 and 3 are >= 2
    assert _p_value(stats, 3.5) == 1 / 5
    assert _p_value(np.zeros(9), 0.0) == 1.0


def test_estimate_half_width_and_significance() -> None:
    estimate = Estimate(0.5, 0.49, 0.4, 0.6, p_value=0.01)
    assert estimate.half_width == pytest.approx(0.1)
    assert estimate.significant() and not estimate.significant(0.005)
    assert not Estimate(0.5, 0.5, 0.4, 0.6).significant()


def test_bootstrap_resamples_are_drawn_as_sacrebleu_draws_them() -> None:
    """Interval of a metric whose score is the sum of one column: recomputed by hand from
    ``default_rng(seed).choice``."""
    bleu = Bleu()
    hyps = ["a b c d", "a b x d", "x y", "a b c d e f"]
    refs = [["a b c d"], ["a b c d"], ["a b"], ["a b c d e"]]
    rows = bleu.corpus_rows(hyps, refs)
    estimate = confidence_interval(bleu, rows, n_samples=50, seed=7)["bleu"]
    draws = np.random.default_rng(7).choice(4, size=(50, 4), replace=True)
    scores = np.array(
        [bleu.score_rows([rows[i] for i in draw], ()).score for draw in draws], dtype=float
    )
    assert estimate.mean == pytest.approx(scores.mean(), rel=1e-12)
    low, high = np.sort(scores)[1], np.sort(scores)[48]  # floor(50 * 0.025) = 1
    assert (estimate.low, estimate.high) == pytest.approx((low, high), rel=1e-12)
    assert estimate.score == bleu.score_rows(rows, ()).score


def test_signature_of_the_test() -> None:
    bleu = Bleu()
    rows = bleu.corpus_rows(["a b c", "a b"], [["a b c"], ["a c"]])
    result = paired_tests(bleu, {"x": rows, "y": rows}, method="ar", n_samples=20, seed=3)
    assert significance_signature(result) == "test:paired-ar|n:20|bs:1000|seed:3|ci:0.95"
    result = paired_tests(bleu, {"x": rows}, method=None, n_samples=40, seed=None)
    assert significance_signature(result) == "test:bootstrap|n:40|seed:none|ci:0.95"


@pytest.mark.parametrize("method", ["bs", "ar", None])
def test_tests_with_known_scores_equal_those_that_score_the_rows(method: str | None) -> None:
    bleu = Bleu()
    hyps = ["a b c d", "a b", "the cat sat", "on the mat today"]
    refs = [["a b c d"], ["a c"], ["the cat sat down"], ["on a mat today"]]
    worse = ["a b", "b", "cat", "mat"]
    rows = {"x": bleu.corpus_rows(hyps, refs), "y": bleu.corpus_rows(worse, refs)}
    options = {"method": method, "n_samples": 40, "seed": 7}
    scored = {name: bleu.values(bleu.score_rows(r, ())) for name, r in rows.items()}
    assert paired_tests_with_scores(bleu, rows, scored, **options) == paired_tests(
        bleu, rows, **options
    )
    # the given scores are the observed ones: nothing scores the rows again
    fake = {"x": {"bleu": 50.0}, "y": {"bleu": 10.0}}
    result = paired_tests_with_scores(bleu, rows, fake, **options)
    assert {name: e["bleu"].score for name, e in result.estimates.items()} == {
        "x": 50.0,
        "y": 10.0,
    }
    with pytest.raises(ConfigError, match="observed: no scores for y"):
        paired_tests_with_scores(bleu, rows, {"x": scored["x"]}, **options)


# -- errors ---------------------------------------------------------------------------------


def test_bad_requests_are_refused() -> None:
    bleu = Bleu()
    rows = bleu.corpus_rows(["a b c", "a b"], [["a b c"], ["a c"]])
    with pytest.raises(InputError, match="different numbers of segments"):
        paired_tests(bleu, {"x": rows, "y": rows[:1]})
    with pytest.raises(ConfigError, match="baseline: 'z'"):
        paired_tests(bleu, {"x": rows, "y": rows}, baseline="z")
    with pytest.raises(ConfigError, match="method"):
        paired_tests(bleu, {"x": rows, "y": rows}, method="t-test")
    with pytest.raises(ConfigError, match="n_samples"):
        paired_tests(bleu, {"x": rows, "y": rows}, n_samples=0)
    with pytest.raises(ConfigError, match="confidence"):
        paired_tests(bleu, {"x": rows, "y": rows}, confidence=1.0)
    with pytest.raises(ConfigError, match="two systems"):
        paired_tests(bleu, {"x": rows}, method="bs")
    with pytest.raises(InputError, match="at least one segment"):
        paired_tests(bleu, {"x": [], "y": []})


# -- resampled totals are scored as corpus scores --------------------------------------------


@needs_data
def test_meteor_resampled_scores_are_corpus_scores_of_the_resample() -> None:
    meteor = _meteor()
    hyps, refs = _xray(120)
    rows = meteor.corpus_rows(hyps, refs)
    draws = np.random.default_rng(5).choice(len(rows), size=(8, len(rows)), replace=True)
    weights = np.stack([np.bincount(d, minlength=len(rows)) for d in draws]).astype(float)
    values = meteor.sample_values(weights @ meteor.sample_matrix(rows))["meteor"]
    for draw, value in zip(draws, values, strict=True):
        # The vectorised formula: the scalar formula's operations, within an ulp.
        assert value == pytest.approx(
            meteor.score_rows([rows[i] for i in draw], ()).score, rel=1e-15
        )


def test_rouge_resamples_are_means_of_segment_scores() -> None:
    rouge = Rouge(RougeConfig(types=("rouge1",)))
    hyps = ["a b c", "a x", "b c d e", "q"]
    refs = [["a b c"], ["a b"], ["b c d"], ["r"]]
    rows = rouge.corpus_rows(hyps, refs)
    segment = [rouge.segment_result(row, 1)["rouge1"].fmeasure for row in rows]
    weights = np.array([[2.0, 0.0, 1.0, 1.0], [0.0, 4.0, 0.0, 0.0]])
    values = rouge.sample_values(weights @ rouge.sample_matrix(rows))["rouge1"]
    expected = [(2 * segment[0] + segment[2] + segment[3]) / 4, segment[1]]
    assert values.tolist() == pytest.approx(expected, rel=1e-12)


# -- the properties of the comparison issue -----------------------------------------------------


@needs_data
@pytest.mark.parametrize("method", ["ar", "bs"])
def test_meteor_system_against_itself_has_p_one(method: str) -> None:
    meteor, rows = _meteor(), _xray_rows()
    result = paired_tests(meteor, {"a": rows, "b": list(rows)}, method=method, n_samples=500)
    assert result.estimates["b"]["meteor"].p_value == 1.0
    assert result.estimates["a"]["meteor"].p_value is None


@needs_data
@pytest.mark.parametrize("method", ["ar", "bs"])
def test_meteor_system_against_a_damaged_copy_is_significant(method: str) -> None:
    meteor, rows = _meteor(), _xray_rows()
    hyps, refs = _xray()
    damaged = meteor.corpus_rows(_damaged(hyps, 0.3, seed=1), refs)
    result = paired_tests(meteor, {"a": rows, "b": damaged}, method=method, n_samples=1000)
    estimate = result.estimates["b"]["meteor"]
    assert estimate.p_value is not None and estimate.p_value < 0.01
    assert estimate.score < result.estimates["a"]["meteor"].score


@needs_data
def test_meteor_interval_covers_the_population_score() -> None:
    """Coverage: intervals from 60 samples of 250 segments drawn from the 2,489 xray segments
    contain the score of all 2,489 in about 95% of cases (binomial: at least 50 of 60 holds
    with probability > 0.999 when the coverage is 0.95)."""
    meteor = _meteor()
    hyps = (DATA / "xray-system1.hyp").read_text(encoding="utf-8").splitlines()
    refs = [[r] for r in (DATA / "xray-reference").read_text(encoding="utf-8").splitlines()]
    rows = meteor.corpus_rows(hyps, refs)
    truth = meteor.score_rows(rows, ()).score
    rng = random.Random(11)
    covered = 0
    for trial in range(60):
        sample = [rows[i] for i in rng.sample(range(len(rows)), 250)]
        estimate = confidence_interval(meteor, sample, n_samples=300, seed=trial)["meteor"]
        covered += estimate.low <= truth <= estimate.high
    assert 50 <= covered <= 60


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.text("abc ", min_size=1, max_size=12), min_size=2, max_size=12),
    st.integers(0, 2**32 - 1),
)
def test_properties_of_paired_tests(hyps: list[str], seed: int) -> None:
    """For any corpus: identical systems get p = 1; results repeat for a seed; a system's
    intervals do not depend on which other systems are compared; p in (0, 1]."""
    bleu = Bleu()
    refs = [["a b c a b"] for _ in hyps]
    rows = bleu.corpus_rows(hyps, refs)
    other = bleu.corpus_rows([h[::-1] for h in hyps], refs)
    first = paired_tests(bleu, {"x": rows, "y": rows, "z": other}, n_samples=40, seed=seed)
    again = paired_tests(bleu, {"x": rows, "z": other}, n_samples=40, seed=seed)
    assert first.estimates["y"]["bleu"].p_value == 1.0
    assert first.estimates["z"] == again.estimates["z"]
    p = first.estimates["z"]["bleu"].p_value
    assert p is not None and 0.0 < p <= 1.0
    estimate = first.estimates["x"]["bleu"]
    # Order statistics: the bounds are ordered. The resamples' mean may fall outside them (one
    # resample of BLEU 0 among 40 can pull the mean under the second smallest score), so it is
    # not asserted; sacrebleu's intervals behave the same way.
    assert estimate.low <= estimate.high


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"smooth_method": "none"},
        {"smooth_method": "floor", "smooth_value": 0.1},
        {"smooth_method": "add-k", "smooth_value": 1},
        {"effective_order": True},
        {"smooth_method": "none", "effective_order": True},
    ],
)
def test_bleu_resampled_scores_are_the_scalar_formula(options: dict[str, object]) -> None:
    """Vectorised BLEU = :func:`score_from_stats` within an ulp, for every smoothing, with zero
    counts, zero totals and short hypotheses."""
    from meteor_eval.metrics.bleu import BleuConfig, bleu_of_totals, score_from_stats
    from meteor_eval.stats.bleu import BleuStats

    rng = random.Random(7)
    config = BleuConfig(**options)  # type: ignore[arg-type]
    rows = []
    for _ in range(2000):
        totals = [rng.choice([0, rng.randrange(0, 40)]) for _ in range(4)]
        counts = [rng.randrange(0, t + 1) for t in totals]
        rows.append([rng.randrange(0, 50), rng.randrange(0, 50), *counts, *totals])
    values = bleu_of_totals(np.asarray(rows, dtype=float), config)
    for row, value in zip(rows, values, strict=True):
        stats = BleuStats(row[0], row[1], tuple(row[2:6]), tuple(row[6:10]))
        assert value == pytest.approx(score_from_stats(stats, config)[0], rel=1e-15, abs=1e-300)


def test_a_comparisons_tests_take_its_runs_scores(monkeypatch: pytest.MonkeyPatch) -> None:
    from meteor_eval.comparison import compare

    systems = {"x": ["a b c d", "the cat sat"], "y": ["a b", "cat"]}
    refs = [["a b c d e"], ["the cat sat down"]]
    expected = compare(systems, refs, metrics=["bleu"], paired="bs", n_samples=40).tests["bleu"]
    result = compare(systems, refs, metrics=["bleu"])

    def scored_again(*args: object, **kwargs: object) -> None:
        raise AssertionError("the rows were scored again")

    monkeypatch.setattr(Bleu, "score_rows", scored_again)
    result.test(method="bs", n_samples=40)
    assert result.tests["bleu"] == expected


def test_a_comparisons_tests_are_of_its_own_metrics() -> None:
    """``ComparisonResult.test(metrics=[...])``: a metric of the same class and settings is one
    of the comparison's (its runs' scores are its own); another is refused, before any metric
    is tested, rather than reported with the runs' scores beside its own resamples, and the
    refusal's advice gives that metric's numbers: over the runs' rows when only its formula
    settings differ, else from the text scored again."""
    from meteor_eval.comparison import compare

    systems = {"x": ["a b c d", "the cat sat", "The Dog ran"], "y": ["a b", "cat", "a dog ran"]}
    refs = [["a b c d e"], ["the cat sat down"], ["the dog ran"]]
    expected = compare(systems, refs, metrics=["bleu"], paired="bs", n_samples=40).tests["bleu"]
    result = compare(systems, refs, metrics=["bleu"])
    result.test(metrics=[Bleu()], method="bs", n_samples=40)
    assert result.tests["bleu"] == expected

    result = compare(systems, refs, metrics=["bleu", "rouge"])
    smoothed = Bleu().with_options(smooth_method="add-k", smooth_value=5)
    with pytest.raises(
        ValueError,
        match="other smooth_method, smooth_value did not make.*"
        r"paired_tests\(metric, rows\)",
    ):
        result.test(metrics=[Rouge(), smoothed], method="bs", n_samples=40)
    assert result.tests == {}
    rows = {name: result.runs[name]["bleu"].rows for name in result.names}
    again = compare(systems, refs, metrics=[smoothed], paired="bs", n_samples=40)
    assert paired_tests(smoothed, rows, n_samples=40) == again.tests["bleu"]

    cased = Bleu().with_options(lowercase=True)
    with pytest.raises(ValueError, match=r"other lowercase did not make.*score the text"):
        result.test(metrics=[cased])
    assert (
        paired_tests(cased, rows, n_samples=40)
        != compare(systems, refs, metrics=[cased], paired="bs", n_samples=40).tests["bleu"]
    )
    with pytest.raises(ValueError, match=r"meteor is not one of this comparison's \(bleu, rouge\)"):
        result.test(metrics=[Meteor()])
    result.test(metrics=[])  # none chosen: none tested
    assert result.tests == {}
    with pytest.raises(
        ValueError, match=r"'meteor' is not one of this comparison's \(bleu, rouge\)"
    ):
        result.test(metrics=["bleu", "meteor"])
    assert result.tests == {}
    with pytest.raises(TypeError, match="bare string 'bleu'"):
        result.test(metrics="bleu")
    with pytest.raises(TypeError, match="bare string 'bleu'"):
        compare(systems, refs, metrics="bleu")  # type: ignore[arg-type]
    result.test(metrics=["bleu"], method="bs", n_samples=40)  # by name
    assert result.tests == {"bleu": expected}


def test_a_comparison_with_some_metrics_tested_renders() -> None:
    """``to_dict`` of a comparison whose ``test(metrics=[...])`` left a metric out: the tested
    metric has its interval, the other its scores alone."""
    from meteor_eval.comparison import compare

    systems = {"x": ["a b c d", "the cat sat"], "y": ["a b", "cat"]}
    refs = [["a b c d e"], ["the cat sat down"]]
    result = compare(systems, refs, metrics=["bleu", "rouge"])
    result.test(metrics=[Bleu()], method="bs", n_samples=40)
    system = result.to_dict()["systems"][0]
    assert "ci" in system["bleu"]
    assert "ci" not in system["rouge1"]
