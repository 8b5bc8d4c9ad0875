"""The lock that serialises builds of one paraphrase index between processes.

A build holds an exclusive ``flock`` on ``<index>.lock`` (removed when the build ends): a second
process that needs the same index meanwhile waits (up to :data:`LOCK_TIMEOUT`) and then opens
the finished index, so simultaneous first runs build once. Locks are unavailable on Windows,
where a build may then happen twice, still atomically.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from meteor_eval._log import get_logger
from meteor_eval.errors import ResourceError

__all__ = ["LOCK_TIMEOUT", "build_lock", "lock_path_for"]

#: Seconds to wait for another process building the same index before giving up.
LOCK_TIMEOUT: Final = 600.0
_LOCK_POLL: Final = 0.05


def lock_path_for(index: Path) -> Path:
    """The lock file that serialises builds of ``index`` between processes."""
    return index.with_name(index.name + ".lock")


@contextlib.contextmanager
def build_lock(index: Path, timeout: float) -> Iterator[bool]:
    """Hold an exclusive ``flock`` on the index's lock file while building it.

    Yields whether the lock is held: ``False`` where locks are unavailable (no ``fcntl``, or a
    cache folder that cannot be written; the build then goes ahead unlocked, which is safe,
    since indexes are moved into place atomically, only possibly done twice).

    Raises:
        ResourceError: if another process holds the lock for longer than ``timeout`` seconds.
    """
    try:
        import fcntl
    except ImportError:  # Windows
        yield False
        return
    path = lock_path_for(index)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = path.open("a+b")
    except OSError:
        yield False
        return
    with handle:
        deadline = time.monotonic() + timeout
        waiting = False
        while True:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if not waiting:
                    get_logger("meteor_eval.resources.paraphrases").info(
                        "waiting for another process that is building the paraphrase index %s",
                        index,
                    )
                    waiting = True
                if time.monotonic() >= deadline:
                    raise ResourceError(
                        f"gave up after {timeout:.0f} s waiting for another process building "
                        f"the paraphrase index {index} (it holds the lock {path}); let it "
                        "finish, or stop it and run again"
                    ) from None
                time.sleep(_LOCK_POLL)
        try:
            yield True
        finally:
            # Removed while still held, so the cache keeps only indexes. A process already
            # waiting on this file then gets it and, like one that locks a new file, finds the
            # index built (it is checked again under the lock): at worst a failed build is
            # tried twice, each written atomically.
            with contextlib.suppress(OSError):
                path.unlink()
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
