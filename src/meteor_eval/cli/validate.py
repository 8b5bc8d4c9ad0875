"""The checks every command's options pass before any work, in one place.

argparse checks the type of each value; what it cannot know is checked here, by option name,
for whichever command defines the option, so an option has the same rule everywhere:

* a value given as an empty string (``--modules ''``, ``--weights ' '``) is refused: it would
  otherwise count as "not given" and silently leave the default in place;
* ``--seed`` is an integer from 0, ``--n-samples`` and ``--bootstrap`` leave at least one
  resample outside each end of the interval (:mod:`meteor_eval.stats.sampling`),
  ``--confidence`` is in (0, 1);
* ``--jobs`` is from 0 to the maximum, ``--skip-distance`` from -1, ``--scheduler`` is
  ``local``, ``local:N`` or a Dask address (checked without importing Dask);
* ``--smooth-value`` only with a smoothing that uses it; ``--metrics`` and ``--modules``
  name each item once;
* an option typed that would change nothing is refused: another metric's option in
  ``compare --metrics``, a ROUGE option none of the ``--types`` uses, ``--seed`` or
  ``--confidence`` with nothing resampled, ``train --seed`` with the grid;
* ``score``, ``bleu`` and ``rouge`` re-score statistics files of their own metric only
  (``compare`` takes any).

Each refusal is a :class:`~meteor_eval.errors.ConfigError` (exit status 2) whose message starts
with the option.
"""

from __future__ import annotations

import argparse
import math

from meteor_eval.errors import ConfigError

__all__ = ["check_options"]

#: Options whose value may be blank (a separator may be a space; a text may be empty).
_BLANK_ALLOWED = frozenset({"sentence_separator", "hyp_text", "ref_text"})


def _subparser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            sub = action.choices.get(command)
            if isinstance(sub, argparse.ArgumentParser):
                return sub
    return parser


def _option_names(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Destination -> the option's long name (``seed`` -> ``--seed``)."""
    names: dict[str, str] = {}
    for action in parser._actions:
        if action.option_strings:
            long = [o for o in action.option_strings if o.startswith("--")]
            names[action.dest] = (long or action.option_strings)[0]
    return names


def _check_blank(args: argparse.Namespace, names: dict[str, str]) -> None:
    for dest, option in names.items():
        if dest in _BLANK_ALLOWED:
            continue
        value = getattr(args, dest, None)
        values = value if isinstance(value, list) else [value]
        if any(isinstance(v, str) and not v.strip() for v in values):
            raise ConfigError(f"{option}: an empty value; give a value or leave the option out")


def _check_resampling(args: argparse.Namespace) -> None:
    from meteor_eval.stats.sampling import check_resamples, check_seed

    if hasattr(args, "seed"):
        check_seed("--seed", args.seed)
    confidence = getattr(args, "confidence", 0.95)
    if not (isinstance(confidence, float) and math.isfinite(confidence) and 0 < confidence < 1):
        raise ConfigError(f"--confidence: {confidence} is invalid; allowed: 0 < c < 1")
    n_samples = getattr(args, "n_samples", None)
    if n_samples is not None:
        if getattr(args, "paired_ar", False) and not getattr(args, "ci", False):
            # trials of the randomisation test: a p-value, not an interval
            if n_samples < 1:
                raise ConfigError(f"--n-samples: {n_samples} is invalid; allowed: an integer >= 1")
        else:
            check_resamples("--n-samples", n_samples, confidence)
    bootstrap = getattr(args, "bootstrap", 0)
    if bootstrap:
        check_resamples("--bootstrap", bootstrap, confidence)  # ROUGE's interval coverage


def _check_ranges(args: argparse.Namespace) -> None:
    jobs = getattr(args, "jobs", None)
    if jobs is not None:
        from meteor_eval.parallel import resolve_jobs

        try:
            resolve_jobs(jobs)
        except ConfigError as exc:
            raise ConfigError(f"--jobs: {str(exc).removeprefix('jobs: ')}") from None
    skip = getattr(args, "skip_distance", None)
    if skip is not None and skip < -1:
        raise ConfigError(
            f"--skip-distance: {skip} is invalid; allowed: an integer >= 0, or -1 for any gap"
        )
    smooth_value = getattr(args, "smooth_value", None)
    method = getattr(args, "smooth_method", None)
    from_stats = getattr(args, "from_stats", None)  # the method may come from the file
    if smooth_value is not None and method not in ("floor", "add-k") and not from_stats:
        raise ConfigError(
            f"--smooth-value: only --smooth-method floor or add-k use a value (not {method})"
        )
    for dest, what in (("metrics", "metric"), ("modules", "module")):
        value = getattr(args, dest, None)
        if not isinstance(value, str):
            continue
        from meteor_eval.cli.options import split_list

        names = list(split_list(value))
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            # a repeated module adds no match, and its weight would have no effect
            raise ConfigError(f"--{dest}: {twice[0]} is given twice; give each {what} once")
    scheduler = getattr(args, "scheduler", None)
    if scheduler is not None:
        from meteor_eval.distributed import check_scheduler

        check_scheduler(scheduler)


#: The metric each single-metric command re-scores from statistics files.
_METRIC_OF_COMMAND = {"score": "meteor", "bleu": "bleu", "rouge": "rouge"}


def _check_stats_metric(args: argparse.Namespace) -> None:
    """``--from-stats`` of another metric's statistics: ``score`` of BLEU statistics would
    print BLEU from the METEOR command."""
    expected = _METRIC_OF_COMMAND.get(getattr(args, "command", ""))
    if expected is None or not getattr(args, "from_stats", None):
        return
    from meteor_eval.statsfile import stats_metric

    for path in args.from_stats:
        found = stats_metric(path)
        if found is not None and found != expected:
            command = {v: k for k, v in _METRIC_OF_COMMAND.items()}.get(found, "compare")
            raise ConfigError(
                f"--from-stats: {path} holds {found} statistics; 'meteor-eval {args.command}' "
                f"re-scores {expected} statistics (use 'meteor-eval {command}' or 'compare')"
            )


#: ROUGE options that only some variants use: option destination -> (variants, option).
_ROUGE_VARIANT_OPTIONS = {
    "sentence_separator": (("rougeLsum", "rougeW"), "--sentence-separator"),
    "weight": (("rougeW",), "--weight"),
    "skip_distance": (("rougeS", "rougeSU"), "--skip-distance"),
}


def _check_without_effect(args: argparse.Namespace, names: dict[str, str]) -> None:
    """Options typed that would change nothing: another metric's options in ``compare``, a
    ROUGE option none of the chosen variants uses, a seed or coverage with no resampling."""
    explicit: set[str] = getattr(args, "explicit", None) or set()
    if not explicit or getattr(args, "from_stats", None):
        return  # --from-stats: the metric and its settings come from the files
    from meteor_eval.cli.options import _FIELDS_OF_OPTION, split_list

    metrics = getattr(args, "metrics", None)
    if isinstance(metrics, str):
        chosen = set(split_list(metrics))
        for metric, options in _FIELDS_OF_OPTION.items():
            if metric in chosen:
                continue
            for dest in sorted(explicit & options.keys()):
                if not any(dest in _FIELDS_OF_OPTION[m] for m in chosen):
                    raise ConfigError(
                        f"{names.get(dest, dest)}: a {metric} option, but --metrics does not "
                        f"include {metric}"
                    )
    else:
        chosen = {"rouge"} if getattr(args, "command", "") == "rouge" else set()
    types = getattr(args, "types", None)
    if "rouge" in chosen and isinstance(types, str):
        variants = {t.strip() for t in types.split(",") if t.strip()}
        for dest, (users, option) in _ROUGE_VARIANT_OPTIONS.items():
            if dest in explicit and not variants & set(users):
                raise ConfigError(
                    f"{option}: only {' and '.join(users)} use it, and --types has "
                    f"{', '.join(sorted(variants))}"
                )
    resampling = any(getattr(args, flag, False) for flag in ("ci", "paired_bs", "paired_ar"))
    command = getattr(args, "command", "")
    if command == "train":
        if "seed" in explicit and getattr(args, "optimizer", "") == "grid":
            raise ConfigError("--seed: only with --optimizer coordinate (its random restarts)")
        return
    if command in ("report",) or resampling:
        return
    bootstrap = bool(getattr(args, "bootstrap", 0)) and "rouge" in chosen
    for dest in ("seed", "confidence"):
        if dest in explicit and hasattr(args, dest) and not bootstrap:
            extra = " (or --bootstrap N)" if "rouge" in chosen else ""
            raise ConfigError(
                f"--{dest}: nothing is resampled; it needs --ci, --paired-bs or --paired-ar{extra}"
            )


def check_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse option values no command can use (see the module's list), before any work.

    Raises:
        ConfigError: naming the option.
    """
    command = getattr(args, "command", None)
    if command is None or command == "jar-compat":
        return  # the jar's own command line has the jar's own rules
    names = _option_names(_subparser(parser, command))
    _check_blank(args, names)
    _check_resampling(args)
    _check_ranges(args)
    _check_stats_metric(args)
    _check_without_effect(args, names)
