"""meteor-eval: METEOR (official 1.5, the 2005 paper) with BLEU and ROUGE, offline, without Java.

The public names below are imported on first use (module ``__getattr__``), so that importing one
part of the package, say :mod:`meteor_eval.compat.nltk`, does not load every metric. Each name
stays importable from here (``from meteor_eval import Meteor``, ``from meteor_eval import *``).

Example:
    >>> from meteor_eval import segment_meteor
    >>> round(segment_meteor("the cat sat on the mat", ["the cat sat on the mat"],
    ...                       flavour="paper2005").score, 4)
    0.9977
"""

from __future__ import annotations

import importlib
import warnings
from typing import TYPE_CHECKING, Any

from meteor_eval._log import attach_if_loaded
from meteor_eval._version import __version__
from meteor_eval.errors import ConfigError, InputError, MeteorEvalError, ResourceError

# The library logs (an index build, a damaged cache file) but prints nothing unless the
# application configures logging; the command line does (meteor_eval.cli._feedback). The
# package's NullHandler is attached here when logging is loaded, else by _log.get_logger.
attach_if_loaded()

if TYPE_CHECKING:
    from meteor_eval.align.alignment import Alignment
    from meteor_eval.comparison import ComparisonResult, compare
    from meteor_eval.mergeable import BleuMetric, MeteorMetric, RougeMetric
    from meteor_eval.metrics.base import Score, Signature
    from meteor_eval.metrics.bleu import Bleu, BleuConfig, BleuScore, corpus_bleu, segment_bleu
    from meteor_eval.metrics.bleu import score_from_stats as bleu_from_stats
    from meteor_eval.metrics.meteor import (
        Meteor,
        MeteorConfig,
        MeteorScore,
        corpus_meteor,
        segment_meteor,
    )
    from meteor_eval.metrics.meteor import score_from_stats as meteor_from_stats
    from meteor_eval.metrics.rouge import (
        Rouge,
        RougeConfig,
        RougeResult,
        RougeScore,
        corpus_rouge,
        segment_rouge,
    )
    from meteor_eval.metrics.rouge import score_from_stats as rouge_from_stats
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
        ("Bleu", "BleuConfig", "BleuScore", "corpus_bleu", "segment_bleu"),
        "meteor_eval.metrics.bleu",
    ),
    **dict.fromkeys(
        (
            "Meteor",
            "MeteorConfig",
            "MeteorScore",
            "corpus_meteor",
            "segment_meteor",
        ),
        "meteor_eval.metrics.meteor",
    ),
    **dict.fromkeys(
        ("Rouge", "RougeConfig", "RougeResult", "RougeScore", "corpus_rouge", "segment_rouge"),
        "meteor_eval.metrics.rouge",
    ),
    "MeteorStats": "meteor_eval.stats.meteor",
    "PerSegment": "meteor_eval.types",
}

# Public name -> (module, name there): each metric's formula of summed statistics, named after
# its metric as corpus_* and sentence_* are (every metric's module calls it score_from_stats).
_RENAMED: dict[str, tuple[str, str]] = {
    "bleu_from_stats": ("meteor_eval.metrics.bleu", "score_from_stats"),
    "meteor_from_stats": ("meteor_eval.metrics.meteor", "score_from_stats"),
    "rouge_from_stats": ("meteor_eval.metrics.rouge", "score_from_stats"),
}

# Deprecated public name -> its replacement (kept for one release, with a DeprecationWarning).
_DEPRECATED: dict[str, str] = {
    "score_from_stats": "meteor_from_stats",
    # "segment" is the project's word for one hypothesis with its references
    "sentence_bleu": "segment_bleu",
    "sentence_meteor": "segment_meteor",
    "sentence_rouge": "segment_rouge",
}
_NOTES = {"score_from_stats": " (BLEU and ROUGE have bleu_from_stats, rouge_from_stats)"}


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use and cache the name in this module."""
    if name in _DEPRECATED:
        replacement = _DEPRECATED[name]
        note = _NOTES.get(name, "")
        warnings.warn(
            f"meteor_eval.{name} is deprecated and will be removed in 0.3; use "
            f"meteor_eval.{replacement}{note}",
            DeprecationWarning,
            stacklevel=2,
        )
        return __getattr__(replacement)
    if name in _RENAMED:
        module, attribute = _RENAMED[name]
    elif name in _LAZY:
        module, attribute = _LAZY[name], name
    else:
        raise AttributeError(f"module 'meteor_eval' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | set(_RENAMED))


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
    "RougeResult",
    "RougeScore",
    "Score",
    "Signature",
    "__version__",
    "bleu_from_stats",
    "compare",
    "corpus_bleu",
    "corpus_meteor",
    "corpus_rouge",
    "meteor_from_stats",
    "rouge_from_stats",
    "segment_bleu",
    "segment_meteor",
    "segment_rouge",
]
