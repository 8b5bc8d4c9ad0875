"""meteor-eval: METEOR (official 1.5, the 2005 paper) with BLEU and ROUGE, offline, without Java.

The public names below are imported on first use (module ``__getattr__``), so that importing one
part of the package, say :mod:`meteor_eval.compat.nltk`, does not load every metric. Each name
stays importable from here (``from meteor_eval import Meteor``, ``from meteor_eval import *``).

Example:
    >>> from meteor_eval import sentence_meteor
    >>> round(sentence_meteor("the cat sat on the mat", ["the cat sat on the mat"],
    ...                       flavour="paper2005").score, 4)
    0.9977
"""

from __future__ import annotations

import importlib
import logging
from typing import TYPE_CHECKING, Any

from meteor_eval._version import __version__
from meteor_eval.errors import ConfigError, InputError, MeteorEvalError, ResourceError

# The library logs (an index build, a damaged cache file) but prints nothing unless the
# application configures logging; the command line does (meteor_eval.cli._feedback).
logging.getLogger(__name__).addHandler(logging.NullHandler())

if TYPE_CHECKING:
    from meteor_eval.align.alignment import Alignment
    from meteor_eval.comparison import ComparisonResult, compare
    from meteor_eval.mergeable import BleuMetric, MeteorMetric, RougeMetric
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
    from meteor_eval.types import PerSegment

# Public name -> the module that defines it, imported when the name is first used.
_LAZY: dict[str, str] = {
    "Alignment": "meteor_eval.align.alignment",
    "ComparisonResult": "meteor_eval.comparison",
    "compare": "meteor_eval.comparison",
    **dict.fromkeys(("BleuMetric", "MeteorMetric", "RougeMetric"), "meteor_eval.mergeable"),
    "Score": "meteor_eval.metrics.base",
    "Signature": "meteor_eval.metrics.base",
    **dict.fromkeys(
        ("Bleu", "BleuConfig", "BleuScore", "corpus_bleu", "sentence_bleu"),
        "meteor_eval.metrics.bleu",
    ),
    **dict.fromkeys(
        (
            "Meteor",
            "MeteorConfig",
            "MeteorScore",
            "corpus_meteor",
            "score_from_stats",
            "sentence_meteor",
        ),
        "meteor_eval.metrics.meteor",
    ),
    **dict.fromkeys(
        ("Rouge", "RougeConfig", "RougeScore", "corpus_rouge", "sentence_rouge"),
        "meteor_eval.metrics.rouge",
    ),
    "MeteorStats": "meteor_eval.stats.meteor",
    "PerSegment": "meteor_eval.types",
}


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use and cache the name in this module."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'meteor_eval' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "Alignment",
    "Bleu",
    "BleuConfig",
    "BleuMetric",
    "BleuScore",
    "ComparisonResult",
    "ConfigError",
    "InputError",
    "Meteor",
    "MeteorConfig",
    "MeteorEvalError",
    "MeteorMetric",
    "MeteorScore",
    "MeteorStats",
    "PerSegment",
    "ResourceError",
    "Rouge",
    "RougeConfig",
    "RougeMetric",
    "RougeScore",
    "Score",
    "Signature",
    "__version__",
    "compare",
    "corpus_bleu",
    "corpus_meteor",
    "corpus_rouge",
    "score_from_stats",
    "sentence_bleu",
    "sentence_meteor",
    "sentence_rouge",
]
