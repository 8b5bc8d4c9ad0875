"""``metrics/base.py``: signatures, scores and the shared input checks."""

from __future__ import annotations

import re
from typing import Any

import pytest

from meteor_eval._version import __version__
from meteor_eval.errors import InputError
from meteor_eval.metrics.base import (
    Score,
    Signature,
    SignatureField,
    check_corpus,
    check_segment,
    format_number,
)

SIGNATURE = Signature(
    "toy",
    (SignatureField("nrefs", "nr", "2"), SignatureField("case", "c", "lc")),
    version="9.9",
)


@pytest.mark.parametrize(
    ("value", "text"),
    [(1, "1.0"), (0.85, "0.85"), (0.1 + 0.2, "0.30000000000000004"), (3.0, "3.0")],
)
def test_format_number_is_the_shortest_round_trip(value: float, text: str) -> None:
    assert format_number(value) == text


class TestSignature:
    def test_long_and_short_forms_end_with_the_version(self) -> None:
        assert SIGNATURE.format() == "toy|nrefs:2|case:lc|version:9.9"
        assert SIGNATURE.format(short=True) == "toy|nr:2|c:lc|v:9.9"
        assert str(SIGNATURE) == SIGNATURE.format()

    def test_version_defaults_to_the_package_version(self) -> None:
        assert Signature("toy", ()).format() == f"toy|version:{__version__}"

    def test_as_dict_in_order(self) -> None:
        assert list(SIGNATURE.as_dict().items()) == [
            ("metric", "toy"),
            ("nrefs", "2"),
            ("case", "lc"),
            ("version", "9.9"),
        ]

    def test_get_by_long_or_short_key(self) -> None:
        assert SIGNATURE.get("nrefs") == SIGNATURE.get("nr") == "2"
        assert SIGNATURE.get("version") is None  # not a field
        assert SIGNATURE.get("missing") is None

    def test_equal_settings_equal_signatures(self) -> None:
        copy = Signature("toy", tuple(SIGNATURE.fields), version="9.9")
        assert copy == SIGNATURE
        assert hash(copy) == hash(SIGNATURE)


class TestScore:
    def test_float_and_format(self) -> None:
        score = Score(0.123456789, SIGNATURE)
        assert float(score) == 0.123456789
        assert score.format() == "0.123456789 toy|nrefs:2|case:lc|version:9.9"
        assert score.format(short=True, width=3) == "0.123 toy|nr:2|c:lc|v:9.9"


class TestCheckCorpus:
    @pytest.mark.parametrize("hypotheses", ["a b", {"a"}, None, 3])
    def test_hypotheses_must_be_a_sequence(self, hypotheses: Any) -> None:
        with pytest.raises(TypeError, match=r"^hypotheses: expected a sequence of strings"):
            check_corpus(hypotheses, [["a"]])

    @pytest.mark.parametrize("references", ["a b", (r for r in ["a"]), None])
    def test_references_must_be_a_sequence(self, references: Any) -> None:
        with pytest.raises(TypeError, match=r"^references: expected a sequence"):
            check_corpus(["a"], references)

    def test_counts_must_agree_and_both_are_named(self) -> None:
        message = (
            "2 hypotheses but 1 reference groups; "
            "references[i] must hold the references of hypothesis i"
        )
        with pytest.raises(InputError, match=f"^{re.escape(message)}$"):
            check_corpus(["a", "b"], [["a"]])

    def test_accepts_tuples_and_empty_corpora(self) -> None:
        check_corpus(("a",), (("a", "b"),))
        check_corpus([], [])


class TestCheckSegment:
    def test_hypothesis_must_be_a_string(self) -> None:
        with pytest.raises(TypeError, match=r"^hypothesis 3: expected a string, got list$"):
            check_segment(3, ["a"], ["a"])

    def test_bare_string_reference_group(self) -> None:
        message = "references of segment 1: expected a sequence of strings, got a bare string"
        with pytest.raises(TypeError, match=f"^{re.escape(message)}$"):
            check_segment(1, "a", "a")

    def test_non_sequence_reference_group(self) -> None:
        with pytest.raises(TypeError, match=r"expected a sequence of strings, got set$"):
            check_segment(0, "a", {"a"})

    def test_empty_group(self) -> None:
        with pytest.raises(InputError, match=r"^segment 2 has no reference$"):
            check_segment(2, "a", [])

    def test_non_string_reference(self) -> None:
        with pytest.raises(
            TypeError, match=r"^references of segment 0: expected strings, got int$"
        ):
            check_segment(0, "a", ["a", 1])

    def test_accepts_a_segment(self) -> None:
        check_segment(0, "", ["", "b"])
