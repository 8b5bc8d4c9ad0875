"""Documented bounds on what one segment may cost (see ``docs/limits.md``).

Some metric steps take time and memory that grow with the square of a segment's length:
METEOR 1.5's candidate matches are every pair of equal (or same-stem, or synonymous) words,
paper2005's exact search keeps a table over them, NLTK's greedy matcher compares every pair of
positions, and ROUGE-L/Lsum/W fill a longest-common-subsequence table (ROUGE-S/SU with unlimited
skips count every pair of positions). A single pathological line (a whole document, or the same
word thousands of times) could otherwise take gigabytes or hours. These steps refuse a segment
with more tokens than the limits below, with :class:`~meteor_eval.errors.SegmentTooLongError`
naming the side, the length and (from the command line) the line. Metrics whose cost is linear
(BLEU, ROUGE-N, ROUGE-S/SU with a skip distance) have no limit.

The limits are module attributes that a caller may raise before scoring (``jobs`` worker
processes receive the change, whatever their start method); ``benchmarks/bench_worst_case.py``
measures the worst inputs at each limit.
"""

from __future__ import annotations

from meteor_eval.errors import SegmentTooLongError, WorkBudgetError

__all__ = ["MAX_TOKENS", "WORK_BUDGET", "check_tokens", "check_work"]

#: Most tokens per hypothesis or reference, by what computes on them. METEOR 1.5 has no token
#: limit: its work is bounded by :data:`WORK_BUDGET` instead. paper2005: 500 (its search builds
#: Python objects per candidate pair: 1,000 repeated words take 16 s and 500 MB; the search
#: itself has a time budget). nltk: 10,000 (time only: its greedy matcher compares every pair
#: of positions, 15 s at 20,000 tokens). ROUGE-L/Lsum/W and ROUGE-S/SU without a skip limit:
#: 2,000 (pure Python tables: ROUGE-W on 4,000 repeated words takes 19 s and 1.3 GB).
#: Measured worst cases: ``docs/limits.md``.
MAX_TOKENS: dict[str, int] = {
    "paper2005": 500,
    "nltk": 10_000,
    "rouge": 2_000,
}

_LABELS = {
    "meteor15": "METEOR (meteor15)",
    "paper2005": "METEOR (paper2005)",
    "nltk": "METEOR (nltk)",
}


def check_tokens(kind: str, side: str, n_tokens: int, label: str | None = None) -> None:
    """Refuse a segment of ``n_tokens`` above ``MAX_TOKENS[kind]``.

    Args:
        kind: A key of :data:`MAX_TOKENS`.
        side: ``"hypothesis"`` or ``"reference"``.
        n_tokens: The segment's length in tokens.
        label: The metric's name in the message (default: from ``kind``).

    Raises:
        SegmentTooLongError: the segment is longer than the limit.
    """
    limit = MAX_TOKENS[kind]
    if n_tokens > limit:
        raise SegmentTooLongError(label or _LABELS.get(kind, kind), side, n_tokens, limit)


#: Most work one pair may cost, by what computes on it. METEOR 1.5: candidate matches (every
#: pair of positions that some stage matches, each an 8-byte entry of the aligner's store, and
#: each tried by every path of the beam at its reference position). Natural documents stay far
#: below: 9,000 tokens a side have 1.6 million, 40,000 tokens 30 million (240 MB, about 30 s
#: of CPU); the same word repeated 20,000 times on both sides would have 400 million.
#: Measured: ``docs/limits.md``.
WORK_BUDGET: dict[str, int] = {
    "meteor15": 400_000_000,
}


def check_work(kind: str, units: int, label: str | None = None) -> None:
    """Refuse a pair whose work ``units`` exceed ``WORK_BUDGET[kind]``.

    Args:
        kind: A key of :data:`WORK_BUDGET`.
        units: The work counted (for ``"meteor15"``: candidate matches).
        label: The metric's name in the message (default: from ``kind``).

    Raises:
        WorkBudgetError: the work is over the budget.
    """
    budget = WORK_BUDGET[kind]
    if units > budget:
        raise WorkBudgetError(label or _LABELS.get(kind, kind), units, budget)
