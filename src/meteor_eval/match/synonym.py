"""Synonym matching: different words whose WordNet synonym sets intersect (spec section 3.3).

The synonym-set function is passed in (from :mod:`meteor_eval.resources.wordnet`); it already
includes the base forms found through the exception lists and morphological rules, and is cached
there per word type.

With the compiled extension, each word type's set is packed once into sorted native 64-bit
integers and the extension tests every (reference, hypothesis) pair by a merge of the two sorted
arrays; the candidates and their order are those of the pure-Python code. A synonym view that
stores its sets in that form already (:meth:`MeteorWordNet.packed_synonym_sets
<meteor_eval.resources.wordnet.MeteorWordNet.packed_synonym_sets>`) supplies them directly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence, Set
from typing import TYPE_CHECKING

from meteor_eval._ext import compiled_kernels
from meteor_eval.match.base import Match
from meteor_eval.resources.packed_sets import cached_packed_sets

if TYPE_CHECKING:
    from meteor_eval.match._segment import Segment

__all__ = ["SynonymMatcher"]

_KERNELS = compiled_kernels("sets_intersect")
# Word types whose packed set is kept before the cache is emptied (bounds memory).
_CACHE_MAX_WORDS = 1 << 18


class SynonymMatcher:
    """One-word candidates whose synonym sets share an element while the words differ.

    Args:
        synonym_set: Maps a token to its set of synset identifiers (empty if unknown).
        packed_sets: Maps a token sequence to each token's set as ascending native int64 values
            packed into bytes (what the compiled kernel reads). ``None`` takes the
            ``packed_synonym_sets`` method of the object ``synonym_set`` is bound to, when it has
            one (as :class:`~meteor_eval.resources.wordnet.MeteorWordNet` does), else packs the
            sets of ``synonym_set`` here.
    """

    name = "synonym"

    def __init__(
        self,
        synonym_set: Callable[[str], Set[int]],
        *,
        packed_sets: Callable[[Sequence[str]], list[bytes]] | None = None,
    ) -> None:
        self._synonym_set = synonym_set
        self._packed: dict[str, bytes] = {}
        self._compiled = _KERNELS is not None
        if packed_sets is None:
            packed_sets = getattr(
                getattr(synonym_set, "__self__", None), "packed_synonym_sets", None
            )
        self._packed_sets: Callable[[Sequence[str]], list[bytes]] = (
            packed_sets if callable(packed_sets) else self._pack_here
        )

    def packed_sets(self, tokens: Sequence[str]) -> list[bytes]:
        """The synonym set of each token as ascending native int64 values packed into bytes.

        Raises:
            OverflowError: an identifier does not fit a signed 64-bit integer.
        """
        return self._packed_sets(tokens)

    def _pack_here(self, tokens: Sequence[str]) -> list[bytes]:
        return cached_packed_sets(tokens, self._packed, _CACHE_MAX_WORDS, self._synonym_set)

    def candidates(self, hyp: Segment, ref: Segment, stage: int) -> list[Match]:
        """Synonymous pairs, reference order then hypothesis order (each pair once)."""
        if self._compiled and _KERNELS is not None:
            try:
                hyp_sets = self._packed_sets(hyp.tokens)
                ref_sets = self._packed_sets(ref.tokens)
            except OverflowError:  # identifiers beyond 64 bits (a custom table): stay in Python
                self._compiled = False
            else:
                found: list[Match] = _KERNELS.sets_intersect(
                    hyp_sets, ref_sets, hyp.ids, ref.ids, stage, Match
                )
                return found
        return self.candidates_python(hyp, ref, stage)

    def candidates_python(self, hyp: Segment, ref: Segment, stage: int) -> list[Match]:
        """:meth:`candidates` in pure Python (the reference for the compiled one)."""
        lookup = self._synonym_set
        by_synset: dict[int, list[int]] = {}
        for i, token in enumerate(hyp.tokens):
            for synset in lookup(token):
                by_synset.setdefault(synset, []).append(i)
        if not by_synset:
            return []
        hyp_ids = hyp.ids
        out: list[Match] = []
        for j, token in enumerate(ref.tokens):
            hits: set[int] = set()
            for synset in lookup(token):
                positions = by_synset.get(synset)
                if positions:
                    hits.update(positions)
            if hits:
                ref_id = ref.ids[j]
                for i in sorted(hits):
                    if hyp_ids[i] != ref_id:
                        out.append(Match(j, 1, i, 1, stage))
        return out
