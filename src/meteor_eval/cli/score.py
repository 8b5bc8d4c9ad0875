"""``meteor-eval score``: METEOR of one or more systems against one or more reference files."""

from __future__ import annotations

import argparse

from meteor_eval.cli._common import add_output_options, add_run_options, add_stats_options
from meteor_eval.cli._systems import add_input_options
from meteor_eval.cli.options import add_meteor_options, add_significance_options, meteor_config

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``score`` subcommand."""
    parser = subparsers.add_parser(
        "score",
        help="METEOR score (official 1.5 by default)",
        description="METEOR of hypotheses against references, one segment a line; several "
        "--hyp files compare systems.",
    )
    add_input_options(parser)
    add_meteor_options(parser)
    add_output_options(parser)
    add_significance_options(parser)
    parser.add_argument(
        "--alignments",
        metavar="FILE",
        nargs="+",
        action="extend",
        help="write each segment's alignment (JSON lines), one file per system",
    )
    add_stats_options(parser)
    add_run_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Score and print; returns the exit status."""
    from meteor_eval.cli._run import run_from_stats, run_systems
    from meteor_eval.cli.options import explicit_overrides
    from meteor_eval.metrics.meteor import Meteor

    if args.from_stats:
        return run_from_stats(args, explicit_overrides(args, args.explicit, ("meteor",)))
    return run_systems(args, [Meteor(meteor_config(args))])
