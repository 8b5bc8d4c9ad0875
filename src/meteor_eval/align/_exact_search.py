"""The exact search behind the 2005 paper's alignment (:mod:`meteor_eval.align.exhaustive`):
a branch-and-bound over the hypothesis positions of one stage's undecided components, with a
work budget.

Kept apart from the public functions so that each file reads as one step: ``exhaustive`` says
what is aligned and which result is kept (and when the budget ran out), this module how the
optimum is searched (nodes, bounds, matching repairs).

:class:`_Search` is the reference and the pure-Python twin of the compiled ``exact_search``
(``_ext/exact.c``), which walks the same nodes in the same order and spends the same budget
units; :func:`search_python` gives the twin the compiled function's signature.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable

Pair = tuple[int, int]

_INF = 1 << 60

# Fixed cost of a search node (the Python overhead of creating and bounding it), in units.
_NODE_COST = 64

# A search node: (matches, crossings, chosen-ref mask, dead-ref mask, mate of each hyp, mate of
# each ref, size of the maximum matching of the undecided part).
_Node = tuple[int, int, int, int, list[int], list[int], int]


def _crossings_with(h: int, r: int, base: Iterable[Pair]) -> int:
    n = 0
    for bh, br in base:
        if (bh < h) != (br < r):
            n += 1
    return n


class _Component:
    """One connected component of the undecided candidate graph, in local indices."""

    __slots__ = ("all_refs", "block", "hyps", "mask", "refs", "static", "zeros")

    def __init__(
        self, hyps: list[int], refs: list[int], block: bool, static: list[list[int]]
    ) -> None:
        self.hyps = hyps  # ascending local hyp indices
        self.refs = refs  # ascending local ref indices
        self.block = block  # complete bipartite?
        self.static = static  # blocks only: static[s][t] for hyps[s], refs[t]
        self.mask = sum(1 << y for y in refs)  # the refs as a bit mask
        self.all_refs = list(range(len(refs)))  # every ref live (no dead one in the block)
        self.zeros = [0] * len(refs)  # no chosen ref above the block


def search_python(
    comps: list[list[Pair]], base: list[Pair], budget: int
) -> tuple[list[Pair], bool, int]:
    """Run :class:`_Search`: the chosen pairs, whether the budget ran out, and the units left
    (negative once the budget is spent), as the compiled ``exact_search`` returns them."""
    search = _Search(comps, base, budget)
    pairs, spent = search.run()
    return pairs, spent, search.left


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
                    self.target += _augment(i, self.adj, self.mate_h, self.mate_r, 0)

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
    # The future pairs of each block with undecided hyps, described for _group_crossings.
    groups: list[_Future] = []
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
    if len(groups) < 2:  # crossings between the future pairs of different blocks only
        return total
    return total + _group_crossings(groups)


# The future pairs of a block, as _block_bound leaves them: its hyps, its refs, its first
# undecided hyp, its live refs (indices into refs), and how many undecided hyps and live refs.
_Future = tuple[list[int], list[int], int, list[int], int, int]


def _block_bound(
    comp: _Component,
    start: int,
    chosen: int,
    dead: int,
    groups: list[_Future],
) -> int:
    """Cheapest order-preserving completion of a complete block from its hyp ``start`` on;
    appends the description of its future pairs to ``groups``."""
    hyps = comp.hyps
    refs = comp.refs
    if dead & comp.mask:
        live = [t for t, y in enumerate(refs) if not (dead >> y) & 1]
    else:
        live = comp.all_refs
    a = len(hyps) - start
    b = len(live)
    if b == 0:
        return 0
    groups.append((hyps, refs, start, live, a, b))
    table = comp.static
    if not chosen >> (refs[0] + 1):
        # No chosen ref lies above the block's refs: no pair adds a crossing with them.
        if a == b:
            return sum([table[start + t][live[t]] for t in range(b)])
        extra = comp.zeros
    else:
        extra = [(chosen >> (refs[t] + 1)).bit_count() for t in live]
        if a == b:
            return sum([table[start + t][live[t]] + extra[t] for t in range(b)])
    # (With a == b the one order-preserving completion gives the s-th live ref to the s-th
    # undecided hyp, what the dynamic programmes below find.)
    if a >= b:
        # Every live ref is matched; dp[t]: cheapest way to match the first t refs.
        dp = [0] + [_INF] * b
        for s in range(a):
            row = table[start + s]
            for t in range(min(s + 1, b), max(0, b - a + s), -1):
                v = dp[t - 1] + row[live[t - 1]] + extra[t - 1]
                if v < dp[t]:
                    dp[t] = v
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
    return dp[a]


def _boxes(future: _Future) -> list[tuple[int, int, int, int]]:
    """The boxes (hyp range, ref range) of a block's future pairs: with at least as many
    undecided hyps as live refs, the t-th live ref goes to one of the undecided hyps t .. t + d;
    with fewer, the s-th undecided hyp takes one of the live refs s .. s + d."""
    hyps, refs, start, live, a, b = future
    if a >= b:
        d = a - b
        return [
            (hyps[start + t], hyps[start + t + d], refs[live[t]], refs[live[t]]) for t in range(b)
        ]
    d = b - a
    return [(hyps[start + s], hyps[start + s], refs[live[s]], refs[live[s + d]]) for s in range(a)]


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


def _group_crossings(futures: list[_Future]) -> int:
    """Crossings that future pairs of different blocks cannot avoid.

    In a block whose undecided hyps are all matched, its s-th undecided hyp takes one of the
    live refs s .. s + (#live - #undecided) (the cheapest completion is order-preserving), and
    symmetrically when all live refs are matched. Two such future pairs whose boxes are
    strictly anti-ordered must cross. (Pairs of one block never do, as its completion is
    order-preserving.)
    """
    groups = [_boxes(future) for future in futures]
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
            nu -= 1 - _augment(r0, radj, mr, mh, (1 << (i + 1)) - 1)
        dead |= 1 << j
        x = mr[j]
        if x >= 0:
            mr[j] = -1
            mh[x] = -1
            nu -= 1 - _augment(x, adj, mh, mr, dead)
    while removed:
        low = removed & -removed
        removed ^= low
        dead |= low
        x = mr[low.bit_length() - 1]
        if x >= 0:
            mr[low.bit_length() - 1] = -1
            mh[x] = -1
            nu -= 1 - _augment(x, adj, mh, mr, dead)
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
    nu -= 1 - _augment(r0, radj, mr, mh, (1 << (i + 1)) - 1)
    return (size, cross, chosen, dead, mh, mr, nu)


def _augment(u: int, adj: list[list[int]], mate: list[int], back: list[int], seen: int) -> int:
    """Search an augmenting path from the free vertex ``u``; apply it; return 0 or 1.

    ``adj`` lists each vertex's neighbours on the other side, ``mate`` and ``back`` are the
    matching seen from ``u``'s side and from the other side, and the bits of ``seen`` are the
    other side's vertices the path may not use. From a free hyp: ``adj``, ``mh``, ``mr`` and the
    dead refs (only undecided hyps are ever matched in ``mr``, so the path stays in the live
    part without a hyp filter). From a free ref: ``radj``, ``mr``, ``mh`` and the bits of the
    hyps below the first undecided one.
    """
    came_from: dict[int, int] = {}
    queue = [u]
    for x in queue:
        for y in adj[x]:
            if (seen >> y) & 1:
                continue
            seen |= 1 << y
            came_from[y] = x
            z = back[y]
            if z < 0:
                while True:
                    x = came_from[y]
                    prev = mate[x]
                    mate[x] = y
                    back[y] = x
                    if x == u:
                        return 1
                    y = prev
            queue.append(z)
    return 0
