"""The alignment types' objectives: hand-checked weights and choices, the folded maxacc order,
and the compiled and pure-Python searches agreeing on it.

The jar-verified end-to-end check is ``tests/reference/test_matcher_stemmer_golden.py``.
"""

from __future__ import annotations

import random

import pytest

from meteor_eval.align import search
from meteor_eval.align.objective import choose_matches, objective_weights
from meteor_eval.align.search import beam_align_compiled, beam_align_python
from meteor_eval.alignments import TextAligner
from meteor_eval.errors import ConfigError
from meteor_eval.match.base import CandidateStore, Match
from meteor_eval.metrics.meteor import MeteorConfig

MODULES = ("exact", "stem", "synonym", "paraphrase")


def test_weights_by_type() -> None:
    assert objective_weights(MODULES, "maxcov", hyp_len=5, ref_len=6) == (1.0, 0.5, 0.5, 0.5)
    # maxacc: word-level modules get hyp_len + ref_len + 1 = 12, paraphrase 1.
    assert objective_weights(MODULES, "maxacc", hyp_len=5, ref_len=6) == (12.0, 12.0, 12.0, 1.0)
    assert objective_weights(("paraphrase", "exact"), "maxacc", hyp_len=0, ref_len=0) == (1.0, 1.0)
    with pytest.raises(ConfigError, match="maxcov, maxacc"):
        objective_weights(MODULES, "best", hyp_len=1, ref_len=1)  # type: ignore[arg-type]


def _words(matches: list[Match], weights: tuple[float, ...]) -> int:
    return sum(
        int(m.hyp_len * weights[m.stage]) + int(m.ref_len * weights[m.stage]) for m in matches
    )


@pytest.mark.parametrize("seed", range(5))
def test_folded_maxacc_orders_as_word_level_then_all_words(seed: int) -> None:
    # The jar ranks by (words covered by exact/stem/synonym, all words covered); the folded
    # weights must order any two alignments of the same pair the same way.
    rng = random.Random(seed)
    for _ in range(500):
        n_hyp, n_ref = rng.randint(1, 12), rng.randint(1, 12)
        weights = objective_weights(MODULES, "maxacc", hyp_len=n_hyp, ref_len=n_ref)
        keys = []
        for _ in range(2):
            matches, hyp_free, ref_free = [], list(range(n_hyp)), list(range(n_ref))
            rng.shuffle(hyp_free)
            rng.shuffle(ref_free)
            while hyp_free and ref_free and rng.random() < 0.8:
                matches.append(Match(ref_free.pop(), 1, hyp_free.pop(), 1, rng.randrange(4)))
            word_level = sum(2 for m in matches if m.stage != 3)
            keys.append(((word_level, 2 * len(matches)), _words(matches, weights)))
        (lex_a, folded_a), (lex_b, folded_b) = keys
        assert (lex_a > lex_b) == (folded_a > folded_b)
        assert (lex_a == lex_b) == (folded_a == folded_b)


def _esn() -> TextAligner:
    config = MeteorConfig.preset("meteor15", modules=("exact", "stem", "synonym"))
    return TextAligner(config, "maxcov")


def test_maxcov_and_maxacc_differ_as_the_jar_does() -> None:
    # Checked with `java -cp meteor-1.5.jar Matcher - - -stdio -m "exact stem synonym" -t T` on
    # "running dogs quickly ||| the dog ran quick": maxcov keeps only the synonym (one-word
    # stem and synonym matches add nothing to its objective, and one chunk beats three), maxacc
    # covers every word it can (weight 1 for stem and synonym).
    config = MeteorConfig.preset("meteor15", modules=("exact", "stem", "synonym"))
    cov = TextAligner(config, "maxcov").align("running dogs quickly", "the dog ran quick")
    acc = TextAligner(config, "maxacc").align("running dogs quickly", "the dog ran quick")
    assert cov.pairs() == [("running", "ran", "synonym")]
    assert cov.chunks == 1
    assert acc.pairs() == [
        ("dogs", "dog", "stem"),
        ("running", "ran", "synonym"),
        ("quickly", "quick", "stem"),
    ]
    assert [(m.ref_start, m.hyp_start, m.stage) for m in acc.matches] == [
        (1, 1, 1),
        (2, 0, 2),
        (3, 2, 1),
    ]
    assert acc.chunks == 3


def test_maxcov_is_the_scorers_alignment() -> None:
    aligner = _esn()
    hyp, ref = aligner.meteor.segment("the cats sat down"), aligner.meteor.segment("a cat sat")
    assert list(aligner.align_segments(hyp, ref).matches) == aligner.meteor.align(hyp, ref)


def test_beam_below_one_keeps_only_the_fixed_matches() -> None:
    # "a" is ambiguous (two hypothesis copies), "b" is a one-to-one match: the jar's -x 0 keeps b.
    stage = [Match(0, 1, 0, 1, 0), Match(0, 1, 2, 1, 0), Match(1, 1, 1, 1, 0)]
    chosen = choose_matches([stage], ("exact",), hyp_len=3, ref_len=2, kind="maxcov", beam=0)
    assert chosen == [Match(1, 1, 1, 1, 0)]
    full = choose_matches([stage], ("exact",), hyp_len=3, ref_len=2, kind="maxcov", beam=40)
    assert full == [Match(0, 1, 0, 1, 0), Match(1, 1, 1, 1, 0)]


def test_maxacc_needs_the_meteor15_flavour() -> None:
    with pytest.raises(ConfigError, match="paper2005"):
        TextAligner(MeteorConfig.preset("paper2005"), "maxacc")


@pytest.mark.skipif(search._compiled_align is None, reason="the compiled search is not built")
@pytest.mark.parametrize("seed", range(4))
def test_compiled_and_python_searches_agree_on_maxacc(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(300):
        n_hyp, n_ref = rng.randint(1, 16), rng.randint(1, 16)
        store = CandidateStore(n_hyp, n_ref)
        for j in range(n_ref):
            while rng.random() < 0.6:
                ref_len = 1 if rng.random() < 0.7 else rng.randint(1, min(3, n_ref - j))
                hyp_start = min(n_hyp - 1, max(0, j + rng.randint(-3, 3)))
                hyp_len = 1 if rng.random() < 0.7 else rng.randint(1, min(3, n_hyp - hyp_start))
                store.add(Match(j, ref_len, hyp_start, hyp_len, rng.randrange(4)))
        weights = objective_weights(MODULES, "maxacc", hyp_len=n_hyp, ref_len=n_ref)
        beam = rng.choice((1, 2, 5, 40))
        expected = beam_align_python(store, weights, beam=beam)
        assert beam_align_compiled(store, weights, beam=beam) == expected
