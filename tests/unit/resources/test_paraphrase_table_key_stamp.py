"""The paraphrase table's content key read from its stamp in the cache folder
(``paraphrases.stamped_table_key``): the key of ``table_key`` while the table is unchanged, and
computed again whenever the stamp is missing, torn, stale or the table changed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from meteor_eval.resources import paraphrases
from meteor_eval.resources.paraphrases import stamped_table_key, table_key


def _stamps(folder: Path) -> list[Path]:
    return sorted(folder.glob(".table-*.key"))


def test_the_stamped_key_is_the_table_key_until_the_table_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = tmp_path / "table.gz"
    table.write_bytes(bytes(range(256)) * 9000)  # past one MiB: first and last MiB hashed
    cache = tmp_path / "cache"
    cache.mkdir()
    monkeypatch.setattr(paraphrases, "settled", lambda stat: False)
    assert stamped_table_key(table, cache) == table_key(table)
    assert not _stamps(cache)  # a table changed less than two seconds ago is not stamped
    monkeypatch.setattr(paraphrases, "settled", lambda stat: True)
    key = stamped_table_key(table, cache)
    assert key == table_key(table) and not _stamps(cache)  # no index in the folder yet
    monkeypatch.setattr(Path, "is_file", lambda self: True)  # as if every index were built
    key = stamped_table_key(table, cache)
    assert key == table_key(table) and len(_stamps(cache)) == 1
    calls: list[Path] = []
    real = paraphrases.table_key
    monkeypatch.setattr(paraphrases, "table_key", lambda path: calls.append(path) or real(path))
    assert stamped_table_key(table, cache) == key and not calls  # read from the stamp
    # A change through the file system (new size and times): hashed again, stamp replaced.
    table.write_bytes(bytes(range(256)) * 9000 + b"x")
    assert stamped_table_key(table, cache) == real(table) != key and len(calls) == 1
    assert stamped_table_key(table, cache) == real(table) and len(calls) == 1
    # A torn or damaged stamp is not trusted.
    (stamp,) = _stamps(cache)
    stamp.write_text(stamp.read_text(encoding="ascii")[:-10], encoding="ascii")
    assert stamped_table_key(table, cache) == real(table) and len(calls) == 2
    text = stamp.read_text(encoding="ascii")
    stamp.write_text(text[:-3] + "zz\n", encoding="ascii")
    assert stamped_table_key(table, cache) == real(table) and len(calls) == 3
    # Another table of the same folder has its own stamp; an unwritable cache still works.
    other = tmp_path / "other.gz"
    other.write_bytes(b"other")
    assert stamped_table_key(other, cache) == real(other) and len(_stamps(cache)) == 2
    assert stamped_table_key(other, tmp_path / "missing") == real(other)


def test_an_unreadable_table_raises_the_table_keys_error(tmp_path: Path) -> None:
    from meteor_eval.errors import ResourceError

    with pytest.raises(ResourceError, match="cannot read paraphrase table"):
        stamped_table_key(tmp_path / "absent.gz", tmp_path)
    assert os.listdir(tmp_path) == []
