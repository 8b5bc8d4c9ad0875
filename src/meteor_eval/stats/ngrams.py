"""n-gram and skip-bigram counts, and clipped matches between two count tables.

These are the counting primitives of BLEU (modified n-gram precision, Papineni et al., 2002) and
ROUGE-N / ROUGE-S / ROUGE-SU (Lin, 2004). Counts are :class:`collections.Counter` objects keyed by
token tuples, so n-grams of different orders never collide.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

__all__ = [
    "all_ngram_counts",
    "clipped_matches",
    "max_counts",
    "ngram_counts",
    "skip_bigram_counts",
]


def ngram_counts(tokens: Sequence[str], n: int) -> Counter[tuple[str, ...]]:
    """Count the n-grams of order ``n`` in ``tokens``.

    Example:
        >>> ngram_counts(("a", "b", "a", "b"), 2)[("a", "b")]
        2
    """
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def all_ngram_counts(tokens: Sequence[str], max_order: int) -> Counter[tuple[str, ...]]:
    """Count every n-gram of order 1 to ``max_order`` in one table (BLEU's layout)."""
    counts: Counter[tuple[str, ...]] = Counter()
    length = len(tokens)
    for n in range(1, max_order + 1):
        counts.update(tuple(tokens[i : i + n]) for i in range(length - n + 1))
    return counts


def max_counts(tables: Iterable[Mapping[tuple[str, ...], int]]) -> Counter[tuple[str, ...]]:
    """Per n-gram, the highest count in any table (BLEU's clipping limit with references)."""
    merged: Counter[tuple[str, ...]] = Counter()
    for table in tables:
        for gram, count in table.items():
            if count > merged[gram]:
                merged[gram] = count
    return merged


def clipped_matches(
    hypothesis: Mapping[tuple[str, ...], int], reference: Mapping[tuple[str, ...], int]
) -> int:
    """Sum over the hypothesis n-grams of ``min(hypothesis count, reference count)``.

    Example:
        >>> clipped_matches({("on",): 2}, {("on",): 1})
        1
    """
    total = 0
    for gram, count in hypothesis.items():
        limit = reference.get(gram, 0)
        if limit:
            total += count if count < limit else limit
    return total


def skip_bigram_counts(
    tokens: Sequence[str], skip_distance: int, *, unigrams: bool = False
) -> Counter[tuple[str, ...]]:
    """Count skip-bigrams as ROUGE-1.5.5 does (``-2 skip_distance``, ``-u`` for ``unigrams``).

    A skip-bigram is an ordered pair of tokens with at most ``skip_distance`` tokens between them;
    a negative distance means unlimited. With ``unigrams`` (ROUGE-SU), each token except the last
    is also counted as a unigram: ROUGE-1.5.5 adds the unigram inside its loop over pair starts, so
    the final token never contributes one, and we keep that.

    Example:
        >>> sorted(skip_bigram_counts(("a", "b", "c"), 0))
        [('a', 'b'), ('b', 'c')]
    """
    counts: Counter[tuple[str, ...]] = Counter()
    length = len(tokens)
    for i in range(length - 1):
        first = tokens[i]
        if unigrams:
            counts[(first,)] += 1
        stop = length if skip_distance < 0 else min(length, i + skip_distance + 2)
        for j in range(i + 1, stop):
            counts[(first, tokens[j])] += 1
    return counts
