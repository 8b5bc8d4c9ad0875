"""rouge-score's ``RougeScorer``, computed by meteor-eval, with ROUGE-W, S and SU besides.

``RougeScorer(rouge_types, use_stemmer=False, split_summaries=False, tokenizer=None)`` scores a
prediction against one target (``score(target, prediction)``) or several (``score_multi``) and
returns ``{type: Score(precision, recall, fmeasure)}`` exactly as rouge-score 0.1.2: the same
tokenizer, Porter stemmer, ROUGE-N/L/Lsum counts and F-measure (checked against rouge-score on
the xray and newstest2009 data in ``tests/reference``). Arguments keep rouge-score's order:
the *target* (reference) first, then the prediction.

Types: ``rouge1`` to ``rouge9``, ``rougeL``, ``rougeLsum`` (sentences are the lines of the text,
or NLTK's ``sent_tokenize`` with ``split_summaries=True``, which then needs NLTK and its Punkt
data), and meteor-eval's ``rougeW``, ``rougeS`` and ``rougeSU`` as ROUGE-1.5.5 computes them per
segment (weight 1.2, skip distance 4; see :mod:`meteor_eval.metrics.rouge`).

Where this differs from rouge-score: an invalid type raises ``ValueError`` when the scorer is
built (rouge-score: at the first ``score``). With several targets the target with the best
F-measure is kept for every type, the first on a tie (rouge-score's rule; meteor-eval's native
ROUGE-W/S/SU keep the best recall, as ROUGE-1.5.5 ``-f B``). With the default tokenizer,
ROUGE-W/S/SU tokenize as ROUGE-1.5.5 does (ASCII lowercasing), as the native metric; with a
custom ``tokenizer`` every type uses it.

Example:
    >>> from meteor_eval.compat.rouge_score import rouge_scorer
    >>> scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
    >>> scores = scorer.score("The quick brown fox jumps over the lazy dog",
    ...                       "The quick brown dog jumps on the log.")
    >>> scores["rouge1"]
    Score(precision=0.75, recall=0.6666666666666666, fmeasure=0.7058823529411765)
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from meteor_eval.compat.rouge_score import tokenizers
from meteor_eval.compat.rouge_score.scoring import BaseScorer, Score
from meteor_eval.metrics.rouge import (
    ROUGE155_TYPES,
    Rouge,
    RougeConfig,
    score_from_stats,
    variant_counts,
)
from meteor_eval.stats.rouge import RougeStats

__all__ = ["RougeScorer"]

_VALID = re.compile(r"rouge(?:[1-9]|L|Lsum|W|S|SU)")
# ROUGE-1.5.5's defaults for the extra types (ROUGE-W weight, ROUGE-S/SU skip distance).
_WEIGHT = 1.2
_SKIP = 4


@dataclass(frozen=True, slots=True)
class _Tokens:
    """A text as one custom tokenizer splits it: the same tokens for every variant."""

    tokens: list[str]
    sentences: list[list[str]]

    @property
    def tokens155(self) -> list[str]:
        return self.tokens

    @property
    def sentences155(self) -> list[list[str]]:
        return self.sentences


def _sentences(text: str, split_summaries: bool) -> list[str]:
    """The non-empty sentences of ``text``: its lines, or NLTK's ``sent_tokenize``."""
    if split_summaries:
        try:
            nltk = importlib.import_module("nltk")
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise NotImplementedError(
                "split_summaries=True needs NLTK with its Punkt data (nltk.sent_tokenize); "
                "meteor-eval's rouge-score drop-in does not ship a sentence splitter: put one "
                "sentence per line and leave split_summaries False"
            ) from exc
        parts = list(nltk.sent_tokenize(text))
    else:
        parts = text.split("\n")
    return [part for part in parts if part]


def _f155(precision: float, recall: float) -> float:
    """ROUGE-1.5.5's segment F-measure, from precision and recall rounded to 5 digits."""
    p, r = float(f"{precision:.5f}"), float(f"{recall:.5f}")
    return p * r / (0.5 * p + 0.5 * r) if p + r > 0 else 0.0


class RougeScorer(BaseScorer):
    """rouge-score's scorer (see the module docstring).

    Args:
        rouge_types: ROUGE types to compute, e.g. ``["rouge1", "rouge2", "rougeL"]``.
        use_stemmer: Porter-stem tokens longer than three characters (default tokenizer only).
        split_summaries: For ``rougeLsum``, split sentences with NLTK rather than at newlines.
        tokenizer: An object with ``tokenize(text) -> list of tokens`` (default: rouge-score's).

    Raises:
        ValueError: an unknown type (rouge-score's accepted names plus W, S, SU).
    """

    def __init__(
        self,
        rouge_types: Sequence[str],
        use_stemmer: bool = False,
        split_summaries: bool = False,
        tokenizer: Any = None,
    ) -> None:
        if isinstance(rouge_types, str):
            raise TypeError("rouge_types: expected a list of type names, got a bare string")
        for rouge_type in rouge_types:
            if not isinstance(rouge_type, str) or not _VALID.fullmatch(rouge_type):
                raise ValueError(
                    f"Invalid rouge type: {rouge_type!r} (expected rouge1 to rouge9, rougeL, "
                    "rougeLsum, rougeW, rougeS or rougeSU)"
                )
        self.rouge_types = rouge_types
        self._tokenizer = tokenizer or tokenizers.DefaultTokenizer(use_stemmer)
        self._split_summaries = split_summaries
        self._native: Rouge | None = None
        if type(self._tokenizer) is tokenizers.DefaultTokenizer and not split_summaries:
            # The default tokenizer is meteor-eval's own: score with the native metric.
            unique = tuple(dict.fromkeys(rouge_types))
            self._native = Rouge(RougeConfig(types=unique, use_stemmer=self._tokenizer.use_stemmer))

    def score(self, target: str, prediction: str) -> dict[str, Score]:
        """Scores of ``prediction`` against ``target``, by type, in ``rouge_types`` order."""
        if self._native is not None:
            stats = self._native.segment_stats(prediction, [target])
            return {
                t: Score(stats[t].precision, stats[t].recall, stats[t].fmeasure)
                for t in self.rouge_types
            }
        return self._score_tokens(target, prediction)

    def score_multi(self, targets: Sequence[str], prediction: str) -> dict[str, Score]:
        """Per type, the score against the target with the best F-measure (the first on a tie).

        Raises:
            ValueError: no target.
        """
        if isinstance(targets, str):
            raise TypeError("targets: expected a list of texts, got a bare string")
        if not targets:
            raise ValueError("score_multi needs at least one target")
        per_target = [self.score(target, prediction) for target in targets]
        best: dict[str, Score] = {}
        for rouge_type in self.rouge_types:
            candidates = [scores[rouge_type] for scores in per_target]
            top = max(c.fmeasure for c in candidates)
            best[rouge_type] = next(c for c in candidates if c.fmeasure == top)
        return best

    def _score_tokens(self, target: str, prediction: str) -> dict[str, Score]:
        """Scores with a custom tokenizer (or NLTK sentence splitting), type by type."""
        tokenize: Callable[[str], list[str]] = self._tokenizer.tokenize
        ref, hyp = tokenize(target), tokenize(prediction)
        split = self._split_summaries
        ref_sents = [tokenize(s) for s in _sentences(target, split)]
        hyp_sents = [tokenize(s) for s in _sentences(prediction, split)]
        hyp_tokens, ref_tokens = _Tokens(hyp, hyp_sents), _Tokens(ref, ref_sents)
        out: dict[str, Score] = {}
        for rouge_type in self.rouge_types:
            hits, hyp_count, ref_count = variant_counts(
                rouge_type, hyp_tokens, ref_tokens, weight=_WEIGHT, skip_distance=_SKIP
            )
            stats = RougeStats(hits, hyp_count, ref_count, 0.0, 0.0, 0.0, 1)
            config = RougeConfig(types=(rouge_type,), aggregate="pooled", weight=_WEIGHT)
            precision, recall, fmeasure = score_from_stats(rouge_type, stats, config)
            if rouge_type in ROUGE155_TYPES:
                fmeasure = _f155(precision, recall)
            out[rouge_type] = Score(precision, recall, fmeasure)
        return out
