"""What ``score``, ``bleu``, ``rouge`` and ``compare`` share: their options turned into one
:class:`~meteor_eval.comparison.Request`, carried out by :func:`meteor_eval.comparison.run` (the
library's one path, also behind ``meteor_eval.compare``), and the result rendered.

Nothing is scored here: the command line checks its options (naming them), reads the input
options into systems, draws a progress bar on a terminal, and prints.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from meteor_eval.cli._common import check_output_paths, start_method_of
from meteor_eval.comparison import ComparisonResult, Engine, Request, Systems, run
from meteor_eval.errors import ConfigError
from meteor_eval.metrics.protocol import Metric

if TYPE_CHECKING:
    from meteor_eval.comparison import Significance

__all__ = [
    "ProgressBar",
    "add_metric_options",
    "request_from_args",
    "run_command",
]


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


class _Bars:
    """The request's progress callback: one :class:`ProgressBar` per system and metric, the
    previous one closed when the next starts."""

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


def _significance(args: argparse.Namespace, names: Sequence[str]) -> Significance | None:
    """The significance options, checked against the systems."""
    test: Literal["bs", "ar"] | None = "bs" if args.paired_bs else "ar" if args.paired_ar else None
    if test is not None and len(names) < 2:
        raise ConfigError(
            f"--paired-{test} compares systems with a baseline: give at least two --hyp files "
            "(use --ci for one system's confidence interval)"
        )
    if args.n_samples is not None and args.n_samples < 1:
        raise ConfigError(f"--n-samples: {args.n_samples} is invalid; allowed: an integer >= 1")
    if not 0 < args.confidence < 1:
        raise ConfigError(f"--confidence: {args.confidence} is invalid; allowed: 0 < c < 1")
    if (args.n_samples is not None or args.baseline) and test is None and not args.ci:
        raise ConfigError("--n-samples/--baseline need --paired-bs, --paired-ar or --ci")
    if test is None and not args.ci:
        return None
    if args.baseline is not None and args.baseline not in names:
        raise ConfigError(f"--baseline: {args.baseline!r} is not one of {', '.join(names)}")
    from meteor_eval.comparison import Significance  # a dataclass: made when a test is asked

    return Significance(test, args.baseline, args.n_samples, args.seed, args.confidence)


def _side_files(args: argparse.Namespace, n_systems: int) -> tuple[list[str], list[str]]:
    """``--stats`` and ``--alignments``: one writable file per system."""
    stats = list(getattr(args, "stats", None) or [])
    alignments = list(getattr(args, "alignments", None) or [])
    for option, paths in (("--stats", stats), ("--alignments", alignments)):
        if paths and len(paths) != n_systems:
            raise ConfigError(
                f"{option}: {len(paths)} file(s) for {n_systems} systems; give one per system"
            )
        check_output_paths(option, paths)
    return stats, alignments


def _engine(args: argparse.Namespace, alignments: list[str]) -> Engine:
    """``--jobs``, ``--scheduler``, ``--start-method``, checked together."""
    from meteor_eval.parallel import resolve_jobs

    given_jobs: int = getattr(args, "jobs", 1)
    jobs = resolve_jobs(given_jobs)
    scheduler: str | None = getattr(args, "scheduler", None)
    if scheduler is not None:
        if given_jobs != 1:
            raise ConfigError("--jobs and --scheduler are alternatives; give one")
        if alignments:
            raise ConfigError(
                "--alignments is written by local scoring only (not with --scheduler)"
            )
    method = start_method_of(
        getattr(args, "start_method", None), jobs=given_jobs, scheduler=scheduler
    )
    return Engine(jobs, scheduler, method)


def _stored(args: argparse.Namespace, overrides: dict[str, dict[str, Any]]) -> Any:
    """``--from-stats``: the statistics files as systems, refused with text input or side files."""
    from meteor_eval.statsfile import read_systems

    if args.hyp or args.ref or args.example or args.input:
        raise ConfigError("--from-stats takes statistics instead of --hyp/--ref/--example/--input")
    if getattr(args, "stats", None) or getattr(args, "alignments", None):
        raise ConfigError("--stats/--alignments cannot be written from statistics")
    names = [part.strip() for part in args.names.split(",")] if args.names else None
    return read_systems(args.from_stats, overrides, names=names)


def request_from_args(
    args: argparse.Namespace,
    metrics: Sequence[Metric[Any]],
    *,
    overrides: dict[str, dict[str, Any]] | None = None,
    systems: Systems | None = None,
) -> Request:
    """The request the options describe. With ``overrides`` (per metric, explicit options that
    only change the score) the systems are the ``--from-stats`` files, whose headers give the
    metrics; ``systems`` are systems a command read itself (``caption``: COCO files).

    Raises:
        ConfigError: options that do not go together (a usage error, exit status 2).
    """
    if overrides is not None:
        systems = _stored(args, overrides)
    elif systems is None:
        from meteor_eval.cli._systems import InputOptions, load_systems

        given = InputOptions.names_of()
        systems = load_systems(InputOptions(**{k: v for k, v in vars(args).items() if k in given}))
    stats, alignments = _side_files(args, len(systems.names))
    engine = _engine(args, alignments)
    progress = None
    if overrides is None and not getattr(args, "no_progress", False) and sys.stderr.isatty():
        progress = _Bars(len(systems.names) > 1)
    return Request(
        systems,
        list(metrics),
        segment_level=args.sentence_level or getattr(args, "format", "") == "jsonl",
        significance=_significance(args, systems.names),
        stats_files=stats,
        alignment_files=alignments,
        engine=engine,
        progress=progress,
    )


def _print(result: ComparisonResult, format: str, *, short_signature: bool) -> None:
    """Print the result as ``format`` (``--format``), with the short signature if asked (a
    closed pipe ends the output quietly)."""
    from meteor_eval.cli._render import render

    payload = result.to_dict(short_signature=short_signature)
    with contextlib.suppress(BrokenPipeError):
        sys.stdout.write(render(payload, format))


def run_command(args: argparse.Namespace, metrics: Sequence[str], names: Sequence[str]) -> int:
    """A scoring command: the request of its options (the configured ``metrics``, names of
    :data:`~meteor_eval.cli.options.METRICS`; ``names`` are the metrics whose options
    ``--from-stats`` may override), run, rendered; the exit status.

    The options go out of this module once (to :mod:`meteor_eval.cli.options`, for the
    metrics or the overrides); everything else reads them here, as plain values.
    """
    from meteor_eval.cli.options import explicit_overrides, metrics_of

    format: str = args.format
    short_signature = bool(getattr(args, "short_signature", False))
    if args.from_stats:
        overrides = explicit_overrides(args, args.explicit, tuple(names))
        request = request_from_args(args, (), overrides=overrides)
    else:
        request = request_from_args(args, metrics_of(args, metrics))
    try:
        result = run(request)
    finally:
        if isinstance(request.progress, _Bars):
            request.progress.close()
    _print(result, format, short_signature=short_signature)
    return 0


def add_metric_options(
    parser: argparse.ArgumentParser,
    *options: Callable[[argparse.ArgumentParser], None],
    write_stats: bool = True,
) -> None:
    """A scoring command's options: the input options, ``options`` (the metric's own), then
    the output, significance, statistics and run options every scoring command shares."""
    from meteor_eval.cli._common import add_output_options, add_run_options, add_stats_options
    from meteor_eval.cli._systems import add_input_options
    from meteor_eval.cli.options import add_significance_options

    add_input_options(parser)
    for add in options:
        add(parser)
    add_output_options(parser)
    add_significance_options(parser)
    add_stats_options(parser, write=write_stats)
    add_run_options(parser)
