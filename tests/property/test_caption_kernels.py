"""The compiled caption kernels against their Python twins, compared with ``==`` (bit for bit).

``bleu_rows`` (BLEU's counts with ``str.split()`` tokens), ``cider_d_scores`` and
``coco_rouge_l_scores`` (``_ext/caption.c``) must give :func:`bleu_image_stats`,
:class:`CiderModel` and :func:`rouge_l_image` exactly, on captions with any whitespace (tabs,
double spaces, no-break and ideographic spaces), non-ASCII words, empty captions and many
references. Hand cases pin values worked out on paper.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval._ext import compiled_kernels
from meteor_eval.metrics import caption
from meteor_eval.metrics.caption import (
    CiderModel,
    bleu_image_stats,
    cider_d,
    coco_bleu,
    coco_rouge_l,
    rouge_l_image,
    rouge_l_images,
)

pytestmark = pytest.mark.skipif(
    compiled_kernels("cider_d_scores", "coco_rouge_l_scores", "bleu_rows") is None,
    reason="the compiled caption kernels are not built",
)

WORD = st.sampled_from(["a", "dog", "cat", "on", "the", "mat", "é", "straße", "日本", "a", "the"])
SEPARATOR = st.sampled_from([" ", " ", " ", "  ", "\t", "\u00a0", "\u3000", "\n"])


@st.composite
def captions(draw: st.DrawFn) -> str:
    words = draw(st.lists(WORD, min_size=0, max_size=14))
    out = draw(st.sampled_from(["", " ", "\t"]))
    for word in words:
        out += word + draw(SEPARATOR)
    return out if draw(st.booleans()) else out.rstrip(" ")


IMAGES = st.lists(
    st.tuples(captions(), st.lists(captions(), min_size=1, max_size=9)), min_size=1, max_size=12
)


def _python_cider(
    images: list[tuple[str, list[str]]], n: int = 4, sigma: float = 6.0
) -> list[float]:
    model = CiderModel([refs for _, refs in images], n=n, sigma=sigma)
    return [model.score(hyp, refs) for hyp, refs in images]


@settings(max_examples=300, deadline=None)
@given(IMAGES, st.integers(1, 7), st.sampled_from([6.0, 1.0, 0.5, 13.25]))
def test_cider_kernel_equals_the_python_twin(
    images: list[tuple[str, list[str]]], n: int, sigma: float
) -> None:
    compiled = caption._cider_d_compiled(
        [hyp for hyp, _ in images], [refs for _, refs in images], n, sigma
    )
    assert compiled is not None
    assert compiled.tolist() == _python_cider(images, n, sigma)


@settings(max_examples=300, deadline=None)
@given(IMAGES)
def test_rouge_l_kernel_equals_the_python_twin(images: list[tuple[str, list[str]]]) -> None:
    hyps = [hyp for hyp, _ in images]
    refs = [r for _, r in images]
    assert rouge_l_images(hyps, refs).tolist() == [
        rouge_l_image(h, r) for h, r in zip(hyps, refs, strict=True)
    ]
    assert rouge_l_images(hyps, refs, 0.5).tolist() == [
        rouge_l_image(h, r, 0.5) for h, r in zip(hyps, refs, strict=True)
    ]


@settings(max_examples=300, deadline=None)
@given(IMAGES, st.integers(1, 6))
def test_bleu_kernel_equals_the_python_twin(images: list[tuple[str, list[str]]], n: int) -> None:
    compiled = caption._bleu_stats_compiled(
        [hyp for hyp, _ in images], [refs for _, refs in images], n
    )
    assert compiled == [bleu_image_stats(hyp, refs, n) for hyp, refs in images]


def test_cider_hand_case() -> None:
    # Two images: df(a) = 2, the others 1; idf = log 2 - log df. Image 1: the candidate equals
    # its only reference, so each order's cosine is 1 where it has grams: orders 1 and 2 ("a cat",
    # the bigram "a cat") give 1 each, orders 3 and 4 nothing: (1 + 1 + 0 + 0) / 4 * 10 = 5.
    # Image 2: only "a" is shared and its idf is 0, so every product is 0.
    scores = caption._cider_d_compiled(["a cat", "a cow"], [["a cat"], ["a dog"]], 4, 6.0)
    assert scores is not None and scores.tolist() == [5.0, 0.0]
    # Length penalty: candidate "x y z" (2 bigrams) against reference "x y" (1 bigram), one
    # image (idf of every gram log 1 - log 1 = 0): all weights are 0, the score is 0.
    scores = caption._cider_d_compiled(["x y z"], [["x y"]], 4, 6.0)
    assert scores is not None and scores.tolist() == [0.0]


def test_cider_hand_case_with_a_length_penalty() -> None:
    # Image 1's unigram "u" is in image 1's references only: idf(u) = log 2. Candidate "u v"
    # (1 bigram), references "u" (0 bigrams) and "u v w" (2): order 1 cosines are
    # (w*w) / (|c| |r|) with the reference's weights; everything else has idf 0 or is absent.
    hyp, refs = "u v", ["u", "u v w"]
    other = ("p", ["q"])
    scores = caption._cider_d_compiled([hyp, other[0]], [refs, other[1]], 4, 6.0)
    assert scores is not None
    w = math.log(2.0)
    # candidate unigram weights: u -> w, v -> log 2 - log 1 = w (v is in image 1's references)
    # reference "u": u -> w; reference "u v w": u, v, w -> w each
    cos_1 = (w * w) / (math.sqrt(2 * w * w) * math.sqrt(w * w))
    cos_2 = (2 * w * w) / (math.sqrt(2 * w * w) * math.sqrt(3 * w * w))
    # bigram "u v": candidate and second reference, idf log 2: cosine 1 / sqrt(2) there
    bigram = (w * w) / (math.sqrt(w * w) * math.sqrt(2 * w * w))
    expected = (
        (cos_1 * math.exp(-1 / 72) + cos_2 * math.exp(-1 / 72) + bigram * math.exp(-1 / 72))
        / 4
        / 2
        * 10
    )
    assert scores[0] == pytest.approx(expected, rel=1e-12)
    assert scores.tolist() == _python_cider([(hyp, refs), other])


def test_empty_captions() -> None:
    scores = caption._cider_d_compiled(["", "a"], [[""], ["", "a"]], 4, 6.0)
    # image 2: "a" is in its references only (idf log 2), cosine 1 with the second one
    assert scores is not None and scores.tolist() == [0.0, 1.25]
    # split(" ") of "" is [""]: one empty token, which an empty reference matches
    assert rouge_l_images(["", "a"], [[""], ["b", ""]]).tolist() == [1.0, 0.0]
    stats = caption._bleu_stats_compiled(["", "a b"], [[""], ["a", "a b c"]], 4)
    assert stats == [bleu_image_stats("", [""]), bleu_image_stats("a b", ["a", "a b c"])]
    assert stats is not None and stats[1].reflen == 1 and stats[1].correct == (2, 1, 0, 0)


def test_many_references_and_non_ascii() -> None:
    refs = [f"ein hund {'läuft ' * k}über die straße" for k in range(40)]
    images = [("ein hund läuft über die straße", refs), ("日本 の 犬", ["日本 の 猫", "犬"])]
    compiled = caption._cider_d_compiled([h for h, _ in images], [r for _, r in images], 4, 6.0)
    assert compiled is not None and compiled.tolist() == _python_cider(images)
    assert rouge_l_images([h for h, _ in images], [r for _, r in images]).tolist() == [
        rouge_l_image(h, r) for h, r in images
    ]


def test_wrong_items_fall_back_to_the_python_path() -> None:
    kernels = compiled_kernels("cider_d_scores", "coco_rouge_l_scores")
    assert kernels is not None
    assert kernels.coco_rouge_l_scores(["a"], [[1]], 1.44) is None
    assert kernels.coco_rouge_l_scores(["a"], [[]], 1.44) is None
    assert kernels.cider_d_scores([b"a"], [["a"]], 4, 72.0, lambda df: df) is None
    assert kernels.cider_d_scores(["a"], ["a"], 4, 72.0, lambda df: df) is None
    with pytest.raises(ValueError, match="one float64 per document frequency"):
        kernels.cider_d_scores(["a"], [["a"]], 4, 72.0, lambda df: np.zeros(3))
    with pytest.raises(ValueError, match=r"n must be 1 \.\. 7"):
        kernels.cider_d_scores(["a"], [["a"]], 8, 72.0, lambda df: df)
    # the public functions still raise the original's errors
    with pytest.raises(ValueError, match="non-empty list"):
        cider_d({1: []}, {1: ["a"]})


def test_public_functions_use_the_kernels_with_the_same_results() -> None:
    gts = {1: ["a cat on a mat", "the cat"], 2: ["a dog", "dogs run"], 3: ["é", "straße"]}
    res = {1: ["a cat"], 2: ["a dog runs"], 3: ["straße é"]}
    ids = list(gts)
    cider = cider_d(gts, res)[1].tolist()
    assert cider == _python_cider([(res[i][0], gts[i]) for i in ids])
    assert coco_rouge_l(gts, res)[1].tolist() == [rouge_l_image(res[i][0], gts[i]) for i in ids]
    per_image = coco_bleu(gts, res)[1]
    stats = [bleu_image_stats(res[i][0], gts[i]) for i in ids]
    assert per_image == [
        [caption._bleu_values(s.correct, s.guess, s.testlen, s.reflen)[k] for s in stats]
        for k in range(4)
    ]


@settings(max_examples=100, deadline=None)
@given(IMAGES)
def test_caption_metric_rows_equal_the_python_twins(images: list[tuple[str, list[str]]]) -> None:
    from meteor_eval.metrics.coco import CocoBleu, CocoRougeL

    rows = CocoBleu().segment_rows(images)
    expected = [bleu_image_stats(hyp, refs) for hyp, refs in images]
    assert rows == [(s.testlen, s.reflen, *s.guess, *s.correct) for s in expected]
    assert CocoRougeL().segment_rows(images) == [(rouge_l_image(h, r), 1) for h, r in images]


@settings(max_examples=150, deadline=None)
@given(IMAGES, st.integers(1, 7))
def test_cider_metric_rows_equal_the_model(images: list[tuple[str, list[str]]], n: int) -> None:
    """``CiderD.segment_rows`` (the ``caption`` command's CIDEr-D): the compiled call when the
    pairs' references are the settings' (or there are none in the settings), the model
    otherwise; every row is the model's float."""
    from meteor_eval.metrics.coco import CiderConfig, CiderD

    references = [refs for _, refs in images]
    expected = [(float(v), 1) for v in _python_cider(images, n)]
    assert CiderD.for_references(references, n=n).segment_rows(images) == expected
    assert CiderD(CiderConfig(n=n)).segment_rows(images) == expected
    # The first image alone, with the whole set's document frequencies: the model's path.
    whole = CiderD.for_references(references, n=n)
    model = CiderModel(references, n=n)
    assert whole.segment_rows(images[:1]) == [(float(model.score(*images[0])), 1)]
