"""``meteor-eval rouge``: ROUGE-N/L/Lsum (rouge-score) and ROUGE-W/S/SU (ROUGE-1.5.5)."""

from __future__ import annotations

import argparse

from meteor_eval.cli._run import add_metric_command, run_command
from meteor_eval.cli.options import add_rouge_options, rouge_config

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``rouge`` subcommand."""
    add_metric_command(
        subparsers,
        "rouge",
        help="ROUGE-N/L/Lsum/W/S/SU",
        description=__doc__.split("\n")[0],
        options=[add_rouge_options],
        run=run,
    )


def run(args: argparse.Namespace) -> int:
    """Score and print; returns the exit code."""
    from meteor_eval.metrics.rouge import Rouge

    return run_command(args, lambda: [Rouge(rouge_config(args))], ["rouge"])
