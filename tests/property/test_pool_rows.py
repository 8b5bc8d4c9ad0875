"""The pooled row of a flat block of statistics rows without NumPy: the compiled ``pool_rows``
(``_ext/stats.c``), its Python twin ``stats.meteor.pool_flat_python`` and the NumPy pooling
(``FastPipeline.pooled_block``) agree on every block, perfect rows and near misses included;
and a plain METEOR run of the command line does not import NumPy."""

from __future__ import annotations

import functools
import subprocess
import sys
from array import array

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval._ext import compiled_kernels
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.metrics.meteor.fast import FastPipeline
from meteor_eval.stats.meteor import (
    ROW_LENGTH,
    perfect_row,
    perfect_rows,
    pool_flat,
    pool_flat_python,
)

KERNEL = compiled_kernels("pool_rows")
needs_kernel = pytest.mark.skipif(KERNEL is None, reason="compiled extension not built")

# A row, then how to shape it: as drawn, perfect, or one side short of perfect.
ROWS = st.tuples(
    st.lists(st.integers(0, 40), min_size=ROW_LENGTH, max_size=ROW_LENGTH),
    st.sampled_from(["drawn", "perfect", "hyp short", "ref short", "two chunks", "zero"]),
)


def _shape(values: list[int], how: str) -> list[int]:
    row = list(values)
    if how == "zero":
        return [0] * ROW_LENGTH
    if how == "drawn":
        return row
    row[20] = 2 if how == "two chunks" else 1
    row[0] = sum(row[4:20:2]) + (1 if how == "hyp short" else 0)
    row[1] = sum(row[5:20:2]) + (1 if how == "ref short" else 0)
    return row


@functools.lru_cache(maxsize=1)
def _pipeline() -> object:
    return Meteor(MeteorConfig.preset("meteor15")).pipeline


def _numpy_pooled(rows: list[list[int]], skip: bool) -> tuple[int, ...]:
    """The NumPy pooling of the block path before it moved to a flat buffer."""
    block = np.asarray(rows, dtype=np.int64).reshape(-1, ROW_LENGTH)
    total = block.sum(axis=0)
    if skip and len(block):
        total[20] -= int(perfect_rows(block).sum())
    return tuple(int(x) for x in total)


@settings(max_examples=300, deadline=None)
@given(drawn=st.lists(ROWS, max_size=40), skip=st.booleans())
def test_pooled_rows_equal_numpy_and_the_python_twin(
    drawn: list[tuple[list[int], str]], skip: bool
) -> None:
    rows = [_shape(values, how) for values, how in drawn]
    flat = array("q", [v for row in rows for v in row])
    expected = _numpy_pooled(rows, skip)
    assert pool_flat_python(flat, skip) == expected
    assert pool_flat_python(flat.tobytes(), skip) == expected
    assert pool_flat(flat, skip) == expected
    if skip:
        pipe = _pipeline()
        assert isinstance(pipe, FastPipeline) and pipe.config.zero_penalty_if_perfect
        block = np.asarray(rows, dtype=np.int64).reshape(-1, ROW_LENGTH)
        assert tuple(pipe.pooled_block(block).tolist()) == expected
    if KERNEL is not None:
        assert KERNEL.pool_rows(flat, skip) == expected
        assert KERNEL.pool_rows(flat.tobytes(), skip) == expected
    # The rule row by row (stats.meteor.perfect_row), as the merge of the metric protocol.
    perfect = sum(1 for row in rows if perfect_row(row)) if skip else 0
    assert expected[20] == sum(row[20] for row in rows) - perfect


@needs_kernel
def test_pool_rows_leaves_int64_sums_to_the_python_twin() -> None:
    big = array("q", [2**62] * ROW_LENGTH * 2)
    assert KERNEL.pool_rows(big, True) is None
    assert pool_flat(big, True) == (2**63,) * ROW_LENGTH
    # A perfect row's own sums past int64 (16 values of 2**60 on a side): not the chunk rule's
    # to decide in C either.
    row = [0] * ROW_LENGTH
    row[4:20] = [2**60] * 16
    row[20] = 1
    flat = array("q", row)
    assert KERNEL.pool_rows(flat, True) is None
    assert pool_flat(flat, True) == pool_flat_python(flat, True) == tuple(row)


def test_pooled_rows_refuse_a_partial_row() -> None:
    with pytest.raises(ValueError, match="23 int64"):
        pool_flat_python(array("q", [1] * 24), True)
    if KERNEL is not None:
        with pytest.raises(ValueError, match="23 int64"):
            KERNEL.pool_rows(array("q", [1] * 24), True)
        with pytest.raises(ValueError, match="23 int64"):
            KERNEL.pool_rows(b"\0" * 7, True)
        with pytest.raises(TypeError):
            KERNEL.pool_rows("rows", True)


@settings(max_examples=25, deadline=None)
@given(
    pairs=st.lists(
        st.tuples(
            st.sampled_from(["the cat sat", "a cat", "", "the big house .", "houses"]),
            st.sampled_from(["the cat sat", "the cat", "a home", "", "big houses ."]),
        ),
        min_size=2,
        max_size=12,
    )
)
def test_flat_rows_are_the_numpy_block_and_the_general_rows(pairs: list[tuple[str, str]]) -> None:
    config = MeteorConfig.preset("meteor15", normalization="norm")
    fused = Meteor(config)
    assert isinstance(fused.pipeline, FastPipeline)
    batch = [(h, [r]) for h, r in pairs]
    flat = fused.pipeline.rows_flat(batch)
    block = fused.pipeline.rows_block(batch)
    assert flat is not None and block is not None
    assert block.shape == (len(batch), ROW_LENGTH) and block.flatten().tolist() == flat.tolist()
    general = [fused.pipeline.best_stats(h, r).to_row() for h, r in batch]
    assert fused.segment_rows(batch) == general
    assert [s.to_row() for s in fused.pipeline.best_stats_many(batch)] == general


def test_a_plain_meteor_run_does_not_import_numpy() -> None:
    # NumPy's import is about a quarter of a small job's time; the plain corpus path pools its
    # rows without it (significance, bootstrap and tuning still import it when asked).
    code = (
        "import sys\n"
        "from meteor_eval.cli import main\n"
        "sys.argv = ['meteor-eval', 'score', '--example', '--norm', '--format', 'json',\n"
        "            '--jobs', '1']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('numpy' in sys.modules, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert '"score"' in done.stdout
    assert done.stderr.strip().splitlines()[-1] == "False"
