"""Longest common subsequence (LCS) and weighted LCS tables and backtraces, for ROUGE-L and ROUGE-W.

The backtraces follow the reference implementations exactly, because which of several longest
subsequences is read out changes summary-level ROUGE-L (the union LCS) and ROUGE-W (which
positions form consecutive runs): on equal tokens both take the diagonal, otherwise they move up
(drop a reference token) unless moving left keeps a strictly larger value. This is rouge-score's
``_backtrack_norec`` and ROUGE-1.5.5's ``markLCS``.

References:
    Chin-Yew Lin. 2004. ROUGE: A Package for Automatic Evaluation of Summaries. Sections 3 and 4.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

__all__ = ["lcs_indices", "lcs_length", "lcs_table", "wlcs_hit_mask"]


def _lcs_rows(reference: Sequence[str], hypothesis: Sequence[str]) -> Iterator[list[int]]:
    """The rows of the LCS table after the first (all zeros), one per reference token."""
    cols = len(hypothesis)
    above = [0] * (cols + 1)
    for ref_token in reference:
        row = [0] * (cols + 1)
        for j in range(1, cols + 1):
            if ref_token == hypothesis[j - 1]:
                row[j] = above[j - 1] + 1
            else:
                left = row[j - 1]
                up = above[j]
                row[j] = up if up >= left else left
        yield row
        above = row


def lcs_table(reference: Sequence[str], hypothesis: Sequence[str]) -> list[list[int]]:
    """The ``(len(reference)+1) x (len(hypothesis)+1)`` table of LCS lengths of prefixes.

    Example:
        >>> lcs_table(("a", "b"), ("b",))[-1][-1]
        1
    """
    return [[0] * (len(hypothesis) + 1), *_lcs_rows(reference, hypothesis)]


def lcs_length(reference: Sequence[str], hypothesis: Sequence[str]) -> int:
    """Length of a longest common subsequence, in O(len(hypothesis)) memory."""
    last = [0] * (len(hypothesis) + 1)
    for last in _lcs_rows(reference, hypothesis):  # noqa: B007 - only the last row is kept
        pass
    return last[-1]


def lcs_indices(reference: Sequence[str], hypothesis: Sequence[str]) -> list[int]:
    """Reference positions of one LCS, in increasing order, chosen as rouge-score chooses it.

    Example:
        >>> lcs_indices(("a", "b", "c"), ("a", "c"))
        [0, 2]
    """
    table = lcs_table(reference, hypothesis)
    i, j = len(reference), len(hypothesis)
    picked: list[int] = []
    while i > 0 and j > 0:
        if reference[i - 1] == hypothesis[j - 1]:
            picked.append(i - 1)
            i -= 1
            j -= 1
        elif table[i][j - 1] > table[i - 1][j]:
            j -= 1
        else:
            i -= 1
    picked.reverse()
    return picked


def wlcs_hit_mask(
    reference: Sequence[str], hypothesis: Sequence[str], weight: float, mask: list[bool]
) -> None:
    """Mark in ``mask`` the reference positions of one weighted LCS (ROUGE-1.5.5's ``wlcs_inner``).

    The weighted LCS rewards consecutive matches: extending a run of length ``k`` adds
    ``f(k+1) - f(k)`` with ``f(k) = k ** weight``. ``mask`` has one flag per reference token; flags
    already set by other hypothesis sentences stay set (ROUGE-1.5.5 unions the sentences' hits).
    """
    rows, cols = len(reference), len(hypothesis)
    if rows == 0:
        return
    score = [[0.0] * (cols + 1) for _ in range(rows + 1)]
    run = [[0] * (cols + 1) for _ in range(rows + 1)]
    # move: 0 diagonal, 1 up, 2 left
    move = [[0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(1, rows + 1):
        ref_token = reference[i - 1]
        score_above, score_row = score[i - 1], score[i]
        run_above, run_row, move_row = run[i - 1], run[i], move[i]
        for j in range(1, cols + 1):
            if ref_token == hypothesis[j - 1]:
                k = run_above[j - 1]
                score_row[j] = score_above[j - 1] + (k + 1) ** weight - k**weight
                run_row[j] = k + 1
            elif score_above[j] >= score_row[j - 1]:
                score_row[j] = score_above[j]
                move_row[j] = 1
            else:
                score_row[j] = score_row[j - 1]
                move_row[j] = 2
    i, j = rows, cols
    while i != 0 and j != 0:
        step = move[i][j]
        if step == 0:
            i -= 1
            j -= 1
            mask[i] = True
        elif step == 1:
            i -= 1
        else:
            j -= 1
