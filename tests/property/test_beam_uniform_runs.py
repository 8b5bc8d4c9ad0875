"""The compiled beam search's quiet runs against the pure-Python reference.

At a reference position where no candidate but a fixed match starts, every path has one
successor and no bit changes. ``_ext/beam.c`` runs a stretch of such positions at once when the
kept paths share their next position and their open chunk's end (``uniform_run()``): one delta
added to every key, the order unchanged, no cut. These tests draw stores that make such stretches
(fixed matches in runs that continue each other's chunk or break it, uncovered words, fixed
matches of several words) between ambiguous positions whose paths leave different open chunks
(so that the paths are not in step and the run must be refused) and multi-word candidates that
cover the next positions of some paths only. Each alignment must be exactly
:func:`beam_align_python`'s, ties included, also through ``align_stages``.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fakes import (
    BEAM_WEIGHT_SETS,
    JAR_WEIGHTS,
    assert_beams_agree,
    assert_stage_lists_agree,
    needs_compiled_beam,
)
from meteor_eval.match.base import CandidateStore, Match

pytestmark = needs_compiled_beam

WEIGHT_SETS = st.sampled_from(BEAM_WEIGHT_SETS)

BEAMS = st.one_of(st.integers(1, 12), st.sampled_from([40, 64, 65]))


def _quiet_store(rnd: random.Random, n_ref: int, ambiguous: float, gap: float) -> CandidateStore:
    """Mostly fixed matches along the diagonal (one word, or two to three words on either
    side), uncovered reference words, and ambiguous positions: two to five candidates on
    hypothesis words near the diagonal (some continuing the chunk, some not), sometimes of
    several reference words so that later positions are used by some paths only."""
    n_hyp = n_ref + rnd.randint(0, 8)
    store = CandidateStore(n_hyp, n_ref)
    hyp_at = 0  # next unused hypothesis word for a fixed match
    j = 0
    while j < n_ref:
        roll = rnd.random()
        if roll < gap:  # nothing at j (an uncovered word unless a longer candidate covers it)
            j += 1
            hyp_at += rnd.randint(0, 1)
            continue
        if roll < gap + ambiguous:
            for _ in range(rnd.randint(2, 5)):
                ref_len = 1 if rnd.random() < 0.7 else rnd.randint(1, min(3, n_ref - j))
                hyp_start = min(n_hyp - 1, max(0, hyp_at + rnd.randint(-2, 3)))
                hyp_len = 1 if rnd.random() < 0.8 else rnd.randint(1, min(3, n_hyp - hyp_start))
                store.add(Match(j, ref_len, hyp_start, hyp_len, rnd.randrange(4)))
            j += 1
            hyp_at += 1
            continue
        # a fixed match, if its words are left alone (often continuing the open chunk)
        if hyp_at >= n_hyp:
            j += 1
            continue
        ref_len = 1 if rnd.random() < 0.8 else rnd.randint(1, min(3, n_ref - j))
        hyp_len = 1 if rnd.random() < 0.8 else rnd.randint(1, min(3, n_hyp - hyp_at))
        if rnd.random() < 0.2:  # break the chunk: skip a hypothesis word
            hyp_at = min(n_hyp - 1, hyp_at + 1)
            hyp_len = min(hyp_len, n_hyp - hyp_at)
        store.add(Match(j, ref_len, hyp_at, hyp_len, rnd.randrange(4)))
        j += ref_len
        hyp_at += hyp_len
    return store


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(1, 140),
    st.sampled_from((0.05, 0.2, 0.4)),
    st.sampled_from((0.0, 0.1, 0.3)),
    st.integers(0, 2**32 - 1),
    WEIGHT_SETS,
    BEAMS,
)
def test_quiet_stretches(
    n_ref: int, ambiguous: float, gap: float, seed: int, weights: tuple[float, ...], beam: int
) -> None:
    store = _quiet_store(random.Random(seed), n_ref, ambiguous, gap)
    assert_beams_agree(store, weights, beam)
    assert_stage_lists_agree(store, weights, beam)


def test_paths_out_of_step_after_an_uncovered_word() -> None:
    """A two-word candidate covers the word after an ambiguous position in some paths only, and
    the next word has no candidate: the paths differ in their next position there, so the
    quiet positions after it must be run path by path until a fixed match brings them in step;
    then the open chunks of the paths differ at a fixed match that continues one of them."""
    store = CandidateStore(10, 10)
    store.add(Match(0, 1, 0, 1, 0))  # fixed
    store.extend([Match(1, 2, 1, 2, 0), Match(1, 1, 1, 1, 1), Match(1, 1, 2, 1, 0)])
    # position 2: covered by the first candidate of position 1 only; 3: uncovered
    store.add(Match(4, 1, 3, 1, 0))  # fixed, continues the two-word candidate's chunk
    store.add(Match(5, 1, 4, 1, 2))  # fixed, continues
    store.add(Match(7, 2, 6, 2, 0))  # fixed, two words each side, after an uncovered word
    store.extend([Match(9, 1, 8, 1, 0), Match(9, 1, 9, 1, 1)])
    for weights in (JAR_WEIGHTS, (1.0,) * 4, (0.0,) * 4):
        for beam in range(1, 8):
            assert_beams_agree(store, weights, beam)
            assert_stage_lists_agree(store, weights, beam)


def test_a_quiet_tail_reorders_nothing_but_closes_chunks() -> None:
    """Ambiguous positions first, then only fixed matches and uncovered words to the end: the
    last stretch runs at once, and the final pick (chunks closed, first among equals) must be
    the one the step by step search makes."""
    rng = random.Random(11)
    for _ in range(200):
        n = rng.randint(4, 30)
        store = CandidateStore(n + 2, n)
        split = rng.randint(1, n - 1)
        for j in range(split):
            for _ in range(rng.randint(1, 3)):
                store.add(Match(j, 1, min(n + 1, max(0, j + rng.randint(-1, 2))), 1, 0))
        for j in range(split, n):
            if rng.random() < 0.7:
                store.add(Match(j, 1, j + 2, 1, rng.randrange(4)))
        for weights in (JAR_WEIGHTS, (1.0,) * 4):
            beam = rng.choice((1, 2, 3, 40))
            assert_beams_agree(store, weights, beam)
            assert_stage_lists_agree(store, weights, beam)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(2, 60),
    st.sampled_from((0.2, 0.4)),
    st.integers(0, 2**32 - 1),
    WEIGHT_SETS,
    BEAMS,
)
def test_understated_coverage_leaves_paths_out_of_step(
    n_ref: int, ambiguous: float, seed: int, weights: tuple[float, ...], beam: int
) -> None:
    """Reference words whose coverage count is understated (0 or 1 although candidates cover
    them more often): a quiet position then no longer brings every path in step (a longer
    candidate covers it in some paths), so the run's own check of the paths must refuse it.
    ``align`` takes the counts as given; Python's search reads the same store."""
    rnd = random.Random(seed)
    store = _quiet_store(rnd, n_ref, ambiguous, 0.2)
    for j in range(n_ref):
        if store.ref_coverage[j] > 0 and rnd.random() < 0.3:
            store.ref_coverage[j] = rnd.randint(0, min(1, store.ref_coverage[j] - 1))
    assert_beams_agree(store, weights, beam)


def test_a_two_word_candidate_over_an_uncounted_word() -> None:
    """The smallest case of the test above: reference word 1 is covered by a two-word candidate
    of position 0 but counted as uncovered, so after position 1 the path that chose it has its
    chunk open and the others not; at position 2 (uncovered) only that path closes a chunk,
    which decides between paths tied on the objective."""
    store = CandidateStore(6, 6)
    store.extend([Match(0, 2, 0, 2, 0), Match(0, 1, 0, 1, 1), Match(0, 1, 1, 1, 2)])
    store.extend([Match(3, 1, 3, 1, 0), Match(3, 1, 2, 1, 1)])
    store.extend([Match(4, 1, 4, 1, 0), Match(4, 1, 3, 1, 3)])
    store.ref_coverage[1] = 0  # understated: Match(0, 2, ...) covers it
    for weights in ((0.0,) * 4, JAR_WEIGHTS, (1.0,) * 4):
        for beam in range(1, 8):
            assert_beams_agree(store, weights, beam)
