"""``meteor-eval bleu``: BLEU (sacrebleu-compatible) of one or more systems."""

from __future__ import annotations

from meteor_eval.cli._run import MetricCommand
from meteor_eval.cli.options import add_bleu_options

__all__ = ["register", "run"]

_COMMAND = MetricCommand(
    "bleu", "bleu", "BLEU, equal to sacrebleu 2.x", __doc__, (add_bleu_options,)
)
register, run = _COMMAND.register, _COMMAND.run
