"""The jar Trainer's agreement measures: hand-computed cases and a naive loop oracle (hypothesis).

The oracle is the jar's algorithm written as plain Python loops (a sum per loop, a stable sort
with ``Double.compare``'s order, ranks averaged over runs of equal values), which the vectorised
functions must equal bit for bit.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval.tuning.agreement import (
    java_sort_keys,
    rank_consistency,
    spearman,
    weighted_pearson,
)


def _bits(values: object) -> list[int]:
    return np.asarray(values, dtype=np.float64).reshape(-1).view(np.int64).tolist()


def _oracle_pearson(x: list[float], y: list[float], w: list[float] | None) -> float:
    n = len(x)
    weights = w if w is not None else [1.0] * n
    sum_w = 0.0
    sx = sy = 0.0
    for i in range(n):
        sx += x[i] * weights[i] if w is not None else x[i]
        sy += y[i] * weights[i] if w is not None else y[i]
        sum_w += weights[i]
    total = sum_w if w is not None else float(n)
    mx, my = sx / total, sy / total
    cxy = cxx = cyy = 0.0
    for i in range(n):
        if w is not None:
            cxy += weights[i] * (x[i] - mx) * (y[i] - my)
            cxx += weights[i] * (x[i] - mx) * (x[i] - mx)
            cyy += weights[i] * (y[i] - my) * (y[i] - my)
        else:
            cxy += (x[i] - mx) * (y[i] - my)
            cxx += (x[i] - mx) * (x[i] - mx)
            cyy += (y[i] - my) * (y[i] - my)
    denominator = math.sqrt((cxx / total) * (cyy / total))
    numerator = cxy / total
    if denominator == 0.0:  # Java: x / 0 is +-Infinity, 0 / 0 NaN (which the jar reports as 0)
        if numerator == 0.0 or math.isnan(numerator):
            return 0.0
        return math.copysign(math.inf, numerator)
    r = numerator / denominator
    return 0.0 if math.isnan(r) else r


def _oracle_ranks(pairs: list[list[float]], k: int) -> None:
    total, count = 0.0, 0
    for i in range(len(pairs)):
        total += i + 1
        count += 1
        if i == len(pairs) - 1 or pairs[i][k] != pairs[i + 1][k]:
            for j in range(count):
                pairs[i - j][k] = total / count
            total, count = 0.0, 0


def _java_compare_key(x: float) -> tuple[int, float, int]:
    """``Double.compare``'s order: NaN last, -0.0 before 0.0."""
    if math.isnan(x):
        return (1, 0.0, 0)
    return (0, x, -1 if x == 0.0 and math.copysign(1.0, x) < 0 else 0)


def _oracle_spearman(x: list[float], y: list[float]) -> float:
    pairs = [[a, b] for a, b in zip(x, y, strict=True)]
    pairs.sort(key=lambda p: _java_compare_key(p[0]))
    _oracle_ranks(pairs, 0)
    pairs.sort(key=lambda p: _java_compare_key(p[1]))
    _oracle_ranks(pairs, 1)
    return _oracle_pearson([p[0] for p in pairs], [p[1] for p in pairs], None)


def test_weighted_pearson_hand_computed() -> None:
    # Unweighted: means 2 and 2, cov 1/3, variances 2/3 and 2/3, r = (1/3) / (2/3) = 0.5.
    r = weighted_pearson([[1.0, 2.0, 3.0]], [1.0, 3.0, 2.0], [1.0, 1.0, 1.0])
    assert r.tolist() == [(1.0 / 3.0) / math.sqrt((2.0 / 3.0) * (2.0 / 3.0))]
    # A constant score: NaN, reported as 0.0 as in the jar.
    assert weighted_pearson([[0.5, 0.5, 0.5]], [1.0, 3.0, 2.0], [1.0, 2.0, 3.0]).tolist() == [0.0]


def test_spearman_gives_ties_their_mean_rank() -> None:
    # Score ranks 1, 3.5, 3.5, 2 against 1, 2, 3, 4: cov 0.375, variances 1.125 and 1.25.
    r = spearman([[0.1, 0.4, 0.4, 0.2]], [1.0, 2.0, 3.0, 4.0])
    assert r.tolist() == [0.375 / math.sqrt(1.125 * 1.25)]


def test_rank_consistency_needs_a_difference_above_epsilon() -> None:
    scores = [[0.5, 0.2, 0.9]]
    assert rank_consistency(scores, [0, 0], [1, 2]).tolist() == [0.0]
    # 0.5 - 0.2 is exactly the double 0.3: not above an epsilon of 0.3.
    assert rank_consistency(scores, [0, 0], [1, 2], epsilon=0.3).tolist() == [-1.0]
    assert math.isnan(float(rank_consistency(scores, [], [])[0]))


def test_java_order_puts_negative_zero_first_and_nan_last() -> None:
    keys = java_sort_keys([float("nan"), 0.0, -0.0, -math.inf, 1e-300])
    assert np.argsort(keys, kind="stable").tolist() == [3, 2, 1, 4, 0]


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_vectorised_measures_equal_the_loop_oracle(data: st.DataObject) -> None:
    n = data.draw(st.integers(2, 25))
    values = st.floats(0.0, 1.0, allow_nan=False) | st.sampled_from([0.0, 0.25, 0.5, 1.0])
    rows = data.draw(st.lists(st.lists(values, min_size=n, max_size=n), min_size=1, max_size=4))
    y = data.draw(
        st.lists(st.sampled_from([0.0, 0.1, 0.2, 0.5, 0.75]) | values, min_size=n, max_size=n)
    )
    w = data.draw(st.lists(st.integers(1, 40).map(float), min_size=n, max_size=n))
    assert _bits(weighted_pearson(rows, y, w)) == _bits([_oracle_pearson(r, y, w) for r in rows])
    assert _bits(spearman(rows, y)) == _bits([_oracle_spearman(r, y) for r in rows])
    better = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=10))
    worse = [(b + 1) % n for b in better]
    expected = []
    for r in rows:
        correct = sum(1.0 for b, v in zip(better, worse, strict=True) if r[b] - r[v] > 0.05)
        expected.append((correct - (len(better) - correct)) / len(better))
    assert _bits(rank_consistency(rows, better, worse, epsilon=0.05)) == _bits(expected)


def test_pearson_of_a_variance_that_underflows_is_infinite_as_in_java() -> None:
    # cov_xx * cov_yy underflows to 0 while cov_xy does not: Java divides to +Infinity (only NaN
    # is turned into 0 by the jar), and so do we.
    r = weighted_pearson([[0.0, 6.465988775638178e-193]], [0.0, 0.1], [1.0, 1.0])
    assert r.tolist() == [math.inf]
