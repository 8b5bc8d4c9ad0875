"""The compiled beam search's shortcuts against the pure-Python reference.

``_ext/beam.c`` ranks successors as packed integers and orders each step's successors by
candidate bucket (an insertion sort per bucket, then a merge stopped at the beam's width), falls
back to one partial sort of every key when a position has more than eight candidates or the beam
keeps more than 64 paths, and updates the paths in place at steps that add no candidate. Each of
these must leave the alignment exactly as :func:`beam_align_python` chooses it, ties included:
these tests draw crowded candidate sets (many candidates per position on a narrow band of the
hypothesis, so that most of them overlap), equal ranks, segments longer than 64 words, beams from
1 to 40 and past 64, and several weight sets (the jar's, all equal, all zero, negative, and gains
too wide to pack, which take the unpacked order).

Quiet runs. At a reference position where no candidate but a fixed match starts, every path has
one successor and no bit changes. ``_ext/beam.c`` runs a stretch of such positions at once when
the kept paths share their next position and their open chunk's end (``uniform_run()``): one
delta added to every key, the order unchanged, no cut. These tests draw stores that make such
stretches (fixed matches in runs that continue each other's chunk or break it, uncovered words,
fixed matches of several words) between ambiguous positions whose paths leave different open
chunks (so that the paths are not in step and the run must be refused) and multi-word candidates
that cover the next positions of some paths only. Each alignment must be exactly
:func:`beam_align_python`'s, ties included, also through ``align_stages``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
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

BEAMS = st.one_of(st.integers(1, 40), st.sampled_from([63, 64, 65, 100, 200]))
# Beams up to 64: the steps' successors stay on the bucket merge.
MERGE_BEAMS = st.one_of(st.integers(1, 40), st.just(64))


@st.composite
def crowded_stores(draw: st.DrawFn) -> CandidateStore:
    """Candidates crowded near the diagonal: up to 14 per position, most of them overlapping.

    Some positions get one candidate on a word no other candidate touches (a fixed match, passed
    through by every path), some none (steps that add nothing), and spans of up to four words on
    either side; segments reach 150 words so that the bit sets span several machine words.
    """
    n_ref = draw(st.integers(1, 150))
    n_hyp = draw(st.integers(1, 150))
    band = draw(st.integers(0, 4))
    store = CandidateStore(n_hyp, n_ref)
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    busy = draw(st.sampled_from((0.3, 0.6, 0.9)))
    crowd = draw(st.sampled_from((3, 8, 14)))
    for j in range(n_ref):
        if rnd.random() > busy:
            continue
        previous: Match | None = None
        for _ in range(rnd.randint(1, crowd)):
            if previous is not None and rnd.random() < 0.1:
                store.add(previous)  # a duplicate, as mirrored paraphrase records give
                continue
            centre = j * n_hyp // n_ref
            hyp_start = min(n_hyp - 1, max(0, centre + rnd.randint(-band, band)))
            ref_len = 1 if rnd.random() < 0.75 else rnd.randint(1, min(4, n_ref - j))
            hyp_len = 1 if rnd.random() < 0.75 else rnd.randint(1, min(4, n_hyp - hyp_start))
            previous = Match(j, ref_len, hyp_start, hyp_len, rnd.randrange(4))
            store.add(previous)
    return store


def _same(store: CandidateStore, weights: tuple[float, ...], beam: int) -> None:
    assert_beams_agree(store, weights, beam)
    assert_stage_lists_agree(store, weights, beam)


def _one_word_store(
    n: int,
    per_position: Callable[[], int],
    hyp_of: Callable[[int, int], int],
    stage: Callable[[], int],
) -> CandidateStore:
    """One-word candidates on ``n`` x ``n`` words: ``per_position()`` of them at each reference
    position ``j``, on hypothesis word ``hyp_of(n, j)``, of stage ``stage()``."""
    store = CandidateStore(n, n)
    for j in range(n):
        for _ in range(per_position()):
            store.add(Match(j, 1, hyp_of(n, j), 1, stage()))
    return store


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(crowded_stores(), WEIGHT_SETS, BEAMS)
def test_crowded_stores(store: CandidateStore, weights: tuple[float, ...], beam: int) -> None:
    _same(store, weights, beam)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 12), st.integers(0, 3), st.integers(1, 6), st.randoms())
def test_ties_on_every_rank(n: int, spread: int, beam: int, rnd: random.Random) -> None:
    """One-word candidates of one weight on a narrow band: paths tie on objective, chunks and
    distance alike, and the cut keeps the earliest generated, as the stable sort does."""
    store = _one_word_store(
        n,
        lambda: rnd.randint(0, 5),
        lambda n, j: min(n - 1, max(0, j + rnd.randint(-spread, spread))),
        lambda: 0,
    )
    for weights in ((0.0,), (0.5,), (1.0,)):
        _same(store, weights * 4, beam)


def test_a_position_with_more_candidates_than_buckets() -> None:
    """Twelve candidates at each position (past the span search's bucket merge of eight; the
    word searches merge them all)."""
    rng = random.Random(4)
    for _ in range(60):
        n = rng.randint(3, 20)
        store = _one_word_store(
            n, lambda: 12, lambda n, _j: rng.randrange(n), lambda: rng.randrange(4)
        )
        _same(store, JAR_WEIGHTS, rng.choice((1, 5, 40)))


def test_positions_with_dozens_of_candidates() -> None:
    """Twenty to sixty candidates at a position on segments of both bit-word layouts: the word
    searches merge that many sorted buckets, many of them empty, to the beam's width."""
    rng = random.Random(20)
    for _ in range(30):
        n = rng.choice((rng.randint(3, 30), rng.randint(65, 90)))
        store = _one_word_store(
            n,
            lambda: rng.choice((0, 1, rng.randint(20, 60))),
            lambda n, j: min(n - 1, max(0, j + rng.randint(-6, 6))),
            lambda: rng.randrange(4),
        )
        _same(store, JAR_WEIGHTS, rng.choice((1, 7, 40, 64)))


@pytest.mark.parametrize("n", [40, 64, 100, 128])
def test_positions_at_the_bucket_merge_limit(n: int) -> None:
    """62 to 66 candidates at some positions (63 to 67 buckets with the skip's: the word
    searches merge up to 64 sorted buckets and sort all keys past that) and beams keeping 63 to
    65 paths (the merge needs at most 64), with one-weight ties and multi-word candidates, on
    segments of both bit-word layouts: each side of both limits must choose the reference's
    alignment."""
    rng = random.Random(n)
    for _ in range(4):
        store = CandidateStore(n, n)
        hot = set(rng.sample(range(n), 4))
        for j in range(n):
            for _ in range(rng.randint(62, 66) if j in hot else rng.choice((0, 1, 2, 3))):
                hyp_start = (j + rng.randrange(8)) % n
                multi = rng.random() < 0.2
                ref_len = rng.randint(1, min(3, n - j)) if multi else 1
                hyp_len = rng.randint(1, min(3, n - hyp_start)) if multi else 1
                store.add(Match(j, ref_len, hyp_start, hyp_len, rng.randrange(2)))
        for weights in (JAR_WEIGHTS, (1.0,) * 4):
            for beam in (1, 63, 64, 65):
                assert_beams_agree(store, weights, beam)


def test_beams_keeping_more_than_64_paths() -> None:
    """Beams of 65 to 300 that fill up: buckets longer than the insertion sort's limit."""
    rng = random.Random(5)
    for _ in range(30):
        n = rng.randint(8, 30)
        store = _one_word_store(
            n,
            lambda: rng.randint(1, 4),
            lambda n, j: min(n - 1, max(0, j + rng.randint(-2, 2))),
            lambda: rng.randrange(4),
        )
        _same(store, JAR_WEIGHTS, rng.choice((65, 100, 300)))


def test_steps_without_candidates_reorder_the_paths() -> None:
    """Gaps after ambiguous positions: a skip closes some paths' chunks and not others', which
    reorders equal objectives at a step that adds no candidate (the in-place update)."""
    store = CandidateStore(6, 8)
    # positions 0 and 1: two ways to match, leaving open chunks ending at different places
    store.extend([Match(0, 1, 0, 1, 0), Match(0, 1, 1, 1, 1)])
    store.extend([Match(1, 1, 1, 1, 1), Match(1, 1, 2, 1, 0)])
    # position 2: nothing; position 3: a fixed match; positions 4-7: more ambiguity after a gap
    store.add(Match(3, 1, 3, 1, 0))
    store.extend([Match(5, 1, 4, 1, 0), Match(5, 1, 5, 1, 2)])
    store.extend([Match(7, 1, 5, 1, 0), Match(7, 1, 4, 1, 3)])
    for weights in (JAR_WEIGHTS, (0.0,) * 4, (1.0,) * 4):
        for beam in range(1, 10):
            _same(store, weights, beam)


@st.composite
def spans_across_bit_word_stores(draw: st.DrawFn) -> CandidateStore:
    """Crowded multi-word candidates around the 64th word of both segments (65 to 140 words).

    A step's candidate whose hypothesis or reference words straddle two machine words takes the
    span test and the span set instead of the one-word masks, beside one-word candidates at the
    same step.
    """
    n_hyp = draw(st.integers(65, 140))
    n_ref = draw(st.integers(65, 140))
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    store = CandidateStore(n_hyp, n_ref)
    for j in range(56, min(n_ref, 72)):
        for _ in range(rnd.randint(0, 6)):
            ref_len = rnd.randint(1, min(5, n_ref - j))
            hyp_start = rnd.randint(56, min(n_hyp, 72) - 1)
            hyp_len = rnd.randint(1, min(5, n_hyp - hyp_start))
            store.add(Match(j, ref_len, hyp_start, hyp_len, rnd.randrange(4)))
    return store


def _near_the_diagonal(
    rnd: random.Random,
    n_hyp: int,
    n_ref: int,
    count: Callable[[], int],
    *,
    spread: int,
    single: float,
    longest: int,
) -> CandidateStore:
    """A store of ``count()`` candidates at each reference word, starting within ``spread`` of
    the diagonal's hypothesis word, of one word a side with probability ``single``, else of
    up to ``longest`` (the segments' last words included)."""
    store = CandidateStore(n_hyp, n_ref)
    for j in range(n_ref):
        for _ in range(count()):
            centre = j * n_hyp // n_ref
            hyp_start = min(n_hyp - 1, max(0, centre + rnd.randint(-spread, spread)))
            room = n_hyp - hyp_start
            hyp_len = 1 if rnd.random() < single else rnd.randint(1, min(longest, room))
            ref_len = 1 if rnd.random() < single else rnd.randint(1, min(longest, n_ref - j))
            store.add(Match(j, ref_len, hyp_start, hyp_len, rnd.randrange(4)))
    return store


@pytest.mark.parametrize(
    ("n_hyp", "n_ref"),
    [
        (64, 64),
        (65, 64),
        (64, 65),
        (1, 64),
        (128, 128),
        (129, 128),
        (128, 129),
        (20, 128),
        (128, 20),
    ],
)
def test_bit_word_layouts(n_hyp: int, n_ref: int) -> None:
    """Segment lengths on either side of the packed searches' layouts (one bit word a segment up
    to 64 words, two up to 128, spans beyond): crowded candidates of up to four words over the
    whole pair, the last words of both segments included, so that a step's masks fall in
    either word or straddle them, and each layout must choose the reference's alignment."""
    rnd = random.Random(n_hyp * 1000 + n_ref)

    def count() -> int:
        return rnd.choice((0, 1, 1, 2, 3, 5))

    for _ in range(4):
        store = _near_the_diagonal(rnd, n_hyp, n_ref, count, spread=3, single=0.7, longest=4)
        for weights in (JAR_WEIGHTS, (1.0,) * 4):
            for beam in (1, 7, 40, 65):
                _same(store, weights, beam)


@pytest.mark.parametrize(
    ("n_hyp", "n_ref"),
    [(63, 63), (63, 65), (65, 63), (64, 127), (127, 64), (127, 128), (128, 127), (128, 128)],
)
def test_merged_steps_on_both_bit_word_layouts(n_hyp: int, n_ref: int) -> None:
    """Steps of one, two and 20 to 40 candidates (two, three and many buckets, each merged into
    the winners as it is taken) on segments either side of 64 words, and of 127 and 128, with
    beams that keep fewer paths than a step's successors, as many, and 63 to 70 (past the
    merge's 64 paths): each must choose the reference's alignment."""
    rnd = random.Random(n_hyp * 1000 + n_ref)

    def count() -> int:  # now and then a crowded position: a merge of many buckets
        return rnd.choice((0, 1, 1, 2, 2, 3, rnd.randint(20, 40) if rnd.random() < 0.1 else 2))

    for _ in range(2):
        store = _near_the_diagonal(rnd, n_hyp, n_ref, count, spread=5, single=0.8, longest=3)
        for weights in (JAR_WEIGHTS, (0.0,) * 4):
            for beam in (1, 2, 3, 63, 64, 70):
                assert_beams_agree(store, weights, beam)


@pytest.mark.parametrize("offset", [0, 62, 63])
def test_understated_coverage_keeps_the_reference_test(offset: int) -> None:
    """Coverage counts that claim a reference word covered once although a longer candidate also
    covers it: that word's single candidate is then fixed, and the longer candidate, whose first
    word is free, must still be refused for its later words (with consistent counts the test of
    a candidate's words after its first can never fail). At offsets 62 and 63 the spans cross
    from one bit word into the next."""
    n = offset + 6
    store = CandidateStore(n, n)
    store.add(Match(offset, 3, offset, 1, 0))  # reference words offset .. offset + 2
    store.add(Match(offset, 1, offset + 1, 1, 0))
    store.add(Match(offset + 2, 1, offset + 2, 1, 0))  # alone at its position
    store.add(Match(offset + 1, 1, offset + 3, 1, 1))
    store.add(Match(offset + 1, 1, offset + 4, 1, 2))
    store.ref_coverage[offset + 2] = 1  # understated: the first candidate covers it too
    for weights in (JAR_WEIGHTS, (1.0,) * 4):
        for beam in (1, 2, 5, 40):
            chosen = assert_beams_agree(store, weights, beam)
            assert Match(offset, 3, offset, 1, 0) not in chosen


# -- quiet runs --------------------------------------------------------------------------------

QUIET_BEAMS = st.one_of(st.integers(1, 12), st.sampled_from([40, 64, 65]))


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
    QUIET_BEAMS,
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
    QUIET_BEAMS,
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


@st.composite
def two_candidate_stores(draw: st.DrawFn) -> CandidateStore:
    """Positions with exactly two candidates each (or none), on a narrow band.

    Such a step files three buckets (two candidates and the skip), which ``_ext/beam.c`` merges
    by taking the smallest of three next keys (``merge_three_w()``) until one bucket is used up,
    then merges the other two. With gains of either sign, zero gains and short beams, any of
    the three buckets can be the first to run out.
    """
    n_ref = draw(st.integers(1, 60))
    n_hyp = draw(st.integers(1, 60))
    band = draw(st.integers(0, 3))
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    busy = draw(st.sampled_from((0.5, 0.8, 1.0)))
    return _banded_store(rnd, n_hyp, n_ref, band, busy, lambda: 2)


def _banded_store(
    rnd: random.Random,
    n_hyp: int,
    n_ref: int,
    band: int,
    busy: float,
    per_position: Callable[[], int],
) -> CandidateStore:
    """Candidates near the diagonal: at each reference position (a share ``busy`` of them),
    ``per_position()`` candidates whose hypothesis start is within ``band`` of the position's
    place on the diagonal, mostly one word long on each side (up to three)."""
    store = CandidateStore(n_hyp, n_ref)
    for j in range(n_ref):
        if rnd.random() > busy:
            continue
        for _ in range(per_position()):
            centre = j * n_hyp // n_ref
            hyp_start = min(n_hyp - 1, max(0, centre + rnd.randint(-band, band)))
            ref_len = 1 if rnd.random() < 0.85 else rnd.randint(1, min(3, n_ref - j))
            hyp_len = 1 if rnd.random() < 0.85 else rnd.randint(1, min(3, n_hyp - hyp_start))
            store.add(Match(j, ref_len, hyp_start, hyp_len, rnd.randrange(4)))
    return store


@st.composite
def long_span_stores(draw: st.DrawFn) -> CandidateStore:
    """Segments of at most 64 words with candidates of any length, up to a whole segment.

    Segments that fit one bit word take masks made directly from a candidate's start and length
    (``load_step_w()`` for one word): spans from the first word, spans ending on the 64th, a
    candidate as long as its segment (a mask of all 64 bits), beside short candidates that share
    their words.
    """
    n_ref = draw(st.one_of(st.just(64), st.integers(1, 64)))
    n_hyp = draw(st.one_of(st.just(64), st.integers(1, 64)))
    store = CandidateStore(n_hyp, n_ref)
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    for _ in range(draw(st.integers(1, 40))):
        ref_start = rnd.choice((0, n_ref - 1, rnd.randrange(n_ref)))
        hyp_start = rnd.choice((0, n_hyp - 1, rnd.randrange(n_hyp)))
        long = rnd.random() < 0.4
        ref_len = rnd.randint(1, n_ref - ref_start) if long else 1
        hyp_len = rnd.randint(1, n_hyp - hyp_start) if long else 1
        if rnd.random() < 0.1:  # as long as both segments
            ref_start, hyp_start = 0, 0
            ref_len, hyp_len = min(n_ref, 255), n_hyp
        store.add(Match(ref_start, min(ref_len, 255), hyp_start, hyp_len, rnd.randrange(4)))
    return store


@st.composite
def four_to_eight_bucket_stores(draw: st.DrawFn) -> CandidateStore:
    """Positions with three to seven candidates each (or none), on a narrow band.

    Such a step files four to eight buckets (the candidates and the skip), which
    ``_ext/beam.c`` merges in ``merge_buckets()``. Every bucket sits after a
    sentinel key 0 that ends a key's insertion; with all weights zero the first path's keys are
    0 and equal ranks abound, so a key equal to the sentinel must still go after it. Beams up to
    64 keep these steps on the merge; segments of up to 128 words take both bit-word layouts.
    """
    n_ref = draw(st.one_of(st.integers(1, 40), st.integers(60, 128)))
    n_hyp = draw(st.one_of(st.integers(1, 40), st.integers(60, 128)))
    band = draw(st.integers(0, 4))
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    busy = draw(st.sampled_from((0.3, 0.7, 1.0)))
    return _banded_store(rnd, n_hyp, n_ref, band, busy, lambda: rnd.randint(3, 7))


# -- the paths' own index in their keys ------------------------------------------------------


@st.composite
def gap_after_choice_stores(draw: st.DrawFn) -> CandidateStore:
    """Ambiguous positions (two to six candidates of one or two words near the diagonal, some
    continuing the open chunk, some not) followed by one to three words no candidate starts at.

    A path's key carries its own index among the kept paths: a step that makes new paths writes
    it, and a step that adds no candidate keeps the paths where they are (in place, the index
    kept) or reorders them (when a skip closes some paths' chunks and not others'). The next
    ambiguous step's successors read their parent from that index, and cut at the beam's width.
    """
    n_ref = draw(st.integers(2, 130))
    n_hyp = draw(st.integers(max(1, n_ref - 4), n_ref + 6))
    store = CandidateStore(n_hyp, n_ref)
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    j = 0
    while j < n_ref:
        centre = min(n_hyp - 1, j * n_hyp // n_ref)
        for _ in range(rnd.randint(2, 6)):
            hyp_start = min(n_hyp - 1, max(0, centre + rnd.randint(-2, 2)))
            ref_len = 1 if rnd.random() < 0.8 else min(2, n_ref - j)
            hyp_len = 1 if rnd.random() < 0.8 else min(2, n_hyp - hyp_start)
            store.add(Match(j, ref_len, hyp_start, hyp_len, rnd.randrange(4)))
        j += 1 + rnd.randint(1, 3)
    return store


@pytest.mark.parametrize(
    ("stores", "beams"),
    [
        pytest.param(two_candidate_stores(), st.integers(1, 40), id="three_bucket_steps"),
        pytest.param(long_span_stores(), BEAMS, id="long_spans_in_one_bit_word"),
        pytest.param(spans_across_bit_word_stores(), BEAMS, id="spans_across_bit_words"),
        pytest.param(four_to_eight_bucket_stores(), MERGE_BEAMS, id="four_to_eight_bucket_steps"),
        pytest.param(
            gap_after_choice_stores(),
            MERGE_BEAMS,
            id="paths_keep_their_index_through_steps_without_candidates",
        ),
    ],
)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_stores_drawn_for_one_kind_of_step(
    stores: st.SearchStrategy[CandidateStore], beams: st.SearchStrategy[int], data: st.DataObject
) -> None:
    """The compiled beam against the Python one on stores drawn from the strategies above, each
    for the steps its docstring names, with the beams that reach them."""
    store = data.draw(stores, label="store")
    _same(store, data.draw(WEIGHT_SETS, label="weights"), data.draw(beams, label="beam"))


def test_long_segments_take_the_first_successors_with_ties() -> None:
    """Segments of 129 to 260 words with gains too wide to pack (the unpacked search, which
    makes each step's gains at the step) and each candidate repeated up to 25 times at its
    position: successors of equal rank crowd every step, and the first ``beam`` of them are
    taken by the sorted insertion (beams of up to 64, at steps with more than twice as many
    successors as the beam) or the merge sort (wider beams, fewer successors). Ties must go to
    the earlier successor, as in the stable sort."""
    rng = random.Random(19)
    for _ in range(40):
        n = rng.randint(129, 260)
        store = CandidateStore(n, n)
        for j in range(n):
            if rng.random() < 0.2:
                continue
            distinct = [
                Match(j, 1, min(n - 1, max(0, j + rng.randint(-2, 2))), 1, rng.randrange(2))
                for _ in range(rng.randint(1, 3))
            ]
            for _ in range(rng.randint(1, 25)):
                store.add(rng.choice(distinct))
        weights = rng.choice([(1e15,) * 4, (1e15, 1e15, 0.0, 0.0), (2e15, 1e15, 1.0, 1.0)])
        assert_beams_agree(store, weights, rng.choice([1, 2, 3, 8, 32, 63, 64, 65, 70]))
