"""``meteor_eval.text.ptb``: pycocoevalcap's PTB tokenization, rules that need context.

Expected values: pycocoevalcap 1.2's ``PTBTokenizer().tokenize`` (stanford-corenlp-3.4.1.jar,
OpenJDK 17) on the same inputs, recorded here so the tests run without Java; the per-rule cases
are in ``tests/data/captions/tokenizer_cases.txt`` (``tests/reference/test_caption_dropin.py``).
"""

from __future__ import annotations

from meteor_eval.compat.pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer
from meteor_eval.text.ptb import caption_tokens, ptb_tokens, split_lines, tokenize_caption


def test_line_breaks_inside_captions_shift_the_later_captions() -> None:
    """As the original: a \\r, form feed or U+2028 inside a caption starts a new line, so each
    later caption gets the line before its own; the last lines are dropped."""
    captions = {
        1: [{"caption": "A dog.\rA cat"}, {"caption": "two\x0cbirds"}],
        2: [{"caption": "x B."}, {"caption": "The end\u2028here"}],
        3: [{"caption": "last one"}, {"caption": ""}],
    }
    assert PTBTokenizer().tokenize(captions) == {
        1: ["a dog", "a cat"],
        2: ["two", "birds"],
        3: ["x b", "the end"],
    }


def test_an_initial_loses_its_period_before_a_sentence_opener_on_the_next_line() -> None:
    lines = ["x B.", "The dog", "x B.", "two dogs"]
    assert caption_tokens(lines) == ["x b", "the dog", "x b.", "two dogs"]


def test_no_keeps_its_period_before_a_number() -> None:
    assert tokenize_caption("No. 5 and no. x") == ["no.", "5", "and", "no", "x"]


def test_split_words_and_filtered_punctuation() -> None:
    assert tokenize_caption("I cannot go , gonna stay...") == [
        "i", "can", "not", "go", "gon", "na", "stay",
    ]  # fmt: skip


def test_unfiltered_tokens_and_lines() -> None:
    assert ptb_tokens('He said "hi" (twice).') == [
        "he", "said", "''", "hi", "''", "-lrb-", "twice", "-rrb-", ".",
    ]  # fmt: skip
    assert split_lines("a\r\nb\x0bc\u2029d") == ["a", "b", "c", "d"]


def test_no_caption_and_empty_captions() -> None:
    assert caption_tokens([]) == []
    assert PTBTokenizer().tokenize({}) == {}
    assert caption_tokens(["", " ", "."]) == ["", "", ""]


def test_an_image_without_captions_gets_no_entry() -> None:
    """As the original, whose dict is built from (image, line) pairs: an image with an empty
    list is left out, and the others keep their order and their own lines."""
    captions = {
        4: [{"caption": "A b"}],
        2: [],
        3: [{"caption": "x."}, {"caption": "Y z"}],
    }
    tokenized = PTBTokenizer().tokenize(captions)
    assert tokenized == {4: ["a b"], 3: ["x.", "y z"]}
    assert list(tokenized) == [4, 3]
