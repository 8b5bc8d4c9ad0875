"""The exact per-stage aligner of the 2005 METEOR paper (flavour ``paper2005``).

Banerjee and Lavie (2005) align a hypothesis with a reference in stages (exact words, then Porter
stems, then WordNet synonyms). Each stage sees only the words left unmatched by earlier stages,
and among the word pairs its module proposes it picks a one-to-one mapping with

1. the most matches, and among those
2. the fewest *crossings*, counted over the whole alignment built so far: pairs chosen in this
   stage crossing each other and crossing the pairs fixed by earlier stages. Two matches
   ``(h1, r1)`` and ``(h2, r2)`` cross iff ``(h1 - h2) * (r1 - r2) < 0``.

The paper does not say how to break the remaining ties. **Our choice**: the lexicographically
smallest *assignment vector*, the vector that lists, for every hypothesis position that has at
least one candidate in the stage (in ascending order), the chosen reference position, or
"unmatched", which sorts after every reference position. In words: earlier hypothesis words take
earlier reference words, and a word is left unmatched only when that is strictly better.

The search is exact, not a beam. Its ingredients:

* **Forced blocks.** A connected component of the candidate graph that is a complete bipartite
  block with as many hypothesis as reference positions (every isolated pair, and every word
  that occurs equally often on both sides in the exact and stem stages) is matched completely
  in every maximum matching, and its pairs are matched in order (see *uncrossing* below), so it
  is decided up front without search.
* **Uncrossing.** If ``(h1, r2)`` and ``(h2, r1)`` cross (``h1 < h2``, ``r1 < r2``), replacing
  them with ``(h1, r1)`` and ``(h2, r2)`` removes their crossing and never adds a crossing with
  any third pair ``(h, r)``. (If ``h`` is outside ``[h1, h2]`` both pairs see ``r`` the same
  way before and after. If ``h1 < h < h2`` the count goes from ``[r < r2] + [r > r1]`` to
  ``[r < r1] + [r > r2]``, which is 1 -> 1 for ``r < r1`` or ``r > r2`` and 2 -> 0 in between.)
  So whenever two hypothesis positions have the same candidate set ("twins"), or two reference
  positions do, every optimal alignment matches them in order; the search only generates such
  alignments. In particular, given which positions of a complete block are matched, their
  pairing is the order-preserving one.
* **Branch and bound** over the remaining hypothesis positions in ascending order, trying
  reference positions in ascending order and "unmatched" last, so depth-first order is the
  order of assignment vectors. A first alignment comes from a greedy dive along the smallest
  bound; the search then keeps the best alignment found, replacing it on fewer crossings or, at
  equal crossings, on a smaller assignment vector. Branches are cut when they cannot reach the
  maximum number of matches (a maximum matching of the undecided part is kept up to date with
  one augmenting-path search per removed vertex; complete blocks just count) or when their
  crossings so far plus a lower bound on the crossings still to come cannot win. The bound
  adds, per component, the cheapest completion against the pairs already placed (an exact
  banded dynamic programme in complete blocks) and the crossings that pairs of different
  blocks cannot avoid whatever their completion.

We know no polynomial algorithm for this objective in general (it is a quadratic-assignment
flavour of crossing minimisation), so the worst case stays exponential. In practice the search
is small: on 2,489 news sentence pairs (30-80 tokens, exact stage) a call takes about 0.1 ms on
average and a few ms at worst in CPython, and 40 repeated "the" on one side against 35 on the
other, shuffled among 40 other words, take a few tens of ms. Many heavily unbalanced repeated
words that also interleave (say five words each repeated 3 to 10 times with different counts
on each side) can take a second. So the search has a budget (:data:`SEARCH_BUDGET`): past it,
a stage keeps the best alignment found so far (still with the most matches) and the caller is
warned (:class:`~meteor_eval.errors.SearchBudgetWarning`).

With the extension in use the whole of :func:`align_stages_bounded` runs compiled
(``_ext/exact.c``): the same nodes in the same order and the same budget units, so the same
pairs and the same budget warnings, about a hundred times faster (the figures above are the
pure-Python twin's; compiled, a whole budget of 20,000,000 units takes about 20 ms on a 64-token
line and up to about 2 s on lines of thousands of tokens).

The stages themselves (which words are candidates) belong to the matchers; this module only
sees integer positions, so it is pure and needs no resources.

References:
    Satanjeev Banerjee and Alon Lavie. 2005. METEOR: An Automatic Metric for MT Evaluation with
    Improved Correlation with Human Judgments. In Proceedings of the ACL Workshop on Intrinsic
    and Extrinsic Evaluation Measures for Machine Translation and/or Summarization, 65-72.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

from meteor_eval._ext import compiled_function
from meteor_eval.align._exact_search import search_python
from meteor_eval.errors import SearchBudgetWarning

__all__ = [
    "SEARCH_BUDGET",
    "align_stage",
    "align_stages",
    "align_stages_bounded",
    "count_crossings",
]

Pair = tuple[int, int]

#: Work that one stage's exact search may do. Expanding a search node costs ``_NODE_COST``
#: units (:mod:`meteor_eval.align._exact_search`) plus one per hypothesis position and per
#: candidate pair its bound and matching repair may scan, so the budget caps time (one to two
#: seconds a stage in CPython on sentence-length lines, 20 ms to 2 s compiled) whatever the
#: line length. The news sentences of the shared data use at most 70,000 units.
#: Within the budget the result is exact. A stage that needs more keeps the best alignment
#: found so far: the first complete one comes from a greedy dive along the smallest bound, and
#: every later one has fewer crossings (or as many and a smaller assignment vector). If the
#: budget runs out before any alignment is complete, the stage takes a maximum matching
#: (crossings not minimised). Either way the number of matches is the maximum; only the
#: crossings, hence the chunks, may differ from the optimum. See ``docs/limits.md``.
SEARCH_BUDGET = 20_000_000


# The compiled exact search (``_ext/exact.c``), or None: then its twin search_python runs.
_COMPILED_SEARCH = compiled_function("exact_search")
# The compiled align_stages_bounded (the same file), or None: then the Python code below runs.
_COMPILED_STAGES = compiled_function("exact_stages")

# Budgets the compiled search takes (its units are 64-bit integers).
_COMPILED_BUDGET_LIMIT = 1 << 62


def _search(comps: list[list[Pair]], base: list[Pair], budget: int) -> tuple[list[Pair], bool, int]:
    """The exact search of the undecided components: the chosen pairs, whether the budget ran
    out, and the units left. Compiled when the extension is in use (same nodes, same units,
    same result), else :func:`~meteor_eval.align._exact_search.search_python`."""
    if _COMPILED_SEARCH is not None and -_COMPILED_BUDGET_LIMIT < budget < _COMPILED_BUDGET_LIMIT:
        try:
            result: tuple[list[Pair], bool, int] = _COMPILED_SEARCH(comps, base, budget)
        except OverflowError:  # a position beyond 64 bits: the twin takes any int
            pass
        else:
            return result
    return search_python(comps, base, budget)


def count_crossings(pairs: Sequence[tuple[int, int]]) -> int:
    """Count the crossing pairs of matches in ``pairs`` in O(n log n).

    Two matches ``(h1, r1)`` and ``(h2, r2)`` cross iff ``(h1 - h2) * (r1 - r2) < 0``; matches
    sharing a position never cross. The count is the number of inversions of the reference
    positions once the matches are sorted by hypothesis position (merge-sort count).

    Args:
        pairs: ``(hypothesis position, reference position)`` matches, in any order.

    Returns:
        The number of unordered crossing pairs.

    Example:
        >>> count_crossings([(0, 2), (1, 0), (2, 1)])
        2
    """
    # Sorting by (h, r) puts ties in h in ascending r, so they never count as inversions.
    seq = [r for _, r in sorted(pairs)]
    n = len(seq)
    inversions = 0
    width = 1
    buf = seq[:]
    while width < n:
        out = 0
        for lo in range(0, n, 2 * width):
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i, j = lo, mid
            while i < mid and j < hi:
                if seq[j] < seq[i]:
                    # seq[j] is smaller than every element left in the left run.
                    inversions += mid - i
                    buf[out] = seq[j]
                    j += 1
                else:
                    buf[out] = seq[i]
                    i += 1
                out += 1
            while i < mid:
                buf[out] = seq[i]
                i += 1
                out += 1
            while j < hi:
                buf[out] = seq[j]
                j += 1
                out += 1
        seq, buf = buf, seq
        width *= 2
    return inversions


def align_stages(
    stages: Sequence[Sequence[tuple[int, int]]],
    *,
    budget: int = SEARCH_BUDGET,
) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Run :func:`align_stage` once per stage, each on the positions still unmatched.

    Each stage's candidates are first filtered to pairs whose hypothesis and reference positions
    are both unmatched by the earlier stages; the pairs chosen so far are passed as ``fixed``.

    Args:
        stages: Per stage, its candidate ``(hypothesis position, reference position)`` pairs.
        budget: Work each stage's search may do (see :data:`SEARCH_BUDGET`).

    Returns:
        Per stage, the pairs it chose, sorted by hypothesis position.

    Warns:
        SearchBudgetWarning: a stage's budget ran out (:func:`align_stages_bounded` returns
            which instead, for callers that name the segment in their own warning).

    Example:
        >>> align_stages([[(0, 1)], [(0, 0), (1, 0), (1, 2)]])
        (((0, 1),), ((1, 2),))
    """
    chosen, spent = align_stages_bounded(stages, budget=budget)
    if spent:
        what = "stage " + ", ".join(str(k) for k in spent)
        warnings.warn(_budget_message(budget, what), SearchBudgetWarning, stacklevel=2)
    return chosen


def align_stages_bounded(
    stages: Sequence[Sequence[tuple[int, int]]],
    *,
    budget: int = SEARCH_BUDGET,
) -> tuple[tuple[tuple[tuple[int, int], ...], ...], tuple[int, ...]]:
    """:func:`align_stages` without the warning: the pairs of each stage, and the indices of
    the stages whose search ran out of budget (empty when every result is exact).

    With the extension in use, one compiled call does it all (the same filtering, components,
    forced blocks and search, so the same pairs and budget units), for lists or tuples of
    ``(int, int)`` tuples with positions below 2**31; anything else, or a fault to report,
    goes through the Python code below.
    """
    if _COMPILED_STAGES is not None and -_COMPILED_BUDGET_LIMIT < budget < _COMPILED_BUDGET_LIMIT:
        done: tuple[tuple[tuple[tuple[int, int], ...], ...], tuple[int, ...]] | None
        done = _COMPILED_STAGES(stages, budget)
        if done is not None:
            return done
    fixed: list[Pair] = []
    used_h: set[int] = set()
    used_r: set[int] = set()
    chosen: list[tuple[Pair, ...]] = []
    spent: list[int] = []
    for k, stage in enumerate(stages):
        cands = [(h, r) for h, r in stage if h not in used_h and r not in used_r]
        pairs, ran_out = _align_stage(cands, fixed, budget)
        if ran_out:
            spent.append(k)
        chosen.append(pairs)
        for h, r in pairs:
            used_h.add(h)
            used_r.add(r)
        fixed.extend(pairs)
    return tuple(chosen), tuple(spent)


def align_stage(
    candidates: Sequence[tuple[int, int]],
    fixed: Sequence[tuple[int, int]] = (),
    *,
    budget: int = SEARCH_BUDGET,
) -> tuple[tuple[int, int], ...]:
    """Choose one stage's matches: most matches, then fewest crossings, then the tie rule.

    Args:
        candidates: ``(hypothesis position, reference position)`` pairs this stage allows;
            duplicates are ignored. Their positions must not occur in ``fixed``.
        fixed: One-to-one pairs chosen by earlier stages; they count towards crossings.
        budget: Work the stage's search may do (see :data:`SEARCH_BUDGET`).

    Returns:
        The chosen pairs, sorted by hypothesis position.

    Raises:
        ValueError: A position is negative, ``fixed`` is not one-to-one, or a candidate uses
            a position that ``fixed`` already matches.

    Warns:
        SearchBudgetWarning: the budget ran out; the result is the fallback described in
            :data:`SEARCH_BUDGET`.

    Example:
        Hypothesis "the cat the", reference "cat the": the second "the" avoids a crossing.

        >>> align_stage([(0, 1), (2, 1), (1, 0)])
        ((1, 0), (2, 1))
    """
    pairs, spent = _align_stage(candidates, fixed, budget)
    if spent:
        warnings.warn(_budget_message(budget), SearchBudgetWarning, stacklevel=2)
    return pairs


def _budget_message(budget: int, what: str = "an alignment stage") -> str:
    return (
        f"paper2005: the exact search of {what} ran out of its budget ({budget:,} units); "
        "kept the best alignment found so far (most matches, possibly more crossings than "
        "the optimum)"
    )


def _align_stage(
    candidates: Sequence[tuple[int, int]], fixed: Sequence[tuple[int, int]], budget: int
) -> tuple[tuple[tuple[int, int], ...], bool]:
    """:func:`align_stage` without the warning: the pairs and whether the budget ran out."""
    cands = sorted(set(candidates))
    fixed_list = [(h, r) for h, r in fixed]
    _validate(cands, fixed_list)
    if not cands:
        return (), False
    if len({h for h, _ in cands}) == len(cands) == len({r for _, r in cands}):
        # Every candidate is an isolated pair (the common case): all of them are chosen.
        return tuple(cands), False

    by_hyp: dict[int, list[int]] = {}
    by_ref: dict[int, list[int]] = {}
    for h, r in cands:
        by_hyp.setdefault(h, []).append(r)
        by_ref.setdefault(r, []).append(h)

    # Split the candidate graph into connected components. A component that is a complete
    # bipartite block with as many hyps as refs is matched completely in every maximum matching
    # and, by uncrossing, in order in every optimal one: it is decided here.
    forced: list[Pair] = []
    free_comps: list[list[Pair]] = []
    seen_hyp: set[int] = set()
    for h0, refs0 in by_hyp.items():
        if h0 in seen_hyp:
            continue
        if len(refs0) == 1 and len(by_ref[refs0[0]]) == 1:  # an isolated pair
            seen_hyp.add(h0)
            forced.append((h0, refs0[0]))
            continue
        hs = [h0]
        seen_hyp.add(h0)
        rs: list[int] = []
        seen_ref: set[int] = set()
        n_edges = 0
        for h in hs:  # breadth-first; hs grows while we walk it
            refs = by_hyp[h]
            n_edges += len(refs)
            for r in refs:
                if r not in seen_ref:
                    seen_ref.add(r)
                    rs.append(r)
                    for h2 in by_ref[r]:
                        if h2 not in seen_hyp:
                            seen_hyp.add(h2)
                            hs.append(h2)
        if len(hs) == len(rs) and n_edges == len(hs) * len(rs):
            forced.extend(zip(sorted(hs), sorted(rs), strict=True))
        else:
            free_comps.append([(h, r) for h in hs for r in by_hyp[h]])

    if not free_comps:
        forced.sort()
        return tuple(forced), False

    chosen, spent, _ = _search(free_comps, fixed_list + forced, budget)
    result = forced + chosen
    result.sort()
    return tuple(result), spent


def _validate(cands: list[Pair], fixed: list[Pair]) -> None:
    fixed_h = {h for h, _ in fixed}
    fixed_r = {r for _, r in fixed}
    if len(fixed_h) != len(fixed) or len(fixed_r) != len(fixed):
        raise ValueError(f"fixed must be one-to-one, got {sorted(fixed)!r}")
    if _valid_at_a_glance(cands, fixed, fixed_h, fixed_r):
        return
    for h, r in fixed:
        if h < 0 or r < 0:
            raise ValueError(f"positions must be non-negative, got fixed pair {(h, r)!r}")
    for h, r in cands:
        if h < 0 or r < 0:
            raise ValueError(f"positions must be non-negative, got candidate {(h, r)!r}")
        if h in fixed_h or r in fixed_r:
            raise ValueError(
                f"candidate {(h, r)!r} uses a position already matched in fixed; "
                "filter candidates to unmatched positions first (align_stages does this)"
            )


def _valid_at_a_glance(
    cands: list[Pair], fixed: list[Pair], fixed_h: set[int], fixed_r: set[int]
) -> bool:
    """Whether no position is negative and no candidate uses a fixed position, checked with a
    few whole-list operations (when not, :func:`_validate`'s loops find the first offender).
    ``cands`` is sorted, so its first hypothesis position is the smallest."""
    if fixed and (min(fixed_h) < 0 or min(fixed_r) < 0):
        return False
    if not cands:
        return True
    cand_r = [r for _, r in cands]
    if cands[0][0] < 0 or min(cand_r) < 0:
        return False
    return fixed_r.isdisjoint(cand_r) and fixed_h.isdisjoint([h for h, _ in cands])
