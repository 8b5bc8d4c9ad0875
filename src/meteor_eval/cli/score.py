"""``meteor-eval score``: METEOR of one or more systems against one or more reference files."""

from __future__ import annotations

import argparse

from meteor_eval.cli._run import MetricCommand
from meteor_eval.cli.options import add_meteor_options

__all__ = ["register", "run"]


def _add_alignments_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--alignments",
        metavar="FILE",
        nargs="+",
        action="extend",
        help="write each segment's alignment (JSON lines), one file per system",
    )


_COMMAND = MetricCommand(
    "score",
    "meteor",
    "METEOR score (official 1.5 by default)",
    "METEOR of hypotheses against references, one segment a line; several --hyp files compare "
    "systems.",
    (add_meteor_options, _add_alignments_option),
)
register, run = _COMMAND.register, _COMMAND.run
