"""Word types interned to dense integers, with the per-type tables of the compiled pair kernel.

METEOR 1.5 looks at every token through a handful of per-word properties: its identity (Java's
``String.hashCode``), its stem's identity, its paraphrase-table id, whether it is a function word
and its packed synonym set. :class:`WordTypes` gives each word type a dense id the first time it
is seen and appends those properties to flat arrays; a segment then becomes one ``array("i")`` of
ids, and ``_beam.meteor15_pair`` reads the tables directly, so a pair is scored without a Python
call per token, per stage or per candidate.

The properties are computed by the same matcher objects the pure-Python path uses (so both paths
see the same stems, synonym sets and paraphrase ids); the tables only cache them.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable

__all__ = ["WordTypes"]


class WordTypes(dict[str, int]):
    """Token -> dense id, assigning the next id and filling the tables on first lookup.

    ``map(word_types.__getitem__, tokens)`` costs one C-level dictionary lookup per known token.
    The tables are append-only: ids stay valid for the life of the object (a scorer replaces the
    whole object to bound memory, see :attr:`limit`).

    Args:
        identity: Token -> its identity (Java ``String.hashCode``, signed 32-bit).
        function: Token -> whether it is a function word.
        stem: Token -> its stem's identity (signed 32-bit), or ``None`` without a stem stage.
        paraphrase: Token -> its paraphrase-table id (``-1`` unknown), or ``None``.
        synonyms: Token -> its synonym set as ascending native int64 values packed into bytes,
            or ``None``.
        limit: Number of word types after which :attr:`full` turns true.

    Example:
        >>> types = WordTypes(identity=len, function=lambda t: t == "the")
        >>> [types[t] for t in ("the", "cat", "the")], list(types.hashes), bytes(types.functions)
        ([0, 1, 0], [3, 3], b'\\x01\\x00')
    """

    __slots__ = (
        "_function",
        "_identity",
        "_paraphrase",
        "_stem",
        "_synonyms",
        "functions",
        "hashes",
        "limit",
        "paraphrase_ids",
        "stems",
        "synonym_pool",
        "synonym_starts",
    )

    def __init__(
        self,
        *,
        identity: Callable[[str], int],
        function: Callable[[str], bool],
        stem: Callable[[str], int] | None = None,
        paraphrase: Callable[[str], int] | None = None,
        synonyms: Callable[[str], bytes] | None = None,
        limit: int = 1 << 20,
    ) -> None:
        super().__init__()
        self._identity = identity
        self._function = function
        self._stem = stem
        self._paraphrase = paraphrase
        self._synonyms = synonyms
        self.limit = limit
        #: Identity of each type (int32).
        self.hashes = array("i")
        #: Function-word flag of each type (one byte).
        self.functions = bytearray()
        #: Stem identity of each type (int32), or ``None``.
        self.stems = array("i") if stem is not None else None
        #: Paraphrase-table id of each type (int32, ``-1`` unknown), or ``None``.
        self.paraphrase_ids = array("i") if paraphrase is not None else None
        #: Synonym set of type ``v``: ``synonym_pool[synonym_starts[v]:synonym_starts[v + 1]]``.
        self.synonym_starts = array("q", [0]) if synonyms is not None else None
        self.synonym_pool = array("q") if synonyms is not None else None

    @property
    def full(self) -> bool:
        """Whether :attr:`limit` types have been interned (time to start a new table)."""
        return len(self) >= self.limit

    def __missing__(self, token: str) -> int:
        # Compute everything before appending anything, so that an exception (e.g. a synonym
        # identifier beyond 64 bits) leaves the tables consistent.
        identity = self._identity(token)
        function = self._function(token)
        stem = self._stem(token) if self._stem is not None else 0
        paraphrase = self._paraphrase(token) if self._paraphrase is not None else 0
        synonyms = self._synonyms(token) if self._synonyms is not None else b""
        type_id = len(self)
        self.hashes.append(identity)
        self.functions.append(1 if function else 0)
        if self.stems is not None:
            self.stems.append(stem)
        if self.paraphrase_ids is not None:
            self.paraphrase_ids.append(paraphrase)
        if self.synonym_pool is not None and self.synonym_starts is not None:
            self.synonym_pool.frombytes(synonyms)
            self.synonym_starts.append(len(self.synonym_pool))
        self[token] = type_id
        return type_id

    def intern(self, tokens: tuple[str, ...]) -> array[int]:
        """The ids of ``tokens`` as an ``array("i")``."""
        return array("i", map(self.__getitem__, tokens))
