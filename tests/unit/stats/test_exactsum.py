"""``ExactSum``: the exact column sums of float rows, rounded once, equal ``math.fsum`` of each
column to the last bit, whatever the path (row by row, NumPy blocks, Python rows in batches),
the split or the order of merges; states written as doubles read back to the same sums."""

from __future__ import annotations

import itertools
import json
import math
import struct

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval.stats.exactsum import ExactSum

#: Finite doubles of every kind: subnormals, the extremes of the range, both signs.
FINITE = st.floats(allow_nan=False, allow_infinity=False)
#: What ROUGE sums: counts, scores in [0, 1], ROUGE-W's powers.
ROUGE_LIKE = st.one_of(
    st.integers(0, 10_000).map(float),
    st.floats(0.0, 1.0),
    st.floats(0.0, 1e6),
)
WIDTH = 3


def _bits(x: float) -> bytes:
    return struct.pack("<d", x)


def _fsum_columns(rows: list[list[float]], width: int) -> tuple[float, ...]:
    """The oracle: ``math.fsum`` of each column (a zero sum as +0.0, as Python 3.11 gives)."""
    return tuple(math.fsum(row[k] for row in rows) + 0.0 for k in range(width))


def _fsum_or_none(rows: list[list[float]], width: int) -> tuple[float, ...] | None:
    try:
        return _fsum_columns(rows, width)
    except OverflowError:  # "intermediate overflow": no oracle for these columns
        return None


def rows_of(values: st.SearchStrategy[float]) -> st.SearchStrategy[list[list[float]]]:
    return st.lists(st.lists(values, min_size=WIDTH, max_size=WIDTH), max_size=60)


def _row_by_row(rows: list[list[float]]) -> ExactSum:
    out = ExactSum(WIDTH)
    for row in rows:
        out.add_row(row)
    return out


def _block(rows: list[list[float]]) -> ExactSum:
    out = ExactSum(WIDTH)
    out.add_block(np.asarray(rows, dtype=np.float64).reshape(len(rows), WIDTH))
    return out


@settings(max_examples=300, deadline=None)
@given(rows=rows_of(FINITE))
def test_every_path_rounds_as_fsum(rows: list[list[float]]) -> None:
    expected = _fsum_or_none(rows, WIDTH)
    row_by_row, block = _row_by_row(rows), _block(rows)
    batched = ExactSum(WIDTH)
    batched.add_rows(rows)
    assert row_by_row == block == batched
    if expected is not None:
        assert [_bits(x) for x in block.rounded()] == [_bits(x) for x in expected]


@settings(max_examples=200, deadline=None)
@given(rows=rows_of(ROUGE_LIKE), cuts=st.lists(st.integers(0, 60), max_size=6), data=st.data())
def test_any_split_merged_in_any_order_gives_the_same_bits(
    rows: list[list[float]], cuts: list[int], data: st.DataObject
) -> None:
    bounds = sorted({0, len(rows), *(min(c, len(rows)) for c in cuts)})
    parts = []
    for k, (start, stop) in enumerate(itertools.pairwise(bounds)):
        # Python rows and NumPy blocks alternate: both paths hold the same integers
        part = ExactSum(WIDTH) if k % 2 else _block(rows[start:stop])
        if k % 2:
            part.add_rows(rows[start:stop])
        parts.append(part)
    order = data.draw(st.permutations(range(len(parts))))
    merged = ExactSum(WIDTH)
    for k in order:
        merged.merge(parts[k])
    assert merged == _row_by_row(rows)
    expected = _fsum_columns(rows, WIDTH)
    assert [_bits(x) for x in merged.rounded()] == [_bits(x) for x in expected]


@settings(max_examples=200, deadline=None)
@given(rows=rows_of(FINITE))
def test_partials_are_json_ready_and_read_back_to_the_same_sums(rows: list[list[float]]) -> None:
    total = _block(rows)
    try:
        columns = [total.partials(k) for k in range(WIDTH)]
    except OverflowError:
        return  # a sum beyond the double range has no rounded value and no partials
    again = ExactSum.from_partials(json.loads(json.dumps(columns)))
    assert again == total
    assert all(len(column) <= 41 for column in columns)  # 53 bits each of 2,098
    for k, column in enumerate(columns):
        assert math.fsum(column) == total.column(k)


def test_hand_computed_cases() -> None:
    total = ExactSum(4)
    total.add_row((0.1, 1e100, 5e-324, 2**53))
    total.add_row((0.2, 1.0, 5e-324, 1))
    total.add_row((0.3, -1e100, -5e-324, 1))
    # 0.1 + 0.2 + 0.3 is 0.6000000000000001 in a loop; exactly summed it rounds to 0.6
    assert total.column(0) == 0.6 and 0.1 + 0.2 + 0.3 != 0.6
    assert total.column(1) == 1.0  # the huge values cancel exactly, the 1.0 survives
    assert total.column(2) == 5e-324  # subnormals summed exactly
    # 2**53 + 1 + 1: a loop rounds 2**53 + 1 down to 2**53 twice; exactly it is 2**53 + 2
    assert total.column(3) == 2.0**53 + 2 and (2.0**53 + 1) + 1 == 2.0**53
    assert total.partials(3) == [2.0**53 + 2]
    assert ExactSum(2).rounded() == (0.0, 0.0) and ExactSum(0).rounded() == ()


def test_subnormal_and_extreme_values_in_blocks() -> None:
    values = [5e-324, 2.2250738585072014e-308, 2.225073858507201e-308, 1.7976931348623157e308]
    block = ExactSum(1)
    block.add_block(np.asarray([[v] for v in values] + [[-1.7976931348623157e308]]))
    assert block.column(0) == math.fsum(values[:3])
    assert block == _scalar([*values[:3], 1.7976931348623157e308, -1.7976931348623157e308])


def _scalar(values: list[float]) -> ExactSum:
    out = ExactSum(1)
    for value in values:
        out.add_row((value,))
    return out


def test_non_finite_values_follow_fsum() -> None:
    inf, nan = math.inf, math.nan
    for values in ([1.0, inf], [-inf, 2.0, -inf], [nan, 1.0], [inf, nan]):
        for total in (_scalar(values), _block_of(values)):
            got, want = total.column(0), math.fsum(values)
            assert got == want or (math.isnan(got) and math.isnan(want))
            assert ExactSum.from_partials([total.partials(0)]) == total
    for total in (_scalar([inf, -inf]), _block_of([1.0, inf, -inf])):
        with pytest.raises(ValueError, match="-inf \\+ inf"):
            total.column(0)


def _block_of(values: list[float]) -> ExactSum:
    out = ExactSum(1)
    out.add_block(np.asarray(values, dtype=np.float64).reshape(-1, 1))
    return out


def test_a_sum_beyond_the_double_range_raises() -> None:
    total = _scalar([1.7976931348623157e308, 1.7976931348623157e308])
    with pytest.raises(OverflowError, match="column 0"):
        total.column(0)
    with pytest.raises(OverflowError, match="column 0"):
        total.partials(0)
    # where only the partial sums leave the range, the exact total is still given
    total.add_row((-1.7976931348623157e308,))
    assert total.column(0) == 1.7976931348623157e308


def test_large_blocks_use_several_bincount_passes() -> None:
    rng = np.random.default_rng(7)
    block = rng.random((3000, 2)) * rng.choice([1e-5, 1.0, 1e5], size=(3000, 2))
    fast = ExactSum(2)
    fast.add_block(block)
    assert fast == _rows_one_by_one(block)
    assert fast.rounded() == tuple(math.fsum(block[:, k]) for k in range(2))


def _rows_one_by_one(block: npt.NDArray[np.float64]) -> ExactSum:
    out = ExactSum(block.shape[1])
    for row in block.tolist():
        out.add_row(row)
    return out


def test_shapes_and_widths_are_checked() -> None:
    total = ExactSum(2)
    with pytest.raises(ValueError, match="a row of 3 numbers"):
        total.add_row((1.0, 2.0, 3.0))
    with pytest.raises(ValueError, match="a row of 1 numbers"):
        total.add_rows([(1.0, 2.0), (1.0,)])
    with pytest.raises(ValueError, match=r"shape \(2, 3\)"):
        total.add_block(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="sums of 3 columns"):
        total.merge(ExactSum(3))
    with pytest.raises(ValueError, match="width"):
        ExactSum(-1)
    copy = total.copy()
    copy.add_row((1.0, 1.0))
    assert copy != total and total.rounded() == (0.0, 0.0)
