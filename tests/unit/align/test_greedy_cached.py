"""Cached functions ``(cache, compute, limit)`` as the greedy alignment's stemmer and synonyms.

The compiled kernel computes a word the cache lacks by ``compute`` and stores it, clearing the
cache first when it holds ``limit`` words (the nltk flavour's ``__missing__`` rule, without its
Python frame); the pure-Python twin does the same. Both must give the matches of the plain
functions, call ``compute`` for the same words in the same order and leave the same caches.
"""

from __future__ import annotations

import random

import pytest

from meteor_eval.align import greedy
from meteor_eval.align.greedy import greedy_align, greedy_align_python, greedy_counts
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
    assert greedy_counts(["large"], ["big"], stem=({}, stem, 9), synonyms=({}, synonyms, 9)) == (
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
