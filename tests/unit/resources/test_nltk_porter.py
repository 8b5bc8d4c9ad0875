"""NLTK's Porter stemmer (mode NLTK_EXTENSIONS) reimplemented in ``resources.nltk_porter``.

Hand cases come from Porter (1980) and NLTK's documented extensions. The vocabulary digests in
``tests/reference/golden/nltk/porter.json`` were computed with NLTK 3.10.4's ``PorterStemmer()``
by ``python scripts/make_nltk_golden.py``; the oracle test repeats the comparison word by word.
"""

from __future__ import annotations

import importlib.util
import json
import pickle
from pathlib import Path

import make_nltk_golden
import pytest

from fakes import PORTER_PAPER_STEMS
from meteor_eval.resources.nltk_porter import (
    NltkPorterStemmer,
    nltk_porter_spec,
    nltk_porter_stemmer,
)

ROOT = Path(__file__).resolve().parents[3]
PORTER_GOLDEN = ROOT / "tests" / "reference" / "golden" / "nltk" / "porter.json"
XRAY = ROOT.parent / "shared" / "data" / "meteor15"


@pytest.mark.parametrize(
    ("word", "stem"),
    [
        # Porter (1980), steps 1a to 5b
        *PORTER_PAPER_STEMS,
        ("hopping", "hop"),
        ("falling", "fall"),
        ("filing", "file"),
        ("hopefulness", "hope"),
        ("electrical", "electr"),
        ("adjustment", "adjust"),
        ("adoption", "adopt"),
        ("controlling", "control"),
        ("probate", "probat"),
        ("cease", "ceas"),
    ],
)
def test_porter_paper_examples(word: str, stem: str) -> None:
    assert nltk_porter_stemmer().stem(word) == stem


@pytest.mark.parametrize(
    ("word", "stem"),
    [
        ("skies", "sky"),  # irregular-form table
        ("dying", "die"),
        ("innings", "inning"),
        ("proceed", "proceed"),
        ("dies", "die"),  # four-letter -ies -> -ie
        ("flies", "fli"),
        ("died", "die"),  # -ied -> -ie / -i
        ("spied", "spi"),
        ("enjoy", "enjoy"),  # y -> i only after a consonant that is not the whole stem
        ("by", "by"),
        ("spy", "spi"),
        ("generously", "gener"),  # -ousli handled in step 2, then step 4
        ("radically", "radic"),  # -alli -> -al first, step 2 again
        ("geology", "geolog"),  # -logi measured with its l
        ("hopefully", "hope"),  # -fulli -> -ful
        ("Running", "run"),  # lower-cased first
        ("AB", "ab"),  # two characters: only lower-cased
    ],
)
def test_nltk_extensions(word: str, stem: str) -> None:
    assert nltk_porter_stemmer().stem(word) == stem


def test_length_rule_counts_characters_before_lower_casing() -> None:
    # "İ" lower-cases to two characters; NLTK measures the word as given (length 2: unstemmed).
    assert nltk_porter_stemmer().stem("İs") == "İs".lower()


def test_literal_star_d_quirk_of_step_1b() -> None:
    assert nltk_porter_stemmer().stem("xa*ded") == "xad"


def test_without_lower_casing_upper_case_letters_are_consonants() -> None:
    stemmer = NltkPorterStemmer()
    assert stemmer.stem("CATS", to_lowercase=False) == "CATS"
    assert stemmer.stem("Cats", to_lowercase=False) == "Cat"


def test_shared_instance_pickles_as_itself() -> None:
    stemmer = nltk_porter_stemmer()
    assert pickle.loads(pickle.dumps(stemmer)) is stemmer
    assert stemmer("running") == "run"


def test_spec_identifies_the_rules() -> None:
    spec = nltk_porter_spec()
    assert spec.name == "porter-nltk"
    assert spec.short_id.startswith("porter-nltk-en-3.10-")


def wordnet_vocabulary() -> list[str]:
    """The WordNet vocabulary of the golden digests (the recording script's own function)."""
    return make_nltk_golden.porter_vocabulary_wordnet()


def digest(words: list[str]) -> str:
    return make_nltk_golden.stem_digest(words, NltkPorterStemmer().stem)


def test_wordnet_vocabulary_digest_equals_nltk_golden() -> None:
    golden = json.loads(PORTER_GOLDEN.read_text(encoding="utf-8"))
    words = wordnet_vocabulary()
    assert len(words) == golden["wordnet_words"]
    assert digest(words) == golden["wordnet_sha256"]


def xray_vocabulary() -> list[str]:
    """The xray vocabulary of the golden digests (the recording script's own function)."""
    from meteor_eval.text.nltk_tokenize import nltk_word_tokenize

    if not XRAY.is_dir():
        pytest.skip("../shared/data/meteor15 is not available")
    return make_nltk_golden.porter_vocabulary_xray(nltk_word_tokenize)


def test_xray_vocabulary_digest_equals_nltk_golden() -> None:
    golden = json.loads(PORTER_GOLDEN.read_text(encoding="utf-8"))
    words = xray_vocabulary()
    assert len(words) == golden["xray_words"]
    assert digest(words) == golden["xray_sha256"]


@pytest.mark.oracle
@pytest.mark.slow
def test_every_word_equals_live_nltk() -> None:
    if importlib.util.find_spec("nltk") is None:
        pytest.skip("nltk is not installed")
    from nltk.stem.porter import PorterStemmer

    theirs = PorterStemmer()
    ours = NltkPorterStemmer()
    words = wordnet_vocabulary() + xray_vocabulary() + ["a*ding", "yyyy", "İİİ", "ıs", ""]
    mismatches = [w for w in words if ours.stem(w) != theirs.stem(w)]
    assert mismatches == []
    sample = words[::11]
    assert [ours.stem(w, to_lowercase=False) for w in sample] == [
        theirs.stem(w, to_lowercase=False) for w in sample
    ]
