"""``meteor_eval.compat.nltk``: NLTK's argument order, checks and messages, and its numbers.

Numbers are checked by hand (NLTK's formula: ``fmean * (1 - 0.5 * (chunks / matches) ** 3)``)
and against a slice of ``tests/reference/golden/nltk/generated.json.gz`` (NLTK 3.10.4, made by
``scripts/make_nltk_golden.py``; the full comparison is in ``tests/reference``).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from fakes import WordNet
from meteor_eval.compat import nltk as compat
from meteor_eval.compat.nltk import align_words, meteor_score, single_meteor_score

GOLDEN = Path(__file__).resolve().parents[2] / "reference" / "golden" / "nltk"


class _Stem:
    """A stemmer that maps every word to one stem."""

    def stem(self, word: str) -> str:
        return "x"


class TestNumbers:
    def test_identical_two_words(self) -> None:
        # P = R = 1, one chunk of two matches: 1 - 0.5 * (1/2)**3.
        assert single_meteor_score(["the", "cat"], ["the", "cat"]) == 0.9375

    def test_reference_comes_first(self) -> None:
        # P = 1, R = 1/2: fmean = 0.5 / (0.9 * 1 + 0.1 * 0.5); swapped, P = 1/2 and R = 1.
        assert single_meteor_score(list("abcd"), list("ab")) == pytest.approx(
            0.5 / 0.95 * 0.9375, abs=1e-15
        )
        assert single_meteor_score(list("ab"), list("abcd")) == pytest.approx(
            0.5 / 0.55 * 0.9375, abs=1e-15
        )

    def test_parameters_reach_the_formula(self) -> None:
        assert single_meteor_score(["the", "cat"], ["the", "cat"], gamma=0.0) == 1.0
        assert single_meteor_score(["the", "cat"], ["the", "cat"], beta=1.0) == 0.75
        score = single_meteor_score(list("abcd"), list("ab"), alpha=0.5, gamma=0.0)
        assert score == pytest.approx(2 * 0.5 / 1.5, abs=1e-15)

    def test_no_match_and_empty_sides_score_zero(self) -> None:
        assert single_meteor_score(["a"], ["b"]) == 0.0
        assert single_meteor_score([], ["b"]) == 0.0
        assert single_meteor_score(["a"], []) == 0.0

    def test_meteor_score_is_the_best_reference(self) -> None:
        refs = [["a", "dog"], ["the", "cat"]]
        assert meteor_score(refs, ["the", "cat"]) == 0.9375

    def test_a_generator_hypothesis_is_consumed_by_the_first_reference(self) -> None:
        # As in NLTK: the hypothesis is iterated once per reference.
        refs = [["a", "dog"], ["the", "cat"]]
        assert meteor_score(refs, iter(["the", "cat"])) == 0.0

    def test_lower_cased_by_default_and_preprocess_replaceable(self) -> None:
        assert single_meteor_score(["The", "CAT"], ["the", "cat"]) == 0.9375
        upper = single_meteor_score(["cat"], ["dog"], preprocess=lambda w: "same")
        assert upper == 0.5  # one match, one chunk: 1 - 0.5 * 1**3

    def test_custom_stemmer(self) -> None:
        assert single_meteor_score(["dog"], ["cat"]) == 0.0
        assert single_meteor_score(["dog"], ["cat"], stemmer=_Stem()) == 0.5

    def test_custom_wordnet_single_word_lemmas_only(self) -> None:
        wordnet = WordNet({"car": ("car", "auto", "motor_car")})  # car ~ auto ~ motor_car
        assert single_meteor_score(["auto"], ["car"], wordnet=wordnet) == 0.5
        assert single_meteor_score(["motor_car"], ["car"], wordnet=wordnet) == 0.0

    def test_custom_scorers_are_cached_boundedly(self) -> None:
        stemmers = [_Stem() for _ in range(20)]
        for stemmer in stemmers:
            assert single_meteor_score(["dog"], ["cat"], stemmer=stemmer) == 0.5
        assert len(compat._SCORERS) <= compat._MAX_CUSTOM + 1

    def test_generated_golden_slice(self) -> None:
        golden = json.loads(gzip.decompress((GOLDEN / "generated.json.gz").read_bytes()))
        pairs = golden["pairs"][:200]
        assert len(pairs) == 200
        ours = [meteor_score(p["references"], p["hypothesis"]) for p in pairs]
        assert ours == [p["score"] for p in pairs]


class TestErrors:
    def test_string_hypothesis(self) -> None:
        with pytest.raises(TypeError) as caught:
            single_meteor_score(["a"], "a b")
        assert str(caught.value) == (
            '"hypothesis" expects pre-tokenized hypothesis (Iterable[str]): a b'
        )

    def test_string_reference(self) -> None:
        with pytest.raises(TypeError) as caught:
            meteor_score(["a b"], ["a"])
        assert (
            str(caught.value) == '"reference" expects pre-tokenized reference (Iterable[str]): a b'
        )

    def test_no_reference_raises_from_max(self) -> None:
        with pytest.raises(ValueError, match="max"):
            meteor_score([], ["a"])

    def test_wordnet_without_synsets(self) -> None:
        with pytest.raises(TypeError, match=r"wordnet: expected an object with synsets\(word\)"):
            single_meteor_score(["a"], ["a"], wordnet=object())


class TestAlignWords:
    def test_matches_then_unmatched_stems(self) -> None:
        matches, hyp_left, ref_left = align_words(["The", "dogs", "sat"], ["the", "cats", "table"])
        assert matches == [(0, 0)]
        assert hyp_left == [(1, "dog"), (2, "sat")]
        assert ref_left == [(1, "cat"), (2, "tabl")]  # Porter's stem of "table"

    def test_synonyms_match_through_the_shipped_wordnet(self) -> None:
        assert align_words(["sat"], ["sit"])[0] == [(0, 0)]

    def test_rejects_strings(self) -> None:
        with pytest.raises(TypeError, match='"hypothesis" expects pre-tokenized'):
            align_words("a b", ["a"])
