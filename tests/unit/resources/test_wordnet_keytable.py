"""The CRC-32 key tables of the binary WordNet views: the reader against the build's writer."""

from __future__ import annotations

import zlib

import pytest
from wordnet_build.keytable import build_key_table, hash_bits

from meteor_eval.resources.wordnet.keytable import (
    KeyTable,
    u32_section,
    uint32s,
    valid_key_table,
)


def _table(keys: list[str], *, sparse: bool) -> KeyTable:
    blob, starts, table, _bits = build_key_table([key.encode() for key in keys], sparse=sparse)
    assert valid_key_table(blob, starts, table)
    return KeyTable(blob, starts, table)


def test_slots_hold_index_plus_one_at_the_crc32_slot() -> None:
    blob, starts, table, bits = build_key_table([b"cat", b"dog"], sparse=True)
    assert bits == 4 and len(table) == 16
    assert (blob, list(starts)) == (b"catdog", [0, 3, 6])
    assert table[zlib.crc32(b"cat") & 15] == 1
    assert sorted(table) == [0] * 14 + [1, 2]


def test_colliding_keys_probe_the_following_slots() -> None:
    # A full two-slot table: whichever slot "b" hashes to, the probe (wrapping) reaches it.
    first, second = b"a", b"b"
    table = [0, 0]
    table[zlib.crc32(first) & 1] = 1
    table[(zlib.crc32(first) & 1) ^ 1] = 2
    keys = KeyTable(first + second, [0, 1, 2], table)
    assert keys.find("a") == 0 and keys.find("b") == 1
    assert keys.key(1) == "b" and len(keys) == 2


@pytest.mark.parametrize("sparse", [True, False])
def test_every_key_is_found_and_others_are_not(sparse: bool) -> None:
    keys = sorted({f"w{n}" for n in range(3000)} | {"über", "naïve", "𝒜", "a_b", ""})
    table = _table(keys, sparse=sparse)
    assert [table.find(key) for key in keys] == list(range(len(keys)))
    assert [table.key(at) for at in range(len(table))] == keys
    for missing in ("w3000", "W1", "ube", "w1 ", "\ud800", "\x00"):
        assert table.find(missing) == -1


def test_load_factor() -> None:
    assert hash_bits(0, sparse=True) == 4
    for count in (1, 100, 147_306):
        assert 3 * count <= 1 << hash_bits(count, sparse=True)
        assert 3 * (1 << hash_bits(count, sparse=False)) >= 5 * count


def test_structural_checks() -> None:
    assert valid_key_table(b"ab", [0, 1, 2], [0, 1, 2, 0])
    assert not valid_key_table(b"ab", [0, 1, 2], [0, 1, 2])  # not a power of two
    assert not valid_key_table(b"ab", [0, 1, 2], [1])  # fewer than two slots
    assert not valid_key_table(b"ab", [0, 1, 3], [0, 1, 2, 0])  # ends past the blob
    assert not valid_key_table(b"ab", [1, 2], [0, 1])  # does not start at 0


def test_uint32_sections_are_little_endian() -> None:
    data = (1).to_bytes(4, "little") + (70000).to_bytes(4, "little")
    assert list(uint32s(memoryview(data))) == [1, 70000]
    assert list(u32_section(memoryview(b"xx" + data), 2, 2)) == [1, 70000]
    assert list(u32_section(memoryview(data), 0, 3)) == []  # ends early: empty
