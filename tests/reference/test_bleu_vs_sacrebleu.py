"""BLEU against sacrebleu 2.6.0.

Golden values in golden/bleu/ (see scripts/make_bleu_rouge_golden.py for the exact calls), and,
when sacrebleu is installed, a live check on every segment.
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from make_bleu_rouge_golden import datasets

from meteor_eval.metrics.bleu import Bleu, BleuConfig

GOLDEN = Path(__file__).parent / "golden" / "bleu"


@cache
def _load(name: str) -> Any:
    with gzip.open(GOLDEN / name, "rt", encoding="utf-8") as handle:
        return json.load(handle)


@cache
def _sets() -> dict[str, tuple[list[str], list[list[str]]]]:
    return datasets(_load("inputs.json.gz"))


def _corpus_cases() -> list[dict[str, Any]]:
    return list(_load("sacrebleu.json.gz")["corpus"])


DATASETS = ["xray1", "xray2", "xray1-2refs", "xray1-varrefs", "newstest2009"]
TOKENIZERS = [
    "13a",
    *(pytest.param(t, marks=pytest.mark.slow) for t in ("intl", "char", "none", "zh")),
]


@pytest.mark.parametrize("tokenize", TOKENIZERS)
@pytest.mark.parametrize("dataset", DATASETS)
def test_corpus_bleu_equals_sacrebleu_for_every_option(dataset: str, tokenize: str) -> None:
    hyps, refs = _sets()[dataset]
    cases = [
        c
        for c in _corpus_cases()
        if c["dataset"] == dataset and c["options"]["tokenize"] == tokenize
    ]
    assert len(cases) == 6 * 2 * 2
    stats_cache: dict[tuple[str, bool], Any] = {}
    for case in cases:
        options = case["options"]
        bleu = Bleu(BleuConfig(**options))
        key = (options["tokenize"], options["lowercase"])
        if key not in stats_cache:
            rows = bleu.corpus_stats(hyps, refs)
            total = rows[0]
            for row in rows[1:]:
                total = total + row
            stats_cache[key] = total
        nrefs = case["signature"].split("|")[0].split(":")[1]
        score = bleu.score_stats(stats_cache[key], nrefs=nrefs)
        assert score.score == pytest.approx(case["score"], abs=1e-9), options
        assert score.bp == pytest.approx(case["bp"], abs=1e-12)
        assert list(score.precisions) == pytest.approx(case["precisions"], abs=1e-9)
        assert (score.sys_len, score.ref_len) == (case["sys_len"], case["ref_len"])
        ours = score.signature.format().split("|")[1:-1]
        assert ours == case["signature"].split("|")[:-1]


@pytest.mark.parametrize("dataset", DATASETS)
def test_sentence_bleu_equals_sacrebleu(dataset: str) -> None:
    hyps, refs = _sets()[dataset]
    for case in _load("sacrebleu.json.gz")["sentence"]:
        if case["dataset"] != dataset:
            continue
        bleu = Bleu(BleuConfig(**case["options"]))
        n = len(case["scores"])
        ours = [s.score for s in bleu.segment_scores(hyps[:n], refs[:n])]
        assert ours == pytest.approx(case["scores"], abs=1e-9), case["options"]


def test_full_corpus_equals_corpus_api() -> None:
    from meteor_eval.metrics.bleu import corpus_bleu

    hyps, refs = _sets()["xray1"]
    case = next(c for c in _corpus_cases() if c["dataset"] == "xray1")
    assert corpus_bleu(hyps, refs, **case["options"]).score == pytest.approx(
        case["score"], abs=1e-9
    )


@pytest.mark.oracle
@pytest.mark.slow
@pytest.mark.parametrize("tokenize", ["13a", "intl", "zh"])
def test_every_sentence_equals_live_sacrebleu(tokenize: str) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    from sacrebleu.metrics import BLEU

    for dataset in ("xray1-varrefs", "newstest2009"):
        hyps, refs = _sets()[dataset]
        theirs = BLEU(tokenize=tokenize, effective_order=True)
        ours = Bleu(BleuConfig(tokenize=tokenize, effective_order=True)).segment_scores(hyps, refs)
        for hyp, ref, mine in zip(hyps, refs, ours, strict=True):
            assert mine.score == pytest.approx(theirs.sentence_score(hyp, ref).score, abs=1e-9)
    assert sacrebleu.__version__
