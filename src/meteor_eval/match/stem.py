"""Stem matching: different words with equal stems (spec section 3.2).

The stemmer is passed in (a ``str -> str`` callable from :mod:`meteor_eval.resources.stemmers`);
stem identities are cached per word type because the same words recur in every segment.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from meteor_eval._ext import compiled_kernels
from meteor_eval.match.base import Match
from meteor_eval.match.exact import positions_by_key

if TYPE_CHECKING:
    from meteor_eval.match._segment import Segment

__all__ = ["StemMatcher"]

_KERNELS = compiled_kernels("equal_keys")
# Word types whose stem identity is kept before the cache is emptied (bounds memory).
_CACHE_MAX_WORDS = 1 << 18


class _StemIdCache(dict[str, int]):
    """Word -> identity of its stem, computing missing words on lookup.

    ``map(cache.__getitem__, tokens)`` then costs one C-level lookup per known word; only new
    words run Python code. The cache is emptied when it reaches ``_CACHE_MAX_WORDS``.
    """

    __slots__ = ("_identity", "_stem")

    def __init__(self, stem: Callable[[str], str], identity: Callable[[str], int]) -> None:
        super().__init__()
        self._stem = stem
        self._identity = identity

    def __missing__(self, token: str) -> int:
        key = self._identity(self._stem(token))
        if len(self) >= _CACHE_MAX_WORDS:
            self.clear()
        self[token] = key
        return key


class StemMatcher:
    """One-word candidates whose stems are identical while the words themselves differ.

    Args:
        stem: The stemmer, applied to each token as it is (case-sensitive, like the jar).
        identity: Identity of a stem string; Java's ``String.hashCode`` for METEOR 1.5 (spec J1),
            or ``hash`` for flavours that compare strings.
    """

    name = "stem"

    def __init__(self, stem: Callable[[str], str], identity: Callable[[str], int]) -> None:
        self._stem = stem
        self._identity = identity
        self._cache = _StemIdCache(stem, identity)
        # The stemmer without its word cache when it is a cached compiled function (the words
        # of stem_ids_uncached() are new: a cache only adds a Python call and a store a word).
        owner = getattr(stem, "__self__", None)
        uncached = getattr(owner, "stem_function", None)
        self._stem_uncached: Callable[[str], str] = uncached if callable(uncached) else stem

    def stem_id(self, token: str) -> int:
        """Identity of the stem of one token (cached per word type)."""
        return self._cache[token]

    def stem_ids_uncached(self, tokens: Sequence[str]) -> list[int]:
        """:meth:`stem_id` of every token without the per-word cache (for tokens met for the
        first time, e.g. a word-type table's new types: no dictionary work per word)."""
        return list(map(self._identity, map(self._stem_uncached, tokens)))

    def stem_ids(self, tokens: tuple[str, ...]) -> tuple[int, ...]:
        """Identity of each token's stem (cached per word type)."""
        return tuple(map(self._cache.__getitem__, tokens))

    def candidates(self, hyp: Segment, ref: Segment, stage: int) -> list[Match]:
        """Pairs with equal stems and different words, reference order then hypothesis order."""
        if _KERNELS is not None:
            found: list[Match] = _KERNELS.equal_keys(
                self.stem_ids(hyp.tokens),
                self.stem_ids(ref.tokens),
                hyp.ids,
                ref.ids,
                stage,
                Match,
                True,
            )
            return found
        return self.candidates_python(hyp, ref, stage)

    def candidates_python(self, hyp: Segment, ref: Segment, stage: int) -> list[Match]:
        """:meth:`candidates` in pure Python (the reference for the compiled one)."""
        index = positions_by_key(self.stem_ids(hyp.tokens))
        hyp_ids = hyp.ids
        out: list[Match] = []
        for j, key in enumerate(self.stem_ids(ref.tokens)):
            ref_id = ref.ids[j]
            for i in index.get(key, ()):
                if hyp_ids[i] != ref_id:
                    out.append(Match(j, 1, i, 1, stage))
        return out
