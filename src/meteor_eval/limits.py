"""Budgets on the work one segment may cost (see ``docs/limits.md``).

Some metric steps do work that grows with more than a segment's length: METEOR 1.5's candidate
matches are every pair of positions holding the same word (or stem, synonym, paraphrase),
paper2005's exact search keeps Python objects over them, NLTK's greedy matcher compares every
pair of positions, ROUGE-L/Lsum/W fill a longest-common-subsequence table and ROUGE-S/SU
without a skip limit count every pair of positions. Natural text keeps that work moderate
(a 100,000-token news document has about 146 million pairs of equal words against another),
but one pathological line (the same word tens of thousands of times on both sides) could take
gigabytes or hours. So the work itself is counted before it is done, and a segment whose work
exceeds the budget of its kind is refused with :class:`~meteor_eval.errors.WorkBudgetError`
naming the metric, the work, the budget and (from the command line) the file and line. Length
alone never refuses a segment.

The kinds and their units (what the algorithm actually does):

* ``meteor15``: candidate pairs, the pairs of hypothesis and reference positions with the
  same word (the same stem when the stem module is on);
* ``paper2005``: the same candidate pairs (its search has its own time budget,
  :data:`meteor_eval.align.exhaustive.SEARCH_BUDGET`);
* ``nltk``: comparisons of the greedy matcher, hypothesis length times reference length;
* ``rouge``: LCS table cells (ROUGE-L, ROUGE-Lsum, ROUGE-W: hypothesis tokens times
  reference tokens, unless a linear algorithm counts less);
* ``rouge_skip``: skip bigrams built by ROUGE-S/SU without a skip limit (n(n-1)/2 per side).

The budgets are set, from strongest to weakest, by :func:`work_budget` (a context manager for
library callers), the command line's ``--work-budget``, and the environment variable
``METEOR_EVAL_WORK_BUDGET`` (read when this module is imported). ``jobs`` worker processes
receive the budgets of the process that starts them, whatever their start method.
``benchmarks/bench_worst_case.py`` measures natural documents and the worst inputs at the
defaults.
"""

from __future__ import annotations

import contextlib
import math
import os
import warnings
from collections.abc import Iterator, Mapping

from meteor_eval.errors import (
    WORK_BUDGET_VARIABLE,
    WORK_UNITS,
    ConfigError,
    MeteorEvalWarning,
    WorkBudgetError,
)

__all__ = [
    "DEFAULT_WORK_BUDGET",
    "ENV_VARIABLE",
    "UNITS",
    "WORK_BUDGET",
    "check_work",
    "environment_error",
    "parse_work_budget",
    "set_work_budget",
    "work_budget",
]

#: The environment variable that sets the budgets (same syntax as ``--work-budget``).
ENV_VARIABLE = WORK_BUDGET_VARIABLE

#: The budgets as shipped. Each sits above the work of natural documents of 100,000 tokens
#: on both sides (built from consecutive news and xray sentences; ``docs/limits.md``) except
#: where the algorithm's memory cannot hold such a document (paper2005, ROUGE-S/SU without a
#: skip limit), and refuses one word repeated on both sides from the count in each comment.
#: meteor15: 300 million candidate pairs (the natural 100,000-token document: 146 million;
#: refused: one word repeated 17,321 times on both sides). paper2005: 10 million (Python
#: objects per pair: a natural 26,000-token document; 3,163 repeats). nltk: 20 billion
#: comparisons (the natural 100,000-token document: 10 billion; it is time only, compiled).
#: rouge: 20 billion table cells (100,000 tokens against 100,000: 10 billion). rouge_skip:
#: 25 million skip bigrams (a Python dictionary entry each: about 5,000 tokens a side).
DEFAULT_WORK_BUDGET: Mapping[str, int] = {
    "meteor15": 300_000_000,
    "paper2005": 10_000_000,
    "nltk": 20_000_000_000,
    "rouge": 20_000_000_000,
    "rouge_skip": 25_000_000,
}

#: What the units of each kind count, for messages and documentation.
UNITS: Mapping[str, str] = WORK_UNITS

#: The budgets in force, by kind (a caller may change them; prefer :func:`work_budget`).
WORK_BUDGET: dict[str, int] = dict(DEFAULT_WORK_BUDGET)

_LABELS = {
    "meteor15": "METEOR (meteor15)",
    "paper2005": "METEOR (paper2005)",
    "nltk": "METEOR (nltk)",
    "rouge": "ROUGE",
    "rouge_skip": "ROUGE-S/SU without a skip limit",
}


def check_work(kind: str, units: int, label: str | None = None) -> None:
    """Refuse work of ``units`` above ``WORK_BUDGET[kind]``.

    Args:
        kind: A key of :data:`WORK_BUDGET`.
        units: The work the step would do, in the kind's units (:data:`UNITS`).
        label: The metric's name in the message (default: from ``kind``).

    Raises:
        WorkBudgetError: the work exceeds the budget.
    """
    budget = WORK_BUDGET[kind]
    if units > budget:
        raise WorkBudgetError(label or _LABELS.get(kind, kind), kind, units, budget)


def _number(text: str, where: str) -> int:
    """A positive whole budget from ``300000000``, ``300_000_000``, ``3e8`` or ``300,000,000``."""
    clean = text.strip().replace("_", "").replace(",", "")
    try:
        value = float(clean) if any(c in clean for c in ".eE") else int(clean)
    except ValueError:
        value = math.nan
    if not (isinstance(value, int) or (math.isfinite(value) and value == int(value))):
        raise ConfigError(f"{where}: {text.strip()!r} is not a whole number of work units")
    number = int(value)
    if number < 1:
        raise ConfigError(f"{where}: {text.strip()!r} must be at least 1")
    return number


def parse_work_budget(spec: str, where: str = "--work-budget") -> dict[str, int]:
    """The budgets a setting asks for: ``KIND=N`` items separated by ``;`` or spaces, or one
    ``N`` for every kind (``N`` may be written ``3e8`` or ``300_000_000``).

    Example: ``meteor15=1e9 rouge=5e10``.

    Raises:
        ConfigError: an unknown kind or a number that is not a positive whole number, naming
            ``where`` (the option or the environment variable).
    """
    items = spec.replace(";", " ").split()
    if not items:
        raise ConfigError(f"{where}: empty; give KIND=N (kinds: {', '.join(WORK_BUDGET)}) or N")
    if len(items) == 1 and "=" not in items[0]:
        number = _number(items[0], where)
        return dict.fromkeys(DEFAULT_WORK_BUDGET, number)
    out: dict[str, int] = {}
    for item in items:
        kind, sep, value = item.partition("=")
        if not sep or kind not in DEFAULT_WORK_BUDGET:
            raise ConfigError(
                f"{where}: {item!r} is not KIND=N with KIND one of {', '.join(DEFAULT_WORK_BUDGET)}"
            )
        out[kind] = _number(value, f"{where} {kind}")
    return out


def set_work_budget(budgets: Mapping[str, int]) -> None:
    """Set the budgets of the kinds in ``budgets`` (others keep theirs)."""
    for kind, value in budgets.items():
        if kind not in DEFAULT_WORK_BUDGET:
            raise ConfigError(
                f"work budget: unknown kind {kind!r}; allowed: {', '.join(DEFAULT_WORK_BUDGET)}"
            )
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ConfigError(f"work budget {kind}: {value!r} is not a positive whole number")
    WORK_BUDGET.update(budgets)


@contextlib.contextmanager
def work_budget(spec: str | int | None = None, /, **budgets: int) -> Iterator[dict[str, int]]:
    """Budgets for the duration of a ``with`` block (restored after it, also on error).

    Args:
        spec: A setting in ``--work-budget`` syntax (``"1e9"``, ``"meteor15=1e9"``), or one
            number for every kind.
        **budgets: Budgets by kind (``meteor15=10**9``); they win over ``spec``.

    Example:
        >>> from meteor_eval.limits import work_budget, WORK_BUDGET
        >>> with work_budget(meteor15=10**9):
        ...     WORK_BUDGET["meteor15"]
        1000000000

    The budgets are process-wide (``jobs`` workers started inside the block receive them);
    threads scoring at the same time see them too.
    """
    if spec is None:
        wanted: dict[str, int] = {}
    elif isinstance(spec, str):
        wanted = parse_work_budget(spec, "work_budget")
    else:
        wanted = dict.fromkeys(DEFAULT_WORK_BUDGET, spec)
    wanted.update(budgets)
    saved = dict(WORK_BUDGET)
    set_work_budget(wanted)
    try:
        yield dict(WORK_BUDGET)
    finally:
        WORK_BUDGET.clear()
        WORK_BUDGET.update(saved)


def _from_environment() -> str | None:
    """Apply ``METEOR_EVAL_WORK_BUDGET`` at import. An invalid value leaves the defaults with a
    :class:`~meteor_eval.errors.MeteorEvalWarning` (an import never fails on it) and is kept
    for :func:`environment_error` (the command line refuses to run with it)."""
    spec = os.environ.get(ENV_VARIABLE)
    if not spec:
        return None
    try:
        set_work_budget(parse_work_budget(spec, ENV_VARIABLE))
    except ConfigError as exc:
        warnings.warn(f"{exc}; the default work budgets apply", MeteorEvalWarning, stacklevel=2)
        return str(exc)
    return None


_ENVIRONMENT_ERROR = _from_environment()


def environment_error() -> str | None:
    """Why ``METEOR_EVAL_WORK_BUDGET`` was ignored at import (``None``: it was valid or unset);
    the command line refuses to run with it."""
    return _ENVIRONMENT_ERROR
