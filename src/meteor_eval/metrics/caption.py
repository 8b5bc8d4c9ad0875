"""The COCO caption metrics as pycocoevalcap computes them: BLEU-1..4, METEOR, ROUGE-L, CIDEr-D.

Each function takes pycocoevalcap's inputs, already tokenized (``gts``: image id -> reference
strings, ``res``: image id -> a list holding one caption; tokens separated by spaces) and returns
pycocoevalcap's values, float for float:

* :func:`coco_bleu`: ``Bleu(n)``, David Chiang's ``bleu_scorer`` as shipped in the COCO caption
  code: clipped n-gram counts per image, the *closest* reference length (the shorter on a tie),
  geometric mean with ``1e-15``/``1e-9`` guards against zero counts; per-image scores use the
  same formula (so they are not smoothed sentence BLEU). Not sacrebleu's BLEU: no 13a tokenizer,
  no ``exp`` smoothing, 0-1 scale.
* :func:`coco_rouge_l`: ``Rouge()``, ROUGE-L with ``beta = 1.2``: per image, the best LCS
  precision and the best LCS recall over the references (possibly from different references)
  give one F-measure; tokens are ``split(" ")``; the corpus score is the mean of the images'.
* :func:`cider_d`: ``Cider()``, which is CIDEr-D (Vedantam et al., 2015): TF-IDF vectors of
  1..4-grams, document frequencies counted over the references of the images evaluated,
  ``log(number of images)`` as the IDF numerator, the candidate's weights clipped by the
  reference's, a Gaussian length penalty with ``sigma = 6`` on the lengths as pycocoevalcap
  counts them (its number of bigrams), the mean over n and over references, times 10.
* :func:`coco_meteor`: ``Meteor()``, METEOR 1.5 (``-l en -norm``) of each image against its
  references and of the pooled statistics, from :mod:`meteor_eval.metrics.meteor`.

The arithmetic follows the original's order, including its NumPy reductions, so the values are
identical, not merely close. Whole caption sets go through compiled kernels when the extension is
built (BLEU's counts: ``bleu_rows``; CIDEr-D and ROUGE-L: ``cider_d_scores`` and
``coco_rouge_l_scores`` of ``_ext/caption.c``), which repeat the same floating-point operations
in the same order; the Python functions here are their twins and the fallback.

References:
    Xinlei Chen et al. 2015. Microsoft COCO Captions: Data Collection and Evaluation Server.
    Ramakrishna Vedantam, C. Lawrence Zitnick, Devi Parikh. 2015. CIDEr: Consensus-based Image
    Description Evaluation. CVPR.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from meteor_eval._ext import compiled_kernels
from meteor_eval.limits import WORK_BUDGET

__all__ = [
    "BleuImageStats",
    "CiderModel",
    "caption_counts",
    "check_captions",
    "cider_d",
    "clear_caches",
    "coco_bleu",
    "coco_meteor",
    "coco_rouge_l",
    "meteor_best_rows",
    "meteor_of_fields",
    "meteor_scorer",
    "rouge_l_images",
]

ImageId = Hashable
#: The compiled caption kernels (``None``: the Python twins below).
_CAPTION_KERNELS: Any = compiled_kernels("cider_d_scores", "coco_rouge_l_scores")
_BLEU_KERNEL: Any = compiled_kernels("bleu_rows")
_TOK_NONE = 3  # bleu_rows' tokenizer code for str.split()
_SMALL = 1e-9
_E = math.e  # == numpy.e, the constant of the original
_TINY = 1e-15


def check_captions(
    gts: Mapping[Any, Sequence[str]], res: Mapping[Any, Sequence[str]], *, metric: str
) -> list[Any]:
    """The image ids in ``gts`` order, after pycocoevalcap's checks (as ``ValueError``).

    Raises:
        ValueError: the key sets differ, an image has not exactly one caption or no reference,
            or a value is not a list (the original asserts these).
    """
    if gts.keys() != res.keys():
        raise ValueError(f"{metric}: gts and res must have the same image ids")
    for image_id in gts:
        hypothesis = res[image_id]
        references = gts[image_id]
        if not isinstance(hypothesis, list) or len(hypothesis) != 1:
            raise ValueError(f"{metric}: res[{image_id!r}] must be a list of exactly one caption")
        if not isinstance(references, list) or not references:
            raise ValueError(f"{metric}: gts[{image_id!r}] must be a non-empty list of captions")
    return list(gts)


# -- BLEU ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BleuImageStats:
    """One image's BLEU statistics, as ``bleu_scorer.cook_test`` records them.

    Attributes:
        testlen: Number of candidate tokens.
        reflen: The reference length closest to ``testlen`` (the shorter on a tie).
        guess: Candidate n-grams of each order.
        correct: Clipped matches of each order.
    """

    testlen: int
    reflen: int
    guess: tuple[int, ...]
    correct: tuple[int, ...]


#: Caption -> its n-gram counts, one dict per order, shared by BLEU and CIDEr-D
#: (``COCOEvalCap`` scores the same captions with both); bounded, cleared when full.
_COUNTS: dict[tuple[str, int], list[Counter[tuple[str, ...]]]] = {}
_COUNTS_LIMIT = 1 << 20


def caption_counts(caption: str, n: int = 4) -> list[Counter[tuple[str, ...]]]:
    """The 1..n-gram counts of a whitespace-tokenized caption, one dict per order, each in
    ``precook``'s order (cached; do not modify the result)."""
    key = (caption, n)
    counts = _COUNTS.get(key)
    if counts is None:
        if len(_COUNTS) >= _COUNTS_LIMIT:
            _COUNTS.clear()
        words = caption.split()
        # zip stops at the shortest slice: the k-grams, left to right (precook's order)
        counts = [
            Counter(zip(*[words[i:] for i in range(k)], strict=False)) for k in range(1, n + 1)
        ]
        _COUNTS[key] = counts
    return counts


def clear_caches() -> None:
    """Forget the cached n-gram counts (for benchmarks that time cold runs; METEOR's interned
    texts live in each scorer's pipeline, ``FastPipeline.line_ids``, and go with it)."""
    _COUNTS.clear()


def bleu_image_stats(candidate: str, references: Sequence[str], n: int = 4) -> BleuImageStats:
    """The statistics of one candidate against its references (whitespace-split tokens)."""
    maxcounts: dict[tuple[str, ...], int] = {}
    reflens: list[int] = []
    for reference in references:
        ref_counts = caption_counts(reference, n)
        reflens.append(sum(ref_counts[0].values()))
        for by_order in ref_counts:
            for gram, count in by_order.items():
                if count > maxcounts.get(gram, 0):
                    maxcounts[gram] = count
    counts = caption_counts(candidate, n)
    testlen = sum(counts[0].values())
    correct = [0] * n
    for order, by_order in enumerate(counts):
        matched = 0
        for gram, count in by_order.items():
            ref_count = maxcounts.get(gram, 0)
            matched += count if count < ref_count else ref_count
        correct[order] = matched
    reflen = min((abs(length - testlen), length) for length in reflens)[1]
    guess = tuple(max(0, testlen - k + 1) for k in range(1, n + 1))
    return BleuImageStats(testlen, reflen, guess, tuple(correct))


def _bleu_stats_compiled(
    candidates: Sequence[str], references: Sequence[Sequence[str]], n: int
) -> list[BleuImageStats] | None:
    """:func:`bleu_image_stats` of every image from one ``bleu_rows`` call (the same integer
    counts: ``str.split()`` tokens, clipped counts, closest reference length), or ``None`` when
    the kernel is missing or an item is not a string (the Python path then runs)."""
    rows = _bleu_rows_compiled(candidates, references, n)
    if rows is None:
        return None
    return [
        BleuImageStats(row[0], row[1], tuple(row[2 + n :]), tuple(row[2 : 2 + n]))
        for row in rows.tolist()
    ]


def _bleu_rows_compiled(
    candidates: Sequence[str], references: Sequence[Sequence[str]], n: int
) -> Any:
    """The ``bleu_rows`` block of every image as an ``(images, 2 + 2n)`` int64 array (test
    length, reference length, clipped matches of each order, candidate n-grams of each order),
    or ``None`` (as :func:`_bleu_stats_compiled`)."""
    if _BLEU_KERNEL is None or not candidates or n > 64:
        return None
    block = _BLEU_KERNEL.bleu_rows(candidates, references, _TOK_NONE, n)
    if block is None:
        return None
    return np.frombuffer(block, dtype=np.int64).reshape(len(candidates), 2 + 2 * n)


def _bleu_values(
    correct: Sequence[int], guess: Sequence[int], testlen: int, reflen: int
) -> list[float]:
    """BLEU-1..n of counts, in ``bleu_scorer.compute_score``'s float order."""
    values: list[float] = []
    bleu = 1.0
    for k in range(len(correct)):
        bleu *= (float(correct[k]) + _TINY) / (float(guess[k]) + _SMALL)
        values.append(bleu ** (1.0 / (k + 1)))
    ratio = (testlen + _TINY) / (reflen + _SMALL)
    if ratio < 1:
        penalty = math.exp(1 - 1 / ratio)
        values = [value * penalty for value in values]
    return values


def bleu_of_stats(
    stats: Sequence[BleuImageStats], n: int = 4
) -> tuple[list[float], dict[str, Any]]:
    """Corpus BLEU-1..n of summed statistics, and pycocoevalcap's ``totalcomps`` record."""
    testlen = sum(s.testlen for s in stats)
    reflen = sum(s.reflen for s in stats)
    guess = [sum(s.guess[k] for s in stats) for k in range(n)]
    correct = [sum(s.correct[k] for s in stats) for k in range(n)]
    totals = {"testlen": testlen, "reflen": reflen, "guess": guess, "correct": correct}
    return _bleu_values(correct, guess, testlen, reflen), totals


def coco_bleu(
    gts: Mapping[Any, Sequence[str]],
    res: Mapping[Any, Sequence[str]],
    n: int = 4,
    *,
    verbose: int = 0,
) -> tuple[list[float], list[list[float]]]:
    """pycocoevalcap's ``Bleu(n).compute_score(gts, res)``: BLEU-1..n and per-image lists.

    With ``verbose`` > 0 the original's statistics are printed (its ``totalcomps`` dict and
    ``ratio:``), as ``Bleu.compute_score`` does by default.

    Example:
        >>> same = {1: ["a cat sat on the mat"]}
        >>> [round(s, 6) for s in coco_bleu(same, same)[0]]
        [1.0, 1.0, 1.0, 1.0]
    """
    ids = check_captions(gts, res, metric="Bleu")
    per_image: list[list[float]] = [[] for _ in range(n)]
    block = _bleu_rows_compiled([res[i][0] for i in ids], [gts[i] for i in ids], n)
    if block is not None:
        # Straight from the rows (no record per image); the totals are the columns' sums.
        for row in block.tolist():
            values = _bleu_values(row[2 : 2 + n], row[2 + n :], row[0], row[1])
            for k in range(n):
                per_image[k].append(values[k])
        sums = block.sum(axis=0).tolist()
        guess, correct = sums[2 + n :], sums[2 : 2 + n]
        totals = {"testlen": sums[0], "reflen": sums[1], "guess": guess, "correct": correct}
        scores = _bleu_values(correct, guess, sums[0], sums[1])
    else:
        stats = [bleu_image_stats(res[i][0], gts[i], n) for i in ids]
        for record in stats:
            for k, value in enumerate(
                _bleu_values(record.correct, record.guess, record.testlen, record.reflen)
            ):
                per_image[k].append(value)
        scores, totals = bleu_of_stats(stats, n)
    if verbose > 0:
        print(totals)
        print("ratio:", (totals["testlen"] + _TINY) / (totals["reflen"] + _SMALL))
    return scores, per_image


# -- ROUGE-L -------------------------------------------------------------------------------------


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of a longest common subsequence, by the bit-parallel algorithm (Allison-Dix,
    Hyyrö): one big-integer step per token of ``a``.

    Example:
        >>> lcs_length("a b c d".split(), "b d c".split())
        2
    """
    if not a or not b:
        return 0
    masks: dict[str, int] = {}
    for position, token in enumerate(b):
        masks[token] = masks.get(token, 0) | (1 << position)
    full = (1 << len(b)) - 1
    row = full
    for token in a:
        match = masks.get(token)
        if match is not None:
            u = row & match
            row = ((row + u) | (row - u)) & full
    return len(b) - bin(row).count("1")


def rouge_l_image(candidate: str, references: Sequence[str], beta: float = 1.2) -> float:
    """pycocoevalcap's ``Rouge().calc_score([candidate], references)``."""
    tokens_c = candidate.split(" ")
    best_p = 0.0
    best_r = 0.0
    for reference in references:
        tokens_r = reference.split(" ")
        lcs = lcs_length(tokens_r, tokens_c)
        precision = lcs / float(len(tokens_c))
        recall = lcs / float(len(tokens_r))
        best_p = precision if precision > best_p else best_p
        best_r = recall if recall > best_r else best_r
    if best_p != 0 and best_r != 0:
        return ((1 + beta**2) * best_p * best_r) / float(best_r + beta**2 * best_p)
    return 0.0


def coco_rouge_l(
    gts: Mapping[Any, Sequence[str]], res: Mapping[Any, Sequence[str]], *, beta: float = 1.2
) -> tuple[Any, Any]:
    """pycocoevalcap's ``Rouge().compute_score(gts, res)``: the mean and the per-image array.

    Example:
        >>> mean, per_image = coco_rouge_l({1: ["a b c d"]}, {1: ["a c d"]})
        >>> round(float(mean), 6)
        0.835616
    """
    ids = check_captions(gts, res, metric="Rouge")
    scores = rouge_l_images([res[i][0] for i in ids], [gts[i] for i in ids], beta)
    return np.mean(scores), scores


def rouge_l_images(
    candidates: Sequence[str], references: Sequence[Sequence[str]], beta: float = 1.2
) -> Any:
    """:func:`rouge_l_image` of every image, as a float64 array (one compiled call when the
    extension is built: the same floats)."""
    if _CAPTION_KERNELS is not None and candidates:
        block = _CAPTION_KERNELS.coco_rouge_l_scores(candidates, references, float(beta**2))
        if block is not None:
            return np.frombuffer(block, dtype=np.float64).copy()
    return np.array(
        [rouge_l_image(c, refs, beta) for c, refs in zip(candidates, references, strict=True)],
        dtype=np.float64,
    )


# -- CIDEr-D -------------------------------------------------------------------------------------


class CiderModel:
    """CIDEr-D with fixed document frequencies: pycocoevalcap's ``CiderScorer`` arithmetic.

    Args:
        references: Every image's reference captions (tokens separated by spaces); the
            document frequencies and ``log(number of images)`` come from them.
        n: Highest n-gram order.
        sigma: Standard deviation of the length penalty.
    """

    def __init__(
        self, references: Sequence[Sequence[str]], *, n: int = 4, sigma: float = 6.0
    ) -> None:
        if not references:
            raise ValueError("Cider: no image to score")
        self.n = n
        self.sigma = sigma
        frequency: dict[tuple[str, ...], float] = {}
        for refs in references:
            seen: set[tuple[str, ...]] = set()
            for ref in refs:
                for by_order in caption_counts(ref, n):
                    seen.update(by_order)
            for gram in seen:
                frequency[gram] = frequency.get(gram, 0.0) + 1.0
        self.images = len(references)
        self.ref_len = np.log(float(self.images))
        grams = list(frequency)
        logs = np.log(np.maximum(1.0, np.array([frequency[g] for g in grams], dtype=float)))
        self.idf: dict[tuple[str, ...], float] = {
            g: float(self.ref_len - v) for g, v in zip(grams, logs, strict=True)
        }
        self.unseen = float(self.ref_len - np.log(1.0))

    def _vector(
        self, counts: list[Counter[tuple[str, ...]]]
    ) -> tuple[list[dict[tuple[str, ...], float]], list[float], int]:
        idf = self.idf.get
        unseen = self.unseen
        vec = [{g: tf * idf(g, unseen) for g, tf in by_order.items()} for by_order in counts]
        norm = []
        for weights in vec:
            squares = 0.0
            for weight in weights.values():
                squares += weight * weight  # pow(x, 2) and x * x are both correctly rounded
            norm.append(math.sqrt(squares))
        # pycocoevalcap's "length" counts bigrams
        length = sum(counts[1].values()) if len(counts) > 1 else 0
        return vec, norm, length

    def score(self, candidate: str, references: Sequence[str]) -> float:
        """One image's CIDEr-D, as ``CiderScorer.compute_cider`` computes it.

        The original's NumPy steps are done on floats in the same order: an element-wise sum
        over references, then ``np.mean`` of n numbers (a left-to-right sum for fewer than 8),
        so the value is the same bit for bit.
        """
        n = self.n
        vec, norm, length = self._vector(caption_counts(candidate, n))
        position = [{gram: k for k, gram in enumerate(grams)} for grams in vec]
        denominator = 2 * self.sigma**2
        score = [0.0] * n
        for reference in references:
            vec_ref, norm_ref, length_ref = self._vector(caption_counts(reference, n))
            delta = float(length - length_ref)
            penalty = _E ** (-(delta**2) / denominator)
            for order in range(n):
                acc = 0.0
                ref_order = vec_ref[order]
                hyp_order = vec[order]
                # Only shared n-grams add anything (the others add 0.0, which changes no sum):
                # add them in the candidate's order, as the original's loop does.
                shared = hyp_order.keys() & ref_order.keys()
                for gram in sorted(shared, key=position[order].__getitem__):
                    weight = hyp_order[gram]
                    other = ref_order[gram]
                    acc += (weight if weight < other else other) * other
                if norm[order] != 0 and norm_ref[order] != 0:
                    acc /= norm[order] * norm_ref[order]
                score[order] += acc * penalty
        if n < 8:
            total = score[0]
            for value in score[1:]:
                total += value
            average = total / n
        else:
            average = float(np.mean(np.array(score)))
        average /= len(references)
        average *= 10.0
        return average


def cider_d(
    gts: Mapping[Any, Sequence[str]],
    res: Mapping[Any, Sequence[str]],
    *,
    n: int = 4,
    sigma: float = 6.0,
) -> tuple[Any, Any]:
    """pycocoevalcap's ``Cider().compute_score(gts, res)`` (CIDEr-D): the mean and the
    per-image array.

    Example:
        >>> mean, per_image = cider_d({1: ["a cat"], 2: ["a dog"]}, {1: ["a cat"], 2: ["a cow"]})
        >>> [round(float(x), 6) for x in per_image]
        [5.0, 0.0]
    """
    ids = check_captions(gts, res, metric="Cider")
    candidates = [res[i][0] for i in ids]
    references = [gts[i] for i in ids]
    array = _cider_d_compiled(candidates, references, n, sigma)
    if array is None:
        model = CiderModel(references, n=n, sigma=sigma)
        array = np.array(
            [model.score(c, refs) for c, refs in zip(candidates, references, strict=True)]
        )
    return np.mean(array), array


def _cider_d_compiled(
    candidates: Sequence[str], references: Sequence[Sequence[str]], n: int, sigma: float
) -> Any:
    """Every image's CIDEr-D from one ``cider_d_scores`` call, with the document frequencies of
    ``references``: :class:`CiderModel`'s floats (its weights' logarithms are NumPy's, taken
    here as there). ``None`` when the kernel is missing, ``n`` > 7 (the mean over orders is then
    NumPy's pairwise sum), or an item is not a string."""
    if _CAPTION_KERNELS is None or not candidates or n > 7:
        return None
    ref_len = np.log(float(len(references)))

    def idf_of(frequencies: bytes) -> Any:
        df = np.frombuffer(frequencies, dtype=np.float64)
        return np.ascontiguousarray(ref_len - np.log(np.maximum(1.0, df)), dtype=np.float64)

    block = _CAPTION_KERNELS.cider_d_scores(candidates, references, n, float(2 * sigma**2), idf_of)
    if block is None:
        return None
    return np.frombuffer(block, dtype=np.float64).copy()


# -- METEOR --------------------------------------------------------------------------------------

_METEOR: dict[str, Any] = {}


def meteor_scorer() -> Any:
    """The shared METEOR 1.5 scorer with pycocoevalcap's settings (``-l en -norm``)."""
    scorer = _METEOR.get("en-norm")
    if scorer is None:
        from meteor_eval.metrics.meteor import Meteor, MeteorConfig

        scorer = Meteor(MeteorConfig.preset("meteor15", language="en", normalization="norm"))
        _METEOR["en-norm"] = scorer
    return scorer


def meteor_fields(hypothesis: str, references: Sequence[str]) -> tuple[str, list[str]] | None:
    """The hypothesis and references the jar reads from pycocoevalcap's ``SCORE`` line.

    pycocoevalcap removes ``|||`` from the hypothesis and replaces each double space by one, joins
    ``SCORE ||| ref_1 ||| ... ||| hyp``; the jar splits on ``|||`` (Java's rule: trailing empty
    fields dropped) and trims each field. ``None`` when the line is not a valid ``SCORE`` line.
    """
    from meteor_eval.text.tokenize import java_trim

    if references and "|" not in hypothesis and not any("|" in r for r in references):
        # No bar anywhere: the fields are the texts themselves, trimmed (the usual caption).
        return java_trim(hypothesis.replace("  ", " ")), [java_trim(r) for r in references]
    return _meteor_fields_of_line(hypothesis, references)


def meteor_fields_many(
    hypotheses: Sequence[str], references: Sequence[Sequence[str]]
) -> list[tuple[str, list[str]] | None]:
    """:func:`meteor_fields` of every image (``hypotheses[k]`` with ``references[k]``), with
    one search for a bar over all the texts: when none holds one (the usual caption set), each
    image's fields are its texts trimmed, without a test per text."""
    from meteor_eval.text.tokenize import java_trim

    try:
        plain = (
            all(references)
            and "|" not in "".join(hypotheses)
            and "|" not in "".join(itertools.chain.from_iterable(references))
        )
    except TypeError:  # an item that is not a str: meteor_fields says what it does with it
        plain = False
    if not plain:
        return [meteor_fields(h, refs) for h, refs in zip(hypotheses, references, strict=True)]
    return [
        (java_trim(h.replace("  ", " ")), [java_trim(r) for r in refs])
        for h, refs in zip(hypotheses, references, strict=True)
    ]


def _meteor_fields_of_line(
    hypothesis: str, references: Sequence[str]
) -> tuple[str, list[str]] | None:
    """:func:`meteor_fields` by building the ``SCORE`` line and splitting it as the jar does."""
    from meteor_eval.text.tokenize import java_split_fields, java_trim

    hypothesis = hypothesis.replace("|||", "").replace("  ", " ")
    line = " ||| ".join(("SCORE", " ||| ".join(references), hypothesis))
    fields = java_split_fields(line)
    if len(fields) < 3:
        return None
    return java_trim(fields[-1]), [java_trim(f) for f in fields[1:-1]]


def coco_meteor(
    gts: Mapping[Any, Sequence[str]], res: Mapping[Any, Sequence[str]], *, scorer: Any = None
) -> tuple[float, list[float], list[Any]]:
    """pycocoevalcap's ``Meteor().compute_score(gts, res)`` and each image's statistics.

    Returns:
        The corpus score (of the pooled statistics), the per-image scores and the per-image
        :class:`~meteor_eval.stats.meteor.MeteorStats`.

    Args:
        gts: Image id -> reference captions.
        res: Image id -> a list holding one caption.
        scorer: A :class:`~meteor_eval.metrics.meteor.Meteor`; default METEOR 1.5 ``-l en -norm``.

    Raises:
        ValueError: the key sets differ, an image has not exactly one caption, a line is one
            the jar refuses, or there is no image.
    """
    if gts.keys() != res.keys():
        raise ValueError("Meteor: gts and res must have the same image ids")
    if not gts:
        raise ValueError("Meteor: no image to score")
    pairs: list[tuple[str, Sequence[str]]] = []
    for image_id in gts:
        captions = res[image_id]
        if len(captions) != 1:
            raise ValueError(
                f"Meteor: res[{image_id!r}] must hold exactly one caption, got {len(captions)}"
            )
        fields = meteor_fields(captions[0], gts[image_id])
        if fields is None:
            raise ValueError(f"Meteor: image {image_id!r} has no reference the jar can read")
        pairs.append(fields)
    return meteor_of_fields(pairs, scorer=scorer)


def meteor_of_fields(
    pairs: Sequence[tuple[str, Sequence[str]]], *, scorer: Any = None, want_stats: bool = True
) -> tuple[float, list[float], list[Any]]:
    """:func:`coco_meteor` of the fields the jar reads (:func:`meteor_fields` of each image,
    none ``None``, at least one image); without ``want_stats`` the statistics list may be
    empty (no record is built per image on the compiled path)."""
    from meteor_eval.metrics.meteor import pool_stats, score_from_stats

    if scorer is None:
        scorer = meteor_scorer()
    config = scorer.config
    best = meteor_best_rows(scorer, pairs)
    if best is not None:
        rows, row_scores = best
        n_stages = len(config.modules)
        stats = [_jar_row_stats(row, n_stages) for row in rows.tolist()] if want_stats else []
        pooled = _jar_row_stats(scorer.pipeline.pooled_block(rows).tolist(), len(config.modules))
        total = score_from_stats(pooled, config).score
        return total, row_scores.tolist(), stats
    stats = scorer.best_stats_many(pairs)
    scores = [score_from_stats(record, config).score for record in stats]
    total = score_from_stats(pool_stats(stats, config), config).score
    return total, scores, stats


def _jar_row_stats(row: Sequence[int], n_stages: int) -> Any:
    """A statistics row in the jar's order as a record of ``n_stages`` stages."""
    from meteor_eval.stats.meteor import MeteorStats

    stages = tuple(tuple(row[4 + 4 * s : 8 + 4 * s]) for s in range(n_stages))
    return MeteorStats(row[0], row[1], row[2], row[3], stages, row[20], row[21], row[22])  # type: ignore[arg-type]


def meteor_best_rows(scorer: Any, pairs: Sequence[tuple[str, Sequence[str]]]) -> Any:
    """The best reference's statistics row and score of every pair, from one compiled call
    for every (hypothesis, reference) pair of the batch, or ``None`` where that path does not
    apply (the caller then takes :meth:`best_stats_many`).

    Each distinct hypothesis and each distinct reference is preprocessed and interned once
    (``FastPipeline.line_ids``), every hypothesis is paired with each of its references by
    gathering their word-type ids, and the pairs are scored as one single-reference batch
    (``FastPipeline.rows_of_ids``: one ``meteor15_rows`` call, the rows of
    ``FastPipeline.rows_block``); each row's score is the scorer's formula on whole columns
    (:func:`~meteor_eval.metrics.meteor.formula.jar_row_scores`, bit for bit the scalar
    formula), and each pair keeps its first reference with the highest score, as
    :meth:`Pipeline.best_reference` does.

    Returns:
        ``(rows, scores)``: an ``(n, 23)`` int64 block in the jar's order and the ``n`` scores.
    """
    pipeline: Any = getattr(scorer, "pipeline", None)
    config = scorer.config
    if (
        getattr(pipeline, "rows_of_ids", None) is None
        or config.flavour != "meteor15"
        or len(pairs) < 1
        or not 1 <= len(config.weights) <= 4
    ):
        return None
    from meteor_eval.errors import WorkBudgetError
    from meteor_eval.metrics.meteor.formula import jar_row_scores
    from meteor_eval.metrics.meteor.pipeline import check_reference, check_segment

    if any(isinstance(references, str) or not references for _, references in pairs):
        return None  # the general path names the problem
    counts = [len(references) for _, references in pairs]
    if sum(counts) < 2:
        return None
    for hypothesis, references in pairs:
        check_segment(hypothesis, references)
        for reference in references:
            check_reference(0, reference)
    gathered = _interned_pairs(pipeline, pairs, counts)
    if gathered is None:
        return None
    try:
        block = pipeline.rows_of_ids(*gathered)
    except WorkBudgetError:
        return None  # the general path raises it, placed at its pair
    if block is None:
        return None
    scores = jar_row_scores(block, config)
    if len(block) == len(pairs):
        return block, scores
    starts = np.zeros(len(pairs), dtype=np.int64)
    np.cumsum(counts[:-1], out=starts[1:])
    highest = np.maximum.reduceat(scores, starts)
    segment = np.repeat(np.arange(len(pairs)), counts)
    index = np.arange(len(scores), dtype=np.int64)
    chosen = np.minimum.reduceat(np.where(scores == highest[segment], index, len(scores)), starts)
    return block[chosen], scores[chosen]


def _interned_pairs(
    pipeline: Any, pairs: Sequence[tuple[str, Sequence[str]]], counts: Sequence[int]
) -> tuple[Any, Any, Any, Any] | None:
    """The word-type ids of every (hypothesis, reference) pair, hypotheses in order, each with
    its references in order: ``(hyp_ids, hyp_offsets, ref_ids, ref_offsets)`` for
    ``FastPipeline.rows_of_ids``, each distinct text interned once. ``None`` when the compiled
    path is off, or when a pair's lengths let it reach the work budget (the general path then
    checks it exactly, as ``FastPipeline.rows_block`` would)."""
    types = pipeline.word_types
    if types is None:
        return None
    if types.full:  # bound memory, as rows_block does
        pipeline.new_word_types()
    hyp_line: dict[str, int] = {}
    hyp_of_pair = [hyp_line.setdefault(h, len(hyp_line)) for h, _ in pairs]
    ref_line: dict[str, int] = {}
    ref_of_pair = [ref_line.setdefault(r, len(ref_line)) for _, refs in pairs for r in refs]
    parts = pipeline.line_ids([*hyp_line, *ref_line])
    if parts is None:
        return None
    ids = np.frombuffer(b"".join(parts), dtype=np.int32)
    ends = np.zeros(len(parts) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, parts), dtype=np.int64, count=len(parts)) // 4, out=ends[1:])
    hyp_lines = np.repeat(np.asarray(hyp_of_pair, dtype=np.int64), counts)
    ref_lines = np.asarray(ref_of_pair, dtype=np.int64) + len(hyp_line)
    hyp_ids, hyp_offsets = _gather(ids, ends, hyp_lines)
    ref_ids, ref_offsets = _gather(ids, ends, ref_lines)
    # rows_block's rule: normalising at most doubles a character, so twice the reference's
    # characters bound its tokens; a pair whose bound passes the budget takes the general path.
    budget = WORK_BUDGET["meteor15"]
    ref_chars = np.asarray([len(r) for r in ref_line], dtype=np.int64)[ref_lines - len(hyp_line)]
    if np.any(np.diff(hyp_offsets) * 2 * ref_chars > budget):
        return None
    return hyp_ids, hyp_offsets, ref_ids, ref_offsets


def _gather(ids: Any, ends: Any, lines: Any) -> tuple[Any, Any]:
    """The ids of ``lines`` (line ``k``: ``ids[ends[k]:ends[k + 1]]``) one after another, and
    their offsets."""
    starts = ends[lines]
    lengths = ends[lines + 1] - starts
    offsets = np.zeros(len(lines) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    index = np.repeat(starts - offsets[:-1], lengths) + np.arange(offsets[-1], dtype=np.int64)
    return np.ascontiguousarray(ids[index]), offsets
