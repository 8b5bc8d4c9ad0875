"""METEOR 1.5's aligner: fixed one-to-one matches, then a beam search (spec sections 4.1 to 4.4).

This reproduces the official jar's choice exactly, quirks included:

* candidates of *all* stages are searched together; the objective uses aligner weights 1.0 for
  exact stages and 0.5 for every other stage, accumulated in 32-bit integers with truncation
  (J6), so a one-word stem, synonym or paraphrase match adds nothing to the objective;
* paths are ranked by (more weighted coverage, fewer *closed* chunks, smaller distance) with a
  stable sort before each beam cut, including after the last step;
* the "distance" bookkeeping charges the offsets of earlier acceptable candidates to later
  siblings and to the skip path, never a chosen match's own offset (fixed matches excepted).

Paths are kept as flat lists and copied only when a candidate is taken.

Two implementations give identical results: the compiled ``beam`` kernel (``_ext/beam.c``,
built by the package's build when a C compiler is available, about 20 times faster) and the
pure-Python reference :func:`beam_align_python`. :func:`beam_align` uses the compiled one when it
is built, unless the environment variable ``METEOR_EVAL_PURE_PYTHON`` is set to ``1`` when this
module is first imported (see :mod:`meteor_eval._ext`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from meteor_eval._ext import built_module, compiled_kernels
from meteor_eval.match.base import CandidateStore, Match

__all__ = [
    "COMPILED",
    "DEFAULT_BEAM",
    "MAX_BEAM",
    "beam_align",
    "beam_align_compiled",
    "beam_align_python",
    "beam_align_stages",
    "fixed_matches",
]

#: The jar's default beam size (``-x``).
DEFAULT_BEAM = 40

#: Largest beam a configuration accepts: the search keeps up to this many partial alignments per
#: reference position (100,000 takes about 50 ms a sentence; far larger ones overflow the
#: kernel's arrays or memory).
MAX_BEAM = 100_000

# A path is a flat list; the first three items are its sort key, so ``itemgetter`` can rank it.
#   NEG_W: minus the integer objective (W_h + W_r; only their sum is ever compared)
#   CHUNKS: closed chunks; DIST: the jar's quirky distance
#   CHAIN: chosen (non-fixed) matches as a linked list ``(match, rest)`` shared between paths
#   HYP, REF: used positions as integer bit masks (copying a path copies no arrays)
#   IDX: next reference position to decide; LAST_END: end of the open chunk or -1
_NEG_W, _CHUNKS, _DIST, _CHAIN, _HYP, _REF, _IDX, _LAST_END = range(8)
_rank = itemgetter(0, 1, 2)


def fixed_matches(store: CandidateStore) -> list[Match]:
    """Candidates that are alone at their reference position and cover only coverage-1 words."""
    fixed = []
    ref_cov = store.ref_coverage
    hyp_cov = store.hyp_coverage
    for cands in store.by_ref:
        if len(cands) != 1:
            continue
        m = cands[0]
        if all(ref_cov[j] == 1 for j in range(m.ref_start, m.ref_start + m.ref_len)) and all(
            hyp_cov[i] == 1 for i in range(m.hyp_start, m.hyp_start + m.hyp_len)
        ):
            fixed.append(m)
    return fixed


# A candidate prepared once per search: (match, hypothesis mask, reference mask, objective gain,
# offset, hypothesis start, reference end).
_Prepared = tuple[Match, int, int, int, int, int, int]


def _prepare(m: Match, aligner_weights: Sequence[float]) -> _Prepared:
    """A candidate's span masks, objective gain and the offset used by the distance.

    The jar's ``W := trunc(W + len * a)`` adds ``floor(len * a)`` for the non-negative values
    here.
    """
    a = aligner_weights[m.stage]
    gain = int(m.hyp_len * a) + int(m.ref_len * a)
    return (
        m,
        ((1 << m.hyp_len) - 1) << m.hyp_start,
        ((1 << m.ref_len) - 1) << m.ref_start,
        gain,
        abs(m.ref_start - m.hyp_start),
        m.hyp_start,
        m.ref_start + m.ref_len,
    )


def _start_path(fixed: Sequence[Match]) -> list[Any]:
    """The empty path, with the positions of the fixed matches already marked as used."""
    hyp_mask = 0
    ref_mask = 0
    for m in fixed:
        hyp_mask |= ((1 << m.hyp_len) - 1) << m.hyp_start
        ref_mask |= ((1 << m.ref_len) - 1) << m.ref_start
    return [0, 0, 0, None, hyp_mask, ref_mask, 0, -1]


def _pass_used_position(path: list[Any], c: int, fixed: _Prepared | None) -> bool:
    """Move ``path`` past reference position ``c``, already used by one of its matches.

    Inside a match chosen earlier the path passes through unchanged; at a fixed match's start the
    fixed match is added to its objective, chunks and distance. Returns whether the path goes on
    (always, unless the fixed matches are inconsistent).
    """
    if c < path[_IDX]:
        return True
    if fixed is None:  # unreachable with consistent fixed matches
        return False
    m = fixed[0]
    path[_NEG_W] -= fixed[3]
    if path[_LAST_END] != -1 and m.hyp_start != path[_LAST_END]:
        path[_CHUNKS] += 1
    path[_IDX] = fixed[6]
    path[_LAST_END] = m.hyp_start + m.hyp_len
    path[_DIST] += fixed[4]
    return True


def _branch(path: list[Any], cands: Sequence[_Prepared], out: list[list[Any]]) -> None:
    """Append the successors of ``path`` at a free reference position to ``out``, in order.

    First one new path per candidate that fits (its spans are free), then ``path`` itself as the
    skip successor. The jar's distance quirk: each fitting candidate's offset is charged to the
    parent *after* its copy is made, so later siblings and the skip path carry it.
    """
    p_hyp = path[_HYP]
    p_ref = path[_REF]
    last_end = path[_LAST_END]
    for m, hmask, rmask, gain, offset, hyp_start, ref_end in cands:
        if p_hyp & hmask or p_ref & rmask:
            continue
        chunks = path[_CHUNKS]
        if last_end != -1 and hyp_start != last_end:
            chunks += 1
        out.append(
            [
                path[_NEG_W] - gain,
                chunks,
                path[_DIST],
                (m, path[_CHAIN]),
                p_hyp | hmask,
                p_ref | rmask,
                ref_end,
                hyp_start + m.hyp_len,
            ]
        )
        path[_DIST] += offset
    if last_end != -1:
        path[_CHUNKS] += 1
        path[_LAST_END] = -1
    path[_IDX] += 1
    out.append(path)


def _successors(
    current: Sequence[list[Any]], c: int, cands: Sequence[_Prepared], fixed: _Prepared | None
) -> list[list[Any]]:
    """Every successor of the kept paths at reference position ``c``, in generation order."""
    out: list[list[Any]] = []
    bit = 1 << c
    for path in current:
        if not path[_REF] & bit:
            _branch(path, cands, out)
        elif _pass_used_position(path, c, fixed):
            out.append(path)
    return out


def _chosen(fixed: Sequence[Match], best: list[Any]) -> list[Match]:
    """The fixed matches and the best path's chosen ones, ordered by reference position."""
    chosen = list(fixed)
    chain = best[_CHAIN]
    while chain is not None:
        chosen.append(chain[0])
        chain = chain[1]
    chosen.sort()
    return chosen


#: Bound of ``|weight| * (hypothesis + reference words)``: METEOR 1.5's objective is a 64-bit
#: integer, as the jar's is; beyond it the compiled search would overflow and the jar wrap.
OBJECTIVE_LIMIT = 2.0**62


def check_objective_weights(aligner_weights: Sequence[float], hyp_len: int, ref_len: int) -> None:
    """Refuse aligner weights that could overflow the search's 64-bit objective on a segment
    of ``hyp_len`` + ``ref_len`` words (NaN included), rather than return another alignment.
    The compiled search applies the same rule. METEOR's own weights (1.0 and 0.5) are far below.

    Raises:
        ValueError: naming the weight and the segment's size.
    """
    words = hyp_len + ref_len
    for k, weight in enumerate(aligner_weights):
        if not abs(weight) * words < OBJECTIVE_LIMIT:
            raise ValueError(
                f"aligner_weights[{k}]: {float(weight)!r} for {hyp_len} + {ref_len} words could "
                "overflow the search's 64-bit objective (|weight| x words must stay below 2**62)"
            )


def beam_align_python(
    store: CandidateStore,
    aligner_weights: Sequence[float],
    *,
    beam: int = DEFAULT_BEAM,
) -> list[Match]:
    """Choose one alignment among the candidates, exactly as METEOR 1.5 does (pure Python).

    This is the reference implementation; the compiled one must agree with it on every input.
    Arguments and result: those of :func:`beam_align`.
    """
    check_objective_weights(aligner_weights, len(store.hyp_coverage), len(store.ref_coverage))
    fixed = fixed_matches(store)
    if len(fixed) == sum(len(c) for c in store.by_ref):
        # Nothing is ambiguous: every candidate is fixed, so every path ends with all of them.
        return sorted(fixed)
    by_ref = [[_prepare(m, aligner_weights) for m in cands] for cands in store.by_ref]
    fixed_info = {m.ref_start: _prepare(m, aligner_weights) for m in fixed}

    nxt: list[list[Any]] = [_start_path(fixed)]
    for c, cands in enumerate(by_ref):
        nxt.sort(key=_rank)
        current = nxt[:beam]
        nxt = _successors(current, c, cands, fixed_info.get(c))
        if not nxt:  # the jar warns and carries on with the best path; unreachable in practice
            nxt = [current[0]]
    # After the last position: one more beam cut, then every open chunk is closed.
    nxt.sort(key=_rank)
    final = nxt[:beam]
    for path in final:
        if path[_LAST_END] != -1:
            path[_CHUNKS] += 1
    final.sort(key=_rank)
    return _chosen(fixed, final[0])


# The compiled beam search whether or not it is in use: beam_align_compiled() runs it on request
# (parity tests), beam_align() and beam_align_stages() only when COMPILED.
_compiled_align: Callable[..., list[Match]] | None = getattr(built_module(), "align", None)
_compiled_align_stages: Callable[..., list[Match]] | None = getattr(
    built_module(), "align_stages", None
)

#: True when :func:`beam_align` runs the compiled extension.
COMPILED: bool = compiled_kernels("align") is not None


def beam_align_compiled(
    store: CandidateStore,
    aligner_weights: Sequence[float],
    *,
    beam: int = DEFAULT_BEAM,
) -> list[Match]:
    """:func:`beam_align_python` in C: the same alignment, computed about 20 times faster.

    Raises:
        ImportError: the extension was not built (no C compiler when the package was installed).
    """
    if _compiled_align is None:
        raise ImportError("meteor_eval._ext._kernels is not built; use beam_align_python")
    if beam < 1:
        raise ValueError("beam: must be at least 1")
    return _compiled_align(
        store.by_ref, store.hyp_coverage, store.ref_coverage, aligner_weights, beam
    )


def beam_align(
    store: CandidateStore,
    aligner_weights: Sequence[float],
    *,
    beam: int = DEFAULT_BEAM,
) -> list[Match]:
    """Choose one alignment among the candidates, exactly as METEOR 1.5 does.

    Runs the compiled extension when it is available (see :data:`COMPILED`), else the pure-Python
    reference; both return the same matches.

    Args:
        store: Candidates of every stage, in stage order per reference position.
        aligner_weights: Objective weight per stage (1.0 for exact, 0.5 otherwise in the jar).
        beam: Beam size (the jar's ``-x``, default 40).

    Returns:
        The chosen matches, ordered by reference position.
    """
    if COMPILED:
        return _compiled_align(  # type: ignore[misc]
            store.by_ref, store.hyp_coverage, store.ref_coverage, aligner_weights, beam
        )
    return beam_align_python(store, aligner_weights, beam=beam)


def beam_align_stages(
    stage_lists: Sequence[list[Match]],
    hyp_len: int,
    ref_len: int,
    aligner_weights: Sequence[float],
    *,
    beam: int = DEFAULT_BEAM,
) -> list[Match]:
    """:func:`beam_align` on the store built by appending each stage's candidates in order.

    With the compiled extension the store is built inside it (no :class:`CandidateStore`
    object); otherwise this builds one and runs :func:`beam_align`. Same result either way.

    Args:
        stage_lists: One list of candidates per stage, each in its matcher's order.
        hyp_len: Number of hypothesis tokens.
        ref_len: Number of reference tokens.
        aligner_weights: Objective weight per stage.
        beam: Beam size.

    Returns:
        The chosen matches, ordered by reference position.
    """
    if COMPILED and _compiled_align_stages is not None:
        return _compiled_align_stages(stage_lists, hyp_len, ref_len, aligner_weights, beam)
    store = CandidateStore(hyp_len, ref_len)
    for candidates in stage_lists:
        store.extend(candidates)
    return beam_align(store, aligner_weights, beam=beam)
