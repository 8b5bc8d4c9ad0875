"""``sacrebleu.metrics.ter`` is not in the drop-in: its names raise ``NotImplementedError``."""

from __future__ import annotations

from meteor_eval.compat.sacrebleu._missing import missing_attributes

__all__: list[str] = []

__getattr__ = missing_attributes(
    "sacrebleu.metrics.ter",
    [("TER", "ter"), ("TERScore", "ter"), ("TERSignature", "ter")],
)
