"""The METEOR 1.5 normaliser (spec §1.7), step by step and end to end.

End-to-end expectations are the "observed normaliser outputs" of spec §1.7 and the token
columns of the §8 edge-case table, both produced by meteor-1.5.jar (pycocoevalcap 1.2, OpenJDK
17) with ``-l en -norm``; the full differential check is in
``tests/reference/test_normalize_vs_jar.py``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval.errors import ConfigError
from meteor_eval.resources.nonbreaking import nonbreaking_prefixes
from meteor_eval.text import normalize as norm
from meteor_eval.text.normalize import normalize, normalizer_language
from meteor_eval.text.tokenize import java_lower, preprocess

# Both tables are data, kept in tests/data/text/normalize_cases.json with their source.
_TABLES = json.loads(
    (Path(__file__).parents[2] / "data" / "text" / "normalize_cases.json").read_text(
        encoding="utf-8"
    )
)
# Spec §1.7, "Observed normaliser outputs": (language, text, expected) before lower-casing.
OBSERVED = [tuple(row) for row in _TABLES["observed"]["cases"]]


@pytest.mark.parametrize(("language", "text", "expected"), OBSERVED)
def test_observed_outputs(language: str, text: str, expected: str) -> None:
    assert normalize(text, language) == expected


def test_observed_output_without_punctuation() -> None:
    text = "He said: \"It's John's car.\" (really?)"
    assert normalize(text, "en", keep_punctuation=False) == "He said It s John s car really"


# Spec §8: (case, hypothesis, reference, hypothesis tokens, reference tokens) after -l en -norm.
EDGE_CASES = [tuple(row) for row in _TABLES["edge_cases"]["cases"]]


@pytest.mark.parametrize(
    ("case", "hypothesis", "reference", "hyp_tokens", "ref_tokens"),
    EDGE_CASES,
    ids=[row[0] for row in EDGE_CASES],
)
def test_edge_case_tokens(
    case: str, hypothesis: str, reference: str, hyp_tokens: str, ref_tokens: str
) -> None:
    assert " ".join(preprocess(hypothesis, language="en", level="norm")) == hyp_tokens
    assert " ".join(preprocess(reference, language="en", level="norm")) == ref_tokens


# Each normalisation step: (text, expected) cases.
STEP_CASES = {
    "_isolate_other_characters": [
        ("Žižek×Ёж", "Žižek × Ёж"),  # latin and cyrillic letters are kept
        ("șΣ", " ș  Σ "),  # every other letter is split off
        ("a.b'c`d,e-f‘g’h", "a.b'c`d,e-f‘g’h"),  # word-internal marks are left
    ],
    "_protect_dot_runs": [("a..b", "a DOTDOTMULTI b"), ("x....", "x DOTDOTDOTDOTMULTI")],
    "_restore_dot_runs": [("a DOTDOTDOTMULTI b ", "a ... b "), ("DOTMULTI DOTDOTMULTI", ". ..")],
    # a comma consumes its context
    "_split_commas": [(" a,b,c ", " a , b,c "), (" 1,000 1,a a,1 ", " 1,000 1 , a a , 1 ")],
    "_normalize_quotes": [("`a‘b’c“d”e''f", "'a'b'c \" d \" e \" f")],
    "_normalize_dashes": [("a–b c--d e---f", "a-b c-d e--f")],  # one literal pass
    # a hyphen consumes its context
    "_remove_intra_word_hyphens": [
        (" a-b-c well-known-fact ", " a b-c well known fact "),
        (" U.S.-based -5 x- ", " U.S. based -5 x- "),
    ],
    "_split_apostrophes_english": [(" don't 1990's 's 'x' ", " don 't 1990 's  ' s  ' x '  ")],
    "_split_apostrophes_french": [(" l'homme 'x' ", " l' homme  ' x '  ")],
    "_split_apostrophes_everywhere": [("don't", "don ' t")],  # other languages
    "_remove_punctuation": [("a.b-c'd\u00a0e\x0bf", "a b c d e f")],
    "_collapse_spaces": [("\x0b a \u2003\u00a0 b\u3000", "a b")],  # and trim
}


class TestSteps:
    @pytest.mark.parametrize(
        ("step", "text", "expected"),
        [(step, text, expected) for step, cases in STEP_CASES.items() for text, expected in cases],
    )
    def test_step(self, step: str, text: str, expected: str) -> None:
        assert getattr(norm, step)(text) == expected

    def test_sentence_dots(self) -> None:
        prefixes = nonbreaking_prefixes("english")
        line = " Mr. X No. 5 No. x No. Y U.S. end. Inc. reported . A. "
        assert norm._split_sentence_dots(line, prefixes) == (
            "Mr. X No. 5 No. x No . Y US end . Inc. reported . A. "
        )


class TestLanguages:
    @pytest.mark.parametrize(
        ("code", "name"),
        [("en", "english"), ("CS", "czech"), ("cz", "czech"), ("Spanish", "spanish")],
    )
    def test_codes_and_names(self, code: str, name: str) -> None:
        assert normalizer_language(code) == name

    def test_czech_has_no_prefixes(self) -> None:
        assert normalize("Mr. X", "cz") == "Mr . X"

    def test_german_prefix(self) -> None:
        assert normalize("Dr. Müller kommt.", "de") == "Dr. Müller kommt ."

    def test_russian_numeric_only_and_cyrillic(self) -> None:
        assert normalize("Это г. Москва.", "ru") == "Это г. Москва ."

    def test_unsupported_language_message(self) -> None:
        with pytest.raises(ConfigError, match="Pre-process the input files"):
            normalize("x", "pt")


# -- Fast paths against the general code they bypass ----------------------------------------

_FAST_PATH_ALPHABET = ",,,..0a Á-'\t\n\x0b\f\r\u00a0\u2000\u3000Σ\u0130!\U0001f600"


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet=_FAST_PATH_ALPHABET, max_size=30))
def test_comma_fast_path_equals_the_three_passes(text: str) -> None:
    line = f" {text} "
    expected = line
    for pattern in norm._COMMA_RES:
        expected = norm._sub_pair(pattern, " , ", expected)
    assert norm._split_commas(line) == expected


@settings(max_examples=600, deadline=None)
@given(
    st.text(alphabet=_FAST_PATH_ALPHABET, max_size=30),
    st.sampled_from(["en", "fr", "cz", "de"]),
    st.sampled_from(["norm", "norm_nopunct"]),
)
def test_normalised_tokens_split_like_java(text: str, language: str, level: str) -> None:
    keep = level == "norm"
    lowered = java_lower(normalize(text, language, keep_punctuation=keep))
    expected = tuple(re.findall("[^ \t\n\r\f]+", lowered))  # StringTokenizer's delimiters
    assert preprocess(text, language=language, level=level) == expected  # type: ignore[arg-type]


def test_comma_fast_path_examples() -> None:
    # Commas two apart: the first pass consumes the character the second comma needs.
    assert norm._split_commas(" a,b,c ") == " a , b,c "
    assert norm._split_commas(" a,bc,d ") == " a , bc , d "
    assert norm._split_commas(" a,,b ") == " a , ,b "
