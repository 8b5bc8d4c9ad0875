"""``meteor-eval rouge``: ROUGE-N/L/Lsum (rouge-score) and ROUGE-W/S/SU (ROUGE-1.5.5)."""

from __future__ import annotations

import argparse
from functools import partial

from meteor_eval.cli._run import add_metric_options, run_command
from meteor_eval.cli.options import add_rouge_options

__all__ = ["DESCRIPTION", "add_options", "run"]

#: The command's own ``--help`` description (a constant, not ``__doc__``, which ``python -OO``
#: strips).
DESCRIPTION = "``meteor-eval rouge``: ROUGE-N/L/Lsum (rouge-score) and ROUGE-W/S/SU (ROUGE-1.5.5)."


def add_options(parser: argparse.ArgumentParser) -> None:
    """The ``rouge`` options: ROUGE's and those every scoring command shares."""
    add_metric_options(parser, add_rouge_options)


#: Score and print; the exit status (the shared scoring run, for ROUGE alone).
run = partial(run_command, metrics=["rouge"], names=["rouge"])
