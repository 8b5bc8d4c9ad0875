"""``meteor-eval bleu``: BLEU (sacrebleu-compatible) of one or more systems."""

from __future__ import annotations

import argparse

from meteor_eval.cli._common import add_output_options, add_run_options, add_stats_options
from meteor_eval.cli._systems import add_input_options
from meteor_eval.cli.options import add_bleu_options, add_significance_options, bleu_config

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``bleu`` subcommand."""
    parser = subparsers.add_parser(
        "bleu", help="BLEU, equal to sacrebleu 2.x", description=__doc__.split("\n")[0]
    )
    add_input_options(parser)
    add_bleu_options(parser)
    add_output_options(parser)
    add_significance_options(parser)
    add_stats_options(parser)
    add_run_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Score and print; returns the exit code."""
    from meteor_eval.cli._run import run_from_stats, run_systems
    from meteor_eval.cli.options import explicit_overrides
    from meteor_eval.metrics.bleu import Bleu

    if args.from_stats:
        return run_from_stats(args, explicit_overrides(args, args.explicit, ("bleu",)))
    return run_systems(args, [Bleu(bleu_config(args))])
