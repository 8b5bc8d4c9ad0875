"""meteor_eval.compat.rouge_score against rouge-score 0.1.2.

Goldens: golden/rouge/rouge_score.json.gz (``RougeScorer(types, use_stemmer).score_multi`` on the
first 400 segments of each dataset, one or two references, and on 300 multi-sentence pairs) and
golden/dropins/peers.json.gz (``BootstrapAggregator`` after ``numpy.random.seed(123)``, and a
custom tokenizer; scripts/make_dropin_golden.py). With rouge-score installed the comparisons also
run live. rouge-score's own test files that can run from its sdist run in test_peer_suites.py.
Values are compared exactly.
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from make_bleu_rouge_golden import ROUGE_TYPES, datasets, multisentence_pairs
from make_dropin_golden import (
    AGGREGATOR_CASES,
    N_ROUGE,
    WhitespaceTokenizer,
)
from make_dropin_golden import ROUGE_TYPES as CUSTOM_TYPES

from meteor_eval.compat.rouge_score import rouge_scorer, scoring, tokenize, tokenizers
from meteor_eval.metrics.rouge import Rouge, RougeConfig

GOLDEN = Path(__file__).parent / "golden"


@cache
def _load(path: str) -> Any:
    with gzip.open(GOLDEN / path, "rt", encoding="utf-8") as handle:
        return json.load(handle)


def _inputs() -> dict[str, list[str]]:
    data: dict[str, list[str]] = _load("bleu/inputs.json.gz")
    return data


@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize(
    "dataset", ["xray1", "xray1-2refs", pytest.param("newstest2009", marks=pytest.mark.slow)]
)
def test_score_multi_equals_rouge_score_golden(dataset: str, stem: bool) -> None:
    hyps, refs = datasets(_inputs())[dataset]
    scorer = rouge_scorer.RougeScorer(list(ROUGE_TYPES), use_stemmer=stem)
    cases = [
        c
        for c in _load("rouge/rouge_score.json.gz")["segments"]
        if c["dataset"] == dataset and c["stem"] == stem
    ]
    assert len(cases) == len(ROUGE_TYPES)
    n = len(cases[0]["prf"])
    ours = [scorer.score_multi(r, h) for h, r in zip(hyps[:n], refs[:n], strict=True)]
    for case in cases:
        assert [list(s[case["type"]]) for s in ours] == case["prf"], case["type"]
    if dataset == "xray1":
        # One target: score() and score_multi() agree, target first as in rouge-score.
        assert [scorer.score(r[0], h) for h, r in zip(hyps[:n], refs[:n], strict=True)] == ours


@pytest.mark.parametrize("stem", [False, True])
def test_multisentence_texts_equal_rouge_score_golden(stem: bool) -> None:
    pairs = multisentence_pairs(_inputs())
    scorer = rouge_scorer.RougeScorer(list(ROUGE_TYPES), use_stemmer=stem)
    ours = [scorer.score_multi(["\n".join(r) for r in refs], "\n".join(h)) for h, refs in pairs]
    for case in _load("rouge/rouge_score.json.gz")["multisentence"]:
        if case["stem"] == stem:
            assert [list(s[case["type"]]) for s in ours] == case["prf"], case["type"]


def _xray_scores(n: int = N_ROUGE) -> list[dict[str, scoring.Score]]:
    data = _inputs()
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL", "rougeLsum"])
    pairs = zip(data["xray-reference"][:n], data["xray-system1"][:n], strict=True)
    return [scorer.score(target, prediction) for target, prediction in pairs]


@pytest.mark.parametrize("k", range(len(AGGREGATOR_CASES)))
def test_bootstrap_aggregator_equals_rouge_score_golden(k: int) -> None:
    import numpy as np

    want = _load("dropins/peers.json.gz")["aggregator"][k]
    aggregator = scoring.BootstrapAggregator(**AGGREGATOR_CASES[k])
    for item in _xray_scores():
        aggregator.add_scores(item)
    np.random.seed(123)
    result = aggregator.aggregate()
    assert list(result) == list(want["result"])
    for rouge_type, bounds in want["result"].items():
        got = result[rouge_type]
        assert isinstance(got.mid, scoring.Score)
        assert [[float(x) for x in bound] for bound in got] == bounds


def test_custom_tokenizer_equals_rouge_score_golden() -> None:
    want = _load("dropins/peers.json.gz")["custom_tokenizer"]
    data = _inputs()
    ref, one, two = data["xray-reference"], data["xray-system1"], data["xray-system2"]
    scorer = rouge_scorer.RougeScorer(list(CUSTOM_TYPES), tokenizer=WhitespaceTokenizer())
    single = [scorer.score(ref[i], one[i]) for i in range(N_ROUGE)]
    multi = [scorer.score_multi([ref[i], two[i]], one[i]) for i in range(N_ROUGE)]
    assert [{t: list(s[t]) for t in CUSTOM_TYPES} for s in single] == want["score"]
    assert [{t: list(s[t]) for t in CUSTOM_TYPES} for s in multi] == want["score_multi"]


@pytest.mark.oracle
def test_everything_equals_live_rouge_score() -> None:
    import numpy as np

    real_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    from rouge_score import scoring as real_scoring

    hyps, refs = datasets(_inputs())["newstest2009"]
    types = ["rouge1", "rouge3", "rouge9", "rougeL", "rougeLsum"]
    for stem in (False, True):
        ours = rouge_scorer.RougeScorer(types, use_stemmer=stem)
        theirs = real_scorer.RougeScorer(types, use_stemmer=stem)
        for h, r in zip(hyps[:150], refs[:150], strict=True):
            targets = [r[0], h[: len(h) // 2], r[0].upper()]
            assert ours.score(r[0], h) == theirs.score(r[0], h)
            assert ours.score_multi(targets, h) == theirs.score_multi(targets, h)
    ours_agg, theirs_agg = scoring.BootstrapAggregator(), real_scoring.BootstrapAggregator()
    for item in _xray_scores(200):
        ours_agg.add_scores(item)
        theirs_agg.add_scores(item)
    np.random.seed(7)
    got = ours_agg.aggregate()
    np.random.seed(7)
    assert got == theirs_agg.aggregate()


# -- meteor-eval's extra types and the drop-in's own behaviour --------------------------------


class _Subclass(tokenizers.DefaultTokenizer):
    """rouge-score's tokenizer under another class: takes the token-by-token path."""


@pytest.mark.parametrize("stem", [False, True])
def test_extra_types_equal_native_rouge_on_both_paths(stem: bool) -> None:
    types = ["rougeW", "rougeS", "rougeSU", "rouge2", "rougeL", "rougeLsum"]
    native = Rouge(RougeConfig(types=tuple(types), use_stemmer=stem))
    default = rouge_scorer.RougeScorer(types, use_stemmer=stem)
    custom = rouge_scorer.RougeScorer(types, tokenizer=_Subclass(stem))
    data = _inputs()
    for target, prediction in zip(
        data["xray-reference"][:150], data["xray-system1"][:150], strict=True
    ):
        stats = native.segment_stats(prediction, [target])
        want = {t: (stats[t].precision, stats[t].recall, stats[t].fmeasure) for t in types}
        assert {t: tuple(s) for t, s in default.score(target, prediction).items()} == want
        # xray is ASCII, where rouge-score's and ROUGE-1.5.5's tokenizations agree.
        assert {t: tuple(s) for t, s in custom.score(target, prediction).items()} == want


def test_score_multi_keeps_the_best_f_measure_first_on_ties() -> None:
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeSU"])
    # Equal F-measures (2/3) from P = 1, R = 1/2 and from P = 1/2, R = 1: the first target wins.
    got = scorer.score_multi(["a b c d", "a", "x"], "a b")
    assert got["rouge1"] == scoring.Score(1.0, 0.5, 2 / 3)
    assert scorer.score_multi(["a", "a b c d"], "a b")["rouge1"] == scoring.Score(0.5, 1.0, 2 / 3)
    assert got["rougeSU"] == scorer.score("a b c d", "a b")["rougeSU"]
    with pytest.raises(ValueError, match="at least one target"):
        scorer.score_multi([], "a")


@pytest.mark.parametrize("bad", ["rougen", "rouge0", "rouge10", "rougeX", "ROUGE1"])
def test_invalid_types_raise_value_error(bad: str) -> None:
    with pytest.raises(ValueError, match="Invalid rouge type"):
        rouge_scorer.RougeScorer(["rouge1", bad])


def test_duplicate_types_and_order_are_kept() -> None:
    scores = rouge_scorer.RougeScorer(["rougeL", "rouge1", "rougeL"]).score("a b", "a b")
    assert list(scores) == ["rougeL", "rouge1"]
    assert scores["rouge1"] == scoring.Score(1.0, 1.0, 1.0)


def test_empty_texts_score_zero() -> None:
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL", "rougeLsum", "rougeW"])
    for target, prediction in (("", "a b"), ("a b", ""), ("", "")):
        assert all(s == (0.0, 0.0, 0.0) for s in scorer.score(target, prediction).values())


def test_tokenize_module_with_a_stemmer_object() -> None:
    class Upper:
        def stem(self, word: str) -> str:
            return word.upper() if word.startswith("t") else word[:-1]

    assert tokenize.tokenize("Three tall trees, one bird!", Upper()) == ["one", "bir"]
    assert tokenize.tokenize("Three tall trees", None) == ["three", "tall", "trees"]
    assert tokenizers.DefaultTokenizer(True).tokenize("Running dogs ran") == ["run", "dog", "ran"]


def test_aggregator_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="confidence_interval"):
        scoring.BootstrapAggregator(confidence_interval=1.5)
    with pytest.raises(ValueError, match="n_samples"):
        scoring.BootstrapAggregator(n_samples=0)
    assert scoring.fmeasure(0.0, 0.0) == 0.0


@pytest.mark.oracle
def test_split_summaries_uses_nltk_like_rouge_score(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``split_summaries`` both call ``nltk.sent_tokenize`` (stubbed: Punkt is a download)."""
    nltk = pytest.importorskip("nltk")
    real_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    monkeypatch.setattr(nltk, "sent_tokenize", lambda text: text.split(". "))
    target = "The cat sat. Then it left."
    prediction = "Then it left. The cat sat."
    types = ["rougeLsum", "rouge1"]
    ours = rouge_scorer.RougeScorer(types, split_summaries=True).score(target, prediction)
    theirs = real_scorer.RougeScorer(types, split_summaries=True).score(target, prediction)
    assert ours == theirs
    assert ours["rougeLsum"].recall == 1.0
    assert rouge_scorer.RougeScorer(types).score(target, prediction)["rougeLsum"].recall < 1.0
