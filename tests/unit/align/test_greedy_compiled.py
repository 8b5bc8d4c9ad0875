"""The compiled NLTK greedy alignment (``_ext/greedy.c``) against the pure-Python one.

Same matches, in the same order, on random sentences over a small vocabulary whose words share
stems and synonyms; the stemmer and the synonym function must be asked about the same words
(they are caches that fill on first sight). Errors raised by either callable propagate.
"""

from __future__ import annotations

import random

import pytest

from meteor_eval.align import greedy
from meteor_eval.align.greedy import greedy_align, greedy_align_python

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
