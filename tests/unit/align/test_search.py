"""The METEOR 1.5 beam-search aligner on the spec's worked examples (section 4.6) and quirks."""

from __future__ import annotations

from meteor_eval.align.alignment import count_chunks
from meteor_eval.align.search import beam_align, fixed_matches
from meteor_eval.match.base import CandidateStore, Match, Segment
from meteor_eval.match.exact import ExactMatcher
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.text.tokenize import java_hash


def _segment(text: str) -> Segment:
    tokens = tuple(text.split())
    return Segment(tokens, tuple(java_hash(t) for t in tokens))


def test_example_1_fixed_matches_and_trace_result() -> None:
    hyp, ref = _segment("the cat the dog"), _segment("the dog the cat")
    store = CandidateStore(4, 4)
    store.extend(ExactMatcher().candidates(hyp, ref, 0))
    assert [len(c) for c in store.by_ref] == [2, 1, 2, 1]
    assert fixed_matches(store) == [Match(1, 1, 3, 1, 0), Match(3, 1, 1, 1, 0)]
    chosen = beam_align(store, (1.0,))
    # r0->h2, r1->h3, r2->h0, r3->h1: 2 chunks, beating the diagonal-looking alignment (4 chunks)
    assert [(m.ref_start, m.hyp_start) for m in chosen] == [(0, 2), (1, 3), (2, 0), (3, 1)]
    assert count_chunks(chosen, 4) == 2


def test_example_1_score_with_english_parameters() -> None:
    scorer = Meteor(MeteorConfig.preset("meteor15", modules=("exact",)))
    score = scorer.segment_score("the cat the dog", ["the dog the cat"])
    assert score.stats.to_row() == (4, 4, 2, 2, 2, 2, 2, 2, *([0] * 12), 2, 4, 4)
    assert score.penalty == 0.5223303379776745
    assert score.score == 0.4776696620223255


def test_single_word_stem_match_is_fixed_and_scores() -> None:
    # spec E15 with -m 'exact stem': the lone stem candidate is fixed
    scorer = Meteor(MeteorConfig.preset("meteor15", modules=("exact", "stem")))
    assert scorer.segment_score("cats", ["cat"]).score == 0.6


def test_worthless_stem_match_is_dropped() -> None:
    # spec E14 with -m 'exact stem': two candidates, each worth 0 to the objective
    scorer = Meteor(MeteorConfig.preset("meteor15", modules=("exact", "stem")))
    assert scorer.segment_score("cats cats", ["cat"]).score == 0.0


def test_stem_and_synonym_duplicates_block_fixing() -> None:
    # spec E15 with exact stem synonym: coverage 2 -> not fixed -> worth 0 -> dropped
    scorer = Meteor(MeteorConfig.preset("meteor15", modules=("exact", "stem", "synonym")))
    assert scorer.segment_score("cats", ["cat"]).score == 0.0


def test_beam_size_changes_results_deterministically() -> None:
    hyp = "a b a b a b a b c a b"
    ref = "b a b a c b a b a b a"
    for beam in (1, 3, 40):
        scorer = Meteor(MeteorConfig.preset("meteor15", modules=("exact",), beam=beam))
        first = scorer.segment_score(hyp, [ref]).stats
        assert scorer.segment_score(hyp, [ref]).stats == first


def test_count_chunks_on_reordered_matches() -> None:
    matches = [
        Match(0, 1, 2, 1, 0),
        Match(1, 1, 3, 1, 0),
        Match(2, 1, 0, 1, 0),
        Match(3, 1, 1, 1, 0),
    ]
    assert count_chunks(matches, 4) == 2
    assert count_chunks([], 5) == 0
    # an unmatched reference word between two hypothesis-contiguous matches splits the chunk
    assert count_chunks([Match(0, 1, 0, 1, 0), Match(2, 1, 1, 1, 0)], 3) == 2
    # a multi-word match counts once
    assert count_chunks([Match(0, 2, 0, 1, 0), Match(2, 1, 1, 1, 0)], 3) == 1
