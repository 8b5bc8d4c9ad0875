"""The ``nltk`` flavour: NLTK's METEOR (``nltk.translate.meteor_score``, NLTK 3.9 and 3.10).

Many papers report METEOR computed by NLTK, directly or through HuggingFace ``evaluate``. Its
algorithm is not METEOR 1.5 and not quite the 2005 paper either:

* input is pre-tokenised; each token goes through ``preprocess`` (``str.lower`` by default);
* matching is :func:`meteor_eval.align.greedy.greedy_align`: exact, then NLTK's Porter stemmer
  (:mod:`meteor_eval.resources.nltk_porter`), then WordNet synonyms looked up on the *stems*
  (:meth:`meteor_eval.resources.wordnet.NltkWordNet.lemma_names`, multi-word names dropped),
  each stage greedy from the last hypothesis word backwards;
* every match counts 1, there is no function-word weighting and no stage weight;
* ``P = m / len(hyp)``, ``R = m / len(ref)``, ``Fmean = P*R / (alpha*P + (1-alpha)*R)``,
  ``penalty = gamma * (chunks / m) ** beta`` and ``score = (1 - penalty) * Fmean`` with alpha
  0.9, beta 3, gamma 0.5; an identical pair keeps its one-chunk penalty (six words: 0.9977);
* no match, or an empty side, scores 0.0;
* several references: the maximum score over them (the first maximal one keeps its
  statistics here);
* a corpus score, as ``evaluate`` reports it, is the mean of the sentence scores.

The formula is :func:`meteor_eval.metrics.meteor.formula.nltk_components`, which evaluates it
in NLTK's exact floating-point operation order, so scores are identical to NLTK's, not merely
close (tested to 1e-12 and bit for bit on 9,000 pairs in
``tests/reference/test_nltk_differential.py``).

Statistics use the 23-field :class:`~meteor_eval.stats.meteor.MeteorStats` record with three
stages (exact, stem, synonym); each stage's hypothesis and reference counts are content counts,
the function-word fields stay 0. Chunks are 0 when nothing matched.

References:
    A. Lavie and A. Agarwal. METEOR: An Automatic Metric for MT Evaluation with High Levels of
    Correlation with Human Judgments. WMT 2007 (the paper NLTK cites).
    NLTK documentation of ``nltk.translate.meteor_score``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar

from meteor_eval.align.greedy import (
    GreedyCounts,
    SynonymFunction,
    WordFunction,
    greedy_align,
    greedy_counts_function,
    match_counts,
)
from meteor_eval.errors import InputError, warn_renamed
from meteor_eval.metrics.meteor.formula import nltk_score_from_stats

if TYPE_CHECKING:
    # Imported where a record is made: the per-pair scores (``compat.nltk``) make none, and
    # the statistics module loads the dataclass machinery.
    from meteor_eval.stats.meteor import MeteorStats

__all__ = [
    "DEFAULT_ALPHA",
    "DEFAULT_BETA",
    "DEFAULT_GAMMA",
    "NltkMeteor",
    "StemmerLike",
    "default_nltk_scorer",
    "nltk_pair_stats",
    "nltk_score_from_stats",
    "stats_from_counts",
    "stats_from_matches",
]

DEFAULT_ALPHA: Final = 0.9
DEFAULT_BETA: Final = 3.0
DEFAULT_GAMMA: Final = 0.5

# Per-word caches start afresh past this many entries (bounded memory on endless vocabularies).
_CACHE_LIMIT: Final = 1 << 20

_V = TypeVar("_V")


class _WordCache(dict[str, _V]):
    """Word -> value, computed on first lookup by ``compute``; starts afresh when full.

    Looking a word up by ``cache[word]`` (or passing ``cache.__getitem__`` as a callable) costs
    one C-level dict lookup once the word is known.
    """

    __slots__ = ("_compute",)

    def __init__(self, compute: Callable[[str], _V]) -> None:
        super().__init__()
        self._compute = compute

    def __missing__(self, word: str) -> _V:
        if len(self) >= _CACHE_LIMIT:
            self.clear()
        found = self[word] = self._compute(word)
        return found


def _cached(cache: _WordCache[_V], loader: object = None) -> Any:
    """What the alignment is given for a per-word cache: the cached function ``(cache,
    compute, limit)`` (:data:`meteor_eval.align.greedy.WordFunction`; the compiled kernel then
    computes a new word without the cache's ``__missing__`` frame, by the same rule), or the
    cache itself while its function is still ``loader`` (a first miss that loads a resource and
    replaces the function: the next call's tuple holds the loaded one)."""
    compute = cache._compute
    if loader is not None and compute == loader:
        return cache
    return (cache, compute, _CACHE_LIMIT)


class StemmerLike(Protocol):
    """Anything with NLTK's ``StemmerI.stem(word)``."""

    def stem(self, word: str) -> str:
        """The stem of one word."""
        ...


def stats_from_matches(
    matches: Sequence[tuple[int, int, int]], hyp_length: int, ref_length: int
) -> MeteorStats:
    """The statistics record of one aligned pair (three stages, content counts only)."""
    return stats_from_counts(match_counts(matches), hyp_length, ref_length)


def stats_from_counts(counts: GreedyCounts, hyp_length: int, ref_length: int) -> MeteorStats:
    """The statistics record of one aligned pair from its :func:`match_counts`.

    Example:
        >>> stats_from_counts((2, 1, 0, 2), 3, 4).stages
        ((2, 2, 0, 0), (1, 1, 0, 0), (0, 0, 0, 0))
    """
    from meteor_eval.stats.meteor import MeteorStats

    exact, stem, synonym, chunks = counts
    n = exact + stem + synonym
    return MeteorStats(
        hyp_length,
        ref_length,
        0,
        0,
        ((exact, exact, 0, 0), (stem, stem, 0, 0), (synonym, synonym, 0, 0)),
        chunks,
        n,
        n,
    )


class NltkMeteor:
    """NLTK's METEOR with loaded resources and per-word caches.

    Args:
        stemmer: An object with ``stem(word)``; ``None`` uses our NLTK-compatible Porter stemmer
            (:func:`meteor_eval.resources.nltk_porter.nltk_porter_stemmer`). NLTK's own
            ``PorterStemmer()`` works too.
        wordnet: An object with NLTK's ``synsets(word)`` (synsets with ``lemmas()`` and lemmas
            with ``name()``, e.g. ``nltk.corpus.wordnet``); ``None`` uses the shipped WordNet
            3.0 (:func:`meteor_eval.resources.wordnet.nltk_wordnet`).
        preprocess: Applied to every token before matching (NLTK's default ``str.lower``).
        alpha: Precision/recall balance.
        beta: Exponent of the fragmentation penalty.
        gamma: Weight of the penalty.

    Stems and synonym sets are cached per word, so a custom stemmer or WordNet must be
    deterministic.

    Example:
        >>> scorer = NltkMeteor()
        >>> hyp = ("It is a guide to action which ensures that the military always obeys "
        ...        "the commands of the party").split()
        >>> ref = ("It is a guide to action that ensures that the military will forever "
        ...        "heed Party commands").split()
        >>> round(scorer.segment_score(hyp, [ref]), 4)
        0.6944
    """

    __slots__ = (
        "_counts",
        "_names_cache",
        "_stem_cache",
        "_stemmer",
        "_synonym_cache",
        "_wordnet",
        "alpha",
        "beta",
        "gamma",
        "preprocess",
    )

    def __init__(
        self,
        *,
        stemmer: StemmerLike | None = None,
        wordnet: object | None = None,
        preprocess: Callable[[str], str] = str.lower,
        alpha: float = DEFAULT_ALPHA,
        beta: float = DEFAULT_BETA,
        gamma: float = DEFAULT_GAMMA,
    ) -> None:
        compute_stem: Callable[[str], str] | None = None
        # The arguments as given are kept for pickling (__reduce__): None stays "ours".
        self._stemmer = stemmer
        if stemmer is None:
            from meteor_eval.resources.nltk_porter import (
                nltk_porter_stem_function,
                nltk_porter_stemmer,
            )

            stemmer = nltk_porter_stemmer()
            # The same stems without the shared stemmer's own cache (one call a new word, a
            # compiled one when the extension runs).
            compute_stem = nltk_porter_stem_function()
        if not callable(getattr(stemmer, "stem", None)):
            raise TypeError(f"stemmer: expected an object with stem(word), got {stemmer!r}")
        if wordnet is not None and not callable(getattr(wordnet, "synsets", None)):
            raise TypeError(f"wordnet: expected an object with synsets(word), got {wordnet!r}")
        if not callable(preprocess):
            raise TypeError(f"preprocess: expected a callable, got {preprocess!r}")
        self._wordnet = wordnet
        self.preprocess = preprocess
        self.alpha = alpha
        self.beta = beta
        self.gamma = gamma
        self._stem_cache = _WordCache(compute_stem or stemmer.stem)
        self._synonym_cache = _WordCache(self._compute_synonyms)
        self._names_cache: _WordCache[frozenset[str]] = _WordCache(self._first_lemma_names)
        self._counts: Callable[[Sequence[str], Sequence[str]], GreedyCounts] | None = None

    def __reduce__(self) -> tuple[Callable[..., NltkMeteor], tuple[object, ...]]:
        """Pickled as its arguments: the per-word caches, and the bound lookups they come to
        hold once WordNet is loaded, are made again where it is unpickled."""
        return (
            _new_nltk_meteor,
            (self._stemmer, self._wordnet, self.preprocess, self.alpha, self.beta, self.gamma),
        )

    def stem(self, word: str) -> str:
        """The stemmer's result for ``word``, cached."""
        return self._stem_cache[word]

    def synonyms(self, word: str) -> frozenset[str]:
        """NLTK's synonym set of ``word``: single-word lemma names of its synsets, plus itself."""
        return self._synonym_cache[word]

    def _compute_synonyms(self, word: str) -> frozenset[str]:
        names: Iterable[str]
        if self._wordnet is None:
            names = self._names_cache[word]
        else:
            names = (
                lemma.name()
                for synset in self._wordnet.synsets(word)  # type: ignore[attr-defined]
                for lemma in synset.lemmas()
            )
        return frozenset([name for name in names if "_" not in name] + [word])

    def _first_lemma_names(self, word: str) -> frozenset[str]:
        """The shipped WordNet's raw lemma names of ``word`` (NLTK's synonyms unfiltered).

        The first miss of the names cache loads WordNet and makes its uncached lookup the
        cache's function, so that later misses cost one call (the cache is this scorer's)."""
        from meteor_eval.resources.wordnet import nltk_wordnet

        compute = nltk_wordnet().lemma_names_function()
        self._names_cache._compute = compute
        return compute(word)

    def _matching_names(self) -> tuple[SynonymFunction, bool]:
        """What the alignment looks synonyms up in: with the shipped WordNet, the raw lemma
        names (NLTK's filter is applied by the alignment, ``raw_names``, so that no filtered
        set is built per word type); with another WordNet, the synonym sets."""
        if self._wordnet is None:
            return _cached(self._names_cache, self._first_lemma_names), True
        return _cached(self._synonym_cache), False

    def _stems(self) -> WordFunction:
        stems: WordFunction = _cached(self._stem_cache)
        return stems

    def align(
        self, hyp_words: Sequence[str], ref_words: Sequence[str]
    ) -> list[tuple[int, int, int]]:
        """NLTK's matches between two *preprocessed* token lists (see :func:`greedy_align`)."""
        names, raw = self._matching_names()
        return greedy_align(hyp_words, ref_words, stem=self._stems(), synonyms=names, raw_names=raw)

    def pair_counts(self, hyp_words: Sequence[str], ref_words: Sequence[str]) -> GreedyCounts:
        """Matches per stage (exact, stem, synonym) and chunks of two *preprocessed* token
        lists: :meth:`align` counted, without building the matches when compiled."""
        return self.counts_function()(hyp_words, ref_words)

    def counts_function(self) -> Callable[[Sequence[str], Sequence[str]], GreedyCounts]:
        """:meth:`pair_counts` as a function of the two token lists, bound to this scorer's
        caches (the compiled kernel called directly: for loops over many pairs)."""
        found = self._counts
        if found is not None:
            return found
        names, raw = self._matching_names()
        found = greedy_counts_function(self._stems(), names, raw)
        if isinstance(names, tuple):
            # Both functions final (WordNet loaded or not needed): later calls reuse this one.
            self._counts = found
        return found

    def pair_stats(self, hyp_words: Sequence[str], ref_words: Sequence[str]) -> MeteorStats:
        """Statistics of two *preprocessed* token lists."""
        return stats_from_counts(
            self.pair_counts(hyp_words, ref_words), len(hyp_words), len(ref_words)
        )

    def score(self, stats: MeteorStats) -> float:
        """:func:`nltk_score_from_stats` with this scorer's parameters."""
        return nltk_score_from_stats(stats, alpha=self.alpha, beta=self.beta, gamma=self.gamma)

    def segment_stats(
        self, hypothesis_tokens: Iterable[str], references_tokens: Iterable[Iterable[str]]
    ) -> tuple[MeteorStats, int, float]:
        """Statistics, index and score of the best reference (first of the maximal scores).

        Raises:
            TypeError: a bare ``str`` where a token sequence is expected.
            InputError: there is no reference.
        """
        if isinstance(hypothesis_tokens, str):
            raise TypeError("hypothesis_tokens: expected a sequence of tokens, got a str")
        if isinstance(references_tokens, str):
            raise TypeError("references_tokens: expected a sequence of token sequences, got a str")
        preprocess = self.preprocess
        hyp = [preprocess(token) for token in hypothesis_tokens]
        best: tuple[MeteorStats, int, float] | None = None
        for k, reference in enumerate(references_tokens):
            if isinstance(reference, str):
                raise TypeError(f"references_tokens[{k}]: expected a sequence of tokens, got a str")
            stats = self.pair_stats(hyp, [preprocess(token) for token in reference])
            value = self.score(stats)
            if best is None or value > best[2]:
                best = (stats, k, value)
        if best is None:
            raise InputError("references_tokens: at least one reference is required")
        return best

    def sentence_score(
        self, hypothesis_tokens: Iterable[str], references_tokens: Iterable[Iterable[str]]
    ) -> float:
        """Deprecated name of :meth:`segment_score` (removed in 0.3)."""
        warn_renamed("NltkMeteor.sentence_score", "segment_score")
        return self.segment_score(hypothesis_tokens, references_tokens)

    def segment_score(
        self, hypothesis_tokens: Iterable[str], references_tokens: Iterable[Iterable[str]]
    ) -> float:
        """NLTK's ``meteor_score(references, hypothesis)`` (argument order as in this library).

        Args:
            hypothesis_tokens: The tokenised hypothesis.
            references_tokens: One or more tokenised references.

        Raises:
            TypeError: a bare ``str`` where a token sequence is expected.
            InputError: there is no reference.
        """
        return self.segment_stats(hypothesis_tokens, references_tokens)[2]

    def corpus_score(
        self,
        hypotheses_tokens: Sequence[Iterable[str]],
        references_tokens: Sequence[Iterable[Iterable[str]]],
    ) -> float:
        """Mean of the sentence scores (what ``evaluate`` reports), summed with ``math.fsum``.

        Raises:
            InputError: the numbers of hypotheses and reference groups differ.
        """
        import math

        if len(hypotheses_tokens) != len(references_tokens):
            raise InputError(
                f"got {len(hypotheses_tokens)} hypotheses but {len(references_tokens)} reference "
                "groups; references_tokens[i] must hold the references of hypotheses_tokens[i]"
            )
        if not hypotheses_tokens:
            return 0.0
        scores = [
            self.segment_score(h, refs)
            for h, refs in zip(hypotheses_tokens, references_tokens, strict=True)
        ]
        return math.fsum(scores) / len(scores)


_DEFAULT: list[NltkMeteor] = []


def default_nltk_scorer() -> NltkMeteor:
    """The process's :class:`NltkMeteor` with the shipped resources and NLTK's defaults, made
    on first use; its per-word caches are shared by every caller that uses the defaults."""
    if not _DEFAULT:
        _DEFAULT.append(NltkMeteor())
    return _DEFAULT[0]


def nltk_pair_stats(hyp_tokens: Sequence[str], ref_tokens: Sequence[str]) -> MeteorStats:
    """Statistics of NLTK's METEOR for two *preprocessed* (e.g. lower-cased) token lists.

    Uses the shipped resources (NLTK-compatible Porter stemmer, WordNet 3.0). The stages of the
    record are exact, stem and synonym.

    Example:
        >>> s = nltk_pair_stats(["the", "cats", "sat"], ["the", "cat", "sits"])
        >>> s.stages, s.chunks  # "sat" matches "sit" (stem of "sits") through WordNet's "sit"
        (((1, 1, 0, 0), (1, 1, 0, 0), (1, 1, 0, 0)), 1)
    """
    return default_nltk_scorer().pair_stats(hyp_tokens, ref_tokens)


def _new_nltk_meteor(
    stemmer: StemmerLike | None,
    wordnet: object | None,
    preprocess: Callable[[str], str],
    alpha: float,
    beta: float,
    gamma: float,
) -> NltkMeteor:
    """:class:`NltkMeteor` from its pickled arguments (its ``__init__`` takes keywords only)."""
    return NltkMeteor(
        stemmer=stemmer, wordnet=wordnet, preprocess=preprocess, alpha=alpha, beta=beta, gamma=gamma
    )
