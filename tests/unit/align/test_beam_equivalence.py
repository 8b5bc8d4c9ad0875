"""The compiled beam search (``_ext/beam.c``) against the pure-Python reference.

Both must choose the very same matches (the same objects, in reference order) on every input:
random ambiguous candidate stores of many shapes (multi-word spans, duplicates, fixed matches,
segments longer than 64 words so that bit sets span several machine words, several beam sizes and
aligner weights), the spec's worked example, and every segment of the xray example data as the real
pipeline builds them. The golden tests (``tests/reference/test_meteor15_golden.py``) then check the
default path against the jar's own output.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from fakes import assert_beams_agree
from meteor_eval._ext import built_module
from meteor_eval.align import search
from meteor_eval.align.search import beam_align_compiled, beam_align_python, fixed_matches
from meteor_eval.match.base import CandidateStore, Match
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.metrics.meteor import pipeline as pipeline_module

# The compiled module even when METEOR_EVAL_PURE_PYTHON=1: these tests compare both on purpose.
_kernels = built_module()

pytestmark = pytest.mark.skipif(
    search._compiled_align is None or _kernels is None,
    reason="the compiled beam search is not built (no C compiler at install time)",
)

DATA = Path(__file__).resolve().parents[4] / "shared" / "data" / "meteor15"
JAR_WEIGHTS = (1.0, 0.5, 0.5, 0.5)


def _random_store(rng: random.Random, n_hyp: int, n_ref: int, density: float) -> CandidateStore:
    """Candidates in reference order with multi-word spans, duplicates and repeated words."""
    store = CandidateStore(n_hyp, n_ref)
    if n_hyp == 0:
        return store
    for j in range(n_ref):
        previous: Match | None = None
        while rng.random() < density:
            if previous is not None and rng.random() < 0.15:
                store.add(previous)  # a duplicate, as mirrored paraphrase records give
                continue
            ref_len = 1 if rng.random() < 0.7 else rng.randint(1, min(4, n_ref - j))
            hyp_start = rng.randrange(n_hyp)
            if rng.random() < 0.5:  # near the diagonal, as real alignments are
                hyp_start = min(n_hyp - 1, max(0, j + rng.randint(-3, 3)))
            hyp_len = 1 if rng.random() < 0.7 else rng.randint(1, min(4, n_hyp - hyp_start))
            previous = Match(j, ref_len, hyp_start, hyp_len, rng.randrange(4))
            store.add(previous)
    return store


@pytest.mark.parametrize("seed", range(8))
def test_random_small_stores(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(400):
        n_hyp, n_ref = rng.randint(0, 14), rng.randint(0, 14)
        store = _random_store(rng, n_hyp, n_ref, rng.choice((0.3, 0.5, 0.7)))
        assert_beams_agree(store, JAR_WEIGHTS, rng.choice((1, 2, 3, 40)))


@pytest.mark.parametrize("seed", range(4))
def test_random_long_stores_cross_word_boundaries(seed: int) -> None:
    rng = random.Random(1000 + seed)
    for _ in range(40):
        n_hyp, n_ref = rng.randint(60, 140), rng.randint(60, 140)
        store = _random_store(rng, n_hyp, n_ref, 0.55)
        assert_beams_agree(store, JAR_WEIGHTS, rng.choice((3, 40)))


def test_random_stores_with_other_weights() -> None:
    rng = random.Random(77)
    for _ in range(300):
        store = _random_store(rng, rng.randint(1, 20), rng.randint(1, 20), 0.6)
        weights = tuple(rng.choice((0.0, 0.25, 0.5, 0.6, 1.0, 1.5)) for _ in range(4))
        assert_beams_agree(store, weights, rng.choice((1, 5, 40)))


def _check_stages(store: CandidateStore, weights: tuple[float, ...], beam: int) -> None:
    """``align_stages`` on the store's candidates dealt into per-stage lists, against Python."""
    n_hyp, n_ref = len(store.hyp_coverage), len(store.by_ref)
    rng = random.Random(n_hyp * 1000 + n_ref)
    stages: list[list[Match]] = [[], [], []]
    for cands in store.by_ref:
        for m in cands:
            stages[rng.randrange(3)].append(m)
    rng.shuffle(stages[1])  # a stage's own order need not follow the reference
    rebuilt = CandidateStore(n_hyp, n_ref)
    for lst in stages:
        rebuilt.extend(lst)
    want = beam_align_python(rebuilt, weights, beam=beam)
    got = _kernels.align_stages(stages, n_hyp, n_ref, weights, beam)
    assert got == want
    assert all(a is b for a, b in zip(got, want, strict=True))


@pytest.mark.parametrize("seed", range(4))
def test_ties_straddling_the_beam_cut(seed: int) -> None:
    """Zero weights and diagonal spans: most paths tie, and the cut keeps the earliest ones."""
    rng = random.Random(500 + seed)
    for _ in range(300):
        n = rng.randint(1, 16)
        store = CandidateStore(n, n)
        for j in range(n):
            for _ in range(rng.randint(0, 4)):
                i = min(n - 1, max(0, j + rng.choice((0, 0, -1, 1))))
                store.add(Match(j, 1, i, 1, rng.randrange(4)))
        weights = rng.choice(((0.0, 0.0, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0), JAR_WEIGHTS))
        beam = rng.choice((1, 2, 3, 4, 5, 7))
        assert_beams_agree(store, weights, beam)
        _check_stages(store, weights, beam)


def test_wide_ranks_use_the_unpacked_order() -> None:
    """Gains too large to pack into one 64-bit key, and negative gains, keep the same order.

    The huge weights stay below the objective's own bound (|weight| x 60 words < 2**62, which
    both searches refuse to pass: see the next tests) while their gains need more than 56 bits.
    """
    rng = random.Random(91)
    for _ in range(200):
        store = _random_store(rng, rng.randint(1, 30), rng.randint(1, 30), 0.6)
        huge = tuple(rng.choice((7e16, 5e16, 1.0, 0.0)) for _ in range(4))
        assert_beams_agree(store, huge, rng.choice((1, 3, 40)))
        negative = tuple(rng.choice((-1.0, -0.5, 0.5, 1.0)) for _ in range(4))
        assert_beams_agree(store, negative, rng.choice((1, 3, 40)))


def test_beams_wider_than_every_step() -> None:
    """A beam that never fills keeps every path, in the stable order."""
    rng = random.Random(33)
    for _ in range(100):
        store = _random_store(rng, rng.randint(1, 10), rng.randint(1, 10), 0.5)
        for beam in (10_000, 2**40):
            assert_beams_agree(store, JAR_WEIGHTS, beam)


@pytest.mark.parametrize(
    ("seed", "shortest", "longest", "widest", "beam"),
    [(35, 30, 120, 6, 49), (48, 30, 120, 6, 49), (66, 60, 127, 8, 60), (339, 60, 127, 8, 100)],
)
def test_wide_beams_over_quiet_steps(
    seed: int, shortest: int, longest: int, widest: int, beam: int
) -> None:
    """A fixed match every few words (no other candidate uses its words) and candidates near
    the diagonal between them: at the fixed matches' quiet steps more than 48 paths fall out of
    order and are sorted the other way than by insertion, and later steps cut them to the beam,
    so a wrong order changes the alignment. The stores are ones found where leaving those paths
    unsorted (the first two) or putting only half of them in order (the last two) does."""
    rng = random.Random(seed)
    n, every = rng.randint(shortest, longest), rng.choice((2, 3, 4))
    width = rng.randint(2, widest)
    store = CandidateStore(n, n)
    for j in range(n):
        if j % every == 0:
            store.add(Match(j, 1, j, 1, 0))
            continue
        for h in range(max(0, j - width), min(n, j + width + 1)):
            if h % every and rng.random() < 0.6:
                store.add(Match(j, 1, h, 1, rng.randrange(4)))
    assert_beams_agree(store, JAR_WEIGHTS, beam)


@pytest.mark.parametrize("seed", range(4))
def test_align_stages_matches_the_python_store(seed: int) -> None:
    rng = random.Random(700 + seed)
    for _ in range(300):
        store = _random_store(rng, rng.randint(0, 20), rng.randint(0, 20), 0.6)
        _check_stages(store, JAR_WEIGHTS, rng.choice((1, 2, 3, 40)))


def test_align_stages_rejects_invalid_input() -> None:
    with pytest.raises(ValueError, match="outside"):
        _kernels.align_stages([[Match(0, 1, 3, 1, 0)]], 2, 2, JAR_WEIGHTS, 40)
    with pytest.raises(IndexError):
        _kernels.align_stages([[Match(0, 1, 0, 1, 7)], [Match(0, 1, 1, 1, 0)]], 2, 2, (1.0,), 40)
    with pytest.raises(TypeError):
        _kernels.align_stages([[(0, 1, 0)]], 2, 2, JAR_WEIGHTS, 40)
    with pytest.raises(ValueError, match="beam"):
        _kernels.align_stages([], 2, 2, JAR_WEIGHTS, 0)
    assert _kernels.align_stages([], 0, 0, JAR_WEIGHTS, 40) == []


def test_fixed_only_and_empty_stores() -> None:
    store = CandidateStore(3, 3)
    store.extend([Match(0, 1, 2, 1, 0), Match(2, 1, 0, 1, 1)])
    assert fixed_matches(store) == [Match(0, 1, 2, 1, 0), Match(2, 1, 0, 1, 1)]
    assert_beams_agree(store, JAR_WEIGHTS, 40)
    assert_beams_agree(CandidateStore(0, 0), JAR_WEIGHTS, 40)
    assert_beams_agree(CandidateStore(0, 5), JAR_WEIGHTS, 40)
    assert_beams_agree(CandidateStore(5, 0), JAR_WEIGHTS, 40)


def test_the_limit_on_partial_alignments_applies_only_to_searched_pairs() -> None:
    # 40 fixed matches with a beam of 2**40: the product of (candidates + 1) is 2**40, but a pair
    # whose candidates are all fixed is not searched, so nothing is refused
    fixed = CandidateStore(40, 40)
    fixed.extend([Match(j, 1, j, 1, 0) for j in range(40)])
    assert beam_align_compiled(fixed, JAR_WEIGHTS, beam=2**40) == fixed_matches(fixed)
    # two candidates at each of 20 positions: 3**20 paths would exceed 2**31 - 1
    ambiguous = CandidateStore(21, 20)
    ambiguous.extend([Match(j, 1, j + d, 1, 0) for j in range(20) for d in (0, 1)])
    with pytest.raises(OverflowError, match="too many partial alignments"):
        beam_align_compiled(ambiguous, JAR_WEIGHTS, beam=2**40)
    assert_beams_agree(ambiguous, JAR_WEIGHTS, 40)


def test_spec_example_1() -> None:
    # spec 4.6 example 1: "the cat the dog" vs "the dog the cat", exact only
    store = CandidateStore(4, 4)
    store.extend(
        [
            Match(0, 1, 0, 1, 0),
            Match(0, 1, 2, 1, 0),
            Match(1, 1, 3, 1, 0),
            Match(2, 1, 0, 1, 0),
            Match(2, 1, 2, 1, 0),
            Match(3, 1, 1, 1, 0),
        ]
    )
    chosen = beam_align_compiled(store, (1.0,), beam=40)
    assert [(m.ref_start, m.hyp_start) for m in chosen] == [(0, 2), (1, 3), (2, 0), (3, 1)]
    assert_beams_agree(store, (1.0,), 1)


def test_invalid_input_is_rejected() -> None:
    store = CandidateStore(2, 2)
    store.add(Match(0, 1, 1, 1, 3))
    store.add(Match(0, 1, 0, 1, 0))
    with pytest.raises(IndexError):
        beam_align_compiled(store, (1.0,), beam=40)
    with pytest.raises(ValueError, match="beam"):
        beam_align_compiled(store, JAR_WEIGHTS, beam=0)
    bad = CandidateStore(1, 2)
    bad.by_ref[0].append(Match(0, 1, 5, 1, 0))
    with pytest.raises(ValueError, match="outside"):
        beam_align_compiled(bad, JAR_WEIGHTS, beam=40)


@pytest.mark.skipif(not DATA.is_dir(), reason="shared example data not present")
@pytest.mark.parametrize(
    ("system", "beam", "normalization"),
    [("xray-system1.hyp", 40, "norm"), ("xray-system2.hyp", 3, "none")],
)
def test_xray_segments_through_the_pipeline(
    monkeypatch: pytest.MonkeyPatch, system: str, beam: int, normalization: str
) -> None:
    """Every second xray segment, candidate stores built by the real exact/stem/synonym stages."""
    compared = 0

    def both(store: CandidateStore, weights: tuple[float, ...], *, beam: int) -> list[Match]:
        nonlocal compared
        expected = beam_align_python(store, weights, beam=beam)
        assert beam_align_compiled(store, weights, beam=beam) == expected
        compared += 1
        return expected

    monkeypatch.setattr(pipeline_module, "beam_align", both)
    config = MeteorConfig.preset(
        "meteor15",
        normalization=normalization,  # type: ignore[arg-type]
        modules=("exact", "stem", "synonym"),
        beam=beam,
    )
    scorer = Meteor(config)
    hyps = (DATA / system).read_text(encoding="utf-8").splitlines()[::2]
    refs = (DATA / "xray-reference").read_text(encoding="utf-8").splitlines()[::2]
    for hyp, ref in zip(hyps, refs, strict=True):
        scorer.segment_score(hyp, [ref])
    assert compared == len(hyps) > 1000


def test_environment_variable_forces_the_pure_path() -> None:
    code = "from meteor_eval.align import search; print(search.COMPILED)"
    src = str(Path(search.__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": src}
    forced = subprocess.run(
        [sys.executable, "-c", code],
        env={**env, "METEOR_EVAL_PURE_PYTHON": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert forced.stdout.strip() == "False"
    env.pop("METEOR_EVAL_PURE_PYTHON", None)
    default = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert default.stdout.strip() == "True"


def _long_store(n: int, *, ambiguous: bool) -> CandidateStore:
    """``n`` + ``n`` words, each matched at its own position (and, when ``ambiguous``, also by the
    next hypothesis word, so that the search has choices to make)."""
    store = CandidateStore(n, n)
    for j in range(n):
        store.add(Match(j, 1, j, 1, 0))
        if ambiguous and j + 1 < n:
            store.add(Match(j, 1, j + 1, 1, 1))
    return store


@pytest.mark.parametrize("ambiguous", [True, False])
def test_weights_that_could_overflow_the_objective_are_refused_by_both(ambiguous: bool) -> None:
    # 30 + 30 words: 2**62 / 60 is about 7.7e16, so 1e17 could overflow the 64-bit objective
    # (the compiled search then chose other matches than the twin) and 1e16 cannot.
    store = _long_store(30, ambiguous=ambiguous)
    for weights in [(1e17, 0.5), (1.0, -1e17), (float("nan"), 0.5), (float("inf"), 0.5)]:
        for align in (beam_align_python, beam_align_compiled):
            with pytest.raises(ValueError, match=r"aligner_weights\[\d\]: .* for 30 \+ 30 words"):
                align(store, weights, beam=40)
    heavy = (1e16, 3e15)
    assert beam_align_compiled(store, heavy, beam=40) == beam_align_python(store, heavy, beam=40)
    assert len(beam_align_python(store, heavy, beam=40)) == 30
