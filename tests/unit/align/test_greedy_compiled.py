"""The compiled NLTK greedy alignment (``_ext/greedy.c``) against the pure-Python one.

Same matches, in the same order, on random sentences over a small vocabulary whose words share
stems and synonyms; the stemmer and the synonym function must be asked about the same words
(they are caches that fill on first sight). Errors raised by either callable propagate.

The stemmer and the synonyms may also be cached functions ``(cache, compute, limit)``: the
kernel computes a word the cache lacks by ``compute`` and stores it, clearing the cache first
when it holds ``limit`` words (the nltk flavour's ``__missing__`` rule, without its Python
frame); the pure-Python twin does the same. Both must give the matches of the plain functions,
call ``compute`` for the same words in the same order and leave the same caches.
"""

from __future__ import annotations

import random
from types import MappingProxyType

import pytest

from meteor_eval.align import greedy
from meteor_eval.align.greedy import (
    greedy_align,
    greedy_align_python,
    greedy_counts_function,
    match_counts,
)
from meteor_eval.metrics.meteor import nltk as flavour

pytestmark = pytest.mark.skipif(greedy._KERNEL is None, reason="compiled extension not built")

WORDS = ["cat", "cats", "dog", "dogs", "big", "large", "run", "runs", "ran", "the", "a", "x"]
SYNONYMS = {"big": {"big", "large"}, "larg": {"large", "big"}, "run": {"run", "ran", "dog"}}


def stem(word: str) -> str:
    return word[:-1] if word.endswith("s") else ("larg" if word == "large" else word)


def synonyms(word: str) -> frozenset[str]:
    return frozenset(SYNONYMS.get(word, {word}))


def recording(function, calls: list[str]):  # type: ignore[no-untyped-def]
    def wrapped(word: str):  # type: ignore[no-untyped-def]
        calls.append(word)
        return function(word)

    return wrapped


@pytest.mark.parametrize("stages", [0, 1, 2])
def test_compiled_equals_python(stages: int) -> None:
    rng = random.Random(stages)
    for _ in range(3000):
        hyp = [rng.choice(WORDS) for _ in range(rng.randint(0, 14))]
        ref = [rng.choice(WORDS) for _ in range(rng.randint(0, 14))]
        calls_c: list[str] = []
        calls_py: list[str] = []
        kwargs_c = {
            "stem": recording(stem, calls_c) if stages >= 1 else None,
            "synonyms": recording(synonyms, calls_c) if stages >= 2 else None,
        }
        kwargs_py = {
            "stem": recording(stem, calls_py) if stages >= 1 else None,
            "synonyms": recording(synonyms, calls_py) if stages >= 2 else None,
        }
        got = greedy_align(hyp, ref, **kwargs_c)
        assert got == greedy_align_python(hyp, ref, **kwargs_py)
        assert sorted(calls_c) == sorted(calls_py)


def test_examples_and_errors() -> None:
    assert greedy_align(["the", "cats", "sat"], ["a", "cat", "sat", "the"], stem=stem) == [
        (0, 3, 0),
        (1, 1, 1),
        (2, 2, 0),
    ]
    # Synonyms run on the stems: "large" -> "larg" has the names {large, big}.
    assert greedy_align(["large"], ["big"], stem=stem, synonyms=synonyms) == [(0, 0, 2)]
    assert greedy_align((), ("a",), stem=stem) == []

    def broken(word: str) -> str:
        raise RuntimeError(f"cannot stem {word}")

    with pytest.raises(RuntimeError, match="cannot stem"):
        greedy_align(["a"], ["b"], stem=broken)
    with pytest.raises(TypeError):
        greedy_align(["a"], ["b"], stem=stem, synonyms=lambda w: 3)  # type: ignore[arg-type, return-value]


class _Cache(dict[str, object]):
    """A per-word cache like NltkMeteor's: computes and stores on a miss, records the misses."""

    def __init__(self, function, misses: list[str]) -> None:  # type: ignore[no-untyped-def]
        super().__init__()
        self.function = function
        self.misses = misses

    def __missing__(self, word: str) -> object:
        self.misses.append(word)
        value = self[word] = self.function(word)
        return value


class _Word(str):
    """A str subclass: the compiled scan must then compare with ``==``, not by hash."""


@pytest.mark.parametrize("stages", [0, 1, 2])
@pytest.mark.parametrize("tokens", ["str", "subclass"])
def test_counts_with_caches_equal_python(stages: int, tokens: str) -> None:
    """greedy_counts_function with dict caches (looked up in C, __missing__ on a miss) gives the
    counts of the pure-Python matches, and each cache misses once per word, as the functions
    would be called once per word by a caching caller."""
    rng = random.Random(10 + stages)
    misses: list[str] = []
    stems = _Cache(stem, misses)
    names = _Cache(synonyms, misses)
    wrap = _Word if tokens == "subclass" else str
    for _ in range(2000):
        hyp = [wrap(rng.choice(WORDS)) for _ in range(rng.randint(0, 14))]
        ref = [wrap(rng.choice(WORDS)) for _ in range(rng.randint(0, 14))]
        stem_arg = stems if stages >= 1 else None
        names_arg = names if stages >= 2 else None
        expected = greedy_align_python(
            hyp,
            ref,
            stem=stem if stages >= 1 else None,
            synonyms=synonyms if stages >= 2 else None,
        )
        assert greedy_counts_function(stem_arg, names_arg)(hyp, ref) == match_counts(expected)
        assert greedy_align(hyp, ref, stem=stem_arg, synonyms=names_arg) == expected
    assert len(misses) == len(set(stems)) + len(set(names))
    assert (len(stems) > 0) == (stages >= 1) and (len(names) > 0) == (stages >= 2)


def test_counts_hand_computed_and_mappings() -> None:
    # the (0, 3), (1, 1), (2, 2) matches: two exact, one stem; runs (1, 1)-(2, 2) and (0, 3)
    assert greedy_counts_function(stem)(["the", "cats", "sat"], ["a", "cat", "sat", "the"]) == (
        2,
        1,
        0,
        2,
    )
    exact_only = greedy_counts_function()
    assert exact_only(["a", "b", "c"], ["a", "b", "c"]) == (3, 0, 0, 1)
    assert exact_only([], ["a"]) == (0, 0, 0, 0)
    assert greedy_counts_function(stem, synonyms)(["large", "x"], ["big", "x"]) == (
        1,
        0,
        1,
        1,
    )
    # a read-only mapping (not a dict, not callable) is indexed
    table = MappingProxyType({"cats": "cat", "cat": "cat", "a": "a", "the": "the"})
    assert greedy_counts_function(table)(["cats"], ["a", "cat"]) == (0, 1, 0, 1)
    assert greedy_align_python(["cats"], ["a", "cat"], table, None) == [(0, 1, 1)]
    with pytest.raises(KeyError, match="dog"):
        greedy_counts_function(table)(["dog"], ["cat"])
    with pytest.raises(TypeError, match="4 or 5 arguments"):
        greedy._KERNEL.greedy_counts(["a"], ["a"], None)  # type: ignore[union-attr]


def test_greedy_counts_is_a_deprecated_spelling_of_the_bound_function() -> None:
    hyp, ref = ["the", "cats", "sat"], ["a", "cat", "sat", "the"]
    with pytest.warns(DeprecationWarning, match="greedy_counts_function"):
        assert greedy.greedy_counts(hyp, ref, stem=stem) == (2, 1, 0, 2)
    with (
        pytest.warns(DeprecationWarning, match="deprecated"),
        pytest.raises(TypeError, match="stems"),
    ):
        greedy.greedy_counts(hyp, ref, stems=stem)


# Raw lemma names: some with "_", which NLTK drops; the stem itself is not always listed.
RAW_NAMES = {
    "big": {"big", "large", "big_deal"},
    "larg": {"big", "great_big"},
    "run": {"ran", "dog", "run_away"},
    "x": {"x_ray", "the"},
}
UNDERSCORED = [*WORDS, "big_deal", "x_ray", "run_away"]


def raw_names(word: str) -> frozenset[str]:
    return frozenset(RAW_NAMES.get(word, ()))


def filtered(word: str) -> frozenset[str]:
    return frozenset([name for name in raw_names(word) if "_" not in name] + [word])


@pytest.mark.parametrize("compiled", [True, False])
def test_raw_names_match_like_the_filtered_sets(compiled: bool) -> None:
    """raw_names=True with raw lemma names gives the matches of NLTK's filtered sets (names
    without "_", plus the stem), compiled and in Python, also when a token holds "_"."""
    rng = random.Random(77)
    align = greedy_align if compiled else greedy_align_python
    for _ in range(3000):
        hyp = [rng.choice(UNDERSCORED) for _ in range(rng.randint(0, 12))]
        ref = [rng.choice(UNDERSCORED) for _ in range(rng.randint(0, 12))]
        expected = greedy_align_python(hyp, ref, stem=stem, synonyms=filtered)
        got = align(hyp, ref, stem=stem, synonyms=raw_names, raw_names=True)
        assert got == expected
        if compiled:
            counts = greedy_counts_function(stem, raw_names, raw_names=True)
            assert counts(hyp, ref) == match_counts(expected)
    # "x" lists "x_ray" (dropped) and "the" (kept): hand-computed
    assert greedy_align(["x"], ["x_ray", "the"], stem=stem, synonyms=raw_names, raw_names=True) == [
        (0, 1, 2)
    ]
    with pytest.raises(TypeError, match="must be a str"):
        greedy_align([1], [2], stem=lambda w: w, synonyms=lambda w: {2}, raw_names=True)  # type: ignore[list-item, arg-type, return-value]


@pytest.mark.parametrize("limit", [0, 1, 2, 3, 5, 100])
def test_cached_functions_compiled_python_and_plain_agree(limit: int) -> None:
    rng = random.Random(limit)
    caches_c: tuple[dict[str, object], dict[str, object]] = ({}, {})
    caches_py: tuple[dict[str, object], dict[str, object]] = ({}, {})
    for _ in range(2000):
        hyp = [rng.choice(WORDS) for _ in range(rng.randint(0, 12))]
        ref = [rng.choice(WORDS) for _ in range(rng.randint(0, 12))]
        calls_c: list[str] = []
        calls_py: list[str] = []
        stem_c = (caches_c[0], recording(stem, calls_c), limit)
        names_c = (caches_c[1], recording(synonyms, calls_c), limit)
        stem_py = (caches_py[0], recording(stem, calls_py), limit)
        names_py = (caches_py[1], recording(synonyms, calls_py), limit)
        expected = greedy_align_python(hyp, ref, stem=stem, synonyms=synonyms)
        assert greedy_align(hyp, ref, stem=stem_c, synonyms=names_c) == expected
        assert greedy_align_python(hyp, ref, stem=stem_py, synonyms=names_py) == expected
        assert calls_c == calls_py
        assert caches_c == caches_py
        assert all(len(cache) <= max(limit, 1) for cache in caches_c)
    assert greedy_counts_function(({}, stem, 9), ({}, synonyms, 9))(["large"], ["big"]) == (
        0,
        0,
        1,
        1,
    )


def test_cached_function_errors() -> None:
    def broken(word: str) -> str:
        raise RuntimeError(f"cannot stem {word}")

    cache: dict[str, str] = {}
    with pytest.raises(RuntimeError, match="cannot stem"):
        greedy_align(["a"], ["b"], stem=(cache, broken, 10))
    assert cache == {}
    with pytest.raises(TypeError, match="must be a dict"):
        greedy_align(["a"], ["b"], stem=([], stem, 10))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        greedy_align(["a"], ["b"], stem=({}, stem, "ten"))  # type: ignore[arg-type]


def test_flavour_scores_with_a_tiny_cache_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(7)
    words = (
        "the cats sat on a mat dogs ran big large running runs quickly quick house homes".split()
    )
    pairs = [
        (
            [rng.choice(words) for _ in range(rng.randint(1, 10))],
            [rng.choice(words) for _ in range(rng.randint(1, 10))],
        )
        for _ in range(300)
    ]
    expected = [flavour.NltkMeteor().pair_counts(h, r) for h, r in pairs]
    monkeypatch.setattr(flavour, "_CACHE_LIMIT", 3)
    scorer = flavour.NltkMeteor()
    counts = scorer.counts_function()  # made before WordNet is loaded: the cache itself
    assert [counts(h, r) for h, r in pairs] == expected
    assert [scorer.pair_counts(h, r) for h, r in pairs] == expected
    assert len(scorer._stem_cache) <= 3 and len(scorer._names_cache) <= 3


def test_counts_function_kept_once_wordnet_is_loaded() -> None:
    scorer = flavour.NltkMeteor()
    first = scorer.counts_function()
    assert first(["sat"], ["sits"]) == (0, 0, 1, 1)  # loads WordNet through the cache
    assert scorer.counts_function() is not first
    kept = scorer.counts_function()
    assert scorer.counts_function() is kept
    assert kept(["cats", "sat"], ["cat", "sits"]) == first(["cats", "sat"], ["cat", "sits"])
