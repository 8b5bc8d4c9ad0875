"""BLEU sufficient statistics: lengths plus matched and total n-gram counts per order.

A :class:`BleuStats` record is what one segment contributes to corpus BLEU; records add up, and
the score comes from the sum (sacrebleu's ``_compute_segment_statistics`` / ``compute_bleu``).
With several references, each hypothesis n-gram is clipped against its highest count in any one
reference, and the reference length is the one closest to the hypothesis length (the shorter one
on a tie), as in sacrebleu and mteval.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from meteor_eval.stats.ngrams import all_ngram_counts, max_counts

__all__ = [
    "BleuReference",
    "BleuStats",
    "bleu_segment_stats",
    "closest_ref_len",
    "prepare_reference",
]


@dataclass(frozen=True, slots=True)
class BleuStats:
    """BLEU statistics of one segment or a sum of segments.

    Row layout (``to_row``): ``sys_len, ref_len, counts[0..N-1], totals[0..N-1]``, the same order as
    sacrebleu's statistics rows.

    Attributes:
        sys_len: Hypothesis tokens.
        ref_len: Effective reference tokens (closest reference length per segment).
        counts: Clipped n-gram matches, order 1 to N.
        totals: Hypothesis n-grams, order 1 to N.
    """

    sys_len: int
    ref_len: int
    counts: tuple[int, ...]
    totals: tuple[int, ...]

    @classmethod
    def zero(cls, max_order: int = 4) -> BleuStats:
        """The neutral element of ``+`` for n-grams up to ``max_order``."""
        return cls(0, 0, (0,) * max_order, (0,) * max_order)

    def __add__(self, other: BleuStats) -> BleuStats:
        if not isinstance(other, BleuStats):
            return NotImplemented
        if len(self.counts) != len(other.counts):
            raise ValueError(
                f"cannot add BLEU stats of orders {len(self.counts)} and {len(other.counts)}"
            )
        return BleuStats(
            self.sys_len + other.sys_len,
            self.ref_len + other.ref_len,
            tuple(a + b for a, b in zip(self.counts, other.counts, strict=True)),
            tuple(a + b for a, b in zip(self.totals, other.totals, strict=True)),
        )

    def to_row(self) -> tuple[int, ...]:
        """The record as a flat tuple of numbers (see the class docstring for the order)."""
        return (self.sys_len, self.ref_len, *self.counts, *self.totals)

    @classmethod
    def from_row(cls, row: Sequence[float]) -> BleuStats:
        """Inverse of :meth:`to_row`; the n-gram order is inferred from the row length."""
        if len(row) < 4 or len(row) % 2:
            raise ValueError(f"a BLEU stats row has 2 + 2*N numbers, got {len(row)}")
        order = (len(row) - 2) // 2
        values = [int(x) for x in row]
        return cls(values[0], values[1], tuple(values[2 : 2 + order]), tuple(values[2 + order :]))


@dataclass(frozen=True, slots=True)
class BleuReference:
    """The references of one segment, preprocessed: clipping limits and lengths."""

    ngrams: Counter[tuple[str, ...]]
    lengths: tuple[int, ...]


def prepare_reference(references: Sequence[Sequence[str]], max_order: int) -> BleuReference:
    """Merge the tokenized references of one segment into clipping limits and lengths."""
    tables = [all_ngram_counts(tokens, max_order) for tokens in references]
    return BleuReference(max_counts(tables), tuple(len(tokens) for tokens in references))


def closest_ref_len(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """The reference length closest to ``hyp_len``; the shorter one on a tie; 0 if none."""
    best_diff, best_len = -1, 0
    for ref_len in ref_lens:
        diff = abs(hyp_len - ref_len)
        if best_diff == -1 or diff < best_diff or (diff == best_diff and ref_len < best_len):
            best_diff, best_len = diff, ref_len
    return best_len


def bleu_segment_stats(
    hypothesis: Sequence[str], reference: BleuReference, max_order: int
) -> BleuStats:
    """Statistics of one tokenized hypothesis against its prepared references.

    Example:
        >>> ref = prepare_reference([("I", "work", "on", "machine", "learning")], 4)
        >>> bleu_segment_stats(("He", "works", "on", "machine", "learning"), ref, 4).counts
        (3, 2, 1, 0)
    """
    counts = [0] * max_order
    totals = [0] * max_order
    limits = reference.ngrams
    for gram, count in all_ngram_counts(hypothesis, max_order).items():
        n = len(gram) - 1
        totals[n] += count
        limit = limits.get(gram, 0)
        if limit:
            counts[n] += count if count < limit else limit
    hyp_len = len(hypothesis)
    return BleuStats(
        hyp_len, closest_ref_len(hyp_len, reference.lengths), tuple(counts), tuple(totals)
    )
