"""Drop-in replacement for ``nltk.translate.meteor_score`` (NLTK 3.9 and 3.10), without NLTK.

Replace ``from nltk.translate.meteor_score import meteor_score, single_meteor_score`` with::

    from meteor_eval.compat.nltk import meteor_score, single_meteor_score

and every score stays the same, to the last bit, while nothing is downloaded: NLTK needs its
``wordnet`` corpus (``nltk.download("wordnet")``), this module uses the WordNet 3.0 data shipped
with meteor-eval and its own implementation of NLTK's Porter stemmer. NLTK need not be installed.

The functions keep NLTK's names, parameters (positional as in NLTK), defaults and errors:
``references``/``reference`` come first, tokens must be pre-tokenised (a ``str`` raises NLTK's
``TypeError``), ``meteor_score`` with no reference raises ``ValueError`` from ``max()``.
The ``stemmer`` and ``wordnet`` defaults are ``None``, meaning the shipped equivalents of
``PorterStemmer()`` and ``nltk.corpus.wordnet``; passing NLTK's objects works too (then their
results are cached per word, so they must be deterministic).

Example:
    >>> hypothesis1 = ['It', 'is', 'a', 'guide', 'to', 'action', 'which', 'ensures', 'that',
    ...                'the', 'military', 'always', 'obeys', 'the', 'commands', 'of', 'the',
    ...                'party']
    >>> reference1 = ['It', 'is', 'a', 'guide', 'to', 'action', 'that', 'ensures', 'that', 'the',
    ...               'military', 'will', 'forever', 'heed', 'Party', 'commands']
    >>> round(meteor_score([reference1], hypothesis1), 4)
    0.6944
    >>> round(single_meteor_score(['this', 'is', 'a', 'cat'], ['non', 'matching', 'hypothesis']), 4)
    0.0
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from meteor_eval.metrics.cache import LruCache
from meteor_eval.metrics.meteor.formula import nltk_count_components
from meteor_eval.metrics.meteor.nltk import NltkMeteor, StemmerLike, default_nltk_scorer

__all__ = ["align_words", "meteor_score", "single_meteor_score"]

_MAX_CUSTOM: Final = 8
# (id(stemmer), id(wordnet)) -> (stemmer, wordnet, scorer); the objects are kept alive so that
# their ids stay unique while cached.
_SCORERS: LruCache[tuple[int, int], tuple[object, object, NltkMeteor]] = LruCache(_MAX_CUSTOM)


def _scorer(stemmer: StemmerLike | None, wordnet: object | None) -> NltkMeteor:
    if stemmer is None and wordnet is None:
        return default_nltk_scorer()

    def build() -> tuple[object, object, NltkMeteor]:
        return (stemmer, wordnet, NltkMeteor(stemmer=stemmer, wordnet=wordnet))

    return _SCORERS.get((id(stemmer), id(wordnet)), build)[2]


def _generate_enums(
    hypothesis: Iterable[str], reference: Iterable[str], preprocess: Callable[[str], str]
) -> tuple[list[str], list[str]]:
    """Preprocessed token lists, with NLTK's checks and messages (hypothesis first)."""
    if isinstance(hypothesis, str):
        raise TypeError(
            f'"hypothesis" expects pre-tokenized hypothesis (Iterable[str]): {hypothesis}'
        )
    if isinstance(reference, str):
        raise TypeError(f'"reference" expects pre-tokenized reference (Iterable[str]): {reference}')
    return list(map(preprocess, hypothesis)), list(map(preprocess, reference))


def single_meteor_score(
    reference: Iterable[str],
    hypothesis: Iterable[str],
    preprocess: Callable[[str], str] = str.lower,
    stemmer: StemmerLike | None = None,
    wordnet: object | None = None,
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
) -> float:
    """NLTK's ``single_meteor_score``: METEOR of one tokenised hypothesis against one reference.

    Args:
        reference: Pre-tokenised reference.
        hypothesis: Pre-tokenised hypothesis.
        preprocess: Applied to every token (default ``str.lower``).
        stemmer: Object with ``stem(word)``; ``None`` = NLTK's default Porter stemmer (ours).
        wordnet: Object with NLTK's ``synsets(word)``; ``None`` = the shipped WordNet 3.0.
        alpha: Precision/recall balance.
        beta: Exponent of the fragmentation penalty.
        gamma: Weight of the penalty.

    Returns:
        The score; 0.0 when nothing matches or a side is empty.

    Raises:
        TypeError: ``hypothesis`` or ``reference`` is a ``str`` (NLTK's message).
    """
    return _best_score([reference], hypothesis, preprocess, stemmer, wordnet, alpha, beta, gamma)


def _best_score(
    references: Iterable[Iterable[str]],
    hypothesis: Iterable[str],
    preprocess: Callable[[str], str],
    stemmer: StemmerLike | None,
    wordnet: object | None,
    alpha: float,
    beta: float,
    gamma: float,
) -> float:
    """The best score of ``hypothesis`` over ``references`` by ``max()``'s rule, in one frame
    (:func:`single_meteor_score` is the case of one reference): the counts come from the
    scorer's bound kernel, made at the first reference, so that an empty ``references`` raises
    ``max()``'s ValueError before anything else."""
    counts: Callable[[list[str], list[str]], tuple[int, int, int, int]] | None = None
    best: float | None = None
    for reference in references:
        hyp, ref = _generate_enums(hypothesis, reference, preprocess)
        if counts is None:
            counts = _scorer(stemmer, wordnet).counts_function()
        exact, stem, synonym, chunks = counts(hyp, ref)
        value = nltk_count_components(
            exact + stem + synonym, chunks, len(hyp), len(ref), alpha=alpha, beta=beta, gamma=gamma
        ).score
        # max()'s rule: a later value replaces the best only when greater.
        if best is None or value > best:
            best = value
    if best is None:
        raise ValueError("max() arg is an empty sequence")
    return best


def meteor_score(
    references: Iterable[Iterable[str]],
    hypothesis: Iterable[str],
    preprocess: Callable[[str], str] = str.lower,
    stemmer: StemmerLike | None = None,
    wordnet: object | None = None,
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
) -> float:
    """NLTK's ``meteor_score``: the best :func:`single_meteor_score` over the references
    (``references``: pre-tokenised; the hypothesis is iterated once per reference, as in NLTK;
    the other arguments are :func:`single_meteor_score`'s).

    Raises:
        TypeError: the hypothesis or a reference is a ``str`` (NLTK's message).
        ValueError: ``references`` is empty (from ``max()``, as in NLTK).
    """
    return _best_score(references, hypothesis, preprocess, stemmer, wordnet, alpha, beta, gamma)


def align_words(
    hypothesis: Iterable[str],
    reference: Iterable[str],
    stemmer: StemmerLike | None = None,
    wordnet: object | None = None,
) -> tuple[list[tuple[int, int]], list[tuple[int, str]], list[tuple[int, str]]]:
    """NLTK's ``align_words``: matches, then the unmatched hypothesis and reference words.

    Tokens are lower-cased. Matches are ``(hypothesis index, reference index)`` sorted by
    hypothesis index; the unmatched lists hold ``(index, word)`` in index order, where a word is
    its stem (NLTK's stem stage replaces every word the exact stage left).

    Example:
        >>> align_words(["The", "cats", "sat"], ["the", "cat", "is", "here"])
        ([(0, 0), (1, 1)], [(2, 'sat')], [(2, 'is'), (3, 'here')])
    """
    hyp, ref = _generate_enums(hypothesis, reference, str.lower)
    scorer = _scorer(stemmer, wordnet)
    matches = scorer.align(hyp, ref)
    used_hyp = {i for i, _j, _s in matches}
    used_ref = {j for _i, j, _s in matches}
    # NLTK's stem stage replaces every word the exact stage left by its stem.
    return (
        [(i, j) for i, j, _s in matches],
        [(i, scorer.stem(w)) for i, w in enumerate(hyp) if i not in used_hyp],
        [(j, scorer.stem(w)) for j, w in enumerate(ref) if j not in used_ref],
    )
