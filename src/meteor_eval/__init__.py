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
from meteor_eval.metrics.bleu import Bleu, BleuConfig, BleuScore, corpus_bleu, sentence_bleu
from meteor_eval.metrics.meteor import (
    Meteor,
    MeteorConfig,
    MeteorScore,
    corpus_meteor,
    score_from_stats,
    sentence_meteor,
)
from meteor_eval.metrics.rouge import (
    Rouge,
    RougeConfig,
    RougeScore,
    corpus_rouge,
    sentence_rouge,
)
from meteor_eval.stats.meteor import MeteorStats

__all__ = [
    "Alignment",
    "Bleu",
    "BleuConfig",
    "BleuScore",
    "ConfigError",
    "InputError",
    "Meteor",
    "MeteorConfig",
    "MeteorEvalError",
    "MeteorScore",
    "MeteorStats",
    "ResourceError",
    "Rouge",
    "RougeConfig",
    "RougeScore",
    "Score",
    "Signature",
    "__version__",
    "corpus_bleu",
    "corpus_meteor",
    "corpus_rouge",
    "score_from_stats",
    "sentence_bleu",
    "sentence_meteor",
    "sentence_rouge",
]
