"""The exact per-stage aligner agrees with a brute-force oracle on short inputs.

The oracle enumerates every one-to-one matching of a stage's candidate graph and keeps the best
by (most matches, fewest crossings counting the pairs of earlier stages, lexicographically
smallest assignment vector with "unmatched" after every reference position). Inputs are short
(0 to 8 words) and drawn from a 3- or 4-letter alphabet so that words repeat a lot; relations are
equality (exact stage), an equivalence of letters (stem-like) and arbitrary pair sets
(synonym-like). Stages are chained with ``fixed``.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval.align.exhaustive import align_stage, align_stages, count_crossings

Pair = tuple[int, int]

_UNMATCHED = 1 << 30


def brute_force_stage(candidates: Sequence[Pair], fixed: Sequence[Pair] = ()) -> tuple[Pair, ...]:
    """Enumerate every matching; keep the best by (-matches, crossings, assignment vector)."""
    cands = sorted(set(candidates))
    hyps = sorted({h for h, _ in cands})
    options = {h: [r for h2, r in cands if h2 == h] for h in hyps}
    best_key: tuple[int, int, tuple[int, ...]] | None = None
    best: tuple[Pair, ...] = ()

    def crossings_with(pair: Pair, others: Sequence[Pair]) -> int:
        return sum(1 for o in others if (pair[0] - o[0]) * (pair[1] - o[1]) < 0)

    def walk(
        k: int, used: frozenset[int], chosen: list[Pair], vector: list[int], cross: int
    ) -> None:
        nonlocal best_key, best
        if k == len(hyps):
            key = (-len(chosen), cross, tuple(vector))
            if best_key is None or key < best_key:
                best_key, best = key, tuple(chosen)
            return
        # Obviously safe cuts: crossings only grow along a branch, and this branch can add at
        # most one match per remaining hyp.
        if best_key is not None:
            most = len(chosen) + len(hyps) - k
            if most < -best_key[0] or (most == -best_key[0] and cross > best_key[1]):
                return
        h = hyps[k]
        for r in options[h]:
            if r not in used:
                pair = (h, r)
                extra = crossings_with(pair, chosen) + crossings_with(pair, fixed)
                walk(k + 1, used | {r}, [*chosen, pair], [*vector, r], cross + extra)
        walk(k + 1, used, chosen, [*vector, _UNMATCHED], cross)

    walk(0, frozenset(), [], [], 0)
    return best


def brute_force_stages(stages: Sequence[Sequence[Pair]]) -> tuple[tuple[Pair, ...], ...]:
    fixed: list[Pair] = []
    out = []
    for stage in stages:
        used_h = {h for h, _ in fixed}
        used_r = {r for _, r in fixed}
        cands = [(h, r) for h, r in stage if h not in used_h and r not in used_r]
        pairs = brute_force_stage(cands, fixed)
        out.append(pairs)
        fixed.extend(pairs)
    return tuple(out)


# --- strategies ------------------------------------------------------------------------------


@st.composite
def exact_stage(draw: st.DrawFn) -> tuple[list[str], list[str], list[Pair]]:
    alphabet = draw(st.sampled_from(["abc", "abcd"]))
    hyp = draw(st.lists(st.sampled_from(alphabet), max_size=8))
    ref = draw(st.lists(st.sampled_from(alphabet), max_size=8))
    cands = [(i, j) for i, a in enumerate(hyp) for j, b in enumerate(ref) if a == b]
    return hyp, ref, cands


@st.composite
def equivalence_relation(draw: st.DrawFn) -> dict[str, int]:
    """A random partition of the letters: the stem-like relation "same class"."""
    return {letter: draw(st.integers(0, 2)) for letter in "abcd"}


@st.composite
def random_relation(draw: st.DrawFn, n_hyp: int, n_ref: int) -> list[Pair]:
    density = draw(st.sampled_from([0.15, 0.3, 0.5, 0.8]))
    flags = draw(st.lists(st.floats(0, 1), min_size=n_hyp * n_ref, max_size=n_hyp * n_ref))
    return [(i, j) for i in range(n_hyp) for j in range(n_ref) if flags[i * n_ref + j] < density]


@st.composite
def fixed_and_candidates(draw: st.DrawFn) -> tuple[list[Pair], list[Pair]]:
    """Candidates among free positions plus a one-to-one ``fixed`` on other positions."""
    n_hyp = draw(st.integers(0, 8))
    n_ref = draw(st.integers(0, 8))
    fixed_h = draw(st.lists(st.integers(0, n_hyp + 2), unique=True, max_size=4))
    fixed_r = draw(st.lists(st.integers(0, n_ref + 2), unique=True, max_size=4))
    fixed = list(zip(fixed_h, fixed_r, strict=False))
    kind = draw(st.sampled_from(["exact", "equivalence", "random"]))
    if kind == "random":
        cands = draw(random_relation(min(n_hyp, 7), min(n_ref, 7)))
    else:
        hyp = draw(st.lists(st.sampled_from("abcd"), min_size=n_hyp, max_size=n_hyp))
        ref = draw(st.lists(st.sampled_from("abcd"), min_size=n_ref, max_size=n_ref))
        cls = draw(equivalence_relation()) if kind == "equivalence" else {c: ord(c) for c in "abcd"}
        cands = [(i, j) for i, a in enumerate(hyp) for j, b in enumerate(ref) if cls[a] == cls[b]]
    used_h = {h for h, _ in fixed}
    used_r = {r for _, r in fixed}
    cands = [(h, r) for h, r in cands if h not in used_h and r not in used_r]
    return fixed, cands


@st.composite
def chained_stages(draw: st.DrawFn) -> list[list[Pair]]:
    """Exact, then stem-like, then one or two synonym-like stages over the same two sentences."""
    hyp = draw(st.lists(st.sampled_from("abcd"), max_size=8))
    ref = draw(st.lists(st.sampled_from("abcd"), max_size=8))
    stages = [[(i, j) for i, a in enumerate(hyp) for j, b in enumerate(ref) if a == b]]
    cls = draw(equivalence_relation())
    stages.append(
        [(i, j) for i, a in enumerate(hyp) for j, b in enumerate(ref) if cls[a] == cls[b]]
    )
    for _ in range(draw(st.integers(1, 2))):
        stages.append(draw(random_relation(len(hyp), len(ref))))
    return stages


# --- properties ------------------------------------------------------------------------------


def _check_stage(cands: list[Pair], fixed: list[Pair]) -> None:
    got = align_stage(cands, fixed)
    assert got == brute_force_stage(cands, fixed)
    assert len({h for h, _ in got}) == len(got) == len({r for _, r in got})
    assert set(got) <= set(cands)


@settings(max_examples=1200, deadline=None)
@given(exact_stage())
def test_exact_stage_matches_oracle(case: tuple[list[str], list[str], list[Pair]]) -> None:
    _, _, cands = case
    _check_stage(cands, [])


@settings(max_examples=1500, deadline=None)
@given(fixed_and_candidates())
def test_stage_with_fixed_matches_oracle(case: tuple[list[Pair], list[Pair]]) -> None:
    fixed, cands = case
    _check_stage(cands, fixed)


@settings(max_examples=800, deadline=None)
@given(chained_stages())
def test_chained_stages_match_oracle(stages: list[list[Pair]]) -> None:
    got = align_stages(stages)
    assert got == brute_force_stages(stages)
    everything = [p for stage in got for p in stage]
    assert len({h for h, _ in everything}) == len(everything) == len({r for _, r in everything})


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 20), st.integers(0, 20)), max_size=30))
def test_count_crossings_matches_definition(pairs: list[Pair]) -> None:
    naive = sum(
        1
        for a in range(len(pairs))
        for b in range(a + 1, len(pairs))
        if (pairs[a][0] - pairs[b][0]) * (pairs[a][1] - pairs[b][1]) < 0
    )
    assert count_crossings(pairs) == naive
