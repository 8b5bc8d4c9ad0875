"""Properties of METEOR that must hold for any input (hypothesis-generated)."""

from __future__ import annotations

import math
import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval.metrics.meteor import Meteor, MeteorConfig, pool_stats
from meteor_eval.stats.meteor import MeteorStats

WORDS = [
    "the",
    "a",
    "cat",
    "cats",
    "big",
    "large",
    "house",
    "home",
    "ran",
    "run",
    "running",
    ",",
    ".",
]
sentences = st.lists(st.sampled_from(WORDS), min_size=0, max_size=9).map(" ".join)

METEOR15 = Meteor(MeteorConfig.preset("meteor15", modules=("exact", "stem", "synonym")))
PAPER = Meteor(MeteorConfig.preset("paper2005"))


@settings(max_examples=150, deadline=None)
@given(sentences, st.lists(sentences, min_size=1, max_size=3))
def test_scores_are_within_unit_interval(hyp: str, refs: list[str]) -> None:
    for scorer in (METEOR15, PAPER):
        s = scorer.segment_score(hyp, refs)
        for value in (s.score, s.precision, s.recall, s.fmean, s.fragmentation, s.penalty):
            assert not math.isnan(value)
        assert 0.0 <= s.score <= 1.0


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(" ".join))
def test_identical_texts(text: str) -> None:
    assert METEOR15.segment_score(text, [text]).score == 1.0
    n = len(text.split())
    assert PAPER.segment_score(text, [text]).score == 1.0 - 0.5 * (1 / n) ** 3


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(sentences, sentences), min_size=1, max_size=8), st.randoms())
def test_corpus_score_does_not_depend_on_partition(
    pairs: list[tuple[str, str]], rnd: random.Random
) -> None:
    for scorer in (METEOR15, PAPER):
        segs = [scorer.segment_score(h, [r]).stats for h, r in pairs]
        whole = pool_stats(segs, scorer.config)
        cut = rnd.randint(0, len(segs))
        parts = [pool_stats(segs[:cut], scorer.config), pool_stats(segs[cut:], scorer.config)]
        regrouped = pool_stats(parts, scorer.config)
        assert scorer.score_stats(regrouped).score == scorer.score_stats(whole).score
        corpus = scorer.corpus_score([h for h, _ in pairs], [[r] for _, r in pairs])
        assert corpus.score == scorer.score_stats(whole).score


@settings(max_examples=100, deadline=None)
@given(sentences, sentences)
def test_stats_round_trip_and_pickle(hyp: str, ref: str) -> None:
    stats = METEOR15.segment_score(hyp, [ref]).stats
    padded = MeteorStats.from_row(stats.to_row())
    assert padded.to_row() == stats.to_row()
    assert METEOR15.score_stats(padded).score == METEOR15.score_stats(stats).score
    assert pickle.loads(pickle.dumps(stats)) == stats


@settings(max_examples=80, deadline=None)
@given(sentences, st.lists(sentences, min_size=2, max_size=4))
def test_best_reference_is_the_maximum(hyp: str, refs: list[str]) -> None:
    best = METEOR15.segment_score(hyp, refs)
    singles = [METEOR15.segment_score(hyp, [r]).score for r in refs]
    assert best.score == max(singles)
    assert best.reference_index == singles.index(max(singles))
