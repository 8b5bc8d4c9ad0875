"""``sacrebleu.metrics`` of the drop-in: BLEU only (chrF and TER raise ``NotImplementedError``)."""

from __future__ import annotations

from meteor_eval.compat.sacrebleu._missing import missing_attributes
from meteor_eval.compat.sacrebleu.metrics.bleu import BLEU, BLEUScore

__all__ = ["BLEU", "METRICS", "BLEUScore"]

#: sacrebleu's metric registry, reduced to what the drop-in provides.
METRICS = {"BLEU": BLEU}

__getattr__ = missing_attributes(
    "sacrebleu.metrics",
    [
        ("CHRF", "chrf"),
        ("CHRFScore", "chrf"),
        ("TER", "ter"),
        ("TERScore", "ter"),
        ("chrf", "chrf"),
        ("ter", "ter"),
        ("helpers", "other"),
        ("lib_ter", "ter"),
    ],
)
