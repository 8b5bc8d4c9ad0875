"""Re-scoring stored statistics under other parameters, vectorised, bit-identical with the scorer.

Align once with every module, keep each segment's 23-number statistics row
(:meth:`~meteor_eval.stats.meteor.MeteorStats.to_row`), then score those rows under any
:class:`TuningParams` without aligning again: this is how the METEOR 1.5 jar's ``Trainer`` searches
its parameter grid, and what :mod:`meteor_eval.tuning` builds on.

Every score equals, bit for bit, what
:func:`meteor_eval.metrics.meteor.formula.score_from_stats` gives for the same record under
:meth:`TuningParams.apply`: the weighted sums are the formula's own
(:func:`~meteor_eval.metrics.meteor.formula._weighted_sums`, run on whole columns, the same
operations as in :func:`~meteor_eval.metrics.meteor.formula.scores_of_totals`), and the
fragmentation power is computed once per distinct ``(chunks, matched units)`` pair by the
formula's scalar :func:`~meteor_eval.metrics.meteor.formula.fragmentation_penalty`, so the
``meteor15`` flavour keeps the JVM's ``Math.pow`` table. NumPy's vector power is not used: it can
differ from ``math.pow`` in the last bit.

Several references per segment: give one row per (segment, reference) (the statistics of the
hypothesis against each reference alone, e.g. ``Meteor.best_stats(hypothesis, [reference])``; an
alignment does not depend on the parameters) and a ``segments`` array numbering the segment of
each row (rows of a segment adjacent, segments in order). A segment's
score is its best reference's, and which reference is best can change with the parameters, so it
is chosen again for each parameter set: the first reference with the highest score, as the jar
does (it replaces its best only on a strictly higher score).

Corpus scores (:func:`system_scores`) pool the best rows of each group's segments with the jar's
rule (a perfect record adds no chunks; ``paper2005`` adds them) and score the totals the same way.

Example:
    >>> from meteor_eval.stats.meteor import MeteorStats
    >>> s = MeteorStats(4, 5, 1, 2, ((2, 2, 1, 1), (1, 1, 0, 0)), 2, 4, 4)
    >>> rows = stats_matrix([s])
    >>> params = TuningParams(alpha=0.85, beta=0.2, gamma=0.6, delta=0.75, weights=(1.0, 0.6))
    >>> float(segment_scores(rows, params)[0])
    0.3874187120549737
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, get_args

import numpy as np
import numpy.typing as npt

from meteor_eval.errors import InputError
from meteor_eval.metrics.meteor.formula import (
    _weighted_sums,
    fragmentation_counts,
    fragmentation_powers,
)
from meteor_eval.stats.meteor import ROW_LENGTH, MeteorStats, row_problem

if TYPE_CHECKING:
    from meteor_eval.metrics.meteor.config import MeteorConfig

__all__ = [
    "MAX_STAGES",
    "PreparedStats",
    "RescoreFlavour",
    "TuningParams",
    "block_scores",
    "prepare_stats",
    "segment_scores",
    "segment_scores_grid",
    "stats_matrix",
    "system_scores",
]

#: Flavours whose formula works on the 23-number rows (NLTK's has no stages or function words).
RescoreFlavour = Literal["meteor15", "paper2005"]
_FLAVOURS: tuple[str, ...] = get_args(RescoreFlavour)

#: Module stages a statistics row holds (the jar's ``MAX_MODULES``).
MAX_STAGES = 4

#: Cells (parameter sets x rows) scored at once by the grid functions: bounds their memory.
_BLOCK_CELLS = 1 << 21

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


def _check_finite(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{name}: expected a number, got {type(value).__name__}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{name}: {value!r} is not a finite number")
    return number


@dataclass(frozen=True, slots=True)
class TuningParams:
    """One parameter set of the METEOR formula: what a tuning run searches over.

    No range is imposed beyond finiteness, because a grid search may step just past a bound
    (the jar's Trainer reaches ``alpha = 1.0000000000000002``); :meth:`apply` builds a
    configuration, which validates its values as usual.

    Attributes:
        alpha: Precision/recall balance of Fmean.
        beta: Exponent of the fragmentation penalty.
        gamma: Maximum fragmentation penalty.
        delta: Weight of content words (function words get ``1 - delta``).
        weights: Scoring weight per module stage, by position (1 to 4 of them; stages past
            the last weight count nothing, as in the jar).
    """

    alpha: float
    beta: float
    gamma: float
    delta: float
    weights: tuple[float, ...]

    def __post_init__(self) -> None:
        for name in ("alpha", "beta", "gamma", "delta"):
            object.__setattr__(self, name, _check_finite(name, getattr(self, name)))
        if isinstance(self.weights, str) or not isinstance(self.weights, Sequence):
            raise TypeError("weights: expected a sequence of numbers")
        weights = tuple(_check_finite(f"weights[{k}]", w) for k, w in enumerate(self.weights))
        if not 1 <= len(weights) <= MAX_STAGES:
            raise ValueError(
                f"weights: {len(weights)} weights; a statistics row holds 1 to {MAX_STAGES} stages"
            )
        object.__setattr__(self, "weights", weights)

    @classmethod
    def from_config(cls, config: MeteorConfig) -> TuningParams:
        """The parameters and module weights of a configuration."""
        return cls(config.alpha, config.beta, config.gamma, config.delta, tuple(config.weights))

    def apply(self, config: MeteorConfig) -> MeteorConfig:
        """``config`` with these parameters and weights (validated by the configuration).

        Raises:
            ConfigError: a value the configuration refuses (alpha above 1, a weight count other
                than the number of modules, ...).
        """
        return config.replace(
            alpha=self.alpha,
            beta=self.beta,
            gamma=self.gamma,
            delta=self.delta,
            weights=self.weights,
        )


def stats_matrix(stats: Sequence[MeteorStats]) -> Ints:
    """Statistics records as an ``(n, 23)`` int64 matrix of rows in the jar's order.

    Each row is checked as ``--from-stats`` checks a statistics file's
    (:func:`~meteor_eval.stats.meteor.row_problem`): records built by hand or read from
    elsewhere could otherwise be tuned on with scores above 1.

    Raises:
        InputError: a record no scoring run gives (a negative count, more matches than units,
            more chunks than matched words...), named by its index.

    Example:
        >>> stats_matrix([MeteorStats.zero()]).shape
        (1, 23)
    """
    rows = [record.to_row() for record in stats]
    for index, row in enumerate(rows):
        problem = row_problem(row)
        if problem is not None:
            raise InputError(f"stats[{index}]: impossible METEOR statistics: {problem}")
    return np.asarray(rows, dtype=np.int64).reshape(len(rows), ROW_LENGTH)


@dataclass(frozen=True, eq=False)
class PreparedStats:
    """Statistics rows in the columns the formula reads, prepared once for many re-scores.

    Build with :func:`prepare_stats`. Holds the float64 columns, the distinct fragmentation
    pairs (each row's index into them) and, per exponent and flavour, the powers already
    computed, so that a grid search pays for each distinct ``beta`` once.

    Attributes:
        rows: The int64 rows, ``(n, 23)``.
        segments: Segment index of each row, or ``None`` when each row is its own segment.
        starts: First row of each segment (``None`` without ``segments``).
    """

    rows: Ints
    segments: Ints | None
    starts: Ints | None
    _lengths: tuple[Floats, Floats, Floats, Floats] = field(repr=False)
    _stages: tuple[tuple[Floats, Floats, Floats, Floats], ...] = field(repr=False)
    _pairs: Ints = field(repr=False)
    _pair_of_row: Ints = field(repr=False)
    _powers: dict[tuple[float, str], Floats] = field(default_factory=dict, repr=False)

    @property
    def n_segments(self) -> int:
        """Number of segments (rows when there is one reference per segment)."""
        return len(self.rows) if self.starts is None else len(self.starts)

    def powers(self, beta: float, flavour: RescoreFlavour) -> Floats:
        """``fragmentation ** beta`` of each row, as the scalar formula computes it."""
        key = (beta, flavour)
        cached = self._powers.get(key)
        if cached is None:
            values = np.array(
                fragmentation_powers(self._pairs.tolist(), beta, meteor15=flavour == "meteor15"),
                dtype=np.float64,
            )
            if len(self._powers) >= 64:
                self._powers.clear()
            cached = values[self._pair_of_row]
            self._powers[key] = cached
        return cached


def _check_segments(segments: Any, n_rows: int) -> tuple[Ints, Ints]:
    """The segment index array and each segment's first row; rows of a segment adjacent."""
    seg = np.asarray(segments)
    if seg.ndim != 1 or len(seg) != n_rows:
        raise ValueError(
            f"segments: expected one segment index per row ({n_rows}), got {seg.shape}"
        )
    if n_rows and not np.issubdtype(seg.dtype, np.integer):
        raise TypeError(f"segments: expected integers, got {seg.dtype}")
    seg = seg.astype(np.int64)
    if n_rows and (seg[0] != 0 or np.any(np.diff(seg) < 0) or np.any(np.diff(seg) > 1)):
        raise ValueError(
            "segments: rows must be grouped by segment in order (0, 0, 1, 2, 2, ...): each "
            "segment's rows adjacent, segments numbered from 0 without gaps"
        )
    starts = np.flatnonzero(np.diff(seg, prepend=-1)).astype(np.int64)
    return seg, starts


def _distinct_rows(triples: Ints) -> tuple[Ints, Ints]:
    """Distinct ``(chunks, matched, perfect)`` rows and each row's index into them.

    One integer key per row when the counts fit (``np.unique`` on a 1-D array is many times
    faster than on rows); the row-wise ``np.unique`` otherwise.
    """
    if len(triples) and int(triples[:, :2].max()) < 1 << 30:
        keys = (triples[:, 0] << 31 | triples[:, 1]) << 1 | triples[:, 2]
        distinct, inverse = np.unique(keys, return_inverse=True)
        pairs = np.stack([distinct >> 32, (distinct >> 1) & ((1 << 31) - 1), distinct & 1], axis=1)
        return pairs.astype(np.int64), inverse.reshape(-1).astype(np.int64)
    pairs, inverse = np.unique(triples, axis=0, return_inverse=True)
    return pairs.astype(np.int64).reshape(-1, 3), inverse.reshape(-1).astype(np.int64)


def prepare_stats(rows: Any, *, segments: Any = None) -> PreparedStats:
    """Prepare statistics rows for re-scoring.

    Args:
        rows: An ``(n, 23)`` array of statistics rows (:func:`stats_matrix`), whole numbers.
        segments: With several references per segment: the segment index of each row, rows of
            a segment adjacent and segments numbered in order from 0. ``None``: one row per
            segment.

    Raises:
        ValueError: rows of the wrong shape, negative or non-integral counts, or a
            ``segments`` array that does not number adjacent rows in order.
    """
    data = np.asarray(rows)
    if data.ndim != 2 or data.shape[1] != ROW_LENGTH:
        raise ValueError(f"rows: expected an (n, {ROW_LENGTH}) array, got shape {data.shape}")
    if not np.issubdtype(data.dtype, np.integer):
        as_float = data.astype(np.float64)
        if not np.all(np.isfinite(as_float)) or np.any(as_float != np.floor(as_float)):
            raise ValueError("rows: statistics are whole numbers")
    ints = data.astype(np.int64)
    if np.any(ints < 0):
        raise ValueError("rows: statistics are non-negative counts")
    seg, starts = (None, None) if segments is None else _check_segments(segments, len(ints))
    cols = ints.astype(np.float64)
    lengths = (cols[:, 0], cols[:, 1], cols[:, 2], cols[:, 3])
    stages = tuple(
        (cols[:, 4 + 4 * s], cols[:, 5 + 4 * s], cols[:, 6 + 4 * s], cols[:, 7 + 4 * s])
        for s in range(MAX_STAGES)
    )
    pairs, inverse = _distinct_rows(fragmentation_counts(ints).reshape(-1, 3))
    return PreparedStats(
        rows=ints,
        segments=seg,
        starts=starts,
        _lengths=lengths,
        _stages=stages,
        _pairs=pairs,
        _pair_of_row=inverse,
    )


def _prepared(rows: Any, segments: Any) -> PreparedStats:
    if isinstance(rows, PreparedStats):
        if segments is not None:
            raise ValueError(
                "segments: prepared statistics carry their own; pass it to prepare_stats"
            )
        return rows
    return prepare_stats(rows, segments=segments)


def _check_flavour(flavour: str) -> None:
    if flavour not in _FLAVOURS:
        raise ValueError(
            f"flavour: {flavour!r} cannot be re-scored; allowed: {', '.join(_FLAVOURS)}"
        )


def _precision_recall(
    prepared: PreparedStats, delta: Any, weights: Sequence[Any]
) -> tuple[Floats, Floats]:
    """Precision and recall of every row: the formula's weighted sums on whole columns.

    ``delta`` and each weight are floats (one parameter set) or ``(k, 1)`` columns (``k`` sets:
    ``(k, n)`` arrays).
    """
    hyp_lw, ref_lw, hyp_mw, ref_mw = _weighted_sums(
        prepared._lengths, prepared._stages[: len(weights)], weights, delta
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        return hyp_mw / hyp_lw, ref_mw / ref_lw


def _scores(precision: Floats, recall: Floats, alpha: Any, gamma: Any, powers: Floats) -> Floats:
    """Scores from precision, recall and ``fragmentation ** beta`` (scalars or columns)."""
    penalty = gamma * powers
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        fmean = 1.0 / ((1.0 - alpha) / precision + alpha / recall)
        score = fmean * (1.0 - penalty)
    # The scalar's ``0.0 if isnan(score) else max(score, 0.0)``, -0.0 kept as Python's max keeps it.
    result: Floats = np.where(np.isnan(score), 0.0, np.where(score < 0.0, 0.0, score))
    return result


def _row_scores(prepared: PreparedStats, params: TuningParams, flavour: RescoreFlavour) -> Floats:
    """The score of every row under one parameter set."""
    powers = prepared.powers(params.beta, flavour)
    precision, recall = _precision_recall(prepared, params.delta, params.weights)
    return _scores(precision, recall, params.alpha, params.gamma, powers)


def block_scores(
    rows: Any,
    values: Any,
    *,
    flavour: RescoreFlavour = "meteor15",
) -> Floats:
    """Row scores of many parameter sets given as a matrix: a ``(k, n_rows)`` array.

    The fast path of a grid search: one parameter set per row of ``values``, whose columns are
    alpha, beta, gamma, delta and one weight per stage (4 + 1 to 4 columns). Each score is
    bit-identical with :func:`segment_scores` of the same set; references are not reduced to
    segments here.

    Args:
        rows: Statistics rows or :class:`PreparedStats`.
        values: A ``(k, 5..8)`` float array of parameter sets.
        flavour: ``"meteor15"`` or ``"paper2005"``.
    """
    _check_flavour(flavour)
    prepared = _prepared(rows, None)
    table = np.asarray(values, dtype=np.float64)
    if table.ndim != 2 or not 5 <= table.shape[1] <= 4 + MAX_STAGES:
        raise ValueError(
            f"values: expected a (k, 5..{4 + MAX_STAGES}) array of parameter sets, "
            f"got shape {table.shape}"
        )
    if not np.all(np.isfinite(table)):
        raise ValueError("values: parameters must be finite numbers")
    # A grid repeats each beta and each (delta, weights) many times: powers, precision and
    # recall are computed once per distinct value (compared bit for bit) and gathered.
    betas, which = np.unique(table[:, 1], return_inverse=True)
    powers = np.stack([prepared.powers(float(b), flavour) for b in betas])[which.reshape(-1)]
    sums_key = np.ascontiguousarray(table[:, 3:]).view(np.int64)
    distinct, inverse = np.unique(sums_key, axis=0, return_inverse=True)
    columns = distinct.view(np.float64)[:, :, None]
    weights = [columns[:, 1 + s] for s in range(columns.shape[1] - 1)]
    precision, recall = _precision_recall(prepared, columns[:, 0], weights)
    pick = inverse.reshape(-1)
    return _scores(precision[pick], recall[pick], table[:, 0, None], table[:, 2, None], powers)


def _best_rows(prepared: PreparedStats, scores: Floats) -> Ints:
    """Index of each segment's first row with the segment's highest score."""
    if prepared.starts is None or prepared.segments is None:
        return np.arange(len(scores), dtype=np.int64)
    if len(scores) == 0:
        return np.zeros(0, dtype=np.int64)
    best = np.maximum.reduceat(scores, prepared.starts)
    index = np.arange(len(scores), dtype=np.int64)
    candidates = np.where(scores == best[prepared.segments], index, len(scores))
    return np.minimum.reduceat(candidates, prepared.starts)


def segment_scores(
    rows: Any,
    params: TuningParams,
    *,
    segments: Any = None,
    flavour: RescoreFlavour = "meteor15",
) -> Floats:
    """Segment scores under ``params``, as the scorer gives them, bit for bit.

    Args:
        rows: Statistics rows (``(n, 23)``, :func:`stats_matrix`) or :class:`PreparedStats`
            (faster when the same rows are scored many times).
        params: The parameter set.
        segments: Segment index of each row when segments have several references (see
            :func:`prepare_stats`); a segment scores its best reference.
        flavour: ``"meteor15"`` (the jar: perfect-match rule and the JVM's power) or
            ``"paper2005"``.

    Returns:
        One float64 score per segment.
    """
    _check_flavour(flavour)
    prepared = _prepared(rows, segments)
    scores = _row_scores(prepared, params, flavour)
    if prepared.starts is None:
        return scores
    return scores[_best_rows(prepared, scores)]


def segment_scores_grid(
    rows: Any,
    params_list: Sequence[TuningParams],
    *,
    segments: Any = None,
    flavour: RescoreFlavour = "meteor15",
) -> Floats:
    """:func:`segment_scores` for many parameter sets: a ``(k, n_segments)`` array.

    The rows are prepared once, each distinct ``beta``'s powers computed once, and the sets
    scored in blocks (:func:`block_scores`), so a grid costs a few vector operations per block.
    """
    _check_flavour(flavour)
    prepared = _prepared(rows, segments)
    out = np.empty((len(params_list), prepared.n_segments), dtype=np.float64)
    by_stages: dict[int, list[int]] = {}
    for k, params in enumerate(params_list):
        by_stages.setdefault(len(params.weights), []).append(k)
    block = max(1, _BLOCK_CELLS // max(1, len(prepared.rows)))
    for indexes in by_stages.values():
        for start in range(0, len(indexes), block):
            chosen = indexes[start : start + block]
            values = [
                (p.alpha, p.beta, p.gamma, p.delta, *p.weights)
                for p in (params_list[k] for k in chosen)
            ]
            scores = block_scores(prepared, values, flavour=flavour)
            if prepared.starts is not None:
                scores = np.stack([row[_best_rows(prepared, row)] for row in scores])
            out[chosen] = scores
    return out


def system_scores(
    rows: Any,
    groups: Any,
    params: TuningParams,
    *,
    segments: Any = None,
    flavour: RescoreFlavour = "meteor15",
    n_groups: int | None = None,
) -> Floats:
    """Corpus score of each group of segments (a system, a document) under ``params``.

    Each segment contributes its best reference's row (chosen under ``params``); a group's rows
    are pooled as the jar pools them (``meteor15``: a perfect record adds no chunks) and the
    totals are scored with the same formula, so the result equals the scorer's corpus score.

    Args:
        rows: Statistics rows or :class:`PreparedStats`.
        groups: Group index (0, 1, ...) of each segment.
        params: The parameter set.
        segments: Segment index of each row (several references per segment).
        flavour: ``"meteor15"`` or ``"paper2005"``.
        n_groups: Number of groups (default: the largest index plus one); an empty group
            scores 0.0.

    Returns:
        One float64 score per group.

    Raises:
        ValueError: ``groups`` does not give one non-negative index per segment.
    """
    _check_flavour(flavour)
    prepared = _prepared(rows, segments)
    group = np.asarray(groups)
    if group.ndim != 1 or len(group) != prepared.n_segments:
        raise ValueError(
            f"groups: expected one group index per segment ({prepared.n_segments}), "
            f"got shape {group.shape}"
        )
    if len(group) and (not np.issubdtype(group.dtype, np.integer) or group.min() < 0):
        raise ValueError("groups: expected non-negative integer group indexes")
    size = int(group.max()) + 1 if len(group) else 0
    size = size if n_groups is None else max(size, n_groups)
    best = _best_rows(prepared, _row_scores(prepared, params, flavour))
    chosen = prepared.rows[best].astype(np.float64)
    if flavour == "meteor15":
        perfect = prepared._pairs[prepared._pair_of_row[best], 2] == 1
        chosen[:, 20] = np.where(perfect, 0.0, chosen[:, 20])
    totals = np.stack(
        [np.bincount(group, weights=chosen[:, c], minlength=size) for c in range(ROW_LENGTH)],
        axis=1,
    ).reshape(size, ROW_LENGTH)
    return _row_scores(prepare_stats(np.rint(totals).astype(np.int64)), params, flavour)
