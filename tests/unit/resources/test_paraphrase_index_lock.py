"""Index builds between processes: the lock file, waiting for another build, stale
temporary files of killed builds, and the progress reported while building."""

from __future__ import annotations

import fcntl
import gzip
import os
import threading
from pathlib import Path

import pytest

from meteor_eval.errors import ResourceError
from meteor_eval.resources import paraphrases
from meteor_eval.resources.paraphrases import (
    build_index,
    index_path_for,
    lock_path_for,
    open_index,
    table_key,
)


@pytest.fixture
def table(tmp_path: Path) -> Path:
    path = tmp_path / "paraphrase-xx.gz"
    path.write_bytes(gzip.compress(b"0.5\na\nb c\n0.5\nb c\nd\n", mtime=0))
    return path


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    folder = tmp_path / "cache"
    folder.mkdir()
    return folder


def _hold_lock(index: Path) -> int:
    """Lock as another process would (flock locks belong to an open file, so a second open
    in this process conflicts with it just the same)."""
    fd = os.open(lock_path_for(index), os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def test_waiting_too_long_is_a_clear_error(table: Path, cache: Path) -> None:
    index = index_path_for(table_key(table), cache)
    fd = _hold_lock(index)
    try:
        with pytest.raises(ResourceError) as caught:
            open_index(table, "xx", directory=cache, lock_timeout=0.2)
    finally:
        os.close(fd)
    message = str(caught.value)
    assert "waiting for another process building the paraphrase index" in message
    assert str(lock_path_for(index)) in message
    assert not index.exists()


def test_second_process_opens_the_index_the_first_built(
    table: Path, cache: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    index = index_path_for(table_key(table), cache)
    fd = _hold_lock(index)
    result: list[object] = []
    waiter = threading.Thread(
        target=lambda: result.append(open_index(table, "xx", directory=cache, lock_timeout=60))
    )
    builds = paraphrases.build_count
    with caplog.at_level("INFO", logger="meteor_eval"):
        waiter.start()
        # "The other process" finishes its build while this one waits, then unlocks.
        header, body = build_index(table)
        index.write_bytes(header + body)
        os.close(fd)
        waiter.join(60)
    assert paraphrases.build_count == builds + 1  # only the build above
    opened = result[0]
    assert isinstance(opened, paraphrases.ParaphraseTable)
    assert opened.index_path == index
    assert opened.paraphrases(["a"]) == [("b", "c")]


def test_stale_temporaries_are_removed_by_the_next_build(table: Path, cache: Path) -> None:
    index = index_path_for(table_key(table), cache)
    stale = [cache / f".{index.name}.k1ll3d.tmp", cache / f".{index.name}.other.tmp"]
    for path in stale:
        path.write_bytes(b"MEPARIDX" + bytes(100))
    unrelated = cache / ".paraphrase-0000.v1.idx.x.tmp"
    unrelated.write_bytes(b"")
    opened = open_index(table, "xx", directory=cache)
    assert opened.index_path == index
    assert not any(path.exists() for path in stale)
    assert unrelated.exists()  # another table's build may be writing it


class _Recorder:
    def __init__(self, table: Path, index: Path) -> None:
        self.where = (table, index)
        self.calls: list[tuple[int, int]] = []
        self.closed = False

    def __call__(self, done: int, total: int) -> None:
        self.calls.append((done, total))

    def close(self) -> None:
        self.closed = True


def test_build_reports_to_the_progress_factory(
    table: Path, cache: Path, caplog: pytest.LogCaptureFixture
) -> None:
    made: list[_Recorder] = []

    def factory(table: Path, index: Path) -> _Recorder:
        made.append(_Recorder(table, index))
        return made[-1]

    paraphrases.set_build_progress(factory)
    try:
        with caplog.at_level("INFO", logger="meteor_eval"):
            opened = open_index(table, "xx", directory=cache)
        open_index(table, "xx", directory=cache)  # built already: no second report
    finally:
        paraphrases.set_build_progress(None)
    size = table.stat().st_size
    assert len(made) == 1
    assert made[0].where == (table, opened.index_path)
    assert made[0].calls[-1] == (size, size) and made[0].closed
    assert (
        f"building the paraphrase index for paraphrase-xx.gz (once, ~1 s) into "
        f"{opened.index_path}" in caplog.text
    )


def test_build_estimate() -> None:
    assert paraphrases.build_estimate(Path("/nonexistent")) == 1


def test_library_prints_nothing_by_itself(table: Path, cache: Path) -> None:
    import logging

    import meteor_eval

    handlers = logging.getLogger(meteor_eval.__name__).handlers
    assert any(isinstance(h, logging.NullHandler) for h in handlers)
