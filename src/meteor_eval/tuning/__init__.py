"""Tuning METEOR's parameters against human judgements, without aligning again.

METEOR 1.5's parameters (alpha, beta, gamma, delta and one weight per module) were chosen by the
jar's ``Trainer``: align every segment once, keep its 23-number statistics, then re-score those
statistics over a grid of parameter sets and keep the set that agrees best with human judgements.
The statistics already hold every count a parameter set needs (matches per module stage, content
and function words, chunks), so a re-score is a few vector operations over a matrix of rows.

=============  ==================================================================================
``rescore``    :class:`TuningParams`, the statistics matrix, vectorised segment and system scores
               bit-identical with the scalar formula, many parameter sets at once
``grid``       the jar Trainer's grid: accumulated axis values, its order, blocks of sets
``agreement``  agreement with human judgements in the jar's operation order: weighted Pearson,
               Spearman, rank consistency
``data``       judged translations read from a table or plain files, aligned once
``objectives`` the measures ``meteor-eval train`` maximises: Kendall tau-b, WMT's tau-like,
               Pearson, Spearman, weighted mixes averaged over language pairs
``problem``    rows, judgements and objective as one function of the parameters
``search``     the grid and coordinate descent with seeded restarts
``crossval``   leave one language pair out
``paramfile``  the parameter files ``train`` writes and ``score --params`` reads
=============  ==================================================================================

``meteor-eval jar-compat Trainer`` (:mod:`meteor_eval.jar.trainer`) runs the jar's Trainer on
these; ``meteor-eval train`` (``docs/tuning.md``) is this project's own tuning command.
"""

from __future__ import annotations

from meteor_eval.tuning.paramfile import ParamsFile, read_params
from meteor_eval.tuning.rescore import (
    PreparedStats,
    TuningParams,
    block_scores,
    prepare_stats,
    segment_scores,
    segment_scores_grid,
    stats_matrix,
    system_scores,
)

__all__ = [
    "ParamsFile",
    "PreparedStats",
    "TuningParams",
    "block_scores",
    "prepare_stats",
    "read_params",
    "segment_scores",
    "segment_scores_grid",
    "stats_matrix",
    "system_scores",
]
