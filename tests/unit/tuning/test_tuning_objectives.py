"""Correlations of meteor_eval.tuning.objectives against hand-computed values and oracles."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval.tuning.objectives import (
    HumanData,
    kendall_tau_b,
    parse_objective,
    pearson,
    ranking_pairs,
    spearman,
    tau_like,
)


def _brute_tau_b(x: list[int], y: list[int]) -> float:
    """Kendall 1945 tau-b by counting every pair."""
    c = d = tied_x = tied_y = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        a, b = np.sign(x[i] - x[j]), np.sign(y[i] - y[j])
        if a == 0 and b == 0:
            continue
        if a == 0:
            tied_x += 1
        elif b == 0:
            tied_y += 1
        elif a == b:
            c += 1
        else:
            d += 1
    denominator = math.sqrt((c + d + tied_x) * (c + d + tied_y))
    return math.nan if denominator == 0 else (c - d) / denominator


def test_tau_b_without_ties_is_concordant_minus_discordant_over_pairs() -> None:
    # pairs of (1,3,2,4): 5 concordant, 1 discordant (3 > 2): (5 - 1) / 6
    assert kendall_tau_b([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(4 / 6, abs=1e-15)


def test_tau_b_with_ties_on_both_sides_by_hand() -> None:
    # x = 1 1 2 3, y = 1 2 2 3: n0 = 6, tied in x 1, tied in y 1, no discordant pair,
    # concordant 4: 4 / sqrt(5 * 5) = 0.8
    assert kendall_tau_b([1, 1, 2, 3], [1, 2, 2, 3]) == pytest.approx(0.8, abs=1e-15)


def test_tau_b_reversed_is_minus_one_and_constant_is_nan() -> None:
    assert kendall_tau_b([1, 2, 3], [3, 2, 1]) == -1.0
    assert math.isnan(kendall_tau_b([1, 1, 1], [1, 2, 3]))
    assert math.isnan(kendall_tau_b([1], [1]))


def test_tau_b_refuses_unequal_lengths() -> None:
    with pytest.raises(ValueError, match="lengths differ"):
        kendall_tau_b([1, 2], [1, 2, 3])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 4), st.integers(0, 5)), min_size=2, max_size=40),
)
def test_tau_b_equals_counting_every_pair(items: list[tuple[int, int]]) -> None:
    x = [a for a, _ in items]
    y = [b for _, b in items]
    expected = _brute_tau_b(x, y)
    found = kendall_tau_b(x, y)
    if math.isnan(expected):
        assert math.isnan(found)
    else:
        assert found == pytest.approx(expected, abs=1e-12)


def test_tau_b_agrees_with_scipy_when_installed() -> None:
    stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(5)
    x = rng.integers(0, 50, 3000).astype(float)
    y = x + rng.integers(0, 30, 3000)
    assert kendall_tau_b(x, y) == pytest.approx(stats.kendalltau(x, y).statistic, abs=1e-12)


def test_pearson_and_spearman_by_hand() -> None:
    # x = 1 2 3, y = 2 4 7: sxy = 5, sxx = 2, syy = 12.667: 5 / sqrt(2 * 12.667)
    assert pearson([1, 2, 3], [2, 4, 7]) == pytest.approx(5 / math.sqrt(2 * 38 / 3), abs=1e-15)
    # ranks 1 2 3 4 and 1 3 2 4: d^2 = 2: 1 - 6 * 2 / (4 * 15) = 0.8
    assert spearman([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8, abs=1e-15)
    # tied ranks averaged: y ranks 1.5 1.5 3 -> Pearson of (1,2,3) and (1.5,1.5,3)
    assert spearman([1, 2, 3], [5, 5, 9]) == pytest.approx(pearson([1, 2, 3], [1.5, 1.5, 3]))
    assert math.isnan(pearson([1, 1], [1, 2]))


def test_ranking_pairs_compare_only_items_of_one_segment() -> None:
    better, worse = ranking_pairs([3.0, 1.0, 2.0, 9.0], ["a", "a", "a", "b"])
    assert sorted(zip(better.tolist(), worse.tolist(), strict=True)) == [(0, 1), (0, 2), (2, 1)]


def test_ranking_pairs_margin_drops_close_judgements() -> None:
    better, worse = ranking_pairs([80.0, 70.0, 40.0], ["s", "s", "s"], margin=25)
    assert sorted(zip(better.tolist(), worse.tolist(), strict=True)) == [(0, 2), (1, 2)]


def test_tau_like_counts_metric_ties_as_discordant() -> None:
    pairs = ranking_pairs([3, 2, 1], ["s", "s", "s"])
    # pairs (0,1) concordant, (0,2) concordant, (1,2) tied in the metric: (2 - 1) / 3
    assert tau_like([0.9, 0.5, 0.5], pairs) == pytest.approx(1 / 3)
    assert tau_like([0.1, 0.5, 0.9], pairs) == -1.0


def test_human_data_means_per_system() -> None:
    data = HumanData.build([1.0, 3.0, 5.0], ["b", "a", "b"], ["1", "1", "2"])
    assert data.system_human.tolist() == [3.0, 3.0]  # a: 3; b: (1 + 5) / 2
    assert data.systems.tolist() == [1, 0, 1]


def test_objective_mix_weighs_the_means_over_pairs() -> None:
    objective = parse_objective("kendall:3,pearson:1")
    value = objective.combine([{"kendall": 0.2, "pearson": 0.8}, {"kendall": 0.4, "pearson": 1.0}])
    assert value == pytest.approx((3 * 0.3 + 1 * 0.9) / 4)
    assert objective.label == "kendall:3,pearson:1"
    assert parse_objective("spearman").label == "spearman"


def test_objective_is_nan_when_a_measure_is_nan() -> None:
    # issue #28: counting NaN as 0 let settings that score everything alike beat a negative
    # default; NaN ranks below every number in the searches.
    assert math.isnan(parse_objective("kendall").combine([{"kendall": math.nan}, {"kendall": 0.5}]))
    assert parse_objective("kendall").combine([{"kendall": -0.5}, {"kendall": 0.25}]) == -0.125


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bleu", "unknown measure 'bleu'"),
        ("kendall,kendall", "given twice"),
        ("kendall:x", "not a number"),
        ("kendall:-1", "positive"),
        ("pearson:inf", "positive"),
    ],
)
def test_parse_objective_refuses(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_objective(text)
