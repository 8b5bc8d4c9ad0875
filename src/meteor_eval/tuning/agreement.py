"""Agreement of metric scores with human judgements, as the METEOR 1.5 jar's ``Trainer`` has it.

Three measures, each vectorised over many score vectors at once (one per parameter set, the rows
of a ``(k, n)`` array) and evaluated in the jar's floating-point operation order, so that the
printed digits are the jar's:

* :func:`weighted_pearson` (``Trainer segcor``): Pearson's r with each segment weighted (by its
  reference length in the jar), sums taken left to right;
* :func:`spearman` (``Trainer spearman``): Pearson's r of ranks, ties given their mean rank, the
  sums taken in the order of the jar's two stable sorts (by score, then by judgement);
* :func:`rank_consistency` (``Trainer rank``): over pairs judged "first better than second",
  ``(agreeing - disagreeing) / pairs``, where a pair agrees when the score difference exceeds
  ``epsilon`` (Kendall's tau without ties counted as agreement).

A Pearson r that is NaN (a constant column) is 0.0, as in the jar; a rank consistency over no pair
is NaN, as in the jar.

Sums are sequential (``np.cumsum``, not NumPy's pairwise ``sum``), because the jar adds in a
loop and the last bits of the result depend on the order.

The tuning objectives' correlations of two vectors are here too: :func:`pearson` and
:func:`spearman_rho`, in NumPy's order by default (pairwise sums, NaN when a side is constant),
or with ``order="jar"`` through the Trainer's functions above.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

__all__ = [
    "Order",
    "java_sort_keys",
    "pearson",
    "rank_consistency",
    "spearman",
    "spearman_rho",
    "weighted_pearson",
]

#: The operation order of a correlation: NumPy's (pairwise sums; NaN for a constant side) or
#: the METEOR 1.5 jar's Trainer (sequential sums in its sort orders; 0.0 for a constant side).
Order = Literal["numpy", "jar"]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

_LOW_BITS = np.int64(0x7FFF_FFFF_FFFF_FFFF)


def _sequential_sum(values: Floats) -> Floats:
    """``0.0 + v[0] + v[1] + ...`` along the last axis, in that order (the jar's loop)."""
    if values.shape[-1] == 0:
        return np.zeros(values.shape[:-1], dtype=np.float64)
    # cumsum adds left to right; + 0.0 gives the +0.0 the loop's initial 0.0 gives.
    total: Floats = np.cumsum(values, axis=-1)[..., -1] + 0.0
    return total


def java_sort_keys(values: Any) -> Ints:
    """Integer keys that order doubles as ``Double.compare`` does.

    ``-0.0`` sorts before ``0.0`` and every NaN after everything (all NaNs equal).

    Example:
        >>> keys = java_sort_keys([0.0, -0.0, float("nan"), -1.0, 2.0])
        >>> tuple(int(i) for i in np.argsort(keys, kind="stable"))
        (3, 1, 0, 4, 2)
    """
    data = np.asarray(values, dtype=np.float64)
    bits = data.view(np.int64)
    keys = np.where(bits < 0, bits ^ _LOW_BITS, bits)
    return np.where(np.isnan(data), np.iinfo(np.int64).max, keys).astype(np.int64)


def _pearson_r(cov_xy: Floats, cov_xx: Floats, cov_yy: Any) -> Floats:
    with np.errstate(divide="ignore", invalid="ignore"):
        r = cov_xy / np.sqrt(cov_xx * cov_yy)
    result: Floats = np.where(np.isnan(r), 0.0, r)
    return result


def weighted_pearson(scores: Any, judgements: Any, weights: Any) -> Floats:
    """Weighted Pearson correlation of each row of ``scores`` with ``judgements``.

    Args:
        scores: ``(k, n)`` (or ``(n,)``) metric scores.
        judgements: ``(n,)`` human scores.
        weights: ``(n,)`` segment weights.

    Returns:
        ``(k,)`` correlations (a scalar array for 1-D ``scores``).

    Example:
        >>> float(weighted_pearson([1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 1.0, 2.0])[()])
        1.0
    """
    x = np.asarray(scores, dtype=np.float64)
    y = np.asarray(judgements, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    sum_w = _sequential_sum(w)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean_x = _sequential_sum(x * w) / sum_w
        mean_y = _sequential_sum(y * w) / sum_w
        dx = x - mean_x[..., None]
        dy = y - mean_y
        wdx = w * dx
        wdy = w * dy
        cov_xy = _sequential_sum(wdx * dy) / sum_w
        cov_xx = _sequential_sum(wdx * dx) / sum_w
        cov_yy = _sequential_sum(wdy * dy) / sum_w
    return _pearson_r(cov_xy, cov_xx, cov_yy)


def _tie_ranks(sorted_values: Floats) -> Floats:
    """1-based ranks of sorted rows, each run of equal values (``!=`` as in Java) given its mean."""
    k, n = sorted_values.shape
    if n == 0:
        return np.zeros((k, 0), dtype=np.float64)
    starts = np.ones((k, n), dtype=bool)
    starts[:, 1:] = sorted_values[:, 1:] != sorted_values[:, :-1]
    flat_starts = np.flatnonzero(starts.ravel())
    group = np.cumsum(starts.ravel()) - 1
    ends = np.append(flat_starts[1:], k * n) - 1
    first = flat_starts % n + 1
    last = ends % n + 1
    count = last - first + 1
    # The jar adds the positions one by one in a double: an exact integer sum, then one division.
    mean = ((first + last) * count // 2).astype(np.float64) / count
    ranks: Floats = mean[group].reshape(k, n)
    return ranks


def spearman(scores: Any, judgements: Any) -> Floats:
    """Spearman's rank correlation of each row of ``scores`` with ``judgements``, as the jar.

    The jar sorts the (score, judgement) pairs by score (stable), replaces scores by ranks, sorts
    by judgement (stable), replaces judgements by ranks, then takes Pearson's r in that order.

    Example:
        >>> float(spearman([0.1, 0.4, 0.3], [1.0, 3.0, 2.0])[()])
        1.0
    """
    x = np.asarray(scores, dtype=np.float64)
    y = np.asarray(judgements, dtype=np.float64)
    one = x.ndim == 1
    x2 = x.reshape(1, -1) if one else x
    n = x2.shape[1]
    by_score = np.argsort(java_sort_keys(x2), axis=1, kind="stable")
    score_ranks = _tie_ranks(np.take_along_axis(x2, by_score, axis=1))
    # The second stable sort (by judgement) keeps the score order among equal judgements: one
    # unique key per item, judgement group first, position in the score order second.
    y_keys = java_sort_keys(y)
    _, y_group = np.unique(y_keys, return_inverse=True)
    position = np.empty_like(by_score)
    np.put_along_axis(position, by_score, np.arange(n, dtype=by_score.dtype)[None, :], axis=1)
    by_judgement = np.argsort(y_group.reshape(1, -1) * n + position, axis=1)
    item_ranks = np.empty_like(score_ranks)
    np.put_along_axis(item_ranks, by_score, score_ranks, axis=1)
    xr = np.take_along_axis(item_ranks, by_judgement, axis=1)
    # Sorted by judgement, the judgements and so their ranks are the same for every row.
    y_sorted = y[np.argsort(y_keys, kind="stable")]
    yr = np.broadcast_to(_tie_ranks(y_sorted.reshape(1, -1)), xr.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean_x = _sequential_sum(xr) / n
        mean_y = _sequential_sum(yr) / n
        dx = xr - mean_x[:, None]
        dy = yr - mean_y[:, None]
        cov_xy = _sequential_sum(dx * dy) / n
        cov_xx = _sequential_sum(dx * dx) / n
        cov_yy = _sequential_sum(dy * dy) / n
    r = _pearson_r(cov_xy, cov_xx, cov_yy)
    return r[0] if one else r


def rank_consistency(scores: Any, better: Any, worse: Any, *, epsilon: float = 0.0) -> Floats:
    """``(agreeing - disagreeing) / pairs`` over judged pairs, for each row of ``scores``.

    Args:
        scores: ``(k, n)`` (or ``(n,)``) metric scores of ``n`` segments.
        better: Index of the segment judged better, one per pair.
        worse: Index of the segment judged worse.
        epsilon: A pair agrees when ``score[better] - score[worse] > epsilon``.

    Example:
        >>> float(rank_consistency([0.5, 0.2, 0.9], [0, 0], [1, 2])[()])
        0.0
    """
    x = np.asarray(scores, dtype=np.float64)
    first = np.asarray(better, dtype=np.int64)
    second = np.asarray(worse, dtype=np.int64)
    correct = np.count_nonzero(x[..., first] - x[..., second] > epsilon, axis=-1).astype(np.float64)
    total = float(len(first))
    with np.errstate(divide="ignore", invalid="ignore"):
        result: Floats = (correct - (total - correct)) / total
    return result


def _vectors(name: str, x: Any, y: Any, order: str) -> tuple[Floats, Floats]:
    if order not in ("numpy", "jar"):
        raise ValueError(f"{name}: order {order!r} is unknown; allowed: 'numpy', 'jar'")
    xs = np.asarray(x, dtype=np.float64)
    ys = np.asarray(y, dtype=np.float64)
    if xs.shape != ys.shape or xs.ndim != 1:
        raise ValueError(f"{name}: lengths differ ({xs.shape} and {ys.shape})")
    return xs, ys


def pearson(x: Sequence[float] | Any, y: Sequence[float] | Any, *, order: Order = "numpy") -> float:
    """Pearson's r of two vectors.

    ``order="numpy"``: NumPy's pairwise sums; NaN when either side is constant or has fewer
    than two items. ``order="jar"``: :func:`weighted_pearson` with unit weights (the Trainer's
    sums; 0.0 for a constant side).

    Example:
        >>> pearson([1, 2, 3], [2, 4, 7])
        0.9933992677987828
    """
    xs, ys = _vectors("pearson", x, y, order)
    if order == "jar":
        return float(weighted_pearson(xs, ys, np.ones(len(xs)))[()])
    if len(xs) < 2:
        return math.nan
    dx = xs - xs.mean()
    dy = ys - ys.mean()
    denominator = math.sqrt(float((dx * dx).sum()) * float((dy * dy).sum()))
    return math.nan if denominator == 0.0 else float((dx * dy).sum()) / denominator


def _average_ranks(values: Floats) -> Floats:
    """Ranks 1..n with ties given the mean of their positions (Spearman's convention)."""
    order = np.argsort(values, kind="mergesort")
    sorted_values = values[order]
    edges = np.concatenate(([0], np.flatnonzero(np.diff(sorted_values)) + 1, [len(values)]))
    ranks = np.empty(len(values), dtype=np.float64)
    for start, stop in itertools.pairwise(edges):
        ranks[order[start:stop]] = (start + stop + 1) / 2.0
    return ranks


def spearman_rho(
    x: Sequence[float] | Any, y: Sequence[float] | Any, *, order: Order = "numpy"
) -> float:
    """Spearman's rho of two vectors: Pearson's r of the tie-averaged ranks.

    ``order="numpy"``: :func:`pearson` of the ranks. ``order="jar"``: :func:`spearman`, the
    Trainer's two stable sorts and sums.

    Example:
        >>> spearman_rho([1, 2, 3, 4], [1, 3, 2, 4])
        0.8
    """
    xs, ys = _vectors("spearman", x, y, order)
    if order == "jar":
        return float(spearman(xs, ys)[()])
    return pearson(_average_ranks(xs), _average_ranks(ys))
