"""METEOR 1.5's "a perfect segment adds no chunks" is one rule (``stats.meteor.is_perfect``):
the record, the row, the NumPy block, the protocol's merge and the compiled pair kernel's path
agree on it."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.stats.meteor import (
    MeteorStats,
    is_perfect,
    merge_row,
    perfect_row,
    perfect_rows,
    stats_of_compiled,
)

# A perfect segment: 3 + 2 hypothesis units all matched, in one chunk.
PERFECT = MeteorStats(5, 5, 2, 2, ((3, 3, 2, 2), (0, 0, 0, 0)), 1, 5, 5)
# The same counts in two chunks, and one unmatched reference unit in one chunk.
TWO_CHUNKS = MeteorStats(5, 5, 2, 2, ((3, 3, 2, 2), (0, 0, 0, 0)), 2, 5, 5)
MISSING = MeteorStats(5, 6, 2, 2, ((3, 3, 2, 2), (0, 0, 0, 0)), 1, 5, 5)


def test_the_rule_on_hand_made_records() -> None:
    assert PERFECT.is_perfect and perfect_row(PERFECT.to_row())
    assert not TWO_CHUNKS.is_perfect and not perfect_row(TWO_CHUNKS.to_row())
    assert not MISSING.is_perfect and not perfect_row(MISSING.to_row())
    block = np.asarray([r.to_row() for r in (PERFECT, TWO_CHUNKS, MISSING)], dtype=np.int64)
    assert perfect_rows(block).tolist() == [True, False, False]
    # pooled: the perfect segment's chunk is not added, the others' are
    total = MeteorStats.zero(2)
    for record in (PERFECT, TWO_CHUNKS, MISSING):
        total = total + record
    assert total.chunks == 3
    row = MeteorStats.zero(2).to_row()
    for record in (PERFECT, TWO_CHUNKS, MISSING):
        row = merge_row(row, record.to_row())
    assert row == total.to_row()
    assert merge_row(row, PERFECT.to_row(), skip_perfect_chunks=False)[20] == 4


_stage = st.tuples(*(st.integers(0, 3) for _ in range(4)))


@st.composite
def records(draw: st.DrawFn) -> MeteorStats:
    stages = tuple(draw(st.lists(_stage, min_size=1, max_size=4)))
    hyp = sum(s[0] + s[2] for s in stages)
    ref = sum(s[1] + s[3] for s in stages)
    hyp_length = hyp + draw(st.integers(0, 1))  # often every unit matched
    ref_length = ref + draw(st.integers(0, 1))
    hyp_function = sum(s[2] for s in stages)
    ref_function = sum(s[3] for s in stages)
    chunks = draw(st.integers(0, 3))
    return MeteorStats(hyp_length, ref_length, hyp_function, ref_function, stages, chunks, hyp, ref)


@settings(max_examples=300, deadline=None)
@given(st.lists(records(), min_size=1, max_size=8))
def test_record_row_block_and_merge_agree(batch: list[MeteorStats]) -> None:
    rows = [r.to_row() for r in batch]
    block = np.asarray(rows, dtype=np.int64)
    expected = [
        r.chunks == 1 and r.hyp_total == r.hyp_length and r.ref_total == r.ref_length for r in batch
    ]
    assert [r.is_perfect for r in batch] == expected
    assert [perfect_row(row) for row in rows] == expected
    assert perfect_rows(block).tolist() == expected
    assert [
        bool(is_perfect(r.chunks, r.hyp_total, r.ref_total, r.hyp_length, r.ref_length))
        for r in batch
    ] == expected
    pooled = MeteorStats.zero(4)
    merged = MeteorStats.zero(4).to_row()
    for record, row in zip(batch, rows, strict=True):
        pooled = pooled + record
        merged = merge_row(merged, row)
    assert merged == pooled.to_row()
    assert merged[20] == sum(r.chunks for r, e in zip(batch, expected, strict=True) if not e)


def test_the_compiled_compact_row_reads_back() -> None:
    # lengths, chunks, matched words, then the stages (the per-pair kernels' order)
    compact = (5, 5, 2, 2, 1, 5, 5, 3, 3, 2, 2, 0, 0, 0, 0)
    assert stats_of_compiled(compact) == PERFECT


def test_every_path_of_the_metric_pools_a_perfect_segment_without_its_chunk() -> None:
    scorer = Meteor(MeteorConfig.preset("meteor15", modules=("exact",)))
    pairs = [
        ("the cat sat on the mat", ["the cat sat on the mat"]),  # perfect: 1 chunk, not added
        ("on the mat the cat sat", ["the cat sat on the mat"]),  # 2 chunks
        ("a dog", ["the cat"]),
    ]
    rows = scorer.segment_rows(pairs)
    assert [row[20] for row in rows] == [1, 2, 0]
    by_rows = scorer.total_of(rows, [1, 1, 1]).row
    assert by_rows[20] == 2
    assert scorer.pooled_rows(pairs).row == by_rows
    assert scorer.pooled_stats_many(pairs).to_row() == by_rows
    hyps = [h for h, _ in pairs]
    refs = [r for _, r in pairs]
    assert scorer.corpus_score(hyps, refs).chunks == 2
