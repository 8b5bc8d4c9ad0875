"""Step: statistics -> score. METEOR's formula, written once for every flavour (spec 5.2).

Fmean and the fragmentation penalty are defined here and nowhere else; each flavour evaluates
them in the floating-point operation order of the tool it reproduces, so its scores are that
tool's, bit for bit:

* ``meteor15`` (the METEOR 1.5 jar): Java's IEEE semantics (J7: ``x/0`` is infinite or NaN, never
  an exception), :func:`jar_fmean` ``1 / ((1 - alpha) / P + alpha / R)``, a fragmentation of
  ``chunks / mean matched words`` that is 0 for a perfect match, and the JVM's ``Math.pow``,
  which is not correctly rounded (:func:`fragmentation_power` with ``jvm=True`` applies the
  shipped table of its differences from Python's ``math.pow``);
* ``paper2005``: the same operation order with the correctly rounded power and no perfect-match
  rule (Banerjee and Lavie, 2005);
* ``nltk``: NLTK's ``single_meteor_score``: :func:`nltk_fmean`
  ``(P * R) / (alpha * P + (1 - alpha) * R)``, fragmentation ``chunks / matches``, and any
  division by zero scores 0.0.

Every flavour's penalty is :func:`fragmentation_penalty` ``gamma * fragmentation ** beta``.
Kept apart from the scorer so that it is a pure function of a statistics record and a few
numbers: scoring stored statistics, tuning parameters and corpus pooling all go through it.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

# MeteorStats and perfect_rows are imported where used: the NLTK flavour's scores need none of
# the statistics module (nor the dataclass machinery it loads).
if TYPE_CHECKING:
    from meteor_eval.metrics.meteor.config import MeteorConfig, TunedNumbers
    from meteor_eval.stats.meteor import MeteorStats

__all__ = [
    "Components",
    "components",
    "finite",
    "fragmentation",
    "fragmentation_counts",
    "fragmentation_penalty",
    "fragmentation_power",
    "fragmentation_powers",
    "jar_fmean",
    "jar_row_scores",
    "nltk_components",
    "nltk_count_components",
    "nltk_fmean",
    "nltk_score_from_stats",
    "parameter_components",
    "score_from_stats",
    "scores_of_totals",
]


class Components(NamedTuple):
    """Every intermediate value of the formula, raw (NaN where the jar has NaN)."""

    precision: float
    recall: float
    f1: float
    fmean: float
    fragmentation: float
    penalty: float
    score: float


_ZERO = Components(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


def finite(value: float) -> float:
    """``value``, or 0.0 where it is NaN or infinite (how scores report the jar's NaN)."""
    return 0.0 if math.isnan(value) or math.isinf(value) else value


def _div(a: float, b: float) -> float:
    """IEEE division: x/0 is +-inf, 0/0 and nan/0 are NaN, never an exception."""
    if b == 0.0:
        if a == 0.0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def _java_pow(x: float, y: float) -> float:
    """``Math.pow`` semantics: pow(x, 0) = 1 (even for NaN), NaN otherwise propagates."""
    if y == 0.0:
        return 1.0
    if math.isnan(x) or math.isnan(y):
        return math.nan
    try:
        return math.pow(x, y)
    except (ValueError, OverflowError):
        if x == 0.0 and y < 0:
            return math.inf
        return math.nan


# -- Fmean ------------------------------------------------------------------------------------


def jar_fmean(precision: float, recall: float, alpha: float) -> float:
    """METEOR 1.5's Fmean ``1 / ((1 - alpha) / P + alpha / R)`` with IEEE division.

    Example:
        >>> jar_fmean(0.5, 1.0, 0.9)
        0.9090909090909091
    """
    return _div(1.0, _div(1.0 - alpha, precision) + _div(alpha, recall))


def nltk_fmean(precision: float, recall: float, alpha: float) -> float:
    """NLTK's Fmean ``(P * R) / (alpha * P + (1 - alpha) * R)``.

    Raises:
        ZeroDivisionError: the denominator is 0 (NLTK then scores 0.0).

    Example:
        >>> nltk_fmean(0.5, 1.0, 0.9)
        0.9090909090909091
    """
    return (precision * recall) / (alpha * precision + (1 - alpha) * recall)


# -- the fragmentation penalty ----------------------------------------------------------------


def fragmentation(chunks: float, matched: float, *, perfect: bool = False) -> float:
    """Chunks per mean matched unit of both sides, ``chunks / (matched / 2)``.

    ``perfect``: the segment is matched whole in one chunk and the flavour gives it no penalty
    (METEOR 1.5), so the fragmentation is 0. With no match it is NaN (no chunk) or infinity,
    as the jar's double division gives.

    Example:
        >>> fragmentation(2, 8), fragmentation(1, 8, perfect=True), fragmentation(0, 0)
        (0.5, 0.0, nan)
    """
    return 0.0 if perfect else _div(float(chunks), matched / 2.0)


def fragmentation_power(chunks: int, matched: int, beta: float, *, jvm: bool = False) -> float:
    """``(chunks / (matched / 2)) ** beta``: METEOR 1.5's fragmentation raised to ``beta``.

    Args:
        chunks: Number of chunks ``K``.
        matched: Matched hypothesis plus reference units ``S``.
        beta: The exponent.
        jvm: Give the double the jar's JVM computes. HotSpot's ``Math.pow`` is not correctly
            rounded; for a few hundred of the segment-level fragmentations (``S`` up to the
            table's bound) and each task exponent it returns a neighbour of Python's value. The
            shipped table (:mod:`meteor_eval.resources.jvm_pow`) lists those cases with the
            difference in ulps. Outside it (other exponents, longer segments, pooled corpus
            statistics) the correctly rounded value is the answer, which can differ from the
            jar's in the last bit.
    """
    value = math.pow(chunks / (matched / 2.0), beta)
    if not jvm:
        return value
    from meteor_eval.resources.jvm_pow import jvm_pow_correction

    ulps = jvm_pow_correction(beta, matched, chunks)
    if not ulps:
        return value
    bits = struct.unpack(">q", struct.pack(">d", value))[0] + ulps
    return float(struct.unpack(">d", struct.pack(">q", bits))[0])


def fragmentation_penalty(
    fragmentation: float,
    *,
    beta: float,
    gamma: float,
    jvm_counts: tuple[int, int] | None = None,
) -> float:
    """``gamma * fragmentation ** beta`` with ``Math.pow`` semantics (NaN propagates).

    Args:
        fragmentation: Chunks per matched unit (METEOR 1.5: per mean matched unit of both sides).
        beta: The exponent.
        gamma: The maximum penalty.
        jvm_counts: ``(chunks, matched units of both sides)`` to reproduce the JVM's power
            (:func:`fragmentation_power`); only a finite, positive fragmentation has one.

    Example:
        >>> fragmentation_penalty(1.0, beta=3.0, gamma=0.5)
        0.5
    """
    if jvm_counts is not None and 0.0 < fragmentation < math.inf and beta != 0.0:
        chunks, matched = jvm_counts
        if chunks > 0:
            return gamma * fragmentation_power(chunks, matched, beta, jvm=True)
    return gamma * _java_pow(fragmentation, beta)


def fragmentation_powers(
    counts: Iterable[Sequence[int]], beta: float, *, meteor15: bool
) -> list[float]:
    """``fragmentation ** beta`` of each ``(chunks, matched units, perfect)``, for many rows.

    Bit for bit the power in :func:`components` (``gamma`` 1: ``1.0 * x == x``), for the
    re-scoring and batch paths that compute each distinct triple once
    (:func:`fragmentation_counts`). ``meteor15``: a perfect segment's fragmentation is 0
    (:func:`fragmentation`) and the power is the JVM's (:func:`fragmentation_power`);
    otherwise ``perfect`` is ignored and the power is correctly rounded.
    """
    return [
        fragmentation_penalty(
            fragmentation(chunks, matched, perfect=meteor15 and bool(perfect)),
            beta=beta,
            gamma=1.0,
            jvm_counts=(chunks, matched) if meteor15 else None,
        )
        for chunks, matched, perfect in counts
    ]


def fragmentation_counts(rows: Any) -> Any:
    """The ``(chunks, matched units of both sides, perfect)`` triple of each row of an
    ``(n, 23)`` int64 block in the jar's order (``perfect``: 0 or 1, by
    :func:`~meteor_eval.stats.meteor.perfect_rows`): all that the fragmentation power of a row
    reads, for the paths that compute :func:`fragmentation_powers` once per distinct triple."""
    import numpy as np

    from meteor_eval.stats.meteor import perfect_rows

    perfect = perfect_rows(rows)
    return np.stack([rows[:, 20], rows[:, 21] + rows[:, 22], perfect.astype(np.int64)], axis=1)


# -- the flavours' formulas -------------------------------------------------------------------


def _weighted_sums(
    lengths: tuple[Any, Any, Any, Any],
    stages: Sequence[Sequence[Any]],
    weights: Sequence[float],
    delta: float,
) -> tuple[Any, Any, Any, Any]:
    """Weighted lengths and weighted matches of both sides, in the jar's operation order.

    ``delta * content + (1 - delta) * function`` for each side's length; matches summed stage by
    stage with their weights, content first, then function. The numbers are floats for one
    record (:func:`components`) or NumPy columns for many (:func:`scores_of_totals`): the same
    operations either way.

    Args:
        lengths: Hypothesis length, reference length, hypothesis and reference function words.
        stages: Per stage: content and function matches of the hypothesis and the reference
            (the statistics record's order: hyp content, ref content, hyp function, ref function).
        weights: Scoring weight per stage; stages past the last weight are not counted.
        delta: Content-word weight.

    Returns:
        ``(hyp_lw, ref_lw, hyp_mw, ref_mw)``.
    """
    hyp_length, ref_length, hyp_function, ref_function = lengths
    one_minus_delta = 1.0 - delta
    hyp_lw = (delta * (hyp_length - hyp_function)) + (one_minus_delta * hyp_function)
    ref_lw = (delta * (ref_length - ref_function)) + (one_minus_delta * ref_function)
    hyp_mw: Any = 0.0
    ref_mw: Any = 0.0
    for s, w in enumerate(weights):
        counts = stages[s]
        hyp_mw = hyp_mw + (counts[0] * w) * delta
        ref_mw = ref_mw + (counts[1] * w) * delta
    for s, w in enumerate(weights):
        counts = stages[s]
        hyp_mw = hyp_mw + (counts[2] * w) * one_minus_delta
        ref_mw = ref_mw + (counts[3] * w) * one_minus_delta
    return hyp_lw, ref_lw, hyp_mw, ref_mw


def components(
    stats: MeteorStats,
    *,
    alpha: float,
    beta: float,
    gamma: float,
    delta: float,
    weights: Sequence[float],
    zero_penalty_if_perfect: bool = True,
    jvm_pow: bool = False,
) -> Components:
    """Precision, recall, Fmean, fragmentation, penalty and score, as the METEOR 1.5 jar does.

    The order of floating-point operations follows the jar, so results are bit-identical:
    weighted lengths ``delta * content + (1 - delta) * function``, weighted matches summed stage by
    stage (content first, then function), :func:`jar_fmean`, :func:`fragmentation_penalty` and
    ``score = Fmean * (1 - penalty)``, NaN mapped to 0.

    Args:
        stats: The statistics (one segment or a pooled sum).
        alpha: Precision/recall balance.
        beta: Exponent of the fragmentation penalty.
        gamma: Maximum penalty.
        delta: Content-word weight (function words get ``1 - delta``).
        weights: Scoring weight per stage; stages past the last weight are not counted.
        zero_penalty_if_perfect: METEOR 1.5's rule that fragmentation is 0 when every unit of
            both sides is matched in one chunk (off for the 2005 paper's formula).
        jvm_pow: Reproduce the jar's JVM ``Math.pow`` (not correctly rounded) for segment-level
            fragmentations, so that printed digits equal the jar's.
    """
    hyp_lw, ref_lw, hyp_mw, ref_mw = _weighted_sums(
        (stats.hyp_length, stats.ref_length, stats.hyp_function, stats.ref_function),
        stats.stages,
        weights,
        delta,
    )
    precision = _div(hyp_mw, hyp_lw)
    recall = _div(ref_mw, ref_lw)
    f1 = _div(2.0 * precision * recall, precision + recall)
    fmean = jar_fmean(precision, recall, alpha)
    matched = stats.hyp_matched + stats.ref_matched
    frag = fragmentation(
        stats.chunks, matched, perfect=zero_penalty_if_perfect and stats.is_perfect
    )
    penalty = fragmentation_penalty(
        frag, beta=beta, gamma=gamma, jvm_counts=(stats.chunks, matched) if jvm_pow else None
    )
    score = fmean * (1.0 - penalty)
    score = 0.0 if math.isnan(score) else max(score, 0.0)
    return Components(precision, recall, f1, fmean, frag, penalty, score)


def nltk_components(
    stats: MeteorStats, *, alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5
) -> Components:
    """NLTK's formula in ``single_meteor_score``'s operation order (its score, bit for bit).

    Precision and recall are ``float(m) / n``, :func:`nltk_fmean`, fragmentation ``chunks / m``,
    :func:`fragmentation_penalty`, score ``(1 - penalty) * Fmean``; no match, an empty side or
    any other division by zero gives 0.0 everywhere.
    """
    return nltk_count_components(
        stats.hyp_matched,
        stats.chunks,
        stats.hyp_length,
        stats.ref_length,
        alpha=alpha,
        beta=beta,
        gamma=gamma,
    )


def nltk_count_components(
    matched: int,
    chunks: int,
    hyp_length: int,
    ref_length: int,
    *,
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
) -> Components:
    """:func:`nltk_components` from the four numbers it reads (no statistics record needed).

    Example:
        >>> round(nltk_count_components(6, 1, 6, 6).score, 4)
        0.9977
    """
    if matched == 0 or hyp_length == 0 or ref_length == 0:
        return _ZERO
    precision = float(matched) / hyp_length
    recall = float(matched) / ref_length
    try:
        fmean = nltk_fmean(precision, recall, alpha)
    except ZeroDivisionError:
        return _ZERO
    f1 = 2 * precision * recall / (precision + recall)
    fragmentation = float(chunks) / matched
    penalty = fragmentation_penalty(fragmentation, beta=beta, gamma=gamma)
    return Components(
        precision, recall, f1, fmean, fragmentation, penalty, float((1 - penalty) * fmean)
    )


def nltk_score_from_stats(
    stats: MeteorStats, *, alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5
) -> float:
    """NLTK's sentence score from a statistics record, bit-identical to NLTK.

    Args:
        stats: One pair's statistics (a pooled record gives the "pooled" variant, which NLTK
            itself never computes).
        alpha: Precision/recall balance.
        beta: Exponent of the fragmentation penalty.
        gamma: Weight of the penalty.

    Example:
        >>> from meteor_eval.stats.meteor import MeteorStats
        >>> s = MeteorStats(6, 6, 0, 0, ((6, 6, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0)), 1, 6, 6)
        >>> round(nltk_score_from_stats(s), 4)
        0.9977
    """
    return nltk_components(stats, alpha=alpha, beta=beta, gamma=gamma).score


def parameter_components(
    stats: MeteorStats,
    params: TunedNumbers,
    *,
    zero_penalty_if_perfect: bool,
    jvm_pow: bool = False,
) -> Components:
    """:func:`components` of ``stats`` under the alpha, beta, gamma, delta and weights of
    ``params`` (a configuration or a tuning point), so that those five are read off such an
    object in one place."""
    return components(
        stats,
        alpha=params.alpha,
        beta=params.beta,
        gamma=params.gamma,
        delta=params.delta,
        weights=params.weights,
        zero_penalty_if_perfect=zero_penalty_if_perfect,
        jvm_pow=jvm_pow,
    )


def score_from_stats(stats: MeteorStats, config: MeteorConfig) -> Components:
    """The formula's raw components for a statistics record under a configuration."""
    if config.flavour == "nltk":
        return nltk_components(stats, alpha=config.alpha, beta=config.beta, gamma=config.gamma)
    return parameter_components(
        stats,
        config,
        zero_penalty_if_perfect=config.zero_penalty_if_perfect,
        jvm_pow=config.flavour == "meteor15",
    )


def scores_of_totals(totals: Any, config: MeteorConfig) -> Any:
    """The ``meteor15``/``paper2005`` score of many statistics rows at once (NumPy).

    The vectorised twin of :func:`components` for resampling (one row of the 23 numbers per
    resampled corpus): :func:`_weighted_sums` itself, then :func:`jar_fmean`,
    :func:`fragmentation_penalty` and the score in the same operations on whole columns, so
    results are within an ulp of the scalar formula. The JVM power table is not applied: it
    covers segment-sized counts, and pooled totals are beyond it.

    Args:
        totals: An array of statistics rows (:meth:`MeteorStats.to_row` order).
        config: A ``meteor15`` or ``paper2005`` configuration.

    Returns:
        One score per row, NaN mapped to 0.
    """
    import numpy as np

    from meteor_eval.stats.meteor import perfect_rows

    data = np.asarray(totals, dtype=np.float64)
    n = min(len(config.weights), 4)
    stages = [tuple(data[:, 4 + 4 * k + i] for i in range(4)) for k in range(n)]
    lengths = (data[:, 0], data[:, 1], data[:, 2], data[:, 3])
    hyp_lw, ref_lw, hyp_mw, ref_mw = _weighted_sums(
        lengths, stages, config.weights[:n], config.delta
    )
    chunks, matched = data[:, 20], data[:, 21] + data[:, 22]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        precision = hyp_mw / hyp_lw
        recall = ref_mw / ref_lw
        fmean = 1.0 / ((1.0 - config.alpha) / precision + config.alpha / recall)
        frag = chunks / (matched / 2.0)
        if config.zero_penalty_if_perfect:
            frag = np.where(perfect_rows(data), 0.0, frag)
        penalty = config.gamma * np.power(frag, config.beta)
        score = fmean * (1.0 - penalty)
    return np.where(np.isnan(score), 0.0, np.maximum(score, 0.0))


def jar_row_scores(rows: Any, config: MeteorConfig) -> Any:
    """The ``meteor15`` score of every statistics row at once, bit for bit the scalar formula.

    The score of :func:`score_from_stats` for each row of an ``(n, 23)`` int64 block in the
    jar's order (:data:`~meteor_eval.stats.meteor.ROW_COLUMNS`), for choosing each segment's best
    reference among many rows (the caption metrics' batch path): :func:`_weighted_sums` on whole
    columns, the fragmentation power computed once per distinct ``(chunks, matched, perfect)``
    with the scalar :func:`fragmentation_penalty` (the JVM's power), then Fmean and the score in
    the scalar's operation order (``tuning.rescore`` does the same for many parameter sets).

    Args:
        rows: Statistics rows (whole, non-negative counts).
        config: A ``meteor15`` configuration with one to four modules.
    """
    import numpy as np

    ints = np.asarray(rows, dtype=np.int64).reshape(-1, 23)
    cols = ints.astype(np.float64)
    n = len(config.weights)
    lengths = (cols[:, 0], cols[:, 1], cols[:, 2], cols[:, 3])
    stages = [tuple(cols[:, 4 + 4 * s + i] for i in range(4)) for s in range(n)]
    hyp_lw, ref_lw, hyp_mw, ref_mw = _weighted_sums(lengths, stages, config.weights, config.delta)
    distinct, inverse = np.unique(fragmentation_counts(ints), axis=0, return_inverse=True)
    powers = np.array(
        fragmentation_powers(distinct.tolist(), config.beta, meteor15=True), dtype=np.float64
    )
    penalty = config.gamma * powers[inverse.reshape(-1)]
    alpha = config.alpha
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        precision = hyp_mw / hyp_lw
        recall = ref_mw / ref_lw
        fmean = 1.0 / ((1.0 - alpha) / precision + alpha / recall)
        score = fmean * (1.0 - penalty)
    # the scalar's ``0.0 if isnan(score) else max(score, 0.0)``
    return np.where(np.isnan(score), 0.0, np.where(score < 0.0, 0.0, score))
