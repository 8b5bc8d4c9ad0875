"""The library's loggers without importing :mod:`logging` up front.

The library logs (an index build, a damaged cache file) but prints nothing unless the
application configures logging: the ``meteor_eval`` logger carries a ``NullHandler``. Importing
``logging`` costs about 25 million instructions (``python -c "import logging"`` against
``python -c pass``), a sixteenth of a small scoring script such as the NLTK flavour's, which
never logs. So the package attaches the handler at its import only when ``logging`` is already
loaded (then it is free), and otherwise :func:`get_logger` attaches it the first time a module
asks for a logger, before that module can log anything.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import logging

PACKAGE = "meteor_eval"

#: What :func:`when_logging` put off until the library's first logger (at most one: the latest
#: configuration of the application wins, as if it had been applied at once).
_pending: Callable[[], None] | None = None


def when_logging(configure: Callable[[], None]) -> None:
    """Run ``configure`` (which sets up the package's logger) now if :mod:`logging` is loaded,
    else just before the library first makes a logger.

    The command line configures its stderr handler this way: a run that logs nothing (an index
    already built, no damaged cache) then never imports :mod:`logging`, and a run that does log
    has the handler in place before its first message (every logger of the library comes from
    :func:`get_logger`). A later call replaces a configuration still put off.
    """
    global _pending
    if "logging" in sys.modules:
        _pending = None
        configure()
    else:
        _pending = configure


def attach_null_handler() -> None:
    """Give the package's logger one ``NullHandler`` (once; imports :mod:`logging`)."""
    global _pending
    import logging

    logger = logging.getLogger(PACKAGE)
    if not any(isinstance(handler, logging.NullHandler) for handler in logger.handlers):
        logger.addHandler(logging.NullHandler())
    if _pending is not None:
        configure, _pending = _pending, None
        configure()


def attach_if_loaded() -> None:
    """:func:`attach_null_handler` when :mod:`logging` is already imported (the package's
    import: free then; otherwise :func:`get_logger` does it when something first logs)."""
    if "logging" in sys.modules:
        attach_null_handler()


def get_logger(name: str) -> logging.Logger:
    """``logging.getLogger(name)``, after making sure the package's logger has its handler
    (and the application's configuration put off by :func:`when_logging` is applied).

    Call it where a message is about to be logged (not at import), so that a run that logs
    nothing never imports :mod:`logging`.
    """
    import logging

    attach_null_handler()
    return logging.getLogger(name)
