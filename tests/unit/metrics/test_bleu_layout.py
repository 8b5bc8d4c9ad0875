"""The native BLEU takes references per segment; the shape sacrebleu's streams share with it
(``n`` segments, ``n`` references each) is refused unless declared (issue #28)."""

from __future__ import annotations

import pytest
import sacrebleu

from meteor_eval import Bleu, BleuMetric, PerSegment, compare, corpus_bleu
from meteor_eval.errors import InputError
from meteor_eval.io import streams_to_segments

HYPS = ["the cat sat on the mat", "a dog barked at night"]
STREAMS = [
    ["the cat sat on a mat", "a dog barked in the night"],
    ["a cat was on the mat", "the dog was barking at night"],
]


def test_streams_shaped_like_segments_are_refused_naming_both_layouts() -> None:
    with pytest.raises(InputError, match=r"2 segments with 2 references each") as info:
        Bleu().corpus_score(HYPS, STREAMS)
    message = str(info.value)
    assert "references[i]" in message and "references[k][i]" in message
    assert "PerSegment" in message and "streams_to_segments" in message


@pytest.mark.parametrize(
    "call",
    [
        lambda refs: corpus_bleu(HYPS, refs),
        lambda refs: Bleu().segment_scores(HYPS, refs),
        lambda refs: Bleu().corpus_rows(HYPS, refs),
        lambda refs: BleuMetric().update(HYPS, refs),
        lambda refs: compare({"x": HYPS}, refs, metrics=["bleu"]),
    ],
)
def test_every_entry_point_refuses_the_ambiguous_shape(call: object) -> None:
    with pytest.raises(InputError, match="references each"):
        call(STREAMS)  # type: ignore[operator]


def test_transposed_streams_equal_sacrebleu() -> None:
    ours = Bleu().corpus_score(HYPS, streams_to_segments(STREAMS))
    theirs = sacrebleu.corpus_bleu(HYPS, STREAMS)
    assert ours.score == pytest.approx(theirs.score, abs=1e-12)


def test_declared_per_segment_references_are_scored_as_given() -> None:
    per_segment = [list(group) for group in zip(*STREAMS, strict=True)]
    declared = Bleu().corpus_score(HYPS, PerSegment(per_segment))
    assert declared.score == pytest.approx(sacrebleu.corpus_bleu(HYPS, STREAMS).score, abs=1e-12)
    # Read the other way round, the same lists give another number: why the shape is refused.
    swapped = Bleu().corpus_score(HYPS, PerSegment(STREAMS))
    assert swapped.score != pytest.approx(declared.score)


def test_unambiguous_shapes_are_not_refused() -> None:
    assert Bleu().corpus_score(HYPS[:1], [["the cat sat on the mat"]]).score == pytest.approx(100)
    one_each = Bleu().corpus_score(HYPS, [[r] for r in STREAMS[0]])  # 2 segments, 1 reference
    assert one_each.score == pytest.approx(sacrebleu.corpus_bleu(HYPS, STREAMS[:1]).score)
