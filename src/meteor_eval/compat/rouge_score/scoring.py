"""rouge-score's ``scoring`` module: ``Score``, ``AggregateScore``, ``BootstrapAggregator``.

``BootstrapAggregator`` resamples exactly as rouge-score 0.1.2 does, from NumPy's global random
state (``numpy.random.choice`` once per resample, then the mean of the resample and NumPy's
percentiles), so that after ``numpy.random.seed(s)`` the low, mid and high values are rouge-score's
to the last bit. (meteor-eval's own intervals, :mod:`meteor_eval.significance`, use a seeded
generator of their own instead of the global state.)

Example:
    >>> import numpy as np
    >>> from meteor_eval.compat.rouge_score import rouge_scorer, scoring
    >>> scorer = rouge_scorer.RougeScorer(["rouge1"])
    >>> aggregator = scoring.BootstrapAggregator()
    >>> aggregator.add_scores(scorer.score("one two three", "one two"))
    >>> aggregator.add_scores(scorer.score("one two five six", "seven eight"))
    >>> np.random.seed(0)
    >>> mid = aggregator.aggregate()["rouge1"].mid
    >>> round(float(mid.precision), 2), round(float(mid.recall), 2)
    (0.5, 0.33)
"""

from __future__ import annotations

import abc
from collections import defaultdict
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["AggregateScore", "BaseScorer", "BootstrapAggregator", "Score", "fmeasure"]


class Score(NamedTuple):
    """Precision, recall and F-measure of one ROUGE type."""

    precision: float
    recall: float
    fmeasure: float


class AggregateScore(NamedTuple):
    """A confidence interval: low and high percentiles around the mid (mean) value."""

    low: Any
    mid: Any
    high: Any


class BaseScorer(abc.ABC):
    """rouge-score's base class of scorers: ``score(target, prediction)``."""

    @abc.abstractmethod
    def score(self, target: str, prediction: str) -> dict[str, Score]:
        """Scores of ``prediction`` against ``target``, by ROUGE type."""


def fmeasure(precision: float, recall: float) -> float:
    """The balanced F-measure ``2PR / (P + R)`` (0 when both are 0).

    Example:
        >>> fmeasure(0.5, 1.0)
        0.6666666666666666
    """
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0


class BootstrapAggregator:
    """Mean of segment scores with a bootstrap confidence interval, as rouge-score's.

    Args:
        confidence_interval: Coverage of the interval (0 to 1).
        n_samples: Bootstrap resamples.

    Raises:
        ValueError: ``confidence_interval`` outside [0, 1] or ``n_samples`` not positive.
    """

    def __init__(self, confidence_interval: float = 0.95, n_samples: int = 1000) -> None:
        if confidence_interval < 0 or confidence_interval > 1:
            raise ValueError("confidence_interval must be in range [0, 1]")
        if n_samples <= 0:
            raise ValueError("n_samples must be positive")
        self._n_samples = n_samples
        self._confidence_interval = confidence_interval
        self._scores: defaultdict[str, list[Any]] = defaultdict(list)

    def add_scores(self, scores: Mapping[str, Any]) -> None:
        """Add one segment's scores (a mapping of type to a named tuple such as :class:`Score`)."""
        for score_type, score in scores.items():
            self._scores[score_type].append(score)

    def aggregate(self) -> dict[str, AggregateScore]:
        """Per type, the low, mid and high values of each measure (same tuple type as added)."""
        import numpy as np

        result = {}
        for score_type, scores in self._scores.items():
            matrix = np.vstack(tuple(scores))
            bounds = self._bootstrap_resample(matrix)
            kind = type(scores[0])
            low, mid, high = (kind(*bounds[j, :]) for j in range(3))
            result[score_type] = AggregateScore(low=low, mid=mid, high=high)
        return result

    def _bootstrap_resample(self, matrix: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """``(3, measures)``: the low percentile, the median and the high percentile of the
        resampled means (draws from NumPy's global random state, one resample at a time)."""
        import numpy as np

        n = matrix.shape[0]
        means = np.zeros((self._n_samples, matrix.shape[1]))
        for i in range(self._n_samples):
            draw = np.random.choice(n, size=n)
            means[i, :] = np.mean(matrix[draw, :], axis=0)
        tail = (1 - self._confidence_interval) / 2
        q = 100 * np.array([tail, 0.5, 1 - tail])
        bounds: npt.NDArray[np.float64] = np.percentile(means, q, axis=0)
        return bounds
