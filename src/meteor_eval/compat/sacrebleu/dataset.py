"""``sacrebleu.dataset`` is not part of the drop-in: meteor-eval downloads nothing."""

from __future__ import annotations

from meteor_eval.compat.sacrebleu._missing import missing_attributes

__all__: list[str] = []

__getattr__ = missing_attributes("sacrebleu.dataset", [("DATASETS", "data")])
