"""``formula.nltk_count_score`` is ``nltk_count_components(...).score`` to the last bit."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval.metrics.meteor.formula import nltk_count_components, nltk_count_score

PARAMETER = st.one_of(
    st.sampled_from([0.0, 0.5, 0.9, 1.0, 3.0, -1.0, 2.0]),
    st.floats(allow_nan=True, allow_infinity=True, width=64),
)


def bits(value: float) -> bytes:
    return struct.pack("<d", value)


@settings(max_examples=800, deadline=None)
@given(
    st.integers(0, 60),
    st.integers(0, 60),
    st.integers(0, 80),
    st.integers(0, 80),
    PARAMETER,
    PARAMETER,
    PARAMETER,
)
def test_one_frame_score_equals_the_record(
    matched: int,
    chunks: int,
    hyp_length: int,
    ref_length: int,
    alpha: float,
    beta: float,
    gamma: float,
) -> None:
    params = {"alpha": alpha, "beta": beta, "gamma": gamma}
    try:
        expected = nltk_count_components(matched, chunks, hyp_length, ref_length, **params).score
    except Exception as exc:  # the same error must come out of the one-frame score
        with pytest.raises(type(exc)):
            nltk_count_score(matched, chunks, hyp_length, ref_length, **params)
        return
    got = nltk_count_score(matched, chunks, hyp_length, ref_length, **params)
    assert bits(got) == bits(expected)


def test_defaults_and_examples() -> None:
    for counts in [(6, 1, 6, 6), (3, 2, 7, 4), (0, 0, 5, 5), (2, 2, 0, 3), (1, 1, 1, 1)]:
        assert bits(nltk_count_score(*counts)) == bits(nltk_count_components(*counts).score)
