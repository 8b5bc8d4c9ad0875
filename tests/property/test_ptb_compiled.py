"""The compiled caption tokenizer (``ptb_caption_lines``, ``_ext/ptb.c``) against its readable
twin ``text/ptb.py``'s ``_caption_tokens_python``: random captions over the characters each lexer
rule reads (quotes, apostrophes, contractions, hyphens, numbers, currency, brackets, ellipses,
separators, line breaks, non-ASCII letters), the hand-written cases of ``tokenizer_cases.txt`` and
the caption corpus, each caption list through both, with cold and warm chunk caches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval._ext import compiled_function
from meteor_eval.text import ptb

pytestmark = pytest.mark.skipif(
    compiled_function("ptb_caption_lines") is None, reason="the ptb kernel is not compiled"
)

DATA = Path(__file__).resolve().parents[1] / "data" / "captions"

PIECES = [
    *"aAzZbBnNoOsStTxXyYdDlLjJ0123456789 ,.;:!?'\"`-_/&@#$%*+=<>()[]{}|\\^~",
    *"\t\x00\x01\x1c\x7f\x85\xa0\xad\u200b\u2019\u2018\u201c\u201d\u2013\u2014\u2026\u00bd\u00a3",
    *"\u20ac\u00a2\u00e9\u00c9\u00df\u0130\u0301\u2160\u2463\u00b2\u0661\ue000\U0001f600\ud800",
    *"\u3000\u2028\r\x0b\x0c\n\u00e7\u4e00\u0416",
    "n't",
    "N'T",
    "'s",
    "'ll",
    "'re",
    "'ve",
    "'d",
    "'m",
    "'em",
    "'tis",
    "'90s",
    "o'clock",
    "cannot",
    "gonna",
    "Mr.",
    "mr.",
    "St.",
    "st.",
    "no.",
    "No.",
    "e.g.",
    "u.s.",
    "a.",
    "B.",
    "The ",
    "the ",
    "Ill.",
    "ill.",
    "Mfg.",
    "MFG.",
    "...",
    "--",
    "&amp;",
    "&nbsp;",
    "&lt;",
    "1,000",
    "3.5",
    "12:30",
    "-5",
    ".5",
    "3.5cm",
    "5 1/2",
    "and/or",
    "24/7",
    "AT&T",
    "www.example.com",
    "http://x.org/a",
    "a@b.com",
    ":)",
    ";-(",
    "$5",
    "US$",
    "C$",
    "rock'n'roll",
    "y'all",
    "c'mon",
    "ma'am",
    "well-known",
    "b-52",
    "ph.d.",
]
CAPTION = st.lists(st.sampled_from(PIECES), max_size=16).map("".join)
RANDOM = st.text(max_size=40)


def both(captions: list[str]) -> tuple[list[str], list[str]]:
    """The kernel's strings with a cold cache, the twin's with a cold cache, then the kernel's
    again with the warm cache (which must not change them)."""
    ptb.clear_caches()
    compiled = ptb.caption_tokens(captions)
    ptb.clear_caches()
    python = ptb._caption_tokens_python(captions)
    assert ptb.caption_tokens(captions) == compiled
    return compiled, python


@settings(max_examples=1500, deadline=None)
@given(st.lists(CAPTION, max_size=6))
def test_built_captions_equal_the_twin(captions: list[str]) -> None:
    compiled, python = both(captions)
    assert compiled == python


@settings(max_examples=700, deadline=None)
@given(st.lists(RANDOM, max_size=5))
def test_random_unicode_equals_the_twin(captions: list[str]) -> None:
    compiled, python = both(captions)
    assert compiled == python


def test_hand_written_cases_and_the_corpus_equal_the_twin() -> None:
    cases = (DATA / "tokenizer_cases.txt").read_text(encoding="utf-8").splitlines()
    compiled, python = both(cases)
    assert compiled == python
    assert len(compiled) == len(cases)
    corpus = json.loads((DATA / "captions.json").read_text(encoding="utf-8"))
    captions = [a["caption"] for a in corpus["annotations"]]
    for name in ("results-1.json", "results-2.json"):
        captions += [r["caption"] for r in json.loads((DATA / name).read_text(encoding="utf-8"))]
    compiled, python = both(captions)
    assert compiled == python


def test_edge_lines_equal_the_twin() -> None:
    captions = [
        "",
        " ",
        ".",
        "   .  ",
        "A B.",
        "The dog",
        "x No.",
        "7 cats",
        "a very long line " * 2000 + "end.",
        "a\nb. c",
        "Mr.",
        "STOP. The end",
        "a,1 b",
        "a--b -a a- x-ray",
        # plain words on the chunk path (the line has an apostrophe): split words still split
        "It's cannot GONNA Cannot well-known B-52 3cm x-.",
        "caf\u00e9 Gimme-5 wanna, lemme",
    ]
    compiled, python = both(captions)
    assert compiled == python
    # A caption with a line break other than "\n" shifts the later lines (the twin's job).
    shifted = ["a\rb", "c", "d"]
    assert ptb.caption_tokens(shifted) == ptb._caption_tokens_python(shifted) == ["a", "b", "c"]


def test_items_that_are_not_strings_raise_the_twins_error() -> None:
    with pytest.raises(AttributeError):
        ptb.caption_tokens(["a", 5])  # type: ignore[list-item]
