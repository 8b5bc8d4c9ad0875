"""LCS and weighted-LCS tables and backtraces."""

from meteor_eval.align.lcs import lcs_indices, lcs_length, lcs_table, wlcs_hit_mask


def test_lcs_table_and_length() -> None:
    ref, hyp = ("a", "b", "c", "d"), ("a", "c", "b", "d")
    assert lcs_table(ref, hyp)[-1][-1] == 3
    assert lcs_length(ref, hyp) == 3


def test_backtrace_prefers_moving_up_on_ties() -> None:
    # LCS length 1 ('a' or 'b'): on a tie the backtrace drops the reference token 'b' (moves up)
    # and then matches 'a', as rouge-score's _backtrack_norec does
    assert lcs_indices(("a", "b"), ("b", "a")) == [0]


def test_wlcs_mask_marks_consecutive_run() -> None:
    mask = [False] * 4
    wlcs_hit_mask(("a", "b", "x", "c"), ("a", "b", "c"), 1.2, mask)
    assert mask == [True, True, False, True]
