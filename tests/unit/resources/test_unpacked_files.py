"""Unpacked copies of the compressed shipped tables (``registry.unpacked_file``)."""

from __future__ import annotations

import gzip
import logging
import mmap
import os
from pathlib import Path

import pytest

from meteor_eval.resources import registry
from meteor_eval.resources.registry import (
    cache_dir,
    check_unpacked_copy,
    record_verified,
    unpacked_file,
    write_atomically,
)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("METEOR_EVAL_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "data"


def test_first_use_unpacks_then_reads_the_copy(tmp_path: Path, cache: Path) -> None:
    source = tmp_path / "table.bin.gz"
    source.write_bytes(gzip.compress(b"content"))
    assert unpacked_file(source) == b"content"
    (copy,) = cache.iterdir()
    assert copy.name.startswith("table.bin.") and copy.read_bytes() == b"content"
    assert unpacked_file(source) == b"content"  # from the copy
    assert unpacked_file(source, refresh=True) == b"content"  # a caller's validation failed
    assert copy.read_bytes() == b"content"


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (b"edited!", "checksum"),  # same length: read as it was before the CRC32 was checked
        (b"content\n", "8 bytes, expected 7"),
        (b"cont", "4 bytes, expected 7"),
        (b"", "0 bytes, expected 7"),
    ],
)
def test_a_damaged_copy_is_unpacked_again_with_a_warning(
    tmp_path: Path, cache: Path, damage: bytes, reason: str, caplog: pytest.LogCaptureFixture
) -> None:
    source = tmp_path / "table.bin.gz"
    source.write_bytes(gzip.compress(b"content"))
    unpacked_file(source)
    (copy,) = cache.iterdir()
    for mapped in (False, True):
        copy.write_bytes(damage)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="meteor_eval"):
            assert bytes(unpacked_file(source, mapped=mapped)) == b"content"
        assert copy.read_bytes() == b"content"
        warned = [r.getMessage() for r in caplog.records]
        expected = [f"unpacked copy {copy} is damaged ({reason}); unpacking it again"]
        assert warned == expected


def test_a_copy_stamped_unchanged_is_read_without_its_checksum(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(registry, "_SETTLED_NS", 0)  # stamp files of any age
    source = tmp_path / "table.bin.gz"
    source.write_bytes(gzip.compress(b"content"))
    unpacked_file(source)
    (copy,) = cache.iterdir()
    assert unpacked_file(source) == b"content"  # checked, then stamped
    stamp = copy.with_name(f".{copy.name}.verified")
    assert stamp.is_file()
    # A change that no write explains (the stamp made to match): trusted by a read, found by
    # `resources verify`, and any write to the copy ends the trust.
    with copy.open("r+b") as handle:
        handle.write(b"CONTENT")
    record_verified(copy, copy.stat())
    assert unpacked_file(source) == b"CONTENT"
    assert check_unpacked_copy(source) == (copy, "checksum")
    copy.write_bytes(b"edited!")
    assert unpacked_file(source) == b"content"
    assert check_unpacked_copy(source) == (copy, None)


def test_only_the_newest_copies_are_kept(tmp_path: Path, cache: Path) -> None:
    source = tmp_path / "table.bin.gz"
    for version in range(1, 6):
        source.write_bytes(gzip.compress(b"v%d" % version))
        os.utime(source, ns=(version * 10**9, version * 10**9))
        assert unpacked_file(source) == b"v%d" % version
    kept = sorted(p.read_bytes() for p in cache.iterdir())
    assert kept == [b"v3", b"v4", b"v5"]


def test_installations_of_the_same_data_share_one_copy(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two installations (a development tree, a CI checkout) ship the same bytes with other
    # modification times: the second reads the first one's copy instead of replacing it.
    first, second = tmp_path / "a" / "table.bin.gz", tmp_path / "b" / "table.bin.gz"
    for version, source in enumerate((first, second), start=1):
        source.parent.mkdir()
        source.write_bytes(gzip.compress(b"content"))
        os.utime(source, ns=(version * 10**9, version * 10**9))
    assert unpacked_file(first) == b"content"
    monkeypatch.setattr(gzip, "decompress", lambda data: pytest.fail("unpacked again"))
    assert unpacked_file(second) == b"content"
    assert unpacked_file(first) == b"content"
    (copy,) = cache.iterdir()
    assert copy.name == f"table.bin.7-{registry.zlib.crc32(b'content'):08x}"
    assert check_unpacked_copy(second) == (copy, None)


def test_without_a_writable_cache_it_unpacks_every_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("METEOR_EVAL_CACHE", str(blocker))
    source = tmp_path / "table.bin.gz"
    source.write_bytes(gzip.compress(b"content"))
    assert unpacked_file(source) == b"content"
    assert unpacked_file(source) == b"content"


def test_errors_of_the_shipped_file_propagate(tmp_path: Path, cache: Path) -> None:
    source = tmp_path / "table.bin.gz"
    source.write_bytes(b"not gzip")
    with pytest.raises(gzip.BadGzipFile, match="Not a gzipped file"):
        unpacked_file(source)
    with pytest.raises(FileNotFoundError, match="missing"):
        unpacked_file(tmp_path / "missing.gz")


def test_cache_dir_and_atomic_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("METEOR_EVAL_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "meteor-eval"
    target = tmp_path / "deep" / "out.bin"
    write_atomically(target, (b"ab", bytearray(b"cd")))
    assert target.read_bytes() == b"abcd"
    assert [p.name for p in target.parent.iterdir()] == ["out.bin"]  # no temporary left


def test_mapped_copies(tmp_path: Path, cache: Path) -> None:
    source = tmp_path / "table.bin.gz"
    source.write_bytes(gzip.compress(b"0123456789"))
    assert unpacked_file(source, mapped=True) == b"0123456789"  # first use: the bytes
    mapped = unpacked_file(source, mapped=True)
    assert isinstance(mapped, mmap.mmap)
    assert mapped[2:5] == b"234" and len(mapped) == 10
    (copy,) = cache.iterdir()
    copy.write_bytes(b"")  # an empty copy cannot be mapped: unpacked again
    assert unpacked_file(source, mapped=True) == b"0123456789"
    assert copy.read_bytes() == b"0123456789"


def test_an_xz_file_records_its_content_crc32_and_length(tmp_path: Path) -> None:
    """The shipped WordNet views are xz (one block, CRC32 checks): the check of an unpacked
    copy reads the length from the xz index and the CRC32 from the block's check field, without
    decompressing; other xz layouts record no such pair."""
    import lzma
    import zlib

    from meteor_eval.resources.registry import content_crc32

    body = bytes(range(256)) * 4_000 + b"tail"
    source = tmp_path / "table.bin.xz"
    source.write_bytes(lzma.compress(body, check=lzma.CHECK_CRC32))
    assert content_crc32(source) == (zlib.crc32(body), len(body))
    empty = tmp_path / "empty.bin.xz"
    empty.write_bytes(lzma.compress(b"", check=lzma.CHECK_CRC32))
    assert content_crc32(empty) in (None, (0, 0))
    for check in (lzma.CHECK_CRC64, lzma.CHECK_SHA256, lzma.CHECK_NONE):
        other = tmp_path / f"other{check}.bin.xz"
        other.write_bytes(lzma.compress(body, check=check))
        assert content_crc32(other) is None
    two = tmp_path / "two.bin.xz"  # two streams: no one record describes the whole
    two.write_bytes(lzma.compress(body[:100], check=lzma.CHECK_CRC32) * 2)
    assert content_crc32(two) is None
    damaged = bytearray(source.read_bytes())
    damaged[-14] ^= 0xFF  # inside the index: its own CRC32 no longer matches
    broken = tmp_path / "broken.bin.xz"
    broken.write_bytes(bytes(damaged))
    assert content_crc32(broken) is None
    for short in (b"", b"\xfd7zXZ\x00"):
        (tmp_path / "short.bin.xz").write_bytes(short)
        assert content_crc32(tmp_path / "short.bin.xz") is None


def test_an_xz_copy_is_kept_checked_and_unpacked_again(
    tmp_path: Path, cache: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import lzma

    source = tmp_path / "table.bin.xz"
    source.write_bytes(lzma.compress(b"content", check=lzma.CHECK_CRC32))
    assert unpacked_file(source) == b"content"
    (copy,) = cache.iterdir()
    assert copy.name.startswith("table.bin.") and not copy.name.startswith("table.bin.xz")
    assert check_unpacked_copy(source) == (copy, None)
    copy.write_bytes(b"edited!")
    assert check_unpacked_copy(source) == (copy, "checksum")
    with caplog.at_level(logging.WARNING, logger="meteor_eval"):
        assert unpacked_file(source) == b"content"
    assert "unpacking it again" in caplog.text
    assert copy.read_bytes() == b"content"
    # an xz layout that records no CRC32 of its content: decompressed every time, not kept
    other = tmp_path / "other.bin.xz"
    other.write_bytes(lzma.compress(b"other", check=lzma.CHECK_CRC64))
    assert unpacked_file(other) == b"other"
    assert [p.name for p in cache.iterdir()] == [copy.name]
