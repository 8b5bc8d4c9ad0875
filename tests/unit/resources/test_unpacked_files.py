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
