"""Exceptions raised by meteor-eval.

Every error the library raises on purpose derives from :class:`MeteorEvalError`, so callers can
catch the whole family at once. The subclasses also derive from the builtin a caller would
naturally expect (``ValueError`` for bad input or configuration, ``RuntimeError`` for missing
resources), so generic handlers keep working.
"""

from __future__ import annotations

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
    "warn_empty",
]


class MeteorEvalError(Exception):
    """Base class of every error meteor-eval raises deliberately."""


class InputError(MeteorEvalError, ValueError):
    """The data to score is malformed: counts differ, a file is unreadable, a line is bad."""


class ConfigError(MeteorEvalError, ValueError):
    """A configuration is invalid or asks for something that is not available."""


class ResourceError(MeteorEvalError, RuntimeError):
    """A linguistic resource (word list, stemmer, WordNet, paraphrases) is missing or corrupt."""


class SegmentTooLongError(InputError):
    """A segment has more tokens than a metric accepts (see :mod:`meteor_eval.limits`).

    Args:
        metric: What refused it (``"METEOR (meteor15)"``, ``"ROUGE-L"``).
        side: ``"hypothesis"`` or ``"reference"``.
        tokens: Its number of tokens.
        limit: The most the metric accepts.
        index: Its position in the batch the metric was given, when known.
        line: Its line (1-based) in the input, once the caller has placed it.

    The arguments are kept in ``args``, so the error pickles (it crosses process boundaries
    with ``--jobs``).
    """

    def __init__(
        self,
        metric: str,
        side: str,
        tokens: int,
        limit: int,
        index: int | None = None,
        line: int | None = None,
    ) -> None:
        super().__init__(metric, side, tokens, limit, index, line)
        self.metric = metric
        self.side = side
        self.tokens = tokens
        self.limit = limit
        self.index = index
        self.line = line

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        return (
            f"{where}the {self.side} has {self.tokens:,} tokens; {self.metric} accepts at most "
            f"{self.limit:,} per segment (its time and memory grow with the square of the "
            "length; see docs/limits.md)"
        )

    def at_index(self, index: int) -> SegmentTooLongError:
        """The same error placed at ``index`` in a batch (unless already placed)."""
        if self.index is not None:
            return self
        return SegmentTooLongError(self.metric, self.side, self.tokens, self.limit, index)

    def at_line(self, offset: int) -> SegmentTooLongError:
        """The same error at its line, for a batch that starts after ``offset`` lines."""
        line = offset + (self.index or 0) + 1
        return SegmentTooLongError(self.metric, self.side, self.tokens, self.limit, None, line)


class WorkBudgetError(SegmentTooLongError):
    """A segment needs more work than a metric's budget allows (see
    :data:`meteor_eval.limits.WORK_BUDGET`): natural text of any length is scored, and only
    input whose work explodes (one word repeated thousands of times on both sides) is refused.

    Args:
        metric: What refused it (``"METEOR (meteor15)"``).
        units: The work counted when the budget was passed (METEOR 1.5: candidate matches).
        budget: The budget.
        index: Its position in the batch the metric was given, when known.
        line: Its line (1-based) in the input, once the caller has placed it.

    It is placed at its line like :class:`SegmentTooLongError` (whose placement the batch and
    process engines already perform) and, like every bad-input error, is an
    :class:`InputError`.
    """

    def __init__(
        self,
        metric: str,
        units: int,
        budget: int,
        index: int | None = None,
        line: int | None = None,
    ) -> None:
        InputError.__init__(self, metric, units, budget, index, line)
        self.metric = metric
        self.side = "pair"
        self.tokens = units
        self.limit = budget
        self.units = units
        self.budget = budget
        self.index = index
        self.line = line

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        return (
            f"{where}{self.metric} needs more than its work budget of {self.budget:,} candidate "
            f"matches for this pair ({self.units:,} counted so far: the same words repeated "
            "many times on both sides?); raise meteor_eval.limits.WORK_BUDGET to score it (see "
            "docs/limits.md)"
        )

    def at_index(self, index: int) -> WorkBudgetError:
        """The same error placed at ``index`` in a batch (unless already placed)."""
        if self.index is not None:
            return self
        return WorkBudgetError(self.metric, self.units, self.budget, index)

    def at_line(self, offset: int) -> WorkBudgetError:
        """The same error at its line, for a batch that starts after ``offset`` lines."""
        line = offset + (self.index or 0) + 1
        return WorkBudgetError(self.metric, self.units, self.budget, None, line)


class MeteorEvalWarning(UserWarning):
    """Base class of the warnings meteor-eval issues: the result is given, but something the
    user can fix or should know about changed it (the CLI prints each as one line)."""


class SearchBudgetWarning(MeteorEvalWarning):
    """paper2005's exact alignment search ran out of its node budget on a segment; the best
    alignment found so far was kept (see ``meteor_eval.align.exhaustive.SEARCH_BUDGET``)."""


class EmptyInputWarning(MeteorEvalWarning):
    """There was no segment to score (an empty file or an empty list); the score is 0.0."""


def warn_empty(stacklevel: int = 3) -> None:
    """Warn that a corpus score was asked of no segment (its documented result is 0.0)."""
    import warnings

    warnings.warn(
        "no segments to score (empty input): the score is 0.0",
        EmptyInputWarning,
        stacklevel=stacklevel,
    )
