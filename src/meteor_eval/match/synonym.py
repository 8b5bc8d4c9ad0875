"""Synonym matching: different words whose WordNet synonym sets intersect (spec section 3.3).

The synonym-set function is passed in (from :mod:`meteor_eval.resources.synonyms`); it already
includes the base forms found through the exception lists and morphological rules, and is cached
there per word type.
"""

from __future__ import annotations

from collections.abc import Callable, Set

from meteor_eval.match.base import Match, Segment

__all__ = ["SynonymMatcher"]


class SynonymMatcher:
    """One-word candidates whose synonym sets share an element while the words differ.

    Args:
        synonym_set: Maps a token to its set of synset identifiers (empty if unknown).
    """

    name = "synonym"

    def __init__(self, synonym_set: Callable[[str], Set[int]]) -> None:
        self._synonym_set = synonym_set

    def candidates(self, hyp: Segment, ref: Segment, stage: int) -> list[Match]:
        """Synonymous pairs, reference order then hypothesis order (each pair once)."""
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
