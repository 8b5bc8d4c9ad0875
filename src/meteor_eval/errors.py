"""Exceptions raised by meteor-eval.

Every error the library raises on purpose derives from :class:`MeteorEvalError`, so callers can
catch the whole family at once. The subclasses also derive from the builtin a caller would
naturally expect (``ValueError`` for bad input or configuration, ``RuntimeError`` for missing
resources), so generic handlers keep working.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar, cast

__all__ = [
    "ConfigError",
    "EmptyInputWarning",
    "InputError",
    "MeteorEvalError",
    "MeteorEvalWarning",
    "ResourceError",
    "SearchBudgetWarning",
    "SegmentTooLongError",
    "WorkBudgetError",
    "renamed",
    "warn_empty",
    "warn_renamed",
]

_F = TypeVar("_F", bound=Callable[..., Any])


class MeteorEvalError(Exception):
    """Base class of every error meteor-eval raises deliberately."""


class InputError(MeteorEvalError, ValueError):
    """The data to score is malformed: counts differ, a file is unreadable, a line is bad."""


class ConfigError(MeteorEvalError, ValueError):
    """A configuration is invalid or asks for something that is not available."""


class ResourceError(MeteorEvalError, RuntimeError):
    """A linguistic resource (word list, stemmer, WordNet, paraphrases) is missing or corrupt."""


#: The environment variable that sets the work budgets (:mod:`meteor_eval.limits`, which
#: re-exports it as ``ENV_VARIABLE``; kept here so that this module imports nothing).
WORK_BUDGET_VARIABLE = "METEOR_EVAL_WORK_BUDGET"

#: What the units of each kind of work budget count, for messages (``limits.UNITS``).
WORK_UNITS: Mapping[str, str] = {
    "meteor15": "candidate pairs",
    "paper2005": "candidate pairs",
    "nltk": "position comparisons",
    "rouge": "LCS table cells",
    "rouge_skip": "skip bigrams",
}


class WorkBudgetError(InputError):
    """A segment would cost more work than its metric's budget (see :mod:`meteor_eval.limits`).

    Args:
        metric: What refused it (``"METEOR (meteor15)"``, ``"ROUGE-L"``).
        kind: The budget's key in :data:`meteor_eval.limits.WORK_BUDGET`.
        units: The work the segment would take, in the kind's units.
        budget: The budget in force.
        index: Its position in the batch the metric was given, when known.
        line: Its line (1-based) in the input, once the caller has placed it.

    The arguments are kept in ``args``, so the error pickles (it crosses process boundaries
    with ``--jobs``).
    """

    def __init__(
        self,
        metric: str,
        kind: str,
        units: int,
        budget: int,
        index: int | None = None,
        line: int | None = None,
    ) -> None:
        super().__init__(metric, kind, units, budget, index, line)
        self.metric = metric
        self.kind = kind
        self.units = units
        self.budget = budget
        self.index = index
        self.line = line

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        unit = WORK_UNITS.get(self.kind, "units")
        return (
            f"{where}{self.metric} would take {self.units:,} {unit} on this segment, above its "
            f"work budget of {self.budget:,} ({self.kind}); raise it with --work-budget "
            f"{self.kind}=N, {WORK_BUDGET_VARIABLE} or meteor_eval.limits.work_budget() "
            "(see docs/limits.md)"
        )

    def at_index(self, index: int) -> WorkBudgetError:
        """The same error placed at ``index`` in a batch (unless already placed)."""
        if self.index is not None:
            return self
        return WorkBudgetError(self.metric, self.kind, self.units, self.budget, index)

    def at_line(self, offset: int) -> WorkBudgetError:
        """The same error at its line, for a batch that starts after ``offset`` lines."""
        line = offset + (self.index or 0) + 1
        return WorkBudgetError(self.metric, self.kind, self.units, self.budget, None, line)


#: Deprecated name of :class:`WorkBudgetError` (segments were once refused by length).
SegmentTooLongError = WorkBudgetError


class MeteorEvalWarning(UserWarning):
    """Base class of the warnings meteor-eval issues: the result is given, but something the
    user can fix or should know about changed it (the CLI prints each as one line)."""


class SearchBudgetWarning(MeteorEvalWarning):
    """paper2005's exact alignment search ran out of its node budget on a segment; the best
    alignment found so far was kept (see ``meteor_eval.align.exhaustive.SEARCH_BUDGET``)."""


class EmptyInputWarning(MeteorEvalWarning):
    """There was no segment to score (an empty file or an empty list); the score is 0.0."""


def warn_renamed(old: str, new: str, stacklevel: int = 3) -> None:
    """Warn that a public name is deprecated in favour of ``new`` (kept for one release: both
    work in 0.2, the old one goes in 0.3)."""
    import warnings

    warnings.warn(
        f"{old} is deprecated and will be removed in 0.3; use {new}",
        DeprecationWarning,
        stacklevel=stacklevel,
    )


def renamed(function: _F, old: str) -> _F:
    """``function`` under its deprecated name ``old``: the same signature (``inspect`` and
    type checkers see ``function``'s), a :func:`warn_renamed` warning at each call, pointing
    at the caller, then ``function`` called with the same arguments."""
    import functools

    @functools.wraps(function)
    def alias(*args: Any, **kwargs: Any) -> Any:
        warn_renamed(old, function.__name__)
        return function(*args, **kwargs)

    alias.__name__ = alias.__qualname__ = old
    alias.__doc__ = f"Deprecated name of :func:`{function.__name__}` (removed in 0.3)."
    return cast("_F", alias)


def warn_empty() -> None:
    """Warn that a corpus score was asked of no segment (its documented result is 0.0), at
    the line that asked: the first caller outside this package, however deep in it (engines,
    generators) the empty total was found."""
    import os
    import sys
    import warnings

    package = os.path.dirname(os.path.abspath(__file__)) + os.sep
    frame, level = sys._getframe(1), 2
    while frame.f_back is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    warnings.warn(
        "no segments to score (empty input): the score is 0.0", EmptyInputWarning, stacklevel=level
    )
