"""Corpus helpers over statistics rows: column sums, percentiles, the seeded bootstrap, np.mean."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval.stats.corpus import bootstrap_interval, numpy_mean, percentile, sum_rows

int_rows = st.integers(1, 5).flatmap(
    lambda width: st.lists(st.lists(st.integers(0, 50), min_size=width, max_size=width), max_size=8)
)


class TestSumRows:
    def test_column_sums(self) -> None:
        assert sum_rows([(1, 2, 3), (10, 20, 30)]) == (11, 22, 33)
        assert sum_rows([(0.5,)]) == (0.5,)
        assert sum_rows([]) == ()

    def test_rows_of_different_widths_are_rejected(self) -> None:
        with pytest.raises(ValueError, match="zip"):
            sum_rows([(1, 2), (1,)])

    @given(int_rows, st.randoms(use_true_random=False))
    def test_integer_sums_ignore_order_and_grouping(
        self, rows: list[list[int]], rng: random.Random
    ) -> None:
        shuffled = rows[:]
        rng.shuffle(shuffled)
        cut = rng.randint(0, len(rows))
        assert sum_rows(shuffled) == sum_rows(rows)
        if 0 < cut < len(rows):
            parts = [sum_rows(shuffled[:cut]), sum_rows(shuffled[cut:])]
            assert sum_rows(parts) == sum_rows(rows)


class TestPercentile:
    @pytest.mark.parametrize(
        ("q", "expected"), [(0.0, 0.0), (0.5, 15.0), (1.0, 30.0), (0.25, 7.5), (0.9, 27.0)]
    )
    def test_linear_interpolation(self, q: float, expected: float) -> None:
        assert percentile([0.0, 10.0, 20.0, 30.0], q) == pytest.approx(expected, abs=1e-12)

    def test_one_value_and_none(self) -> None:
        assert percentile([4.0], 0.3) == 4.0
        assert percentile([], 0.5) == 0.0

    @given(st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=30), st.floats(0, 1))
    def test_within_the_values(self, values: list[float], q: float) -> None:
        ordered = sorted(values)
        assert ordered[0] - 1e-6 <= percentile(ordered, q) <= ordered[-1] + 1e-6


def naive_bootstrap(
    rows: Sequence[Sequence[float]], n_samples: int, seed: int, confidence: float
) -> list[tuple[float, float]]:
    """The documented procedure, written out for one statistic: the mean of column 0."""
    rng = random.Random(seed)
    means = []
    for _ in range(n_samples):
        picked = [rows[int(rng.random() * len(rows))] for _ in rows]
        means.append(sum(r[0] for r in picked) / len(rows))
    means.sort()
    return [(percentile(means, (1 - confidence) / 2), percentile(means, (1 + confidence) / 2))]


class TestBootstrap:
    def test_equals_the_documented_procedure(self) -> None:
        rows = [(float(k % 3),) for k in range(17)]
        ours = bootstrap_interval(rows, lambda s, n: (s[0] / n,), n_samples=300, seed=7)
        assert ours == naive_bootstrap(rows, 300, 7, 0.95)

    def test_same_seed_same_interval_and_one_pair_per_value(self) -> None:
        rows = [(1.0, 2.0), (0.0, 2.0), (1.0, 3.0), (0.0, 1.0)]

        def stat(total: tuple[float, ...], n: int) -> tuple[float, float]:
            return total[0] / n, total[1]

        first = bootstrap_interval(rows, stat, n_samples=100, seed=3)
        assert first == bootstrap_interval(rows, stat, n_samples=100, seed=3)
        assert len(first) == 2
        for low, high in first:
            assert low <= high
        assert 0.0 <= first[0][0] <= first[0][1] <= 1.0
        assert 4.0 <= first[1][0] <= first[1][1] <= 12.0

    def test_constant_rows_give_a_point_interval(self) -> None:
        assert bootstrap_interval([(2.0,)] * 5, lambda s, n: (s[0] / n,)) == [(2.0, 2.0)]

    def test_no_rows_no_interval(self) -> None:
        assert bootstrap_interval([], lambda s, n: (1.0,)) == []

    @pytest.mark.parametrize("n_samples", [0, -5])
    def test_rejects_non_positive_samples(self, n_samples: int) -> None:
        with pytest.raises(ValueError, match=f"n_samples: got {n_samples}, expected a positive"):
            bootstrap_interval([(1.0,)], lambda s, n: s, n_samples=n_samples)

    @pytest.mark.parametrize("confidence", [0.0, 1.0, 1.5, -0.1])
    def test_rejects_confidence_outside_the_open_unit_interval(self, confidence: float) -> None:
        with pytest.raises(ValueError, match=r"confidence: got .*, expected a number in \(0, 1\)"):
            bootstrap_interval([(1.0,)], lambda s, n: s, confidence=confidence)


class TestNumpyMean:
    def test_short_lists_sum_left_to_right(self) -> None:
        values = [0.1, 0.2, 0.3]
        assert numpy_mean(values) == ((0.1 + 0.2) + 0.3) / 3

    def test_eight_lanes_from_eight_values(self) -> None:
        # Pairwise: ((v0+v1)+(v2+v3)) + ((v4+v5)+(v6+v7)), not a running sum.
        values = [1e16, 1.0, -1e16, 1.0, 0.0, 0.0, 0.0, 0.0]
        lanes = ((1e16 + 1.0) + (-1e16 + 1.0)) + ((0.0 + 0.0) + (0.0 + 0.0))
        assert numpy_mean(values) == lanes / 8
        assert numpy_mean(values) != sum(values) / 8

    def test_integers_are_floats(self) -> None:
        assert numpy_mean([1, 2]) == 1.5

    def test_empty_is_nan_with_a_warning(self) -> None:
        with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
            assert math.isnan(numpy_mean([]))

    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.floats(-1e9, 1e9), min_size=1, max_size=600))
    def test_bit_identical_to_numpy(self, values: list[float]) -> None:
        np = pytest.importorskip("numpy")
        assert numpy_mean(values) == float(np.mean(values))
