"""The significance settings of a comparison, :class:`Significance`
(``meteor_eval.comparison.Significance``).

It is a dataclass, and making its class compiles the methods :mod:`dataclasses` generates
(about 4 M instructions), so it lives apart from :mod:`meteor_eval.comparison`, which gives it
on first use (PEP 562): a run that asks for no interval or test does not make the class.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Significance"]


@dataclass(frozen=True)
class Significance:
    """Intervals and paired tests (:func:`~meteor_eval.significance.paired_tests`).

    Attributes:
        method: ``"bs"`` (paired bootstrap), ``"ar"`` (approximate randomisation) against the
            baseline, or ``None``: bootstrap intervals only.
        baseline: The system the others are tested against (default: the first).
        n_samples: Resamples or trials (default 1000 for ``bs``, 10000 for ``ar``).
        seed: Random seed (``None``: not reproducible).
        confidence: Interval coverage.
    """

    method: Literal["bs", "ar"] | None = None
    baseline: str | None = None
    n_samples: int | None = None
    seed: int | None = 12345
    confidence: float = 0.95
