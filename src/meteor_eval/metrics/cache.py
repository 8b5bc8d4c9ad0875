"""One cache policy for metric objects: a bounded, thread-safe LRU map built on first use.

Building a metric loads its resources (stemmers, WordNet, a paraphrase index): the plain
functions (``corpus_meteor``), the mergeable metrics, the NLTK and HuggingFace evaluate
drop-ins keep the metrics they built, keyed by the settings that made them, so that a second
call with the same settings reuses the first one's. Each of them keeps a :class:`LruCache`
with its own bound; past the bound the least recently used entry goes (not the whole cache, as
clearing it would: a caller alternating between more settings than the bound then rebuilds only
the ones it has not used lately).

Example:
    >>> cache: LruCache[str, list[str]] = LruCache(2)
    >>> cache.get("a", list) is cache.get("a", list), len(cache)
    (True, 1)
    >>> _ = cache.get("b", list), cache.get("a", list), cache.get("c", list)
    >>> sorted(cache.keys())  # "b" was the least recently used
    ['a', 'c']
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["LruCache"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LruCache(Generic[K, V]):
    """At most ``maxsize`` values by key, each built by its first :meth:`get`; the least
    recently used goes first. Thread-safe: a value is built once, under the cache's lock (two
    threads asking for the same settings get the same object; resources load once).

    Args:
        maxsize: The bound (at least 1).

    Raises:
        ValueError: ``maxsize`` is below 1.
    """

    __slots__ = ("_data", "_lock", "maxsize")

    def __init__(self, maxsize: int) -> None:
        if isinstance(maxsize, bool) or not isinstance(maxsize, int) or maxsize < 1:
            raise ValueError(f"maxsize: expected an integer >= 1, got {maxsize!r}")
        self.maxsize = maxsize
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.RLock()

    def get(self, key: K, build: Callable[[], V]) -> V:
        """The value of ``key``, built by ``build()`` (and kept) if it is not here."""
        with self._lock:
            data = self._data
            if key in data:
                data.move_to_end(key)
                return data[key]
            value = build()
            data[key] = value
            while len(data) > self.maxsize:
                data.popitem(last=False)
            return value

    def keys(self) -> list[K]:
        """The keys, least recently used first."""
        with self._lock:
            return list(self._data)

    def clear(self) -> None:
        """Forget every value."""
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data
