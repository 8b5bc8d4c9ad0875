"""The compiled normaliser (``_ext/normalize.c``) against the pure-Python one.

``normalize`` runs the compiled normaliser when the extension is built; ``normalize_python`` is
the reference (and the fallback). They must agree on every line: here on random text over the
characters each step looks at (hypothesis), on the 3,500 adversarial lines of the jar's golden
preprocessing data and on the bundled xray files, for every language with a normaliser, with and
without punctuation. The jar comparison itself (``tests/reference/test_normalize_vs_jar.py``)
then runs through the compiled path.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval.resources.nonbreaking import nonbreaking_prefixes
from meteor_eval.text import normalize as norm
from meteor_eval.text.normalize import normalize, normalize_python

pytestmark = pytest.mark.skipif(
    norm._normalize_line is None, reason="compiled extension not built (or pure Python forced)"
)

LANGUAGES = ("en", "fr", "cz", "es", "de", "ru")
GOLDEN_INPUTS = Path(__file__).resolve().parents[2] / "reference/golden/normalize/inputs.txt.gz"
SHARED = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "meteor15"

# Every character class of the steps: ASCII and accented letters, Cyrillic, letters outside the
# normaliser's alphabet (Greek, CJK), digits, the punctuation each step rewrites, Java and
# Unicode spaces, a control character, an astral emoji and a lone surrogate.
ALPHABET = (
    "aAzZsé\u0160\u0178\u017e\u0411\u0436\u0527\ua641\u1d00Σλ中0159"
    ".,'`-\u2013\u2014\u2018\u2019\u201c\u201d\"!?:;()$%&/"
    " \t\n\x0b\f\r\u00a0\u2000\u2009\u3000\x01\U0001f600\ud800"
)
# DOT.MULTI. and D.O.T.M.U.L.T.I. become DOTMULTI only when their dots are removed (sentence
# dots), after the dot runs were protected: the compiled normaliser skips the DOTMULTI steps of a
# line without a dot run or a 'D', never one of these.
WORDS = ["Mr", "No", "Art", "U.S.", "p.m.", "DOTMULTI", "DOTDOTMULTI", "don't", "l'homme", "..."]
WORDS += ["DOT.MULTI.", "D.O.T.M.U.L.T.I.", "DOTMULTI..", "DOTMULTI.", "D", "--", "''", "b's"]


@st.composite
def lines(draw: st.DrawFn) -> str:
    parts = draw(
        st.lists(st.one_of(st.text(alphabet=ALPHABET, max_size=6), st.sampled_from(WORDS)))
    )
    return draw(st.sampled_from(["", " ", "."])).join(parts)


@settings(max_examples=1500, deadline=None)
@given(lines(), st.sampled_from(LANGUAGES), st.booleans())
def test_compiled_equals_python_on_random_text(text: str, language: str, keep: bool) -> None:
    assert normalize(text, language, keep_punctuation=keep) == normalize_python(
        text, language, keep_punctuation=keep
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The placeholder made by removing a word's inner dots is restored to a dot, as in Python.
        ("a DOT.MULTI. b", "a . b"),
        ("x D.O.T.M.U.L.T.I. y", "x . y"),
        ("DOTMULTI.. z", ". .. z"),
        ("DOT.MULTI.. q", "DOT.MULTI .. q"),
        ("end... Then", "end ... Then"),
        ("a , b's c--d", "a , b 's c d"),
        ("No. 5 Mr. X", "No. 5 Mr. X"),
    ],
)
def test_dot_placeholder_and_skipped_steps(text: str, expected: str) -> None:
    assert normalize_python(text, "en", keep_punctuation=True) == expected
    assert normalize(text, "en", keep_punctuation=True) == expected


def test_compiled_equals_python_on_the_adversarial_inputs() -> None:
    inputs = gzip.decompress(GOLDEN_INPUTS.read_bytes()).decode("utf-8").split("\n")
    assert len(inputs) >= 3500
    for language in LANGUAGES:
        for keep in (True, False):
            for text in inputs:
                expected = normalize_python(text, language, keep_punctuation=keep)
                assert normalize(text, language, keep_punctuation=keep) == expected, text


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data not available")
def test_compiled_equals_python_on_xray() -> None:
    for name in ("xray-system1.hyp", "xray-reference"):
        for text in (SHARED / name).read_text(encoding="utf-8").splitlines():
            assert normalize(text, "en") == normalize_python(text, "en")


def test_examples() -> None:
    assert normalize("Mr. Smith met Dr. Who at 5 p.m. today.", "en") == (
        "Mr. Smith met Dr. Who at 5 pm today ."
    )
    assert normalize("l'homme d'affaires", "fr") == "l' homme d' affaires"
    assert normalize("Wait... what?!", "en") == "Wait ... what ? !"
    assert normalize("It's", "de") == "It ' s"
    assert normalize("", "en") == "" == normalize("  \t ", "en")


def test_prefixes_are_the_language_lists() -> None:
    # A prefix listed for numbers only ("No" in English) stays before a number.
    assert dict(nonbreaking_prefixes("english")).get("No") is True
    assert normalize("No. 5", "en") == "No. 5"
    assert normalize("No. Five", "en") == "No . Five"
