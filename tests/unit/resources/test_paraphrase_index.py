"""The paraphrase index: where tables are found, and how the cached index is built, reused,
checked and rebuilt (corruption, interrupted builds, a different table)."""

from __future__ import annotations

import gzip
import logging
import os
import shutil
from pathlib import Path

import pytest

from meteor_eval.errors import ResourceError
from meteor_eval.resources import paraphrases, registry
from meteor_eval.resources.paraphrases import (
    HEADER_SIZE,
    cache_dir,
    find_paraphrase_table,
    index_path_for,
    open_index,
    paraphrase_table,
    table_key,
)

RECORDS = [("a", "x y"), ("a b", "z"), ("x y", "a"), ("a", "q"), ("c d e", "w")]


def write_table(path: Path, records: list[tuple[str, str]]) -> Path:
    body = "".join(f"0.5\n{a}\n{b}\n" for a, b in records)
    path.write_bytes(gzip.compress(body.encode("utf-8"), mtime=0))
    return path


@pytest.fixture
def table(tmp_path: Path) -> Path:
    return write_table(tmp_path / "paraphrase-xx.gz", RECORDS)


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


@pytest.fixture(autouse=True)
def _no_ambient_tables(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in list(os.environ):
        if name.startswith("METEOR_EVAL_PARAPHRASE") or name == "XDG_CACHE_HOME":
            monkeypatch.delenv(name)
    monkeypatch.setenv("METEOR_EVAL_CACHE", str(tmp_path / "env-cache"))


# -- contents ----------------------------------------------------------------------------------


def test_lookup_returns_phrases_b_in_file_order(table: Path, cache: Path) -> None:
    opened = open_index(table, "xx", directory=cache)
    assert opened.paraphrases(["a"]) == [("x", "y"), ("q",)]
    assert opened.paraphrases(["a", "b"]) == [("z",)]
    assert opened.paraphrases(["x", "y"]) == [("a",)]
    assert opened.paraphrases(["x"]) == []  # a prefix only
    assert opened.paraphrases(["nothing"]) == []
    assert opened.paraphrases([]) == []
    assert opened.records == 5


def test_spec_identifies_the_table_content(table: Path, cache: Path) -> None:
    opened = open_index(table, "xx", directory=cache)
    assert (opened.spec.name, opened.spec.language, opened.spec.version) == (
        "paraphrase",
        "xx",
        "1.5",
    )
    assert opened.spec.sha256 == table_key(table).hex()
    assert opened.spec.short_id == f"paraphrase-xx-1.5-{table_key(table).hex()[:8]}"


def test_java_whitespace_only(tmp_path: Path, cache: Path) -> None:
    # Tab, CR and form feed separate tokens; NBSP and vertical tab do not (spec J2). A lone CR
    # also ends a line (spec J5), so it is written here only inside the phrase via \f and \t.
    body = "0.1\na\tb\fc\nx\u00a0y\x0bz\n"
    path = tmp_path / "ws.gz"
    path.write_bytes(gzip.compress(body.encode("utf-8")))
    opened = open_index(path, "xx", directory=cache)
    assert opened.paraphrases(["a", "b", "c"]) == [("x\u00a0y\x0bz",)]


def test_crlf_and_cr_line_ends(tmp_path: Path, cache: Path) -> None:
    path = tmp_path / "crlf.gz"
    path.write_bytes(gzip.compress(b"0.1\r\na\r\nb\r0.2\rc\rd\n"))
    opened = open_index(path, "xx", directory=cache)
    assert opened.paraphrases(["a"]) == [("b",)]
    assert opened.paraphrases(["c"]) == [("d",)]


def test_empty_phrase_b_is_skipped_with_warning(
    tmp_path: Path, cache: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = write_table(tmp_path / "t.gz", [("a", ""), ("a", "b")])
    with caplog.at_level(logging.WARNING):
        opened = open_index(path, "xx", directory=cache)
    assert opened.paraphrases(["a"]) == [("b",)]
    assert "empty phrase B" in caplog.text


def test_truncated_record_is_an_error(tmp_path: Path, cache: Path) -> None:
    path = tmp_path / "t.gz"
    path.write_bytes(gzip.compress(b"0.1\na\nb\n0.2\nc\n"))
    with pytest.raises(ResourceError, match="ends inside a record"):
        open_index(path, "xx", directory=cache)


def test_not_gzip_is_an_error(tmp_path: Path, cache: Path) -> None:
    path = tmp_path / "t.gz"
    path.write_bytes(b"0.1\na\nb\n")
    with pytest.raises(ResourceError, match="cannot read paraphrase table"):
        open_index(path, "xx", directory=cache)


# -- build, reuse, rebuild ---------------------------------------------------------------------


def test_second_open_reuses_the_index(table: Path, cache: Path) -> None:
    builds = paraphrases.build_count
    first = open_index(table, "xx", directory=cache)
    assert paraphrases.build_count == builds + 1
    assert first.index_path == index_path_for(table_key(table), cache)
    stamp = first.index_path.stat().st_mtime_ns
    second = open_index(table, "xx", directory=cache)
    assert paraphrases.build_count == builds + 1
    assert second.index_path is not None and second.index_path.stat().st_mtime_ns == stamp
    assert second.paraphrases(["a"]) == [("x", "y"), ("q",)]


def test_key_is_path_independent(table: Path, cache: Path, tmp_path: Path) -> None:
    open_index(table, "xx", directory=cache)
    copy = tmp_path / "elsewhere" / "copy.gz"
    copy.parent.mkdir()
    shutil.copyfile(table, copy)
    builds = paraphrases.build_count
    assert open_index(copy, "xx", directory=cache).paraphrases(["a", "b"]) == [("z",)]
    assert paraphrases.build_count == builds


def test_different_table_gets_a_different_index(table: Path, cache: Path, tmp_path: Path) -> None:
    other = write_table(tmp_path / "other.gz", [("a", "other")])
    first = open_index(table, "xx", directory=cache)
    second = open_index(other, "xx", directory=cache)
    assert first.index_path != second.index_path
    assert second.paraphrases(["a"]) == [("other",)]
    assert first.paraphrases(["a"]) == [("x", "y"), ("q",)]


def test_index_of_another_table_under_this_name_is_rebuilt(
    table: Path, cache: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    other = write_table(tmp_path / "other.gz", [("a", "other")])
    other_index = open_index(other, "xx", directory=cache).index_path
    assert other_index is not None
    target = index_path_for(table_key(table), cache)
    shutil.copyfile(other_index, target)
    builds = paraphrases.build_count
    with caplog.at_level(logging.WARNING):
        opened = open_index(table, "xx", directory=cache)
    assert paraphrases.build_count == builds + 1
    assert "different table" in caplog.text
    assert opened.paraphrases(["a"]) == [("x", "y"), ("q",)]


def _corrupt_and_reopen(
    table: Path, cache: Path, damage: str, caplog: pytest.LogCaptureFixture
) -> str:
    index = open_index(table, "xx", directory=cache).index_path
    assert index is not None
    data = bytearray(index.read_bytes())
    if damage == "header":
        data[60] ^= 0xFF
    elif damage == "magic":
        data[0:8] = b"XXXXXXXX"
    elif damage == "body":
        data[HEADER_SIZE + 3] ^= 0x01
    elif damage == "last byte":
        data[-1] ^= 0x80
    elif damage == "truncate":
        del data[-8:]
    elif damage == "truncate header":
        del data[HEADER_SIZE // 2 :]
    elif damage == "empty":
        data = bytearray()
    elif damage == "extend":
        data += b"\0" * 8
    index.write_bytes(bytes(data))
    builds = paraphrases.build_count
    with caplog.at_level(logging.WARNING):
        opened = open_index(table, "xx", directory=cache)
    assert opened.paraphrases(["a"]) == [("x", "y"), ("q",)]
    rebuilt = paraphrases.build_count == builds + 1
    return caplog.text if rebuilt else ""


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        ("header", "header checksum"),
        ("magic", "magic"),
        ("body", "body checksum"),
        ("last byte", "body checksum"),
        ("truncate", "size"),
        ("truncate header", "shorter than its header"),
        ("extend", "size"),
        ("empty", ""),
    ],
)
def test_corrupt_index_is_detected_and_rebuilt(
    table: Path, cache: Path, damage: str, reason: str, caplog: pytest.LogCaptureFixture
) -> None:
    log = _corrupt_and_reopen(table, cache, damage, caplog)
    assert reason in log
    if damage != "empty":  # an empty file is simply treated as absent
        assert "rebuilding" in log


def test_damage_between_the_former_sampled_blocks_is_rebuilt(tmp_path: Path, cache: Path) -> None:
    # A body larger than 64 blocks of 4 KiB: the sampled checksum that opening used to check
    # let a flipped byte between two samples through; the whole body's CRC32 is checked now.
    records = [(f"w{n} v{n % 97}", f"u{n} t{n % 89} s{n}") for n in range(40_000)]
    path = write_table(tmp_path / "big.gz", records)
    index = open_index(path, "xx", directory=cache).index_path
    assert index is not None
    intact = index.read_bytes()
    data = bytearray(intact)
    body = len(data) - HEADER_SIZE
    assert body > 64 * 4096
    step = (body - 4096) // 63
    assert step > 2 * 4096
    # Between sample blocks 60 and 61, i.e. in the trie/record arrays, not the vocabulary.
    data[HEADER_SIZE + 60 * step + 4096 + (step - 4096) // 2] ^= 0x01
    index.write_bytes(bytes(data))
    builds = paraphrases.build_count
    opened = open_index(path, "xx", directory=cache)
    assert paraphrases.build_count == builds + 1
    assert index.read_bytes() == intact
    assert opened.paraphrases(["w5", "v5"]) == [("u5", "t5", "s5")]


def test_a_fresh_index_is_not_stamped_as_verified(
    table: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Changed again within the same clock tick, a file just written could keep its timestamps;
    # only files whose last change is older than _SETTLED_NS (here: an hour) are stamped.
    monkeypatch.setattr(registry, "_SETTLED_NS", 3600 * 10**9)
    index = open_index(table, "xx", directory=cache).index_path
    assert index is not None
    open_index(table, "xx", directory=cache).close()
    assert sorted(p.name for p in cache.iterdir()) == [index.name]


def test_an_unchanged_index_skips_the_body_check_until_it_is_written(
    table: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(registry, "_SETTLED_NS", 0)  # stamp files of any age
    index = open_index(table, "xx", directory=cache).index_path
    assert index is not None
    stamp = index.with_name(f".{index.name}.verified")
    open_index(table, "xx", directory=cache).close()  # checked in full, then stamped
    stat = index.stat()
    assert stamp.read_text() == (
        f"{stat.st_dev} {stat.st_ino} {stat.st_size} {stat.st_mtime_ns} {stat.st_ctime_ns}\n"
    )
    intact = index.read_bytes()
    damaged = bytearray(intact)
    damaged[-3] ^= 0x01  # the last record's phrase-B node
    # Written through the file system: the times change, the body is checked, the index rebuilt.
    index.write_bytes(bytes(damaged))
    builds = paraphrases.build_count
    open_index(table, "xx", directory=cache).close()
    assert paraphrases.build_count == builds + 1 and index.read_bytes() == intact
    assert not stamp.exists()  # the rebuilt file is stamped on a later open
    # A change that no write explains (the stamp made to match): trusted by a plain open,
    # caught by a full check.
    open_index(table, "xx", directory=cache).close()
    with index.open("r+b") as handle:
        handle.write(bytes(damaged))
    stat = index.stat()
    registry.record_verified(index, stat)
    open_index(table, "xx", directory=cache).close()
    assert paraphrases.build_count == builds + 1
    open_index(table, "xx", directory=cache, verify="full").close()
    assert paraphrases.build_count == builds + 2 and index.read_bytes() == intact


class _SimulatedKill(BaseException):
    """Like KeyboardInterrupt (not an Exception), but never taken for a real Ctrl-C."""


def test_interrupted_build_leaves_no_index(
    table: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = index_path_for(table_key(table), cache)

    def crash(fd: int) -> None:
        raise _SimulatedKill

    monkeypatch.setattr(paraphrases.os, "fsync", crash)
    with pytest.raises(_SimulatedKill):
        open_index(table, "xx", directory=cache)
    assert not target.exists()
    assert list(cache.iterdir()) == []  # the temporary file was removed as well
    monkeypatch.undo()
    assert open_index(table, "xx", directory=cache).index_path == target


def test_leftover_temporary_file_is_ignored(table: Path, cache: Path) -> None:
    # A killed build leaves its temporary file; it never has the final name and is not read.
    target = index_path_for(table_key(table), cache)
    cache.mkdir()
    leftover = cache / f".{target.name}.abc123.tmp"
    leftover.write_bytes(b"MEPARIDX" + b"\0" * 100)
    builds = paraphrases.build_count
    opened = open_index(table, "xx", directory=cache)
    assert paraphrases.build_count == builds + 1
    assert opened.index_path == target
    assert opened.paraphrases(["c", "d", "e"]) == [("w",)]


def test_unwritable_cache_keeps_index_in_memory(
    table: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("x")
    with caplog.at_level(logging.WARNING):
        opened = open_index(table, "xx", directory=blocked / "cache")
    assert opened.index_path is None
    assert "keeping it in memory" in caplog.text
    assert opened.paraphrases(["a", "b"]) == [("z",)]


# -- where things are --------------------------------------------------------------------------


def test_cache_dir_order(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("METEOR_EVAL_CACHE", str(tmp_path / "a"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "b"))
    assert cache_dir() == tmp_path / "a"
    monkeypatch.delenv("METEOR_EVAL_CACHE")
    assert cache_dir() == tmp_path / "b" / "meteor-eval"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_dir() == Path.home() / ".cache" / "meteor-eval"


def test_explicit_path_wins(table: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("METEOR_EVAL_PARAPHRASE_XX", str(tmp_path / "missing.gz"))
    assert find_paraphrase_table("xx", table) == table
    assert find_paraphrase_table("xx", str(table)) == table


def test_missing_explicit_path_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "nope.gz"
    with pytest.raises(ResourceError, match=r"paraphrase table not found: .*nope\.gz"):
        find_paraphrase_table("en", missing)


def test_language_variable(table: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("METEOR_EVAL_PARAPHRASE_XX", str(table))
    assert find_paraphrase_table("xx") == table
    monkeypatch.setenv("METEOR_EVAL_PARAPHRASE_XX", str(tmp_path / "gone.gz"))
    with pytest.raises(ResourceError, match=r"gone\.gz \(from \$METEOR_EVAL_PARAPHRASE_XX\)"):
        find_paraphrase_table("xx")


def test_folder_variable(table: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("METEOR_EVAL_PARAPHRASE_DIR", str(table.parent))
    assert find_paraphrase_table("xx") == table


def test_installed_pycocoevalcap_is_found_without_import(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    package = tmp_path / "site" / "pycocoevalcap"
    (package / "meteor" / "data").mkdir(parents=True)
    shipped = write_table(package / "meteor" / "data" / "paraphrase-en.gz", RECORDS)

    class FakeSpec:
        submodule_search_locations = (str(package),)

    monkeypatch.setattr(paraphrases.importlib.util, "find_spec", lambda name: FakeSpec())
    assert find_paraphrase_table("en") == shipped


def test_nothing_found_says_how_to_get_a_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paraphrases.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ResourceError) as caught:
        find_paraphrase_table("en")
    message = str(caught.value)
    assert "no paraphrase table for language 'en'" in message
    assert 'pip install "meteor-eval[paraphrase]"' in message
    assert "--paraphrase-table PATH" in message
    assert "METEOR_EVAL_PARAPHRASE_EN" in message
    assert "paraphrase-en.gz" in message


def test_paraphrase_table_is_cached_per_language_and_path(
    table: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    paraphrase_table.cache_clear()
    monkeypatch.setenv("METEOR_EVAL_CACHE", str(tmp_path / "c"))
    first = paraphrase_table("xx", str(table))
    assert paraphrase_table("xx", str(table)) is first
    assert first.index_path is not None and first.index_path.parent == tmp_path / "c"
    paraphrase_table.cache_clear()


def test_table_tokenizer_is_java_split() -> None:
    from meteor_eval.text.tokenize import java_split

    for text in ["a b", " a\tb\r\nc\fd ", "x\u00a0y\x0bz\x1c", "", "   "]:
        assert paraphrases._TOKEN_RE.findall(text) == java_split(text)


def test_pickles_by_reopening(table: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import pickle

    paraphrase_table.cache_clear()
    monkeypatch.setenv("METEOR_EVAL_CACHE", str(tmp_path / "c"))
    opened = open_index(table, "xx", directory=tmp_path / "c")
    clone = pickle.loads(pickle.dumps(opened))
    assert clone.paraphrases(["a"]) == [("x", "y"), ("q",)]
    assert clone.spec == opened.spec
    paraphrase_table.cache_clear()
