"""NLTK's word tokenizer (``NLTKWordTokenizer``) reimplemented in ``text.nltk_tokenize``.

Expected tokens were written by hand from NLTK's documented rules and checked with NLTK 3.10.4's
``NLTKWordTokenizer().tokenize``; the oracle test compares 5,000 random strings live.
"""

from __future__ import annotations

import importlib.util
import random

import pytest

from meteor_eval.text.nltk_tokenize import nltk_word_tokenize, word_tokenize


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        (
            "Good muffins cost $3.88\nin New York.  Please buy me\ntwo of them.\nThanks.",
            [
                "Good",
                "muffins",
                "cost",
                "$",
                "3.88",
                "in",
                "New",
                "York.",
                "Please",
                "buy",
                "me",
                "two",
                "of",
                "them.",
                "Thanks",
                ".",
            ],
        ),
        ('He said "hi."', ["He", "said", "``", "hi", ".", "''"]),
        ('"Quoted" start', ["``", "Quoted", "''", "start"]),
        (
            "They'll say I can't, won't they?",
            ["They", "'ll", "say", "I", "ca", "n't", ",", "wo", "n't", "they", "?"],
        ),
        ("I cannot gonna wanna go", ["I", "can", "not", "gon", "na", "wan", "na", "go"]),
        # A word-initial ' before "tis" is an opening quote (so the 'tis rule never fires).
        ("'Tis the 'quote' here", ["'", "Tis", "the", "'", "quote", "'", "here"]),
        ("3,36 euros: 1:2, ok", ["3,36", "euros", ":", "1:2", ",", "ok"]),
        ("wait... what--now!", ["wait", "...", "what", "--", "now", "!"]),
        ("a (b) [c] {d} <e>", ["a", "(", "b", ")", "[", "c", "]", "{", "d", "}", "<", "e", ">"]),
        ("“Smart” ‘quotes’ «here»", ["“", "Smart", "”", "‘", "quotes", "’", "«", "here", "»"]),
        ("x – y — z", ["x", "–", "y", "—", "z"]),
        (
            "50% of @me & #tag; *star*",
            ["50", "%", "of", "@", "me", "&", "#", "tag", ";", "*", "star", "*"],
        ),
        ("The U.S. is big.", ["The", "U.S.", "is", "big", "."]),
        ("", []),
        ("   ", []),
    ],
)
def test_documented_rules(text: str, tokens: list[str]) -> None:
    assert nltk_word_tokenize(text) == tokens


def test_convert_parentheses_writes_treebank_symbols() -> None:
    assert nltk_word_tokenize("(a) [b] {c}", convert_parentheses=True) == [
        "-LRB-",
        "a",
        "-RRB-",
        "-LSB-",
        "b",
        "-RSB-",
        "-LCB-",
        "c",
        "-RCB-",
    ]


def test_word_tokenize_without_splitter_treats_text_as_one_sentence() -> None:
    assert word_tokenize("One two. Three.") == ["One", "two.", "Three", "."]


def test_word_tokenize_with_splitter_tokenizes_each_sentence() -> None:
    def split(text: str) -> list[str]:
        return ["One two.", "Three."]

    assert word_tokenize("One two. Three.", sentence_splitter=split) == [
        "One",
        "two",
        ".",
        "Three",
        ".",
    ]


def test_rejects_non_strings() -> None:
    with pytest.raises(TypeError, match="text"):
        nltk_word_tokenize(["a", "b"])  # type: ignore[arg-type]


@pytest.mark.oracle
def test_random_strings_equal_live_nltk() -> None:
    if importlib.util.find_spec("nltk") is None:
        pytest.skip("nltk is not installed")
    from nltk.tokenize import NLTKWordTokenizer

    tokenizer = NLTKWordTokenizer()
    rng = random.Random(2024)
    alphabet = [
        *"abcAB .,:;'\"`()[]{}<>-–—*?!$%&@#…«»“”‘’„09 \t\n",
        "can",
        "not",
        "gonna",
        "wanna ",
        "'t",
        "is",
        "was",
        "n't",
        "...",
        "--",
        "''",
        "``",
        "'s",
        "'ll",
        "'re",
    ]
    for _ in range(5_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 25)))
        for convert in (False, True):
            expected = tokenizer.tokenize(text, convert_parentheses=convert)
            assert nltk_word_tokenize(text, convert_parentheses=convert) == expected, text
