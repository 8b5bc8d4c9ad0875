"""Drop-in replacement for ``pycocoevalcap.rouge.rouge.Rouge`` (same numbers, faster LCS).

ROUGE-L with ``beta = 1.2``: per image the best LCS precision and the best LCS recall over the
references make one F-measure; the corpus score is the mean (NumPy) of the images' scores. See
:func:`meteor_eval.metrics.caption.coco_rouge_l`. Not rouge-score's ROUGE-L (beta 1, best
F-measure of one reference). Differences: ``assert`` checks raise :class:`ValueError`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meteor_eval.metrics.caption import coco_rouge_l, lcs_length, rouge_l_image

__all__ = ["Rouge", "my_lcs"]


def my_lcs(string: Sequence[str], sub: Sequence[str]) -> int:
    """Length of the longest common subsequence of two token lists (the original's name)."""
    return lcs_length(string, sub)


class Rouge:
    """``Rouge().compute_score(gts, res) -> (mean ROUGE-L, per-image array)``.

    Example:
        >>> round(Rouge().calc_score(["a b c d"], ["a c d"]), 6)
        0.879808
    """

    def __init__(self) -> None:
        self.beta = 1.2

    def calc_score(self, candidate: Sequence[str], refs: Sequence[str]) -> float:
        """ROUGE-L of one candidate (a one-element list) against its references."""
        if len(candidate) != 1:
            raise ValueError(f"candidate must hold exactly one caption, got {len(candidate)}")
        if len(refs) == 0:
            raise ValueError("refs must hold at least one caption")
        return rouge_l_image(candidate[0], refs, self.beta)

    def compute_score(
        self, gts: Mapping[Any, Sequence[str]], res: Mapping[Any, Sequence[str]]
    ) -> tuple[Any, Any]:
        """The mean ROUGE-L (a NumPy float) and the per-image scores (a NumPy array)."""
        return coco_rouge_l(gts, res, beta=self.beta)

    def method(self) -> str:
        """``"Rouge"``, as the original."""
        return "Rouge"
