"""The PTB tokenizer's fast path for plain lines (``_simple_line``) against the general lexer
path, and hand cases checked against pycocoevalcap 1.2's ``PTBTokenizer`` (Stanford CoreNLP 3.4.1,
``-preserveLines -lowerCase``, OpenJDK 17): the jar's output is written next to each case."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval.text import ptb

PIECE = st.sampled_from([*"aAbno5 0 -,.' st", "no", "St", "x", "1", "cannot", "Mr", "e.g"])
LINE = st.lists(PIECE, max_size=14).map("".join)


@settings(max_examples=2000, deadline=None)
@given(LINE, st.sampled_from(["", "5 dogs", "The cat", "a dog", " 7"]))
def test_fast_path_equals_the_lexer(line: str, next_line: str) -> None:
    lines = [line, next_line] if next_line else [line]
    expected = " ".join(ptb.tokenize_caption(line, next_line or None))
    assert ptb.caption_tokens(lines)[0] == expected


def test_hand_cases_checked_against_the_jar() -> None:
    captions = [
        "there is no.",  # "there is no." (the next line opens with a digit)
        "5 dogs",  # "5 dogs"
        "a no.",  # "a no"
        "No. 5",  # "no. 5"
        # "well-known 3-d b-52 1,000 ,5 a b 50 x-ray"
        "well-known 3-d b-52 1,000 ,5 a,b 50. x-ray.",
        "Room no.",  # "room no."
        "12 chairs",  # "12 chairs"
    ]
    assert ptb.caption_tokens(captions) == [
        "there is no.",
        "5 dogs",
        "a no",
        "no. 5",
        "well-known 3-d b-52 1,000 ,5 a b 50 x-ray",
        "room no.",
        "12 chairs",
    ]
