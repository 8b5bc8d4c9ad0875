"""Step: score -> signature. The reproducibility signature of a METEOR configuration.

Every field that can change a score is recorded, in a fixed order (version last): flavour,
language, task, normalisation, tokenizer, case, the unit (``unit:char`` for character-based
precision and recall, absent for words), modules and their weights, the parameters, the
aligner, the resource ids, the number of references, the multi-reference rule and the
aggregation. Resource ids come from the function-word list and each module's declaration in
:mod:`meteor_eval.match.registry` (the ``nltk`` flavour names NLTK's Porter stemmer and WordNet
view instead). ``docs/`` maps the fields onto Meteor 1.5's Eval ID (:attr:`MeteorConfig.eval_id
<meteor_eval.metrics.meteor.config.MeteorConfig.eval_id>`) and sacrebleu's signature.
"""

from __future__ import annotations

from pathlib import Path

from meteor_eval.match import registry as matchers
from meteor_eval.metrics.base import Signature, SignatureField, format_number
from meteor_eval.metrics.meteor.config import MeteorConfig
from meteor_eval.metrics.meteor.pipeline import Pipeline
from meteor_eval.metrics.meteor.presets import NORMALIZATION_LABELS

__all__ = ["build_signature", "resource_ids"]

_ALIGNER_LABELS = {"paper2005": "exhaustive", "nltk": "greedy"}


def _tokenizer_label(config: MeteorConfig) -> str:
    if config.tokenizer != "default":
        return config.tokenizer
    return "nltk" if config.flavour == "nltk" else "meteor15"


def resource_ids(pipeline: Pipeline) -> str:
    """The ids of every resource a pipeline scores with, comma-separated (``none`` if none)."""
    config = pipeline.config
    ids: list[str] = []
    if pipeline.nltk is not None:
        from meteor_eval.resources.nltk_porter import nltk_porter_spec
        from meteor_eval.resources.wordnet import wordnet_spec

        if len(config.modules) >= 2:
            ids.append(nltk_porter_spec().short_id)
        if len(config.modules) >= 3:
            ids.append(wordnet_spec().short_id)
        return ",".join(ids) if ids else "none"
    if pipeline.function_words:
        from meteor_eval.resources.function_words import function_words_spec

        path = config.function_words_file
        ids.append(function_words_spec("english", None if path is None else Path(path)).short_id)
    for name, matcher in zip(config.modules, pipeline.matchers, strict=True):
        ids.extend(matchers.get(name).resources(pipeline.context, matcher))
    return ",".join(ids) if ids else "none"


def build_signature(config: MeteorConfig, n_refs: str, resources: str) -> Signature:
    """The signature of ``config`` for ``n_refs`` references scored with ``resources``."""
    fields = [
        SignatureField("flavour", "f", config.flavour),
        SignatureField("lang", "l", config.lang.short_name),
        SignatureField("task", "t", config.task),
        SignatureField("norm", "n", NORMALIZATION_LABELS[config.normalization]),
        SignatureField("tok", "tok", _tokenizer_label(config)),
        SignatureField("case", "c", "mixed" if config.normalization == "none" else "lc"),
        # only when set, so that word-based signatures stay as they were
        *([SignatureField("unit", "u", "char")] if config.characters else []),
        SignatureField("modules", "m", "+".join(config.modules)),
        SignatureField("weights", "w", "+".join(format_number(w) for w in config.weights)),
        SignatureField("alpha", "a", format_number(config.alpha)),
        SignatureField("beta", "b", format_number(config.beta)),
        SignatureField("gamma", "g", format_number(config.gamma)),
        SignatureField("delta", "d", format_number(config.delta)),
        *([SignatureField("params", "p", config.params_id)] if config.params_id else []),
        SignatureField("aligner", "al", _ALIGNER_LABELS.get(config.flavour, f"beam{config.beam}")),
        SignatureField("resources", "r", resources),
        SignatureField("nrefs", "nr", n_refs),
        SignatureField("multiref", "mr", "best"),
        SignatureField("aggregate", "agg", config.aggregate),
    ]
    return Signature("meteor", tuple(fields))
