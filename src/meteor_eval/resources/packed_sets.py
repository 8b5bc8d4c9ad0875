"""Synonym sets packed for the compiled intersection kernel, cached per word type.

The synonym matcher's kernel reads each token's set as ascending native int64 values packed into
bytes. Both places that produce that form (a WordNet view, and the matcher itself for any other
synonym function) keep a bounded cache of it and answer a segment whose every token is cached
with one lookup per token.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence, Set

__all__ = ["cached_packed_sets"]


def cached_packed_sets(
    tokens: Sequence[str],
    cache: dict[str, bytes],
    limit: int,
    synonym_set: Callable[[str], Set[int]],
    fill: Callable[[Sequence[str], dict[str, bytes]], list[bytes]] | None = None,
) -> list[bytes]:
    """Each token's synonym set as ascending native int64 values packed into bytes.

    Tokens are looked up in ``cache`` first; when one is missing, the cache is emptied if it
    holds ``limit`` entries or more (a bound on memory), then ``fill(tokens, cache)`` answers
    when given (a table that stores the packed form), else each missing token's
    ``synonym_set`` is packed here. Either way the answers are added to ``cache``.

    Raises:
        OverflowError: an identifier does not fit a signed 64-bit integer.

    Example:
        >>> cache: dict[str, bytes] = {}
        >>> packed = cached_packed_sets(["a", "b"], cache, 10, {"a": {2, 1}, "b": set()}.get)
        >>> [len(p) for p in packed], sorted(cache)
        ([16, 0], ['a', 'b'])
    """
    try:
        return list(map(cache.__getitem__, tokens))
    except KeyError:
        pass
    if len(cache) >= limit:
        cache.clear()
    if fill is not None:
        return fill(tokens, cache)
    get = cache.get
    out = []
    for token in tokens:
        found = get(token)
        if found is None:
            found = cache[token] = array("q", sorted(synonym_set(token))).tobytes()
        out.append(found)
    return out
