"""A scoring command's options read into one :class:`~meteor_eval.comparison.Request`.

The options are read here once, in three steps: every option as a plain value, checked where it
needs nothing else (options that do not go together); then the library is asked for what the
values name (the metrics configured by :mod:`meteor_eval.cli.options`, the systems read by
:mod:`meteor_eval.cli._systems` or, with ``--from-stats``,
:func:`meteor_eval.statsfile.read_systems`); then the options that depend on the systems are
checked against them (one side file per system, the baseline of a test), the output paths,
processes and start method checked, and the request made. Errors name the options (usage
errors, exit status 2).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from meteor_eval.comparison import Engine, Request
from meteor_eval.errors import ConfigError
from meteor_eval.metrics.protocol import Metric
from meteor_eval.systems import Systems

if TYPE_CHECKING:
    from meteor_eval.comparison import Significance
    from meteor_eval.statsfile import StoredSystems

__all__ = ["request_from_args"]

#: A significance test's options: ``"bs"``, ``"ar"`` or none.
_Test = Literal["bs", "ar"] | None


def _side_files(args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """``--stats`` and ``--alignments`` (one file per system, checked once the systems are
    known)."""
    stats = list(getattr(args, "stats", None) or [])
    alignments = list(getattr(args, "alignments", None) or [])
    return stats, alignments


def _check_engine(args: argparse.Namespace, alignments: list[str]) -> None:
    """``--jobs`` and ``--scheduler`` are alternatives; ``--alignments`` is local."""
    if getattr(args, "scheduler", None) is not None:
        if getattr(args, "jobs", 1) != 1:
            raise ConfigError("--jobs and --scheduler are alternatives; give one")
        if alignments:
            raise ConfigError(
                "--alignments is written by local scoring only (not with --scheduler)"
            )


def _check_stored(args: argparse.Namespace) -> None:
    """``--from-stats``: refused with text input or side files."""
    if args.hyp or args.ref or args.example or args.input:
        raise ConfigError("--from-stats takes statistics instead of --hyp/--ref/--example/--input")
    if getattr(args, "stats", None) or getattr(args, "alignments", None):
        raise ConfigError("--stats/--alignments cannot be written from statistics")


def _test(args: argparse.Namespace) -> _Test:
    """The significance options that need no system checked; the paired test asked for."""
    test: _Test = "bs" if args.paired_bs else "ar" if args.paired_ar else None
    if args.n_samples is not None and args.n_samples < 1:
        raise ConfigError(f"--n-samples: {args.n_samples} is invalid; allowed: an integer >= 1")
    if not 0 < args.confidence < 1:
        raise ConfigError(f"--confidence: {args.confidence} is invalid; allowed: 0 < c < 1")
    if (args.n_samples is not None or args.baseline) and test is None and not args.ci:
        raise ConfigError("--n-samples/--baseline need --paired-bs, --paired-ar or --ci")
    return test


def _significance(
    test: _Test, args: argparse.Namespace, names: Sequence[str]
) -> Significance | None:
    """The significance settings, checked against the systems (``names``)."""
    if test is not None and len(names) < 2:
        raise ConfigError(
            f"--paired-{test} compares systems with a baseline: give at least two --hyp files "
            "(use --ci for one system's confidence interval)"
        )
    if test is None and not args.ci:
        return None
    if args.baseline is not None and args.baseline not in names:
        raise ConfigError(f"--baseline: {args.baseline!r} is not one of {', '.join(names)}")
    from meteor_eval.comparison import Significance  # a dataclass: made when a test is asked

    return Significance(test, args.baseline, args.n_samples, args.seed, args.confidence)


def _per_system(stats: list[str], alignments: list[str], n_systems: int) -> None:
    """``--stats`` and ``--alignments``: one file per system."""
    for option, paths in (("--stats", stats), ("--alignments", alignments)):
        if paths and len(paths) != n_systems:
            raise ConfigError(
                f"{option}: {len(paths)} file(s) for {n_systems} systems; give one per system"
            )


def request_from_args(
    args: argparse.Namespace,
    metrics: Sequence[str],
    *,
    names: Sequence[str] = (),
    configured: Sequence[Metric[Any]] = (),
    systems: Systems | None = None,
) -> Request:
    """The request the options describe: the metrics ``metrics`` (names of
    :data:`~meteor_eval.cli.options.METRICS`) configured by the options, then ``configured``
    (metrics a command configured itself), of the systems the input options name or
    ``systems`` (systems a command read itself: ``caption``'s COCO files). With
    ``--from-stats`` the systems are the statistics files, whose headers give the metrics;
    the options of the metrics ``names`` given on the command line override the fields that
    only change the score.

    Raises:
        ConfigError: options that do not go together (a usage error, exit status 2).
    """
    from meteor_eval.cli._common import check_output_paths, start_method_of
    from meteor_eval.cli._feedback import ProgressBars
    from meteor_eval.cli._systems import InputOptions, load_systems
    from meteor_eval.cli.options import explicit_overrides, metrics_of
    from meteor_eval.parallel import resolve_jobs

    # 1. every option, as plain values
    from_stats: Sequence[str] | None = getattr(args, "from_stats", None)
    stats, alignments = _side_files(args)
    _check_engine(args, alignments)
    if from_stats:
        _check_stored(args)
    test = _test(args)
    given_jobs: int = getattr(args, "jobs", 1)
    scheduler: str | None = getattr(args, "scheduler", None)
    method: str | None = getattr(args, "start_method", None)
    segment_level = args.sentence_level or getattr(args, "format", "") == "jsonl"
    show_progress = not from_stats and not getattr(args, "no_progress", False)
    # 2. what they name: the metrics and the systems
    chosen: list[Metric[Any]] = []
    read: Systems | StoredSystems
    if from_stats:
        from meteor_eval.statsfile import read_systems

        overrides = explicit_overrides(args, args.explicit, tuple(names))
        given = [part.strip() for part in args.names.split(",")] if args.names else None
        read = read_systems(from_stats, overrides, names=given)
    else:
        chosen = [*metrics_of(args, metrics), *configured]
        if systems is None:
            fields = InputOptions.names_of()
            values = {k: v for k, v in vars(args).items() if k in fields}
            systems = load_systems(InputOptions(**values))
        read = systems
    # 3. what depends on the systems; then the output paths, processes and start method
    _per_system(stats, alignments, len(read.names))
    significance = _significance(test, args, read.names)
    for option, paths in (("--stats", stats), ("--alignments", alignments)):
        check_output_paths(option, paths)
    jobs = resolve_jobs(given_jobs)
    start_method = start_method_of(method, jobs=given_jobs, scheduler=scheduler)
    progress = None
    if show_progress and sys.stderr.isatty():
        progress = ProgressBars(len(read.names) > 1)
    return Request(
        read,
        chosen,
        segment_level=segment_level,
        significance=significance,
        stats_files=stats,
        alignment_files=alignments,
        engine=Engine(jobs, scheduler, start_method),
        progress=progress,
    )
