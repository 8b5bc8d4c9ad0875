"""Hand-computed cases for the exact per-stage aligner of the 2005 paper (``paper2005``).

Every expected alignment below was worked out by hand; the comments give the competing
alignments and their crossing counts.
"""

from __future__ import annotations

import random
import time

import pytest

from meteor_eval.align.exhaustive import align_stage, align_stages, count_crossings


def exact_candidates(hyp: str, ref: str) -> list[tuple[int, int]]:
    """Exact-stage candidates: every pair of positions holding the same word."""
    ref_words = ref.split()
    return [
        (i, j)
        for i, word in enumerate(hyp.split())
        for j, other in enumerate(ref_words)
        if word == other
    ]


def chunks(pairs: tuple[tuple[int, int], ...]) -> int:
    """Number of chunks (runs adjacent in both sentences) of an alignment sorted by hyp."""
    return sum(
        1
        for k, (h, r) in enumerate(pairs)
        if k == 0 or (pairs[k - 1][0] + 1, pairs[k - 1][1] + 1) != (h, r)
    )


# --- count_crossings ------------------------------------------------------------------------


def test_count_crossings_empty_and_single() -> None:
    assert count_crossings([]) == 0
    assert count_crossings([(3, 7)]) == 0


def test_count_crossings_monotone_alignment_has_none() -> None:
    assert count_crossings([(0, 0), (1, 2), (4, 5), (6, 9)]) == 0


def test_count_crossings_reversed_alignment_crosses_every_pair() -> None:
    pairs = [(i, 9 - i) for i in range(10)]
    assert count_crossings(pairs) == 45


def test_count_crossings_ignores_input_order() -> None:
    assert count_crossings([(2, 1), (0, 2), (1, 0)]) == 2
    assert count_crossings([(1, 0), (2, 1), (0, 2)]) == 2


def test_count_crossings_shared_positions_never_cross() -> None:
    # (h1 - h2) * (r1 - r2) is 0 when a position is shared.
    assert count_crossings([(0, 1), (0, 0), (1, 1), (2, 1)]) == 0


def test_count_crossings_matches_pairwise_definition() -> None:
    rng = random.Random(7)
    for _ in range(200):
        pairs = [(rng.randrange(12), rng.randrange(12)) for _ in range(rng.randrange(15))]
        naive = sum(
            1
            for a in range(len(pairs))
            for b in range(a + 1, len(pairs))
            if (pairs[a][0] - pairs[b][0]) * (pairs[a][1] - pairs[b][1]) < 0
        )
        assert count_crossings(pairs) == naive


# --- align_stage: hand-computed sentences ---------------------------------------------------


def test_cat_on_mat_takes_fewest_crossings_not_fewest_chunks() -> None:
    # hyp: on0 the1 mat2 sat3 the4 cat5 / ref: the0 cat1 sat2 on3 the4 mat5.
    # Only "the" is ambiguous. the1->the0, the4->the4 gives ref order 3 0 5 2 4 1: 8 crossings,
    # 6 chunks. the1->the4, the4->the0 gives 3 4 5 2 0 1: 11 crossings but only 3 chunks
    # ("on the mat", "sat", "the cat"). The paper minimises crossings, so 6 chunks.
    pairs = align_stage(exact_candidates("on the mat sat the cat", "the cat sat on the mat"))
    assert pairs == ((0, 3), (1, 0), (2, 5), (3, 2), (4, 4), (5, 1))
    assert count_crossings(pairs) == 8
    assert chunks(pairs) == 6
    assert count_crossings([(0, 3), (1, 4), (2, 5), (3, 2), (4, 0), (5, 1)]) == 11


def test_inserted_word_leaves_a_monotone_alignment() -> None:
    # hyp: the0 cat1 was2 sat3 on4 the5 mat6 / ref: the0 cat1 sat2 on3 the4 mat5.
    pairs = align_stage(exact_candidates("the cat was sat on the mat", "the cat sat on the mat"))
    assert pairs == ((0, 0), (1, 1), (3, 2), (4, 3), (5, 4), (6, 5))
    assert count_crossings(pairs) == 0
    assert chunks(pairs) == 2


def test_identical_sentences_align_on_the_diagonal() -> None:
    text = "the cat and the dog and the bird"
    pairs = align_stage(exact_candidates(text, text))
    assert pairs == tuple((i, i) for i in range(8))


def test_no_candidates_gives_empty_alignment() -> None:
    assert align_stage([]) == ()
    assert align_stage([], [(0, 0)]) == ()
    assert align_stages([]) == ()


# --- align_stage: objective order -----------------------------------------------------------


def test_more_matches_beat_fewer_crossings() -> None:
    # {(0, 1), (1, 0)} has 2 matches and 1 crossing; {(0, 0)} has 1 match and none.
    assert align_stage([(0, 0), (0, 1), (1, 0)]) == ((0, 1), (1, 0))


def test_crossings_with_earlier_stages_count() -> None:
    # (1, 0) would cross the fixed (0, 1); (1, 2) does not, although it is lexicographically later.
    assert align_stage([(1, 0), (1, 2)], fixed=[(0, 1)]) == ((1, 2),)


def test_repeated_word_avoids_crossing_a_fixed_pair() -> None:
    # hyp: the0 cat1 the2 / ref: cat0 the1. cat is an isolated pair; the first "the" would cross it.
    assert align_stage(exact_candidates("the cat the", "cat the")) == ((1, 0), (2, 1))


def test_complete_block_is_matched_in_order() -> None:
    # Five "the" on each side: the order-preserving pairing is the only crossing-free one.
    pairs = align_stage([(h, r) for h in (1, 3, 5, 7, 9) for r in (0, 2, 4, 6, 8)])
    assert pairs == ((1, 0), (3, 2), (5, 4), (7, 6), (9, 8))


# --- align_stage: tie rule (lexicographically smallest assignment vector) ---------------------


def test_tie_prefers_earlier_hypothesis_word() -> None:
    # hyp "the the", ref "the": vectors (0, unmatched) < (unmatched, 0).
    assert align_stage(exact_candidates("the the", "the")) == ((0, 0),)


def test_tie_prefers_earlier_reference_word() -> None:
    assert align_stage(exact_candidates("the", "the the")) == ((0, 0),)


def test_tie_among_three_placements_with_crossings() -> None:
    # hyp: b0 b1 t2 a3 b4 / ref: a0 b1 t2. t and a are isolated and cross each other (1).
    # b0->1 crosses (3, 0); b1->1 crosses (3, 0); b4->1 crosses (2, 2): all total 2, so the
    # vector (1, U, 2, 0, U) wins over (U, 1, 2, 0, U) and (U, U, 2, 0, 1).
    pairs = align_stage(exact_candidates("b b t a b", "a b t"))
    assert pairs == ((0, 1), (2, 2), (3, 0))
    assert count_crossings(pairs) == 2


def test_tie_between_two_blocks() -> None:
    # hyp: t0 a1 b2 b3 / ref: a0 t1 b2 t3 a4. Four alignments of 3 matches have 1 crossing
    # (t0->1 with a1->0 or a1->4, b2->2 or b3->2); the smallest vector is (1, 0, 2, U).
    pairs = align_stage(exact_candidates("t a b b", "a t b t a"))
    assert pairs == ((0, 1), (1, 0), (2, 2))
    assert count_crossings(pairs) == 1


def test_tie_inside_unbalanced_block() -> None:
    # hyp: b0 b1 a2 a3 / ref: b0 a1 b2 b3 a4. (0,0) (1,2) (2,1) (3,4) and the same with
    # (1,3) both have 1 crossing; ref 2 < ref 3 decides.
    pairs = align_stage(exact_candidates("b b a a", "b a b b a"))
    assert pairs == ((0, 0), (1, 2), (2, 1), (3, 4))


def test_result_ignores_candidate_order_and_duplicates() -> None:
    cands = exact_candidates("on the mat sat the cat", "the cat sat on the mat")
    shuffled = list(reversed(cands)) + cands[:3]
    assert align_stage(shuffled) == align_stage(cands)


# --- align_stages ----------------------------------------------------------------------------


def test_stages_filter_matched_positions_and_count_earlier_crossings() -> None:
    # Stage 1 fixes (0, 1). Stage 2's (0, 0) and (2, 1) touch matched positions and are dropped;
    # of the rest, (1, 0) would cross (0, 1), so (1, 2) is chosen.
    stages = [[(0, 1)], [(0, 0), (2, 1), (1, 0), (1, 2)]]
    assert align_stages(stages) == (((0, 1),), ((1, 2),))


def test_three_stages_exact_stem_synonym() -> None:
    # hyp: the0 cats1 sat2 upon3 the4 mat5 / ref: the0 cat1 sat2 on3 the4 rug5.
    exact = exact_candidates("the cats sat upon the mat", "the cat sat on the rug")
    stem = [(1, 1), (2, 2)]  # "cats" ~ "cat"; (2, 2) is already exact and gets dropped
    synonym = [(3, 3), (5, 5), (5, 3)]
    assert align_stages([exact, stem, synonym]) == (
        ((0, 0), (2, 2), (4, 4)),
        ((1, 1),),
        ((3, 3), (5, 5)),
    )


# --- validation --------------------------------------------------------------------------------


def test_rejects_negative_positions() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        align_stage([(-1, 0)])
    with pytest.raises(ValueError, match="non-negative"):
        align_stage([(0, 0)], fixed=[(1, -2)])


def test_rejects_fixed_that_is_not_one_to_one() -> None:
    with pytest.raises(ValueError, match="one-to-one"):
        align_stage([(5, 5)], fixed=[(0, 1), (0, 2)])


def test_rejects_candidate_on_a_fixed_position() -> None:
    with pytest.raises(ValueError, match="already matched"):
        align_stage([(0, 3)], fixed=[(0, 1)])


def test_rejects_what_the_quick_checks_see_in_any_column() -> None:
    # The whole-list checks look at hypothesis and reference positions separately, and the
    # first offender is the one the per-pair loop reports.
    with pytest.raises(ValueError, match=r"candidate \(1, -1\)"):
        align_stage([(0, 0), (1, -1)])
    with pytest.raises(ValueError, match=r"fixed pair \(-3, 4\)"):
        align_stage([(0, 0)], fixed=[(-3, 4)])
    with pytest.raises(ValueError, match=r"candidate \(1, 1\) uses"):
        align_stage([(0, 0), (1, 1)], fixed=[(2, 1)])
    with pytest.raises(ValueError, match=r"candidate \(2, 0\) uses"):
        align_stage([(2, 0), (0, 5)], fixed=[(2, 1)])


def test_isolated_pairs_are_all_chosen_whatever_they_cross() -> None:
    # No position repeats, so each pair is a component of its own and is taken as it is.
    assert align_stage([(3, 0), (0, 3), (1, 1)], fixed=[(2, 2)]) == ((0, 3), (1, 1), (3, 0))
    assert align_stages([[(1, 0), (0, 1)], [(2, 2)]]) == (((0, 1), (1, 0)), ((2, 2),))


# --- speed on pathological inputs -------------------------------------------------------------


def _shuffled(n_the_hyp: int, n_the_ref: int, seed: int) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    others = [f"w{k}" for k in range(40)]
    hyp = ["the"] * n_the_hyp + others
    ref = ["the"] * n_the_ref + others
    rng.shuffle(hyp)
    rng.shuffle(ref)
    return hyp, ref


@pytest.mark.parametrize(("n_hyp", "n_ref"), [(40, 40), (40, 35), (35, 40)])
def test_many_repeated_words_do_not_blow_up(n_hyp: int, n_ref: int) -> None:
    hyp, ref = _shuffled(n_hyp, n_ref, seed=n_hyp * 100 + n_ref)
    cands = exact_candidates(" ".join(hyp), " ".join(ref))
    start = time.perf_counter()
    pairs = align_stage(cands)
    elapsed = time.perf_counter() - start
    assert len(pairs) == 40 + min(n_hyp, n_ref)
    # Generous: a few tens of ms here; the point is that it is not exponential.
    assert elapsed < 2.0
    # The "the" matches are order-preserving (uncrossing argument in the module docstring).
    the_refs = [r for h, r in pairs if hyp[h] == "the"]
    assert the_refs == sorted(the_refs)
