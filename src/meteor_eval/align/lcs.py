"""Longest common subsequence (LCS) and weighted LCS tables and backtraces, for ROUGE-L and ROUGE-W.

The backtraces follow the reference implementations exactly, because which of several longest
subsequences is read out changes summary-level ROUGE-L (the union LCS) and ROUGE-W (which
positions form consecutive runs): on equal tokens both take the diagonal, otherwise they move up
(drop a reference token) unless moving left keeps a strictly larger value. This is rouge-score's
``_backtrack_norec`` and ROUGE-1.5.5's ``markLCS``.

Memory: :func:`lcs_length` keeps one row of bits (Hyyrö's bit-parallel LCS, on Python
integers: a row is an integer with one bit per hypothesis token), so ROUGE-L of two texts of any
length takes memory linear in their lengths. :func:`lcs_indices` must reproduce one particular
backtrace, which depends on the whole table: it keeps every k-th bit row (k about the square root
of the reference length) on the way forward and recomputes one block of k rows at a time on the
way back, in ``O(len(hypothesis) * sqrt(len(reference)))`` bits. :func:`lcs_table` and
:func:`lcs_indices_table` are the plain quadratic tables, kept as the readable definition and the
oracle of the property tests. The compiled twins are ``lcs_length_core`` and ``lcs_picks_core``
in ``_ext/lcs.c``.

References:
    Chin-Yew Lin. 2004. ROUGE: A Package for Automatic Evaluation of Summaries. Sections 3 and 4.
    Heikki Hyyrö. 2004. Bit-parallel LCS-length computation revisited. AWOCA.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from meteor_eval._ext import compiled_function

__all__ = [
    "lcs_indices",
    "lcs_indices_table",
    "lcs_length",
    "lcs_table",
    "wlcs_hit_mask",
    "wlcs_hit_mask_table",
]

#: The compiled weighted LCS (``_ext/lcs.c``), or ``None`` (the Python rows below run then).
_WLCS_MASK = compiled_function("wlcs_mask_ids")


def lcs_table(reference: Sequence[str], hypothesis: Sequence[str]) -> list[list[int]]:
    """The ``(len(reference)+1) x (len(hypothesis)+1)`` table of LCS lengths of prefixes.

    Example:
        >>> lcs_table(("a", "b"), ("b",))[-1][-1]
        1
    """
    cols = len(hypothesis)
    table = [[0] * (cols + 1)]
    for ref_token in reference:
        above = table[-1]
        row = [0] * (cols + 1)
        for j in range(1, cols + 1):
            if ref_token == hypothesis[j - 1]:
                row[j] = above[j - 1] + 1
            else:
                left = row[j - 1]
                up = above[j]
                row[j] = up if up >= left else left
        table.append(row)
    return table


def _match_masks(hypothesis: Sequence[str]) -> dict[str, int]:
    """For each token, the integer whose bit ``j`` is set where ``hypothesis[j]`` is it."""
    masks: dict[str, int] = {}
    for j, token in enumerate(hypothesis):
        masks[token] = masks.get(token, 0) | (1 << j)
    return masks


def _next_row(row: int, mask: int, full: int) -> int:
    """Hyyrö's step: bit ``j`` of a row is 0 where the LCS value grows at column ``j + 1``."""
    if not mask:
        return row
    u = row & mask
    return ((row + u) | (row - u)) & full


def _row_value(row: int, j: int) -> int:
    """``D[i][j]`` of the LCS table from bit row ``i``: ``j`` minus its one bits below ``j``."""
    return j - (row & ((1 << j) - 1)).bit_count()


def lcs_length(reference: Sequence[str], hypothesis: Sequence[str]) -> int:
    """Length of a longest common subsequence, in memory linear in the lengths.

    Example:
        >>> lcs_length(("a", "b", "c", "b"), ("b", "c", "a", "b"))
        3
    """
    cols = len(hypothesis)
    if not reference or not cols:
        return 0
    masks = _match_masks(hypothesis)
    full = (1 << cols) - 1
    row = full
    for token in reference:
        row = _next_row(row, masks.get(token, 0), full)
    return _row_value(row, cols)


def lcs_indices(reference: Sequence[str], hypothesis: Sequence[str]) -> list[int]:
    """Reference positions of one LCS, in increasing order, chosen as rouge-score chooses it
    (equal to :func:`lcs_indices_table`), in ``O(len(hypothesis) * sqrt(len(reference)))`` bits.

    Example:
        >>> lcs_indices(("a", "b", "c"), ("a", "c"))
        [0, 2]
    """
    rows, cols = len(reference), len(hypothesis)
    if not rows or not cols:
        return []
    masks = _match_masks(hypothesis)
    full = (1 << cols) - 1
    step = max(1, math.isqrt(rows - 1) + 1)
    checkpoints = [full]
    row = full
    for i, token in enumerate(reference, 1):
        row = _next_row(row, masks.get(token, 0), full)
        if i % step == 0:
            checkpoints.append(row)
    picked: list[int] = []
    i, j = rows, cols
    while i > 0 and j > 0:
        start = ((i - 1) // step) * step
        block = [checkpoints[start // step]]
        for r in range(start, i):
            block.append(_next_row(block[-1], masks.get(reference[r], 0), full))
        while i > start and j > 0:
            if reference[i - 1] == hypothesis[j - 1]:
                picked.append(i - 1)
                i -= 1
                j -= 1
            elif _row_value(block[i - start], j - 1) > _row_value(block[i - 1 - start], j):
                j -= 1
            else:
                i -= 1
    picked.reverse()
    return picked


def lcs_indices_table(reference: Sequence[str], hypothesis: Sequence[str]) -> list[int]:
    """:func:`lcs_indices` read from the full table (rouge-score's ``_backtrack_norec``).

    Example:
        >>> lcs_indices_table(("a", "b", "c"), ("a", "c"))
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


def _wlcs_row(
    above: tuple[list[float], list[int]],
    token: str,
    hypothesis: Sequence[str],
    f: list[float],
    moves: list[int] | None,
) -> tuple[list[float], list[int]]:
    """Row ``i`` of the weighted-LCS scores and runs from row ``i - 1`` (and its moves)."""
    score_above, run_above = above
    cols = len(hypothesis)
    score = [0.0] * (cols + 1)
    run = [0] * (cols + 1)
    for j in range(1, cols + 1):
        if token == hypothesis[j - 1]:
            k = run_above[j - 1]
            score[j] = score_above[j - 1] + f[k + 1] - f[k]
            run[j] = k + 1
            if moves is not None:
                moves[j] = 0
        elif score_above[j] >= score[j - 1]:
            score[j] = score_above[j]
            if moves is not None:
                moves[j] = 1
        else:
            score[j] = score[j - 1]
            if moves is not None:
                moves[j] = 2
    return score, run


def wlcs_hit_mask(
    reference: Sequence[str], hypothesis: Sequence[str], weight: float, mask: list[bool]
) -> None:
    """Mark in ``mask`` the reference positions of one weighted LCS (ROUGE-1.5.5's ``wlcs_inner``),
    in ``O(len(hypothesis) * sqrt(len(reference)))`` memory; equal to :func:`wlcs_hit_mask_table`.

    The weighted LCS rewards consecutive matches: extending a run of length ``k`` adds
    ``f(k+1) - f(k)`` with ``f(k) = k ** weight``. ``mask`` has one flag per reference token; flags
    already set by other hypothesis sentences stay set (ROUGE-1.5.5 unions the sentences' hits).
    Score and run rows are kept every k-th row (k about the square root of the reference
    length); the moves of one block of rows at a time are recomputed on the way back. The
    compiled twin is ``wlcs_mask_ids`` (``_ext/lcs.c``).

    Example:
        >>> mask = [False] * 3
        >>> wlcs_hit_mask(("a", "b", "c"), ("a", "c"), 1.2, mask)
        >>> mask
        [True, False, True]
    """
    rows, cols = len(reference), len(hypothesis)
    if rows == 0 or cols == 0:
        return
    if _WLCS_MASK is not None:
        ids: dict[str, int] = {}
        ref_ids = [ids.setdefault(t, len(ids)) for t in reference]
        hyp_ids = [ids.setdefault(t, len(ids)) for t in hypothesis]
        marks = bytearray(rows)
        _WLCS_MASK(ref_ids, hyp_ids, float(weight), marks)
        for i, marked in enumerate(marks):
            if marked:
                mask[i] = True
        return
    f = [k**weight for k in range(min(rows, cols) + 2)]
    step = max(1, math.isqrt(rows - 1) + 1)
    row: tuple[list[float], list[int]] = ([0.0] * (cols + 1), [0] * (cols + 1))
    checkpoints = [row]
    for i in range(1, rows + 1):
        row = _wlcs_row(row, reference[i - 1], hypothesis, f, None)
        if i % step == 0:
            checkpoints.append(row)
    i, j = rows, cols
    while i > 0 and j > 0:
        start = ((i - 1) // step) * step
        row = checkpoints[start // step]
        block: list[list[int]] = []
        for r in range(start + 1, i + 1):
            moves = [0] * (cols + 1)
            row = _wlcs_row(row, reference[r - 1], hypothesis, f, moves)
            block.append(moves)
        i, j = _backtrace(block, start + 1, start, i, j, mask)


def _backtrace(
    moves: list[list[int]], first: int, stop: int, i: int, j: int, mask: list[bool]
) -> tuple[int, int]:
    """Follow the moves (0 diagonal, 1 up, 2 left) back from cell ``(i, j)`` while ``i > stop``
    and ``j > 0``, marking in ``mask`` the reference position of each diagonal step.

    ``moves[r - first]`` holds row ``r``'s moves (``first`` 0 for a full table, the block's first
    row for a block of rows). Returns the cell where it stopped.
    """
    while i > stop and j > 0:
        move = moves[i - first][j]
        if move == 0:
            i -= 1
            j -= 1
            mask[i] = True
        elif move == 1:
            i -= 1
        else:
            j -= 1
    return i, j


def wlcs_hit_mask_table(
    reference: Sequence[str], hypothesis: Sequence[str], weight: float, mask: list[bool]
) -> None:
    """:func:`wlcs_hit_mask` from full tables (the readable definition and the tests' oracle).

    Marks in ``mask`` the reference positions of one weighted LCS (ROUGE-1.5.5's ``wlcs_inner``).

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
    _backtrace(move, 0, 0, rows, cols, mask)
