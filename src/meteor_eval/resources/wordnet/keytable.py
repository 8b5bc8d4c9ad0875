"""The hash key tables of the binary WordNet views: exact string -> index without a dict.

Both shipped binary views (:mod:`meteor_eval.resources.wordnet.binary`) find their keys (words,
lemmas) through the same structure, so that loading builds nothing:

* the keys' UTF-8 bytes, concatenated, sorted by code point (``blob``);
* ``keys + 1`` uint32 starts of the keys in ``blob`` (``starts``);
* an open-addressing table of ``2 ** bits`` uint32 slots (``table``): slot
  ``zlib.crc32(key) & (2 ** bits - 1)``, then the following slots (wrapping), holds
  ``index + 1`` of the key; 0 marks an empty slot. Keys were inserted in index order, so the
  table is deterministic.

The writer lives with the build (``scripts/wordnet_build/keytable.py``); this module only reads.
"""

from __future__ import annotations

import sys
import zlib
from array import array
from collections.abc import Sequence

__all__ = ["KeyTable", "u32_section", "uint32s", "valid_key_table"]


class KeyTable:
    """Exact string -> index lookup over a shipped key table, without building a dict.

    Loading costs nothing beyond reading the arrays; a lookup encodes the word, hashes it with
    CRC-32 and compares the stored key bytes of the slots it probes (about one).

    Attributes:
        blob: The keys' UTF-8 bytes, concatenated.
        starts: ``keys + 1`` starts of the keys in ``blob``.
        table: The slots, ``index + 1`` of a key or 0.

    Example:
        >>> import zlib
        >>> keys = [b"cat", b"dog"]
        >>> table = [0] * 8
        >>> for number, key in enumerate(keys, 1):
        ...     slot = zlib.crc32(key) & 7
        ...     while table[slot]:
        ...         slot = (slot + 1) & 7
        ...     table[slot] = number
        >>> found = KeyTable(b"catdog", [0, 3, 6], table)
        >>> found.find("dog"), found.find("cow"), found.key(0), len(found)
        (1, -1, 'cat', 2)
    """

    __slots__ = ("_mask", "blob", "starts", "table")

    def __init__(self, blob: bytes, starts: Sequence[int], table: Sequence[int]) -> None:
        self.blob = blob
        self.starts = starts
        self.table = table
        self._mask = len(table) - 1

    def find(self, word: str) -> int:
        """The index of ``word`` among the keys, ``-1`` when it is not one."""
        try:
            data = word.encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates: never a key
            return -1
        table = self.table
        mask = self._mask
        slot = zlib.crc32(data) & mask
        number = table[slot]
        while number:
            starts = self.starts
            if self.blob[starts[number - 1] : starts[number]] == data:
                return number - 1
            slot = (slot + 1) & mask
            number = table[slot]
        return -1

    def key(self, index: int) -> str:
        """The key at ``index``."""
        return self.blob[self.starts[index] : self.starts[index + 1]].decode("utf-8")

    def __len__(self) -> int:
        return len(self.starts) - 1


def valid_key_table(blob: bytes, starts: Sequence[int], table: Sequence[int]) -> bool:
    """Cheap structural checks of a loaded key table (sizes and bounds, not every key).

    A table of at least two slots whose size is a power of two, and key starts that begin at 0
    and end at the blob's length. A probe never runs forever on a valid file because the writer
    leaves at least a third of the slots empty.
    """
    count = len(starts) - 1
    return (
        count >= 0
        and len(table) >= 2
        and len(table) & (len(table) - 1) == 0
        and starts[0] == 0
        and starts[-1] == len(blob)
    )


def uint32s(data: memoryview) -> Sequence[int]:
    """The little-endian uint32 values of ``data``: a zero-copy view on little-endian machines."""
    if sys.byteorder == "little" and array("I").itemsize == 4:
        return data.cast("I")
    values = array("I", bytes(data))
    if sys.byteorder != "little":
        values.byteswap()
    return values


def u32_section(view: memoryview, at: int, size: int) -> Sequence[int]:
    """``size`` little-endian uint32 values at byte ``at`` (in place when native).

    Empty when the view ends before the section does (the caller's size checks then fail).
    """
    part = view[at : at + 4 * size]
    if len(part) != 4 * size:
        return array("I")
    if sys.byteorder == "little":
        return part.cast("I")
    values = array("I", part)
    values.byteswap()
    return values
