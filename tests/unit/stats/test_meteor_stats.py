"""The 23-field statistics record: order, parsing, addition with the perfect-segment rule."""

from __future__ import annotations

import pickle

import pytest

from meteor_eval.errors import InputError
from meteor_eval.javafmt import java_double
from meteor_eval.metrics.meteor import Meteor, MeteorConfig, pool_stats
from meteor_eval.stats.meteor import ROW_LENGTH, MeteorStats

SEG1 = MeteorStats.from_row("6 6 3 3 2 2 3 3 0 0 0 0 0 0 0 0 0 0 0 0 1 5 5".split())
SEG2 = MeteorStats.from_row("2 2 1 1 1 1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 1 2 2".split())


def test_row_round_trip_and_order() -> None:
    assert SEG1.to_row() == (6, 6, 3, 3, 2, 2, 3, 3, *([0] * 12), 1, 5, 5)
    assert MeteorStats.from_row(SEG1.to_row()) == SEG1
    assert len(SEG1.to_row()) == ROW_LENGTH
    assert SEG1.hyp_total == 5 and SEG1.ref_total == 5


def test_from_row_accepts_java_doubles_and_ignores_extra_fields() -> None:
    text = " ".join(java_double(float(x)) for x in SEG2.to_row()) + " 99.0"
    assert MeteorStats.from_row(text.split()) == SEG2


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (["1"] * 21, "needs 23 numbers, got 21"),
        (["1"] * 22 + ["x"], "field 23 is not a number"),
        (["1"] * 22 + ["1.5"], "field 23 must be a non-negative whole number"),
    ],
)
def test_from_row_rejects_bad_rows(row: list[str], message: str) -> None:
    with pytest.raises(InputError, match=message):
        MeteorStats.from_row(row)


def test_perfect_segment_adds_no_chunks() -> None:
    assert SEG2.is_perfect and not SEG1.is_perfect
    total = SEG1 + SEG2
    assert total.chunks == 1
    assert total.to_row() == (8, 8, 4, 4, 3, 3, 4, 4, *([0] * 12), 1, 7, 7)
    assert SEG1.merge(SEG2, skip_perfect_chunks=False).chunks == 2


def test_eval_example_of_the_spec() -> None:
    # spec 5.5: EVAL of the two blocks prints 0.423849151345037, 1.0, 0.4821646797172655
    scorer = Meteor(MeteorConfig.preset("meteor15", modules=("exact", "stem", "synonym")))
    config = MeteorConfig.preset("meteor15")  # weights of all four English modules
    assert scorer.score_stats(SEG1).score == 0.423849151345037
    assert scorer.score_stats(SEG2).score == 1.0
    total = pool_stats([SEG1, SEG2], config)
    assert scorer.score_stats(total).score == 0.4821646797172655


def test_addition_is_associative_on_segments() -> None:
    a = SEG1
    b = SEG2
    c = MeteorStats.from_row("3 4 1 1 1 2 1 1 0 0 0 0 0 0 0 0 0 0 0 0 2 2 3".split())
    assert (a + b) + c == a + (b + c) == (c + a) + b


def test_zero_is_neutral_and_pickles() -> None:
    zero = MeteorStats.zero()
    assert (zero + SEG1).to_row() == SEG1.to_row()
    assert pickle.loads(pickle.dumps(SEG1)) == SEG1
