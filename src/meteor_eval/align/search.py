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

Two implementations give identical results: the compiled extension ``meteor_eval.align._beam``
(built by the package's build when a C compiler is available, about 20 times faster) and the
pure-Python reference :func:`beam_align_python`. :func:`beam_align` uses the compiled one when it
is importable, unless the environment variable ``METEOR_EVAL_PURE_PYTHON`` is set to ``1`` when
this module is first imported.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from meteor_eval.match.base import CandidateStore, Match

__all__ = [
    "COMPILED",
    "DEFAULT_BEAM",
    "MAX_BEAM",
    "beam_align",
    "beam_align_compiled",
    "beam_align_python",
    "beam_align_stages",
    "compiled_kernels",
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


def beam_align_python(
    store: CandidateStore,
    aligner_weights: Sequence[float],
    *,
    beam: int = DEFAULT_BEAM,
) -> list[Match]:
    """Choose one alignment among the candidates, exactly as METEOR 1.5 does (pure Python).

    This is the reference implementation; the compiled one must agree with it on every input.

    Args:
        store: Candidates of every stage, in stage order per reference position.
        aligner_weights: Objective weight per stage (1.0 for exact, 0.5 otherwise in the jar).
        beam: Beam size (the jar's ``-x``, default 40).

    Returns:
        The chosen matches, ordered by reference position.
    """
    n_ref = len(store.by_ref)
    fixed = fixed_matches(store)
    fixed_at: dict[int, Match] = {m.ref_start: m for m in fixed}
    n_candidates = sum(len(c) for c in store.by_ref)
    if len(fixed) == n_candidates:
        # Nothing is ambiguous: every candidate is fixed, so every path ends with all of them.
        return sorted(fixed)

    hyp_mask = 0
    ref_mask = 0
    for m in fixed:
        hyp_mask |= ((1 << m.hyp_len) - 1) << m.hyp_start
        ref_mask |= ((1 << m.ref_len) - 1) << m.ref_start

    # Per candidate, once: span masks, the objective gain and the offset used by the distance.
    # The jar's W := trunc(W + len * a) adds floor(len * a) for the non-negative values here.
    def prepared(m: Match) -> tuple[Match, int, int, int, int, int, int]:
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

    by_ref = [[prepared(m) for m in cands] for cands in store.by_ref]
    fixed_info = {j: prepared(m) for j, m in fixed_at.items()}

    nxt: list[list[Any]] = [[0, 0, 0, None, hyp_mask, ref_mask, 0, -1]]
    for c in range(n_ref + 1):
        nxt.sort(key=_rank)
        current = nxt[:beam]
        nxt = []
        if c == n_ref:
            for path in current:
                if path[_LAST_END] != -1:
                    path[_CHUNKS] += 1
                nxt.append(path)
            break
        bit = 1 << c
        cands = by_ref[c]
        for path in current:
            if path[_REF] & bit:
                if c < path[_IDX]:
                    nxt.append(path)
                    continue
                info = fixed_info.get(c)
                if info is None:  # unreachable with consistent fixed matches
                    continue
                m = info[0]
                path[_NEG_W] -= info[3]
                if path[_LAST_END] != -1 and m.hyp_start != path[_LAST_END]:
                    path[_CHUNKS] += 1
                path[_IDX] = info[6]
                path[_LAST_END] = m.hyp_start + m.hyp_len
                path[_DIST] += info[4]
                nxt.append(path)
                continue
            p_hyp = path[_HYP]
            p_ref = path[_REF]
            last_end = path[_LAST_END]
            for m, hmask, rmask, gain, offset, hyp_start, ref_end in cands:
                if p_hyp & hmask or p_ref & rmask:
                    continue
                chunks = path[_CHUNKS]
                if last_end != -1 and hyp_start != last_end:
                    chunks += 1
                nxt.append(
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
            nxt.append(path)
        if not nxt:  # the jar warns and carries on with the best path; unreachable in practice
            nxt = [current[0]]
    nxt.sort(key=_rank)
    best = nxt[0]
    chosen = list(fixed)
    chain = best[_CHAIN]
    while chain is not None:
        chosen.append(chain[0])
        chain = chain[1]
    chosen.sort()
    return chosen


def _load_compiled() -> Callable[..., list[Match]] | None:
    try:
        from meteor_eval.align import _beam  # type: ignore[attr-defined, unused-ignore]
    except ImportError:
        return None
    function: Callable[..., list[Match]] = _beam.align
    return function


_compiled_align = _load_compiled()


def _load_compiled_stages() -> Callable[..., list[Match]] | None:
    if _compiled_align is None:
        return None
    from meteor_eval.align import _beam  # type: ignore[attr-defined, unused-ignore]

    function: Callable[..., list[Match]] | None = getattr(_beam, "align_stages", None)
    return function


_compiled_align_stages = _load_compiled_stages()


def compiled_kernels(*names: str) -> Any | None:
    """The compiled extension module, if it is used and provides every function in ``names``.

    The matchers call this once, at import, to pick their compiled candidate generators. It
    returns ``None`` (so the pure-Python code runs) when the extension is missing, predates those
    functions, or ``METEOR_EVAL_PURE_PYTHON=1`` is set.
    """
    if _compiled_align is None or os.environ.get("METEOR_EVAL_PURE_PYTHON") == "1":
        return None
    from meteor_eval.align import _beam  # type: ignore[attr-defined, unused-ignore]

    if not all(hasattr(_beam, name) for name in names):
        return None
    return _beam


#: True when :func:`beam_align` runs the compiled extension.
COMPILED: bool = _compiled_align is not None and os.environ.get("METEOR_EVAL_PURE_PYTHON") != "1"


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
        raise ImportError("meteor_eval.align._beam is not built; use beam_align_python")
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
