"""Drop-in replacement for Google's ``rouge-score`` (0.1.2), computed by meteor-eval.

Replace ``from rouge_score import rouge_scorer, scoring`` with::

    from meteor_eval.compat.rouge_score import rouge_scorer, scoring

``rouge_scorer.RougeScorer(types, use_stemmer=...)`` with ``score(target, prediction)`` and
``score_multi(targets, prediction)``, ``scoring.Score``, ``scoring.BootstrapAggregator``,
``tokenize.tokenize`` and ``tokenizers.DefaultTokenizer`` keep rouge-score's arguments and give
its numbers to the last bit, without rouge-score, NLTK or absl. ROUGE-W, ROUGE-S and ROUGE-SU
(as ROUGE-1.5.5) are accepted as extra types. Differences are listed in :mod:`.rouge_scorer`.

Each call takes *one* prediction and its target(s); meteor-eval's native
:func:`meteor_eval.metrics.rouge.corpus_rouge` takes whole corpora (hypotheses first, then the
references of each hypothesis) and averages the segment scores.

Example:
    >>> from meteor_eval.compat.rouge_score import rouge_scorer
    >>> scorer = rouge_scorer.RougeScorer(["rouge2"])
    >>> scorer.score_multi(["the cat sat", "a cat sat on it"], "the cat sat on it")["rouge2"]
    Score(precision=0.75, recall=0.75, fmeasure=0.75)
"""

from __future__ import annotations

from meteor_eval.compat.rouge_score import rouge_scorer, scoring, tokenize, tokenizers

__all__ = ["rouge_scorer", "scoring", "tokenize", "tokenizers"]
