"""``meteor-eval report``: an X-Ray style HTML report of METEOR for one or more systems.

Scores every segment of every system with its alignment, tests the corpus scores (bootstrap
intervals; paired bootstrap p-values against the first system when there are two or more) and
writes one self-contained HTML file (:mod:`meteor_eval.report`). ``--plots DIR`` also writes the
figures as PNG, SVG and PDF. Needs the ``report`` extra (jinja2, matplotlib).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from meteor_eval.cli._common import add_run_options, start_method_of
from meteor_eval.cli._systems import add_input_options
from meteor_eval.cli.caption import add_coco_options
from meteor_eval.cli.options import add_meteor_options, add_significance_options, meteor_config
from meteor_eval.errors import ConfigError

if TYPE_CHECKING:
    from meteor_eval.cli._systems import SystemsInput
    from meteor_eval.metrics.meteor import Meteor

__all__ = ["DESCRIPTION", "add_options", "run"]

#: The command's own ``--help`` description.
DESCRIPTION = (
    "An X-Ray style HTML report of METEOR for one or more systems (one file, "
    "no network needed to view it): corpus scores with bootstrap intervals and paired "
    "p-values, distributions, a sortable segment table and every segment's alignment. "
    "With two or more systems the paired bootstrap is the default test (--paired-ar for "
    "approximate randomisation, --ci for intervals only)."
)


def add_options(parser: argparse.ArgumentParser) -> None:
    """The ``report`` options."""
    add_input_options(parser)
    add_coco_options(
        parser.add_argument_group("captions (instead of --hyp/--ref or --input)"),
        annotations="COCO captions file: every image's captions are its references",
        results="COCO results file(s), one per system; captions are tokenized as pycocoevalcap "
        "does (add --norm for its METEOR settings)",
    )
    add_meteor_options(parser)
    add_significance_options(parser)
    group = parser.add_argument_group("report")
    group.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        default="report.html",
        help="the HTML file to write (default report.html; replaced if it exists)",
    )
    group.add_argument(
        "--plots",
        metavar="DIR",
        help="also write every figure as PNG, SVG and PDF into DIR",
    )
    group.add_argument("--title", default="METEOR report", help="the page title")
    add_run_options(parser)


def check_output(path: str) -> Path:
    """The output file, checked before anything is scored.

    Raises:
        ConfigError: the path is a folder, or its folder does not exist.
    """
    target = Path(path)
    if target.is_dir():
        raise ConfigError(f"--output: {path} is a folder; give a file name, e.g. report.html")
    parent = target.parent if str(target.parent) else Path(".")
    from meteor_eval.cli._common import folder_problem

    problem = folder_problem(str(parent))
    if problem is not None:
        raise ConfigError(f"--output: cannot write {path}: {problem}")
    return target


def _method(args: argparse.Namespace, n_systems: int) -> str | None:
    """The paired test: ``bs`` by default with two or more systems, ``ar`` if asked, none with
    ``--ci`` or one system."""
    if args.ci or n_systems < 2:
        return None
    return "ar" if args.paired_ar else "bs"


def _check_options(args: argparse.Namespace) -> None:
    """Options the report refuses, checked before anything is scored."""
    if args.n_samples is not None and args.n_samples < 1:
        raise ConfigError(f"--n-samples: {args.n_samples} is invalid; allowed: an integer >= 1")
    if not 0 < args.confidence < 1:
        raise ConfigError(f"--confidence: {args.confidence} is invalid; allowed: 0 < c < 1")
    if args.scheduler is not None:
        raise ConfigError("the report needs alignments, which are scored locally: no --scheduler")
    if args.plots is not None and Path(args.plots).exists() and not Path(args.plots).is_dir():
        raise ConfigError(f"--plots: {args.plots} exists and is not a folder")


def _segments(
    metric: Meteor,
    systems: SystemsInput,
    jobs: int,
    show_progress: bool,
    start_method: str | None = None,
) -> dict[str, list[Any]]:
    """Every system's segment scores with alignments, in input order."""
    from meteor_eval.cli._feedback import ProgressBar
    from meteor_eval.io import count_lines
    from meteor_eval.parallel import segment_results

    out: dict[str, list[Any]] = {}
    for k, name in enumerate(systems.names):
        progress = None
        if show_progress:
            source = systems.sources[k]
            label = f"{name}: " if len(systems.names) > 1 else ""
            progress = ProgressBar(label, count_lines(source) if source else None)
        try:
            out[name] = list(
                segment_results(
                    metric,
                    systems.pairs(k),
                    jobs=jobs,
                    alignment=True,
                    progress=progress,
                    start_method=start_method,
                )
            )
        finally:
            if progress is not None:
                progress.close()
    return out


def _order(baseline: str | None, names: list[str]) -> list[str]:
    """The systems in the report's order: the baseline (the others' reference) first."""
    if baseline is None:
        return list(names)
    if baseline not in names:
        raise ConfigError(f"--baseline: {baseline!r} is not one of {', '.join(names)}")
    return [baseline, *(n for n in names if n != baseline)]


def _short_names(names: list[str]) -> list[str]:
    """File names without their folders, when that keeps them apart (the page shows the full
    paths beside them)."""
    short = [Path(name).name or name for name in names]
    return short if len(set(short)) == len(short) else names


def _write(path: Path, text: str) -> None:
    """Write through a temporary file in the same folder, so a failure leaves no half page."""
    handle, temporary = tempfile.mkstemp(
        prefix=f".{path.name}.", suffix=".tmp", dir=path.parent if str(path.parent) else "."
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # as open() would make it, not mkstemp's 0600
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def run(args: argparse.Namespace) -> int:
    """Score, test, render and write the report; returns the exit status."""
    from meteor_eval.cli._systems import InputOptions, load_systems
    from meteor_eval.metrics.meteor import Meteor
    from meteor_eval.parallel import resolve_jobs
    from meteor_eval.report import build_report, require_report_extra

    require_report_extra()
    output = check_output(args.output)
    _check_options(args)
    if args.annotations or args.results:
        from meteor_eval.cli.caption import coco_systems

        systems = coco_systems(args)
    else:
        given = InputOptions.names_of()
        systems = load_systems(InputOptions(**{k: v for k, v in vars(args).items() if k in given}))
    if args.names is None:
        systems.names = _short_names(systems.names)
    order = _order(args.baseline, systems.names)
    if len(order) < 2 and (args.paired_bs or args.paired_ar):
        test = "--paired-bs" if args.paired_bs else "--paired-ar"
        raise ConfigError(
            f"{test} compares systems with a baseline: give at least two --hyp files (one "
            "system's report has its bootstrap interval)"
        )
    jobs = resolve_jobs(args.jobs)
    metric = Meteor(meteor_config(args))
    progress = not args.no_progress and sys.stderr.isatty()
    method = start_method_of(args.start_method, jobs=args.jobs, scheduler=args.scheduler)
    scored = _segments(metric, systems, jobs, progress, method)
    report = build_report(
        metric,
        {name: scored[name] for name in order},
        method=_method(args, len(order)),
        n_samples=args.n_samples,
        seed=args.seed,
        confidence=args.confidence,
        title=args.title,
        sources=[str(systems.sources[systems.names.index(n)] or n) for n in order],
        references=list(systems.ref_sources),
    )
    _write(output, report.html())
    written = report.save_figures(args.plots) if args.plots else []
    print(f"meteor-eval report: wrote {output}", file=sys.stderr)
    for path in written:
        print(f"meteor-eval report: wrote {path}", file=sys.stderr)
    return 0
