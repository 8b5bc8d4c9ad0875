"""``meteor-eval rouge``: ROUGE-N/L/Lsum (rouge-score) and ROUGE-W/S/SU (ROUGE-1.5.5)."""

from __future__ import annotations

from meteor_eval.cli._run import MetricCommand
from meteor_eval.cli.options import add_rouge_options

__all__ = ["register", "run"]

_COMMAND = MetricCommand("rouge", "rouge", "ROUGE-N/L/Lsum/W/S/SU", __doc__, (add_rouge_options,))
register, run = _COMMAND.register, _COMMAND.run
