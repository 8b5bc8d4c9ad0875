"""Hand-computed ROUGE cases, including the source documents' examples."""

from __future__ import annotations

import math
import pickle

import pytest

from meteor_eval.errors import InputError
from meteor_eval.metrics.rouge import Rouge, RougeConfig, corpus_rouge, segment_rouge
from meteor_eval.stats.rouge import RougeStats

ALL = ("rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW", "rougeS", "rougeSU")


def test_documents_example_rouge1_and_rouge2() -> None:
    s = segment_rouge("He works on machine learning.", ["I work on machine learning."])
    assert (s["rouge1"].precision, s["rouge1"].recall) == (0.6, 0.6)
    assert (s["rouge2"].precision, s["rouge2"].recall) == (0.5, 0.5)  # on machine, machine learning
    assert s["rougeL"].fmeasure == 0.6


def test_stemming_matches_works_and_work() -> None:
    s = segment_rouge("He works.", ["I work."], types=["rouge1"], use_stemmer=True)
    assert s["rouge1"].recall == 0.5


def test_rouge_s_and_su_by_hand() -> None:
    # hyp a b c: skip-bigrams ab ac bc; ref a b d: ab ad bd; one hit
    s = segment_rouge("a b c", ["a b d"], types=["rougeS", "rougeSU"])
    assert s["rougeS"].precision == pytest.approx(1 / 3)
    # SU adds the unigrams of all but the last token: a b | a b -> 3 hits of 5
    assert s["rougeSU"].recall == pytest.approx(3 / 5)


def test_rouge_w_by_hand() -> None:
    # consecutive run of 2 out of 3 tokens: R = (2^1.2 / (3^1.2)^1.2)^(1/1.2), P = 2/3
    s = segment_rouge("a b c", ["a b d"], types=["rougeW"])["rougeW"]
    assert s.precision == pytest.approx(2 / 3)
    assert s.recall == pytest.approx((2**1.2 / (3**1.2) ** 1.2) ** (1 / 1.2))


def test_scrambled_pair_lcs_is_shorter_than_unigram_overlap() -> None:
    s = segment_rouge("night starry the", ["the starry night"], types=["rouge1", "rougeL"])
    assert s["rouge1"].fmeasure == 1.0
    assert s["rougeL"].fmeasure == pytest.approx(1 / 3)


@pytest.mark.parametrize(("hyp", "ref"), [("", "a b"), ("a b", ""), ("", ""), ("x", "y")])
def test_edge_cases_are_zero_not_nan(hyp: str, ref: str) -> None:
    for score in segment_rouge(hyp, [ref], types=ALL).values():
        assert (score.precision, score.recall, score.fmeasure) == (0.0, 0.0, 0.0)
        assert not math.isnan(score.score)


def test_best_and_average_references() -> None:
    best = segment_rouge("a b", ["a b", "x y"], types=["rouge1"])["rouge1"]
    assert best.fmeasure == 1.0
    avg = segment_rouge("a b", ["a b", "x y"], types=["rouge1"], multi_ref="average")["rouge1"]
    assert avg.recall == 0.5


def test_mean_and_pooled_aggregation() -> None:
    hyps, refs = ["a b", "a b c d"], [["a b"], ["x y z w"]]
    mean = corpus_rouge(hyps, refs, types=["rouge1"])["rouge1"]
    pooled = corpus_rouge(hyps, refs, types=["rouge1"], aggregate="pooled")["rouge1"]
    assert mean.recall == 0.5
    assert pooled.recall == pytest.approx(2 / 6)
    assert mean.signature.get("agg") == "mean"


def test_sentence_separator_for_lsum() -> None:
    s = segment_rouge(
        "a b<n>c d", ["c d<n>a b"], types=["rougeL", "rougeLsum"], sentence_separator="<n>"
    )
    assert s["rougeLsum"].fmeasure == 1.0
    assert s["rougeL"].fmeasure == 0.5


def test_bootstrap_is_deterministic_with_seed() -> None:
    hyps = ["a b c", "a x", "q r s", "a b"] * 5
    refs = [["a b c"], ["a b"], ["q z"], ["b a"]] * 5
    first = corpus_rouge(hyps, refs, types=["rouge1"], n_bootstrap=200, seed=7)["rouge1"]
    second = corpus_rouge(hyps, refs, types=["rouge1"], n_bootstrap=200, seed=7)["rouge1"]
    assert first.fmeasure_ci == second.fmeasure_ci
    assert first.fmeasure_ci is not None
    assert first.fmeasure_ci.low <= first.fmeasure <= first.fmeasure_ci.high
    assert first.signature.get("seed") == "7"


def test_stats_round_trip_and_pickle() -> None:
    s = RougeStats(1.0, 2.0, 3.0, 0.5, 0.25, 0.3, 1)
    assert RougeStats.from_row(s.to_row()) == s
    assert s + RougeStats.zero() == s
    assert pickle.loads(pickle.dumps(s)) == s


def test_input_validation() -> None:
    with pytest.raises(ValueError, match="types: got 'rougeX'"):
        RougeConfig(types=("rougeX",))
    with pytest.raises(ValueError, match="multi_ref"):
        RougeConfig(multi_ref="max")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Rouge().corpus_score(["a"], ["a"])  # type: ignore[list-item]
    with pytest.raises(InputError, match="1 hypotheses but 2"):
        corpus_rouge(["a"], [["a"], ["b"]])


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"types": "rouge1"}, TypeError, "types: got 'rouge1', expected a sequence"),
        ({"types": ()}, ValueError, "types: got an empty sequence"),
        ({"types": ("rouge1", "rouge1")}, ValueError, "expected no duplicates"),
        ({"use_stemmer": 1}, TypeError, "use_stemmer: got 1"),
        ({"aggregate": "sum"}, ValueError, "aggregate: got 'sum', expected one of mean, pooled"),
        ({"weight": 1.0}, ValueError, "weight: got 1.0, expected a finite number > 1"),
        ({"weight": math.inf}, ValueError, "weight: got inf, expected a finite number > 1"),
        ({"weight": math.nan}, ValueError, "weight: got nan"),
        ({"weight": "2"}, TypeError, "weight: got '2'"),
        ({"skip_distance": 2.0}, TypeError, "skip_distance: got 2.0, expected an int"),
        ({"sentence_separator": ""}, ValueError, "sentence_separator: got ''"),
        ({"n_bootstrap": -1}, ValueError, "n_bootstrap: got -1, expected an int >= 0"),
        ({"seed": True}, TypeError, "seed: got True, expected an int"),
        ({"confidence": 1.0}, ValueError, "confidence: got 1.0"),
    ],
)
def test_config_refusals_name_the_field_and_value(
    options: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        RougeConfig(**options)  # type: ignore[arg-type]


@pytest.mark.parametrize("aggregate", ["mean", "pooled"])
def test_compiled_corpus_path_equals_the_rows_path_to_the_bit(aggregate: str) -> None:
    """corpus_score's compiled block path (one process) gives the bits of the general path
    (rows merged in chunks, here in two worker processes): for the mean the exactly rounded
    column sums, for pooled counts the same additions in order. 3,000 random segments make the
    float sums differ in the last bit when added in another order."""
    import random

    from meteor_eval.metrics.rouge import _ROUGE_ROWS

    if _ROUGE_ROWS is None:
        pytest.skip("the compiled kernel is not built")
    rng = random.Random(7)
    words = "the a cat dog sat on mat big small red blue of".split()
    hyps = [" ".join(rng.choice(words) for _ in range(rng.randint(1, 14))) for _ in range(3000)]
    refs = [[" ".join(rng.choice(words) for _ in range(rng.randint(1, 14)))] for _ in range(3000)]
    metric = Rouge(
        RougeConfig(types=("rouge1", "rouge2", "rougeL", "rougeLsum"), aggregate=aggregate)
    )
    fast = metric.corpus_score(hyps, refs)
    general = metric.corpus_score(hyps, refs, jobs=2)
    for variant, score in fast.items():
        other = general[variant]
        assert (score.precision, score.recall, score.fmeasure) == (
            other.precision,
            other.recall,
            other.fmeasure,
        ), variant


def test_the_result_is_a_score_object_and_still_a_mapping() -> None:
    """ROUGE returns a score object like BLEU and METEOR (a signature, ``float()``), which is
    also the read-only mapping of variants that ROUGE returned before (a plain dict)."""
    import pickle
    from collections.abc import Mapping

    from meteor_eval.metrics.base import Score
    from meteor_eval.metrics.rouge import RougeResult

    rouge = Rouge(RougeConfig(types=("rougeL", "rouge1")))
    hyps, refs = ["the cat sat", "a dog"], [["the cat sat down"], ["a dog barked"]]
    corpus = rouge.corpus_score(hyps, refs)
    assert isinstance(corpus, RougeResult) and isinstance(corpus, Score)
    assert isinstance(corpus, Mapping)
    assert list(corpus) == ["rougeL", "rouge1"] and len(corpus) == 2
    # rougeL's F-measure, the first configured variant: (2 * 3/3 * 3/4 / (3/3 + 3/4) + 4/5) / 2
    assert float(corpus) == corpus.score == corpus["rougeL"].fmeasure
    assert corpus.score == pytest.approx((6 / 7 + 0.8) / 2, abs=1e-15)
    assert corpus.signature == rouge.signature("1")
    as_dict = dict(corpus)
    assert corpus == as_dict and as_dict == corpus
    assert corpus != {"rougeL": corpus["rougeL"]}
    assert {k: v.fmeasure for k, v in corpus.items()} == rouge.values(corpus)
    assert pickle.loads(pickle.dumps(corpus)) == corpus
    segment = rouge.segment_score(hyps[0], refs[0])
    assert isinstance(segment, RougeResult)
    assert segment["rouge1"].recall == 0.75
    with pytest.raises(KeyError):
        segment["rouge2"]
    with pytest.raises(TypeError):
        segment["rouge1"] = segment["rouge1"]  # type: ignore[index]


def _random_corpus(n: int, seed: int) -> tuple[list[str], list[list[str]]]:
    import random

    rng = random.Random(seed)
    words = "the a cat dog sat on mat big small red blue of".split()
    hyps = [" ".join(rng.choice(words) for _ in range(rng.randint(1, 14))) for _ in range(n)]
    refs = [[" ".join(rng.choice(words) for _ in range(rng.randint(1, 14)))] for _ in range(n)]
    return hyps, refs


@pytest.mark.parametrize(
    "types", [("rouge1", "rougeL", "rougeLsum"), ("rouge2", "rougeW", "rougeSU")]
)
def test_totals_hold_exact_sums_and_no_rows(types: tuple[str, ...]) -> None:
    """A ROUGE total (one process, a worker's chunk, the engine's stream) keeps no row: its
    columns are exact sums, which round to math.fsum of the rows' columns, and the mean of
    segment scores is that sum over the count."""
    from meteor_eval.parallel import corpus_total
    from meteor_eval.stats.exactsum import ExactSum

    hyps, refs = _random_corpus(700, 11)
    pairs = list(zip(hyps, refs, strict=True))
    metric = Rouge(RougeConfig(types=types))
    rows = metric.segment_rows(pairs)
    expected = ExactSum(len(metric.columns))
    expected.add_rows(rows)
    chunk = metric.chunk_total(pairs)
    assert chunk.rows is None and chunk.sums == expected and chunk.count == 700
    streamed = corpus_total(metric, pairs, chunk_size=64)
    assert streamed.rows is None and streamed.sums == expected
    fsums = tuple(math.fsum(column) for column in zip(*rows, strict=True))
    assert streamed.row == fsums
    score = metric.corpus_score(hyps, refs)
    for k, variant in enumerate(types):
        fmeasures = [row[7 * k + 5] for row in rows]
        assert score[variant].fmeasure == math.fsum(fmeasures) / 700
        assert metric.result(streamed)[variant] == score[variant]


def test_bootstrap_totals_keep_their_rows_in_input_order() -> None:
    hyps, refs = _random_corpus(50, 3)
    metric = Rouge(RougeConfig(types=("rouge1", "rougeW"), n_bootstrap=40))
    total = metric.total_of(metric.segment_rows(list(zip(hyps, refs, strict=True))), [1] * 50)
    assert total.rows == metric.segment_rows(list(zip(hyps, refs, strict=True)))
    assert metric.result(total) == metric.corpus_score(hyps, refs)
    assert metric.result(total) == metric.corpus_score(hyps, refs, jobs=2)
