"""Writing the CRC-32 key tables that :class:`meteor_eval.resources.wordnet.keytable.KeyTable`
reads."""

from __future__ import annotations

import zlib
from array import array
from collections.abc import Sequence


def hash_bits(count: int, *, sparse: bool) -> int:
    """log2 of the slot count of a key table holding ``count`` keys.

    ``sparse`` keeps the load factor at most 1/3, else at most 0.6. A sparse table keeps probe
    sequences short, above all for words that are not keys (most lookups of morphological
    candidates miss), at the price of a larger file to decompress at load.
    """
    bits = 4
    while (1 << bits) < 3 * count if sparse else 3 * (1 << bits) < 5 * count:
        bits += 1
    return bits


def build_key_table(
    keys: Sequence[bytes], *, sparse: bool
) -> tuple[bytes, array[int], array[int], int]:
    """The concatenated keys, their starts, and an open-addressing table over them.

    Slot ``zlib.crc32(key) & mask`` (then the following slots, wrapping) holds ``index + 1`` of
    the key; 0 marks an empty slot. Keys are inserted in the given order, so the table is
    deterministic.

    Returns:
        ``(blob, starts, table, bits)``: the keys' bytes, ``keys + 1`` uint32 starts, the
        ``2 ** bits`` uint32 slots, and ``bits``.
    """
    bits = hash_bits(len(keys), sparse=sparse)
    mask = (1 << bits) - 1
    table = array("I", bytes(4 << bits))
    starts = array("I", [0])
    total = 0
    for number, key in enumerate(keys, 1):
        total += len(key)
        starts.append(total)
        slot = zlib.crc32(key) & mask
        while table[slot]:
            slot = (slot + 1) & mask
        table[slot] = number
    return b"".join(keys), starts, table, bits
