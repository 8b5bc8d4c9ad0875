"""Java string primitives and the §1.6 preprocessing pipeline.

Expected values come from OpenJDK 17 (``String.hashCode``, ``String.toLowerCase`` in the
English locale, ``StringTokenizer``) and from the §8 edge-case table of the METEOR 1.5 jar.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval.errors import ConfigError
from meteor_eval.text import tokenize as tokenize_module
from meteor_eval.text.tokenize import (
    java_hash,
    java_lower,
    java_split,
    java_trim,
    preprocess,
    utf16_len,
)


class TestJavaSplit:
    def test_splits_on_the_five_delimiters(self) -> None:
        assert java_split("a b\tc\nd\re\ff") == ["a", "b", "c", "d", "e", "f"]

    def test_runs_and_ends_give_no_empty_tokens(self) -> None:
        assert java_split("  a \t\t b  ") == ["a", "b"]
        assert java_split("") == []
        assert java_split(" \t\n\r\f") == []

    @pytest.mark.parametrize(
        "char", ["\x0b", "\x1c", "\x1f", "\x85", "\u00a0", "\u2000", "\u2028", "\u3000"]
    )
    def test_other_whitespace_stays_inside_tokens(self, char: str) -> None:
        assert java_split(f"the{char}cat") == [f"the{char}cat"]


class TestJavaTrim:
    def test_strips_control_characters_and_space(self) -> None:
        assert java_trim("\x00\x0b\x1f the cat \x01\t") == "the cat"

    def test_keeps_unicode_spaces(self) -> None:
        assert java_trim("\u00a0x\u3000") == "\u00a0x\u3000"


class TestJavaHash:
    @pytest.mark.parametrize(
        ("token", "expected"),
        [
            ("", 0),
            ("Aa", 2112),
            ("BB", 2112),
            ("hello", 99162322),
            ("the", 114801),
            ("\U0001f600", 1772899),  # surrogate pair: two code units
            ("x\U0001f600y", 58534910),
            ("polygenelubricants", -2147483648),  # wraps to Integer.MIN_VALUE
            (
                "The quick brown fox jumps over the lazy dog and keeps running far away",
                1223099200,
            ),
            ("\u00e9t\u00e9", 227742),
            ("\u0391\u03a3", 29234),
        ],
    )
    def test_matches_java_string_hashcode(self, token: str, expected: int) -> None:
        assert java_hash(token) == expected

    def test_collisions_are_equal(self) -> None:
        assert java_hash("AaAa") == java_hash("BBBB")


def test_utf16_len_counts_surrogate_pairs() -> None:
    assert utf16_len("") == 0
    assert utf16_len("abc") == 3
    assert utf16_len("é😀") == 3
    assert utf16_len("👍🏽") == 4


class TestJavaLower:
    def test_matches_str_lower_on_ordinary_text(self) -> None:
        assert java_lower("The CAT Über ЁЛКА") == "the cat über ёлка"

    def test_dotted_capital_i_becomes_i_and_combining_dot(self) -> None:
        assert java_lower("İ") == "i\u0307"

    @pytest.mark.parametrize(
        "letter", ["\u2c2f", "\ua7c0", "\ua7d0", "\ua7d6", "\ua7d8", "\U00010570", "\U00010595"]
    )
    def test_letters_new_in_unicode_14_are_unchanged(self, letter: str) -> None:
        assert letter.lower() != letter  # Python knows Unicode 14 ...
        assert java_lower(f"A{letter}B") == f"a{letter}b"  # ... Java 17 does not

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            # Agreements with Python's Final_Sigma rule, checked on Java 17.
            ("\u03a3", "\u03c3"),
            ("\u0391\u03a3", "\u03b1\u03c2"),
            ("\u0391\u03a3\u0391", "\u03b1\u03c3\u03b1"),
            ("\u0391\u03a3.", "\u03b1\u03c2."),
            ("\u0391\u03a3.\u0391", "\u03b1\u03c3.\u03b1"),
            ("\u0391'\u03a3", "\u03b1'\u03c2"),
            ("1\u03a3", "1\u03c3"),
            ("\u0391\u03a3\u03a3", "\u03b1\u03c3\u03c2"),
            ("\u0130\u03a3", "i\u0307\u03c2"),
            # Java's word-based rule where Python's differs.
            ("\u0391\u03a3:\u0391", "\u03b1\u03c2:\u03b1"),
            ("\u0391\u03a3\u00b7\u0391", "\u03b1\u03c2\u00b7\u03b1"),
            ("\u0391\u03a3\u2019\u0391", "\u03b1\u03c2\u2019\u03b1"),
            ("A\u03a3\u02b0", "a\u03c3\u02b0"),
            ("\u02b0\u03a3", "\u02b0\u03c2"),
            ("\u0391\u03a3\u0345", "\u03b1\u03c3\u0345"),
            ("A\U000e0001\u03a3", "a\U000e0001\u03c3"),
        ],
    )
    def test_capital_sigma_follows_java(self, text: str, expected: str) -> None:
        assert java_lower(text) == expected

    @settings(max_examples=600, deadline=None)
    @given(
        st.text(
            st.one_of(
                st.sampled_from(
                    "aA\u00c9\u2019\u201c\u0130\u0391\u03a3\u03c3:.\u02b0\u0345 "
                    "\u2c2e\u2c2f\u2c30\ua7c0\ua7d0\U00010570\U000e0001"
                ),
                st.characters(exclude_categories=("Cs",)),
            ),
            max_size=12,
        )
    )
    def test_the_str_lower_shortcut_equals_the_full_rule(self, text: str) -> None:
        # issue 23: java_lower takes str.lower directly when a line has no capital sigma and no
        # code point from U+2C2F on; the full rule (each Unicode 14 capital kept, the rest
        # lowered with Java's final sigma) is the readable twin.
        pattern = tokenize_module._UNICODE14_UPPER_RE.pattern
        special = tokenize_module._UNICODE14_UPPER
        full = "".join(
            piece if piece in special else tokenize_module._lower_with_java_sigma(piece)
            for piece in re.split(f"({pattern})", text)
        )
        assert java_lower(text) == full


class TestPreprocess:
    def test_none_only_tokenises(self) -> None:
        assert preprocess(" The\u00a0Cat\tsat ", language="en", level="none") == (
            "The\u00a0Cat",
            "sat",
        )

    def test_lower_lower_cases_then_tokenises(self) -> None:
        assert preprocess("The Cat", language="xx", level="lower") == ("the", "cat")

    def test_norm_normalises_then_lower_cases(self) -> None:
        # §8 E25 and E26
        assert preprocess("Mr. Smith went to Washington.", language="en", level="norm") == (
            "mr.",
            "smith",
            "went",
            "to",
            "washington",
            ".",
        )
        assert preprocess("the U.S. economy", language="EN", level="norm") == (
            "the",
            "us",
            "economy",
        )

    def test_norm_nopunct_drops_punctuation(self) -> None:
        assert preprocess("John's car.", language="en", level="norm_nopunct") == (
            "john",
            "s",
            "car",
        )

    def test_lowercasing_happens_after_prefix_lookup(self) -> None:
        # "Dr" is a listed English prefix, "dr" is not (lists are case-sensitive).
        assert preprocess("Dr. X", language="en", level="norm") == ("dr.", "x")
        assert preprocess("dr. X", language="en", level="norm") == ("dr", ".", "x")

    def test_vertical_tab_survives_normalisation(self) -> None:
        # §8 E39
        assert preprocess("the\x0bcat", language="en", level="norm") == ("the\x0bcat",)

    @pytest.mark.parametrize("language", ["da", "other", "ar-bw-red", "danish"])
    def test_norm_without_normaliser_is_a_config_error(self, language: str) -> None:
        with pytest.raises(ConfigError, match="without the -norm option"):
            preprocess("x", language=language, level="norm")

    def test_unknown_language_is_a_config_error(self) -> None:
        with pytest.raises(ConfigError, match="unknown language 'klingon'"):
            preprocess("x", language="klingon", level="norm_nopunct")

    def test_unknown_level_is_a_config_error(self) -> None:
        with pytest.raises(ConfigError, match="level must be one of"):
            preprocess("x", language="en", level="upper")  # type: ignore[arg-type]
