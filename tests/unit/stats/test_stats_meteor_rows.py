"""METEOR statistics rows: the column layout, counting an alignment, merging and pooling.

The perfect-segment rule (a segment matched entirely in one chunk adds no chunks) makes the
merge more than a sum; these properties show it still ignores order and grouping on rows that
can come from an alignment.
"""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval.match.base import Match
from meteor_eval.metrics.meteor import Meteor, MeteorConfig, pool_stats
from meteor_eval.stats.meteor import (
    ROW_COLUMNS,
    ROW_LENGTH,
    MeteorStats,
    stats_from_alignment,
)


def test_row_columns_name_the_jars_23_numbers_in_order() -> None:
    assert ROW_LENGTH == len(ROW_COLUMNS) == 23
    assert ROW_COLUMNS[:4] == ("hyp_length", "ref_length", "hyp_function", "ref_function")
    assert ROW_COLUMNS[4:8] == (
        "stage1_hyp_content",
        "stage1_ref_content",
        "stage1_hyp_function",
        "stage1_ref_function",
    )
    assert ROW_COLUMNS[16] == "stage4_hyp_content"
    assert ROW_COLUMNS[20:] == ("chunks", "hyp_matched", "ref_matched")
    assert len(set(ROW_COLUMNS)) == 23


def test_row_columns_label_the_fields_of_to_row() -> None:
    stats = MeteorStats(1, 2, 3, 4, ((5, 6, 7, 8), (9, 10, 11, 12)), 13, 14, 15)
    row = dict(zip(ROW_COLUMNS, stats.to_row(), strict=True))
    assert row["ref_function"] == 4
    assert row["stage2_ref_content"] == 10
    assert row["stage3_hyp_content"] == 0  # padded to four stages
    assert (row["chunks"], row["hyp_matched"], row["ref_matched"]) == (13, 14, 15)


def test_to_row_keeps_only_four_stages() -> None:
    stats = MeteorStats(0, 0, 0, 0, ((1, 1, 1, 1),) * 5, 0, 0, 0)
    assert len(stats.to_row()) == 23


class TestStatsFromAlignment:
    def test_word_counts_by_stage_and_function(self) -> None:
        # hyp: the(f) cats(c) sat(c) ; ref: the(f) cat(c) sat(c) down(c)
        matches = [Match(0, 1, 0, 1, 0), Match(1, 1, 1, 1, 1), Match(2, 1, 2, 1, 0)]
        stats = stats_from_alignment(
            matches, 1, (True, False, False), (True, False, False, False), 2
        )
        assert stats == MeteorStats(3, 4, 1, 1, ((1, 1, 1, 1), (1, 1, 0, 0)), 1, 3, 3)

    def test_phrase_matches_count_every_word(self) -> None:
        stats = stats_from_alignment([Match(0, 2, 0, 3, 0)], 1, (False,) * 3, (False, True), 1)
        assert stats.stages == ((3, 1, 0, 1),)
        assert (stats.hyp_matched, stats.ref_matched) == (3, 2)

    def test_character_sizes(self) -> None:
        stats = stats_from_alignment(
            [Match(0, 1, 1, 1, 0)],
            1,
            (True, False),
            (False,),
            1,
            hyp_sizes=(3, 4),
            ref_sizes=(4,),
        )
        assert (stats.hyp_length, stats.ref_length, stats.hyp_function) == (7, 4, 3)
        assert stats.stages == ((4, 4, 0, 0),)
        assert (stats.hyp_matched, stats.ref_matched) == (1, 1)  # matches, not characters


@st.composite
def segment_stats(draw: st.DrawFn) -> MeteorStats:
    """Statistics an alignment can produce: matches within the lengths, at least one chunk
    exactly when something matched, no more chunks than matches."""
    stages = tuple(
        tuple(draw(st.integers(0, 3)) for _ in range(4)) for _ in range(draw(st.integers(1, 4)))
    )
    hyp_total = sum(s[0] + s[2] for s in stages)
    ref_total = sum(s[1] + s[3] for s in stages)
    hyp_length = hyp_total + draw(st.integers(0, 2))
    ref_length = ref_total + draw(st.integers(0, 2))
    matched = min(hyp_total, ref_total)
    chunks = 0 if matched == 0 else draw(st.integers(1, matched))
    return MeteorStats(
        hyp_length,
        ref_length,
        sum(s[2] for s in stages) + draw(st.integers(0, 1)),
        sum(s[3] for s in stages) + draw(st.integers(0, 1)),
        stages,  # type: ignore[arg-type]
        chunks,
        hyp_total,
        ref_total,
    )


class TestMerge:
    @given(segment_stats(), segment_stats(), segment_stats(), st.booleans())
    def test_associative_and_commutative(
        self, a: MeteorStats, b: MeteorStats, c: MeteorStats, skip: bool
    ) -> None:
        def add(x: MeteorStats, y: MeteorStats) -> MeteorStats:
            return x.merge(y, skip_perfect_chunks=skip)

        assert add(add(a, b), c) == add(a, add(b, c))
        assert add(a, b) == add(b, a)

    @given(st.lists(segment_stats(), max_size=8), st.randoms(use_true_random=False))
    def test_pooling_ignores_order_and_grouping(
        self, records: list[MeteorStats], rng: random.Random
    ) -> None:
        config = MeteorConfig.preset("meteor15")
        pooled = pool_stats(records, config)
        shuffled = records[:]
        rng.shuffle(shuffled)
        cut = rng.randint(0, len(records))
        parts = [pool_stats(shuffled[:cut], config), pool_stats(shuffled[cut:], config)]
        assert pool_stats(shuffled, config) == pooled
        assert pool_stats(parts, config) == pooled

    @given(st.lists(segment_stats(), max_size=8))
    def test_pooled_chunks_leave_out_perfect_segments_only(
        self, records: list[MeteorStats]
    ) -> None:
        pooled = pool_stats(records, MeteorConfig.preset("meteor15"))
        assert pooled.chunks == sum(r.chunks for r in records if not r.is_perfect)
        assert pooled.hyp_length == sum(r.hyp_length for r in records)
        plain = pool_stats(records, MeteorConfig.preset("paper2005"))
        assert plain.chunks == sum(r.chunks for r in records)

    def test_fewer_stages_are_padded(self) -> None:
        one = MeteorStats(1, 1, 0, 0, ((1, 1, 0, 0),), 1, 1, 1)
        three = MeteorStats(2, 2, 0, 0, ((1, 1, 0, 0), (0, 0, 0, 0), (1, 1, 0, 0)), 2, 2, 2)
        merged = one.merge(three, skip_perfect_chunks=False)
        assert merged.stages == ((2, 2, 0, 0), (0, 0, 0, 0), (1, 1, 0, 0))

    def test_adding_something_else_is_not_implemented(self) -> None:
        with pytest.raises(TypeError):
            MeteorStats.zero() + 1  # type: ignore[operator]


sentences = st.lists(st.sampled_from("the a cat cats sat on mat dog .".split()), max_size=7).map(
    " ".join
)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(sentences, st.lists(sentences, min_size=1, max_size=2)), max_size=6))
def test_pooled_statistics_equal_the_sum_of_segment_statistics(
    pairs: list[tuple[str, list[str]]],
) -> None:
    meteor = Meteor(MeteorConfig.preset("meteor15", modules=("exact", "stem")))
    per_segment = [meteor.best_stats(h, refs) for h, refs in pairs]
    pooled = pool_stats(per_segment, meteor.config)
    assert meteor.pooled_stats_many(pairs) == pooled
    rows = meteor.segment_rows(pairs)
    assert [MeteorStats.from_row(r) for r in rows] == [
        MeteorStats.from_row(s.to_row()) for s in per_segment
    ]
    total = functools.reduce(meteor.merge, rows, meteor.zero())
    assert MeteorStats.from_row(total) == MeteorStats.from_row(pooled.to_row())
