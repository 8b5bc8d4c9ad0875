"""The exact search's budget accounting is pinned: the units spent on seeded candidate graphs.

A change to the search's Python that leaves every result the same can still change how much
work it does (a weaker bound explores more nodes), hence where a search cut by its budget stops
and what it returns then. The units below were measured on the tree before the paper2005
search was reworked for speed (``9bb86f4``); the search must spend exactly as many, in its
pure-Python twin and in the compiled search (``_ext/exact.c``) alike.
"""

from __future__ import annotations

import random

import pytest

from meteor_eval._ext import built_module
from meteor_eval.align import _exact_search, exhaustive

Pair = tuple[int, int]

# Units spent by each case of _cases() (budget minus what is left after the search's run).
_UNITS = [
    3234, 2506, 4152, 6880, 2022, 8626, 0, 13292, 42256, 3594, 1530, 6290, 4418, 12762, 2238,
    8102, 8048, 5895, 1742, 2044, 17173, 3234, 3788, 2072, 25711, 2592, 1096, 2415, 6552, 5368,
    1080, 1852, 2564, 2280, 4824, 3000, 520, 23471, 2434, 6612, 10836, 22648, 0, 41517, 1242,
    14048, 34122, 8612, 13208, 3849, 5940, 13088, 9210, 2936, 23154, 7120, 3624, 9459, 5476,
    49374,
]  # fmt: skip


def _cases() -> list[tuple[list[Pair], list[Pair]]]:
    """Equal-word candidates over a small alphabet (complete blocks, repeated words, several
    components), a few stray pairs that break blocks, and fixed pairs beyond the positions."""
    rng = random.Random(2005)
    out = []
    for _ in range(60):
        n, m = rng.randint(3, 12), rng.randint(3, 12)
        hyp = [rng.choice("abcab") for _ in range(n)]
        ref = [rng.choice("abcab") for _ in range(m)]
        cands = [(i, j) for i in range(n) for j in range(m) if hyp[i] == ref[j]]
        cands += [(rng.randrange(n), rng.randrange(m)) for _ in range(rng.randint(0, 3))]
        fixed = [(n + k, rng.randrange(m, m + 6)) for k in range(rng.randint(0, 3))]
        fixed = list({r: (h, r) for h, r in fixed}.values())
        out.append((cands, fixed))
    return out


_BUILT = built_module()
IMPLEMENTATIONS = [
    pytest.param(None, id="python"),
    pytest.param(
        getattr(_BUILT, "exact_search", None),
        id="compiled",
        marks=pytest.mark.skipif(_BUILT is None, reason="extension not built"),
    ),
]


def _units(cands: list[Pair], fixed: list[Pair], monkeypatch: pytest.MonkeyPatch) -> int:
    spent: list[int] = []
    search = exhaustive._search

    def recording(
        comps: list[list[Pair]], base: list[Pair], budget: int
    ) -> tuple[list[Pair], bool, int]:
        result = search(comps, base, budget)
        spent.append(budget - result[2])
        return result

    monkeypatch.setattr(exhaustive, "_search", recording)
    exhaustive.align_stage(cands, fixed)
    return sum(spent)


@pytest.mark.parametrize("compiled", IMPLEMENTATIONS)
def test_units_spent_are_those_of_the_reference_search(
    compiled: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(exhaustive, "_COMPILED_SEARCH", compiled)
    assert [_units(c, f, monkeypatch) for c, f in _cases()] == _UNITS


def test_the_twin_reports_the_units_left_of_its_search() -> None:
    pairs, spent, left = _exact_search.search_python([[(0, 0), (0, 1), (1, 0)]], [], 10_000)
    assert (pairs, spent) == ([(0, 1), (1, 0)], False)
    assert 0 < left < 10_000
