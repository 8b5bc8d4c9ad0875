"""The compiled exact search of paper2005 (``_ext/exact.c``) against its pure-Python twin.

The two must walk the same nodes in the same order: same pairs, same "budget ran out" flag and
the same units left, on random candidate graphs (repeated words, complete blocks, several
components, stray pairs that break blocks, pairs of earlier stages around and between them).
On small graphs every point where the budget can run out is tried: the twin logs the units
spent after each node it expands, and both searches get exactly that many units (the node is
paid for) and one fewer (the search stops at that node).
"""

from __future__ import annotations

import operator
import random
import warnings
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval._ext import built_module
from meteor_eval.align import _exact_search, exhaustive
from meteor_eval.errors import SearchBudgetWarning

Pair = tuple[int, int]

_BUILT = built_module()
pytestmark = pytest.mark.skipif(
    _BUILT is None or not hasattr(_BUILT, "exact_search"), reason="extension not built"
)


def _graph(seed: int, n_max: int, alphabet: str) -> tuple[list[Pair], list[Pair]]:
    """Candidates of equal words over ``alphabet`` plus a few stray pairs, and one-to-one
    pairs of earlier stages on positions the candidates do not use."""
    rng = random.Random(seed)
    n, m = rng.randint(1, n_max), rng.randint(1, n_max)
    hyp = [rng.choice(alphabet) for _ in range(n)]
    ref = [rng.choice(alphabet) for _ in range(m)]
    fixed_h = set(rng.sample(range(n), rng.randint(0, n // 3)))
    fixed_r = rng.sample(range(m), min(len(fixed_h), m))
    fixed = list(zip(sorted(fixed_h), fixed_r, strict=False))
    used_h = {h for h, _ in fixed}
    used_r = {r for _, r in fixed}
    free_h = [i for i in range(n) if i not in used_h]
    free_r = [j for j in range(m) if j not in used_r]
    cands = [(i, j) for i in free_h for j in free_r if hyp[i] == ref[j]]
    if free_h and free_r:
        cands += [(rng.choice(free_h), rng.choice(free_r)) for _ in range(rng.randint(0, 3))]
    # Pairs beyond the positions too, as later words matched by earlier stages.
    fixed += [(n + k, m + rng.randrange(6) + 6 * k) for k in range(rng.randint(0, 2))]
    return cands, fixed


def _searches(cands: list[Pair], fixed: list[Pair]) -> list[tuple[list[list[Pair]], list[Pair]]]:
    """The (components, placed pairs) that align_stage hands to its search."""
    calls: list[tuple[list[list[Pair]], list[Pair]]] = []

    def recording(
        comps: list[list[Pair]], base: list[Pair], budget: int
    ) -> tuple[list[Pair], bool, int]:
        calls.append((comps, base))
        return [], False, budget  # only the arguments are wanted

    saved = exhaustive._search
    exhaustive._search = recording
    try:
        exhaustive._align_stage(cands, fixed, exhaustive.SEARCH_BUDGET)
    finally:
        exhaustive._search = saved
    return calls


class _Logging(_exact_search._Search):
    """The twin, logging the units spent once each node is paid for."""

    __slots__ = ("budget", "log")

    def __init__(self, comps: list[list[Pair]], base: list[Pair], budget: int) -> None:
        super().__init__(comps, base, budget)
        self.budget = budget
        self.log: list[int] = []

    def expand(
        self, i: int, node: _exact_search._Node, k: int, limit: int
    ) -> tuple[_exact_search._Node, int] | None:
        self.log.append(self.budget - self.left + self.node_cost[i])
        return super().expand(i, node, k, limit)


def _both(comps: list[list[Pair]], base: list[Pair], budget: int) -> None:
    assert _BUILT is not None
    want = _exact_search.search_python(comps, base, budget)
    got = _BUILT.exact_search(comps, base, budget)
    assert got == want, (comps, base, budget)


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["ab", "abc", "abcab", "aab", "abcd"]))
def test_compiled_search_walks_the_twins_nodes(seed: int, alphabet: str) -> None:
    cands, fixed = _graph(seed, 14, alphabet)
    for comps, base in _searches(cands, fixed):
        _both(comps, base, exhaustive.SEARCH_BUDGET)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["ab", "abc", "abcab", "aab"]))
def test_compiled_search_runs_out_where_the_twin_does(seed: int, alphabet: str) -> None:
    cands, fixed = _graph(seed, 8, alphabet)
    for comps, base in _searches(cands, fixed):
        logging = _Logging(comps, base, exhaustive.SEARCH_BUDGET)
        logging.run()
        points = sorted({p for spent in logging.log for p in (spent - 1, spent)} | {-1, 0})
        for budget in points:
            _both(comps, base, budget)


def test_every_budget_on_a_small_graph() -> None:
    """Every budget value from 0 to past the whole search, on one graph with two blocks and a
    component that is not one."""
    cands = [(0, 0), (0, 2), (1, 0), (1, 2), (2, 1), (2, 3), (3, 1), (4, 3), (4, 4), (5, 4)]
    calls = _searches(cands, [(6, 5)])
    assert calls
    for comps, base in calls:
        _, _, left = _exact_search.search_python(comps, base, exhaustive.SEARCH_BUDGET)
        for budget in range(exhaustive.SEARCH_BUDGET - left + 2):
            _both(comps, base, budget)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32),
    st.sampled_from(["abcdefghijab", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZab"]),
)
def test_long_lines_of_repeated_words(seed: int, alphabet: str) -> None:
    """Longer lines (up to 140 words: sets of more than one 64-bit word) of few word types,
    mostly cut by the budget, or of many, mostly searched to the end."""
    cands, fixed = _graph(seed, 140, alphabet)
    for comps, base in _searches(cands, fixed):
        _both(comps, base, 100_000)


def _random_lines(
    rng: random.Random, shortest: int, longest: int, letters: str
) -> tuple[list[str], list[str], list[tuple[int, int]]]:
    """Two lines of one-letter words (each ``shortest`` to ``longest`` words, letters drawn
    from ``letters``, where a repeated letter is drawn more often) and their equal-word pairs."""
    n, m = rng.randint(shortest, longest), rng.randint(shortest, longest)
    hyp = [rng.choice(letters) for _ in range(n)]
    ref = [rng.choice(letters) for _ in range(m)]
    return hyp, ref, _pairs(hyp, ref, operator.eq)


def _pairs(hyp: list[str], ref: list[str], keep: Callable[[str, str], bool]) -> list[Pair]:
    """The positions (i, j) of ``hyp`` x ``ref``, hypothesis first, whose words ``keep``
    accepts (asked in that order, so that a ``keep`` drawing random numbers draws them the
    same way every time)."""
    return [(i, j) for i, a in enumerate(hyp) for j, b in enumerate(ref) if keep(a, b)]


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 30_000))
def test_stages_and_warnings_are_the_same_compiled_or_not(seed: int, budget: int) -> None:
    rng = random.Random(seed)
    hyp, ref, exact = _random_lines(rng, 1, 12, "abcab")
    loose = _pairs(hyp, ref, lambda a, b: rng.random() < 0.3)
    fixed_first = [
        (rng.randrange(len(hyp)), rng.randrange(len(ref))) for _ in range(rng.randint(0, 2))
    ]
    stages = [fixed_first, exact, loose, exact + loose]
    assert _run_stages(stages, budget, compiled=True) == _run_stages(stages, budget, compiled=False)


def _run_stages(
    stages: object, budget: int, *, compiled: bool
) -> tuple[object, list[str]] | tuple[str, str]:
    """align_stages with both compiled functions or neither: its result and warnings, or the
    exception it raised."""
    assert _BUILT is not None
    saved = exhaustive._COMPILED_SEARCH, exhaustive._COMPILED_STAGES
    if compiled:
        exhaustive._COMPILED_SEARCH = _BUILT.exact_search
        exhaustive._COMPILED_STAGES = _BUILT.exact_stages
    else:
        exhaustive._COMPILED_SEARCH = exhaustive._COMPILED_STAGES = None
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            chosen = exhaustive.align_stages(stages, budget=budget)  # type: ignore[arg-type]
    except (ValueError, TypeError) as exc:
        return type(exc).__name__, str(exc)
    finally:
        exhaustive._COMPILED_SEARCH, exhaustive._COMPILED_STAGES = saved
    messages = [str(w.message) for w in caught if w.category is SearchBudgetWarning]
    return chosen, messages


@pytest.mark.parametrize(
    "stages",
    [
        [],
        [[]],
        [[(0, 0)], [(0, 0), (1, 1)]],
        [[(0, 1), (0, 1), (1, 0)], [(2, 2)]],  # duplicates
        [[(0, -1), (1, 0)]],  # a negative position: the Python code names it
        [[(0, 0)], [(-1, 3)]],
        [[[0, 1], [1, 0]]],  # lists, not tuples
        ([(0, 1), (1, 0), (1, 1)],),
        [((0, 1), (1, 0), (1, 1))],
        [[(2**40, 0), (2**40, 1), (2**40 + 1, 0)]],  # positions past 2**31
        [[(True, 0), (0, 1)]],
    ],
)
def test_stages_past_the_compiled_calls_limits(stages: object) -> None:
    """Inputs the compiled stages leave to the Python code give the same result or error."""
    assert _run_stages(stages, 10_000, compiled=True) == _run_stages(stages, 10_000, compiled=False)


def test_stages_given_as_iterators_are_read_once() -> None:
    def stages() -> object:
        yield iter([(0, 1), (1, 0), (1, 1)])
        yield iter([(2, 2), (0, 0)])

    assert _run_stages(stages(), 10_000, compiled=True) == _run_stages(
        stages(), 10_000, compiled=False
    )


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 60_000))
def test_long_stages_are_the_same_compiled_or_not(seed: int, budget: int) -> None:
    rng = random.Random(seed)
    hyp, ref, exact = _random_lines(rng, 20, 100, "abcdefghijklmnopqrstab")
    near = _pairs(hyp, ref, lambda a, b: ord(a) - ord(b) == 1)
    stages = [exact, near, [(i, j) for i, j in near if (i + j) % 3]]
    assert _run_stages(stages, budget, compiled=True) == _run_stages(stages, budget, compiled=False)
