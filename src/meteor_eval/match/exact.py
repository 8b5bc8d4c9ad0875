"""Exact matching: two single words match when their identities are equal (spec section 3.2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meteor_eval._ext import compiled_kernels
from meteor_eval.match.base import Match

if TYPE_CHECKING:
    from meteor_eval.match._segment import Segment

__all__ = ["ExactMatcher", "positions_by_key"]

# The compiled generator of one-word candidates with equal keys, when the extension is built.
_KERNELS = compiled_kernels("equal_keys")


def positions_by_key(keys: tuple[int, ...]) -> dict[int, list[int]]:
    """Map each key to the ascending positions where it occurs."""
    index: dict[int, list[int]] = {}
    for position, key in enumerate(keys):
        index.setdefault(key, []).append(position)
    return index


class ExactMatcher:
    """Exact word matches, in reference order then hypothesis order.

    Identity is the segment's ``ids`` (Java string hashes for METEOR 1.5), so distinct strings with
    the same hash match, as they do in the jar.
    """

    name = "exact"

    def candidates(self, hyp: Segment, ref: Segment, stage: int) -> list[Match]:
        """Every (reference j, hypothesis i) pair of equal words, j ascending then i ascending."""
        if _KERNELS is not None:
            found: list[Match] = _KERNELS.equal_keys(
                hyp.ids, ref.ids, hyp.ids, ref.ids, stage, Match, False
            )
            return found
        return exact_candidates_python(hyp, ref, stage)


def exact_candidates_python(hyp: Segment, ref: Segment, stage: int) -> list[Match]:
    """:meth:`ExactMatcher.candidates` in pure Python (the reference for the compiled one)."""
    index = positions_by_key(hyp.ids)
    out: list[Match] = []
    for j, key in enumerate(ref.ids):
        for i in index.get(key, ()):
            out.append(Match(j, 1, i, 1, stage))
    return out
