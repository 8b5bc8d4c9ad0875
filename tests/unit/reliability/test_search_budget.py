"""paper2005's exact search stops at its budget with a warning instead of running for minutes.

Within the budget nothing changes (the golden and brute-force tests cover that); past it the
stage keeps the best alignment found so far, which still has the most matches.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from meteor_eval import Meteor, MeteorConfig
from meteor_eval.align import exhaustive
from meteor_eval.align.exhaustive import align_stage, align_stages_bounded, count_crossings
from meteor_eval.errors import SearchBudgetWarning

# Five words repeated 3 to 10 times, in different numbers on each side, shuffled among 35
# singletons: the search needs about 1.4 million nodes (15 s) to prove the optimum.
HARD_HYP = (
    "x2 d d x9 d d x0 c d x25 x21 x14 d x29 e c x30 a d x20 c c b e x13 x1 x31 d c c x6 c x19 "
    "x17 x33 x15 a x26 x27 x3 c x10 x4 a x18 x11 x23 x7 x8 e x16 x12 d x34 x5 b e b a x24 x28 "
    "x22 x32 d"
).split()
HARD_REF = (
    "e d b e c d b a c a e c c e c b d d b e b d a e e e c e d a d c b d b a a a a c c a e d a"
).split()


def _candidates(hyp: list[str], ref: list[str]) -> list[tuple[int, int]]:
    return [(i, j) for i, a in enumerate(hyp) for j, b in enumerate(ref) if a == b]


def _maximum_matching_size(pairs: list[tuple[int, int]]) -> int:
    """Size of a maximum one-to-one matching (simple augmenting paths: the oracle)."""
    adj: dict[int, list[int]] = {}
    for h, r in pairs:
        adj.setdefault(h, []).append(r)
    mate: dict[int, int] = {}

    def augment(h: int, seen: set[int]) -> bool:
        for r in adj[h]:
            if r not in seen:
                seen.add(r)
                if r not in mate or augment(mate[r], seen):
                    mate[r] = h
                    return True
        return False

    return sum(augment(h, set()) for h in adj)


def test_adversarial_line_stops_at_the_budget_with_the_most_matches() -> None:
    cands = _candidates(HARD_HYP, HARD_REF)
    with pytest.warns(SearchBudgetWarning, match=r"ran out of its budget \(20,000,000 units\)"):
        pairs = align_stage(cands)
    assert len(pairs) == _maximum_matching_size(cands) == 28
    assert len({h for h, _ in pairs}) == len({r for _, r in pairs}) == len(pairs)
    assert set(pairs) <= set(cands)


@pytest.mark.parametrize("budget", [1, 300, 3_000, 28_045, 28_046, 100_000])
def test_any_budget_keeps_a_maximum_matching(budget: int) -> None:
    """Whether the dive finished (an incumbent) or not (the matching fallback); this stage
    needs exactly 28,046 units for the exact result."""
    hyp = "d d a c d d c d c b b c b a".split()
    ref = "c b c a a c d a c d c b".split()
    cands = _candidates(hyp, ref)
    exact = align_stage(cands)
    (got,), spent = align_stages_bounded([cands], budget=budget)
    assert len(got) == len(exact) == _maximum_matching_size(cands)
    assert count_crossings(got) >= count_crossings(exact)
    assert spent == ((0,) if budget < 28_046 else ())
    if not spent:
        assert got == exact


def test_meteor_warning_names_the_segment(
    meteor_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hyps = (meteor_data / "xray-system1.hyp").read_text(encoding="utf-8").splitlines()
    refs = (meteor_data / "xray-reference").read_text(encoding="utf-8").splitlines()
    hyp, ref = " ".join(hyps[:3]), " ".join(refs[:3])
    scorer = Meteor(MeteorConfig.preset("paper2005", modules=("exact",)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        exact = scorer.segment_score(hyp, [ref])
    monkeypatch.setattr(exhaustive, "SEARCH_BUDGET", 2_000)
    with pytest.warns(SearchBudgetWarning) as caught:
        bounded = scorer.segment_score(hyp, [ref])
    (message,) = [str(w.message) for w in caught]
    assert '"barack obama will be the fourth president to ..."' in message
    assert "(67 hypothesis and 68 reference tokens; stage 0)" in message
    assert "(2,000 units)" in message
    assert bounded.matches == exact.matches
    assert bounded.chunks >= exact.chunks
