"""What the command line shows on stderr besides its results: log messages and progress bars.

The library prints nothing: it logs on the ``meteor_eval`` logger (which carries a
``NullHandler`` by the time anything is logged, see ``meteor_eval._log``) and reports index
builds to a callback. The command line attaches one stderr handler, at INFO by default (``-q``:
warnings and errors only; ``-v``: debug messages too), when the library first makes a logger
if :mod:`logging` is not loaded yet (a run that logs nothing then never imports it), and, on a
terminal, draws the paraphrase index build as a ``tqdm`` bar instead of announcing it in a line
of text.
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from meteor_eval._log import when_logging

if TYPE_CHECKING:
    import logging

__all__ = ["ProgressBar", "ProgressBars", "configure"]

_LOGGER = "meteor_eval"
#: Start of the library's message that announces an index build.
_BUILD_NOTICE = "building the paraphrase index for "


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


class ProgressBar:
    """A progress bar of segments on stderr (``tqdm``), drawn only after a second; created only
    when stderr is a terminal."""

    def __init__(self, label: str, total: int | None, *, unit: str = " segments") -> None:
        from tqdm import tqdm

        # No monitor thread: with a single thread, --jobs workers may fork (meteor_eval.processes).
        tqdm.monitor_interval = 0
        self.bar = tqdm(
            total=total,
            desc=f"meteor-eval: {label}".rstrip(": "),
            unit=unit,
            delay=1.0,
            mininterval=0.2,
            file=sys.stderr,
            leave=False,
            dynamic_ncols=True,
        )

    def __call__(self, done: int) -> None:
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        self.bar.close()


class ProgressBars:
    """A request's progress callback (:data:`meteor_eval.systems.ProgressCallback`): one
    :class:`ProgressBar` per system and metric, the previous one closed when the next starts
    (``several``: the bars name the system and the metric)."""

    def __init__(self, several: bool) -> None:
        self.several = several
        self.key: tuple[str, str] | None = None
        self.bar: ProgressBar | None = None

    def __call__(self, system: str, metric: str, done: int, total: int | None) -> None:
        if self.key != (system, metric):
            self.close()
            self.key = (system, metric)
            self.bar = ProgressBar(f"{system} {metric}: " if self.several else "", total)
        assert self.bar is not None
        self.bar(done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def _handler() -> logging.Handler:
    """The command line's stderr handler with its formatter (imports :mod:`logging`)."""
    import logging

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

    handler = _StderrHandler()
    handler.setFormatter(_Formatter())
    return handler


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
    bar = progress and verbosity >= 0 and sys.stderr.isatty()
    # Put off until the library first makes a logger when logging is not loaded yet: a run
    # that logs nothing does not import it (about 25 million instructions).
    when_logging(partial(_attach, verbosity, bar))
    if bar or "meteor_eval.resources.paraphrases" in sys.modules:
        from meteor_eval.resources.paraphrases import set_build_progress

        set_build_progress(_IndexBar if bar else None)


def _attach(verbosity: int, bar: bool) -> None:
    """:func:`configure`'s handler on the package's logger, replacing an earlier one."""
    import logging

    logger = logging.getLogger(_LOGGER)
    for handler in list(logger.handlers):
        if getattr(handler, "cli_owned", False):
            logger.removeHandler(handler)
    handler = _handler()
    logger.addHandler(handler)
    logger.setLevel(
        logging.DEBUG if verbosity > 0 else logging.WARNING if verbosity < 0 else logging.INFO
    )
    if bar:
        handler.addFilter(_not_build_notice)
