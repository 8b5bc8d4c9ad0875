"""Property tests of the caption metrics: the bit-parallel LCS against the textbook table, and
BLEU, ROUGE-L and CIDEr-D against pycocoevalcap's own pure-Python scorers (no Java needed) on
random corpora, compared with ``==``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval.metrics.caption import cider_d, coco_bleu, coco_rouge_l, lcs_length

WORDS = st.sampled_from(["a", "dog", "cat", "on", "the", "mat", "red", "a"])
TOKENS = st.lists(WORDS, min_size=0, max_size=12)
CAPTION = TOKENS.map(" ".join)
IMAGE = st.tuples(CAPTION, st.lists(CAPTION, min_size=1, max_size=5))
CORPUS = st.lists(IMAGE, min_size=1, max_size=8)


def _naive_lcs(a: list[str], b: list[str]) -> int:
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            if a[i - 1] == b[j - 1]:
                table[i][j] = table[i - 1][j - 1] + 1
            else:
                table[i][j] = max(table[i - 1][j], table[i][j - 1])
    return table[-1][-1]


@settings(max_examples=500, deadline=None)
@given(TOKENS, TOKENS)
def test_bit_parallel_lcs_equals_the_table(a: list[str], b: list[str]) -> None:
    assert lcs_length(a, b) == _naive_lcs(a, b) == lcs_length(b, a)


def _dicts(corpus: list[tuple[str, list[str]]]) -> tuple[dict[int, Any], dict[int, Any]]:
    gts = {i: refs for i, (_, refs) in enumerate(corpus)}
    res = {i: [hyp] for i, (hyp, _) in enumerate(corpus)}
    return gts, res


def _same_arrays_as_original(
    ours: Callable[[Any, Any], tuple[Any, Any]],
    module: str,
    scorer: str,
    corpus: list[tuple[str, list[str]]],
) -> None:
    """Our scorer and the original ``module.scorer`` give the same corpus score and the same
    per-image array, bit for bit (skipped when the original is not installed)."""
    original = pytest.importorskip(module)
    gts, res = _dicts(corpus)
    mine = ours(gts, res)
    theirs = getattr(original, scorer)().compute_score(gts, res)
    assert float(mine[0]) == float(theirs[0]) and mine[1].tolist() == theirs[1].tolist()


@pytest.mark.oracle
@settings(max_examples=150, deadline=None)
@given(CORPUS)
def test_bleu_equals_pycocoevalcap(corpus: list[tuple[str, list[str]]]) -> None:
    original = pytest.importorskip("pycocoevalcap.bleu.bleu")
    gts, res = _dicts(corpus)
    assert coco_bleu(gts, res) == tuple(original.Bleu(4).compute_score(gts, res, verbose=0))


@pytest.mark.oracle
@settings(max_examples=150, deadline=None)
@given(CORPUS.filter(lambda c: all(hyp for hyp, _ in c)))
def test_rouge_l_equals_pycocoevalcap(corpus: list[tuple[str, list[str]]]) -> None:
    _same_arrays_as_original(coco_rouge_l, "pycocoevalcap.rouge.rouge", "Rouge", corpus)


@pytest.mark.oracle
@settings(max_examples=150, deadline=None)
# (the original fails on max() of no document frequency when no reference has a word)
@given(CORPUS.filter(lambda c: any(ref for _, refs in c for ref in refs)))
def test_cider_d_equals_pycocoevalcap(corpus: list[tuple[str, list[str]]]) -> None:
    _same_arrays_as_original(cider_d, "pycocoevalcap.cider.cider", "Cider", corpus)
