"""Drop-in replacement for ``pycocoevalcap.bleu.bleu.Bleu`` (pure Python, same numbers).

The original's ``compute_score`` uses the *closest* reference length and prints its corpus
statistics (``verbose=1``, its default); this one does the same through
:func:`meteor_eval.metrics.caption.coco_bleu`. Differences: its ``assert`` checks raise
:class:`ValueError` here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meteor_eval.metrics.caption import coco_bleu

__all__ = ["Bleu"]


class Bleu:
    """``Bleu(n).compute_score(gts, res) -> ([BLEU-1..n], [[per-image BLEU-k] for k])``.

    Example:
        >>> Bleu(2).compute_score({1: ["a cat"]}, {1: ["a cat"]}, verbose=0)[0]
        [0.9999999990000008, 0.9999999987500011]
    """

    def __init__(self, n: int = 4) -> None:
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ValueError(f"n must be a positive integer, got {n!r}")
        self._n = n
        self._hypo_for_image: dict[Any, Any] = {}
        self.ref_for_image: dict[Any, Any] = {}

    def compute_score(
        self,
        gts: Mapping[Any, Sequence[str]],
        res: Mapping[Any, Sequence[str]],
        verbose: int = 1,
    ) -> tuple[list[float], list[list[float]]]:
        """BLEU-1..n of the corpus and of each image, in ``gts`` key order."""
        return coco_bleu(gts, res, self._n, verbose=verbose)

    def method(self) -> str:
        """``"Bleu"``, as the original."""
        return "Bleu"
