"""A tuning problem: statistics rows, human judgements and an objective, evaluated per point.

:class:`TuningProblem` is the function the searches maximise. Calling it with parameters
re-scores every statistics row (:func:`meteor_eval.tuning.rescore.segment_scores`), pools the
rows of each system (:func:`~meteor_eval.tuning.rescore.system_scores`, only when a system-level
measure is asked for) and returns the objective: the weighted mix of the measures' means over
the language pairs. It pickles (worker processes receive it once) and :meth:`TuningProblem.subset`
keeps some pairs, for cross-validation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from meteor_eval.tuning.data import Judgements
from meteor_eval.tuning.objectives import HumanData, Objective, check_human_data
from meteor_eval.tuning.rescore import (
    PreparedStats,
    TuningParams,
    prepare_stats,
    segment_scores,
    system_scores,
)

__all__ = ["TuningProblem"]

_SYSTEM_MEASURES = ("pearson", "spearman")


@dataclass(frozen=True)
class _Pair:
    name: str
    index: Any  # item indices of this pair
    system_index: Any  # global system group of each of this pair's systems
    human: HumanData


@dataclass(frozen=True)
class TuningProblem:
    """Rows, judgements and objective; ``problem(params)`` is the objective's value.

    Attributes:
        rows: The statistics of every item, prepared for re-scoring (one row per reference).
        groups: Global system group of each item (one per pair and system).
        pairs: Per language pair, its items, systems and human data.
        objective: What is maximised.
    """

    rows: PreparedStats
    groups: Any
    pairs: tuple[_Pair, ...]
    objective: Objective

    @classmethod
    def build(
        cls,
        rows: Any,
        judgements: Judgements,
        objective: Objective,
        *,
        segments: Any = None,
        margin: float = 0.0,
    ) -> TuningProblem:
        """Lay out the data once.

        Args:
            rows: ``(n, 23)`` statistics rows: one per item, or one per reference of each
                item with ``segments`` numbering the item of each row (:func:`statistics
                <meteor_eval.tuning.data.statistics>` returns both).
            judgements: The items.
            objective: What is maximised.
            segments: The item of each row, with several references.
            margin: Smallest human difference of a relative-ranking pair.
        """
        prepared = prepare_stats(rows, segments=segments)
        if prepared.n_segments != len(judgements):
            raise ValueError(
                f"statistics of {prepared.n_segments} items for {len(judgements)} judgements"
            )
        keys = [f"{p}\t{s}" for p, s in zip(judgements.pairs, judgements.systems, strict=True)]
        names, groups = np.unique(np.asarray(keys), return_inverse=True)
        groups = groups.reshape(-1)
        pair_of_item = np.asarray(judgements.pairs)
        human = np.asarray(judgements.human, dtype=np.float64)
        pairs = []
        for name in judgements.pair_names:
            index = np.flatnonzero(pair_of_item == name)
            data = HumanData.build(
                human[index].tolist(),
                [judgements.systems[i] for i in index],
                [judgements.segments[i] for i in index],
                margin=margin,
            )
            check_human_data(name, data, [n for n, _ in objective.weights])
            system_index = np.unique(groups[index])
            pairs.append(_Pair(name, index, system_index, data))
        del names
        return cls(prepared, groups, tuple(pairs), objective)

    @property
    def pair_names(self) -> list[str]:
        """The language pairs, in input order."""
        return [p.name for p in self.pairs]

    def subset(self, names: Sequence[str]) -> TuningProblem:
        """The same problem on some pairs only (rows are shared, not copied per pair)."""
        keep = tuple(p for p in self.pairs if p.name in set(names))
        return TuningProblem(self.rows, self.groups, keep, self.objective)

    def measures(
        self, params: TuningParams, names: Sequence[str] | None = None
    ) -> dict[str, dict[str, float]]:
        """Every measure of the objective (or ``names``) per pair: ``{pair: {measure: value}}``."""
        wanted = list(names) if names is not None else [n for n, _ in self.objective.weights]
        segment = segment_scores(self.rows, params)
        system = None
        if any(n in _SYSTEM_MEASURES for n in wanted):
            system = np.asarray(system_scores(self.rows, self.groups, params))
        probe = Objective(tuple((n, 1.0) for n in wanted))  # type: ignore[misc]
        out: dict[str, dict[str, float]] = {}
        for pair in self.pairs:
            sys_scores = None if system is None else system[pair.system_index]
            out[pair.name] = probe.measures(segment[pair.index], sys_scores, pair.human)
        return out

    def __call__(self, params: TuningParams) -> float:
        """The objective's value under ``params`` (NaN when a measure is undefined there)."""
        return self.objective.combine(list(self.measures(params).values()))
