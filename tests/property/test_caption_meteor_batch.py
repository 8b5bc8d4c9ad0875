"""pycocoevalcap's METEOR through one compiled batch of every (caption, reference) pair
(:func:`meteor_eval.metrics.caption.meteor_best_rows`) against the per-image path
(:meth:`best_stats_many`, each reference scored in turn and the first best kept): the same
statistics, the same per-image scores and the same pooled score, compared with ``==``. And the
jar's fields of a ``SCORE`` line read directly when no text holds a bar, against the line split
as the jar splits it.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval._ext import compiled_kernels
from meteor_eval.metrics import caption
from meteor_eval.metrics.caption import coco_meteor, meteor_best_rows, meteor_fields
from meteor_eval.metrics.meteor import Meteor, MeteorConfig, score_from_stats

WORDS = st.sampled_from(
    [
        "a",
        "the",
        "dog",
        "dogs",
        "puppy",
        "cat",
        "cats",
        "sat",
        "sitting",
        "on",
        "mat",
        "rug",
        "big",
        "large",
        "red",
        "street",
        "road",
        "man",
        "men",
        "riding",
        "rides",
        "horse",
        "é",
    ]
)
CAPTION = st.lists(WORDS, min_size=0, max_size=12).map(" ".join)
PAIRS = st.lists(
    st.tuples(CAPTION, st.lists(CAPTION, min_size=1, max_size=7)), min_size=1, max_size=10
)


#: The batch path needs the compiled pair kernel and its front end (without them, or with
#: METEOR_EVAL_PURE_PYTHON=1, meteor_best_rows gives None and the per-image path runs).
needs_kernels = pytest.mark.skipif(
    compiled_kernels("meteor15_rows", "meteor15_tokens") is None,
    reason="the compiled METEOR 1.5 kernels are not in use",
)


@cache
def _scorer() -> Any:
    return Meteor(MeteorConfig.preset("meteor15", language="en", normalization="norm"))


@needs_kernels
@settings(max_examples=120, deadline=None)
@given(PAIRS)
def test_batch_of_every_reference_equals_the_per_image_path(
    pairs: list[tuple[str, list[str]]],
) -> None:
    scorer = _scorer()
    best = meteor_best_rows(scorer, pairs)
    if sum(len(refs) for _, refs in pairs) < 2:
        assert best is None
        return
    assert best is not None
    rows, scores = best
    expected = scorer.best_stats_many(pairs)
    assert [tuple(row) for row in rows.tolist()] == [s.to_row() for s in expected]
    assert scores.tolist() == [score_from_stats(s, scorer.config).score for s in expected]


@settings(max_examples=60, deadline=None)
@given(PAIRS)
def test_coco_meteor_equals_its_per_image_path(pairs: list[tuple[str, list[str]]]) -> None:
    scorer = _scorer()
    gts = {i: refs for i, (_, refs) in enumerate(pairs)}
    res = {i: [hyp] for i, (hyp, _) in enumerate(pairs)}
    total, scores, stats = coco_meteor(gts, res, scorer=scorer)
    expected = scorer.best_stats_many([(hyp, refs) for hyp, refs in pairs])
    assert stats == expected
    assert scores == [score_from_stats(s, scorer.config).score for s in expected]
    from meteor_eval.metrics.meteor import pool_stats

    pooled = score_from_stats(pool_stats(expected, scorer.config), scorer.config).score
    assert total == pooled


@needs_kernels
def test_best_reference_hand_case() -> None:
    # the second reference matches every word; the first one only two of three
    scorer = _scorer()
    pairs = [("a cat sat", ["a dog sat", "a cat sat", "a cat sat"]), ("x", ["y", "x"])]
    best = meteor_best_rows(scorer, pairs)
    assert best is not None
    rows, scores = best
    assert rows[:, 0].tolist() == [3, 1]  # hypothesis lengths
    assert rows[:, 21].tolist() == [3, 1]  # every hypothesis word matched
    assert scores.tolist() == [
        score_from_stats(s, scorer.config).score for s in scorer.best_stats_many(pairs)
    ]
    assert scorer.pipeline.best_stats_and_index(*pairs[0])[1] == 1


def test_paths_that_do_not_apply_give_none() -> None:
    scorer = _scorer()
    assert meteor_best_rows(scorer, [("a", ["a"])]) is None  # one pair: nothing to batch
    assert meteor_best_rows(scorer, [("a", "a b")]) is None  # a bare string: the general path
    assert meteor_best_rows(scorer, [("a", [])]) is None
    nltk = Meteor(MeteorConfig.preset("nltk"))
    assert meteor_best_rows(nltk, [("a", ["a", "b"])]) is None


TEXT = st.text(alphabet=["a", "b", " ", "|", "\t", "\x01", "\u00a0", "é"], max_size=12)


@settings(max_examples=500, deadline=None)
@given(TEXT, st.lists(TEXT, min_size=0, max_size=4))
def test_fields_read_directly_equal_the_split_line(hyp: str, refs: list[str]) -> None:
    assert meteor_fields(hyp, refs) == caption._meteor_fields_of_line(hyp, refs)


def test_fields_hand_cases() -> None:
    assert meteor_fields("  a  cat ", [" the cat\t", "x"]) == ("a cat", ["the cat", "x"])
    # no reference: the jar reads one empty reference from "SCORE |||  ||| hyp"
    assert meteor_fields("a", []) == ("a", [""])
    # a bar in a reference moves the fields, as in the jar
    assert meteor_fields("a", ["b ||| c"]) == ("a", ["b", "c"])


ROW = st.lists(st.integers(0, 6), min_size=23, max_size=23)


@settings(max_examples=200, deadline=None)
@given(st.lists(ROW, min_size=1, max_size=40))
def test_row_scores_equal_the_scalar_formula_and_the_rescorer(rows: list[list[int]]) -> None:
    import numpy as np

    from meteor_eval.metrics.meteor.formula import jar_row_scores
    from meteor_eval.stats.meteor import MeteorStats
    from meteor_eval.tuning.rescore import TuningParams, segment_scores

    config = _scorer().config
    block = np.array(rows, dtype=np.int64)
    block[:, 0] += block[:, 4:20:4].sum(axis=1) + block[:, 6:20:4].sum(axis=1)  # lengths >= matches
    block[:, 1] += block[:, 5:20:4].sum(axis=1) + block[:, 7:20:4].sum(axis=1)
    ours = jar_row_scores(block, config).tolist()
    scalar = [score_from_stats(MeteorStats.from_row(r), config).score for r in block.tolist()]
    assert ours == scalar
    assert ours == segment_scores(block, TuningParams.from_config(config)).tolist()


@needs_kernels
def test_repeated_texts_are_interned_once_and_scored_as_each_pair() -> None:
    """The same caption in several images, a reference repeated across images and a caption
    that is also another image's reference: each pair's row is the per-image path's."""
    scorer = _scorer()
    pairs = [
        ("a dog on a mat", ["a dog sat on a mat", "the puppy on the rug"]),
        ("a dog on a mat", ["a big red street", "a dog sat on a mat"]),
        ("a dog sat on a mat", ["a dog on a mat", "a dog on a mat", "cats"]),
        ("", ["a dog sat on a mat"]),
    ]
    best = meteor_best_rows(scorer, pairs)
    assert best is not None
    rows, scores = best
    expected = scorer.best_stats_many(pairs)
    assert [tuple(row) for row in rows.tolist()] == [s.to_row() for s in expected]
    assert scores.tolist() == [score_from_stats(s, scorer.config).score for s in expected]
    # both of the first two pairs keep "a dog sat on a mat": the same row
    assert rows.tolist()[0] == rows.tolist()[1]


@needs_kernels
@settings(max_examples=40, deadline=None)
@given(PAIRS)
def test_rows_of_ids_equals_rows_block(pairs: list[tuple[str, list[str]]]) -> None:
    """FastPipeline.rows_of_ids on the gathered ids of every pair gives rows_block's rows of
    the same single-reference pairs."""
    scorer = _scorer()
    flat = [(h, (r,)) for h, refs in pairs for r in refs]
    counts = [len(refs) for _, refs in pairs]
    gathered = caption._interned_pairs(scorer.pipeline, pairs, counts)
    assert gathered is not None
    block = scorer.pipeline.rows_of_ids(*gathered)
    assert block.tolist() == scorer.pipeline.rows_block(flat).tolist()


FIELD_TEXT = st.lists(st.sampled_from(["a", " ", "  ", "|", "|||", "\t", "\x01", "b c", ""])).map(
    "".join
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(FIELD_TEXT, st.lists(FIELD_TEXT, max_size=4)), max_size=6))
def test_fields_of_many_images_equal_each_images_fields(
    images: list[tuple[str, list[str]]],
) -> None:
    hypotheses = [h for h, _ in images]
    references = [refs for _, refs in images]
    expected = [meteor_fields(h, refs) for h, refs in images]
    assert caption.meteor_fields_many(hypotheses, references) == expected


@needs_kernels
def test_texts_interned_by_an_earlier_call_are_reused_and_forgotten_with_the_table() -> None:
    """A second system on the same references reads their ids from the pipeline's line cache
    (same rows as the per-image path); a new word-type table drops it."""
    scorer = _scorer()
    references = [["a dog sat on a mat", "the puppy on the rug"], ["a big red street"]]
    for system in (["a dog on a mat", "a red road"], ["the cat", "a big red street"]):
        pairs = list(zip(system, references, strict=True))
        best = meteor_best_rows(scorer, pairs)
        assert best is not None
        expected = scorer.best_stats_many(pairs)
        assert [tuple(row) for row in best[0].tolist()] == [s.to_row() for s in expected]
    known = scorer.pipeline._line_ids
    assert "a dog sat on a mat" in known and "the cat" in known
    scorer.pipeline.new_word_types()
    assert scorer.pipeline.line_ids(["the cat"]) is not None
    assert list(scorer.pipeline._line_ids) == ["the cat"]
