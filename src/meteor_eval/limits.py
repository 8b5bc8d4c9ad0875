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

#: Most tokens per hypothesis or reference, by what computes on them. METEOR 1.5: 2,000
#: tokens of one repeated word on both sides give 4 million candidates (1 GB, 9 s); natural
#: text of that length takes 50 MB. paper2005: 500 (its search builds Python objects per
#: candidate pair: 1,000 repeated words take 16 s and 500 MB; the search itself has a time
#: budget). nltk: 10,000 (time only: its greedy matcher compares every pair of positions, 15 s
#: at 20,000 tokens). ROUGE-L/Lsum/W and ROUGE-S/SU without a skip limit:
#: Measured worst cases: ``docs/limits.md``. ROUGE has no token limit (``WORK_BUDGET``).
MAX_TOKENS: dict[str, int] = {
    "meteor15": 2_000,
    "paper2005": 500,
    "nltk": 10_000,
}

#: Most work per segment, by what computes on it, in the units the algorithm actually does.
#: ``rouge``: ROUGE-W's weighted-LCS table cells (reference tokens times hypothesis tokens), and
#: ROUGE-S/SU's skip-bigram pairs without a skip limit (n(n-1)/2 per text). ROUGE-L and Lsum run
#: in linear memory and are not budgeted. 25 million cells: a 5,000-token ROUGE-W pair.
WORK_BUDGET: dict[str, int] = {
    "rouge": 25_000_000,
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


def check_work(kind: str, units: int, label: str | None = None) -> None:
    """Refuse a segment whose work, ``units``, is above ``WORK_BUDGET[kind]``.

    Args:
        kind: A key of :data:`WORK_BUDGET`.
        units: The work the segment needs, in the budget's units.
        label: The metric's name in the message (default: ``kind``).

    Raises:
        WorkBudgetError: the work is above the budget.
    """
    budget = WORK_BUDGET[kind]
    if units > budget:
        raise WorkBudgetError(label or kind, units, budget)
