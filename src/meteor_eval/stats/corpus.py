"""Corpus-level helpers over statistics rows: sums and a seeded, deterministic bootstrap.

The bootstrap draws ``n_samples`` resamples of the segments with replacement from
:class:`random.Random` seeded with ``seed`` (index ``int(random() * n)``), so the same seed gives
the same interval on every platform and Python version; rouge-score's ``BootstrapAggregator`` uses
an unseeded NumPy generator instead. The interval is the pair of percentiles
``(1 - confidence) / 2`` and ``(1 + confidence) / 2`` with linear interpolation (NumPy's default).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

__all__ = ["bootstrap_interval", "percentile", "sum_rows"]


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
