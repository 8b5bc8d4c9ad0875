"""``meteor-eval rouge``: ROUGE-N/L/Lsum (rouge-score) and ROUGE-W/S/SU (ROUGE-1.5.5)."""

from __future__ import annotations

import argparse

from meteor_eval.cli._common import add_output_options, add_run_options, add_stats_options
from meteor_eval.cli._systems import add_input_options
from meteor_eval.cli.options import add_rouge_options, add_significance_options, rouge_config

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``rouge`` subcommand."""
    parser = subparsers.add_parser(
        "rouge", help="ROUGE-N/L/Lsum/W/S/SU", description=__doc__.split("\n")[0]
    )
    add_input_options(parser)
    add_rouge_options(parser)
    add_output_options(parser)
    add_significance_options(parser)
    add_stats_options(parser)
    add_run_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Score and print; returns the exit code."""
    from meteor_eval.cli._run import run_from_stats, run_systems
    from meteor_eval.cli.options import explicit_overrides
    from meteor_eval.metrics.rouge import Rouge

    if args.from_stats:
        return run_from_stats(args, explicit_overrides(args, args.explicit, ("rouge",)))
    return run_systems(args, [Rouge(rouge_config(args))])
