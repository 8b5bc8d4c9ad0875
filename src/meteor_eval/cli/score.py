"""``meteor-eval score``: METEOR of one or more systems against one or more reference files."""

from __future__ import annotations

import argparse
from functools import partial

from meteor_eval.cli._run import add_metric_options, run_command
from meteor_eval.cli.options import add_meteor_options

__all__ = ["DESCRIPTION", "add_options", "run"]

#: The command's own ``--help`` description.
DESCRIPTION = (
    "METEOR of hypotheses against references, one segment a line; several --hyp files compare "
    "systems."
)


def _add_alignments_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--alignments",
        metavar="FILE",
        nargs="+",
        action="extend",
        help="write each segment's alignment (JSON lines), one file per system",
    )


def add_options(parser: argparse.ArgumentParser) -> None:
    """The ``score`` options: METEOR's, ``--alignments`` and those every scoring command
    shares."""
    add_metric_options(parser, add_meteor_options, _add_alignments_option)


#: Score and print; the exit status (the shared scoring run, for METEOR alone).
run = partial(run_command, metrics=["meteor"], names=["meteor"])
