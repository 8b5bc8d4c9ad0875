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
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from meteor_eval.cli._common import check_output_paths
from meteor_eval.cli._systems import SystemsInput, load_systems
from meteor_eval.errors import ConfigError, InputError, SegmentTooLongError
from meteor_eval.metrics.protocol import Metric, Row, nrefs_label

__all__ = ["MetricRun", "run_systems"]


@dataclass
class MetricRun:
    """One metric's results for one system.

    Attributes:
        result: The corpus result object.
        rows: Each segment's statistics row (when kept).
        nrefs: Each segment's number of references (when rows are kept).
        segments: Each segment's result object (per-segment output).
    """

    result: Any
    rows: list[Row] | None = None
    nrefs: list[int] | None = None
    segments: list[Any] | None = None


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

    @property
    def keep_rows(self) -> bool:
        return self.intervals or self.test is not None or bool(self.stats) or self.sentence_level


@dataclass
class Runs:
    """Every (system, metric) result of a command, in input order."""

    names: list[str]
    metrics: list[Metric[Any]]
    runs: dict[str, dict[str, MetricRun]] = field(default_factory=dict)


class _Progress:
    """A one-line progress report on stderr, drawn only on a terminal and after a second."""

    def __init__(self, label: str, total: int | None) -> None:
        self.label = label
        self.total = total
        self.start = time.monotonic()
        self.last = 0.0
        self.drawn = False

    def __call__(self, done: int) -> None:
        now = time.monotonic()
        elapsed = now - self.start
        if elapsed < 1.0 or now - self.last < 0.2:
            return
        self.last = now
        rate = done / elapsed if elapsed > 0 else 0.0
        if self.total:
            share = min(done / self.total, 1.0)
            bar = "#" * int(share * 30)
            text = f"[{bar:<30}] {done:,}/{self.total:,} segments {share:6.1%}"
        else:
            text = f"{done:,} segments"
        sys.stderr.write(f"\rmeteor-eval: {self.label}{text}, {rate:,.0f}/s ")
        sys.stderr.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


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
        sentence_level=args.sentence_level,
        alignments=alignments,
        stats=stats,
        jobs=resolve_jobs(getattr(args, "jobs", 1)),
        progress=not getattr(args, "no_progress", False) and sys.stderr.isatty(),
    )


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
    pairs: Iterator[Any],
    plan: Plan,
    *,
    alignment: bool,
    progress: _Progress | None,
) -> MetricRun:
    from meteor_eval.parallel import corpus_result, segment_results, segment_rows

    jobs = plan.jobs
    if alignment:
        segments = list(
            segment_results(metric, pairs, jobs=jobs, alignment=True, progress=progress)
        )
        rows = [seg.stats.to_row() for seg in segments]
        nrefs = [int(seg.signature.get("nrefs") or 1) for seg in segments]
        return MetricRun(metric.score_rows(rows, nrefs), rows, nrefs, segments)
    if not plan.keep_rows:
        result, _ = corpus_result(metric, pairs, jobs=jobs, progress=progress)
        return MetricRun(result)
    records = list(segment_rows(metric, pairs, jobs=jobs, progress=progress))
    rows = [row for row, _ in records]
    nrefs = [n for _, n in records]
    run = MetricRun(metric.score_rows(rows, nrefs), rows, nrefs)
    if plan.sentence_level:
        seg_metric = _segment_metric(metric)
        run.segments = [seg_metric.segment_result(r, n) for r, n in records]
    return run


def score_systems(systems: SystemsInput, metrics: Sequence[Metric[Any]], plan: Plan) -> Runs:
    """Every metric's results for every system, in input order."""
    runs = Runs(list(systems.names), list(metrics))
    for k, name in enumerate(systems.names):
        runs.runs[name] = {}
        for metric in metrics:
            progress = None
            if plan.progress:
                from meteor_eval.io import count_lines

                source = systems.sources[k]
                label = f"{name} {metric.name}: " if len(systems.names) > 1 else ""
                progress = _Progress(label, count_lines(source) if source else None)
            try:
                alignment = bool(plan.alignments) and metric.name == "meteor"
                runs.runs[name][metric.name] = _score_one(
                    metric, systems.pairs(k), plan, alignment=alignment, progress=progress
                )
            except SegmentTooLongError as exc:  # say which input the line is in
                raise InputError(f"{systems.sources[k] or name}, {exc}") from None
            finally:
                if progress is not None:
                    progress.close()
    return runs


def _write_side_files(runs: Runs, plan: Plan) -> None:
    """``--stats`` and ``--alignments`` files, one per system, written after every system was
    scored (a failure leaves none half-written)."""
    import json

    from meteor_eval.statsfile import stats_header, write_row

    for k, name in enumerate(runs.names):
        for metric in runs.metrics:
            run = runs.runs[name][metric.name]
            if plan.stats and run.rows is not None and run.nrefs is not None:
                with open(plan.stats[k], "w", encoding="utf-8") as out:
                    label = nrefs_label(run.nrefs)
                    out.write(
                        stats_header(metric, nrefs=label, segments=len(run.rows), system=name)
                        + "\n"
                    )
                    for row in run.rows:
                        write_row(out, row)
            if plan.alignments and metric.name == "meteor" and run.segments is not None:
                with open(plan.alignments[k], "w", encoding="utf-8") as out:
                    for index, seg in enumerate(run.segments):
                        record: dict[str, object] = {
                            "segment": index + 1,
                            "score": seg.score,
                            "reference": seg.reference_index,
                        }
                        if seg.alignment is not None:
                            record.update(seg.alignment.to_dict())
                        out.write(json.dumps(record, ensure_ascii=False) + "\n")


def _significance(runs: Runs, plan: Plan, args: argparse.Namespace) -> dict[str, Any]:
    """Per system and headline number: interval and p-value (empty without a test)."""
    if not plan.intervals:
        return {}
    from meteor_eval import significance

    baseline = args.baseline or runs.names[0]
    if baseline not in runs.names:
        raise ConfigError(f"--baseline: {baseline!r} is not one of {', '.join(runs.names)}")
    method = plan.test or "bs"
    n_samples = args.n_samples or (10000 if method == "ar" else 1000)
    out: dict[str, dict[str, Any]] = {name: {} for name in runs.names}
    for metric in runs.metrics:
        rows = {name: runs.runs[name][metric.name].rows or [] for name in runs.names}
        intervals = {
            name: significance.confidence_interval(
                metric,
                rows[name],
                n_samples=args.n_samples or 1000,
                seed=args.seed,
                confidence=args.confidence,
            )
            for name in runs.names
        }
        pvalues: dict[str, Any] = {}
        if plan.test is not None:
            others = {name: rows[name] for name in runs.names if name != baseline}
            pvalues = significance.paired_test(
                metric,
                rows[baseline],
                others,
                method=method,
                n_samples=n_samples,
                seed=args.seed,
                confidence=args.confidence,
            )
        for name in runs.names:
            for value, estimate in intervals[name].items():
                entry = {"ci": [estimate.low, estimate.high], "mean": estimate.mean}
                if name in pvalues and value in pvalues[name]:
                    entry["p_value"] = pvalues[name][value].p_value
                out[name][value] = entry
    return {"values": out, "baseline": baseline, "method": method, "n_samples": n_samples}


def build_comparison(runs: Runs, plan: Plan, args: argparse.Namespace) -> dict[str, Any]:
    """The results in the output schema (``docs/schema/results.schema.json``)."""
    tests = _significance(runs, plan, args)
    short = bool(getattr(args, "short_signature", False))
    signatures: dict[str, str] = {}
    systems: list[dict[str, Any]] = []
    for name in runs.names:
        entry: dict[str, Any] = {"name": name}
        for metric in runs.metrics:
            run = runs.runs[name][metric.name]
            signature = _signature_of(metric, run)
            signatures.setdefault(metric.name, signature.format(short=short))
            for value, report in metric.report(run.result).items():
                extra = tests.get("values", {}).get(name, {}).get(value, {})
                entry[value] = {**report, **{k: v for k, v in extra.items() if k != "mean"}}
            if plan.sentence_level and run.segments is not None:
                segments = entry.setdefault("segments", [{} for _ in run.segments])
                for index, seg in enumerate(run.segments):
                    segments[index].update(metric.report(seg))
        systems.append(entry)
    payload: dict[str, Any] = {"signature": signatures, "systems": systems}
    if tests:
        payload["baseline"] = tests["baseline"] if plan.test else None
        payload["test"] = {
            "name": f"paired-{tests['method']}" if plan.test else "bootstrap-ci",
            "n_samples": tests["n_samples"] if plan.test else (args.n_samples or 1000),
            "seed": args.seed,
            "confidence": args.confidence,
        }
    return payload


def _signature_of(metric: Metric[Any], run: MetricRun) -> Any:
    signature = getattr(run.result, "signature", None)
    if signature is None:  # ROUGE: a result per variant; the metric's own signature
        first = next(iter(run.result.values()))
        nrefs = first.signature.get("nrefs") or "1"
        return metric.signature(nrefs)
    return signature


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
