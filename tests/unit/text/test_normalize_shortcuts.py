"""The compiled normaliser's shortcuts against the jar's rules applied literally.

``_ext/normalize.c`` decides from one look at a line's commas which of the comma step's three
consuming passes can change it (none but the first when no comma has a digit beside it; a plain
padding of every comma when, besides, no two commas are at most one code point apart), and it
skips the final collapse of spaces when the line held no Unicode space (the sentence-dot step
has joined the words with single spaces already), and it splits the English and French
apostrophes in one pass when no two are at most two code points apart (each apostrophe's
outcome then follows from its two neighbours). ``normalize_python`` takes the same shortcuts,
so here both are also compared with a normaliser whose comma step is the three ``re.sub``
passes as the jar writes them and whose end always collapses, on lines dense in commas, digits
and spaces of every kind.
"""

from __future__ import annotations

import re
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval.text import normalize as norm
from meteor_eval.text.normalize import normalize, normalize_python

pytestmark = pytest.mark.skipif(
    norm._normalize_line is None, reason="compiled extension not built (or pure Python forced)"
)

_PASSES = (
    re.compile(r"([^0-9]),([^0-9])"),
    re.compile(r"([0-9]),([^0-9])"),
    re.compile(r"([^0-9]),([0-9])"),
)


def _literal_commas(line: str) -> str:
    """The jar's comma step: three ``replaceAll`` passes, each consuming its context."""
    for pattern in _PASSES:
        line = pattern.sub(r"\1 , \2", line)
    return line


def literal_normalize(text: str, language: str, keep: bool) -> str:
    """``normalize_python`` with the comma step taken literally and the final collapse of
    spaces always run (its test for a Unicode space made to match any line)."""
    with (
        mock.patch.object(norm, "_split_commas", _literal_commas),
        mock.patch.object(norm, "_UNICODE_SPACE_RE", re.compile("(?s).")),
    ):
        return normalize_python(text, language, keep_punctuation=keep)


def _assert_as_the_jar_writes(text: str, language: str, keep: bool) -> None:
    """The compiled normaliser and ``normalize_python`` (both with their shortcuts) give what
    ``literal_normalize`` gives: the one check every test here makes."""
    expected = literal_normalize(text, language, keep)
    assert normalize(text, language, keep_punctuation=keep) == expected, (text, language)
    assert normalize_python(text, language, keep_punctuation=keep) == expected, (text, language)


# Commas, digits, letters, dots, and every kind of space the steps treat apart.
COMMA_ALPHABET = ",,,0 9aZé.'-\t\u00a0\u2009\u3000\x0b"
# Apostrophes, letters (ASCII, Latin-1, Cyrillic), the 's' of English plurals, digits, and the
# characters beside which the passes differ. ``normalize_python``'s apostrophe step is the jar's
# passes one after another, so on these lines it checks the compiled one-pass split of
# apostrophes far apart.
APOSTROPHE_ALPHABET = "'''''aasZ0 9\u00e9\u0416.-,\""


@pytest.mark.parametrize(
    "alphabet",
    [
        pytest.param(COMMA_ALPHABET, id="commas_and_spaces"),
        pytest.param(APOSTROPHE_ALPHABET, id="apostrophes"),
    ],
)
@settings(max_examples=1500, deadline=None)
@given(data=st.data(), language=st.sampled_from(("en", "fr", "de")), keep=st.booleans())
def test_lines_as_the_jar_writes_them(
    alphabet: str, data: st.DataObject, language: str, keep: bool
) -> None:
    text = data.draw(st.text(alphabet=alphabet, max_size=24), label="text")
    _assert_as_the_jar_writes(text, language, keep)


@pytest.mark.parametrize(
    "text",
    [
        # commas and spaces
        "a,b,c",  # the first match consumes the b the second needs
        "a,,b",
        "a, ,b",
        ",a",
        "a,",
        ",",
        "1,000 and 2,b and c,3",
        "x ,1",
        "a 2,b",  # a digit before the comma only
        "a,b 1,2",  # a digit after the close commas: the three passes
        "one, two, three",  # every comma padded
        "a\u00a0,\u2009b",
        "word\u00a0word",
        "tab\tsep\x0bvt",
        "Mr. Smith, Jr., 5,000.",
        # apostrophes
        "don't",  # letters on both sides
        "90's and 90'x",  # a digit then 's'; a digit then another letter
        "'tis",
        "rock 'n' roll",
        "l'homme d'affaires",
        "a'b'c",  # two apostrophes two code points apart: the passes
        "a'bc'd",  # three apart: one pass
        "x' y 'z",
        "1'2 ,' .'a -'-",
        "\u0416'\u0416 \u00e9's",
    ],
)
def test_comma_space_and_apostrophe_edges(text: str) -> None:
    for language in ("en", "fr", "cz"):
        for keep in (True, False):
            _assert_as_the_jar_writes(text, language, keep)
