"""``meteor-eval compare``: METEOR, BLEU and ROUGE of one or more systems in one table.

Each metric takes the options of its own command (``score``, ``bleu``, ``rouge``) with the same
defaults, so its number here is the number that command prints. ``--metrics`` chooses the
metrics; ``--paired-bs``/``--paired-ar`` test every system against the baseline.
"""

from __future__ import annotations

import argparse
from typing import Any

from meteor_eval.cli._common import add_output_options, add_run_options, add_stats_options
from meteor_eval.cli._systems import add_input_options
from meteor_eval.cli.options import (
    METRICS,
    add_bleu_options,
    add_meteor_options,
    add_rouge_options,
    add_significance_options,
    split_list,
)
from meteor_eval.errors import ConfigError

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``compare`` subcommand."""
    parser = subparsers.add_parser(
        "compare",
        help="METEOR, BLEU and ROUGE side by side, with significance",
        description=__doc__.split("\n")[0],
    )
    add_input_options(parser)
    parser.add_argument(
        "--metrics",
        default=",".join(METRICS),
        help=f"comma-separated metrics to compute (default: {','.join(METRICS)})",
    )
    add_meteor_options(parser)
    add_bleu_options(parser)
    add_rouge_options(parser, in_compare=True)
    add_output_options(parser)
    add_significance_options(parser)
    add_stats_options(parser, write=False)
    add_run_options(parser)
    parser.set_defaults(func=run)


def _metric_names(args: argparse.Namespace) -> list[str]:
    names = list(dict.fromkeys(split_list(args.metrics)))
    unknown = [n for n in names if n not in METRICS]
    if unknown or not names:
        raise ConfigError(
            f"--metrics: {', '.join(unknown) or 'nothing'} is not a metric; allowed: "
            f"{', '.join(METRICS)}"
        )
    return names


def run(args: argparse.Namespace) -> int:
    """Score with the chosen metrics and print one table; returns the exit code."""
    from meteor_eval.cli._run import run_from_stats, run_systems
    from meteor_eval.cli.options import bleu_config, explicit_overrides, meteor_config, rouge_config

    names = _metric_names(args)
    if args.from_stats:
        return run_from_stats(args, explicit_overrides(args, args.explicit, METRICS))
    metrics: list[Any] = []
    for name in names:
        if name == "meteor":
            from meteor_eval.metrics.meteor import Meteor

            metrics.append(Meteor(meteor_config(args)))
        elif name == "bleu":
            from meteor_eval.metrics.bleu import Bleu

            metrics.append(Bleu(bleu_config(args)))
        else:
            from meteor_eval.metrics.rouge import Rouge

            metrics.append(Rouge(rouge_config(args)))
    return run_systems(args, metrics)
