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

The stages themselves (which words are candidates) belong to the matchers; this module only
sees integer positions, so it is pure and needs no resources.

References:
    Satanjeev Banerjee and Alon Lavie. 2005. METEOR: An Automatic Metric for MT Evaluation with
    Improved Correlation with Human Judgments. In Proceedings of the ACL Workshop on Intrinsic
    and Extrinsic Evaluation Measures for Machine Translation and/or Summarization, 65-72.
"""

from __future__ import annotations

import warnings
from bisect import bisect_left
from collections.abc import Iterable, Sequence

from meteor_eval.errors import SearchBudgetWarning

__all__ = [
    "SEARCH_BUDGET",
    "align_stage",
    "align_stages",
    "align_stages_bounded",
    "count_crossings",
]

Pair = tuple[int, int]

_INF = 1 << 60

#: Work that one stage's exact search may do. Expanding a search node costs
#: ``_NODE_COST`` units plus one per hypothesis position and per candidate pair its bound and
#: matching repair may scan, so the budget caps time (one to two seconds a stage in CPython)
#: whatever the line length. The news sentences of the shared data use at most 70,000 units.
#: Within the budget the result is exact. A stage that needs more keeps the best alignment
#: found so far: the first complete one comes from a greedy dive along the smallest bound, and
#: every later one has fewer crossings (or as many and a smaller assignment vector). If the
#: budget runs out before any alignment is complete, the stage takes a maximum matching
#: (crossings not minimised). Either way the number of matches is the maximum; only the
#: crossings, hence the chunks, may differ from the optimum. See ``docs/limits.md``.
SEARCH_BUDGET = 20_000_000

# Fixed cost of a search node (the Python overhead of creating and bounding it), in units.
_NODE_COST = 64

# A search node: (matches, crossings, chosen-ref mask, dead-ref mask, mate of each hyp, mate of
# each ref, size of the maximum matching of the undecided part).
_Node = tuple[int, int, int, int, list[int], list[int], int]


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
    the stages whose search ran out of budget (empty when every result is exact)."""
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

    chosen, spent = _Search(free_comps, fixed_list + forced, budget).run()
    result = forced + chosen
    result.sort()
    return tuple(result), spent


def _validate(cands: list[Pair], fixed: list[Pair]) -> None:
    fixed_h = {h for h, _ in fixed}
    fixed_r = {r for _, r in fixed}
    if len(fixed_h) != len(fixed) or len(fixed_r) != len(fixed):
        raise ValueError(f"fixed must be one-to-one, got {sorted(fixed)!r}")
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


def _crossings_with(h: int, r: int, base: Iterable[Pair]) -> int:
    n = 0
    for bh, br in base:
        if (bh < h) != (br < r):
            n += 1
    return n


class _Component:
    """One connected component of the undecided candidate graph, in local indices."""

    __slots__ = ("block", "hyps", "refs", "static")

    def __init__(
        self, hyps: list[int], refs: list[int], block: bool, static: list[list[int]]
    ) -> None:
        self.hyps = hyps  # ascending local hyp indices
        self.refs = refs  # ascending local ref indices
        self.block = block  # complete bipartite?
        self.static = static  # blocks only: static[s][t] for hyps[s], refs[t]


class _BudgetSpentError(Exception):
    """Raised inside the search when its budget is spent."""


class _Search:
    """Exact branch and bound over the components that are not decided up front.

    ``comps`` are the remaining connected components of the candidate graph (edge lists);
    ``base`` holds every pair already placed (earlier stages and forced blocks), whose crossings
    with the new pairs count. ``budget`` caps the work (:data:`SEARCH_BUDGET`); once it is
    spent, :meth:`run` returns the best alignment found so far (see :func:`align_stage`).
    """

    __slots__ = (
        "adj",
        "adj_cost",
        "best_cross",
        "choice",
        "comp_of",
        "components",
        "hyp_pos",
        "incumbent",
        "left",
        "left_in_comp",
        "lower_twins",
        "m",
        "mate_h",
        "mate_r",
        "n",
        "node_cost",
        "radj",
        "ref_mask",
        "ref_pos",
        "target",
        "twin_prev",
    )

    def __init__(self, comps: list[list[Pair]], base: list[Pair], budget: int) -> None:
        edges = sorted(e for comp in comps for e in comp)
        self.hyp_pos = sorted({h for h, _ in edges})
        self.ref_pos = sorted({r for _, r in edges})
        self.n = len(self.hyp_pos)
        self.m = len(self.ref_pos)
        self.left = budget
        self.best_cross = _INF
        self.incumbent = [self.m] * self.n
        self.choice = [-1] * self.n
        static_of = self._graph(edges, base)
        self._components(comps, static_of)
        self._twins()
        self._initial_matching()

    # -- set-up ----------------------------------------------------------------------------

    def _graph(self, edges: list[Pair], base: list[Pair]) -> dict[Pair, int]:
        """Local adjacency lists and each pair's crossings with the pairs already placed."""
        hyp_idx = {h: i for i, h in enumerate(self.hyp_pos)}
        ref_idx = {r: j for j, r in enumerate(self.ref_pos)}
        self.adj: list[list[int]] = [[] for _ in range(self.n)]
        self.radj: list[list[int]] = [[] for _ in range(self.m)]
        static_of: dict[Pair, int] = {}
        for h, r in edges:  # sorted by (h, r), so adjacency lists come out ascending
            i, j = hyp_idx[h], ref_idx[r]
            self.adj[i].append(j)
            self.radj[j].append(i)
            static_of[i, j] = _crossings_with(h, r, base)
        # Per hyp: (local ref, crossings of that pair with the pairs already placed).
        self.adj_cost = [[(j, static_of[i, j]) for j in self.adj[i]] for i in range(self.n)]
        # Budget units of a node at depth i: a fixed cost, the positions, and the candidate
        # pairs of the hyps after i (what its bound and matching repair scan at most).
        self.node_cost = [0] * self.n
        pairs_after = 0
        for i in range(self.n - 1, -1, -1):
            self.node_cost[i] = _NODE_COST + self.n + pairs_after
            pairs_after += len(self.adj[i])
        return static_of

    def _components(self, comps: list[list[Pair]], static_of: dict[Pair, int]) -> None:
        """The components in local indices, and per hyp its component and rank in it."""
        hyp_idx = {h: i for i, h in enumerate(self.hyp_pos)}
        ref_idx = {r: j for j, r in enumerate(self.ref_pos)}
        self.components = []
        self.comp_of = [0] * self.n
        self.left_in_comp = [0] * self.n  # undecided hyps of the component from this one on
        self.ref_mask = [0] * len(comps)
        for c, comp_edges in enumerate(comps):
            hs = sorted({hyp_idx[h] for h, _ in comp_edges})
            rs = sorted({ref_idx[r] for _, r in comp_edges})
            block = len(comp_edges) == len(hs) * len(rs)
            table = [[static_of[i, j] for j in rs] for i in hs] if block else []
            self.components.append(_Component(hs, rs, block, table))
            for rank, x in enumerate(hs):
                self.comp_of[x] = c
                self.left_in_comp[x] = len(hs) - rank
            for y in rs:
                self.ref_mask[c] |= 1 << y

    def _twins(self) -> None:
        """Twins (identical candidate sets) are matched in order in every optimal alignment:
        per hyp its previous twin, per ref the mask of its lower twins."""
        self.twin_prev = [-1] * self.n
        last_with: dict[tuple[int, ...], int] = {}
        for i in range(self.n):
            key = tuple(self.adj[i])
            self.twin_prev[i] = last_with.get(key, -1)
            last_with[key] = i
        self.lower_twins = [0] * self.m
        groups: dict[tuple[int, ...], int] = {}
        for j in range(self.m):
            key = tuple(self.radj[j])
            self.lower_twins[j] = groups.get(key, 0)
            groups[key] = self.lower_twins[j] | (1 << j)

    def _initial_matching(self) -> None:
        """A maximum matching of the whole graph: its size is the number of matches to reach.
        Only the components that are not complete blocks keep an explicit matching (a block's
        maximum is min(#undecided hyps, #live refs))."""
        self.mate_h = [-1] * self.n
        self.mate_r = [-1] * self.m
        self.target = 0
        for comp in self.components:
            if comp.block:
                self.target += min(len(comp.hyps), len(comp.refs))
            else:
                for i in comp.hyps:
                    self.target += _augment_forward(i, self.adj, self.mate_h, self.mate_r, 0)

    # -- nodes -----------------------------------------------------------------------------

    def expand(self, i: int, node: _Node, k: int, limit: int) -> tuple[_Node, int] | None:
        """Child of ``node`` (depth ``i``) for option ``k`` and its bound, or None if hopeless.

        Option ``k < len(adj[i])`` matches hyp ``i`` with its ``k``-th candidate; the last
        option leaves it unmatched. ``limit``: children whose crossing bound reaches it are cut.

        Raises:
            _BudgetSpentError: the budget is spent.
        """
        self.left -= self.node_cost[i]
        if self.left < 0:
            raise _BudgetSpentError
        options = self.adj_cost[i]
        if k < len(options):
            # The cheap cuts first: a dead ref, a twin out of order, too many crossings.
            j, static = options[k]
            if (node[3] >> j) & 1:
                return None
            p = self.twin_prev[i]
            if p >= 0 and self.choice[p] > j:
                return None
            new_cross = node[1] + static + (node[2] >> (j + 1)).bit_count()
            if new_cross >= limit:
                return None
            child = self._match_child(i, j, new_cross, node)
        else:
            child = self._skip_child(i, node)
        if child is None or child[6] < self.target - child[0]:
            return None
        value = _bound(i + 1, child, self.components, self.adj_cost, limit)
        if value >= limit:
            return None
        return child, value

    def _match_child(self, i: int, j: int, new_cross: int, node: _Node) -> _Node:
        """The node after matching hyp ``i`` with ref ``j`` (``new_cross`` crossings)."""
        size, _, chosen, dead, mh, mr, nu = node
        c = self.comp_of[i]
        if not self.components[c].block:
            return _child_match(i, j, new_cross, node, self.adj, self.radj, self.lower_twins)
        a = self.left_in_comp[i]
        b = len(self.components[c].refs) - (dead & self.ref_mask[c]).bit_count()
        killed = self.lower_twins[j] & ~dead
        new_b = b - 1 - killed.bit_count()
        return (
            size + 1,
            new_cross,
            chosen | (1 << j),
            dead | killed | (1 << j),
            mh,
            mr,
            nu - min(a, b) + min(a - 1, new_b),
        )

    def _skip_child(self, i: int, node: _Node) -> _Node:
        """The node after leaving hyp ``i`` unmatched."""
        c = self.comp_of[i]
        if not self.components[c].block:
            return _child_skip(i, node, self.radj)
        size, cross, chosen, dead, mh, mr, nu = node
        a = self.left_in_comp[i]
        b = len(self.components[c].refs) - (dead & self.ref_mask[c]).bit_count()
        return (size, cross, chosen, dead, mh, mr, nu - min(a, b) + min(a - 1, b))

    def _option_ref(self, i: int, k: int) -> int:
        """The local ref of option ``k`` of hyp ``i`` (-1: unmatched)."""
        options = self.adj_cost[i]
        return options[k][0] if k < len(options) else -1

    # -- the search ------------------------------------------------------------------------

    def run(self) -> tuple[list[Pair], bool]:
        """The chosen pairs, and whether the budget ran out (then the pairs are the best
        alignment found so far, or a maximum matching if none was complete)."""
        root: _Node = (0, 0, 0, 0, self.mate_h, self.mate_r, self.target)
        try:
            self._dive(root)
            self._depth_first(root)
        except _BudgetSpentError:
            if self.best_cross == _INF:
                return self._maximum_matching(), True
            return self._pairs(self.incumbent), True
        return self._pairs(self.incumbent), False

    def _pairs(self, assignment: list[int]) -> list[Pair]:
        return [(self.hyp_pos[i], self.ref_pos[j]) for i, j in enumerate(assignment) if j < self.m]

    def _maximum_matching(self) -> list[Pair]:
        """A maximum matching with no crossing minimisation: the fallback without incumbent
        (the explicit matching outside blocks, the order-preserving pairing inside them)."""
        assignment = [j if j >= 0 else self.m for j in self.mate_h]
        for comp in self.components:
            if comp.block:
                for x, y in zip(comp.hyps, comp.refs, strict=False):
                    assignment[x] = y
        return self._pairs(assignment)

    def _dive(self, root: _Node) -> None:
        """Follow the child with the smallest bound to get a good first alignment. Twin
        constraints are not part of the matching check, so outside complete blocks the dive can
        reach a dead end; the search then starts without an incumbent."""
        node = root
        for i in range(self.n):
            best_child: _Node | None = None
            best_value = _INF
            best_opt = -1
            for k in range(len(self.adj_cost[i]) + 1):
                expanded = self.expand(i, node, k, best_value)
                if expanded is not None:
                    best_child, best_value = expanded
                    best_opt = self._option_ref(i, k)
            if best_child is None:
                return
            self.choice[i] = best_opt
            node = best_child
        self._record(node)

    def _record(self, leaf: _Node) -> None:
        """Make the current choices the incumbent."""
        self.best_cross = leaf[1]
        self.incumbent = [j if j >= 0 else self.m for j in self.choice]

    def _depth_first(self, root: _Node) -> None:
        """Depth-first search in the order of assignment vectors. nodes[d] is the node at depth
        d, next_opt[d] its next option, rel[d] how its prefix compares with the incumbent's
        (-1 smaller, 0 equal, 1 larger): a subtree that ties the incumbent's crossings can only
        win if its prefix is not larger."""
        nodes: list[_Node] = [root]
        next_opt = [0]
        rel = [0]
        while nodes:
            i = len(nodes) - 1
            node = nodes[i]
            found = None
            if i == self.n:
                if node[1] < self.best_cross or rel[i] < 0:
                    self._record(node)
                    rel = [0] * len(rel)
            else:
                found, next_opt[i], child_rel = self._next_child(i, node, next_opt[i], rel[i])
            if found is None:
                nodes.pop()
                next_opt.pop()
                rel.pop()
            else:
                nodes.append(found)
                next_opt.append(0)
                rel.append(child_rel)

    def _next_child(self, i: int, node: _Node, k: int, rel: int) -> tuple[_Node | None, int, int]:
        """The first child of ``node`` from option ``k`` on that may still win: the child (or
        None), the next option to try, and how the child's prefix compares with the
        incumbent's."""
        n_opts = len(self.adj_cost[i]) + 1
        while k < n_opts:
            opt = self._option_ref(i, k)
            child_rel = rel
            if child_rel == 0:
                opt_key = opt if opt >= 0 else self.m
                inc = self.incumbent[i]
                child_rel = -1 if opt_key < inc else (1 if opt_key > inc else 0)
            limit = self.best_cross if child_rel > 0 else self.best_cross + 1
            found = self.expand(i, node, k, limit)
            k += 1
            if found is not None:
                self.choice[i] = opt
                return found[0], k, child_rel
        return None, k, rel


def _bound(
    lo: int,
    node: _Node,
    components: list[_Component],
    adj_cost: list[list[tuple[int, int]]],
    limit: int,
) -> int:
    """Crossings of ``node`` plus a lower bound on those still to come (early exit at ``limit``).

    Every pair placed later has a larger hyp than the pairs placed so far, so it crosses exactly
    the placed pairs with a larger ref; the bound adds, per component, the cheapest way to
    complete its maximum matching under those costs, ignoring crossings among later pairs.
    Every component must end maximally matched because the overall maximum is their sum. In a
    complete block the cheapest completion is order-preserving (uncrossing never adds a
    crossing with a placed pair), so a banded dynamic programme finds it
    (:func:`_block_bound`); elsewhere the bound takes the cheapest options of the cheapest hyps
    (:func:`_free_bound`). Crossings that future pairs of different blocks cannot avoid come on
    top (:func:`_group_crossings`).
    """
    total = node[1]
    chosen = node[2]
    dead = node[3]
    # Future pairs of blocks as boxes (hyp range, ref range), grouped per block.
    groups: list[list[tuple[int, int, int, int]]] = []
    for comp in components:
        start = bisect_left(comp.hyps, lo)
        if start == len(comp.hyps):
            continue
        if comp.block:
            total += _block_bound(comp, start, chosen, dead, groups)
        else:
            total += _free_bound(comp.hyps[start:], node[4], adj_cost, chosen, dead)
        if total >= limit:
            return total
    return total + _group_crossings(groups)


def _block_bound(
    comp: _Component,
    start: int,
    chosen: int,
    dead: int,
    groups: list[list[tuple[int, int, int, int]]],
) -> int:
    """Cheapest order-preserving completion of a complete block from its hyp ``start`` on;
    appends the boxes of its future pairs to ``groups``."""
    hyps = comp.hyps
    refs = comp.refs
    live = [t for t, y in enumerate(refs) if not (dead >> y) & 1]
    a = len(hyps) - start
    b = len(live)
    if b == 0:
        return 0
    extra = [(chosen >> (refs[t] + 1)).bit_count() for t in live]
    table = comp.static
    if a >= b:
        # Every live ref is matched; dp[t]: cheapest way to match the first t refs.
        dp = [0] + [_INF] * b
        for s in range(a):
            row = table[start + s]
            for t in range(min(s + 1, b), max(0, b - a + s), -1):
                v = dp[t - 1] + row[live[t - 1]] + extra[t - 1]
                if v < dp[t]:
                    dp[t] = v
        d = a - b
        groups.append(
            [(hyps[start + t], hyps[start + t + d], refs[live[t]], refs[live[t]]) for t in range(b)]
        )
        return dp[b]
    # Every undecided hyp is matched; dp[s]: cheapest way to match the first s hyps.
    dp = [0] + [_INF] * a
    for t in range(b):
        col = live[t]
        cost = extra[t]
        for s in range(min(t + 1, a), max(0, a - b + t), -1):
            v = dp[s - 1] + table[start + s - 1][col] + cost
            if v < dp[s]:
                dp[s] = v
    d = b - a
    groups.append(
        [(hyps[start + s], hyps[start + s], refs[live[s]], refs[live[s + d]]) for s in range(a)]
    )
    return dp[a]


def _free_bound(
    hyps: list[int], mh: list[int], adj_cost: list[list[tuple[int, int]]], chosen: int, dead: int
) -> int:
    """Lower bound for a component that is not a complete block: as many of the cheapest
    per-hyp options as its maximum matching still has pairs among ``hyps``."""
    need = 0
    costs: list[int] = []
    for x in hyps:
        if mh[x] >= 0:
            need += 1
        best = _INF
        for y, static in adj_cost[x]:
            if not (dead >> y) & 1:
                c = static + (chosen >> (y + 1)).bit_count()
                if c < best:
                    best = c
        if best < _INF:
            costs.append(best)
    if not need:
        return 0
    costs.sort()
    return sum(costs[:need])


def _group_crossings(groups: list[list[tuple[int, int, int, int]]]) -> int:
    """Crossings that future pairs of different blocks cannot avoid.

    In a block whose undecided hyps are all matched, its s-th undecided hyp takes one of the
    live refs s .. s + (#live - #undecided) (the cheapest completion is order-preserving), and
    symmetrically when all live refs are matched. Two such future pairs whose boxes are
    strictly anti-ordered must cross. (Pairs of one block never do, as its completion is
    order-preserving.)
    """
    total = 0
    for g, group in enumerate(groups):
        for other in groups[g + 1 :]:
            for hl1, hh1, rl1, rh1 in group:
                for hl2, hh2, rl2, rh2 in other:
                    if (hh1 < hl2 and rl1 > rh2) or (hh2 < hl1 and rl2 > rh1):
                        total += 1
    return total


def _child_match(
    i: int,
    j: int,
    cross: int,
    node: _Node,
    adj: list[list[int]],
    radj: list[list[int]],
    lower_twins: list[int],
) -> _Node:
    """The node after matching hyp ``i`` with ref ``j``: remove both, repair the matching.

    Vertices are removed one at a time. Removing a vertex whose partner then becomes free can
    only open augmenting paths that end at that partner (any other such path would have
    augmented the previous, maximum, matching), so one search from the partner restores a
    maximum matching.
    """
    size, _, chosen, dead, mh, mr, nu = node
    mh = mh[:]
    mr = mr[:]
    # Unused lower twins of j can no longer be matched without crossing (i, j) needlessly.
    removed = lower_twins[j] & ~dead
    if mh[i] == j:
        # Removing both ends of a matched edge keeps the rest maximum.
        mh[i] = -1
        mr[j] = -1
        nu -= 1
        dead |= 1 << j
    else:
        r0 = mh[i]
        if r0 >= 0:
            mh[i] = -1
            mr[r0] = -1
            nu -= 1 - _augment_backward(r0, radj, mh, mr, i + 1)
        dead |= 1 << j
        x = mr[j]
        if x >= 0:
            mr[j] = -1
            mh[x] = -1
            nu -= 1 - _augment_forward(x, adj, mh, mr, dead)
    while removed:
        low = removed & -removed
        removed ^= low
        dead |= low
        x = mr[low.bit_length() - 1]
        if x >= 0:
            mr[low.bit_length() - 1] = -1
            mh[x] = -1
            nu -= 1 - _augment_forward(x, adj, mh, mr, dead)
    return (size + 1, cross, chosen | (1 << j), dead, mh, mr, nu)


def _child_skip(i: int, node: _Node, radj: list[list[int]]) -> _Node:
    """The node after leaving hyp ``i`` unmatched."""
    size, cross, chosen, dead, mh, mr, nu = node
    r0 = mh[i]
    if r0 < 0:
        return node
    mh = mh[:]
    mr = mr[:]
    mh[i] = -1
    mr[r0] = -1
    nu -= 1 - _augment_backward(r0, radj, mh, mr, i + 1)
    return (size, cross, chosen, dead, mh, mr, nu)


def _augment_forward(u: int, adj: list[list[int]], mh: list[int], mr: list[int], dead: int) -> int:
    """Search an augmenting path from free hyp ``u`` over live refs; apply it; return 0 or 1.

    Only hyps that are still undecided are ever matched in ``mr``, so the search stays inside
    the live part of the graph without an explicit hyp filter.
    """
    came_from: dict[int, int] = {}
    queue = [u]
    seen = dead
    for x in queue:
        for y in adj[x]:
            if (seen >> y) & 1:
                continue
            seen |= 1 << y
            came_from[y] = x
            z = mr[y]
            if z < 0:
                while True:
                    x = came_from[y]
                    prev = mh[x]
                    mh[x] = y
                    mr[y] = x
                    if x == u:
                        return 1
                    y = prev
            queue.append(z)
    return 0


def _augment_backward(v: int, radj: list[list[int]], mh: list[int], mr: list[int], lo: int) -> int:
    """Search an augmenting path ending at free ref ``v`` over hyps ``>= lo``; apply it."""
    came_from: dict[int, int] = {}
    queue = [v]
    seen: set[int] = set()
    for y in queue:
        for x in radj[y]:
            if x < lo or x in seen:
                continue
            seen.add(x)
            came_from[x] = y
            z = mh[x]
            if z < 0:
                while True:
                    y = came_from[x]
                    prev = mr[y]
                    mr[y] = x
                    mh[x] = y
                    if y == v:
                        return 1
                    x = prev
            queue.append(z)
    return 0
