"""ROUGE statistics: per-pair formulas and the :class:`RougeStats` record that sums over segments.

Each formula compares one tokenized hypothesis with one tokenized reference and returns
``(hits, hypothesis count, reference count)``; precision is hits over the hypothesis count and
recall hits over the reference count (for ROUGE-W both after the inverse weighting function).

* ROUGE-N: clipped n-gram matches (rouge-score ``_score_ngrams``).
* ROUGE-L: LCS of the whole texts (rouge-score ``_score_lcs``).
* ROUGE-Lsum: summary-level union LCS with unigram clipping (rouge-score ``_summary_level_lcs``,
  ROUGE-1.5.5's ROUGE-L on several sentences).
* ROUGE-W: weighted LCS per reference sentence, hits summed over runs of consecutive reference
  positions, clipped by unigram counts; reference count ``f(sum(f(len(sentence))))`` (the
  weighting applied twice, as ROUGE-1.5.5 does), hypothesis count ``f(len(hypothesis))`` with
  ``f(k) = k ** weight`` (ROUGE-1.5.5 ``computeWLCSScore``).
* ROUGE-S / ROUGE-SU: clipped skip-bigram (and unigram) matches (ROUGE-1.5.5 ``-2``, ``-u``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from meteor_eval.align.lcs import lcs_indices, lcs_length, wlcs_hit_mask
from meteor_eval.stats.ngrams import clipped_matches, ngram_counts, skip_bigram_counts

__all__ = [
    "RougeStats",
    "lcs_pair",
    "ngram_pair",
    "skip_bigram_pair",
    "summary_lcs_pair",
    "wlcs_pair",
]

Triple = tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class RougeStats:
    """ROUGE statistics of one variant for one segment or a sum of segments.

    Row layout (``to_row``): ``hits, hyp_count, ref_count, precision, recall, fmeasure,
    segments``. The counts serve pooled aggregation (ROUGE-1.5.5 ``-t 1``), the score sums and the
    segment count serve the mean of segment scores (its default).
    """

    hits: float
    hyp_count: float
    ref_count: float
    precision: float
    recall: float
    fmeasure: float
    segments: int

    @classmethod
    def zero(cls) -> RougeStats:
        """The neutral element of ``+``."""
        return cls(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0)

    def __add__(self, other: RougeStats) -> RougeStats:
        if not isinstance(other, RougeStats):
            return NotImplemented
        return RougeStats(
            self.hits + other.hits,
            self.hyp_count + other.hyp_count,
            self.ref_count + other.ref_count,
            self.precision + other.precision,
            self.recall + other.recall,
            self.fmeasure + other.fmeasure,
            self.segments + other.segments,
        )

    def to_row(self) -> tuple[float, ...]:
        """The record as a flat tuple of numbers."""
        return (
            self.hits,
            self.hyp_count,
            self.ref_count,
            self.precision,
            self.recall,
            self.fmeasure,
            self.segments,
        )

    @classmethod
    def from_row(cls, row: Sequence[float]) -> RougeStats:
        """Inverse of :meth:`to_row`."""
        if len(row) != 7:
            raise ValueError(f"a ROUGE stats row has 7 numbers, got {len(row)}")
        hits, hyp_count, ref_count, precision, recall, fmeasure = (float(x) for x in row[:6])
        return cls(hits, hyp_count, ref_count, precision, recall, fmeasure, int(row[6]))


def ngram_pair(hypothesis: Sequence[str], reference: Sequence[str], n: int) -> Triple:
    """ROUGE-N counts: clipped matches, hypothesis n-grams, reference n-grams."""
    hyp = ngram_counts(hypothesis, n)
    ref = ngram_counts(reference, n)
    return (
        float(clipped_matches(hyp, ref)),
        float(max(len(hypothesis) - n + 1, 0)),
        float(max(len(reference) - n + 1, 0)),
    )


def lcs_pair(hypothesis: Sequence[str], reference: Sequence[str]) -> Triple:
    """ROUGE-L counts: LCS length and the two lengths."""
    if not hypothesis or not reference:
        return 0.0, float(len(hypothesis)), float(len(reference))
    return float(lcs_length(reference, hypothesis)), float(len(hypothesis)), float(len(reference))


def summary_lcs_pair(
    hypothesis: Sequence[Sequence[str]], reference: Sequence[Sequence[str]]
) -> Triple:
    """ROUGE-Lsum counts: union-LCS hits over sentences, clipped by unigram counts.

    For each reference sentence, the union of the positions of one LCS with every hypothesis
    sentence is taken; each token of that union scores once while both texts still have an unused
    occurrence of it (rouge-score's reading of Lin 2004, section 3.2).
    """
    hyp_len = sum(len(s) for s in hypothesis)
    ref_len = sum(len(s) for s in reference)
    if not hyp_len or not ref_len:
        return 0.0, float(hyp_len), float(ref_len)
    hyp_left: Counter[str] = Counter()
    ref_left: Counter[str] = Counter()
    for sentence in hypothesis:
        hyp_left.update(sentence)
    for sentence in reference:
        ref_left.update(sentence)
    hits = 0
    for ref_sentence in reference:
        union: set[int] = set()
        for hyp_sentence in hypothesis:
            union.update(lcs_indices(ref_sentence, hyp_sentence))
        for index in sorted(union):
            token = ref_sentence[index]
            if hyp_left[token] > 0 and ref_left[token] > 0:
                hits += 1
                hyp_left[token] -= 1
                ref_left[token] -= 1
    return float(hits), float(hyp_len), float(ref_len)


def wlcs_pair(
    hypothesis: Sequence[Sequence[str]], reference: Sequence[Sequence[str]], weight: float
) -> Triple:
    """ROUGE-W counts: weighted hits, ``f(len(hypothesis))``, ``f(sum f(len(ref sentence)))``.

    Hits follow ROUGE-1.5.5 exactly: the positions of each reference sentence hit by a weighted LCS
    with any hypothesis sentence are marked; runs of marked positions score ``f(run length)``; a
    marked token only counts while both texts have unused occurrences of it, and a marked but
    uncounted token neither ends nor extends the current run.
    """
    hyp_tokens = [token for sentence in hypothesis for token in sentence]
    hyp_left = Counter(hyp_tokens)
    ref_left: Counter[str] = Counter()
    for sentence in reference:
        ref_left.update(sentence)
    hits = 0.0
    base = 0.0
    for ref_sentence in reference:
        size = len(ref_sentence)
        mask = [False] * size
        base += size**weight
        for hyp_sentence in hypothesis:
            wlcs_hit_mask(ref_sentence, hyp_sentence, weight, mask)
        run = 0
        for j in range(size):
            if not mask[j]:
                continue
            token = ref_sentence[j]
            if ref_left[token] > 0 and hyp_left[token] > 0:
                run += 1
                if (j + 1 < size and not mask[j + 1]) or j + 1 == size:
                    hits += run**weight
                    run = 0
                ref_left[token] -= 1
                hyp_left[token] -= 1
    # ROUGE-1.5.5 applies the weighting function a second time to the reference total
    # (``wlcsWeight($lcsBase)`` where ``$lcsBase`` is already weighted); we keep that.
    return hits, float(len(hyp_tokens)) ** weight, base**weight


def skip_bigram_pair(
    hypothesis: Sequence[str], reference: Sequence[str], skip_distance: int, *, unigrams: bool
) -> Triple:
    """ROUGE-S (``unigrams=False``) or ROUGE-SU counts."""
    hyp = skip_bigram_counts(hypothesis, skip_distance, unigrams=unigrams)
    ref = skip_bigram_counts(reference, skip_distance, unigrams=unigrams)
    return (
        float(clipped_matches(hyp, ref)),
        float(sum(hyp.values())),
        float(sum(ref.values())),
    )
