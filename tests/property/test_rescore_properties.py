"""Vectorised re-scoring equals the scalar formula bit for bit, for any parameter set (hypothesis).

Rows are the jar's own ``-ssOut`` statistics of the xray data (2,489 segments, exact, stem and
synonym stages); the scalar side is :func:`meteor_eval.metrics.meteor.formula.components`, which
:func:`score_from_stats` calls (used directly so that out-of-range values a configuration would
refuse are tested too).
"""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from fakes import formula_score
from meteor_eval.stats.meteor import MeteorStats
from meteor_eval.tuning import (
    TuningParams,
    prepare_stats,
    segment_scores,
    segment_scores_grid,
    system_scores,
)

GOLDEN = Path(__file__).resolve().parents[1] / "reference" / "golden" / "meteor15"

with gzip.open(GOLDEN / "xray-system1.en-norm-esn.stats.gz", "rt", encoding="utf-8") as _f:
    ROWS = np.array([[float(x) for x in line.split()] for line in _f], dtype=np.int64)
RECORDS = [MeteorStats.from_row(r) for r in ROWS.tolist()]
PREPARED = prepare_stats(ROWS)

unit = st.floats(0.0, 1.0, allow_nan=False)
params_st = st.builds(
    TuningParams,
    alpha=st.one_of(unit, st.floats(1.0, 1.0000000000000004)),
    # The JVM table's exponents (its corrections must apply) and any others.
    beta=st.one_of(st.sampled_from([0.0, 0.1, 0.2, 1.3, 1.4, 1.5, 3.0]), st.floats(0.0, 4.0)),
    gamma=unit,
    delta=unit,
    weights=st.lists(st.floats(0.0, 1.5), min_size=1, max_size=4).map(tuple),
)


def _scalar(record: MeteorStats, p: TuningParams, flavour: str) -> float:
    jar = flavour == "meteor15"
    return formula_score(record, p, zero_penalty_if_perfect=jar, jvm_pow=jar)


def _bits(values: object) -> list[int]:
    return np.asarray(values, dtype=np.float64).view(np.int64).tolist()


@settings(max_examples=25, deadline=None)
@given(params_st, st.sampled_from(["meteor15", "paper2005"]))
def test_segment_scores_equal_the_scalar_formula(params: TuningParams, flavour: str) -> None:
    got = segment_scores(PREPARED, params, flavour=flavour)  # type: ignore[arg-type]
    assert _bits(got) == _bits([_scalar(r, params, flavour) for r in RECORDS])


@settings(max_examples=40, deadline=None)
@given(params_st, st.lists(st.integers(1, 3), min_size=1, max_size=60), st.integers(0, 2000))
def test_several_references_keep_the_first_best(
    params: TuningParams, n_refs: list[int], offset: int
) -> None:
    # Segment i gets n_refs[i] consecutive xray rows as its references.
    index = (offset + np.arange(sum(n_refs))) % len(ROWS)
    segments = np.repeat(np.arange(len(n_refs)), n_refs)
    got = segment_scores(ROWS[index], params, segments=segments)
    expected, best_rows, k = [], [], 0
    for n in n_refs:
        scores = [_scalar(RECORDS[i], params, "meteor15") for i in index[k : k + n]]
        best = max(range(n), key=lambda j: (scores[j], -j))
        expected.append(scores[best])
        best_rows.append(RECORDS[index[k + best]])
        k += n
    assert _bits(got) == _bits(expected)
    # The corpus pools those same best rows (a perfect record adds no chunks).
    total = MeteorStats.zero()
    for record in best_rows:
        total = total + record
    pooled = system_scores(
        ROWS[index], np.zeros(len(n_refs), dtype=np.int64), params, segments=segments
    )
    assert _bits(pooled) == _bits([_scalar(total, params, "meteor15")])


@settings(max_examples=25, deadline=None)
@given(
    st.lists(params_st, min_size=1, max_size=6),
    st.lists(st.integers(1, 3), min_size=1, max_size=40),
)
def test_grid_equals_one_parameter_set_at_a_time(
    params_list: list[TuningParams], n_refs: list[int]
) -> None:
    # Mixed numbers of weights and several references per segment: each row of the grid is
    # exactly segment_scores of its parameter set.
    segments = np.repeat(np.arange(len(n_refs)), n_refs)
    rows = ROWS[: len(segments)]
    grid = segment_scores_grid(rows, params_list, segments=segments)
    for k, params in enumerate(params_list):
        assert _bits(grid[k]) == _bits(segment_scores(rows, params, segments=segments))
