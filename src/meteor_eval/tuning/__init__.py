"""Tuning METEOR's parameters against human judgements, without aligning again.

METEOR 1.5's parameters (alpha, beta, gamma, delta and one weight per module) were chosen by the
jar's ``Trainer``: align every segment once, keep its 23-number statistics, then re-score those
statistics over a grid of parameter sets and keep the set that agrees best with human judgements.
The statistics already hold every count a parameter set needs (matches per module stage, content
and function words, chunks), so a re-score is a few vector operations over a matrix of rows.

=============  ==================================================================================
``rescore``    :class:`TuningParams`, the statistics matrix, vectorised segment and system scores
               bit-identical with the scalar formula, many parameter sets at once
=============  ==================================================================================
"""

from __future__ import annotations

from meteor_eval.tuning.rescore import (
    PreparedStats,
    TuningParams,
    prepare_stats,
    segment_scores,
    segment_scores_grid,
    stats_matrix,
    system_scores,
)

__all__ = [
    "PreparedStats",
    "TuningParams",
    "prepare_stats",
    "segment_scores",
    "segment_scores_grid",
    "stats_matrix",
    "system_scores",
]
