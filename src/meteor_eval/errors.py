"""Exceptions raised by meteor-eval.

Every error the library raises on purpose derives from :class:`MeteorEvalError`, so callers can
catch the whole family at once. The subclasses also derive from the builtin a caller would
naturally expect (``ValueError`` for bad input or configuration, ``RuntimeError`` for missing
resources), so generic handlers keep working.
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "InputError",
    "MeteorEvalError",
    "MeteorEvalWarning",
    "ResourceError",
    "SearchBudgetWarning",
]


class MeteorEvalError(Exception):
    """Base class of every error meteor-eval raises deliberately."""


class InputError(MeteorEvalError, ValueError):
    """The data to score is malformed: counts differ, a file is unreadable, a line is bad."""


class ConfigError(MeteorEvalError, ValueError):
    """A configuration is invalid or asks for something that is not available."""


class ResourceError(MeteorEvalError, RuntimeError):
    """A linguistic resource (word list, stemmer, WordNet, paraphrases) is missing or corrupt."""


class MeteorEvalWarning(UserWarning):
    """Base class of the warnings meteor-eval issues: the result is given, but something the
    user can fix or should know about changed it (the CLI prints each as one line)."""


class SearchBudgetWarning(MeteorEvalWarning):
    """paper2005's exact alignment search ran out of its node budget on a segment; the best
    alignment found so far was kept (see ``meteor_eval.align.exhaustive.SEARCH_BUDGET``)."""
