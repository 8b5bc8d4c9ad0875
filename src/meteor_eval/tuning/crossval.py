"""Cross-validation by language pair: how well tuned parameters carry over to a new pair.

Leave one pair out: for each language pair, search the parameters on the other pairs and
measure them on the one left out. The mean of the held-out measures estimates how the tuned
parameters do on data they were not tuned on (a new pair; a new year is the stronger test,
kept apart by whoever prepares the data). The parameters finally kept are the ones searched on
every pair; the folds only report.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from meteor_eval._log import get_logger
from meteor_eval.tuning.problem import TuningProblem
from meteor_eval.tuning.rescore import TuningParams
from meteor_eval.tuning.search import SearchResult

__all__ = ["Fold", "leave_one_pair_out", "summarise_folds"]

Search = Callable[[TuningProblem], SearchResult]

_LOG = get_logger(__name__)


@dataclass
class Fold:
    """One fold: the pair held out, what was found without it, and how it did there.

    Attributes:
        held_out: The pair left out.
        params: The parameters searched on the other pairs.
        train_value: The objective on the other pairs.
        held_out_measures: Every measure of the objective on the held-out pair, tuned.
        default_measures: The same measures with the starting (default) parameters.
    """

    held_out: str
    params: TuningParams
    train_value: float
    held_out_measures: dict[str, float]
    default_measures: dict[str, float]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready record (for the parameter file's ``cv`` list)."""
        return {
            "held_out": self.held_out,
            "params": _params_json(self.params),
            "train_value": self.train_value,
            "tuned": self.held_out_measures,
            "default": self.default_measures,
        }


def _params_json(params: TuningParams) -> dict[str, Any]:
    return {
        "alpha": params.alpha,
        "beta": params.beta,
        "gamma": params.gamma,
        "delta": params.delta,
        "weights": list(params.weights),
    }


def leave_one_pair_out(
    problem: TuningProblem,
    search: Search,
    default: TuningParams,
    *,
    on_fold: Callable[[Fold], None] | None = None,
) -> list[Fold]:
    """One fold per language pair (at least two pairs are needed).

    Args:
        problem: All the data.
        search: Searches one problem (the same search as the final run).
        default: The parameters the held-out measures are compared with.
        on_fold: Called after each fold (progress, logging).

    Raises:
        ValueError: fewer than two pairs.
    """
    names = problem.pair_names
    if len(names) < 2:
        raise ValueError(f"cross-validation by pair needs at least two pairs, got {names}")
    folds = []
    for name in names:
        train = problem.subset([n for n in names if n != name])
        test = problem.subset([name])
        found = search(train)
        fold = Fold(
            name,
            found.params,
            found.value,
            test.measures(found.params)[name],
            test.measures(default)[name],
        )
        folds.append(fold)
        _LOG.info(
            "cross-validation: %s held out: %s (default %s)",
            name,
            _format(fold.held_out_measures),
            _format(fold.default_measures),
        )
        if on_fold is not None:
            on_fold(fold)
    return folds


def _format(measures: dict[str, float]) -> str:
    return ", ".join(f"{k} {v:.4f}" for k, v in measures.items())


def summarise_folds(folds: list[Fold]) -> dict[str, dict[str, float]]:
    """Mean held-out measures over the folds, tuned and default: ``{"tuned": {...}, ...}``."""
    out: dict[str, dict[str, float]] = {"tuned": {}, "default": {}}
    for key, attr in (("tuned", "held_out_measures"), ("default", "default_measures")):
        measures = [getattr(f, attr) for f in folds]
        for name in measures[0] if measures else {}:
            values = [m[name] for m in measures if not math.isnan(m[name])]
            out[key][name] = sum(values) / len(values) if values else math.nan
    return out
