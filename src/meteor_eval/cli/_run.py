"""What ``score``, ``bleu``, ``rouge`` and ``compare`` share: score every system with every
chosen metric through the metric protocol, optionally test significance, and print one schema.

Per metric, the metric object is built once and scores every system (resources load once);
each system's result is what the metric gives that system alone, bit for bit. Statistics rows
are kept only when something needs them (significance, ``--stats``, per-segment output); the
corpus score alone streams the input in chunks with flat memory.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from meteor_eval.cli._common import check_output_paths, start_method_of
from meteor_eval.cli._systems import SystemsInput, load_systems
from meteor_eval.comparison import ComparisonResult as Runs
from meteor_eval.comparison import SystemRun as MetricRun
from meteor_eval.errors import ConfigError, InputError, WorkBudgetError
from meteor_eval.metrics.protocol import Metric, nrefs_label

__all__ = ["ProgressBar", "run_systems"]


@dataclass
class Plan:
    """What the options ask for beyond the corpus scores."""

    test: str | None
    intervals: bool
    sentence_level: bool
    alignments: list[str]
    stats: list[str]
    jobs: int
    progress: bool
    scheduler: str | None = None
    start_method: str | None = None

    @property
    def keep_rows(self) -> bool:
        return self.intervals or self.test is not None or bool(self.stats) or self.sentence_level


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


def plan_from_args(args: argparse.Namespace, n_systems: int) -> Plan:
    """What to compute, checked against the number of systems."""
    test = "bs" if args.paired_bs else "ar" if args.paired_ar else None
    if test is not None and n_systems < 2:
        raise ConfigError(
            f"--paired-{test} compares systems with a baseline: give at least two --hyp files "
            "(use --ci for one system's confidence interval)"
        )
    stats = list(getattr(args, "stats", None) or [])
    alignments = list(getattr(args, "alignments", None) or [])
    for option, paths in (("--stats", stats), ("--alignments", alignments)):
        if paths and len(paths) != n_systems:
            raise ConfigError(
                f"{option}: {len(paths)} file(s) for {n_systems} systems; give one per system"
            )
        check_output_paths(option, paths)
    if args.n_samples is not None and args.n_samples < 1:
        raise ConfigError(f"--n-samples: {args.n_samples} is invalid; allowed: an integer >= 1")
    if not 0 < args.confidence < 1:
        raise ConfigError(f"--confidence: {args.confidence} is invalid; allowed: 0 < c < 1")
    if (args.n_samples is not None or args.baseline) and test is None and not args.ci:
        raise ConfigError("--n-samples/--baseline need --paired-bs, --paired-ar or --ci")
    from meteor_eval.parallel import resolve_jobs

    return Plan(
        test=test,
        intervals=args.ci or test is not None,
        sentence_level=args.sentence_level or getattr(args, "format", "") == "jsonl",
        alignments=alignments,
        stats=stats,
        jobs=resolve_jobs(getattr(args, "jobs", 1)),
        progress=not getattr(args, "no_progress", False) and sys.stderr.isatty(),
        scheduler=_scheduler(args, alignments),
        start_method=start_method_of(args),
    )


def _scheduler(args: argparse.Namespace, alignments: list[str]) -> str | None:
    """``--scheduler``, checked against the options it cannot go with."""
    scheduler: str | None = getattr(args, "scheduler", None)
    if scheduler is None:
        return None
    if getattr(args, "jobs", 1) != 1:
        raise ConfigError("--jobs and --scheduler are alternatives; give one")
    if alignments:
        raise ConfigError("--alignments is written by local scoring only (not with --scheduler)")
    return scheduler


def _segment_metric(metric: Metric[Any]) -> Metric[Any]:
    """The metric that scores single segments (BLEU: with effective order, as sacrebleu's
    ``--sentence-level`` does)."""
    if metric.name == "bleu" and not metric.config.effective_order:
        from meteor_eval.metrics.bleu import Bleu

        assert isinstance(metric, Bleu)
        return metric.with_options(effective_order=True)
    return metric


def _score_one(
    metric: Metric[Any],
    pairs: Iterable[Any],
    plan: Plan,
    *,
    alignment: bool,
    progress: ProgressBar | None,
) -> MetricRun:
    from meteor_eval.parallel import corpus_result, segment_results, segment_rows

    run: dict[str, Any] = {
        "jobs": plan.jobs,
        "progress": progress,
        "start_method": plan.start_method,
    }
    if alignment:
        segments = list(segment_results(metric, pairs, alignment=True, **run))
        rows = [seg.stats.to_row() for seg in segments]
        nrefs = [int(seg.signature.get("nrefs") or 1) for seg in segments]
        return MetricRun(metric.score_rows(rows, nrefs), rows, nrefs, segments)
    if not plan.keep_rows:
        result, _ = corpus_result(metric, pairs, **run)
        return MetricRun(result)
    records = list(segment_rows(metric, pairs, **run))
    return _run_of_records(metric, records, plan)


def _run_of_records(
    metric: Metric[Any], records: Sequence[tuple[Any, int]], plan: Plan
) -> MetricRun:
    """A system's run from each segment's ``(row, number of references)``, in input order."""
    rows = [row for row, _ in records]
    nrefs = [n for _, n in records]
    run = MetricRun(metric.score_rows(rows, nrefs), rows, nrefs)
    if plan.sentence_level:
        seg_metric = _segment_metric(metric)
        run.segments = [seg_metric.segment_result(r, n) for r, n in records]
    return run


def _score_distributed(systems: SystemsInput, metrics: Sequence[Metric[Any]], plan: Plan) -> Runs:
    """``--scheduler``: every system and metric on a Dask cluster (files read by the workers
    where they see them), with the results of local scoring."""
    from meteor_eval import distributed

    assert plan.scheduler is not None
    runs = Runs(list(systems.names), list(metrics))
    client, close = distributed.connect(plan.scheduler)
    try:
        for k, name in enumerate(systems.names):
            runs.runs[name] = {}
            source = systems.sources[k]
            files = [source, *systems.ref_sources] if source and systems.ref_sources else None
            for metric in metrics:
                where: dict[str, Any] = {"files": files} if files else {"pairs": systems.pairs(k)}
                errors = systems.errors
                if not plan.keep_rows:
                    result = distributed.corpus_result(metric, client, errors=errors, **where)
                    runs.runs[name][metric.name] = MetricRun(result)
                    continue
                records = distributed.segment_rows(metric, client, errors=errors, **where)
                runs.runs[name][metric.name] = _run_of_records(metric, records, plan)
    finally:
        close()
    return runs


def score_systems(systems: SystemsInput, metrics: Sequence[Metric[Any]], plan: Plan) -> Runs:
    """Every metric's results for every system, in input order."""
    if plan.scheduler is not None:
        return _score_distributed(systems, metrics, plan)
    runs = Runs(list(systems.names), list(metrics))
    for k, name in enumerate(systems.names):
        runs.runs[name] = {}
        for metric in metrics:
            progress = None
            if plan.progress:
                from meteor_eval.io import count_lines

                source = systems.sources[k]
                label = f"{name} {metric.name}: " if len(systems.names) > 1 else ""
                progress = ProgressBar(label, count_lines(source) if source else None)
            try:
                alignment = bool(plan.alignments) and metric.name == "meteor"
                runs.runs[name][metric.name] = _score_one(
                    metric, systems.pairs(k), plan, alignment=alignment, progress=progress
                )
            except WorkBudgetError as exc:  # say which input the line is in
                raise InputError(systems.locate(k, exc)) from None
            finally:
                if progress is not None:
                    progress.close()
    return runs


@contextlib.contextmanager
def _output_file(path: str) -> Iterator[TextIO]:
    """``path`` opened for writing; a write error names the file and removes what was written.

    Errors while writing (a full disk, an I/O error) carry no file name of their own; the command
    line's handler prints the name this adds, and no half-written file is left behind.
    """
    try:
        with open(path, "w", encoding="utf-8") as out:
            yield out
    except OSError as exc:
        if not exc.filename:
            if os.path.isfile(path):  # never a device such as /dev/full, nor a pipe
                with contextlib.suppress(OSError):
                    os.unlink(path)
            raise OSError(exc.errno, exc.strerror or str(exc), path) from None
        raise


def _write_side_files(runs: Runs, plan: Plan) -> None:
    """``--stats`` and ``--alignments`` files, one per system, written after every system was
    scored (a failure leaves none half-written)."""
    import json

    from meteor_eval.statsfile import stats_header, write_row

    for k, name in enumerate(runs.names):
        for metric in runs.metrics:
            run = runs.runs[name][metric.name]
            if plan.stats and run.rows is not None and run.nrefs is not None:
                with _output_file(plan.stats[k]) as out:
                    label = nrefs_label(run.nrefs)
                    out.write(
                        stats_header(metric, nrefs=label, segments=len(run.rows), system=name)
                        + "\n"
                    )
                    for row in run.rows:
                        write_row(out, row)
            if plan.alignments and metric.name == "meteor" and run.segments is not None:
                with _output_file(plan.alignments[k]) as out:
                    for index, seg in enumerate(run.segments):
                        record: dict[str, object] = {
                            "segment": index + 1,
                            "score": seg.score,
                            "reference": seg.reference_index,
                        }
                        if seg.alignment is not None:
                            record.update(seg.alignment.to_dict())
                        out.write(json.dumps(record, ensure_ascii=False) + "\n")


def build_comparison(runs: Runs, plan: Plan, args: argparse.Namespace) -> dict[str, Any]:
    """The results in the output schema, with the tests the options ask for."""
    if plan.intervals:
        if args.baseline is not None and args.baseline not in runs.names:
            known = ", ".join(runs.names)
            raise ConfigError(f"--baseline: {args.baseline!r} is not one of {known}")
        runs.test(
            baseline=args.baseline,
            method=plan.test,
            n_samples=args.n_samples,
            seed=args.seed,
            confidence=args.confidence,
        )
    if not plan.sentence_level:
        for systems in runs.runs.values():
            for run in systems.values():
                run.segments = None
    return runs.to_dict(short_signature=bool(getattr(args, "short_signature", False)))


def run_systems(
    args: argparse.Namespace, metrics: Sequence[Metric[Any]], systems: SystemsInput | None = None
) -> int:
    """Score, test and print; the exit status."""
    if systems is None:
        systems = load_systems(args)
    plan = plan_from_args(args, len(systems.names))
    runs = score_systems(systems, metrics, plan)
    _write_side_files(runs, plan)
    comparison = build_comparison(runs, plan, args)
    from meteor_eval.cli._render import render

    with contextlib.suppress(BrokenPipeError):
        sys.stdout.write(render(comparison, args.format))
    return 0


def runs_from_stats(
    args: argparse.Namespace, overrides: dict[str, dict[str, Any]], plan: Plan
) -> Runs:
    """Runs rebuilt from ``--from-stats`` files, with each metric's configuration taken from
    the files' headers (``overrides``: per metric, explicit options that only change the score).

    Files of several metrics are grouped by metric; within a metric each file is a system, and
    every metric must have the same systems in the same order.
    """
    from meteor_eval.statsfile import check_same_metric, metric_from_header, read_stats

    files = [read_stats(path) for path in args.from_stats]
    groups: dict[str, list[Any]] = {}
    for stats in files:
        groups.setdefault(stats.metric, []).append(stats)
    unknown = sorted(set(overrides) - set(groups))
    for name in unknown:
        if overrides[name]:
            raise ConfigError(
                f"{name} options were given but no statistics file of {name} was "
                f"({', '.join(sorted(groups))} only)"
            )
    first_names: list[str] | None = None
    runs: Runs | None = None
    for metric_name, group in groups.items():
        check_same_metric(group)
        metric = metric_from_header(group[0], overrides.get(metric_name))
        names = _stats_names(args, [stats.system for stats in group])
        if first_names is None:
            first_names = names
            runs = Runs(names, [])
            runs.runs = {name: {} for name in names}
        elif names != first_names:
            raise InputError(
                f"the {metric_name} statistics are of systems {', '.join(names)}, the others of "
                f"{', '.join(first_names)}"
            )
        assert runs is not None
        runs.metrics.append(metric)
        for name, stats in zip(names, group, strict=True):
            total = metric.total_of(stats.rows, ())
            result = metric.score_total(total.row, nrefs=stats.nrefs, rows=total.rows)
            n = int(stats.nrefs) if stats.nrefs.isdigit() else 0
            run = MetricRun(result, stats.rows, [n] * len(stats.rows))
            if plan.sentence_level:
                seg_metric = _segment_metric(metric)
                run.segments = [seg_metric.segment_result(row, n) for row in stats.rows]
            runs.runs[name][metric.name] = run
    assert runs is not None
    return runs


def _stats_names(args: argparse.Namespace, names: list[str]) -> list[str]:
    if args.names:
        given = [part.strip() for part in args.names.split(",")]
        if len(given) != len(names):
            raise ConfigError(
                f"--names gives {len(given)} names for {len(names)} statistics files per metric"
            )
        names = given
    if len(set(names)) != len(names):
        raise InputError(
            f"two statistics files have the same system name ({', '.join(names)}); use --names"
        )
    return names


def run_from_stats(args: argparse.Namespace, overrides: dict[str, dict[str, Any]]) -> int:
    """``--from-stats``: re-score stored statistics (and test significance) without the text."""
    if args.hyp or args.ref or args.example or args.input:
        raise ConfigError("--from-stats takes statistics instead of --hyp/--ref/--example/--input")
    n_files = len(args.from_stats)
    plan = plan_from_args(args, n_files if args.paired_bs or args.paired_ar else 1)
    if plan.stats or plan.alignments:
        raise ConfigError("--stats/--alignments cannot be written from statistics")
    runs = runs_from_stats(args, overrides, plan)
    plan = plan_from_args(args, len(runs.names))
    comparison = build_comparison(runs, plan, args)
    from meteor_eval.cli._render import render

    with contextlib.suppress(BrokenPipeError):
        sys.stdout.write(render(comparison, args.format))
    return 0
