"""The paper2005 flavour's block path (``Paper2005Rows``, ``_ext/exact.c`` ``paper2005_rows``)
against its per-segment path (``Pipeline.best_stats``, the readable twin).

Random segments over a small vocabulary of repeated words, stem variants and synonyms (so that
every stage has candidates, blocks and crossings), one to three references a pair, every module
set the flavour allows (each non-empty subset of exact, stem, synonym in every order): the
records of a batch, its pooled total and the budget warnings (at a small search budget, where
searches run out) must be those of the per-segment path.
"""

from __future__ import annotations

import functools
import itertools
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval.align import exhaustive
from meteor_eval.errors import SearchBudgetWarning, WorkBudgetError
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.metrics.meteor.paper2005 import _KERNEL
from meteor_eval.metrics.meteor.pipeline import pool_stats

pytestmark = pytest.mark.skipif(_KERNEL is None, reason="extension not built")

_WORDS = (
    "the a cat cats sat sitting sits mat mats run runs running ran car cars automobile auto "
    "big large great huge good well fine , . The Cat RUN"
).split()

_MODULE_SETS = [
    order
    for size in (1, 2, 3)
    for subset in itertools.combinations(("exact", "stem", "synonym"), size)
    for order in itertools.permutations(subset)
]


@functools.cache
def _scorer(modules: tuple[str, ...], normalization: str = "lower") -> Meteor:
    return Meteor(MeteorConfig.preset("paper2005", modules=modules, normalization=normalization))


_line = st.lists(st.sampled_from(_WORDS), min_size=0, max_size=24).map(" ".join)
_pair = st.tuples(_line, st.lists(_line, min_size=1, max_size=3))


def _per_segment(scorer: Meteor, pairs: list[tuple[str, list[str]]]) -> list[object]:
    pipeline = scorer.pipeline
    return [pipeline.best_stats(h, refs) for h, refs in pairs]


@settings(max_examples=120, deadline=None)
@given(
    pairs=st.lists(_pair, min_size=2, max_size=12),
    modules=st.sampled_from(_MODULE_SETS),
)
def test_block_records_equal_the_per_segment_records(
    pairs: list[tuple[str, list[str]]], modules: tuple[str, ...]
) -> None:
    scorer = _scorer(modules)
    pipeline = scorer.pipeline
    assert pipeline.paper2005_rows is not None
    block = pipeline.paper2005_rows.best_stats(pairs)
    assert block is not None
    expected = _per_segment(scorer, pairs)
    assert block == expected
    assert pipeline.best_stats_many(pairs) == expected
    assert pipeline.pooled_stats_many(pairs) == pool_stats(expected, scorer.config)  # type: ignore[arg-type]


@settings(max_examples=40, deadline=None)
@given(pairs=st.lists(_pair, min_size=2, max_size=6), budget=st.integers(0, 3_000))
def test_warnings_at_a_small_budget_equal_the_per_segment_warnings(
    pairs: list[tuple[str, list[str]]], budget: int
) -> None:
    scorer = _scorer(("exact", "stem", "synonym"))
    pipeline = scorer.pipeline
    assert pipeline.paper2005_rows is not None
    saved = exhaustive.SEARCH_BUDGET
    exhaustive.SEARCH_BUDGET = budget
    try:
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            block = pipeline.paper2005_rows.best_stats(pairs)
        with warnings.catch_warnings(record=True) as want:
            warnings.simplefilter("always")
            expected = _per_segment(scorer, pairs)
    finally:
        exhaustive.SEARCH_BUDGET = saved
    assert block == expected
    assert [(w.category, str(w.message)) for w in got] == [
        (w.category, str(w.message)) for w in want
    ]
    assert all(w.category is SearchBudgetWarning for w in got)


def test_long_repeated_lines_and_a_stage_that_runs_out() -> None:
    """Lines of 70 repeated words: searches with crossings, then cut by a small budget."""
    scorer = _scorer(("exact", "stem", "synonym"))
    hyp = " ".join(["cat sat the mat cats run a"] * 10)
    ref = " ".join(["the cat sits on mats runs the"] * 10)
    pairs = [(hyp, [ref]), (ref, [hyp, ref]), ("", [hyp]), (hyp, [""])]
    assert scorer.pipeline.best_stats_many(pairs) == _per_segment(scorer, pairs)
    saved = exhaustive.SEARCH_BUDGET
    exhaustive.SEARCH_BUDGET = 500
    try:
        with pytest.warns(SearchBudgetWarning):
            block = scorer.pipeline.best_stats_many(pairs)
        with pytest.warns(SearchBudgetWarning):
            assert block == _per_segment(scorer, pairs)
    finally:
        exhaustive.SEARCH_BUDGET = saved


def test_other_input_goes_to_the_per_segment_path() -> None:
    """Faulty pairs and pairs over the work budget: the same errors at the same index."""
    scorer = _scorer(("exact", "stem", "synonym"))
    block = scorer.pipeline.paper2005_rows
    assert block is not None
    assert block.best_rows([("a", ["a"]), ("b", "b")]) is None
    assert block.best_rows([("a", ["a"]), ("b", [])]) is None
    assert block.best_rows([("a", ["a"]), ("b", [3])]) is None  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"references\[0\]"):
        scorer.pipeline.best_stats_many([("a", ["a"]), ("b", [3])])  # type: ignore[list-item]
    long = " ".join(["cat"] * 3_200)
    with pytest.raises(WorkBudgetError) as caught:
        scorer.pipeline.best_stats_many([("a", ["a"]), (long, [long])])
    assert caught.value.index == 1


def test_normalised_text_and_the_corpus_score() -> None:
    """The norm preprocessing, and corpus_score through the block path against the mean of
    nothing: the same statistics as segment by segment."""
    scorer = _scorer(("exact", "stem", "synonym"), "norm")
    pairs = [
        ("The cats' mats, sat (quietly).", ["the cat's mat sat quietly", "A cat sat."]),
        ("U.S. cars ran well -- didn't they?", ["US automobiles run fine, did not they?"]),
    ] * 3
    assert scorer.pipeline.best_stats_many(pairs) == _per_segment(scorer, pairs)
    hyps = [h for h, _ in pairs]
    refs = [r for _, r in pairs]
    pooled = pool_stats(_per_segment(scorer, pairs), scorer.config)  # type: ignore[arg-type]
    assert scorer.corpus_score(hyps, refs).score == scorer.score_stats(pooled, nrefs="2").score
