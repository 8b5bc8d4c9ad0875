"""Steps text -> tokens -> matches -> alignment -> statistics, for one segment (the general path).

:class:`Pipeline` holds what these steps need for one configuration: the matchers built from
the registry (:mod:`meteor_eval.match.registry`) with their resources, the function-word
flags, word identities and the cache of preprocessed references. For each flavour:

* ``meteor15``: the jar's preprocessing, Java string-hash identities, every module's candidates
  into the beam-search aligner (:mod:`meteor_eval.align.search`), the 23-number statistics;
* ``paper2005``: the same preprocessing and candidates, the exhaustive search of the 2005 paper
  (:mod:`meteor_eval.align.exhaustive`), interned string identities;
* ``nltk``: NLTK's tokens and its greedy staged matching (:mod:`meteor_eval.align.greedy`,
  :mod:`meteor_eval.metrics.meteor.nltk`).

With several references the first one with the strictly highest score keeps its statistics
(spec 5.4). :mod:`meteor_eval.metrics.meteor.fast` runs the same steps for the ``meteor15``
flavour in one compiled call per pair, and :mod:`meteor_eval.metrics.meteor.paper2005` for a
batch of ``paper2005`` pairs in one compiled call, with the same results.
"""

from __future__ import annotations

import itertools
import operator
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from meteor_eval._ext import compiled_kernels
from meteor_eval.align import alignment as _alignment
from meteor_eval.align import search as _search
from meteor_eval.align.alignment import count_chunks
from meteor_eval.align.search import beam_align, beam_align_stages
from meteor_eval.errors import InputError, WorkBudgetError
from meteor_eval.limits import WORK_BUDGET, check_work
from meteor_eval.match import base as _base
from meteor_eval.match import registry as matchers
from meteor_eval.match.base import CandidateStore, Match, Matcher
from meteor_eval.metrics.meteor.config import MeteorConfig
from meteor_eval.metrics.meteor.formula import score_from_stats
from meteor_eval.stats.meteor import (
    MeteorStats,
    perfect_row,
    stats_from_alignment,
    stats_of_compiled,
)
from meteor_eval.text.tokenize import (
    java_hash,
    java_lower,
    lower_sensitive,
    preprocess,
    utf16_len,
)

if TYPE_CHECKING:
    # The records below are made where used (``_alignment.Alignment``, ``_base.Segment``, PEP
    # 562 names of their modules), and the other flavours' aligners imported by their paths:
    # a corpus score of the METEOR 1.5 flavour makes neither class and imports neither module.
    from meteor_eval.align._alignment import Alignment
    from meteor_eval.match._segment import Segment
    from meteor_eval.metrics.meteor.nltk import NltkMeteor
    from meteor_eval.metrics.meteor.paper2005 import Paper2005Rows

__all__ = [
    "Pipeline",
    "check_corpus",
    "check_segment",
    "perfect_row",
    "pool_stats",
    "word_stats",
    "word_stats_python",
]

#: Entries a per-text cache holds before it starts afresh (bounded memory on endless input).
CACHE_LIMIT = 200_000

_STATS_KERNEL = compiled_kernels("word_stats")


class _FunctionFlags(dict[str, bool]):
    """Token -> whether it is a function word (compared lower-cased, as the jar does),
    computed on first lookup so that known tokens cost one C-level lookup each."""

    __slots__ = ("_words",)

    def __init__(self, words: frozenset[str]) -> None:
        super().__init__()
        self._words = words

    def __missing__(self, token: str) -> bool:
        flag = java_lower(token) in self._words
        if len(self) >= CACHE_LIMIT:
            self.clear()
        self[token] = flag
        return flag


def _keep(token: str) -> str:
    """NLTK ``preprocess`` that keeps tokens as they are."""
    return token


# -- statistics -------------------------------------------------------------------------------


def word_stats(
    matches: Sequence[Match],
    hyp_function: Sequence[bool],
    ref_function: Sequence[bool],
    n_stages: int,
) -> tuple[MeteorStats, int]:
    """:func:`word_stats_python` through the compiled kernel when it is built."""
    if _STATS_KERNEL is None:
        return word_stats_python(matches, hyp_function, ref_function, n_stages)
    row = _STATS_KERNEL.word_stats(matches, hyp_function, ref_function, n_stages)
    return stats_of_compiled(row), row[4]


def word_stats_python(
    matches: Sequence[Match],
    hyp_function: Sequence[bool],
    ref_function: Sequence[bool],
    n_stages: int,
) -> tuple[MeteorStats, int]:
    """:func:`stats_from_alignment` and :func:`count_chunks` in one pass, for word units.

    ``matches`` must be an aligner's output: sorted by reference position and non-overlapping,
    so a match continues the open chunk exactly when it starts in the reference where the
    previous one ended and in the hypothesis where the previous one ended.
    """
    counts = [0] * (4 * n_stages)
    hyp_matched = 0
    ref_matched = 0
    chunks = 0
    ref_end = -1
    hyp_end = -1
    for ref_start, ref_len, hyp_start, hyp_len, stage in matches:
        if ref_start != ref_end or hyp_start != hyp_end:
            chunks += 1
        ref_end = ref_start + ref_len
        hyp_end = hyp_start + hyp_len
        hyp_matched += hyp_len
        ref_matched += ref_len
        base = 4 * stage
        if hyp_len == 1:
            counts[base + 2 if hyp_function[hyp_start] else base] += 1
        else:
            for i in range(hyp_start, hyp_end):
                counts[base + 2 if hyp_function[i] else base] += 1
        if ref_len == 1:
            counts[base + 3 if ref_function[ref_start] else base + 1] += 1
        else:
            for j in range(ref_start, ref_end):
                counts[base + 3 if ref_function[j] else base + 1] += 1
    stages = tuple(
        (counts[b], counts[b + 1], counts[b + 2], counts[b + 3]) for b in range(0, 4 * n_stages, 4)
    )
    stats = MeteorStats(
        len(hyp_function),
        len(ref_function),
        sum(hyp_function),
        sum(ref_function),
        stages,
        chunks,
        hyp_matched,
        ref_matched,
    )
    return stats, chunks


def pool_stats(records: Iterable[MeteorStats], config: MeteorConfig) -> MeteorStats:
    """Sum statistics as the configuration's flavour pools them (spec 5.5 for METEOR 1.5)."""
    total = MeteorStats.zero(len(config.modules))
    skip = config.zero_penalty_if_perfect
    for record in records:
        total = total.merge(record, skip_perfect_chunks=skip)
    return total


# -- input checks -----------------------------------------------------------------------------


def check_segment(hypothesis: str, references: Sequence[str]) -> None:
    """The argument checks of one segment (same errors, same order, on every path)."""
    if isinstance(references, str):
        raise TypeError("references: expected a sequence of reference strings, got a str")
    if not isinstance(hypothesis, str):
        raise TypeError(f"hypothesis: expected a str, got {type(hypothesis).__name__}")
    if len(references) == 0:
        raise InputError("references: at least one reference is required")


def check_reference(k: int, text: object) -> None:
    """``references[k]`` must be a string."""
    if not isinstance(text, str):
        raise TypeError(f"references[{k}]: expected a str, got {type(text).__name__}")


def check_corpus(hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> None:
    """The argument checks of a corpus: sequences, equal counts, grouped references."""
    if isinstance(hypotheses, str):
        raise TypeError("hypotheses: expected a sequence of strings, got a str")
    if isinstance(references, str):
        raise TypeError("references: expected a sequence of reference lists, got a str")
    if len(hypotheses) != len(references):
        raise InputError(
            f"got {len(hypotheses)} hypotheses but {len(references)} reference groups; "
            "references[i] must hold the references of hypotheses[i]"
        )
    for k, refs in enumerate(references):
        if isinstance(refs, str):
            raise TypeError(
                f"references[{k}]: expected a sequence of reference strings, got a str "
                "(wrap a single reference in a list)"
            )


def aligner_substituted() -> bool:
    """Whether a test replaced this module's ``beam_align`` (the compiled pair path is then
    off, so that every alignment goes through the substitute)."""
    return beam_align is not _search.beam_align


# -- the pipeline -----------------------------------------------------------------------------


class Pipeline:
    """The steps from text to statistics for one configuration, with resources and caches.

    Args:
        config: The settings.
    """

    def __init__(self, config: MeteorConfig) -> None:
        self.config = config
        self.jar = config.flavour == "meteor15"
        self.nltk: NltkMeteor | None = None
        if config.flavour == "nltk":
            from meteor_eval.metrics.meteor.nltk import NltkMeteor

            self.nltk = NltkMeteor(
                preprocess=str.lower if config.normalization == "lower" else _keep,
                alpha=config.alpha,
                beta=config.beta,
                gamma=config.gamma,
            )
        self._intern: dict[str, int] = {}
        self._intern_ids = itertools.count()
        self.identity: Callable[[str], int] = java_hash if self.jar else self._intern_id
        self.context = matchers.MatcherContext(
            flavour=config.flavour,
            language=config.language,
            language_code=config.lang.short_name,
            identity=self.identity,
            stem_table=config.stem_table,
            synonym_dir=config.synonym_dir,
            paraphrase_table=config.paraphrase_table,
        )
        self.matchers: list[Matcher] = (
            []
            if self.nltk is not None
            else [matchers.get(m).build(self.context) for m in config.modules]
        )
        self.aligner_weights = tuple(1.0 if m == "exact" else 0.5 for m in config.modules)
        self.function_words: frozenset[str] = self._load_function_words()
        self.function_cache = _FunctionFlags(self.function_words)
        #: Whether a function word holds a letter on which java_lower and str.lower differ
        #: (none of the shipped lists does): see :meth:`function_flags_uncached`.
        self._lower_sensitive_words = any(map(lower_sensitive, self.function_words))
        self.ref_cache: dict[str, Segment] = {}
        self._nltk_ref_cache: dict[str, tuple[str, ...]] = {}
        #: The paper2005 flavour's block path for batches (None: it does not apply).
        self.paper2005_rows: Paper2005Rows | None = None
        if config.flavour == "paper2005":
            from meteor_eval.metrics.meteor.paper2005 import Paper2005Rows

            self.paper2005_rows = Paper2005Rows.for_pipeline(self)

    # -- resources and word identities ---------------------------------------------------------

    def _intern_id(self, token: str) -> int:
        """A dense id per token for the non-jar flavours. ``setdefault`` and ``next`` are each
        one atomic step, so threads interning new words at once never share an id."""
        ids = self._intern
        found = ids.get(token)
        if found is None:
            found = ids.setdefault(token, next(self._intern_ids))
        return found

    def _load_function_words(self) -> frozenset[str]:
        if self.config.flavour != "meteor15":
            return frozenset()
        from meteor_eval.resources.function_words import function_words, load_function_words_file

        if self.config.function_words_file is not None:
            return frozenset(load_function_words_file(Path(self.config.function_words_file)))
        # The jar loads english.words whatever the language (only -s changes it), so every
        # language scores with the English list; verified with `-l fr -ssOut`.
        return frozenset(function_words("english"))

    def function_flags_uncached(self, tokens: Sequence[str]) -> bytes:
        """:meth:`function_flags` without the per-word cache (for tokens met for the first
        time, e.g. a word-type table's new types), one byte a token: 1 for a function word.

        The batch is lower-cased at C speed with ``str.lower``. Where :func:`java_lower`
        lowers a token otherwise, both forms hold a letter that no function word holds unless
        :func:`lower_sensitive` (none of the shipped lists), so every flag stands; otherwise
        the non-ASCII tokens are looked up again through :func:`java_lower`.
        """
        words = self.function_words
        flags = bytes(map(words.__contains__, map(str.lower, tokens)))
        if not self._lower_sensitive_words:
            return flags
        redone = bytearray(flags)
        others = map(operator.not_, map(str.isascii, tokens))
        for k in itertools.compress(range(len(tokens)), others):
            redone[k] = java_lower(tokens[k]) in words
        return bytes(redone)

    def function_flags(self, tokens: tuple[str, ...]) -> tuple[bool, ...]:
        """Function-word flag of every token (cached per word type)."""
        return tuple(map(self.function_cache.__getitem__, tokens))

    # -- text -> tokens ------------------------------------------------------------------------

    def tokenize(self, text: str) -> tuple[str, ...]:
        """Preprocess one text as configured: normalise, lower-case, split (spec 1.6).

        The ``nltk`` flavour returns NLTK's tokens unchanged (its ``preprocess`` lower-cases
        each token while matching, as NLTK does).
        """
        name = self.config.tokenizer
        if name == "default" and self.nltk is not None:
            name = "nltk"
        if name != "default":
            if name == "nltk":
                from meteor_eval.text.nltk_tokenize import nltk_word_tokenize

                tokens = nltk_word_tokenize(text)
            else:
                tokens = text.split()
            if self.nltk is None and self.config.normalization == "lower":
                return tuple(token.lower() for token in tokens)
            return tuple(tokens)
        return tuple(
            preprocess(text, language=self.config.language, level=self.config.normalization)
        )

    def segment(self, text: str, side: str = "hypothesis") -> Segment:
        """Preprocessed tokens of a text with their word identities (any length: the work of
        a pair is bounded by :meth:`check_pair_work`; ``side`` is kept for callers)."""
        del side
        return self.segment_of(self.tokenize(text))

    def candidate_pairs(self, hyp: tuple[str, ...], ref: tuple[str, ...]) -> int:
        """The work unit of :mod:`meteor_eval.limits` for meteor15 and paper2005: pairs of
        positions holding the same word, or the same stem when a stem module is configured
        (every exact pair is also a stem pair). Linear in the lengths."""
        keys: Callable[[tuple[str, ...]], Sequence[object]] = lambda tokens: tokens  # noqa: E731
        for matcher in self.matchers:
            stem_ids = getattr(matcher, "stem_ids", None)
            if stem_ids is not None:
                keys = stem_ids
                break
        counts = Counter(keys(ref))
        return sum(counts[key] * n for key, n in Counter(keys(hyp)).items())

    def check_pair_work(self, hyp: Segment, ref: Segment) -> None:
        """Refuse a pair whose candidate pairs exceed the flavour's work budget (counted only
        when the product of the lengths, their upper bound, exceeds it).

        Raises:
            WorkBudgetError: above ``WORK_BUDGET[flavour]``.
        """
        self.check_token_work(hyp.tokens, ref.tokens)

    def check_token_work(self, hyp: tuple[str, ...], ref: tuple[str, ...]) -> None:
        """:meth:`check_pair_work` of preprocessed tokens.

        Raises:
            WorkBudgetError: above ``WORK_BUDGET[flavour]``.
        """
        kind = self.config.flavour
        budget = WORK_BUDGET[kind]
        if len(hyp) * len(ref) > budget:
            # Pairs of equal words first (no stemming): when they alone exceed the budget, the
            # stem pairs (a superset) do too, and a long line is refused without stemming it.
            counts = Counter(ref)
            exact = sum(counts[token] * n for token, n in Counter(hyp).items())
            check_work(kind, exact if exact > budget else self.candidate_pairs(hyp, ref))

    def segment_of(self, tokens: tuple[str, ...]) -> Segment:
        """The segment of preprocessed tokens."""
        return _base.Segment(tokens, tuple(map(self.identity, tokens)))

    def reference(self, text: str) -> Segment:
        """:meth:`segment` of a reference, cached (references recur across systems)."""
        cache = self.ref_cache
        seg = cache.get(text)
        if seg is None:
            if len(cache) >= CACHE_LIMIT:
                cache.clear()
            seg = self.segment(text, "reference")
            cache[text] = seg
        return seg

    # -- tokens -> matches -> alignment --------------------------------------------------------

    def align(self, hyp: Segment, ref: Segment) -> list[Match]:
        """The chosen matches between two preprocessed segments, in reference order."""
        if self.jar:
            return self._align_meteor15(hyp, ref)
        return self._align_paper2005(hyp, ref)

    def _align_meteor15(self, hyp: Segment, ref: Segment) -> list[Match]:
        identical = hyp.ids == ref.ids
        # The work budget (candidate matches, as the compiled kernel counts them): the exact
        # stage's count first, before any candidate is made (repeated words make it explode),
        # then every stage's.
        if self.config.modules and self.config.modules[0] == "exact":
            counts = Counter(hyp.ids)
            check_work("meteor15", sum(counts[x] for x in ref.ids))
        stage_lists = []
        for stage, matcher in enumerate(self.matchers):
            stage_lists.append(matcher.candidates(hyp, ref, stage))
            if identical:  # spec 3.5: only the first module runs for identical sentences
                break
        check_work("meteor15", sum(map(len, stage_lists)))
        if not aligner_substituted():
            # The library's aligner: the compiled one builds the candidate store itself.
            return beam_align_stages(
                stage_lists, len(hyp), len(ref), self.aligner_weights, beam=self.config.beam
            )
        # An aligner substituted for ``beam_align`` (tests compare implementations this way).
        store = CandidateStore(len(hyp), len(ref))
        for candidates in stage_lists:
            store.extend(candidates)
        return beam_align(store, self.aligner_weights, beam=self.config.beam)

    def _align_paper2005(self, hyp: Segment, ref: Segment) -> list[Match]:
        stages = [
            [(m.hyp_start, m.ref_start) for m in matcher.candidates(hyp, ref, stage)]
            for stage, matcher in enumerate(self.matchers)
        ]
        from meteor_eval.align import exhaustive  # the paper2005 flavour's aligner

        chosen, spent = exhaustive.align_stages_bounded(stages, budget=exhaustive.SEARCH_BUDGET)
        if spent:
            from meteor_eval.metrics.meteor.paper2005 import warn_budget  # a rare path

            warn_budget(hyp, ref, spent)
        matches = [Match(j, 1, i, 1, stage) for stage, pairs in enumerate(chosen) for i, j in pairs]
        matches.sort()
        return matches

    # -- alignment -> statistics ---------------------------------------------------------------

    def pair_stats(
        self, hyp: Segment, ref: Segment, *, want_matches: bool = True
    ) -> tuple[MeteorStats, list[Match], int]:
        """Statistics, matches and chunks of one hypothesis against one reference.

        With ``want_matches=False`` the returned match list may be empty (only the statistics
        and chunks are needed).

        Raises:
            WorkBudgetError: the pair's candidate pairs exceed the work budget.
        """
        self.check_pair_work(hyp, ref)
        matches = self.align(hyp, ref)
        if not self.config.characters:
            stats, chunks = word_stats(
                matches,
                self.function_flags(hyp.tokens),
                self.function_flags(ref.tokens),
                len(self.config.modules),
            )
            return stats, matches, chunks
        # Character mode: lengths and matches count UTF-16 code units.
        chunks = count_chunks(matches, len(ref))
        stats = stats_from_alignment(
            matches,
            chunks,
            self.function_flags(hyp.tokens),
            self.function_flags(ref.tokens),
            len(self.config.modules),
            hyp_sizes=[utf16_len(t) for t in hyp.tokens],
            ref_sizes=[utf16_len(t) for t in ref.tokens],
        )
        return stats, matches, chunks

    def best_reference(
        self, hyp: Segment, references: Sequence[str], *, want_matches: bool = True
    ) -> tuple[MeteorStats, int, Segment, list[Match], int]:
        """Statistics, index, segment, matches and chunks of the best reference (spec 5.4).

        ``references`` holds at least one entry (checked by the callers). Without
        ``want_matches`` the match list may be empty.
        """
        best_score = -1.0
        best: tuple[MeteorStats, int, Segment, list[Match], int] | None = None
        several = len(references) > 1
        for k, text in enumerate(references):
            if not isinstance(text, str):
                check_reference(k, text)
            ref = self.reference(text)
            stats, matches, chunks = self.pair_stats(hyp, ref, want_matches=want_matches)
            # With one reference there is nothing to compare: skip the formula.
            score = score_from_stats(stats, self.config).score if several else 0.0
            if score > best_score:
                best_score = score
                best = (stats, k, ref, matches, chunks)
        assert best is not None  # at least one reference, and every score is >= 0 > -1
        return best

    def segment_stats(
        self, hypothesis: str, references: Sequence[str]
    ) -> tuple[MeteorStats, int, Alignment]:
        """Statistics of the best reference (spec 5.4), its index and its alignment.

        Raises:
            TypeError: ``references`` is a bare string.
            InputError: there is no reference.
        """
        check_segment(hypothesis, references)
        if self.nltk is not None:
            return self._nltk_segment_stats(self.nltk, hypothesis, references)
        hyp = self.segment(hypothesis)
        stats, k, ref, matches, chunks = self.best_reference(hyp, references)
        alignment = _alignment.Alignment(
            hyp.tokens, ref.tokens, tuple(matches), self.config.modules, chunks
        )
        return stats, k, alignment

    def best_stats(self, hypothesis: str, references: Sequence[str]) -> MeteorStats:
        """Statistics of the best reference: :meth:`segment_stats`'s first item, built without
        the alignment (what pooled corpus scoring needs).

        Raises:
            TypeError: ``references`` is a bare string.
            InputError: there is no reference.
        """
        return self.best_stats_and_index(hypothesis, references)[0]

    def best_stats_and_index(
        self, hypothesis: str, references: Sequence[str]
    ) -> tuple[MeteorStats, int]:
        """:meth:`best_stats` and the index of the reference that was kept."""
        check_segment(hypothesis, references)
        if self.nltk is not None:
            return self._nltk_segment_stats(self.nltk, hypothesis, references)[:2]
        return self.best_reference(self.segment(hypothesis), references, want_matches=False)[:2]

    def best_stats_many(self, pairs: Sequence[tuple[str, Sequence[str]]]) -> list[MeteorStats]:
        """:meth:`best_stats` of each ``(hypothesis, references)`` pair, in order (for
        paper2005, through its compiled block path where it takes the batch: same records)."""
        block = self.paper2005_rows
        if block is not None and len(pairs) >= 2:
            records = block.best_stats(pairs)
            if records is not None:
                return records
        return each_placed(pairs, self.best_stats)

    def pooled_stats_many(self, pairs: Sequence[tuple[str, Sequence[str]]]) -> MeteorStats:
        """``pool_stats(best_stats_many(pairs))``: the pairs' statistics pooled in order (for
        paper2005's block path, the rows summed in one compiled call: the same total)."""
        block = self.paper2005_rows
        if block is not None and len(pairs) >= 2:
            rows = block.best_rows(pairs)
            if rows is not None:
                return block.pooled(rows)
        return pool_stats(self.best_stats_many(pairs), self.config)

    def _nltk_segment_stats(
        self, scorer: NltkMeteor, hypothesis: str, references: Sequence[str]
    ) -> tuple[MeteorStats, int, Alignment]:
        """NLTK's staged greedy matching; the first reference with the highest score is kept."""
        from meteor_eval.align.greedy import greedy_align
        from meteor_eval.metrics.meteor.nltk import stats_from_matches

        preprocess_token = scorer.preprocess
        n_modules = len(self.config.modules)
        stem = scorer.stem if n_modules >= 2 else None
        synonyms = scorer.synonyms if n_modules >= 3 else None
        hyp_tokens = self.tokenize(hypothesis)
        budget = WORK_BUDGET["nltk"]
        hyp = [preprocess_token(t) for t in hyp_tokens]
        best: tuple[float, MeteorStats, int, list[str], list[tuple[int, int, int]]] | None = None
        for k, text in enumerate(references):
            check_reference(k, text)
            tokens = self._nltk_ref_cache.get(text)
            if tokens is None:
                if len(self._nltk_ref_cache) >= CACHE_LIMIT:
                    self._nltk_ref_cache.clear()
                tokens = self.tokenize(text)
                self._nltk_ref_cache[text] = tokens
            if len(hyp_tokens) * len(tokens) > budget:  # the greedy matcher's comparisons
                check_work("nltk", len(hyp_tokens) * len(tokens))
            ref = [preprocess_token(t) for t in tokens]
            pairs = greedy_align(hyp, ref, stem=stem, synonyms=synonyms)
            stats = stats_from_matches(pairs, len(hyp), len(ref))
            value = scorer.score(stats)
            if best is None or value > best[0]:
                best = (value, stats, k, ref, pairs)
        assert best is not None
        _, stats, k, ref, pairs = best
        matches = tuple(sorted(Match(j, 1, i, 1, stage) for i, j, stage in pairs))
        alignment = _alignment.Alignment(
            tuple(hyp), tuple(ref), matches, self.config.modules, stats.chunks
        )
        return stats, k, alignment


_R = TypeVar("_R")


def each_placed(
    pairs: Sequence[tuple[str, Sequence[str]]], fn: Callable[[str, Sequence[str]], _R]
) -> list[_R]:
    """``fn(hypothesis, references)`` of each pair; a work budget's error is placed at its
    pair's index."""
    out: list[_R] = []
    for index, (hypothesis, references) in enumerate(pairs):
        try:
            out.append(fn(hypothesis, references))
        except WorkBudgetError as exc:
            raise exc.at_index(index) from None
    return out
