"""What the command line shows on stderr besides its results: log messages and progress bars.

The library prints nothing: it logs on the ``meteor_eval`` logger (which carries a
``NullHandler`` by the time anything is logged, see ``meteor_eval._log``) and reports index
builds to a callback. The command line attaches one stderr handler, at INFO by default (``-q``:
warnings and errors only; ``-v``: debug messages too), and, on a terminal, draws the paraphrase
index build as a ``tqdm`` bar instead of announcing it in a line of text.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

__all__ = ["configure"]

_LOGGER = "meteor_eval"
#: Start of the library's message that announces an index build.
_BUILD_NOTICE = "building the paraphrase index for "


class _StderrHandler(logging.Handler):
    """Writes each message as a line on the ``sys.stderr`` of the moment (tests and wrappers
    replace it)."""

    cli_owned = True

    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stderr.write(self.format(record) + "\n")
            sys.stderr.flush()
        except Exception:  # as logging.StreamHandler: never let a log line break the run
            self.handleError(record)


class _Formatter(logging.Formatter):
    """``meteor-eval: MESSAGE``, ``meteor-eval: warning: MESSAGE`` (as the warnings print)."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        if record.levelno >= logging.ERROR:
            return f"meteor-eval: error: {message}"
        if record.levelno >= logging.WARNING:
            return f"meteor-eval: warning: {message}"
        return f"meteor-eval: {message}"


class _IndexBar:
    """A ``tqdm`` bar (bytes of the compressed table) for one paraphrase index build."""

    def __init__(self, table: Path, index: Path) -> None:
        from tqdm import tqdm

        self._bar = tqdm(
            desc=f"meteor-eval: building the paraphrase index for {table.name} (once)",
            unit="B",
            unit_scale=True,
            file=sys.stderr,
            leave=False,
            dynamic_ncols=True,
        )

    def __call__(self, done: int, total: int) -> None:
        if self._bar.total != total:
            self._bar.total = total
        self._bar.update(done - self._bar.n)

    def close(self) -> None:
        self._bar.close()


def _not_build_notice(record: logging.LogRecord) -> bool:
    return not str(record.msg).startswith(_BUILD_NOTICE)


def configure(verbosity: int, *, progress: bool) -> None:
    """Send the library's log to stderr and show index builds.

    Args:
        verbosity: ``-1`` quiet (warnings and errors), ``0`` normal (also notices such as an
            index build), ``1`` verbose (also debug messages).
        progress: Whether progress bars are allowed (not ``--no-progress``); a bar is drawn
            only on a terminal, and then replaces the line announcing an index build.
    """
    logger = logging.getLogger(_LOGGER)
    for handler in list(logger.handlers):
        if getattr(handler, "cli_owned", False):
            logger.removeHandler(handler)
    handler = _StderrHandler()
    handler.setFormatter(_Formatter())
    logger.addHandler(handler)
    logger.setLevel(
        logging.DEBUG if verbosity > 0 else logging.WARNING if verbosity < 0 else logging.INFO
    )
    bar = progress and verbosity >= 0 and sys.stderr.isatty()
    if bar:
        handler.addFilter(_not_build_notice)
    if bar or "meteor_eval.resources.paraphrases" in sys.modules:
        from meteor_eval.resources.paraphrases import set_build_progress

        set_build_progress(_IndexBar if bar else None)
