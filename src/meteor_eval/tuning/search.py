"""Searching METEOR's parameters: the jar's exhaustive grid and coordinate descent.

The search space is a grid, as in METEOR 1.5's ``Trainer``: for each of alpha, beta, gamma,
delta and the module weights ``w1..wk`` a lower bound, an upper bound and a step (the jar's
defaults: alpha 0..1, beta 0..2, gamma 0..1, delta 0..1, ``w1`` fixed at 1, the other weights
0..1, all in steps of 0.05; the jar itself also fixes delta unless told otherwise).

* :func:`grid_search` evaluates every point, as the jar does. Exact, and only feasible on a
  coarse or narrow grid: the full default grid has 3,516,410,961 points for four modules.
* :func:`coordinate_descent` starts from the language's default parameters and from
  ``restarts`` random grid points (NumPy's generator seeded with ``seed``), and repeatedly sets
  one coordinate at a time to its best grid value until a whole round improves nothing. A few
  hundred evaluations per start instead of the whole grid; a local optimum, which the restarts
  guard against.

Both are deterministic: ties between points go to the one met first (the lower value of a
coordinate, the earlier start), and with ``jobs > 1`` points are evaluated in worker processes
but compared in the same order.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from meteor_eval.tuning.rescore import TuningParams

__all__ = [
    "PARAMETER_NAMES",
    "Dimension",
    "SearchResult",
    "Space",
    "coordinate_descent",
    "grid_search",
]

#: The four parameters, in the jar's order (weights follow as ``w1..wk``).
PARAMETER_NAMES = ("alpha", "beta", "gamma", "delta")

Evaluate = Callable[[TuningParams], float]
Progress = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class Dimension:
    """One searched coordinate: its name and the grid ``lower, lower + step, ..., upper``."""

    name: str
    lower: float
    upper: float
    step: float

    def __post_init__(self) -> None:
        for label, value in (("lower", self.lower), ("upper", self.upper), ("step", self.step)):
            if not math.isfinite(value) or value < 0:
                raise ValueError(f"{self.name}: {label} must be a finite number >= 0, not {value}")
        if self.upper < self.lower:
            raise ValueError(f"{self.name}: upper {self.upper} is below lower {self.lower}")
        if self.step == 0 and self.upper != self.lower:
            raise ValueError(f"{self.name}: a step of 0 needs lower == upper")
        bounded = self.name in ("alpha", "gamma", "delta") or self.name.startswith("w")
        if bounded and self.upper > 1:
            raise ValueError(f"{self.name}: upper {self.upper} is above 1")

    @property
    def values(self) -> tuple[float, ...]:
        """The grid values, rounded to 10 decimals so that 0.1 * 3 is 0.3."""
        if self.step == 0 or self.upper == self.lower:
            return (self.lower,)
        count = math.floor((self.upper - self.lower) / self.step + 1e-9) + 1
        return tuple(round(self.lower + k * self.step, 10) for k in range(count))

    def nearest(self, value: float) -> float:
        """The grid value nearest ``value`` (the lower one on a tie)."""
        return min(self.values, key=lambda v: (abs(v - value), v))


@dataclass(frozen=True)
class Space:
    """The grid searched: one :class:`Dimension` per parameter and per module weight."""

    dimensions: tuple[Dimension, ...]

    @classmethod
    def jar_default(cls, n_modules: int) -> Space:
        """The METEOR 1.5 Trainer's ranges and steps, with delta free (see the module doc)."""
        dims = [
            Dimension("alpha", 0.0, 1.0, 0.05),
            Dimension("beta", 0.0, 2.0, 0.05),
            Dimension("gamma", 0.0, 1.0, 0.05),
            Dimension("delta", 0.0, 1.0, 0.05),
            Dimension("w1", 1.0, 1.0, 0.0),
        ]
        dims += [Dimension(f"w{k}", 0.0, 1.0, 0.05) for k in range(2, n_modules + 1)]
        return cls(tuple(dims))

    @classmethod
    def from_lists(
        cls, lower: Sequence[float], upper: Sequence[float], step: Sequence[float]
    ) -> Space:
        """A space from the jar's ``-i``/``-f``/``-s`` lists: ``p1..p4 w1..wk`` each."""
        if not len(lower) == len(upper) == len(step) or len(lower) < 5:
            raise ValueError(
                "the lower, upper and step lists need the same length, at least 5 "
                f"(alpha beta gamma delta w1 ...); got {len(lower)}, {len(upper)}, {len(step)}"
            )
        names = [*PARAMETER_NAMES, *(f"w{k}" for k in range(1, len(lower) - 3))]
        return cls(
            tuple(
                Dimension(n, a, b, s) for n, a, b, s in zip(names, lower, upper, step, strict=True)
            )
        )

    @property
    def size(self) -> int:
        """Number of grid points."""
        return math.prod(len(d.values) for d in self.dimensions)

    def params(self, point: Sequence[float]) -> TuningParams:
        """The parameters of a point (one value per dimension, in order)."""
        return TuningParams(
            alpha=point[0],
            beta=point[1],
            gamma=point[2],
            delta=point[3],
            weights=tuple(point[4:]),
        )

    def snap(self, params: TuningParams) -> tuple[float, ...]:
        """The grid point nearest some parameters (a start for the descent)."""
        raw = (params.alpha, params.beta, params.gamma, params.delta, *params.weights)
        padded = (*raw, *(0.0,) * len(self.dimensions))[: len(self.dimensions)]
        return tuple(d.nearest(v) for d, v in zip(self.dimensions, padded, strict=True))

    def points(self) -> Iterator[tuple[float, ...]]:
        """Every grid point, the last dimension varying fastest."""
        return itertools.product(*(d.values for d in self.dimensions))


@dataclass
class SearchResult:
    """The best point found.

    Attributes:
        params: Its parameters.
        value: The objective there.
        evaluations: Points evaluated.
        starts: The start point and final value of each descent (coordinate descent only).
    """

    params: TuningParams
    value: float
    evaluations: int
    starts: list[dict[str, Any]] = field(default_factory=list)


# -- evaluation, here or in worker processes --------------------------------------------------

_WORKER_EVALUATE: Evaluate | None = None


def _init_worker(evaluate: Evaluate) -> None:
    global _WORKER_EVALUATE
    _WORKER_EVALUATE = evaluate


def _evaluate_in_worker(batch: list[TuningParams]) -> list[float]:
    assert _WORKER_EVALUATE is not None
    return [_WORKER_EVALUATE(p) for p in batch]


class _Evaluator:
    """Evaluates lists of points in order, here (``jobs=1``) or in a process pool."""

    def __init__(self, evaluate: Evaluate, jobs: int, progress: Progress | None) -> None:
        self.evaluate = evaluate
        self.progress = progress
        self.count = 0
        self.pool = (
            ProcessPoolExecutor(jobs, initializer=_init_worker, initargs=(evaluate,))
            if jobs > 1
            else None
        )
        self.jobs = jobs

    def __call__(self, params: list[TuningParams]) -> list[float]:
        if self.pool is None:
            values = [self.evaluate(p) for p in params]
        else:
            size = max(1, math.ceil(len(params) / (4 * self.jobs)))
            batches = [params[k : k + size] for k in range(0, len(params), size)]
            values = [v for part in self.pool.map(_evaluate_in_worker, batches) for v in part]
        self.count += len(params)
        if self.progress is not None:
            self.progress(self.count)
        return [-math.inf if math.isnan(v) else v for v in values]

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()


def grid_search(
    evaluate: Evaluate,
    space: Space,
    *,
    jobs: int = 1,
    progress: Progress | None = None,
    batch: int = 2048,
) -> SearchResult:
    """Every point of ``space``; the best (the first met on a tie).

    Example:
        >>> space = Space.from_lists([0, 0, 0, 0, 1], [1, 0, 0, 0, 1], [0.5, 0, 0, 0, 0])
        >>> grid_search(lambda p: -abs(p.alpha - 0.5), space).params.alpha
        0.5
    """
    runner = _Evaluator(evaluate, jobs, progress)
    best: tuple[float, ...] | None = None
    best_value = -math.inf
    try:
        points = space.points()
        while chunk := list(itertools.islice(points, batch)):
            values = runner([space.params(p) for p in chunk])
            for point, value in zip(chunk, values, strict=True):
                if best is None or value > best_value:
                    best, best_value = point, value
    finally:
        runner.close()
    assert best is not None
    return SearchResult(space.params(best), best_value, runner.count)


def _descend(
    runner: _Evaluator, space: Space, start: tuple[float, ...], max_rounds: int
) -> tuple[tuple[float, ...], float]:
    """Coordinate descent from one start: each round tries every value of each coordinate."""
    point = start
    value = runner([space.params(point)])[0]
    for _ in range(max_rounds):
        improved = False
        for k, dim in enumerate(space.dimensions):
            options = [v for v in dim.values if v != point[k]]
            if not options:
                continue
            candidates = [(*point[:k], v, *point[k + 1 :]) for v in options]
            values = runner([space.params(c) for c in candidates])
            j = max(range(len(values)), key=lambda i: (values[i], -i))
            if values[j] > value:
                point, value = candidates[j], values[j]
                improved = True
        if not improved:
            break
    return point, value


def coordinate_descent(
    evaluate: Evaluate,
    space: Space,
    *,
    start: TuningParams,
    restarts: int = 4,
    seed: int = 0,
    max_rounds: int = 10,
    jobs: int = 1,
    progress: Progress | None = None,
) -> SearchResult:
    """Coordinate descent from ``start`` and from ``restarts`` random grid points.

    Example:
        >>> space = Space.from_lists([0, 0, 0, 0, 1], [1, 2, 1, 1, 1], [0.1, 0.1, 0.1, 0.1, 0])
        >>> best = coordinate_descent(
        ...     lambda p: -((p.alpha - 0.3) ** 2) - (p.beta - 1.2) ** 2,
        ...     space,
        ...     start=TuningParams(0.5, 0.5, 0.5, 0.5, (1.0,)),
        ...     restarts=1,
        ... )
        >>> (best.params.alpha, best.params.beta)
        (0.3, 1.2)
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    starts = [space.snap(start)]
    for _ in range(restarts):
        starts.append(tuple(float(rng.choice(d.values)) for d in space.dimensions))
    runner = _Evaluator(evaluate, jobs, progress)
    best: tuple[float, ...] | None = None
    best_value = -math.inf
    log: list[dict[str, Any]] = []
    try:
        for origin in starts:
            point, value = _descend(runner, space, origin, max_rounds)
            log.append({"start": list(origin), "end": list(point), "value": value})
            if best is None or value > best_value:
                best, best_value = point, value
    finally:
        runner.close()
    assert best is not None
    return SearchResult(space.params(best), best_value, runner.count, log)
