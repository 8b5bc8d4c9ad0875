"""The worked examples of the documents meteor-eval was created from (``../shared/seeds``)."""

from __future__ import annotations

import pytest

from meteor_eval import MeteorScore, segment_meteor

STARRY_REF = "we danced with joy under the starry night"


def test_starry_night_with_a_linear_penalty() -> None:
    # metric card: P = R = 0.875, 7 matches, 2 chunks, penalty 0.5 * 2/7, score 0.75
    s = segment_meteor(
        "under the starry night we danced with glee",
        [STARRY_REF],
        flavour="paper2005",
        modules=("exact",),
        beta=1.0,
    )
    assert (s.precision, s.recall) == (0.875, 0.875)
    assert s.matches == (7, 7)
    assert s.chunks == 2
    assert s.penalty == pytest.approx(1 / 7, abs=1e-15)
    assert s.score == 0.75


def _paper_card(hypothesis: str) -> MeteorScore:
    """The metric card's setting (paper2005, exact matches, beta 1, punctuation dropped)
    against the card's raw reference sentence."""
    return segment_meteor(
        hypothesis,
        ["We danced with joy under the starry night."],
        flavour="paper2005",
        modules=("exact",),
        beta=1.0,
        normalization="norm_nopunct",
    )


def test_starry_night_from_the_raw_sentences() -> None:
    s = _paper_card("Under the starry night, we danced with glee.")
    assert (s.chunks, s.score) == (2, 0.75)


def test_scrambled_starry_night_has_eight_chunks() -> None:
    s = _paper_card("Danced we with under joy the night starry.")
    assert (s.precision, s.recall, s.fmean) == (1.0, 1.0, 1.0)
    assert (s.chunks, s.penalty, s.score) == (8, 0.5, 0.5)


def test_cat_on_the_mat_reordered_uses_the_fewest_crossings() -> None:
    s = segment_meteor("on the mat sat the cat", ["the cat sat on the mat"], flavour="paper2005")
    assert (s.fmean, s.chunks, s.penalty, s.score) == (1.0, 6, 0.5, 0.5)


def test_identical_cat_on_the_mat_keeps_one_chunk() -> None:
    s = segment_meteor("the cat sat on the mat", ["the cat sat on the mat"], flavour="paper2005")
    assert s.chunks == 1
    assert round(s.penalty, 4) == 0.0023
    assert round(s.score, 4) == 0.9977
    assert s.score == 1.0 - 0.5 * (1 / 6) ** 3


def test_cat_was_sat_on_the_mat() -> None:
    s = segment_meteor(
        "the cat was sat on the mat", ["the cat sat on the mat"], flavour="paper2005"
    )
    assert round(s.precision, 4) == 0.8571 and s.recall == 1.0
    assert round(s.fmean, 4) == 0.9836
    assert round(s.penalty, 4) == 0.0185
    assert round(s.score, 4) == 0.9654
    assert s.chunks == 2


def test_best_reference_wins() -> None:
    s = segment_meteor(
        "the cat sat on the mat",
        ["a dog stood", "the cat sat on the mat", "the cat sat on a mat"],
        flavour="paper2005",
    )
    assert s.reference_index == 1
