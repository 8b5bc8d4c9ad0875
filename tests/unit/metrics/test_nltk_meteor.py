"""NLTK's METEOR: greedy alignment, statistics, formula, drop-in functions and their errors.

Expected values are hand-computed from NLTK's definitions (``nltk.translate.meteor_score``,
NLTK 3.10): P = m/len(hyp), R = m/len(ref), Fmean = P*R/(0.9*P + 0.1*R),
penalty = 0.5*(chunks/m)**3, score = (1 - penalty)*Fmean.
"""

from __future__ import annotations

import pickle

import pytest

from fakes import WordNet
from meteor_eval.align.greedy import count_chunks, greedy_align
from meteor_eval.compat import evaluate
from meteor_eval.compat.nltk import align_words, meteor_score, single_meteor_score
from meteor_eval.errors import InputError
from meteor_eval.metrics.meteor.nltk import NltkMeteor, nltk_pair_stats, nltk_score_from_stats
from meteor_eval.stats.meteor import MeteorStats


def reference_formula(m: int, h: int, r: int, chunks: int) -> float:
    p, rc = m / h, m / r
    return (1 - 0.5 * (chunks / m) ** 3) * (p * rc / (0.9 * p + 0.1 * rc))


def test_identical_pair_keeps_one_chunk_penalty() -> None:
    tokens = "the cat sat on the mat".split()
    assert single_meteor_score(tokens, tokens) == reference_formula(6, 6, 6, 1)
    assert round(single_meteor_score(tokens, tokens), 4) == 0.9977


def test_reordered_pair_counts_chunks() -> None:
    hyp = "on the mat sat the cat".split()
    ref = "the cat sat on the mat".split()
    # Greedy from the last hypothesis word: cat->1, the->4, sat->2, mat->5, the->0, on->3; no
    # two neighbours stay neighbours, so every match is its own chunk.
    assert greedy_align(hyp, ref) == [
        (0, 3, 0),
        (1, 0, 0),
        (2, 5, 0),
        (3, 2, 0),
        (4, 4, 0),
        (5, 1, 0),
    ]
    assert nltk_pair_stats(hyp, ref).chunks == 6
    assert single_meteor_score(ref, hyp) == reference_formula(6, 6, 6, 6) == 0.5


def test_edge_cases_score_zero() -> None:
    assert single_meteor_score([], []) == 0.0
    assert single_meteor_score(["a"], []) == 0.0
    assert single_meteor_score([], ["a"]) == 0.0
    assert single_meteor_score(["this", "is", "a", "cat"], ["non", "matching", "hypothesis"]) == 0.0


def test_greedy_takes_highest_free_reference_position_from_the_last_word() -> None:
    assert greedy_align(["a", "a"], ["a", "b", "a"]) == [(0, 0, 0), (1, 2, 0)]
    assert greedy_align(["a", "b", "a"], ["a"]) == [(2, 0, 0)]


def test_stages_run_exact_then_stem_then_synonym_on_stems() -> None:
    stats = nltk_pair_stats(["the", "cats", "sat"], ["the", "cat", "sits"])
    # "sat" and "sits" (stem "sit") meet in stage 3: WordNet's verb "sat" -> "sit".
    assert stats.stages == ((1, 1, 0, 0), (1, 1, 0, 0), (1, 1, 0, 0))
    assert (stats.hyp_length, stats.ref_length, stats.hyp_matched, stats.chunks) == (3, 3, 3, 1)
    assert stats.to_row()[:4] == (3, 3, 0, 0)


def test_synonym_stage_looks_up_stems_not_words() -> None:
    scorer = NltkMeteor()
    # "large" is a synonym of "big", but stage 3 compares against the reference stem "larg".
    assert "large" in scorer.synonyms("big")
    assert scorer.pair_stats(["big"], ["large"]).hyp_matched == 0
    # "happiness" stems to "happi", which WordNet does not know.
    assert scorer.pair_stats(["happiness"], ["felicity"]).hyp_matched == 0


def test_count_chunks_is_zero_without_matches() -> None:
    assert count_chunks([]) == 0
    assert count_chunks([(0, 1, 0), (1, 2, 1), (3, 0, 0)]) == 2


def test_score_from_stats_handles_zero_divisions() -> None:
    empty = MeteorStats(0, 3, 0, 0, ((0, 0, 0, 0),) * 3, 0, 0, 0)
    assert nltk_score_from_stats(empty) == 0.0
    # P = 1, R = 0.5: alpha*P + (1-alpha)*R = 0 for alpha = -1, which NLTK maps to 0.0 too.
    stats = MeteorStats(2, 4, 0, 0, ((2, 2, 0, 0),) * 3, 1, 2, 2)
    assert nltk_score_from_stats(stats, alpha=-1.0) == 0.0
    assert nltk_score_from_stats(stats, alpha=0.5, beta=1.0, gamma=0.0) == 0.5 / 0.75


def test_multiple_references_take_the_maximum() -> None:
    hyp = "a b c d".split()
    refs = [["x"], "a b c d".split(), "a b".split()]
    assert meteor_score(refs, hyp) == single_meteor_score(refs[1], hyp)
    _stats, index, score = NltkMeteor().segment_stats(hyp, refs)
    assert index == 1
    assert score == meteor_score(refs, hyp)


def test_preprocess_and_parameters_are_applied() -> None:
    hyp, ref = ["The", "CAT"], ["the", "cat"]
    # Without lower-casing the exact stage fails, but NLTK's stemmer lower-cases: stage 2 matches.
    stats = NltkMeteor(preprocess=lambda w: w).pair_stats(hyp, ref)
    assert stats.stages[:2] == ((0, 0, 0, 0), (2, 2, 0, 0))
    assert single_meteor_score(ref, hyp, preprocess=lambda w: w) == 0.9375
    assert single_meteor_score(ref, hyp, alpha=0.5, beta=1.0, gamma=0.0) == 1.0


def test_generator_hypothesis_is_consumed_like_nltk() -> None:
    # NLTK iterates the hypothesis once per reference: a generator is empty for the second.
    refs = [["a"], ["a", "b"]]
    assert meteor_score(refs, (w for w in ["a", "b"])) == single_meteor_score(["a"], ["a", "b"])


def test_errors_match_nltk() -> None:
    with pytest.raises(TypeError, match='"hypothesis" expects pre-tokenized hypothesis'):
        single_meteor_score(["a"], "a b")
    with pytest.raises(TypeError, match='"reference" expects pre-tokenized reference'):
        single_meteor_score("a b", ["a"])
    with pytest.raises(TypeError, match='"reference" expects pre-tokenized reference'):
        meteor_score(["a b"], ["a"])
    with pytest.raises(ValueError, match="empty"):
        meteor_score([], ["a"])


def test_custom_stemmer_and_wordnet_objects_are_used() -> None:
    class Upper:
        def stem(self, word: str) -> str:
            return word.upper()

    tiny = WordNet({"cat": ("puma", "big_cat")})
    # Synonyms meet reference *stems*; "puma" is its own stem, names with "_" are dropped.
    assert single_meteor_score(["puma"], ["cat"], wordnet=tiny) == 1 - 0.5
    assert single_meteor_score(["big_cat"], ["cat"], wordnet=tiny) == 0.0
    assert single_meteor_score(["dogs"], ["dog"], stemmer=Upper()) == 0.0


def test_align_words_returns_stemmed_leftovers() -> None:
    assert align_words(["The", "cats", "sat"], ["the", "cat", "is", "running"]) == (
        [(0, 0), (1, 1)],
        [(2, "sat")],
        [(2, "is"), (3, "run")],
    )


def test_scorer_validates_arguments_and_pickles_stats() -> None:
    with pytest.raises(TypeError, match="stemmer"):
        NltkMeteor(stemmer=object())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="references_tokens"):
        NltkMeteor().segment_score(["a"], "a")
    with pytest.raises(InputError, match="at least one reference"):
        NltkMeteor().segment_score(["a"], [])
    stats = nltk_pair_stats(["a"], ["a"])
    assert pickle.loads(pickle.dumps(stats)) == stats


def test_corpus_score_is_the_mean_of_sentence_scores() -> None:
    scorer = NltkMeteor()
    hyps = [["a", "b"], ["x"]]
    refs = [[["a", "b"]], [["y"]]]
    assert scorer.corpus_score(hyps, refs) == scorer.segment_score(["a", "b"], [["a", "b"]]) / 2
    with pytest.raises(InputError, match="2 hypotheses but 1"):
        scorer.corpus_score(hyps, refs[:1])


def test_evaluate_compute_contract() -> None:
    result = evaluate.compute(
        predictions=["The cat sat on the mat.", "Nothing here"],
        references=[["the cat sat on the mat."], "A dog."],
    )
    assert list(result) == ["meteor"]
    assert result["meteor"] == reference_formula(7, 7, 7, 1) / 2
    with pytest.raises(InputError, match="1 predictions but 2 references"):
        evaluate.compute(predictions=["a"], references=["a", "b"])
    with pytest.raises(TypeError):
        evaluate.compute(predictions="a", references=["a"])
    with pytest.raises(ValueError, match="only 'meteor'"):
        evaluate.load("bleu")
    with pytest.warns(RuntimeWarning, match="empty"):
        assert evaluate.compute(predictions=[], references=[])["meteor"] != 0.0


def test_pair_counts_are_the_counted_alignment() -> None:
    """NltkMeteor.pair_counts (what the compat functions score) counts align()'s matches per
    stage and their chunks; pair_stats is the record of those counts."""
    from meteor_eval.align.greedy import match_counts

    scorer = NltkMeteor()
    hyp = "the cats quickly sat down on a large mat near the door".split()
    ref = "a cat was sitting on the big mat by the door".split()
    matches = scorer.align(hyp, ref)
    counts = scorer.pair_counts(hyp, ref)
    assert counts == match_counts(matches)
    # exact: the, on, a, mat, the, door; stem: cats-cat; synonym: sat (WordNet's "sit") with
    # the stem "sit" of "sitting"; only the last two matches (10, 9), (11, 10) are adjacent
    assert counts == (6, 1, 1, 7)
    exact, stem, synonym, chunks = counts
    stats = scorer.pair_stats(hyp, ref)
    assert stats.stages == tuple((n, n, 0, 0) for n in counts[:3])
    assert stats.chunks == chunks == count_chunks(matches)
    assert stats.hyp_matched == stats.ref_matched == exact + stem + synonym
    assert single_meteor_score(ref, hyp) == nltk_score_from_stats(stats)


def test_a_used_scorer_pickles_as_its_arguments() -> None:
    # Once used, the scorer's caches hold the compiled WordNet lookup and its counts function
    # (local closures): it pickles as its arguments and scores the same after loading.
    scorer = NltkMeteor(alpha=0.8, beta=2.0, gamma=0.4)
    hyp, ref = ["the", "cats", "sat", "large"], ["a", "cat", "sits", "big"]
    before = scorer.segment_score(hyp, [ref])
    scorer.counts_function()
    loaded = pickle.loads(pickle.dumps(scorer))
    assert (loaded.alpha, loaded.beta, loaded.gamma) == (0.8, 2.0, 0.4)
    assert loaded.segment_score(hyp, [ref]) == before
    # NLTK's synonym stage reads the stems the stem stage leaves: cats ~ cat by stem, then
    # sat ~ sit (a lemma of "sat"), while "larg" has no synset; one chunk.
    assert loaded.pair_counts(hyp, ref) == scorer.pair_counts(hyp, ref) == (0, 1, 1, 1)
    custom = pickle.loads(pickle.dumps(NltkMeteor(wordnet=WordNet({"big": ["large"]}))))
    assert custom.synonyms("big") == frozenset({"big", "large"})
