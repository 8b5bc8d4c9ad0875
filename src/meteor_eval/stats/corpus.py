"""Corpus-level helpers over statistics rows: sums and a seeded, deterministic bootstrap.

The bootstrap draws ``n_samples`` resamples of the segments with replacement from
:class:`random.Random` seeded with ``seed`` (index ``int(random() * n)``), so the same seed gives
the same interval on every platform and Python version; rouge-score's ``BootstrapAggregator`` uses
an unseeded NumPy generator instead. The interval is the pair of percentiles
``(1 - confidence) / 2`` and ``(1 + confidence) / 2`` with linear interpolation (NumPy's default).
"""

from __future__ import annotations

import math
import random
import warnings
from collections.abc import Callable, Sequence
from typing import Final

__all__ = ["bootstrap_interval", "numpy_mean", "percentile", "sum_rows"]


def sum_rows(rows: Sequence[Sequence[float]]) -> tuple[float, ...]:
    """Column sums of equally long rows (an empty input gives ``()``)."""
    if not rows:
        return ()
    return tuple(sum(column) for column in zip(*rows, strict=True))


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0-1) of sorted values, linearly interpolated."""
    if not sorted_values:
        return 0.0
    position = q * (len(sorted_values) - 1)
    low = int(position)
    high = min(low + 1, len(sorted_values) - 1)
    fraction = position - low
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * fraction


def bootstrap_interval(
    rows: Sequence[Sequence[float]],
    statistic: Callable[[tuple[float, ...], int], Sequence[float]],
    *,
    n_samples: int = 1000,
    seed: int = 12345,
    confidence: float = 0.95,
) -> list[tuple[float, float]]:
    """Bootstrap confidence intervals of the values ``statistic(summed_row, n_rows)`` returns.

    Args:
        rows: One flat statistics row per segment.
        statistic: Maps the column sums of a resample and its size to the values of interest.
        n_samples: Number of resamples.
        seed: Seed of the resampling generator.
        confidence: Coverage of the interval, in (0, 1).

    Returns:
        One ``(low, high)`` pair per value returned by ``statistic``.

    Example:
        >>> rows = [(1.0,), (0.0,), (1.0,), (0.0,)]
        >>> bootstrap_interval(rows, lambda s, n: (s[0] / n,), n_samples=200, seed=1)[0][0] >= 0
        True
    """
    if n_samples < 1:
        raise ValueError(f"n_samples: got {n_samples!r}, expected a positive int")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence: got {confidence!r}, expected a number in (0, 1)")
    size = len(rows)
    if size == 0:
        return []
    rng = random.Random(seed)
    samples: list[Sequence[float]] = []
    for _ in range(n_samples):
        picked = [rows[int(rng.random() * size)] for _ in range(size)]
        samples.append(statistic(sum_rows(picked), size))
    lower, upper = (1 - confidence) / 2, (1 + confidence) / 2
    out = []
    for column in zip(*samples, strict=True):
        ordered = sorted(column)
        out.append((percentile(ordered, lower), percentile(ordered, upper)))
    return out


# NumPy's pairwise summation works on blocks of this many values.
_BLOCK: Final = 128


def _pairwise_sum(values: Sequence[float], start: int, n: int) -> float:
    """NumPy's ``pairwise_sum`` for float64 (8 partial sums per block of at most 128)."""
    if n < 8:
        total = 0.0
        for k in range(start, start + n):
            total += values[k]
        return total
    if n <= _BLOCK:
        partial = list(values[start : start + 8])
        k = 8
        end = n - n % 8
        while k < end:
            for lane in range(8):
                partial[lane] += values[start + k + lane]
            k += 8
        total = ((partial[0] + partial[1]) + (partial[2] + partial[3])) + (
            (partial[4] + partial[5]) + (partial[6] + partial[7])
        )
        for rest in range(start + k, start + n):
            total += values[rest]
        return total
    half = n // 2
    half -= half % 8
    return _pairwise_sum(values, start, half) + _pairwise_sum(values, start + half, n - half)


def numpy_mean(values: Sequence[float]) -> float:
    """``float(np.mean(values))`` for a 1-D list of floats, bit for bit, without NumPy.

    An empty list gives NaN with a ``RuntimeWarning``, as NumPy does.

    Example:
        >>> numpy_mean([0.1] * 10), sum([0.1] * 10) / 10
        (0.1, 0.09999999999999999)
    """
    n = len(values)
    if n == 0:
        warnings.warn("Mean of empty slice.", RuntimeWarning, stacklevel=2)
        return math.nan
    return _pairwise_sum([float(v) for v in values], 0, n) / n
