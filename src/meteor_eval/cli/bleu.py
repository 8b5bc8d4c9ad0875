"""``meteor-eval bleu``: BLEU (sacrebleu-compatible) of one or more systems."""

from __future__ import annotations

import argparse

from meteor_eval.cli._run import add_metric_command, run_command
from meteor_eval.cli.options import add_bleu_options, bleu_config

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``bleu`` subcommand."""
    add_metric_command(
        subparsers,
        "bleu",
        help="BLEU, equal to sacrebleu 2.x",
        description=__doc__.split("\n")[0],
        options=[add_bleu_options],
        run=run,
    )


def run(args: argparse.Namespace) -> int:
    """Score and print; returns the exit code."""
    from meteor_eval.metrics.bleu import Bleu

    return run_command(args, lambda: [Bleu(bleu_config(args))], ["bleu"])
