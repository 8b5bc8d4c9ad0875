"""``meteor-eval train``: tune METEOR's parameters against human judgements.

Aligns every judged translation once (every module of ``--modules``), then searches alpha,
beta, gamma, delta and the module weights for the best agreement with the human numbers
(``--objective``), by the METEOR 1.5 Trainer's exhaustive grid or by coordinate descent with
random restarts, optionally cross-validated by language pair. Writes a parameter file that
``meteor-eval score --params FILE`` reads (``docs/tuning.md``).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

from meteor_eval.errors import ConfigError

__all__ = ["DESCRIPTION", "add_options", "run"]

#: The command's own ``--help`` description (a constant, not ``__doc__``, which ``python -OO``
#: strips).
DESCRIPTION = "tune METEOR's parameters against human judgements."

#: Largest grid ``--optimizer grid`` accepts (about an hour at 0.15 s a point on 2 processes).
MAX_GRID = 50_000


def add_options(parser: argparse.ArgumentParser) -> None:
    """The ``train`` options."""
    data = parser.add_argument_group("judgements")
    data.add_argument("--input", metavar="FILE", help="a table (.jsonl, .csv, .tsv, .parquet)")
    for role, default in (
        ("hyp", "hyp"),
        ("ref", "ref"),
        ("human", "human"),
        ("system", "system"),
        ("lp", "lp"),
        ("segment", "seg_id"),
    ):
        data.add_argument(
            f"--{role}-field",
            metavar="NAME",
            default=None,
            help=f"--input: the field of the {role} (default {default!r})",
        )
    data.add_argument(
        "--hyp",
        metavar="FILE",
        nargs="+",
        action="extend",
        default=[],
        help="hypotheses, per system",
    )
    data.add_argument("--ref", metavar="FILE", action="append", default=[], help="references")
    data.add_argument(
        "--human",
        metavar="FILE",
        nargs="+",
        action="extend",
        default=[],
        help="human numbers, one file per --hyp, in the same order",
    )
    data.add_argument("--lp", metavar="NAME", help="--hyp files: their language pair's name")
    data.add_argument(
        "--human-kind",
        choices=("da", "rank"),
        default="da",
        help="da: higher is better (DA z-scores); rank: 1 is best (relative rankings)",
    )
    meteor = parser.add_argument_group("METEOR")
    meteor.add_argument("--lang", default="en", help="language code (default en)")
    meteor.add_argument(
        "--task",
        default=None,
        help="the task whose parameters start the search (default: as score)",
    )
    meteor.add_argument("--modules", help="comma-separated stages (default: the language's)")
    meteor.add_argument("--norm", action="store_true", help="the jar's -norm")
    meteor.add_argument(
        "--paraphrase-table", metavar="PATH", help="paraphrase table (the jar's -a)"
    )
    search = parser.add_argument_group("search")
    search.add_argument(
        "--objective",
        default="kendall",
        help="kendall, tau-like (segment level), pearson, spearman (system level), or a mix "
        "such as kendall:0.7,pearson:0.3 (default kendall)",
    )
    search.add_argument(
        "--margin",
        type=float,
        default=0.0,
        help="tau-like: smallest human difference that makes a pair (default 0)",
    )
    search.add_argument("--optimizer", choices=("coordinate", "grid"), default="coordinate")
    search.add_argument("--restarts", type=int, default=4, help="random restarts (default 4)")
    search.add_argument("--seed", type=int, default=0, help="seed of the restarts (default 0)")
    for flag, what in (("initial", "lower"), ("final", "upper"), ("step", "step")):
        search.add_argument(
            f"--{flag}",
            metavar="'P1 P2 P3 P4 W1 ...'",
            help=f"the jar's -{flag[0]}: {what} of alpha beta gamma delta and each weight",
        )
    search.add_argument(
        "--cv", choices=("none", "lp"), default="none", help="lp: leave one language pair out"
    )
    out = parser.add_argument_group("output")
    out.add_argument("--out", metavar="FILE", required=True, help="the parameter file to write")
    out.add_argument("--name", help="the parameters' name (default: --out's file name)")
    out.add_argument("--jobs", "-j", type=int, default=1, metavar="N", help="processes (0: all)")
    out.add_argument("--no-progress", action="store_true", help="no progress bar")


# -- checking the options, before any work ----------------------------------------------------


def _numbers(option: str, text: str | None) -> list[float] | None:
    if text is None:
        return None
    try:
        values = [float(x) for x in text.replace(",", " ").split()]
    except ValueError:
        raise ConfigError(f"--{option}: {text!r} is not a list of numbers") from None
    if not all(math.isfinite(v) for v in values):
        raise ConfigError(f"--{option}: {text!r} has a number that is not finite")
    return values


def _space(args: argparse.Namespace, n_modules: int) -> Any:
    from meteor_eval.tuning.search import Space

    default = Space.jar_default(n_modules).dimensions
    lists = {}
    for option, attr in (("initial", "lower"), ("final", "upper"), ("step", "step")):
        given = _numbers(option, getattr(args, option))
        fallback = [getattr(d, attr) for d in default]
        if given is not None and len(given) != 4 + n_modules:
            raise ConfigError(
                f"--{option}: {len(given)} numbers; give {4 + n_modules} "
                f"(alpha beta gamma delta and one weight per module)"
            )
        lists[option] = given if given is not None else fallback
    try:
        space = Space.from_lists(lists["initial"], lists["final"], lists["step"])
    except ValueError as exc:
        raise ConfigError(f"--initial/--final/--step: {exc}") from None
    if args.optimizer == "grid" and space.size > MAX_GRID:
        raise ConfigError(
            f"--optimizer grid: the grid has {space.size:,} points (at most {MAX_GRID:,}); "
            "use larger --step or narrower --initial/--final, or --optimizer coordinate"
        )
    return space


def _check_inputs(args: argparse.Namespace) -> None:
    fields = [f"--{r}-field" for r in ("hyp", "ref", "human", "system", "lp", "segment")]
    given = [f for f in fields if getattr(args, f[2:].replace("-", "_")) is not None]
    if args.input is not None:
        files = [o for o in ("--hyp", "--ref", "--human") if getattr(args, o[2:])]
        files += ["--lp"] if args.lp is not None else []
        if files:
            raise ConfigError(f"--input: cannot be combined with {', '.join(files)}")
        return
    if given:
        raise ConfigError(f"{given[0]}: only with --input")
    if not args.hyp or not args.ref or not args.human:
        raise ConfigError("--hyp, --ref and --human (or --input) are required")
    if len(args.human) != len(args.hyp):
        raise ConfigError(f"--human: {len(args.human)} files for {len(args.hyp)} --hyp files")


def _check_numbers(args: argparse.Namespace) -> None:
    from meteor_eval.parallel import resolve_jobs

    if args.restarts < 0:
        raise ConfigError(f"--restarts: {args.restarts} is negative")
    if args.seed < 0:
        raise ConfigError(f"--seed: {args.seed} is negative")
    if not math.isfinite(args.margin) or args.margin < 0:
        raise ConfigError(f"--margin: {args.margin} must be a finite number >= 0")
    try:
        args.jobs = resolve_jobs(args.jobs)
    except ConfigError as exc:
        raise ConfigError(f"--jobs: {exc}") from None
    if args.optimizer == "grid" and "restarts" in getattr(args, "explicit", set()):
        raise ConfigError("--restarts: only with --optimizer coordinate")


def _config(args: argparse.Namespace) -> Any:
    from meteor_eval.cli.options import split_list
    from meteor_eval.metrics.meteor import Meteor, MeteorConfig

    try:
        config = MeteorConfig.preset(
            language=args.lang,
            task=args.task,
            normalization="norm" if args.norm else None,
            modules=split_list(args.modules) if args.modules else None,
            paraphrase_table=args.paraphrase_table,
        )
        # Resources load on first use: a module without data for the language fails here,
        # not after the judgements are read.
        Meteor(config).segment_rows([("a", ["a"])])
    except ConfigError as exc:
        field = str(exc).split(":")[0]
        option = {"language": "--lang", "task": "--task", "paraphrase_table": "--paraphrase-table"}
        raise ConfigError(f"{option.get(field, '--modules')}: {exc}") from None
    return config


def _checked(args: argparse.Namespace) -> tuple[Any, Any, Any]:
    from meteor_eval.cli._common import check_output_paths
    from meteor_eval.tuning.objectives import parse_objective

    _check_inputs(args)
    _check_numbers(args)
    try:
        objective = parse_objective(args.objective)
    except ValueError as exc:
        raise ConfigError(f"--objective: {exc}") from None
    config = _config(args)
    space = _space(args, len(config.modules))
    check_output_paths("--out", [args.out])
    name = args.name if args.name is not None else Path(args.out).stem
    from meteor_eval.tuning.paramfile import _NAME

    if not _NAME.match(name):
        raise ConfigError(f"--name: {name!r}: use 1-64 letters, digits, '.', '_' or '-'")
    args.name = name
    return objective, config, space


# -- the run ----------------------------------------------------------------------------------


def _read(args: argparse.Namespace) -> Any:
    from meteor_eval.tuning.data import read_judgements_files, read_judgements_table

    if args.input is not None:
        roles = ("hyp", "ref", "human", "system", "lp", "segment")
        fields = {r: getattr(args, f"{r}_field") for r in roles}
        fields = {r: f for r, f in fields.items() if f is not None}
        return read_judgements_table(args.input, fields=fields, kind=args.human_kind)
    return read_judgements_files(
        args.hyp, args.ref, args.human, kind=args.human_kind, pair=args.lp or "all"
    )


def _bar(args: argparse.Namespace, label: str, total: int | None, unit: str) -> Any:
    if args.no_progress or not sys.stderr.isatty():
        return None
    from meteor_eval.cli._feedback import ProgressBar

    return ProgressBar(label, total, unit=unit)


def _search_function(args: argparse.Namespace, space: Any, start: Any) -> Any:
    from meteor_eval.tuning.search import coordinate_descent, grid_search

    def search(problem: Any) -> Any:
        total = space.size if args.optimizer == "grid" else None
        bar = _bar(args, "train: search: ", total, " points")
        try:
            if args.optimizer == "grid":
                return grid_search(problem, space, jobs=args.jobs, progress=bar)
            return coordinate_descent(
                problem,
                space,
                start=start,
                restarts=args.restarts,
                seed=args.seed,
                jobs=args.jobs,
                progress=bar,
            )
        finally:
            if bar is not None:
                bar.close()

    return search


def _mean_measures(measures: dict[str, dict[str, float]]) -> dict[str, float]:
    names = next(iter(measures.values())).keys()
    out = {}
    for name in names:
        values = [m[name] for m in measures.values() if not math.isnan(m[name])]
        out[name] = sum(values) / len(values) if values else math.nan
    return out


def run(args: argparse.Namespace) -> int:
    """Read, align, search, write; returns the exit status."""
    from meteor_eval.tuning.crossval import leave_one_pair_out, summarise_folds
    from meteor_eval.tuning.data import statistics
    from meteor_eval.tuning.problem import TuningProblem
    from meteor_eval.tuning.rescore import TuningParams

    objective, config, space = _checked(args)
    judgements = _read(args)
    if args.cv == "lp" and len(judgements.pair_names) < 2:
        raise ConfigError(
            f"--cv lp: needs at least two language pairs, got {judgements.pair_names}"
        )
    bar = _bar(args, "train: align: ", sum(len(r) for r in judgements.references), " segments")
    try:
        rows, segments = statistics(judgements, config, jobs=args.jobs, progress=bar)
    finally:
        if bar is not None:
            bar.close()
    problem = TuningProblem.build(
        rows, judgements, objective, segments=segments, margin=args.margin
    )
    default = TuningParams.from_config(config)
    search = _search_function(args, space, default)
    folds = leave_one_pair_out(problem, search, default) if args.cv == "lp" else []
    found = search(problem)
    _check_found(found.value, problem(default))
    report = _report(args, config, judgements, problem, default, found, folds)
    ident = _write(args, config, found, report)
    _print(report, found.params, ident, args.out, summarise_folds(folds) if folds else None)
    return 0


def _check_found(value: float, default_value: float) -> None:
    """Refuse to write parameters whose objective is undefined, and warn of a metric that
    disagrees with the humans at its best (a NaN or negative objective usually means
    ``--human-kind`` the wrong way round).

    Raises:
        InputError: the objective is NaN (or -inf) at every point searched.
    """
    import warnings

    from meteor_eval.errors import InputError

    if not math.isfinite(value):
        raise InputError(
            "the objective is undefined at every point searched (each setting scores the "
            "judged items alike); no parameter file written"
        )
    if value < 0:
        warnings.warn(
            f"the tuned objective {value:.4f} is negative (default "
            f"{default_value:.4f}): the metric disagrees with the human numbers; check "
            "--human-kind (da: higher is better, rank: 1 is best)",
            stacklevel=2,
        )


def _report(
    args: argparse.Namespace,
    config: Any,
    judgements: Any,
    problem: Any,
    default: Any,
    found: Any,
    folds: list[Any],
) -> dict[str, Any]:
    tuned = problem.measures(found.params)
    before = problem.measures(default)
    return {
        "objective": problem.objective.label,
        "optimizer": args.optimizer,
        "restarts": args.restarts if args.optimizer == "coordinate" else None,
        "seed": args.seed if args.optimizer == "coordinate" else None,
        "start": f"{config.task} ({config.language})",
        "normalization": config.normalization,
        "human": args.human_kind,
        "margin": args.margin,
        "data": {
            "judgements": len(judgements),
            "pairs": judgements.pair_names,
            "systems": len(set(zip(judgements.pairs, judgements.systems, strict=True))),
        },
        "evaluations": found.evaluations,
        "value": found.value,
        "default_value": problem(default),
        "tuned": {"mean": _mean_measures(tuned), "pairs": tuned},
        "default": {"mean": _mean_measures(before), "pairs": before},
        "cv": [f.to_json() for f in folds],
    }


def _write(args: argparse.Namespace, config: Any, found: Any, report: dict[str, Any]) -> str:
    """Write the parameter file; returns its id."""
    from meteor_eval.tuning.paramfile import params_document, read_params, write_params

    doc = params_document(args.name, config.language, config.modules, found.params, report)
    write_params(args.out, doc)
    return read_params(args.out).id


def _print(
    report: dict[str, Any], params: Any, ident: str, out_path: str, cv: dict[str, Any] | None
) -> None:
    data = report["data"]
    lines = [
        f"judgements {data['judgements']:,}, pairs {len(data['pairs'])}, systems "
        f"{data['systems']}; objective {report['objective']}; {report['optimizer']} search, "
        f"{report['evaluations']:,} evaluations",
    ]
    for label, value_key in (("default", "default_value"), ("tuned", "value")):
        measures = "  ".join(f"{k} {v:.4f}" for k, v in report[label]["mean"].items())
        lines.append(f"{label:8s} objective {report[value_key]:.4f}  (mean over pairs: {measures})")
    if cv is not None:
        for label in ("default", "tuned"):
            measures = "  ".join(f"{k} {v:.4f}" for k, v in cv[label].items())
            lines.append(f"held-out pair, {label}: {measures}")
    weights = " ".join(f"{w:g}" for w in params.weights)
    lines.append(
        f"alpha {params.alpha:g}  beta {params.beta:g}  gamma {params.gamma:g}  "
        f"delta {params.delta:g}  weights {weights}"
    )
    lines.append(f"wrote {out_path} ({ident})")
    sys.stdout.write("\n".join(lines) + "\n")
