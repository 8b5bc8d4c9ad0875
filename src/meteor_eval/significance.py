"""Confidence intervals and paired significance tests, written once for every metric.

Everything here works on *statistics rows* (:mod:`meteor_eval.metrics.protocol`), never on text:
a resampled corpus is a weight per segment, its total is ``weights @ M`` where ``M`` is the
metric's :meth:`~meteor_eval.metrics.protocol.Metric.sample_matrix`, and it is scored the way the
corpus score is made (:meth:`~meteor_eval.metrics.protocol.Metric.sample_values`: METEOR and BLEU
pool the statistics, ROUGE and ``aggregate="mean"`` average the segments). Nothing is realigned or
re-tokenised, so thousands of resamples of many systems take a second or two.

Three procedures, following sacrebleu's (which its tests check against the Moses significance
script and MultEval), with the random stream consumed as sacrebleu consumes it:

* **Bootstrap interval** (Koehn 2004): ``n_samples`` corpora of ``n`` segments drawn with
  replacement by ``numpy.random.default_rng(seed).choice(n, (n_samples, n))``; the interval is
  the ``(1 - confidence) / 2`` and ``(1 + confidence) / 2`` order statistics of the resampled
  scores (sacrebleu's ``n // 40`` for 95%), reported with the resamples' mean.
* **Paired bootstrap test** (``"bs"``): the same resamples for the baseline and the system; the
  statistic is ``|score_sys - score_baseline|`` per resample, centred on its mean; the p-value is
  the share of centred statistics at least as large as the observed difference.
* **Paired approximate randomisation** (``"ar"``, Riezler and Maxwell 2005): per trial, each
  segment's statistics are swapped between the two systems with probability 1/2; the p-value is
  the share of trials whose ``|difference|`` is at least the observed one. Intervals come from a
  bootstrap drawn from the same random generator after the swaps (baseline: a fresh generator),
  as sacrebleu does.

p-values are ``(c + 1) / (N + 1)`` with ``c`` the count of statistics ``>=`` the observed one
(sacrebleu counts ``>``): ties count as at least as extreme, so a system tested against itself
gets ``p = 1`` instead of the smallest possible p-value. Otherwise the two agree exactly; the
resampled BLEU scores differ from sacrebleu's in the last digits because sacrebleu sums the
statistics in ``float32`` (documented in ``docs/significance.md``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from meteor_eval.errors import ConfigError, InputError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from meteor_eval.metrics.protocol import Metric, Row

__all__ = [
    "DEFAULT_SAMPLES",
    "Estimate",
    "SignificanceResult",
    "confidence_interval",
    "interval_bounds",
    "paired_tests",
    "paired_tests_with_scores",
    "significance_signature",
]

#: Default number of resamples per method (sacrebleu's): ``bs`` bootstrap, ``ar`` trials.
DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}
METHODS = ("bs", "ar")


@dataclass(frozen=True)
class Estimate:
    """One headline number of one system: the corpus score and its bootstrap interval.

    Attributes:
        score: The corpus score (from all segments, exactly as without resampling).
        mean: Mean of the resampled scores.
        low: Lower end of the interval.
        high: Upper end of the interval.
        p_value: Against the baseline (``None`` for the baseline or without a paired test).
    """

    score: float
    mean: float
    low: float
    high: float
    p_value: float | None = None

    @property
    def half_width(self) -> float:
        """Half the interval's width (sacrebleu's ``±`` figure)."""
        return 0.5 * (self.high - self.low)

    def significant(self, level: float = 0.05) -> bool:
        """True when there is a p-value below ``level``."""
        return self.p_value is not None and self.p_value < level


@dataclass
class SignificanceResult:
    """Intervals (and p-values) of several systems for one metric.

    Attributes:
        estimates: Per system name, per headline number, the :class:`Estimate`.
        method: ``"bs"``, ``"ar"`` or ``None`` (intervals only).
        n_samples: Resamples (``bs``, intervals only) or trials (``ar``).
        n_confidence: Bootstrap resamples behind the intervals.
        seed: The random seed.
        confidence: The interval coverage.
        baseline: The system the others were tested against (``None`` without a test).
    """

    estimates: dict[str, dict[str, Estimate]]
    method: str | None
    n_samples: int
    n_confidence: int
    seed: int | None
    confidence: float
    baseline: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def interval_bounds(scores: npt.NDArray[np.float64], confidence: float) -> tuple[float, float]:
    """The ``confidence`` interval of resampled scores as order statistics.

    The lower end is the ``k``-th smallest score and the upper the ``k``-th largest, with
    ``k = floor(n * (1 - confidence) / 2)`` (sacrebleu's ``n // 40`` at 95%).

    Example:
        >>> import numpy as np
        >>> interval_bounds(np.arange(1000, dtype=float), 0.95)
        (25.0, 974.0)
    """
    import numpy as np

    ordered = np.sort(scores)
    n = len(ordered)
    k = int(n * (1.0 - confidence) / 2.0 + 1e-9)
    return float(ordered[k]), float(ordered[n - k - 1])


def _check_options(
    n_samples: int, confidence: float, *, name: str = "n_samples", few: bool = False
) -> None:
    """Counts and coverage: resamples that give an interval at all
    (:func:`~meteor_eval.stats.sampling.check_resamples`), or any positive number with
    ``few`` (the sacrebleu drop-in, which accepts what sacrebleu accepts)."""
    from meteor_eval.stats.sampling import check_resamples

    if isinstance(confidence, bool) or not isinstance(confidence, int | float):
        raise ConfigError(f"confidence: {confidence!r} is invalid; allowed: 0 < c < 1")
    if not 0.0 < confidence < 1.0:
        raise ConfigError(f"confidence: {confidence!r} is invalid; allowed: 0 < c < 1")
    if few:
        if isinstance(n_samples, bool) or not isinstance(n_samples, int) or n_samples < 1:
            raise ConfigError(f"{name}: {n_samples!r} is invalid; allowed: an integer >= 1")
        return
    check_resamples(name, n_samples, confidence)


def _bootstrap_weights(indices: npt.NDArray[np.int64], n: int) -> npt.NDArray[np.float64]:
    """How many times each segment is drawn in each resample: ``(samples, n)``."""
    import numpy as np

    weights = np.zeros((len(indices), n), dtype=np.float64)
    for k, draw in enumerate(indices):
        weights[k] = np.bincount(draw, minlength=n)
    return weights


def _resampled(
    metric: Metric[Any], matrix: npt.NDArray[np.float64], weights: npt.NDArray[np.float64]
) -> dict[str, npt.NDArray[np.float64]]:
    """Headline numbers of every resampled corpus."""
    return metric.sample_values(weights @ matrix)


def _estimates(
    scores: Mapping[str, float],
    samples: Mapping[str, npt.NDArray[np.float64]],
    confidence: float,
) -> dict[str, Estimate]:
    out: dict[str, Estimate] = {}
    for name, score in scores.items():
        values = samples[name]
        low, high = interval_bounds(values, confidence)
        out[name] = Estimate(float(score), float(values.mean()), low, high)
    return out


def _corpus_values(metric: Metric[Any], rows: Sequence[Row]) -> dict[str, float]:
    return metric.values(metric.score_rows(rows, ()))


def _check_rows(systems: Mapping[str, Sequence[Row]]) -> int:
    sizes = {name: len(rows) for name, rows in systems.items()}
    if not sizes:
        raise InputError("no system to test")
    if len(set(sizes.values())) != 1:
        detail = ", ".join(f"{name}: {n}" for name, n in sizes.items())
        raise InputError(f"systems have different numbers of segments ({detail})")
    n = next(iter(sizes.values()))
    if n == 0:
        raise InputError("significance needs at least one segment")
    return n


def confidence_interval(
    metric: Metric[Any],
    rows: Sequence[Row],
    *,
    n_samples: int = 1000,
    seed: int | None = 12345,
    confidence: float = 0.95,
    allow_few_samples: bool = False,
) -> dict[str, Estimate]:
    """Bootstrap interval of each headline number of one system.

    Args:
        metric: The metric that made ``rows``.
        rows: Each segment's statistics row.
        n_samples: Number of resampled corpora.
        seed: Seed of ``numpy.random.default_rng`` (``None``: fresh entropy).
        confidence: Interval coverage.
        allow_few_samples: As :func:`paired_tests`'s.

    Example:
        >>> from meteor_eval.metrics.bleu import Bleu
        >>> bleu = Bleu()
        >>> rows = bleu.corpus_rows(["a b c d", "a b x d"], [["a b c d"], ["a b c d"]])
        >>> est = confidence_interval(bleu, rows, n_samples=200)["bleu"]
        >>> est.low <= est.score <= est.high
        True
    """
    result = paired_tests(
        metric,
        {"system": rows},
        method=None,
        n_samples=n_samples,
        seed=seed,
        confidence=confidence,
        allow_few_samples=allow_few_samples,
    )
    return result.estimates["system"]


class _Plan(NamedTuple):
    """A test's options once checked (:func:`_checked_plan`), with the baseline made (``None``
    without a method) and the number of segments."""

    method: str | None
    samples: int
    n_confidence: int
    seed: int | None
    confidence: float
    base: str | None
    n: int


def _checked_plan(
    systems: Mapping[str, Sequence[Row]],
    baseline: str | None,
    method: str | None,
    n_samples: int | None,
    n_confidence: int,
    seed: int | None,
    confidence: float,
    allow_few_samples: bool,
) -> _Plan:
    """The options of :func:`paired_tests` checked before any work."""
    if method is not None and method not in METHODS:
        raise ConfigError(f"method: {method!r} is invalid; allowed: bs, ar or None")
    from meteor_eval.stats.sampling import check_seed

    samples = n_samples if n_samples is not None else DEFAULT_SAMPLES[method or "bs"]
    check_seed("seed", seed, allow_none=True)
    if method == "ar":
        # trials give a p-value, not an interval: any positive number
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise ConfigError(f"n_samples: {samples!r} is invalid; allowed: an integer >= 1")
        _check_options(n_confidence, confidence, name="n_confidence", few=allow_few_samples)
    else:
        _check_options(samples, confidence, few=allow_few_samples)
    n = _check_rows(systems)
    names = list(systems)
    base = None
    if method is not None:
        base = baseline if baseline is not None else names[0]
        if base not in systems:
            raise ConfigError(f"baseline: {base!r} is not one of {', '.join(names)}")
        if len(names) < 2:
            raise ConfigError("a paired test needs at least two systems")
    return _Plan(method, samples, n_confidence, seed, confidence, base, n)


def paired_tests(
    metric: Metric[Any],
    systems: Mapping[str, Sequence[Row]],
    *,
    baseline: str | None = None,
    method: str | None = "bs",
    n_samples: int | None = None,
    n_confidence: int = 1000,
    seed: int | None = 12345,
    confidence: float = 0.95,
    allow_few_samples: bool = False,
) -> SignificanceResult:
    """Intervals for every system and, with a ``method``, p-values against the baseline.

    Args:
        metric: The metric that made the rows.
        systems: Per system name (in order), each segment's statistics row; every system has
            the same segments in the same order.
        baseline: The system the others are tested against (default: the first).
        method: ``"bs"`` (paired bootstrap), ``"ar"`` (approximate randomisation) or ``None``
            (intervals only).
        n_samples: Resamples or trials (default :data:`DEFAULT_SAMPLES` of the method).
        n_confidence: Bootstrap resamples for the intervals of ``"ar"``.
        seed: Seed of ``numpy.random.default_rng`` (``None``: fresh entropy, not reproducible).
        confidence: Interval coverage.
        allow_few_samples: Accept fewer resamples than an interval needs
            (:func:`~meteor_eval.stats.sampling.min_resamples`); for drop-ins of tools that
            accept them (sacrebleu), whose intervals are then as those tools give them.

    Raises:
        ConfigError: an unknown method or baseline, or invalid counts.
        InputError: systems with different numbers of segments, or none.
    """
    plan = _checked_plan(  # the options' errors before the rows are scored
        systems, baseline, method, n_samples, n_confidence, seed, confidence, allow_few_samples
    )
    observed = {name: _corpus_values(metric, rows) for name, rows in systems.items()}
    return _tests_of_scores(metric, systems, observed, plan)


def paired_tests_with_scores(
    metric: Metric[Any],
    systems: Mapping[str, Sequence[Row]],
    observed: Mapping[str, Mapping[str, float]],
    *,
    baseline: str | None = None,
    method: str | None = "bs",
    n_samples: int | None = None,
    n_confidence: int = 1000,
    seed: int | None = 12345,
    confidence: float = 0.95,
    allow_few_samples: bool = False,
) -> SignificanceResult:
    """:func:`paired_tests` for systems whose corpus scores are already known (a comparison's
    runs): ``observed`` holds, per system, the headline numbers (``metric.values``) of its
    corpus score over these same rows, so the rows are not scored again; the options are
    :func:`paired_tests`'.
    """
    plan = _checked_plan(
        systems, baseline, method, n_samples, n_confidence, seed, confidence, allow_few_samples
    )
    return _tests_of_scores(metric, systems, observed, plan)


def _tests_of_scores(
    metric: Metric[Any],
    systems: Mapping[str, Sequence[Row]],
    observed: Mapping[str, Mapping[str, float]],
    plan: _Plan,
) -> SignificanceResult:
    """The tests of both public functions, with their options checked (``plan``)."""
    import numpy as np

    method, samples, n_confidence, seed, confidence, base, n = plan
    names = list(systems)
    missing = [name for name in names if name not in observed]
    if missing:
        raise ConfigError(f"observed: no scores for {', '.join(missing)}")
    scores = {name: dict(observed[name]) for name in names}
    # the matrices that resampled totals are made of, asked of the metric together
    matrices = {name: metric.sample_matrix(rows) for name, rows in systems.items()}

    estimates: dict[str, dict[str, Estimate]] = {}
    if method == "ar":
        assert base is not None
        estimates = _randomisation(
            metric, matrices, scores, base, samples, n_confidence, seed, confidence, n
        )
    else:
        draws = np.random.default_rng(seed).choice(n, size=(samples, n), replace=True)
        weights = _bootstrap_weights(draws, n)
        resampled = {name: _resampled(metric, m, weights) for name, m in matrices.items()}
        for name in names:
            estimates[name] = _estimates(scores[name], resampled[name], confidence)
        if method == "bs":
            assert base is not None
            for name in names:
                if name != base:
                    estimates[name] = _with_p_values(
                        estimates[name],
                        {
                            value: _bootstrap_p(
                                resampled[name][value],
                                resampled[base][value],
                                abs(scores[name][value] - scores[base][value]),
                            )
                            for value in scores[name]
                        },
                    )
    return SignificanceResult(
        estimates,
        method,
        samples,
        n_confidence if method == "ar" else samples,
        seed,
        confidence,
        base,
    )


def _with_p_values(estimates: dict[str, Estimate], p: Mapping[str, float]) -> dict[str, Estimate]:
    return {
        value: Estimate(e.score, e.mean, e.low, e.high, p[value]) for value, e in estimates.items()
    }


def _p_value(statistics: npt.NDArray[np.float64], observed: float) -> float:
    """``(c + 1) / (N + 1)``, ``c`` = statistics at least as large as ``observed``."""
    count = int((statistics >= observed).sum())
    return (count + 1) / (len(statistics) + 1)


def _bootstrap_p(
    system: npt.NDArray[np.float64], baseline: npt.NDArray[np.float64], observed: float
) -> float:
    """Paired bootstrap p-value: resampled |differences| centred on their mean."""
    diffs = abs(system - baseline)
    return _p_value(diffs - diffs.mean(), observed)


def _randomisation(
    metric: Metric[Any],
    matrices: Mapping[str, npt.NDArray[np.float64]],
    scores: Mapping[str, Mapping[str, float]],
    base: str,
    trials: int,
    n_confidence: int,
    seed: int | None,
    confidence: float,
    n: int,
) -> dict[str, dict[str, Estimate]]:
    """Approximate randomisation against ``base``, with bootstrap intervals (see module)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    keep = rng.integers(2, size=(trials, n), dtype=bool)
    draws = rng.choice(n, size=(n_confidence, n), replace=True)
    weights = _bootstrap_weights(draws, n)
    fresh = np.random.default_rng(seed).choice(n, size=(n_confidence, n), replace=True)
    base_weights = _bootstrap_weights(fresh, n)
    keep_f = keep.astype(np.float64)
    swap_f = 1.0 - keep_f
    base_matrix = matrices[base]
    base_kept = keep_f @ base_matrix
    base_swapped = swap_f @ base_matrix
    estimates = {
        base: _estimates(scores[base], _resampled(metric, base_matrix, base_weights), confidence)
    }
    for name, matrix in matrices.items():
        if name == base:
            continue
        swapped_in = swap_f @ matrix
        # Integer statistics: what is not swapped in stays (exact); floats: their own product.
        kept = matrix.sum(axis=0) - swapped_in if metric.exact else keep_f @ matrix
        first = metric.sample_values(base_kept + swapped_in)
        second = metric.sample_values(base_swapped + kept)
        p = {
            value: _p_value(
                np.abs(first[value] - second[value]),
                abs(scores[base][value] - scores[name][value]),
            )
            for value in scores[name]
        }
        intervals = _estimates(scores[name], _resampled(metric, matrix, weights), confidence)
        estimates[name] = _with_p_values(intervals, p)
    return {name: estimates[name] for name in matrices}


def significance_signature(result: SignificanceResult) -> str:
    """The test's part of a signature: ``test:paired-bs|n:1000|seed:12345|ci:0.95``."""
    test = f"paired-{result.method}" if result.method else "bootstrap"
    parts = [f"test:{test}", f"n:{result.n_samples}"]
    if result.method == "ar":
        parts.append(f"bs:{result.n_confidence}")
    seed = "none" if result.seed is None else str(result.seed)
    parts += [f"seed:{seed}", f"ci:{result.confidence:g}"]
    return "|".join(parts)
