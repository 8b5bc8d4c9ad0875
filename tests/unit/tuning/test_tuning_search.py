"""The searches and cross-validation of meteor_eval.tuning on synthetic problems with a known
optimum."""

from __future__ import annotations

import numpy as np
import pytest

from meteor_eval.tuning.crossval import leave_one_pair_out, summarise_folds
from meteor_eval.tuning.data import Judgements
from meteor_eval.tuning.objectives import parse_objective
from meteor_eval.tuning.problem import TuningProblem
from meteor_eval.tuning.rescore import TuningParams, segment_scores
from meteor_eval.tuning.search import Dimension, Space, coordinate_descent, grid_search

HIDDEN = TuningParams(alpha=0.3, beta=1.5, gamma=0.6, delta=0.7, weights=(1.0, 0.4))


def _rows(n: int, seed: int) -> np.ndarray:
    """Random but consistent statistics rows with two stages."""
    rng = np.random.default_rng(seed)
    rows = np.zeros((n, 23), dtype=np.int64)
    for k in range(n):
        hyp_len, ref_len = rng.integers(4, 20, 2)
        hyp_fun, ref_fun = rng.integers(0, 3, 2)
        c1 = rng.integers(0, min(hyp_len - hyp_fun, ref_len - ref_fun) // 2 + 1)
        c2 = rng.integers(0, min(hyp_len - hyp_fun, ref_len - ref_fun) - c1 + 1)
        f1 = rng.integers(0, min(hyp_fun, ref_fun) + 1)
        matched = c1 + c2 + f1
        rows[k, :4] = (hyp_len, ref_len, hyp_fun, ref_fun)
        rows[k, 4:8] = (c1, c1, f1, f1)
        rows[k, 8:12] = (c2, c2, 0, 0)
        rows[k, 20] = rng.integers(1, matched + 1) if matched else 0
        rows[k, 21:23] = (matched, matched)
    return rows


def _problem(objective: str = "kendall") -> TuningProblem:
    rows = _rows(120, seed=3)
    human = segment_scores(rows, HIDDEN).tolist()  # humans who score like HIDDEN
    judgements = Judgements(
        hypotheses=["x"] * 120,
        references=[["y"]] * 120,
        human=human,
        systems=[f"s{k % 4}" for k in range(120)],
        pairs=["p1" if k < 60 else "p2" for k in range(120)],
        segments=[str(k // 4) for k in range(120)],
    )
    return TuningProblem.build(rows, judgements, parse_objective(objective))


def _space() -> Space:
    return Space.from_lists([0, 0, 0, 0, 1, 0], [1, 2, 1, 1, 1, 1], [0.1] * 4 + [0, 0.1])


def test_dimension_values_are_rounded_grid_points() -> None:
    assert Dimension("beta", 0.0, 0.3, 0.1).values == (0.0, 0.1, 0.2, 0.3)
    assert Dimension("w1", 1.0, 1.0, 0.0).values == (1.0,)
    assert Dimension("alpha", 0.0, 1.0, 0.25).nearest(0.85) == 0.75


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("alpha", 0.0, 1.5, 0.1), "above 1"),
        (("beta", 1.0, 0.5, 0.1), "below lower"),
        (("beta", 0.0, 1.0, 0.0), "step of 0"),
        (("gamma", -0.1, 1.0, 0.1), ">= 0"),
    ],
)
def test_dimension_refuses(args: tuple[str, float, float, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Dimension(*args)


def test_jar_default_space_has_the_trainers_ranges() -> None:
    space = Space.jar_default(4)
    assert [d.name for d in space.dimensions] == [
        "alpha",
        "beta",
        "gamma",
        "delta",
        "w1",
        "w2",
        "w3",
        "w4",
    ]
    assert space.size == 21 * 41 * 21 * 21 * 1 * 21 * 21 * 21


def test_problem_scores_the_hidden_parameters_perfectly() -> None:
    problem = _problem()
    assert problem(HIDDEN) == pytest.approx(1.0)
    assert problem(TuningParams(0.9, 0.2, 0.1, 1.0, (1.0, 0.0))) < 0.95


def test_grid_search_finds_the_hidden_optimum() -> None:
    problem = _problem()
    space = Space.from_lists(
        [0.2, 1.4, 0.5, 0.6, 1, 0.3], [0.4, 1.6, 0.7, 0.8, 1, 0.5], [0.1] * 4 + [0, 0.1]
    )
    found = grid_search(problem, space)
    assert found.evaluations == 3**5
    assert found.value == pytest.approx(1.0)
    assert found.params == HIDDEN


def test_coordinate_descent_reaches_the_optimum_and_is_deterministic() -> None:
    problem = _problem()
    start = TuningParams(0.85, 0.2, 0.6, 0.75, (1.0, 0.6))
    first = coordinate_descent(problem, _space(), start=start, restarts=2, seed=7)
    again = coordinate_descent(problem, _space(), start=start, restarts=2, seed=7)
    assert first.value == pytest.approx(1.0)
    assert first.params == again.params and first.evaluations == again.evaluations
    assert len(first.starts) == 3
    # the default, snapped to the grid (a tie goes to the lower value)
    assert first.starts[0]["start"] == [0.8, 0.2, 0.6, 0.7, 1.0, 0.6]


def test_coordinate_descent_in_two_processes_gives_the_same_result() -> None:
    problem = _problem()
    start = TuningParams(0.85, 0.2, 0.6, 0.75, (1.0, 0.6))
    one = coordinate_descent(problem, _space(), start=start, restarts=0)
    two = coordinate_descent(problem, _space(), start=start, restarts=0, jobs=2)
    assert (one.params, one.value, one.evaluations) == (two.params, two.value, two.evaluations)


def test_system_level_objective_uses_pooled_scores() -> None:
    problem = _problem("pearson")
    measures = problem.measures(HIDDEN)
    assert set(measures) == {"p1", "p2"}
    assert all(-1.0 <= m["pearson"] <= 1.0 for m in measures.values())
    assert problem(HIDDEN) == pytest.approx(
        (measures["p1"]["pearson"] + measures["p2"]["pearson"]) / 2
    )


def test_leave_one_pair_out_reports_each_pair_held_out() -> None:
    problem = _problem()
    space = Space.from_lists(
        [0.3, 1.5, 0.6, 0.7, 1, 0.0], [0.3, 1.5, 0.6, 0.7, 1, 0.4], [0, 0, 0, 0, 0, 0.4]
    )
    default = TuningParams(0.3, 1.5, 0.6, 0.7, (1.0, 0.0))
    folds = leave_one_pair_out(problem, lambda p: grid_search(p, space), default)
    assert [f.held_out for f in folds] == ["p1", "p2"]
    assert all(f.params == HIDDEN for f in folds)
    assert all(f.held_out_measures["kendall"] == pytest.approx(1.0) for f in folds)
    summary = summarise_folds(folds)
    assert summary["tuned"]["kendall"] == pytest.approx(1.0)
    assert summary["default"]["kendall"] < 1.0
    with pytest.raises(ValueError, match="at least two pairs"):
        leave_one_pair_out(problem.subset(["p1"]), lambda p: grid_search(p, space), default)
