"""The two alignment types of METEOR 1.5's aligner: what its beam search maximises.

The jar's standalone aligner (``Matcher -t maxcov|maxacc``) ranks partial alignments in one of
two ways; the scorer always uses the first:

``maxcov`` (maximum coverage; the default, and what ``Meteor`` scores with)
    more weighted words covered, where each side's count adds ``trunc(length * weight)`` with
    weight 1.0 for ``exact`` and 0.5 for every other module (so a one-word stem, synonym or
    paraphrase match adds nothing), then fewer chunks, then a smaller distance.
``maxacc`` (maximum accuracy)
    more words covered by ``exact``, ``stem`` and ``synonym`` matches (weight 1.0 each,
    paraphrase 0.0), then more words covered by any match, then fewer chunks, then a smaller
    distance. Paraphrases only fill what the word-level modules leave free.

Both are lexicographic orders on integers, so :func:`objective_weights` folds the second one into
the single objective that :func:`~meteor_eval.align.search.beam_align` already maximises: with
``S`` larger than any possible count of words covered (``hyp_len + ref_len + 1``), word-level
modules get weight ``S`` and paraphrase weight 1, and ``S * (word-level words) + (paraphrase
words)`` orders paths exactly as the pair (word-level words, all words) does, because the
paraphrase term is always below ``S``. Ties then fall to chunks and distance, as in the jar.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

from meteor_eval.align.search import DEFAULT_BEAM, beam_align_stages, fixed_matches
from meteor_eval.errors import ConfigError
from meteor_eval.match.base import CandidateStore, Match

__all__ = ["ALIGNMENT_TYPES", "AlignmentType", "choose_matches", "objective_weights"]

AlignmentType = Literal["maxcov", "maxacc"]

#: The alignment types, the default first.
ALIGNMENT_TYPES: Final[tuple[AlignmentType, ...]] = ("maxcov", "maxacc")


def objective_weights(
    modules: Sequence[str], kind: AlignmentType, *, hyp_len: int, ref_len: int
) -> tuple[float, ...]:
    """Per-stage weights for :func:`~meteor_eval.align.search.beam_align` giving ``kind``'s order.

    Args:
        modules: Module name of each stage.
        kind: ``"maxcov"`` or ``"maxacc"``.
        hyp_len: Number of hypothesis tokens.
        ref_len: Number of reference tokens.

    Raises:
        ConfigError: ``kind`` is not an alignment type.

    Example:
        >>> objective_weights(("exact", "stem", "paraphrase"), "maxcov", hyp_len=3, ref_len=4)
        (1.0, 0.5, 0.5)
        >>> objective_weights(("exact", "stem", "paraphrase"), "maxacc", hyp_len=3, ref_len=4)
        (8.0, 8.0, 1.0)
    """
    if kind == "maxcov":
        return tuple(1.0 if m == "exact" else 0.5 for m in modules)
    if kind == "maxacc":
        scale = float(hyp_len + ref_len + 1)
        return tuple(1.0 if m == "paraphrase" else scale for m in modules)
    raise ConfigError(f"alignment type: {kind!r} is unknown; allowed: {', '.join(ALIGNMENT_TYPES)}")


def choose_matches(
    stage_lists: Sequence[list[Match]],
    modules: Sequence[str],
    *,
    hyp_len: int,
    ref_len: int,
    kind: AlignmentType = "maxcov",
    beam: int = DEFAULT_BEAM,
) -> list[Match]:
    """The alignment the jar's aligner chooses among the candidates of every stage.

    Args:
        stage_lists: One candidate list per stage, each in its matcher's order.
        modules: Module name of each stage (``stage_lists[k]`` holds stage ``k``'s).
        hyp_len: Number of hypothesis tokens.
        ref_len: Number of reference tokens.
        kind: The alignment type.
        beam: Beam size. Below 1 the jar's search keeps no path at any step and ends with the
            matches it fixed before searching (the unambiguous one-to-one ones); so does this.

    Returns:
        The chosen matches, ordered by reference position.
    """
    weights = objective_weights(modules, kind, hyp_len=hyp_len, ref_len=ref_len)
    if beam < 1:
        store = CandidateStore(hyp_len, ref_len)
        for candidates in stage_lists:
            store.extend(candidates)
        return sorted(fixed_matches(store))
    return beam_align_stages(stage_lists, hyp_len, ref_len, weights, beam=beam)
