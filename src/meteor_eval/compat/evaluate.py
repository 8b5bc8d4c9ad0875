"""Drop-in replacement for HuggingFace ``evaluate``'s ``meteor`` metric, offline.

``evaluate.load("meteor")`` downloads its script from the Hugging Face hub and then NLTK's
``wordnet``, ``punkt`` and ``omw-1.4`` data; this module needs neither. It follows the script's
contract (evaluate 0.4, NLTK >= 3.6.5 branch):

* ``compute(predictions=..., references=..., alpha=0.9, beta=3, gamma=0.5)`` returns
  ``{"meteor": mean}``, the mean of the sentence scores (NumPy's ``np.mean``, reproduced with
  its pairwise summation so that the value is the same to the last bit);
* every prediction and reference is tokenised with ``nltk.word_tokenize``
  (:func:`meteor_eval.text.nltk_tokenize.word_tokenize`);
* ``references[i]`` is either one string (``single_meteor_score``) or a list of strings
  (``meteor_score``, best of the references); case is folded by NLTK's ``str.lower``.

Where we differ: ``word_tokenize`` splits a text into sentences with NLTK's Punkt model before
tokenising each; Punkt's English data is not available here, so by default each prediction and
reference is treated as one sentence. That is exact for single-sentence segments (the usual case
in MT and captioning). A segment holding several sentences keeps each inner sentence's final
period attached to its word (``"them."`` instead of ``"them" "."``), which can lower its score
slightly; pass ``sentence_splitter=nltk.sent_tokenize`` (with NLTK and Punkt installed) to get
NLTK's splitting exactly. With no prediction at all the mean is NaN, as ``np.mean([])``.

Example:
    >>> from meteor_eval.compat import evaluate
    >>> meteor = evaluate.load("meteor")
    >>> predictions = ["It is a guide to action which ensures that the military always obeys "
    ...                "the commands of the party"]
    >>> references = ["It is a guide to action that ensures that the military will forever "
    ...               "heed Party commands"]
    >>> results = meteor.compute(predictions=predictions, references=references)
    >>> round(results["meteor"], 4)
    0.6944
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Final

from meteor_eval.errors import InputError
from meteor_eval.metrics.cache import LruCache
from meteor_eval.metrics.meteor.formula import nltk_score_from_stats
from meteor_eval.metrics.meteor.nltk import NltkMeteor
from meteor_eval.stats.corpus import numpy_mean
from meteor_eval.text.nltk_tokenize import word_tokenize

__all__ = ["EvaluateMeteor", "compute", "load", "numpy_mean"]


def _check_lists(predictions: Sequence[str], references: Sequence[object]) -> None:
    """evaluate's argument checks: two lists (not strings) of the same length."""
    if isinstance(predictions, str) or isinstance(references, str):
        raise TypeError("predictions and references take lists, not a str")
    if len(predictions) != len(references):
        raise InputError(
            f"got {len(predictions)} predictions but {len(references)} references; "
            "references[i] must hold the reference(s) of predictions[i]"
        )


class EvaluateMeteor:
    """The object ``evaluate.load("meteor")`` returns, reduced to ``compute``.

    Args:
        sentence_splitter: Splits a text into sentences before word tokenisation; ``None``
            treats each text as one sentence (see the module notes).
    """

    name: Final = "meteor"

    def __init__(self, *, sentence_splitter: Callable[[str], Iterable[str]] | None = None) -> None:
        if sentence_splitter is not None and not callable(sentence_splitter):
            raise TypeError(f"sentence_splitter: expected a callable, got {sentence_splitter!r}")
        self._splitter = sentence_splitter
        if sentence_splitter is None:  # the scorer and tokens of every default instance
            self._scorer, self._token_cache = _CORES.get(None, _new_core)
        else:  # its own tokens
            self._scorer, self._token_cache = _new_core()
        self._predictions: list[str] = []
        self._references: list[str | Sequence[str]] = []

    def __repr__(self) -> str:
        return "EvaluateMeteor(name='meteor')"

    def _tokens(self, text: str) -> list[str]:
        if not isinstance(text, str):
            raise TypeError(f"expected a str to tokenise, got {type(text).__name__}")
        splitter = self._splitter

        def tokenize() -> list[str]:
            return [token.lower() for token in word_tokenize(text, sentence_splitter=splitter)]

        return self._token_cache.get(text, tokenize)

    def sentence_scores(
        self,
        *,
        predictions: Sequence[str],
        references: Sequence[str | Sequence[str]],
        alpha: float = 0.9,
        beta: float = 3,
        gamma: float = 0.5,
    ) -> list[float]:
        """The per-segment scores whose mean :meth:`compute` reports.

        Raises:
            TypeError: ``predictions`` or ``references`` is a bare ``str``.
            InputError: their lengths differ, or a segment has no reference.
        """
        _check_lists(predictions, references)
        pair_stats = self._scorer.pair_stats
        scores: list[float] = []
        for k, (prediction, refs) in enumerate(zip(predictions, references, strict=True)):
            hyp = self._tokens(prediction)
            group = [refs] if isinstance(refs, str) else list(refs)
            if not group:
                raise InputError(f"references[{k}]: at least one reference is required")
            scores.append(
                max(
                    nltk_score_from_stats(
                        pair_stats(hyp, self._tokens(ref)), alpha=alpha, beta=beta, gamma=gamma
                    )
                    for ref in group
                )
            )
        return scores

    def add(self, *, prediction: str, reference: str | Sequence[str]) -> None:
        """Keep one segment for the next :meth:`compute` (evaluate's ``add``)."""
        self.add_batch(predictions=[prediction], references=[reference])

    def add_batch(
        self, *, predictions: Sequence[str], references: Sequence[str | Sequence[str]]
    ) -> None:
        """Keep segments for the next :meth:`compute` (evaluate's ``add_batch``).

        Raises:
            TypeError: ``predictions`` or ``references`` is a bare ``str``.
            InputError: their lengths differ.
        """
        _check_lists(predictions, references)
        self._predictions.extend(predictions)
        self._references.extend(references)

    def compute(
        self,
        *,
        predictions: Sequence[str] | None = None,
        references: Sequence[str | Sequence[str]] | None = None,
        alpha: float = 0.9,
        beta: float = 3,
        gamma: float = 0.5,
    ) -> dict[str, float]:
        """``{"meteor": mean sentence score}``, as ``evaluate``'s ``meteor.compute``: over the
        segments kept by :meth:`add`/:meth:`add_batch` and those given here (which are added
        after them), after which the kept segments are cleared.

        Args:
            predictions: One string per segment.
            references: Per segment one reference string or a list of reference strings.
            alpha: Precision/recall balance.
            beta: Exponent of the fragmentation penalty.
            gamma: Weight of the penalty.

        Raises:
            TypeError: ``predictions`` or ``references`` is a bare ``str``.
            InputError: their lengths differ, or a segment has no reference.
            ValueError: only one of ``predictions`` and ``references``, or no segment at all
                (nothing added and nothing given).
        """
        if (predictions is None) != (references is None):
            raise ValueError("compute: give both predictions and references, or neither")
        if predictions is not None and references is not None:
            self.add_batch(predictions=predictions, references=references)
        elif not self._predictions:
            raise ValueError(
                "compute: no segment; call add/add_batch first or pass predictions= and references="
            )
        kept_predictions, kept_references = self._predictions, self._references
        self._predictions, self._references = [], []
        scores = self.sentence_scores(
            predictions=kept_predictions,
            references=kept_references,
            alpha=alpha,
            beta=beta,
            gamma=gamma,
        )
        return {"meteor": numpy_mean(scores)}


#: A scorer with its tokens cache: the 100,000 texts most recently tokenised.
_Core = tuple[NltkMeteor, LruCache[str, list[str]]]
#: The core of the instances without a sentence splitter (the one key: ``None``).
_CORES: LruCache[None, _Core] = LruCache(1)


def _new_core() -> _Core:
    return NltkMeteor(), LruCache(100_000)


def load(
    path: str = "meteor",
    *,
    sentence_splitter: Callable[[str], Iterable[str]] | None = None,
) -> EvaluateMeteor:
    """``evaluate.load("meteor")`` without network access: a new object (its own kept
    segments), sharing the scorer and tokens of the others.

    Raises:
        ValueError: ``path`` names another metric.
    """
    if path.rstrip("/").rsplit("/", 1)[-1] != "meteor":
        raise ValueError(f"path: only 'meteor' is available here, got {path!r}")
    return EvaluateMeteor(sentence_splitter=sentence_splitter)


def compute(
    *,
    predictions: Sequence[str],
    references: Sequence[str | Sequence[str]],
    alpha: float = 0.9,
    beta: float = 3,
    gamma: float = 0.5,
) -> dict[str, float]:
    """Shortcut for ``load("meteor").compute(...)``."""
    return load().compute(
        predictions=predictions, references=references, alpha=alpha, beta=beta, gamma=gamma
    )
