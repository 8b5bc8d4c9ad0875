"""Resources after faults: a build killed mid-write, an empty paraphrase table."""

from __future__ import annotations

import fcntl
import gzip
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from meteor_eval.errors import ResourceError
from meteor_eval.resources.paraphrases import index_path_for, open_index, table_key
from meteor_eval.resources.registry import remove_stale_temporaries

SRC = Path(__file__).resolve().parents[3] / "src"


def _table(path: Path) -> Path:
    body = "0.5\na\nx y\n0.5\nx y\na\n"
    path.write_bytes(gzip.compress(body.encode("utf-8"), mtime=0))
    return path


def _killed_writer(target: Path) -> None:
    """Write ``target`` with ``write_atomically`` in a process that SIGKILLs itself mid-write."""
    code = textwrap.dedent(
        f"""
        import os, signal
        from pathlib import Path
        from meteor_eval.resources.registry import write_atomically

        def chunks():
            yield b"MEPARIDX" + bytes(1 << 20)
            os.kill(os.getpid(), signal.SIGKILL)

        write_atomically(Path({str(target)!r}), chunks())
        """
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, "-c", code], env=env, timeout=60, check=False)
    assert done.returncode == -9


def test_temporary_of_a_killed_build_is_removed_on_next_open(tmp_path: Path) -> None:
    table = _table(tmp_path / "paraphrase-xx.gz")
    cache = tmp_path / "cache"
    target = index_path_for(table_key(table), cache)
    _killed_writer(target)
    (leftover,) = cache.glob(f".{target.name}.*.tmp")
    assert leftover.stat().st_size >= 1 << 20
    opened = open_index(table, "xx", directory=cache)
    assert opened.paraphrases(["a"]) == [("x", "y")]
    assert sorted(p.name for p in cache.iterdir()) == [target.name]


def test_temporary_being_written_is_kept(tmp_path: Path) -> None:
    target = tmp_path / "index.idx"
    busy = tmp_path / f".{target.name}.busy.tmp"
    stale = tmp_path / f".{target.name}.stale.tmp"
    other = tmp_path / ".another.idx.x.tmp"
    for path in (busy, stale, other):
        path.write_bytes(b"partial")
    with busy.open("rb") as writer:  # a live writer holds its lock
        fcntl.flock(writer.fileno(), fcntl.LOCK_EX)
        assert remove_stale_temporaries(target) == [stale]
    assert busy.exists() and other.exists() and not stale.exists()


@pytest.mark.parametrize("content", [b"", gzip.compress(b"", mtime=0)])
def test_empty_paraphrase_table_is_refused(tmp_path: Path, content: bytes) -> None:
    table = tmp_path / "paraphrase-en.gz"
    table.write_bytes(content)
    with pytest.raises(ResourceError, match=r"has no paraphrase records \(an empty file"):
        open_index(table, "en", directory=tmp_path / "cache")
    assert not (tmp_path / "cache").exists() or list((tmp_path / "cache").iterdir()) == []
