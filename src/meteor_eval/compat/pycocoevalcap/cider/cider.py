"""Drop-in replacement for ``pycocoevalcap.cider.cider.Cider`` (CIDEr-D, same numbers).

Document frequencies come from the references of the images being scored (so a score depends
on the whole set, as in the original), ``sigma = 6``, clipped candidate weights, the mean over
n-gram orders and references, times 10. See :func:`meteor_eval.metrics.caption.cider_d`.
Differences: ``assert`` checks raise :class:`ValueError`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meteor_eval.metrics.caption import cider_d

__all__ = ["Cider"]


class Cider:
    """``Cider().compute_score(gts, res) -> (mean CIDEr-D, per-image array)``.

    Example:
        >>> score, scores = Cider().compute_score({1: ["a cat"], 2: ["a dog"]},
        ...                                       {1: ["a cat"], 2: ["a cow"]})
        >>> float(score)
        2.5
    """

    def __init__(self, test: Any = None, refs: Any = None, n: int = 4, sigma: float = 6.0) -> None:
        del test, refs  # accepted and unused, as in the original
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ValueError(f"n must be a positive integer, got {n!r}")
        self._n = n
        self._sigma = sigma

    def compute_score(
        self, gts: Mapping[Any, Sequence[str]], res: Mapping[Any, Sequence[str]]
    ) -> tuple[Any, Any]:
        """The mean CIDEr-D (a NumPy float) and the per-image scores (a NumPy array)."""
        return cider_d(gts, res, n=self._n, sigma=self._sigma)

    def method(self) -> str:
        """``"CIDEr"``, as the original."""
        return "CIDEr"
