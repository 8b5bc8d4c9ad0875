"""sacrebleu's paired significance tests for BLEU, run by meteor-eval's significance code.

``PairedTest(named_systems, metrics, references, test_type, n_samples, n_ar_confidence)()``
returns sacrebleu's ``(signatures, {"System": names, "BLEU": [Result, ...]})``: the baseline
first (its score and bootstrap interval), then each system with its p-value against it. The
resampling is :func:`meteor_eval.significance.paired_tests`, which follows sacrebleu's procedures
and consumes its random stream the same way (seed ``$SACREBLEU_SEED``, default 12345). Resampled
corpora are scored from ``float32`` sums like sacrebleu's
(:class:`~meteor_eval.compat.sacrebleu.metrics.bleu.SacrebleuResampling`) and randomisation
trials from integer sums with scalar arithmetic
(:class:`~meteor_eval.compat.sacrebleu.metrics.bleu.SacrebleuTrials`), like sacrebleu's, so
intervals and p-values equal sacrebleu's to the bit (means to the last bit or so).

One difference, meteor-eval's on purpose: a resampled statistic *equal* to the observed one
counts as at least as extreme (sacrebleu counts only larger ones). A system identical to the
baseline therefore gets ``p = 1`` where sacrebleu reports the smallest possible p-value,
``1 / (n_samples + 1)``, i.e. "significantly different". Other p-values are the same unless a
resample ties the observed difference exactly.

Only BLEU metrics of the drop-in can be tested (chrF and TER raise ``NotImplementedError``);
``n_jobs`` is accepted and ignored (the resampling is vectorised and fast in one process).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from meteor_eval.compat.sacrebleu._missing import not_provided
from meteor_eval.compat.sacrebleu.metrics.base import Signature
from meteor_eval.compat.sacrebleu.metrics.bleu import (
    BLEU,
    SacrebleuResampling,
    SacrebleuTrials,
    sacrebleu_seed,
)
from meteor_eval.significance import Estimate, interval_bounds, paired_tests

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["PairedTest", "Result", "estimate_ci"]


class Result:
    """One system's outcome of a paired test, as sacrebleu's ``Result``.

    Attributes:
        score: The corpus score.
        p_value: Against the baseline (``None`` for the baseline).
        mean: Mean of the bootstrap resamples (``None`` without a bootstrap).
        ci: Half-width of the 95% bootstrap interval (``None`` without a bootstrap).
    """

    def __init__(
        self,
        score: float,
        p_value: float | None = None,
        mean: float | None = None,
        ci: float | None = None,
    ) -> None:
        self.score = score
        self.p_value = p_value
        self.mean = mean
        self.ci = ci

    def __repr__(self) -> str:
        return ",".join(f"{key}={value}" for key, value in vars(self).items())


def estimate_ci(scores: npt.NDArray[np.float64]) -> tuple[float, float]:
    """``(mean, half-width of the 95% interval)`` of resampled scores, as sacrebleu's.

    Example:
        >>> import numpy as np
        >>> estimate_ci(np.arange(1000, dtype=float))
        (499.5, 474.5)
    """
    import numpy as np

    ordered = np.sort(np.asarray(scores, dtype=np.float64))
    low, high = interval_bounds(ordered, 0.95)
    return float(ordered.mean()), 0.5 * (high - low)


def _result(estimate: Estimate, with_interval: bool, p_value: float | None = None) -> Result:
    if not with_interval:
        return Result(estimate.score, p_value)
    return Result(estimate.score, p_value, estimate.mean, estimate.half_width)


class PairedTest:
    """sacrebleu's ``PairedTest`` for BLEU (see the module docstring).

    Args:
        named_systems: ``(name, hypotheses)`` pairs; the first is the baseline.
        metrics: Metric name to drop-in :class:`~meteor_eval.compat.sacrebleu.metrics.BLEU`.
        references: Reference streams (``None``: those each metric was built with).
        test_type: ``"ar"`` (approximate randomisation) or ``"bs"`` (paired bootstrap).
        n_samples: Trials or resamples (0: 10000 for ``ar``, 1000 for ``bs``).
        n_ar_confidence: Bootstrap resamples for the intervals of ``ar`` (-1: none, 0: 1000).
        n_jobs: Accepted and ignored.

    Raises:
        ValueError: an unknown ``test_type``.
        NotImplementedError: a metric other than the drop-in's BLEU.
    """

    _DEFAULT_SAMPLES: ClassVar[dict[str, int]] = {"ar": 10000, "bs": 1000}

    def __init__(
        self,
        named_systems: Sequence[tuple[str, Sequence[str]]],
        metrics: Mapping[str, Any],
        references: Sequence[Sequence[str | None]] | None,
        test_type: str = "ar",
        n_samples: int = 0,
        n_ar_confidence: int = -1,
        n_jobs: int = 1,
    ) -> None:
        if test_type not in self._DEFAULT_SAMPLES:
            raise ValueError(f"Unknown test type {test_type!r}")
        self.test_type = test_type
        self._seed = sacrebleu_seed()
        self.n_jobs = n_jobs
        self.references = references
        self.named_systems = list(named_systems)
        self.n_ar_confidence = n_ar_confidence if n_ar_confidence != 0 else 1000
        self.n_samples = n_samples if n_samples > 0 else self._DEFAULT_SAMPLES[test_type]
        self.n_systems = len(self.named_systems) - 1
        self.metrics: dict[str, BLEU] = {}
        self._signatures: dict[str, Signature] = {}
        self._baseline_stats: dict[str, list[list[int]]] = {}
        _, baseline_hyps = self.named_systems[0]
        for name, metric in metrics.items():
            if not isinstance(metric, BLEU):
                raise not_provided(f"PairedTest with metric {name!r}", "other")
            stats = metric._extract_corpus_statistics(baseline_hyps, references)
            # Results are keyed by the score's name, as in sacrebleu.
            key = "BLEU"
            self._baseline_stats[key] = stats
            self.metrics[key] = metric
            signature = metric.get_signature()
            signature.update("seed", str(self._seed).lower())
            signature.update(test_type, self.n_samples)
            if self.n_ar_confidence > 0:
                signature.update("bs", self.n_ar_confidence)
            self._signatures[key] = signature

    def _test(self, metric: BLEU, stats: list[list[list[int]]]) -> list[Result]:
        """Results of every system (baseline first) for one metric."""
        systems = {str(k): [tuple(row) for row in rows] for k, rows in enumerate(stats)}
        resampling = SacrebleuResampling(metric.native.config)

        def estimates(scorer: Any, method: str, n_confidence: int = 1000) -> Any:
            # Every test of this object draws the same samples from the same seed
            # (n_confidence: paired_tests' default unless given).
            return paired_tests(
                scorer,
                systems,
                method=method,
                n_samples=self.n_samples,
                n_confidence=n_confidence,
                seed=self._seed,
                allow_few_samples=True,
            ).estimates

        if self.test_type == "bs":
            found = estimates(resampling, "bs")
            p_values = {k: found[k]["bleu"].p_value for k in systems}
            intervals = found
        else:
            with_ci = self.n_ar_confidence > 0
            trials = estimates(
                SacrebleuTrials(metric.native.config),
                "ar",
                n_confidence=self.n_ar_confidence if with_ci else 1,
            )
            p_values = {k: trials[k]["bleu"].p_value for k in systems}
            intervals = trials
            if with_ci:
                # The same draws again, the intervals scored from float32 sums as sacrebleu's.
                intervals = estimates(resampling, "ar", n_confidence=self.n_ar_confidence)
        with_interval = self.test_type == "bs" or self.n_ar_confidence > 0
        return [_result(intervals[k]["bleu"], with_interval, p_values[k]) for k in systems]

    def __call__(self) -> tuple[dict[str, Signature], dict[str, list[Any]]]:
        """Run the test: ``(signatures, {"System": [names], "BLEU": [Result, ...]})``."""
        scores: dict[str, list[Any]] = {"System": [name for name, _ in self.named_systems]}
        for key, metric in self.metrics.items():
            stats = [self._baseline_stats[key]] + [
                metric._extract_corpus_statistics(hyps, self.references)
                for _, hyps in self.named_systems[1:]
            ]
            scores[key] = self._test(metric, stats)
        return self._signatures, scores
