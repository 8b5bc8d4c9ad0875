"""The fast first-sight paths over the binary WordNet views give the plain algorithm's results.

The shipped binary forms answer a first lookup from precomputed slices (METEOR view: packed
S(t) per key) or from arrays behind a CRC-32 key table (NLTK view: lemma names). The reference
here is the same view built from plain dicts parsed from the text form (regenerated from the
shipped NLTK view, see ``conftest.py``), which runs the spec's algorithm step by step
(exception list or suffix rules, then a union of synset sets). Every key of the tables,
inflected variants of them and random strings are compared.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wordnet_build.text_form import merged_synsets, nltk_tables

from meteor_eval.match.base import Segment
from meteor_eval.match.synonym import SynonymMatcher
from meteor_eval.metrics.meteor import nltk as nltk_meteor
from meteor_eval.metrics.meteor.nltk import NltkMeteor
from meteor_eval.resources.wordnet import (
    MeteorWordNet,
    NltkWordNet,
    WordNetPos,
    meteor_wordnet,
    nltk_wordnet,
)
from meteor_eval.resources.wordnet import meteor as meteor_module
from meteor_eval.resources.wordnet.meteor import _SynsetTable, meteor_exceptions
from meteor_eval.resources.wordnet.nltk import _NltkIndex, nltk_exceptions
from meteor_eval.resources.wordnet.shipped import meteor_sections

if TYPE_CHECKING:
    from wordnet_build.text_form import TextForm

# Endings that exercise every suffix rule of both views (and some that match none).
_ENDINGS = ("s", "es", "ies", "ses", "ves", "xes", "ches", "men", "ed", "ing", "er", "est", "ful")
# Stems with irregular or rule-bound inflections.
_STEMS = ["go", "run", "child", "box", "bus", "cry", "fly", "big", "wolf"]


@pytest.fixture(scope="module")
def plain_meteor(wordnet_text_form: TextForm) -> MeteorWordNet:
    """The METEOR view over dicts parsed from the text form (the step-by-step algorithm)."""
    return MeteorWordNet(
        merged_synsets(wordnet_text_form.text("index.tsv.gz")),
        meteor_exceptions(wordnet_text_form.text("exceptions.tsv.gz")),
    )


@pytest.fixture(scope="module")
def plain_nltk(wordnet_text_form: TextForm) -> NltkWordNet:
    """The NLTK view over dicts parsed from the text form (the step-by-step algorithm)."""
    index, synset_table = nltk_tables(
        wordnet_text_form.text("index.tsv.gz"), wordnet_text_form.text("synsets.tsv.gz")
    )
    exceptions = nltk_exceptions(wordnet_text_form.text("exceptions.tsv.gz"))
    return NltkWordNet(index, synset_table, exceptions)


def _packed(values: frozenset[int]) -> bytes:
    return array("q", sorted(values)).tobytes()


def _variants(words: list[str], step: int) -> Iterator[str]:
    yield from words
    for word in words[::step]:
        for ending in _ENDINGS:
            yield word + ending
        yield word.upper()
        yield word[:-1]


def _vocabulary(*keys: Iterable[str]) -> list[str]:
    """The keys of a plain view's tables, sorted (all of WordNet: over 150,000 words)."""
    words = sorted(set().union(*keys))
    assert len(words) > 150_000
    return words


def _words(alphabet: str, stems: Sequence[str]) -> st.SearchStrategy[str]:
    """A stem, bare or with one of the endings of the suffix rules: short strings of
    ``alphabet``, one of ``stems``, or anything (lone surrogates and non-BMP characters too)."""
    return st.one_of(
        st.text(alphabet=alphabet, max_size=9), st.sampled_from(stems), st.text(max_size=4)
    ).flatmap(lambda stem: st.sampled_from(("", *_ENDINGS)).map(lambda end: stem + end))


@pytest.mark.parametrize(
    ("view", "table", "binary"),
    [(meteor_wordnet, "_synsets", _SynsetTable), (nltk_wordnet, "_index", _NltkIndex)],
    ids=["meteor", "nltk"],
)
def test_view_loads_the_binary_form(view: Callable[[], object], table: str, binary: type) -> None:
    assert isinstance(getattr(view(), table), binary)


def test_meteor_packed_sets_equal_the_plain_algorithm_on_the_vocabulary(
    plain_meteor: MeteorWordNet,
) -> None:
    fast = meteor_wordnet()
    words = _vocabulary(plain_meteor.words(), plain_meteor.exceptions)
    tokens = list(_variants(words, 7))
    got = MeteorWordNet.packed_synonym_sets(fast, tokens)
    assert got == [_packed(plain_meteor.synonym_set(token)) for token in tokens]


def test_meteor_sets_equal_the_plain_algorithm_on_samples(plain_meteor: MeteorWordNet) -> None:
    fast = meteor_wordnet()
    for token in ["went", "axes", "geese", "cats", "churches", "handful", "class", "", "a"]:
        assert fast.synonym_set(token) == plain_meteor.synonym_set(token)
        assert fast.packed_synonym_set(token) == _packed(plain_meteor.synonym_set(token))
        assert fast.morph(token) == plain_meteor.morph(token)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        _words("abcdefghilmnorstuvwxyz-_.'", _STEMS),
        max_size=12,
    )
)
def test_meteor_packed_sets_property(plain_meteor: MeteorWordNet, tokens: list[str]) -> None:
    fast = meteor_wordnet()
    expected = [_packed(plain_meteor.synonym_set(token)) for token in tokens]
    assert fast.packed_synonym_sets(tokens) == expected
    assert [fast.synonym_set(token) for token in tokens] == [
        plain_meteor.synonym_set(token) for token in tokens
    ]


def test_meteor_packed_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    table = _SynsetTable(meteor_sections())
    view = MeteorWordNet(table, {})
    monkeypatch.setattr(meteor_module, "_CACHE_SIZE", 3)
    view.packed_synonym_sets(["dog", "cat", "cow"])
    view.packed_synonym_sets(["dogs", "cats"])
    assert set(view._packed) == {"dogs", "cats"}
    assert view.packed_synonym_set("dogs") == _packed(meteor_wordnet().synonym_set("dogs"))


def test_plain_view_packs_its_own_sets() -> None:
    view = MeteorWordNet({"big": (7, 3), "large": (3,)}, {"bigger": ("big",)})
    assert view.packed_synonym_sets(["bigger", "large", "x"]) == [
        array("q", [3, 7]).tobytes(),
        array("q", [3]).tobytes(),
        b"",
    ]
    with pytest.raises(OverflowError):
        MeteorWordNet({"huge": (1 << 70,)}, {}).packed_synonym_set("huge")


_IDS: dict[str, int] = {}


def _segment(tokens: tuple[str, ...]) -> Segment:
    return Segment(tokens, tuple(_IDS.setdefault(token, len(_IDS)) for token in tokens))


def test_synonym_matcher_takes_packed_sets_from_the_view() -> None:
    wordnet = meteor_wordnet()
    calls: list[tuple[str, ...]] = []

    def packed_sets(tokens: Sequence[str]) -> list[bytes]:
        calls.append(tuple(tokens))
        return wordnet.packed_synonym_sets(tokens)

    by_view = SynonymMatcher(wordnet.synonym_set)
    assert by_view._packed_sets == wordnet.packed_synonym_sets
    explicit = SynonymMatcher(wordnet.synonym_set, packed_sets=packed_sets)
    plain = SynonymMatcher(lambda token: wordnet.synonym_set(token))
    hyp = _segment(("the", "big", "dogs", "went", "home"))
    ref = _segment(("a", "large", "dog", "goes", "house"))
    expected = plain.candidates_python(hyp, ref, 2)
    assert expected  # big~large, went~goes, home~house
    for matcher in (by_view, explicit, plain):
        assert matcher.candidates(hyp, ref, 2) == expected
    if explicit._compiled:
        assert calls


def test_nltk_lemma_names_equal_the_plain_algorithm_on_the_vocabulary(
    plain_nltk: NltkWordNet,
) -> None:
    fast = nltk_wordnet()
    words = _vocabulary(plain_nltk._index, plain_nltk._exception_forms)
    compute: Callable[[str], frozenset[str]] = fast._compute_lemma_names
    reference: Callable[[str], frozenset[str]] = plain_nltk._compute_lemma_names
    mismatches = [word for word in _variants(words, 11) if compute(word) != reference(word)]
    assert mismatches == []


@settings(max_examples=400, deadline=None)
@given(_words("abcdefghilmnorstuvwxyzABC-_.'", [*_STEMS, "ax"]))
def test_nltk_lemma_names_property(plain_nltk: NltkWordNet, word: str) -> None:
    fast = nltk_wordnet()
    assert fast.lemma_names(word) == plain_nltk.lemma_names(word)
    assert fast.synsets(word) == plain_nltk.synsets(word)
    assert fast.morphy(word) == plain_nltk.morphy(word)


def test_nltk_mapping_views_agree_on_pos_lookups(plain_nltk: NltkWordNet) -> None:
    fast = nltk_wordnet()
    for word in ["big", "abaxial", "dog", "run", "well", "better", "no such lemma"]:
        for pos in get_args(WordNetPos):
            assert fast._offsets(word, pos) == plain_nltk._offsets(word, pos)
            assert fast.synsets(word, pos) == plain_nltk.synsets(word, pos)


def test_nltk_meteor_caches_compute_once_and_stay_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[str] = []

    class Stemmer:
        def stem(self, word: str) -> str:
            calls.append(word)
            return word.rstrip("s")

    scorer = NltkMeteor(stemmer=Stemmer())
    assert scorer.stem("cats") == "cat" and scorer.stem("cats") == "cat"
    assert calls == ["cats"]
    assert scorer.synonyms("big") >= {"big", "large"}
    assert scorer.synonyms("big") is scorer.synonyms("big")
    monkeypatch.setattr(nltk_meteor, "_CACHE_LIMIT", 2)
    for word in ("dogs", "cows", "hens"):
        scorer.stem(word)
    assert len(scorer._stem_cache) <= 2
    assert scorer.stem("dogs") == "dog"
