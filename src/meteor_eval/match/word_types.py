"""Word types interned to dense integers, with the per-type tables of the compiled pair kernel.

METEOR 1.5 looks at every token through a handful of per-word properties: its identity (Java's
``String.hashCode``), its stem's identity, its paraphrase-table id, whether it is a function word
and its packed synonym set. :class:`WordTypes` gives each word type a dense id the first time it
is seen and appends those properties to flat arrays; a segment then becomes one ``array("i")`` of
ids, and the compiled ``meteor15_pair`` (``_ext/pair.c``) reads the tables directly, so a pair is
scored without a Python call per token, per stage or per candidate.

The properties are computed by the same matcher objects the pure-Python path uses (so both paths
see the same stems, synonym sets and paraphrase ids); the tables only cache them.

Threads: a table may be shared by threads (a scorer shared by threads shares its table). Growing
it and reading it in the compiled kernel both hold :attr:`WordTypes.lock`, so a word is interned
once, ids always index rows that exist, and no array is resized while the kernel reads it (see
``docs/threading.md``).
"""

from __future__ import annotations

import itertools
import struct
import threading
from array import array
from collections.abc import Callable, Sequence

from meteor_eval._ext import compiled_function

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
        synonyms: Tokens -> the synonym set of each as ascending native int64 values packed
            into bytes (one call for all the new word types of a segment), or ``None``.
        limit: Number of word types after which :attr:`full` turns true (the default, 131,072
            types, keeps the table near 45 MB at about 340 bytes a type with its words; a
            scorer then starts a new one).
        functions_of, stems_of, paraphrases_of: The same properties of many tokens in one
            call (a sequence of flags or ids, in order; ``bytes`` of flags that are all 0 or
            1 are stored as they are), used instead of ``function``, ``stem`` and
            ``paraphrase`` when given: a table's new word types are new to it, so a caller
            can skip its per-token caches and compute a batch at C speed.

    Example:
        >>> types = WordTypes(identity=len, function=lambda t: t == "the")
        >>> list(types.intern(("the", "cat")))
        [0, 1]
        >>> [types[t] for t in ("the", "cat", "the", "hat")], list(types.hashes)
        ([0, 1, 0, 2], [3, 3, 3])
    """

    __slots__ = (
        "_function",
        "_functions_of",
        "_identity",
        "_paraphrase",
        "_paraphrases_of",
        "_stem",
        "_stems_of",
        "_synonyms",
        "functions",
        "hashes",
        "limit",
        "lock",
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
        synonyms: Callable[[Sequence[str]], list[bytes]] | None = None,
        limit: int = 1 << 17,
        functions_of: Callable[[Sequence[str]], Sequence[int]] | None = None,
        stems_of: Callable[[Sequence[str]], Sequence[int]] | None = None,
        paraphrases_of: Callable[[Sequence[str]], Sequence[int]] | None = None,
    ) -> None:
        super().__init__()
        self._functions_of = functions_of
        self._stems_of = stems_of if stem is not None else None
        self._paraphrases_of = paraphrases_of if paraphrase is not None else None
        self._identity = identity
        self._function = function
        self._stem = stem
        self._paraphrase = paraphrase
        self._synonyms = synonyms
        self.limit = limit
        #: Held while the tables grow and while a kernel reads them (not re-entrant).
        self.lock = threading.Lock()
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
        self.add((token,))
        return self[token]

    def add(self, tokens: Sequence[str]) -> None:
        """Intern the distinct ``tokens`` that are not interned yet (the others are skipped).

        Every property is computed before anything is appended, so that an exception (e.g. a
        synonym identifier beyond 64 bits) leaves the tables as they were. The whole step holds
        :attr:`lock`: two threads interning the same new word give it one id, and the ids
        become visible only once their rows exist.
        """
        with self.lock:
            new = [t for t in tokens if t not in self]
            if new:
                self._append(new)

    def append_new(self, tokens: list[str]) -> None:
        """Append new, distinct ``tokens`` (none of them interned yet) with the next ids, in
        order; the caller holds :attr:`lock` (it numbered them from ``len(self)`` under it).
        Nothing is appended when computing a property raises."""
        self._append(tokens)

    def _append(self, tokens: list[str]) -> None:
        """Append the rows of new, distinct ``tokens`` and publish their ids (lock held)."""
        identities = list(map(self._identity, tokens))
        if self._functions_of is not None:
            flags = self._functions_of(tokens)
            if type(flags) is not bytes or flags.translate(None, b"\x00\x01"):
                flags = bytes(map(bool, flags))  # any other value: 1 where it is true
            functions = flags
        else:
            functions = bytes(map(bool, map(self._function, tokens)))  # True/False -> 1/0
        stems: Sequence[int] | None = None
        if self._stems_of is not None:
            stems = self._stems_of(tokens)
        elif self._stem is not None:
            stems = list(map(self._stem, tokens))
        paraphrases: Sequence[int] | None = None
        if self._paraphrases_of is not None:
            paraphrases = self._paraphrases_of(tokens)
        elif self._paraphrase is not None:
            paraphrases = list(map(self._paraphrase, tokens))
        if (stems is not None and len(stems) != len(tokens)) or (
            paraphrases is not None and len(paraphrases) != len(tokens)
        ):
            raise ValueError("a property of many tokens: expected one value a token")
        synonyms = self._synonyms(tokens) if self._synonyms is not None else None
        # The int columns as native bytes first (an identifier out of range raises here, with
        # nothing appended yet).
        hashes = _packed("i", identities)
        stem_bytes = _packed("i", stems) if stems is not None else b""
        paraphrase_bytes = _packed("i", paraphrases) if paraphrases is not None else b""
        pool, starts = self.synonym_pool, self.synonym_starts
        if pool is not None and starts is not None and synonyms:
            # Where each type's set ends in the pool, in items: a set of a partial item raises
            # here, and a set that is not bytes at the join, with nothing appended yet.
            if _SET_ENDS is not None and type(synonyms) is list:
                ends = _SET_ENDS(synonyms, len(pool))
            else:
                ends = set_ends_python(synonyms, len(pool))
            pool.frombytes(b"".join(synonyms))
            starts.frombytes(ends)
        first = len(self)
        self.hashes.frombytes(hashes)
        self.functions += functions
        if self.stems is not None and stems is not None:
            self.stems.frombytes(stem_bytes)
        if self.paraphrase_ids is not None and paraphrases is not None:
            self.paraphrase_ids.frombytes(paraphrase_bytes)
        self.update(zip(tokens, range(first, first + len(tokens)), strict=True))

    def intern(self, tokens: tuple[str, ...]) -> array[int]:
        """The ids of ``tokens`` as an ``array("i")``, interning new word types first (their
        properties computed in one batch per segment)."""
        found = list(map(self.get, tokens))
        if None not in found:
            return array("i", found)  # type: ignore[arg-type]  # no None: every token known
        new = (t for t, v in zip(tokens, found, strict=True) if v is None)
        self.add(list(dict.fromkeys(new)))
        return array("i", map(self.__getitem__, tokens))

    def identities(self, ids: array[int]) -> tuple[int, ...]:
        """The identity (:attr:`hashes` entry) of each interned id, read under :attr:`lock`."""
        with self.lock:
            return tuple(map(self.hashes.__getitem__, ids))


def set_ends_python(sets: Sequence[bytes], first: int) -> bytes:
    """Where each packed set of ``sets`` (native int64 values) ends, in items, once the sets
    are appended in order to a pool of ``first`` items, as native int64 bytes: the synonym
    column of a table's new rows, and the twin of the compiled ``packed_set_ends``
    (``_ext/pair.c``).

    Raises:
        ValueError: a set is not a whole number of items.
    """
    width = _ITEM.itemsize
    items = [len(packed) // width for packed in sets]
    # Every set is whole items exactly when the items, whole, make up all the bytes (one check
    # of the totals instead of one a set).
    if sum(map(len, sets)) != width * sum(items):
        raise ValueError("bytes length not a multiple of item size")
    ends = list(itertools.accumulate(items, initial=first))
    del ends[0]
    return _packed("q", ends)


#: An item of the synonym pool (native int64).
_ITEM = array("q")

#: The compiled ``packed_set_ends`` (``None``: :func:`set_ends_python` serves).
_SET_ENDS = compiled_function("packed_set_ends")


def _packed(typecode: str, values: Sequence[int]) -> bytes:
    """``array(typecode, values).tobytes()``, packed by :mod:`struct` (one C conversion a
    value, where an array's ``extend`` parses each item as a call argument: about four times
    the instructions); a value ``struct`` refuses goes through ``array`` itself, which raises
    its own error (``OverflowError`` for an identifier out of range)."""
    try:
        return struct.pack(f"{len(values)}{typecode}", *values)
    except struct.error:
        return array(typecode, values).tobytes()
