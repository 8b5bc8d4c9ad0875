"""METEOR: the metric, its flavours and every step from text to score, one module per step.

Flavours:

``meteor15`` (default)
    The official METEOR 1.5 (Denkowski and Lavie, 2014) as its ``meteor-1.5.jar`` computes it:
    the jar's normaliser and tokeniser, Java string-hash word identity, function-word weighting
    (``delta``), positional module weights, the beam-search aligner with its quirks, and the
    23-number statistics. Reproduced bit for bit (see ``tests/reference``).
``paper2005``
    Banerjee and Lavie (2005): exact, then Porter stem, then WordNet synonym matching, each stage
    choosing, among the still-unmatched words, the one-to-one mapping with the most matches and
    then the fewest crossings; ``Fmean = P*R / (alpha*P + (1-alpha)*R)`` with alpha 0.9 and
    ``penalty = gamma * (chunks / matches) ** beta`` with beta 3, gamma 0.5; every match counts 1
    and there is no function-word weighting. Unlike METEOR 1.5, an identical pair still has one
    chunk and so a small penalty (0.9977 for six words).
``nltk``
    NLTK's ``meteor_score`` (:mod:`meteor_eval.metrics.meteor.nltk`), bit for bit.

The steps, in data-flow order:

=============  ==================================================================================
``presets``    languages, task tables and flavour defaults (spec 2.1 to 2.3)
``config``     :class:`MeteorConfig` and its validation
``pipeline``   text -> tokens -> matches -> alignment -> statistics for one segment
``fast``       the same steps in one compiled call per pair, for batches
``nltk``       the ``nltk`` flavour's matching and statistics
``formula``    statistics -> score: Fmean and the fragmentation penalty, written once
``signature``  the reproducibility signature
``scorer``     :class:`Meteor` (the metric protocol), :class:`MeteorScore`, the plain functions
=============  ==================================================================================

Matcher modules are declared in :mod:`meteor_eval.match.registry`.

References:
    S. Banerjee and A. Lavie. METEOR: An Automatic Metric for MT Evaluation with Improved
    Correlation with Human Judgments. ACL Workshop on Intrinsic and Extrinsic Evaluation
    Measures, 2005.
    M. Denkowski and A. Lavie. Meteor Universal: Language Specific Translation Evaluation for
    Any Target Language. WMT 2014.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meteor_eval._lazy import lazy_names

if TYPE_CHECKING:
    from meteor_eval.metrics.meteor.config import (
        Aggregate,
        Flavour,
        MeteorConfig,
        Normalization,
        Tokenizer,
    )
    from meteor_eval.metrics.meteor.formula import Components, score_from_stats
    from meteor_eval.metrics.meteor.pipeline import pool_stats
    from meteor_eval.metrics.meteor.scorer import (
        Meteor,
        MeteorScore,
        corpus_meteor,
        segment_meteor,
        sentence_meteor,
    )

# Public name -> the step module that defines it, imported when the name is first used: a
# module that needs one step (the nltk flavour needs ``formula`` and ``nltk``) does not load
# the compiled batch path, its NumPy and the pipeline with it.
_LAZY: dict[str, str] = {
    **dict.fromkeys(
        ("Aggregate", "Flavour", "MeteorConfig", "Normalization", "Tokenizer"),
        "meteor_eval.metrics.meteor.config",
    ),
    "Components": "meteor_eval.metrics.meteor.formula",
    "score_from_stats": "meteor_eval.metrics.meteor.formula",
    "pool_stats": "meteor_eval.metrics.meteor.pipeline",
    **dict.fromkeys(
        ("Meteor", "MeteorScore", "corpus_meteor", "segment_meteor", "sentence_meteor"),
        "meteor_eval.metrics.meteor.scorer",
    ),
}


__getattr__, __dir__ = lazy_names(__name__, globals(), _LAZY)


__all__ = [
    "Aggregate",
    "Components",
    "Flavour",
    "Meteor",
    "MeteorConfig",
    "MeteorScore",
    "Normalization",
    "Tokenizer",
    "corpus_meteor",
    "pool_stats",
    "score_from_stats",
    "segment_meteor",
    "sentence_meteor",
]
