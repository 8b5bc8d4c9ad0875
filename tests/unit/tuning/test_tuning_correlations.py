"""Pearson and Spearman written once (``tuning.agreement``): NumPy's order for the tuning
objectives, the jar's Trainer order on request; the objectives' names are the same functions."""

from __future__ import annotations

import math

import numpy as np
import pytest

from meteor_eval.tuning import objectives
from meteor_eval.tuning.agreement import pearson, spearman, spearman_rho, weighted_pearson

X = [0.31, 0.52, 0.52, 0.18, 0.77, 0.40]
Y = [2.0, 3.5, 3.0, 1.0, 4.0, 3.0]


def test_objectives_use_the_one_definition() -> None:
    assert objectives.pearson is pearson
    assert objectives.spearman is spearman_rho


def test_pearson_numpy_order_by_hand() -> None:
    # r of (1, 2, 3) and (1, 2, 4): dx = (-1, 0, 1), dy = (-4/3, -1/3, 5/3): 3 / sqrt(2 * 14/3).
    assert pearson([1, 2, 3], [1, 2, 4]) == pytest.approx(3 / math.sqrt(28 / 3), abs=1e-15)
    assert math.isnan(pearson([1, 1, 1], [1, 2, 3]))
    assert math.isnan(pearson([1], [2]))


def test_jar_order_is_the_trainers() -> None:
    assert pearson(X, Y, order="jar") == float(weighted_pearson(X, Y, np.ones(len(X)))[()])
    assert spearman_rho(X, Y, order="jar") == float(spearman(X, Y)[()])
    assert pearson([1, 1, 1], [1, 2, 3], order="jar") == 0.0  # the jar's NaN -> 0.0
    assert pearson(X, Y, order="jar") == pytest.approx(pearson(X, Y), abs=1e-12)
    assert spearman_rho(X, Y, order="jar") == pytest.approx(spearman_rho(X, Y), abs=1e-12)


def test_spearman_rho_with_ties_equals_scipy() -> None:
    stats = pytest.importorskip("scipy.stats")
    assert spearman_rho(X, Y) == pytest.approx(stats.spearmanr(X, Y).statistic, abs=1e-12)
    assert spearman_rho([1, 2, 3, 4], [1, 3, 2, 4]) == 0.8


def test_bad_inputs_are_refused() -> None:
    with pytest.raises(ValueError, match="lengths differ"):
        pearson([1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match="order 'java' is unknown"):
        spearman_rho(X, Y, order="java")  # type: ignore[arg-type]
