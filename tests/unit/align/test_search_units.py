"""The exact search's budget accounting is pinned: the units spent on seeded candidate graphs.

A change to the search's Python that leaves every result the same can still change how much
work it does (a weaker bound explores more nodes), hence where a search cut by its budget stops
and what it returns then. The units below were measured on the tree before the paper2005
search was reworked for speed (``9bb86f4``); the search must spend exactly as many.
"""

from __future__ import annotations

import random

import pytest

from meteor_eval.align import exhaustive

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


def _units(cands: list[Pair], fixed: list[Pair], monkeypatch: pytest.MonkeyPatch) -> int:
    spent: list[int] = []

    class Recording(exhaustive._Search):
        def run(self) -> tuple[list[Pair], bool]:
            result = super().run()
            spent.append(exhaustive.SEARCH_BUDGET - self.left)
            return result

    monkeypatch.setattr(exhaustive, "_Search", Recording)
    exhaustive.align_stage(cands, fixed)
    return sum(spent)


def test_units_spent_are_those_of_the_reference_search(monkeypatch: pytest.MonkeyPatch) -> None:
    assert [_units(c, f, monkeypatch) for c, f in _cases()] == _UNITS
