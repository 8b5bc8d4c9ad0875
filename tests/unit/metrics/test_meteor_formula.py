"""The METEOR formula, written once: Fmean, the fragmentation penalty and the JVM power."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from fakes import formula_score, run_fresh
from meteor_eval.metrics.meteor import MeteorConfig
from meteor_eval.metrics.meteor.formula import (
    components,
    fragmentation_counts,
    fragmentation_penalty,
    fragmentation_power,
    fragmentation_powers,
    jar_fmean,
    nltk_components,
    nltk_fmean,
    score_from_stats,
    scores_of_totals,
)
from meteor_eval.stats.meteor import MeteorStats

# Six words, all matched exactly in one chunk (no function words): NLTK's identical pair.
SIX = MeteorStats(6, 6, 0, 0, ((6, 6, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0)), 1, 6, 6)


def test_both_fmean_orders_give_the_harmonic_mean() -> None:
    # 1 / (0.1 / 0.5 + 0.9 / 1) = 1 / 1.1
    assert jar_fmean(0.5, 1.0, 0.9) == pytest.approx(1 / 1.1, abs=1e-16)
    assert nltk_fmean(0.5, 1.0, 0.9) == pytest.approx(1 / 1.1, abs=1e-16)


def test_fmean_of_nothing_follows_ieee_for_the_jar_and_raises_for_nltk() -> None:
    assert jar_fmean(0.0, 0.0, 0.9) == 0.0  # 1 / (0.1/0 + 0.9/0) = 1 / inf
    assert math.isnan(jar_fmean(math.nan, math.nan, 0.9))  # an empty side: 0/0 upstream
    with pytest.raises(ZeroDivisionError):
        nltk_fmean(0.0, 0.0, 0.9)


def test_penalty_is_gamma_times_fragmentation_to_the_beta() -> None:
    assert fragmentation_penalty(0.5, beta=3.0, gamma=0.5) == 0.0625
    assert fragmentation_penalty(0.0, beta=0.0, gamma=0.6) == 0.6  # Math.pow(x, 0) = 1
    assert math.isnan(fragmentation_penalty(math.nan, beta=3.0, gamma=0.5))


def test_jvm_power_applies_the_table_of_the_jars_differences() -> None:
    # (S=47, K=6) at beta 0.2 is listed: the JVM's Math.pow is one ulp above Python's.
    python = math.pow(6 / (47 / 2.0), 0.2)
    jvm = fragmentation_power(6, 47, 0.2, jvm=True)
    assert jvm == math.nextafter(python, math.inf)
    assert fragmentation_power(6, 47, 0.2) == python
    assert fragmentation_penalty(6 / 23.5, beta=0.2, gamma=0.6, jvm_counts=(6, 47)) == 0.6 * jvm
    # Not listed: the correctly rounded value.
    assert fragmentation_power(1, 2, 0.2, jvm=True) == 1.0


def test_jvm_power_corrections_are_indexed_per_exponent_as_the_whole_table() -> None:
    """jvm_pow_correction (one exponent's part of the file parsed alone, indexed on first use)
    answers every listed case as the whole table (one parse of the whole file) does, 0 for
    unlisted cases, exponents and S beyond the bound."""
    from meteor_eval.resources import jvm_pow
    from meteor_eval.resources.jvm_pow import jvm_pow_correction, jvm_pow_differences

    max_s, table = jvm_pow_differences()
    assert max_s == 1000 and len(table) == 72
    assert jvm_pow._max_s() == max_s
    assert all(jvm_pow._listed(beta) == jvm_pow._payload()[1][beta] for beta in table)
    assert sum(len(cases) for cases in table.values()) == 18779
    for beta, cases in table.items():
        assert all(ulps != 0 for ulps in cases.values())
        for (s, k), ulps in cases.items():
            assert jvm_pow_correction(beta, s, k) == ulps
    assert table[0.2][(47, 6)] == 1
    assert jvm_pow_correction(0.2, 2, 1) == 0
    assert jvm_pow_correction(0.123, 47, 6) == 0
    assert jvm_pow_correction(0.2, max_s + 1, 6) == 0


def test_jvm_power_table_read_by_many_threads_at_once_in_a_new_process() -> None:
    """The table is inflated in steps by one object a process shares: threads reading different
    exponents at once, each on its first read, get the lists the whole-table parse gives. Each
    thread asks for the exponents in its own order, with a switch interval of a microsecond, so
    that without the reader's lock the steps interleave (seen: wrong lists, ``zlib.error``)."""
    code = """
import sys, threading
sys.setswitchinterval(1e-6)
from meteor_eval.resources import jvm_pow
betas = [0.05, 0.1, 0.2, 0.5, 1.0, 1.3, 1.5, 2.0]
got = {}
start = threading.Barrier(8)
def read(i):
    start.wait()
    for beta in betas[i:] + betas[:i]:
        got[i, beta] = jvm_pow._listed(beta)
threads = [threading.Thread(target=read, args=(i,)) for i in range(8)]
for t in threads: t.start()
for t in threads: t.join()
whole = jvm_pow._payload()[1]
bad = [(i, b) for (i, b), listed in got.items() if listed != whole.get(b)]
print(len(got), bad)
"""
    for _ in range(3):
        assert run_fresh(code).stdout.split(maxsplit=1) == ["64", "[]\n"]


def test_identical_pair_keeps_its_one_chunk_penalty_in_nltk_and_paper2005() -> None:
    nltk = nltk_components(SIX)
    # penalty 0.5 * (1/6) ** 3, Fmean 1
    assert nltk.penalty == pytest.approx(0.5 / 216, abs=1e-17)
    assert nltk.score == pytest.approx(1 - 0.5 / 216, abs=1e-16)
    paper = score_from_stats(SIX, MeteorConfig.preset("paper2005"))
    assert paper.score == pytest.approx(nltk.score, abs=1e-15)
    assert paper.fragmentation == nltk.fragmentation == 1 / 6


def test_meteor15_has_no_penalty_for_a_perfect_match() -> None:
    config = MeteorConfig.preset("meteor15", modules=("exact", "stem", "synonym"))
    assert score_from_stats(SIX, config).score == 1.0


def test_nltk_flavour_scores_with_nltks_formula() -> None:
    stats = MeteorStats(4, 5, 0, 0, ((2, 2, 0, 0), (1, 1, 0, 0), (0, 0, 0, 0)), 2, 3, 3)
    config = MeteorConfig.preset("nltk")
    assert score_from_stats(stats, config) == nltk_components(stats)
    # P = 3/4, R = 3/5, Fmean = PR / (0.9 P + 0.1 R), penalty 0.5 * (2/3) ** 3
    fmean = 0.45 / (0.675 + 0.06)
    assert nltk_components(stats).score == pytest.approx((1 - 0.5 * (2 / 3) ** 3) * fmean)


def test_empty_statistics_score_zero_never_nan() -> None:
    empty = MeteorStats.zero(3)
    assert nltk_components(empty).score == 0.0
    jar = components(
        empty, alpha=0.85, beta=0.2, gamma=0.6, delta=0.75, weights=(1.0, 0.6, 0.8), jvm_pow=True
    )
    assert jar.score == 0.0
    assert math.isnan(jar.precision)


@pytest.mark.parametrize(
    "config",
    [
        MeteorConfig.preset("meteor15"),
        MeteorConfig.preset("meteor15", modules=("exact", "stem"), delta=0.5, beta=3.0),
        MeteorConfig.preset("paper2005"),
    ],
    ids=["meteor15", "meteor15-two-stages", "paper2005"],
)
def test_vectorised_scores_are_the_scalar_formula(config: MeteorConfig) -> None:
    """:func:`scores_of_totals` = :func:`components` within an ulp, with empty, perfect and
    pooled-size rows (resampled corpora are scored this way)."""
    rng = random.Random(11)
    n_stages = len(config.modules)
    perfect = MeteorStats(6, 6, 0, 0, ((6, 6, 0, 0),) + ((0, 0, 0, 0),) * (n_stages - 1), 1, 6, 6)
    records = [MeteorStats.zero(n_stages), perfect]
    for _ in range(1500):
        stages = []
        for _ in range(n_stages):
            content, function = rng.randrange(0, 30), rng.randrange(0, 10)
            stages.append((content, content, function, function))
        matched = sum(s[0] + s[2] for s in stages)
        extra = rng.choice([0, 0, rng.randrange(1, 2000)])
        chunks = min(matched, rng.randrange(1, 40)) if matched else 0
        hyp_fn = sum(s[2] for s in stages) + rng.randrange(0, 3)
        records.append(
            MeteorStats(
                matched + extra,
                matched + extra // 2,
                hyp_fn,
                hyp_fn,
                tuple(stages),
                chunks,
                matched,
                matched,
            )
        )
    rows = np.asarray([r.to_row() for r in records], dtype=float)
    values = scores_of_totals(rows, config)
    for record, value in zip(records, values, strict=True):
        expected = formula_score(
            record, config, zero_penalty_if_perfect=config.zero_penalty_if_perfect
        )
        assert value == pytest.approx(expected, rel=1e-15, abs=1e-300)
    assert values[0] == 0.0
    assert values[1] == (1.0 if config.flavour == "meteor15" else pytest.approx(0.9977, abs=1e-4))


def test_vectorised_perfect_rule_reads_every_stage_as_the_scalar_formula() -> None:
    # a perfect segment whose matches stand in a stage past the configuration's weights: the
    # rule (every unit of both sides matched, one chunk) counts every stage in both twins
    config = MeteorConfig.preset("meteor15", modules=("exact",))
    record = MeteorStats(6, 6, 0, 0, ((3, 3, 0, 0), (3, 3, 0, 0)), 1, 6, 6)
    assert record.is_perfect
    (value,) = scores_of_totals(np.asarray([record.to_row()], dtype=float), config)
    scalar = score_from_stats(record, config)
    assert scalar.fragmentation == 0.0
    assert value == scalar.score == 0.5  # half the units weighted: Fmean 0.5, no penalty


def test_fragmentation_counts_use_the_one_perfect_rule() -> None:
    perfect = MeteorStats(6, 6, 0, 0, ((4, 4, 0, 0), (2, 2, 0, 0)), 1, 6, 6)
    two_chunks = MeteorStats(6, 6, 0, 0, ((6, 6, 0, 0),), 2, 6, 6)
    unmatched_ref = MeteorStats(6, 7, 0, 0, ((6, 6, 0, 0),), 1, 6, 6)
    rows = np.asarray([r.to_row() for r in (perfect, two_chunks, unmatched_ref)], dtype=np.int64)
    assert fragmentation_counts(rows).tolist() == [[1, 12, 1], [2, 12, 0], [1, 12, 0]]
    # meteor15: the perfect triple's power is 0 (1.0 * 0 ** beta); paper2005 ignores the flag
    assert fragmentation_powers([[1, 12, 1]], 3.0, meteor15=True) == [0.0]
    assert fragmentation_powers([[1, 12, 1]], 3.0, meteor15=False) == [(1 / 6) ** 3]


def test_nltk_count_components_is_nltk_components_bit_for_bit() -> None:
    """The count-level entry (the nltk flavour's fast path) computes exactly what the
    statistics-record entry does, for random counts, the empty sides and odd parameters."""
    from meteor_eval.metrics.meteor.formula import nltk_count_components

    rng = random.Random(23)
    cases = [(0, 0, 0, 0), (0, 0, 3, 4), (2, 1, 0, 4), (2, 1, 3, 0), (6, 1, 6, 6)]
    for _ in range(3000):
        hyp_length, ref_length = rng.randint(0, 40), rng.randint(0, 40)
        matched = rng.randint(0, min(hyp_length, ref_length))
        cases.append((matched, rng.randint(min(matched, 1), matched), hyp_length, ref_length))
    for params in [(0.9, 3.0, 0.5), (0.0, 1.0, 1.0), (1.0, 0.5, 0.25)]:
        alpha, beta, gamma = params
        for matched, chunks, hyp_length, ref_length in cases:
            stats = MeteorStats(
                hyp_length,
                ref_length,
                0,
                0,
                ((matched, matched, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0)),
                chunks,
                matched,
                matched,
            )
            whole = nltk_components(stats, alpha=alpha, beta=beta, gamma=gamma)
            counted = nltk_count_components(
                matched, chunks, hyp_length, ref_length, alpha=alpha, beta=beta, gamma=gamma
            )
            assert counted == whole
    # hand-computed: 2 of 3 and 2 of 4 words in one chunk: P = 2/3, R = 1/2,
    # Fmean = (1/3) / (0.6 + 0.05) = 0.51282..., penalty = 0.5 * (1/2) ** 3 = 0.0625
    got = nltk_count_components(2, 1, 3, 4)
    assert got.penalty == 0.0625
    assert got.score == pytest.approx((1 / 3) / 0.65 * 0.9375, abs=1e-15)
