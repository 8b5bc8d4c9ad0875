"""``meteor-eval bleu``: BLEU (sacrebleu-compatible) of one or more systems."""

from __future__ import annotations

import argparse
from functools import partial

from meteor_eval.cli._run import add_metric_options, run_command
from meteor_eval.cli.options import add_bleu_options

__all__ = ["DESCRIPTION", "add_options", "run"]

#: The command's own ``--help`` description (a constant, not ``__doc__``, which ``python -OO``
#: strips).
DESCRIPTION = "``meteor-eval bleu``: BLEU (sacrebleu-compatible) of one or more systems."


def add_options(parser: argparse.ArgumentParser) -> None:
    """The ``bleu`` options: BLEU's and those every scoring command shares."""
    add_metric_options(parser, add_bleu_options)


#: Score and print; the exit status (the shared scoring run, for BLEU alone).
run = partial(run_command, metrics=["bleu"], names=["bleu"])
