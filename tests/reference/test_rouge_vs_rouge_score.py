"""ROUGE-N/L/Lsum against rouge-score 0.1.2 (``RougeScorer(types, use_stemmer).score_multi``).

Golden values in golden/rouge/rouge_score.json.gz, produced by scripts/make_bleu_rouge_golden.py
(first 400 segments of each dataset, the mean over all segments, and 300 multi-sentence pairs whose
sentences rouge-score sees joined by newlines and we see joined by ``<n>``). Tolerance 1e-12.
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from make_bleu_rouge_golden import ROUGE_TYPES, datasets

from meteor_eval.metrics.rouge import Rouge, RougeConfig
from meteor_eval.stats.rouge import RougeStats

ROOT = Path(__file__).parent / "golden"


@cache
def _load(path: str) -> Any:
    with gzip.open(ROOT / path, "rt", encoding="utf-8") as handle:
        return json.load(handle)


@cache
def _scores(dataset: str, stem: bool) -> tuple[Any, Any]:
    hyps, refs = datasets(_load("bleu/inputs.json.gz"))[dataset]
    rouge = Rouge(RougeConfig(types=ROUGE_TYPES, use_stemmer=stem))
    rows = rouge.corpus_stats(hyps, refs)
    segments = [{v: rouge.score_stats(v, stats) for v, stats in row.items()} for row in rows]
    corpus = {}
    for variant in ROUGE_TYPES:
        total = RougeStats.zero()
        for row in rows:
            total = total + row[variant]
        corpus[variant] = rouge.score_stats(variant, total)
    return segments, corpus


@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize(
    "dataset",
    [
        "xray1",
        *(
            pytest.param(d, marks=pytest.mark.slow)
            for d in ("xray2", "xray1-2refs", "newstest2009")
        ),
    ],
)
def test_segments_and_means_equal_rouge_score(dataset: str, stem: bool) -> None:
    golden = _load("rouge/rouge_score.json.gz")
    segments, corpus = _scores(dataset, stem)
    for case in golden["segments"]:
        if case["dataset"] != dataset or case["stem"] != stem:
            continue
        variant = case["type"]
        ours = [[s[variant].precision, s[variant].recall, s[variant].fmeasure] for s in segments]
        for mine, theirs in zip(ours, case["prf"], strict=False):
            assert mine == pytest.approx(theirs, abs=1e-12), variant
    for case in golden["means"]:
        if case["dataset"] != dataset or case["stem"] != stem:
            continue
        score = corpus[case["type"]]
        assert [score.precision, score.recall, score.fmeasure] == pytest.approx(
            case["mean"], abs=1e-12
        )


@pytest.mark.parametrize("stem", [False, True])
def test_multisentence_pairs_equal_rouge_score(stem: bool) -> None:
    pairs = _load("rouge/rouge155.json.gz")["pairs"]
    hyps = ["<n>".join(h) for h, _ in pairs]
    refs = [["<n>".join(r) for r in group] for _, group in pairs]
    rouge = Rouge(RougeConfig(types=ROUGE_TYPES, use_stemmer=stem, sentence_separator="<n>"))
    results = rouge.segment_scores(hyps, refs)
    for case in _load("rouge/rouge_score.json.gz")["multisentence"]:
        if case["stem"] != stem:
            continue
        variant = case["type"]
        ours = [[r[variant].precision, r[variant].recall, r[variant].fmeasure] for r in results]
        for mine, theirs in zip(ours, case["prf"], strict=True):
            assert mine == pytest.approx(theirs, abs=1e-12), variant


@pytest.mark.oracle
def test_porter_stemmer_equals_nltk_on_xray_vocabulary() -> None:
    porter = pytest.importorskip("nltk.stem.porter")
    import re

    from meteor_eval.text.rouge_tokenizer import porter_stem

    inputs = _load("bleu/inputs.json.gz")
    words = {
        w
        for lines in inputs.values()
        for line in lines
        for w in re.split("[^a-z0-9]+", line.lower())
        if w
    }
    nltk_stemmer = porter.PorterStemmer()
    assert [w for w in sorted(words) if porter_stem(w) != nltk_stemmer.stem(w)] == []
