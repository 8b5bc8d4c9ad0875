"""The ``paper2005`` flavour's block path: a batch of pairs to statistics rows in one call.

:class:`~meteor_eval.metrics.meteor.pipeline.Pipeline` scores a ``paper2005`` segment step by
step (tokens, interned identities, each matcher's candidates as ``Match`` objects, the exact
stages of :func:`~meteor_eval.align.exhaustive.align_stages_bounded`, ``word_stats``): that
path stays the readable twin and the oracle of the tests. For a batch of segments,
:class:`Paper2005Rows` does the same work with Python objects only for new lines (their tokens
and ids) and new word types, and none per pair in a pooled batch: each distinct line
(hypothesis or reference) is preprocessed once and kept as the ids of its word types (native
int32); each new word type gets its stem key and its synonym set (ascending int64 values in one
pool) once, a batch at a time; then the compiled
``paper2005_rows`` (``_ext/exact.c``) makes every pair's candidates of each stage (the
generators of the METEOR 1.5 pair kernel: equal word types, equal stems of different words,
intersecting synonym sets of different words), runs the same exact stages as ``exact_stages``
and writes the 23 statistics of the jar's order into one int64 block. The statistics and the
budget warnings are those of the per-segment path, bit for bit
(``tests/property/test_paper2005_rows.py``).

The block path takes only plain input: ``str`` hypotheses with sequences of ``str``
references, pairs within the work budget, word mode, at most four modules, the built-in
matchers, the compiled exact stages in use (not forced off, as ``METEOR_EVAL_PURE_PYTHON=1`` or
a test does) and a budget they take. Anything else is left to the per-segment path (which then
raises the same errors at the same pair, in the same order).
"""

from __future__ import annotations

import itertools
import threading
import warnings
from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

from meteor_eval._ext import compiled_kernels
from meteor_eval.align import exhaustive
from meteor_eval.errors import SearchBudgetWarning, WorkBudgetError
from meteor_eval.limits import WORK_BUDGET
from meteor_eval.match.base import Segment
from meteor_eval.match.exact import ExactMatcher
from meteor_eval.match.stem import StemMatcher
from meteor_eval.match.synonym import SynonymMatcher
from meteor_eval.metrics.meteor.formula import score_from_stats
from meteor_eval.stats.meteor import ROW_LENGTH, MeteorStats, pool_flat

if TYPE_CHECKING:
    from meteor_eval.match.base import Matcher
    from meteor_eval.metrics.meteor.config import MeteorConfig

__all__ = ["Paper2005Rows", "warn_budget"]


class Pipeline(Protocol):
    """What the block path reads of the per-segment pipeline
    (:class:`~meteor_eval.metrics.meteor.pipeline.Pipeline`, which builds it): its settings,
    matchers and function words, its tokenizer and its check of a pair's token work."""

    @property
    def config(self) -> MeteorConfig: ...

    @property
    def matchers(self) -> list[Matcher]: ...

    @property
    def function_words(self) -> frozenset[str]: ...

    def tokenize(self, text: str) -> tuple[str, ...]: ...

    def check_token_work(self, hyp: tuple[str, ...], ref: tuple[str, ...]) -> None: ...


# The compiled block (None: no extension, an older build, or pure Python forced at import).
_KERNEL: Any = compiled_kernels("paper2005_rows", "exact_stages")

#: Module name -> its code in ``paper2005_rows``.
_KINDS = {"exact": 0, "stem": 1, "synonym": 2}
_MATCHER_TYPES = {"exact": ExactMatcher, "stem": StemMatcher, "synonym": SynonymMatcher}

#: Word types a table holds before it starts afresh (bounded memory on endless input).
TYPE_LIMIT = 1 << 18

_ORIGINAL_STAGES = exhaustive.align_stages_bounded


def _stats_of_row(row: Sequence[int], n_stages: int) -> MeteorStats:
    """A row in the jar's order as the record of ``n_stages`` (at most four) stages."""
    stages = cast(
        "tuple[tuple[int, int, int, int], ...]",
        tuple(tuple(row[4 + 4 * s : 8 + 4 * s]) for s in range(n_stages)),
    )
    return MeteorStats(row[0], row[1], row[2], row[3], stages, row[20], row[21], row[22])


class Paper2005Rows:
    """A ``paper2005`` pipeline's word-type table, line cache and compiled block of rows.

    Build it with :meth:`for_pipeline` (``None`` where the block path cannot apply).
    """

    def __init__(self, pipeline: Pipeline, kinds: bytes) -> None:
        self.pipeline = pipeline
        self.kinds = kinds
        self.n_stages = len(kinds)
        matchers = dict(zip(pipeline.config.modules, pipeline.matchers, strict=True))
        self._stem: StemMatcher | None = cast("StemMatcher | None", matchers.get("stem"))
        self._synonym: SynonymMatcher | None = cast(
            "SynonymMatcher | None", matchers.get("synonym")
        )
        self._lock = threading.Lock()
        self._off = False
        self._reset()

    @classmethod
    def for_pipeline(cls, pipeline: Pipeline) -> Paper2005Rows | None:
        """The block path of ``pipeline``, or ``None`` when it does not apply (another flavour,
        character mode, more than four modules, a matcher other than the built-in ones,
        function words, no compiled kernel)."""
        config = pipeline.config
        if (
            _KERNEL is None
            or config.flavour != "paper2005"
            or config.characters
            or not 1 <= len(config.modules) <= 4
            or pipeline.function_words
        ):
            return None
        for name, matcher in zip(config.modules, pipeline.matchers, strict=True):
            if name not in _KINDS or type(matcher) is not _MATCHER_TYPES[name]:
                return None
        return cls(pipeline, bytes(_KINDS[name] for name in config.modules))

    def _reset(self) -> None:
        """An empty word-type table and line cache."""
        self._types: dict[str, int] = {}
        self._stems = array("q")
        self._starts = array("q", [0])
        self._pool = array("q")
        self._lines: dict[str, bytes] = {}

    # -- word types and lines --------------------------------------------------------------------

    def _add_types(self, words: list[str]) -> bool:
        """Give each new word a type id, its stem key and its synonym set; ``False`` when a
        synonym identifier does not fit 64 bits (the block path is then off for good)."""
        if self._synonym is not None:
            try:
                packed = self._synonym.packed_sets(words)
            except OverflowError:
                self._off = True
                return False
            pool = self._pool
            starts = self._starts
            for sets in packed:
                pool.frombytes(sets)
                starts.append(len(pool))
        else:
            self._starts.extend(itertools.repeat(0, len(words)))
        if self._stem is not None:
            self._stems.extend(self._stem.stem_ids_uncached(words))
        else:
            self._stems.extend(itertools.repeat(0, len(words)))
        types = self._types
        base = len(types)
        types.update(zip(words, range(base, base + len(words)), strict=True))
        return True

    def _line_ids(self, texts: list[str]) -> list[bytes] | None:
        """Each text's word-type ids (native int32 bytes); every distinct line is preprocessed
        and interned once in the table's life. ``None`` when the block path turns off."""
        if len(self._types) >= TYPE_LIMIT:
            self._reset()
        cache = self._lines
        new_lines = [t for t in dict.fromkeys(texts) if t not in cache]
        if new_lines:
            tokenize = self.pipeline.tokenize
            token_lists = [tokenize(t) for t in new_lines]
            types = self._types
            words = dict.fromkeys(itertools.chain.from_iterable(token_lists))
            new_words = [w for w in words if w not in types]
            if new_words and not self._add_types(new_words):
                return None
            if len(cache) + len(new_lines) > TYPE_LIMIT:
                kept = {t: cache[t] for t in texts if t in cache}
                cache.clear()
                cache.update(kept)
            # One array of every new line's ids, cut into lines (cheaper than one a line).
            every = array("i", map(types.__getitem__, itertools.chain.from_iterable(token_lists)))
            data = every.tobytes()
            end = 0
            for text, tokens in zip(new_lines, token_lists, strict=True):
                start, end = end, end + 4 * len(tokens)
                cache[text] = data[start:end]
        return list(map(cache.__getitem__, texts))

    # -- pairs -> rows ---------------------------------------------------------------------------

    def best_rows(self, pairs: Sequence[tuple[str, Sequence[str]]]) -> array[int] | None:
        """The 23 statistics (the jar's order, flat int64) of each pair's best reference (the
        first with the strictly highest score, spec 5.4), or ``None`` when the block path
        does not take the batch (see the module docstring)."""
        if self._off or not pairs or _KERNEL is None:
            return None
        budget = exhaustive.SEARCH_BUDGET
        if (
            exhaustive._COMPILED_STAGES is None
            or exhaustive.align_stages_bounded is not _ORIGINAL_STAGES
            or not -exhaustive._COMPILED_BUDGET_LIMIT < budget < exhaustive._COMPILED_BUDGET_LIMIT
        ):
            return None
        hyp_texts: list[str] = []
        ref_texts: list[str] = []
        counts: list[int] = []
        for hypothesis, references in pairs:
            if type(hypothesis) is not str or isinstance(references, str):
                return None
            try:
                n = len(references)
            except TypeError:
                return None
            if n == 0:
                return None
            for text in references:
                if type(text) is not str:
                    return None
                hyp_texts.append(hypothesis)
                ref_texts.append(text)
            counts.append(n)
        with self._lock:
            rows, warned = self._flat_rows(hyp_texts, ref_texts)
        if rows is None:
            return None
        for index, stages in warned:
            self._warn(hyp_texts[index], ref_texts[index], stages)
        if len(counts) == len(hyp_texts):
            return rows
        return self._best_of(rows, counts)

    def _flat_rows(
        self, hyp_texts: list[str], ref_texts: list[str]
    ) -> tuple[array[int] | None, list[tuple[int, tuple[int, ...]]]]:
        """The row of every (hypothesis, reference) pair and the searches that ran out."""
        n = len(hyp_texts)
        ids = self._line_ids(hyp_texts + ref_texts)
        if ids is None:
            return None, []
        lengths = [len(x) // 4 for x in ids]
        limit = WORK_BUDGET["paper2005"]
        if max(lengths[:n]) * max(lengths[n:]) > limit:
            check = self.pipeline.check_token_work
            tokenize = self.pipeline.tokenize
            for k in range(n):
                if lengths[k] * lengths[n + k] > limit:
                    try:
                        check(tokenize(hyp_texts[k]), tokenize(ref_texts[k]))
                    except WorkBudgetError:
                        return None, []  # the per-segment path raises it at its pair
        offsets = array("q", [0])
        offsets.extend(itertools.accumulate(lengths))
        block = b"".join(ids)
        out = array("q", bytes(8 * ROW_LENGTH * n))
        warned: list[tuple[int, tuple[int, ...]]] = _KERNEL.paper2005_rows(
            self.kinds,
            block,
            offsets[: n + 1],
            block,
            offsets[n:],
            self._stems,
            self._starts,
            self._pool,
            exhaustive.SEARCH_BUDGET,
            out,
        )
        return out, warned

    def _best_of(self, rows: array[int], counts: list[int]) -> array[int]:
        """The row of each pair's best reference among its ``counts[p]`` consecutive rows."""
        config = self.pipeline.config
        best = array("q")
        start = 0
        width = ROW_LENGTH
        for n in counts:
            if n == 1:
                best.extend(rows[start * width : (start + 1) * width])
            else:
                best_score = -1.0
                kept = start
                for k in range(start, start + n):
                    stats = _stats_of_row(rows[k * width : (k + 1) * width], self.n_stages)
                    score = score_from_stats(stats, config).score
                    if score > best_score:
                        best_score = score
                        kept = k
                best.extend(rows[kept * width : (kept + 1) * width])
            start += n
        return best

    def _warn(self, hypothesis: str, reference: str, stages: tuple[int, ...]) -> None:
        """The per-segment path's warning of a search that ran out of budget."""
        tokenize = self.pipeline.tokenize
        warn_budget(Segment(tokenize(hypothesis), ()), Segment(tokenize(reference), ()), stages)

    def best_stats(self, pairs: Sequence[tuple[str, Sequence[str]]]) -> list[MeteorStats] | None:
        """:meth:`best_rows` as one statistics record a pair (``None`` as there)."""
        rows = self.best_rows(pairs)
        if rows is None:
            return None
        values = rows.tolist()
        n_stages = self.n_stages
        return [
            _stats_of_row(values[k : k + ROW_LENGTH], n_stages)
            for k in range(0, len(values), ROW_LENGTH)
        ]

    def pooled(self, rows: array[int]) -> MeteorStats:
        """The pooled record of :meth:`best_rows`' block (``pool_stats`` of its records: each
        column summed, a perfect row adding no chunks when the configuration says so)."""
        total = pool_flat(rows, self.pipeline.config.zero_penalty_if_perfect)
        return _stats_of_row(total, self.n_stages)


def warn_budget(hyp: Segment, ref: Segment, stages: tuple[int, ...]) -> None:
    """One :class:`SearchBudgetWarning` naming the segment whose exact search ran out."""
    start = " ".join(hyp.tokens[:8])
    more = " ..." if len(hyp.tokens) > 8 else ""
    warnings.warn(
        f"paper2005: the exact alignment search ran out of its budget "
        f'({exhaustive.SEARCH_BUDGET:,} units) on the segment "{start}{more}" '
        f"({len(hyp.tokens)} hypothesis and {len(ref.tokens)} reference tokens; stage "
        f"{', '.join(str(k) for k in stages)}); kept the best alignment found so far "
        "(most matches, possibly more chunks than the optimum)",
        SearchBudgetWarning,
        stacklevel=2,
    )
