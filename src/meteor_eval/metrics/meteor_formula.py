"""METEOR's score from statistics (spec section 5.2), with Java's IEEE semantics (J7).

Kept apart from the metric class so that it is a pure function of a statistics record and a few
numbers: scoring stored statistics, tuning parameters and corpus pooling all go through it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from meteor_eval.stats.meteor import MeteorStats

__all__ = ["Components", "components"]


class Components(NamedTuple):
    """Every intermediate value of the formula, raw (NaN where the jar has NaN)."""

    precision: float
    recall: float
    f1: float
    fmean: float
    fragmentation: float
    penalty: float
    score: float


def _div(a: float, b: float) -> float:
    """IEEE division: x/0 is +-inf, 0/0 and nan/0 are NaN, never an exception."""
    if b == 0.0:
        if a == 0.0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def _pow(x: float, y: float) -> float:
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
    """Precision, recall, Fmean, fragmentation, penalty and score of a statistics record.

    The order of floating-point operations follows the jar, so results are bit-identical:
    weighted lengths ``delta * content + (1 - delta) * function``, weighted matches summed stage by
    stage (content first, then function), ``Fmean = 1 / ((1 - alpha) / P + alpha / R)``,
    ``penalty = gamma * frag ** beta`` and ``score = Fmean * (1 - penalty)``, NaN mapped to 0.

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
    one_minus_delta = 1.0 - delta
    hyp_lw = (delta * (stats.hyp_length - stats.hyp_function)) + (
        one_minus_delta * stats.hyp_function
    )
    ref_lw = (delta * (stats.ref_length - stats.ref_function)) + (
        one_minus_delta * stats.ref_function
    )
    stages = stats.stages
    hyp_mw = 0.0
    ref_mw = 0.0
    for s, w in enumerate(weights):
        counts = stages[s]
        hyp_mw += (counts[0] * w) * delta
        ref_mw += (counts[1] * w) * delta
    for s, w in enumerate(weights):
        counts = stages[s]
        hyp_mw += (counts[2] * w) * one_minus_delta
        ref_mw += (counts[3] * w) * one_minus_delta
    precision = _div(hyp_mw, hyp_lw)
    recall = _div(ref_mw, ref_lw)
    f1 = _div(2.0 * precision * recall, precision + recall)
    fmean = _div(1.0, _div(1.0 - alpha, precision) + _div(alpha, recall))
    if zero_penalty_if_perfect and stats.is_perfect:
        frag = 0.0
    else:
        frag = _div(float(stats.chunks), (stats.hyp_matched + stats.ref_matched) / 2.0)
    matched = stats.hyp_matched + stats.ref_matched
    if jvm_pow and frag > 0.0 and not math.isinf(frag) and beta != 0.0 and stats.chunks > 0:
        from meteor_eval.resources.jvm_pow import jvm_fragmentation_pow

        penalty = gamma * jvm_fragmentation_pow(stats.chunks, matched, beta)
    else:
        penalty = gamma * _pow(frag, beta)
    score = fmean * (1.0 - penalty)
    if math.isnan(score):
        score = 0.0
    else:
        score = max(score, 0.0)
    return Components(precision, recall, f1, fmean, frag, penalty, score)
