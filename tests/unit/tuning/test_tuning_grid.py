"""The jar Trainer's grid: accumulated axis values, the jar's order, refusals."""

from __future__ import annotations

import math

import numpy as np
import pytest

from meteor_eval.tuning.grid import ParameterGrid, axis_values


def test_axis_values_accumulate_like_the_jars_loop() -> None:
    # 0.1 + 0.05 is 0.15000000000000002; the 0.001 of slack keeps 0.2 after the drift.
    assert axis_values(0.1, 0.2, 0.05) == (0.1, 0.15000000000000002, 0.2)
    assert axis_values(0.0, 0.3, 0.1) == (0.0, 0.1, 0.2, 0.30000000000000004)
    assert axis_values(1.0, 0.5, 0.1) == ()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0.5, 0.5, 0.0), "never reaches the final value"),
        ((0.0, 1.0, -0.1), "never reaches the final value"),
        ((math.nan, 1.0, 0.1), "initial value nan is not a finite number"),
        ((0.0, math.inf, 0.1), "final value inf is not a finite number"),
        ((0.0, 1e7, 1e-3), "more than 1,000,000 values"),
    ],
)
def test_axes_that_never_end_are_refused(args: tuple[float, float, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        axis_values(*args)


def test_grid_order_is_first_value_outermost() -> None:
    grid = ParameterGrid.from_ranges([0.0, 0.0, 7.0], [0.1, 1.0, 7.0], [0.1, 1.0])
    assert grid.size == 4
    rows = np.concatenate(list(grid.blocks(3))).tolist()
    assert rows == [[0.0, 0.0, 7.0], [0.0, 1.0, 7.0], [0.1, 0.0, 7.0], [0.1, 1.0, 7.0]]


def test_grid_without_steps_is_the_initial_values_once() -> None:
    grid = ParameterGrid.from_ranges([0.5, 0.2], [0.0, 0.0], [])
    assert [b.tolist() for b in grid.blocks(10)] == [[[0.5, 0.2]]]


def test_more_steps_than_values_are_refused() -> None:
    with pytest.raises(ValueError, match="3 steps for 2 initial and 3 final values"):
        ParameterGrid.from_ranges([0.0, 0.0], [1.0, 1.0, 1.0], [0.5, 0.5, 0.5])
    with pytest.raises(ValueError, match=r"value 2: step 0\.0 never reaches"):
        ParameterGrid.from_ranges([0.0, 0.0], [1.0, 1.0], [0.5, 0.0])
