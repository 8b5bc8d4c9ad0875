"""``meteor-eval compare``: METEOR, BLEU and ROUGE of one or more systems in one table.

Each metric takes the options of its own command (``score``, ``bleu``, ``rouge``) with the same
defaults, so its number here is the number that command prints. ``--metrics`` chooses the
metrics; ``--paired-bs``/``--paired-ar`` test every system against the baseline.
"""

from __future__ import annotations

import argparse

from meteor_eval.cli._run import add_metric_options, run_command
from meteor_eval.cli.options import (
    METRICS,
    add_bleu_options,
    add_meteor_options,
    add_rouge_options,
    split_list,
)
from meteor_eval.errors import ConfigError

__all__ = ["DESCRIPTION", "add_options", "run"]

#: The command's own ``--help`` description (a constant, not ``__doc__``, which ``python -OO``
#: strips).
DESCRIPTION = "``meteor-eval compare``: METEOR, BLEU and ROUGE of one or more systems in one table."


def _add_metrics_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--metrics",
        default=",".join(METRICS),
        help=f"comma-separated metrics to compute (default: {','.join(METRICS)})",
    )


def _add_rouge_options(parser: argparse.ArgumentParser) -> None:
    add_rouge_options(parser, in_compare=True)


def add_options(parser: argparse.ArgumentParser) -> None:
    """The ``compare`` options: ``--metrics``, every metric's, and those every scoring command
    shares (no statistics file: each metric has its own)."""
    add_metric_options(
        parser,
        _add_metrics_option,
        add_meteor_options,
        add_bleu_options,
        _add_rouge_options,
        write_stats=False,
    )


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
    names = _metric_names(args)
    return run_command(args, names, METRICS)
