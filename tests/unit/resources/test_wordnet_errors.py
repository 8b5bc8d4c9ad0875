"""A shipped WordNet binary that cannot be used raises a ResourceError naming the file.

The text form is not shipped, so there is nothing to fall back on: each reader checks the xz
stream (its CRC-32 and length), the magic, the format version, the source digest against
``manifest.json`` and the section sizes. The cases run on temporary copies of the shipped
files, with the unpacked copies kept in a temporary cache.
"""

from __future__ import annotations

import json
import logging
import lzma
from collections.abc import Callable
from pathlib import Path

import pytest

from meteor_eval.errors import ResourceError
from meteor_eval.resources.registry import data_file
from meteor_eval.resources.wordnet import METEOR_BINARY_FILE, NLTK_BINARY_FILE, shipped
from meteor_eval.resources.wordnet.binary import (
    METEOR_HEADER,
    METEOR_VERSION,
    NLTK_HEADER,
    NLTK_VERSION,
    MeteorSections,
)
from meteor_eval.resources.wordnet.shipped import read_meteor_binary, read_nltk_binary

Reader = Callable[[Path], object]

# (file, reader, byte offset of the source digest in the header, header size)
VIEWS = [
    pytest.param(METEOR_BINARY_FILE, read_meteor_binary, 32, METEOR_HEADER.size, id="meteor"),
    pytest.param(NLTK_BINARY_FILE, read_nltk_binary, 52, NLTK_HEADER.size, id="nltk"),
]


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("METEOR_EVAL_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "data"


def _unpacked(name: str) -> bytes:
    return lzma.decompress(data_file("wordnet", name).read_bytes())


def _write(tmp_path: Path, name: str, body: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(lzma.compress(body, check=lzma.CHECK_CRC32, preset=0))
    return path


def _refused(read: Reader, path: Path, reason: str) -> None:
    with pytest.raises(ResourceError, match=reason) as error:
        read(path)
    message = str(error.value)
    assert str(path) in message and "reinstall meteor-eval" in message


@pytest.mark.parametrize(("name", "read", "digest_at", "header"), VIEWS)
def test_a_copy_of_the_shipped_file_is_accepted(
    tmp_path: Path, name: str, read: Reader, digest_at: int, header: int
) -> None:
    assert read(_write(tmp_path, name, _unpacked(name))) is not None


@pytest.mark.parametrize(("name", "read", "digest_at", "header"), VIEWS)
def test_truncated_file_is_refused(
    tmp_path: Path, name: str, read: Reader, digest_at: int, header: int
) -> None:
    shipped_bytes = data_file("wordnet", name).read_bytes()
    cut = tmp_path / name
    cut.write_bytes(shipped_bytes[: len(shipped_bytes) // 2])  # the xz stream ends early
    _refused(read, cut, "cannot be read or decompressed")
    body = _unpacked(name)
    for size in (len(body) - 12, len(body) // 2, header + 10, header - 1, 0):
        _refused(read, _write(tmp_path, name, body[:size]), "truncated or damaged")


@pytest.mark.parametrize(("name", "read", "digest_at", "header"), VIEWS)
def test_wrong_magic_is_refused(
    tmp_path: Path, name: str, read: Reader, digest_at: int, header: int
) -> None:
    body = _unpacked(name)
    _refused(read, _write(tmp_path, name, b"NOTWNET\0" + body[8:]), "not a WordNet table")
    other = METEOR_BINARY_FILE if name == NLTK_BINARY_FILE else NLTK_BINARY_FILE
    swapped = _write(tmp_path, name, _unpacked(other))  # the other view under this name
    _refused(read, swapped, "not a WordNet table")


@pytest.mark.parametrize(("name", "read", "digest_at", "header"), VIEWS)
def test_other_format_version_is_refused(
    tmp_path: Path, name: str, read: Reader, digest_at: int, header: int
) -> None:
    body = bytearray(_unpacked(name))
    version = METEOR_VERSION if name == METEOR_BINARY_FILE else NLTK_VERSION
    body[8:12] = (version + 1).to_bytes(4, "little")
    _refused(read, _write(tmp_path, name, bytes(body)), f"format version {version + 1}")


@pytest.mark.parametrize(("name", "read", "digest_at", "header"), VIEWS)
def test_checksum_mismatch_is_refused(
    tmp_path: Path, name: str, read: Reader, digest_at: int, header: int
) -> None:
    # The source digest recorded in the header is not the one manifest.json implies.
    body = bytearray(_unpacked(name))
    body[digest_at] ^= 0xFF
    _refused(read, _write(tmp_path, name, bytes(body)), "checksum mismatch")
    # The xz block's own CRC-32 (its last 4 bytes, before the index) does not match its content.
    packed = bytearray(data_file("wordnet", name).read_bytes())
    index_size = (int.from_bytes(packed[-8:-4], "little") + 1) * 4
    packed[len(packed) - 12 - index_size - 4] ^= 0xFF
    damaged = tmp_path / name
    damaged.write_bytes(bytes(packed))
    _refused(read, damaged, "cannot be read or decompressed .*Corrupt input data")


@pytest.mark.parametrize(("name", "read", "digest_at", "header"), VIEWS)
def test_missing_file_is_refused(
    tmp_path: Path, name: str, read: Reader, digest_at: int, header: int
) -> None:
    _refused(read, tmp_path / name, "cannot be read")


def test_damaged_unpacked_copy_is_unpacked_again(tmp_path: Path, cache: Path) -> None:
    path = _write(tmp_path, METEOR_BINARY_FILE, _unpacked(METEOR_BINARY_FILE))
    first = read_meteor_binary(path)
    (copy,) = cache.iterdir()
    copy.write_bytes(b"garbage")  # the copy in the cache, not the shipped file
    again = read_meteor_binary(path)
    assert again.words == first.words == 147_306
    assert copy.read_bytes() == _unpacked(METEOR_BINARY_FILE)


@pytest.mark.parametrize(("name", "read", "digest_at", "header"), VIEWS)
@pytest.mark.parametrize("where", [0.3, 0.5, 0.97])
def test_damage_inside_the_unpacked_copy_is_unpacked_again_with_a_warning(
    tmp_path: Path,
    cache: Path,
    caplog: pytest.LogCaptureFixture,
    name: str,
    read: Reader,
    digest_at: int,
    header: int,
    where: float,
) -> None:
    # 4 KiB of 0xFF inside the body of the copy in the cache: it has the right size and its
    # header is sound, so before the copy's CRC32 was checked this was read as it was (changed
    # synonym sets, or an IndexError while looking words up).
    body = _unpacked(name)
    path = _write(tmp_path, name, body)
    read(path)
    (copy,) = cache.iterdir()
    at = int(len(body) * where)
    copy.write_bytes(body[:at] + b"\xff" * 4096 + body[at + 4096 :])
    with caplog.at_level(logging.WARNING, logger="meteor_eval"):
        sections = read(path)
    assert [r.getMessage() for r in caplog.records] == [
        f"unpacked copy {copy} is damaged (checksum); unpacking it again"
    ]
    assert copy.read_bytes() == body
    if isinstance(sections, MeteorSections):
        expected = read_meteor_binary(path)
        assert list(sections.pool) == list(expected.pool)
        assert list(sections.starts) == list(expected.starts)


def test_shared_loaders_name_the_shipped_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = bytearray(_unpacked(METEOR_BINARY_FILE))
    body[32] ^= 0xFF
    damaged = _write(tmp_path, METEOR_BINARY_FILE, bytes(body))
    real = data_file

    def fake(*parts: str) -> Path:
        return damaged if parts[-1] == METEOR_BINARY_FILE else real(*parts)

    monkeypatch.setattr(shipped, "data_file", fake)
    with pytest.raises(ResourceError, match=f"{damaged}.*checksum mismatch"):
        shipped.meteor_sections.__wrapped__()  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "manifest",
    [
        "not json",
        json.dumps({"name": "wordnet"}),  # no text_form digests
        json.dumps({"text_form": {"index.tsv.gz": "zz"}}),
    ],
)
def test_damaged_manifest_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, manifest: str
) -> None:
    path = tmp_path / "manifest.json"
    path.write_text(manifest, encoding="utf-8")
    monkeypatch.setattr(shipped, "data_file", lambda *parts: path)
    with pytest.raises(ResourceError, match=f"WordNet manifest {path} is damaged"):
        shipped.text_form_digests.__wrapped__()  # type: ignore[attr-defined]
