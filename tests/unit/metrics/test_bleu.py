"""Hand-computed BLEU cases, including the source documents' examples."""

from __future__ import annotations

import math
import pickle

import pytest

from meteor_eval.errors import InputError
from meteor_eval.metrics.bleu import Bleu, BleuConfig, corpus_bleu, segment_bleu
from meteor_eval.stats.bleu import BleuStats

REF = "I work on machine learning"  # the documents' reference, punctuation removed


def test_unigram_precision_of_documents_example_is_60_percent() -> None:
    score = segment_bleu("He works on machine learning", [REF], tokenize="none")
    assert score.counts[0] / score.totals[0] == 0.6


def test_modified_unigram_precision_of_repeated_words_is_37_5_percent() -> None:
    hyp = "He works on on machine machine learning learning"
    score = segment_bleu(hyp, [REF], tokenize="none")
    assert (score.counts[0], score.totals[0]) == (3, 8)
    assert score.precisions[0] == 37.5


def test_geometric_mean_and_brevity_penalty_by_hand() -> None:
    # hyp 5 tokens vs ref 5: counts 3/5, 2/4, 1/3, 0/2 -> exp smoothing p4 = 100/(2*2)
    score = corpus_bleu(["He works on machine learning"], [[REF]], tokenize="none")
    expected = math.exp((math.log(60) + math.log(50) + math.log(100 / 3) + math.log(25)) / 4)
    assert score.score == pytest.approx(expected, abs=1e-12)
    assert score.bp == 1.0


def test_brevity_penalty_for_short_hypothesis() -> None:
    score = corpus_bleu(["I work"], [[REF]], tokenize="none", smooth_method="none")
    assert score.bp == pytest.approx(math.exp(1 - 5 / 2))
    assert score.score == 0.0


def test_effective_order_scores_short_exact_match_100() -> None:
    assert segment_bleu("I work.", ["I work."]).score == pytest.approx(100.0)
    assert corpus_bleu(["I work."], [["I work."]]).score == 0.0


@pytest.mark.parametrize(
    ("hyp", "ref"), [("", "I work."), ("I work.", ""), ("", ""), ("abc", "xyz")]
)
def test_edge_cases_score_zero_never_nan(hyp: str, ref: str) -> None:
    for method in ("exp", "floor", "add-k", "none"):
        score = segment_bleu(hyp, [ref], smooth_method=method)
        assert score.score == 0.0
        assert not math.isnan(score.bp)


def test_several_references_clip_by_max_count_and_pick_closest_length() -> None:
    bleu = Bleu(BleuConfig(tokenize="none"))
    stats = bleu.segment_stats("on on on", ["on x", "on on y z w"])
    assert stats.counts[0] == 2
    assert stats.ref_len == 2  # |3-2| = 1 < |3-5|


def test_signature_matches_sacrebleu_format() -> None:
    score = corpus_bleu(["a"], [["a"]], smooth_method="floor", lowercase=True)
    assert score.signature.format().startswith(
        "bleu|nrefs:1|case:lc|eff:no|tok:13a|smooth:floor[0.10]|version:"
    )
    assert score.signature.format(short=True).startswith(
        "bleu|#:1|c:lc|e:no|tok:13a|s:floor[0.10]|v:"
    )
    assert corpus_bleu(["a", "b"], [["a"], ["b", "c"]]).signature.get("nrefs") == "var"


def test_stats_round_trip_add_and_pickle() -> None:
    a = BleuStats(3, 4, (1, 2, 3, 4), (5, 6, 7, 8))
    assert BleuStats.from_row(a.to_row()) == a
    assert a + BleuStats.zero() == a
    assert pickle.loads(pickle.dumps(a)) == a


def test_input_validation() -> None:
    with pytest.raises(TypeError):
        corpus_bleu("abc", [["abc"]])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        corpus_bleu(["abc"], ["abc"])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        segment_bleu("abc", "abc")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="2 hypotheses but 1"):
        corpus_bleu(["a", "b"], [["a"]])
    with pytest.raises(ValueError, match="tokenize: got 'spm'"):
        BleuConfig(tokenize="spm")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="smooth_method"):
        BleuConfig(smooth_method="bad")  # type: ignore[arg-type]
