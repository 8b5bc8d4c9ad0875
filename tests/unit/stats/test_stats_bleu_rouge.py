"""BLEU and ROUGE statistics records and per-pair counts, by hand and by property."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meteor_eval.stats import rouge
from meteor_eval.stats.bleu import (
    BleuStats,
    bleu_segment_stats,
    closest_ref_len,
    prepare_reference,
)
from meteor_eval.stats.corpus import sum_rows

bleu_stats = st.builds(
    lambda s, r, c, t: BleuStats(s, r, tuple(c), tuple(t)),
    st.integers(0, 99),
    st.integers(0, 99),
    st.lists(st.integers(0, 99), min_size=4, max_size=4),
    st.lists(st.integers(0, 99), min_size=4, max_size=4),
)
words = st.lists(st.sampled_from("a b c d".split()), max_size=8)


def _assert_commutative_monoid(a: Any, b: Any, c: Any, zero: Any) -> None:
    """``+`` on statistics records is associative and commutative, with ``zero`` its identity."""
    assert (a + b) + c == a + (b + c) == (c + a) + b
    assert a + zero == a


class TestBleuStats:
    def test_row_layout_is_sacrebleus(self) -> None:
        stats = BleuStats(5, 6, (3, 2, 1, 0), (5, 4, 3, 2))
        assert stats.to_row() == (5, 6, 3, 2, 1, 0, 5, 4, 3, 2)
        assert BleuStats.from_row([5.0, 6.0, 3, 2, 1, 0, 5, 4, 3, 2]) == stats

    def test_zero_and_order(self) -> None:
        assert BleuStats.zero(2).to_row() == (0, 0, 0, 0, 0, 0)

    @pytest.mark.parametrize("length", [0, 2, 3, 5])
    def test_from_row_needs_2_plus_2n_numbers(self, length: int) -> None:
        with pytest.raises(ValueError, match=f"2 \\+ 2\\*N numbers, got {length}"):
            BleuStats.from_row([0] * length)

    def test_orders_must_agree(self) -> None:
        with pytest.raises(ValueError, match="cannot add BLEU stats of orders 4 and 2"):
            BleuStats.zero(4) + BleuStats.zero(2)

    @given(bleu_stats, bleu_stats, bleu_stats)
    def test_addition_is_associative_commutative_with_zero(
        self, a: BleuStats, b: BleuStats, c: BleuStats
    ) -> None:
        _assert_commutative_monoid(a, b, c, BleuStats.zero())
        assert (a + b + c).to_row() == sum_rows([a.to_row(), b.to_row(), c.to_row()])

    @pytest.mark.parametrize(
        ("hyp_len", "refs", "expected"),
        [(5, (3, 6), 6), (5, (4, 6), 4), (5, (6, 4), 4), (5, (), 0), (0, (2, 1), 1)],
    )
    def test_closest_reference_length_shorter_on_a_tie(
        self, hyp_len: int, refs: tuple[int, ...], expected: int
    ) -> None:
        assert closest_ref_len(hyp_len, refs) == expected

    def test_segment_clips_against_the_highest_count_in_any_reference(self) -> None:
        reference = prepare_reference([("the", "the", "cat"), ("the", "mat")], 2)
        assert reference.lengths == (3, 2)
        stats = bleu_segment_stats(("the", "the", "the", "cat"), reference, 2)
        # Unigrams: "the" x3 clipped to 2, "cat" 1. Bigrams: "the the" x2 clipped to 1,
        # "the cat" 1.
        assert stats == BleuStats(4, 3, (3, 2), (4, 3))


rouge_stats = st.builds(
    rouge.RougeStats,
    *(st.integers(0, 50).map(float) for _ in range(6)),
    st.integers(0, 9),
)


class TestRougeStats:
    def test_row_round_trip(self) -> None:
        stats = rouge.RougeStats(2.0, 3.0, 4.0, 0.5, 0.25, 0.3, 1)
        assert stats.to_row() == (2.0, 3.0, 4.0, 0.5, 0.25, 0.3, 1)
        assert rouge.RougeStats.from_row(stats.to_row()) == stats
        assert isinstance(rouge.RougeStats.from_row([1, 1, 1, 1, 1, 1, 2.0]).segments, int)

    @pytest.mark.parametrize("length", [0, 6, 8])
    def test_from_row_needs_seven_numbers(self, length: int) -> None:
        with pytest.raises(ValueError, match=f"a ROUGE stats row has 7 numbers, got {length}"):
            rouge.RougeStats.from_row([0.0] * length)

    @given(rouge_stats, rouge_stats, rouge_stats)
    def test_sums_of_whole_numbers_ignore_order(
        self, a: rouge.RougeStats, b: rouge.RougeStats, c: rouge.RougeStats
    ) -> None:
        _assert_commutative_monoid(a, b, c, rouge.RougeStats.zero())


class TestRougePairs:
    def test_ngram_counts(self) -> None:
        # Bigrams "a b" x2 and "b a" against "a b" and "b b": one clipped match.
        assert rouge.ngram_pair("a b a b".split(), "a b b".split(), 2) == (1.0, 3.0, 2.0)
        assert rouge.ngram_pair(["a"], ["a"], 2) == (0.0, 0.0, 0.0)

    def test_lcs(self) -> None:
        assert rouge.lcs_pair("a x b c".split(), "a b y c".split()) == (3.0, 4.0, 4.0)
        assert rouge.lcs_pair([], ["a"]) == (0.0, 0.0, 1.0)

    def test_summary_lcs_union_is_clipped_by_unigram_counts(self) -> None:
        # Lin (2004) section 3.2's example: r = w1..w5, c1 = w1 w2 w6 w7 w8, c2 = w1 w3 w8 w9 w5.
        # Union LCS with r is w1 w2 w3 w5: 4 hits.
        reference = [["w1", "w2", "w3", "w4", "w5"]]
        hypothesis = [["w1", "w2", "w6", "w7", "w8"], ["w1", "w3", "w8", "w9", "w5"]]
        assert rouge.summary_lcs_pair(hypothesis, reference) == (4.0, 10.0, 5.0)
        assert rouge.summary_lcs_pair([[]], reference) == (0.0, 0.0, 5.0)

    def test_weighted_lcs_rewards_consecutive_hits(self) -> None:
        hits, hyp_count, ref_count = rouge.wlcs_pair([["a", "b", "c"]], [["a", "b", "x", "c"]], 2.0)
        # Runs "a b" and "c": 2**2 + 1**2; f(3) = 9; f(f(4)) = (4**2)**2.
        assert (hits, hyp_count, ref_count) == (5.0, 9.0, 256.0)

    def test_skip_bigrams_with_and_without_unigrams(self) -> None:
        assert rouge.skip_bigram_pair("a b c".split(), "a c b".split(), -1, unigrams=False) == (
            2.0,
            3.0,
            3.0,
        )
        hits, hyp, ref = rouge.skip_bigram_pair("a b c".split(), "a c b".split(), -1, unigrams=True)
        # Plus the unigram "a": each side's last token ("c", "b") is not counted as a unigram.
        assert (hits, hyp, ref) == (3.0, 5.0, 5.0)

    @given(words, words)
    def test_hits_never_exceed_either_count(self, hyp: list[str], ref: list[str]) -> None:
        for hits, hyp_count, ref_count in (
            rouge.ngram_pair(hyp, ref, 1),
            rouge.ngram_pair(hyp, ref, 2),
            rouge.lcs_pair(hyp, ref),
            rouge.skip_bigram_pair(hyp, ref, 2, unigrams=True),
        ):
            assert 0 <= hits <= min(hyp_count, ref_count)

    @given(words, words)
    def test_lcs_is_symmetric_in_hits(self, hyp: list[str], ref: list[str]) -> None:
        assert rouge.lcs_pair(hyp, ref)[0] == rouge.lcs_pair(ref, hyp)[0]
        shuffled = hyp[:]
        random.Random(0).shuffle(shuffled)
        assert rouge.ngram_pair(shuffled, ref, 1)[0] == rouge.ngram_pair(hyp, ref, 1)[0]
