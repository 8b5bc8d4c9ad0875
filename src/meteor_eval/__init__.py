"""meteor-eval: METEOR (official 1.5, the 2005 paper) with BLEU and ROUGE, offline, without Java.

Example:
    >>> from meteor_eval import sentence_meteor
    >>> round(sentence_meteor("the cat sat on the mat", ["the cat sat on the mat"],
    ...                       flavour="paper2005").score, 4)
    0.9977
"""

from meteor_eval._version import __version__
from meteor_eval.align.alignment import Alignment
from meteor_eval.errors import ConfigError, InputError, MeteorEvalError, ResourceError
from meteor_eval.metrics.base import Score, Signature
from meteor_eval.metrics.meteor import (
    Meteor,
    MeteorConfig,
    MeteorScore,
    corpus_meteor,
    score_from_stats,
    sentence_meteor,
)
from meteor_eval.stats.meteor import MeteorStats

__all__ = [
    "Alignment",
    "ConfigError",
    "InputError",
    "Meteor",
    "MeteorConfig",
    "MeteorEvalError",
    "MeteorScore",
    "MeteorStats",
    "ResourceError",
    "Score",
    "Signature",
    "__version__",
    "corpus_meteor",
    "score_from_stats",
    "sentence_meteor",
]
