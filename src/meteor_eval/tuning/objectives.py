"""Agreement with human judgement: the correlations that tuning maximises and reports.

Segment level: Kendall's tau-b (ties on either side handled as in Kendall 1945 and
``scipy.stats.kendalltau``), computed in O(n log n) with NumPy, and the WMT "tau-like" statistic
of relative rankings (Ma et al., WMT 2018 metrics task; a metric tie counts as a disagreement).
System level: Pearson's r and Spearman's rho. An :class:`Objective` mixes them with weights, per
language pair, as the mean over pairs (how WMT metrics tasks summarise several pairs).

All functions take the metric's numbers and the human numbers with "higher is better" on both
sides; relative rankings where 1 is best are negated first (:class:`HumanData`).

References:
    M. G. Kendall. The treatment of ties in ranking problems. Biometrika 33(3), 1945.
    Q. Ma, O. Bojar, Y. Graham. Results of the WMT18 Metrics Shared Task. WMT 2018.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from meteor_eval.tuning.agreement import pearson
from meteor_eval.tuning.agreement import spearman_rho as spearman

__all__ = [
    "MEASURES",
    "HumanData",
    "Measure",
    "Objective",
    "kendall_tau_b",
    "parse_objective",
    "pearson",
    "ranking_pairs",
    "spearman",
    "tau_like",
]

Measure = Literal["kendall", "tau-like", "pearson", "spearman"]

#: Every measure an objective can weigh: two at segment level, two at system level.
MEASURES: tuple[Measure, ...] = ("kendall", "tau-like", "pearson", "spearman")


def _dense_ranks(values: Any) -> Any:
    """Ranks 0..k-1 of ``values`` (equal values share a rank)."""
    return np.unique(values, return_inverse=True)[1].reshape(-1).astype(np.int64)


def _inversions(ranks: Any) -> int:
    """Pairs ``i < j`` with ``ranks[i] > ranks[j]``: a bottom-up merge count, vectorised.

    At each level the array is sorted within blocks of ``width``; every element of a right half
    counts the elements of its left half that are strictly greater (a binary search in the
    left halves, made one global search by offsetting each block's keys).
    """
    n = len(ranks)
    span = int(ranks.max()) + 1 if n else 1
    cur = ranks.astype(np.int64)
    index = np.arange(n, dtype=np.int64)
    total = 0
    width = 1
    while width < n:
        block = index // (2 * width)
        right = (index % (2 * width)) >= width
        keyed = block * span + cur
        left_keys = keyed[~right]
        right_keys = keyed[right]
        upper = np.searchsorted(left_keys, (block[right] + 1) * span, side="left")
        not_greater = np.searchsorted(left_keys, right_keys, side="right")
        total += int((upper - not_greater).sum())
        # Each block is two sorted runs: a stable (merging) sort takes linear time.
        cur = np.sort(keyed, kind="stable") - block * span
        width *= 2
    return total


def _tied_pairs(sorted_values: Any) -> int:
    """Pairs of equal values in a sorted array."""
    if len(sorted_values) == 0:
        return 0
    edges = np.flatnonzero(np.diff(sorted_values)) + 1
    runs = np.diff(np.concatenate(([0], edges, [len(sorted_values)])))
    return int((runs * (runs - 1) // 2).sum())


def kendall_tau_b(x: Sequence[float] | Any, y: Sequence[float] | Any) -> float:
    """Kendall's tau-b of two equally long sequences, in O(n log n).

    ``(C - D) / sqrt((n0 - n1) * (n0 - n2))`` with ``C``/``D`` the concordant and discordant
    pairs, ``n0 = n(n-1)/2`` and ``n1``/``n2`` the pairs tied in ``x``/``y``. NaN when either
    side is constant (or has fewer than two items), as in SciPy.

    Example:
        >>> round(kendall_tau_b([1, 2, 3, 4], [1, 3, 2, 4]), 6)
        0.666667
        >>> round(kendall_tau_b([1, 1, 2, 3], [1, 2, 2, 3]), 6)
        0.8
    """
    xs = np.asarray(x, dtype=np.float64)
    ys = np.asarray(y, dtype=np.float64)
    if xs.shape != ys.shape or xs.ndim != 1:
        raise ValueError(f"kendall_tau_b: lengths differ ({xs.shape} and {ys.shape})")
    n = len(xs)
    if n < 2:
        return math.nan
    rx = _dense_ranks(xs)
    ry = _dense_ranks(ys)
    order = np.lexsort((ry, rx))
    rx, ry = rx[order], ry[order]
    n0 = n * (n - 1) // 2
    n1 = _tied_pairs(rx)
    n2 = _tied_pairs(np.sort(ry))
    n3 = _tied_pairs(rx * (int(ry.max()) + 1) + ry)
    discordant = _inversions(ry)
    concordant = n0 - n1 - n2 + n3 - discordant
    denominator = math.sqrt(float(n0 - n1) * float(n0 - n2))
    if denominator == 0.0:
        return math.nan
    return (concordant - discordant) / denominator


def ranking_pairs(
    human: Sequence[float] | Any, groups: Sequence[object] | Any, *, margin: float = 0.0
) -> tuple[Any, Any]:
    """Index pairs ``(better, worse)`` of items of the same group that humans ranked apart.

    Args:
        human: Human numbers, higher is better.
        groups: The group of each item (the source segment: only translations of the same
            source are compared).
        margin: Smallest human difference that makes a pair (WMT's daRR used 25 raw DA points;
            0 keeps every pair that is not tied).

    Returns:
        Two index arrays of equal length.
    """
    h = np.asarray(human, dtype=np.float64)
    g = _dense_ranks(np.asarray([str(x) for x in groups]))
    order = np.argsort(g, kind="mergesort")
    edges = np.concatenate(([0], np.flatnonzero(np.diff(g[order])) + 1, [len(g)]))
    better: list[Any] = []
    worse: list[Any] = []
    for start, stop in itertools.pairwise(edges):
        members = order[start:stop]
        i, j = np.triu_indices(len(members), k=1)
        a, b = members[i], members[j]
        diff = h[a] - h[b]
        keep = np.abs(diff) > margin if margin > 0 else diff != 0
        better.append(np.where(diff > 0, a, b)[keep])
        worse.append(np.where(diff > 0, b, a)[keep])
    if not better:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(better), np.concatenate(worse)


def tau_like(metric: Sequence[float] | Any, pairs: tuple[Any, Any]) -> float:
    """WMT's tau-like of relative rankings: ``(Concordant - Discordant) / (C + D)``.

    A pair is concordant when the metric scores the human-preferred item higher; a metric tie
    counts as discordant (WMT 2017-2021). NaN without pairs.

    Example:
        >>> pairs = ranking_pairs([3, 2, 1], ["s", "s", "s"])
        >>> tau_like([0.9, 0.5, 0.5], pairs)
        0.3333333333333333
    """
    m = np.asarray(metric, dtype=np.float64)
    better, worse = pairs
    if len(better) == 0:
        return math.nan
    concordant = int((m[better] > m[worse]).sum())
    return (2 * concordant - len(better)) / len(better)


@dataclass(frozen=True, slots=True)
class HumanData:
    """Human judgements of one language pair, laid out for fast evaluation of any metric.

    Attributes:
        human: One human number per segment, higher is better.
        systems: System index (0..k-1) of each segment.
        system_human: Mean human number of each system (over its judged segments).
        pairs: The relative-ranking pairs (:func:`ranking_pairs` over the segment groups).
    """

    human: Any
    systems: Any
    system_human: Any
    pairs: tuple[Any, Any]

    @classmethod
    def build(
        cls,
        human: Sequence[float],
        systems: Sequence[str],
        groups: Sequence[object],
        *,
        margin: float = 0.0,
    ) -> HumanData:
        """Lay out one pair's judgements (``groups``: the source segment of each item)."""
        h = np.asarray(human, dtype=np.float64)
        s = _dense_ranks(np.asarray(list(systems)))
        counts = np.bincount(s)
        means = np.bincount(s, weights=h) / counts
        return cls(h, s, means, ranking_pairs(h, groups, margin=margin))


@dataclass(frozen=True, slots=True)
class Objective:
    """A weighted mix of measures, averaged over language pairs.

    Attributes:
        weights: Weight of each measure used (positive; normalised to sum 1 when scoring).
    """

    weights: tuple[tuple[Measure, float], ...]

    @property
    def label(self) -> str:
        """The objective as ``--objective`` writes it (``kendall`` or ``kendall:0.5,...``)."""
        if len(self.weights) == 1:
            return self.weights[0][0]
        return ",".join(f"{name}:{weight:g}" for name, weight in self.weights)

    def measures(
        self, segment_scores: Any, system_scores: Any, data: HumanData
    ) -> dict[str, float]:
        """Every measure of one pair, given segment scores and per-system scores."""
        values: dict[str, float] = {}
        for name, _ in self.weights:
            values[name] = _measure(name, segment_scores, system_scores, data)
        return values

    def combine(self, per_pair: Sequence[Mapping[str, float]]) -> float:
        """The objective's value: the weighted mix of the measures' means over pairs.

        A NaN measure (the metric constant over a pair: degenerate settings such as alpha 0,
        beta 0, gamma 1 score everything 0) makes the value NaN, which every search ranks
        below any number: counting it as 0 let degenerate settings beat a negative default
        (issue #28). The human side is checked once, before any search
        (:func:`check_human_data`), so a NaN here always comes from the parameters.
        """
        total = sum(w for _, w in self.weights)
        value = 0.0
        for name, weight in self.weights:
            numbers = [p[name] for p in per_pair]
            if any(math.isnan(n) for n in numbers):
                return math.nan
            value += weight * (sum(numbers) / len(numbers) if numbers else 0.0)
        return value / total


def check_human_data(pair: str, data: HumanData, measures: Sequence[str]) -> None:
    """Refuse a language pair whose human side leaves a measure undefined for every metric.

    Kendall's tau-b needs two different human numbers, tau-like one ranking pair, Pearson and
    Spearman two systems with different mean human numbers; otherwise the measure is NaN
    whatever the parameters, and tuning would have nothing to follow.

    Raises:
        InputError: naming the pair and the measure.
    """
    from meteor_eval.errors import InputError

    for name in measures:
        if name == "kendall" and len(np.unique(data.human)) < 2:
            problem = "every human number is the same"
        elif name == "tau-like" and len(data.pairs[0]) == 0:
            problem = "no two judgements of one segment differ (no ranking pair)"
        elif name in ("pearson", "spearman") and len(np.unique(data.system_human)) < 2:
            problem = "fewer than two systems with different mean human numbers"
        else:
            continue
        raise InputError(
            f"language pair {pair!r}: {problem}, so {name} is undefined for any parameters; "
            "check the human field (and --human-kind)"
        )


def _measure(name: str, segment_scores: Any, system_scores: Any, data: HumanData) -> float:
    if name == "kendall":
        return kendall_tau_b(segment_scores, data.human)
    if name == "tau-like":
        return tau_like(segment_scores, data.pairs)
    if name == "pearson":
        return pearson(system_scores, data.system_human)
    return spearman(system_scores, data.system_human)


def parse_objective(text: str) -> Objective:
    """``kendall``, ``pearson`` ... or a mix ``kendall:0.7,pearson:0.3``.

    Raises:
        ValueError: an unknown measure, a repeated one, or a weight that is not a positive
            finite number; the message names what is wrong.

    Example:
        >>> parse_objective("kendall:0.7,pearson:0.3").label
        'kendall:0.7,pearson:0.3'
    """
    weights: list[tuple[Measure, float]] = []
    for part in text.split(","):
        name, _, weight_text = part.strip().partition(":")
        if name not in MEASURES:
            raise ValueError(f"unknown measure {name!r}; allowed: {', '.join(MEASURES)}")
        if name in (n for n, _ in weights):
            raise ValueError(f"measure {name!r} given twice")
        try:
            weight = float(weight_text) if weight_text else 1.0
        except ValueError:
            raise ValueError(f"weight of {name!r} is not a number: {weight_text!r}") from None
        if not math.isfinite(weight) or weight <= 0:
            raise ValueError(f"weight of {name!r} must be a positive number, not {weight_text!r}")
        weights.append((name, weight))
    return Objective(tuple(weights))
