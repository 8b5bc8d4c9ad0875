"""``meteor-eval score``: METEOR of one or more systems against one or more reference files."""

from __future__ import annotations

import argparse

from meteor_eval.cli._run import add_metric_command, run_command
from meteor_eval.cli.options import add_meteor_options, meteor_config

__all__ = ["register", "run"]


def _add_alignments_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--alignments",
        metavar="FILE",
        nargs="+",
        action="extend",
        help="write each segment's alignment (JSON lines), one file per system",
    )


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``score`` subcommand."""
    add_metric_command(
        subparsers,
        "score",
        help="METEOR score (official 1.5 by default)",
        description="METEOR of hypotheses against references, one segment a line; several "
        "--hyp files compare systems.",
        options=[add_meteor_options, _add_alignments_option],
        run=run,
    )


def run(args: argparse.Namespace) -> int:
    """Score and print; returns the exit status."""
    from meteor_eval.metrics.meteor import Meteor

    return run_command(args, lambda: [Meteor(meteor_config(args))], ["meteor"])
