"""Steps tokens -> statistics in one compiled call per pair, for batches (the fast path).

For the ``meteor15`` flavour in word mode, when every configured module has a code in the
compiled pair kernel (``compiled_kind`` in :mod:`meteor_eval.match.registry`),
:class:`FastPipeline` interns word types into a :class:`~meteor_eval.match.word_types.WordTypes`
table (Java hash, stem, function flag, synonym set and paraphrase id once per type) and scores a
pair with the extension's ``meteor15_pair``: candidates, beam search and statistics in one call.
Batches intern the new word types of all their pairs at once, and a pooled batch sums the
kernel's rows directly. Results are those of :class:`~meteor_eval.metrics.meteor.pipeline.Pipeline`,
bit for bit (``tests/unit/metrics/test_compiled_pair.py``); whatever the kernel cannot take
(another flavour, character mode, a module without a code, a synonym identifier beyond 64 bits,
a full table's old segments) goes through the general path.
"""

from __future__ import annotations

import itertools
import operator
from array import array
from collections.abc import Callable, Sequence
from typing import Any, cast

from meteor_eval._ext import compiled_kernels
from meteor_eval.errors import WorkBudgetError
from meteor_eval.limits import WORK_BUDGET
from meteor_eval.match import registry as matchers
from meteor_eval.match.base import Match, Segment
from meteor_eval.match.word_types import WordTypes
from meteor_eval.metrics.meteor.config import MeteorConfig
from meteor_eval.metrics.meteor.pipeline import (
    CACHE_LIMIT,
    Pipeline,
    aligner_substituted,
    check_reference,
    check_segment,
)
from meteor_eval.stats.meteor import MeteorStats
from meteor_eval.text.tokenize import java_hash

__all__ = ["FastPipeline", "compiled_kinds"]

# The whole METEOR 1.5 pair (candidates, beam search, statistics) in one compiled call.
_PAIR_KERNEL: Any = compiled_kernels("meteor15_pair", "paraphrase_root")

_STEM, _SYNONYM, _PARAPHRASE = 1, 2, 3


def compiled_kinds(config: MeteorConfig) -> bytes | None:
    """The module codes of ``meteor15_pair`` for ``config``, or ``None`` when the compiled pair
    path does not apply (another flavour, character mode, a module the kernel does not
    implement, or no extension)."""
    if _PAIR_KERNEL is None or config.flavour != "meteor15" or config.characters:
        return None
    kinds = [matchers.get(name).compiled_kind for name in config.modules]
    if any(kind is None for kind in kinds):
        return None
    return bytes(cast("list[int]", kinds))


def _row_of(stats: MeteorStats) -> tuple[int, ...]:
    """A statistics record in the kernel's row order (lengths, chunks, matched, stages)."""
    return (
        stats.hyp_length,
        stats.ref_length,
        stats.hyp_function,
        stats.ref_function,
        stats.chunks,
        stats.hyp_matched,
        stats.ref_matched,
        *itertools.chain.from_iterable(stats.stages),
    )


def _stats_of(row: Sequence[int]) -> MeteorStats:
    """The kernel's row as a statistics record."""
    stages = cast(
        "tuple[tuple[int, int, int, int], ...]",
        tuple(tuple(row[b : b + 4]) for b in range(7, len(row), 4)),
    )
    return MeteorStats(row[0], row[1], row[2], row[3], stages, row[4], row[5], row[6])


class FastPipeline(Pipeline):
    """:class:`Pipeline` with the compiled pair path where it applies (same results).

    Args:
        config: The settings.
    """

    def __init__(self, config: MeteorConfig) -> None:
        super().__init__(config)
        self.pair_kinds = compiled_kinds(config)
        self.word_types: WordTypes | None = None
        self._trie: tuple[object, ...] | None = None
        if self.pair_kinds is not None:
            self.new_word_types()

    def new_word_types(self) -> None:
        """Start an empty word-type table (and forget the references interned with the old)."""
        stem: Callable[[str], int] | None = None
        synonyms: Any = None
        paraphrase: Callable[[str], int] | None = None
        assert self.pair_kinds is not None
        for kind, matcher in zip(self.pair_kinds, self.matchers, strict=True):
            if kind == _STEM:
                stem = matcher.stem_id  # type: ignore[attr-defined]
            elif kind == _SYNONYM:
                synonyms = matcher.packed_sets  # type: ignore[attr-defined]
            elif kind == _PARAPHRASE:
                paraphrase = matcher.token_id  # type: ignore[attr-defined]
                self._trie = matcher.compiled_trie()  # type: ignore[attr-defined]
        self.word_types = WordTypes(
            identity=java_hash,
            function=self.function_cache.__getitem__,
            stem=stem,
            paraphrase=paraphrase,
            synonyms=synonyms,
        )
        self.ref_cache.clear()

    def _general_path(self) -> None:
        """Leave the compiled pair path for good (a synonym identifier beyond 64 bits)."""
        self.word_types = None
        self.ref_cache.clear()

    def segment_of(self, tokens: tuple[str, ...]) -> Segment:
        """The segment of preprocessed tokens, interned when the compiled pair path is on."""
        types = self.word_types
        if types is None:
            return super().segment_of(tokens)
        if types.full:  # bound memory: segments interned with the old table use the general path
            self.new_word_types()
            types = self.word_types
            assert types is not None
        try:
            interned = types.intern(tokens)
        except OverflowError:
            # A synonym identifier beyond 64 bits (a custom table): the general path handles it.
            self._general_path()
            return super().segment_of(tokens)
        return Segment(tokens, types.identities(interned), (types, interned))

    def _kernel_arguments(
        self, want_matches: bool, types: WordTypes | None = None
    ) -> tuple[object, ...]:
        """The arguments of ``meteor15_pair`` after the two segments (``types``: the table the
        segments were interned with; default the current one)."""
        if types is None:
            types = self.word_types
        assert types is not None
        return (
            types.hashes,
            types.stems,
            types.paraphrase_ids,
            types.functions,
            types.synonym_starts,
            types.synonym_pool,
            self._trie,
            self.aligner_weights,
            self.config.beam,
            Match if want_matches else None,
        )

    def _interned(self, hyp: Segment, ref: Segment) -> bool:
        """Both segments were interned with the current word-type table."""
        types = self.word_types
        return (
            types is not None
            and hyp.interned is not None
            and ref.interned is not None
            and hyp.interned[0] is types
            and ref.interned[0] is types
        )

    def pair_stats(
        self, hyp: Segment, ref: Segment, *, want_matches: bool = True
    ) -> tuple[MeteorStats, list[Match], int]:
        """:meth:`Pipeline.pair_stats` through ``meteor15_pair`` when both segments were
        interned with the current table (and no aligner is substituted)."""
        # Inline checks rather than helper calls: this runs once per pair and reference.
        types = self.word_types
        if (
            types is None
            or hyp.interned is None
            or ref.interned is None
            or hyp.interned[0] is not types
            or ref.interned[0] is not types
            or aligner_substituted()
        ):
            return super().pair_stats(hyp, ref, want_matches=want_matches)
        self.check_pair_work(hyp, ref)
        with types.lock:  # no other thread grows the tables while the kernel reads them
            row, matches = _PAIR_KERNEL.meteor15_pair(
                self.pair_kinds,
                hyp.interned[1],
                ref.interned[1],
                *self._kernel_arguments(want_matches, types),
            )
        stages = tuple(row[b : b + 4] for b in range(7, len(row), 4))
        stats = MeteorStats(row[0], row[1], row[2], row[3], stages, row[4], row[5], row[6])
        return stats, matches if matches is not None else [], row[4]

    def best_stats_many(self, pairs: Sequence[tuple[str, Sequence[str]]]) -> list[MeteorStats]:
        """:meth:`Pipeline.best_stats_many`, with the new word types of all the pairs interned
        in one batch (cheaper than one batch per segment when many words are new). The same
        statistics and errors (the first faulty pair raises, before any is scored)."""
        hyps = self.interned_batch(pairs) if len(pairs) >= 2 else None
        if hyps is None:
            return super().best_stats_many(pairs)
        best = self.best_reference
        out: list[MeteorStats] = []
        for index, (hyp, (_, refs)) in enumerate(zip(hyps, pairs, strict=True)):
            try:
                out.append(best(hyp, refs, want_matches=False)[0])
            except WorkBudgetError as exc:
                raise exc.at_index(index) from None
        return out

    def pooled_stats_many(self, pairs: Sequence[tuple[str, Sequence[str]]]) -> MeteorStats:
        """:meth:`Pipeline.pooled_stats_many`; when every pair has one reference, the kernel's
        rows are summed directly (no statistics record or Python call per stage for each
        pair)."""
        hyps = None
        if (
            _PAIR_KERNEL is not None
            and not aligner_substituted()
            and all(len(refs) == 1 for _, refs in pairs)
        ):
            hyps = self.interned_batch(pairs)
        if hyps is None or self.word_types is None:  # (dropped meanwhile by another thread)
            return super().pooled_stats_many(pairs)
        lock = self.word_types.lock
        kernel = _PAIR_KERNEL.meteor15_pair
        fixed = self._kernel_arguments(False)
        kinds = self.pair_kinds
        reference = self.reference
        interned = self._interned
        skip = self.config.zero_penalty_if_perfect
        total: list[int] = [0] * (7 + 4 * len(self.config.modules))
        budget = WORK_BUDGET["meteor15"]
        for index, (hyp, (_, refs)) in enumerate(zip(hyps, pairs, strict=True)):
            ref = reference(refs[0])
            if len(hyp.tokens) * len(ref.tokens) > budget:
                try:
                    self.check_pair_work(hyp, ref)
                except WorkBudgetError as exc:
                    raise exc.at_index(index) from None
            if interned(hyp, ref):
                assert hyp.interned is not None and ref.interned is not None
                with lock:  # the tables do not grow while the kernel reads them
                    row = kernel(kinds, hyp.interned[1], ref.interned[1], *fixed)[0]
            else:  # interned with another table (it filled up): the general path
                row = _row_of(self.pair_stats(hyp, ref, want_matches=False)[0])
            if skip and row[4] == 1 and row[5] == row[0] and row[6] == row[1]:
                # A perfect segment adds no chunks (word mode: matched words = stage sums).
                row = (*row[:4], 0, *row[5:])
            total = list(map(operator.add, total, row))
        return _stats_of(total)

    def interned_batch(self, pairs: Sequence[tuple[str, Sequence[str]]]) -> list[Segment] | None:
        """The hypotheses' segments, after checking every pair (errors as in
        :meth:`Pipeline.best_stats`) and interning the new word types of all hypotheses and
        references in one batch; the references are put in the reference cache. ``None`` when
        the compiled pair path is off (or turns off here: a synonym identifier beyond 64
        bits)."""
        types = self.word_types
        if types is None:
            return None
        for hypothesis, references in pairs:
            check_segment(hypothesis, references)
            for k, text in enumerate(references):
                check_reference(k, text)
        tokenize = self.tokenize
        hyp_tokens = [tokenize(h) for h, _ in pairs]
        cache = self.ref_cache
        new_refs = {t: tokenize(t) for _, refs in pairs for t in refs if t not in cache}
        if types.full:
            self.new_word_types()
            types = self.word_types
            assert types is not None
        words = dict.fromkeys(
            itertools.chain.from_iterable(itertools.chain(hyp_tokens, new_refs.values()))
        )
        try:
            types.add([w for w in words if w not in types])
        except OverflowError:  # see segment_of(): the general path from now on
            self._general_path()
            return None
        if len(cache) + len(new_refs) > CACHE_LIMIT:
            cache.clear()
        # Every word is known now: the segments are built without segment_of()'s checks.
        known = types.__getitem__
        identities = types.identities

        def segment_of(tokens: tuple[str, ...]) -> Segment:
            ids = array("i", map(known, tokens))
            return Segment(tokens, identities(ids), (types, ids))

        for text, tokens in new_refs.items():
            cache[text] = segment_of(tokens)
        return [segment_of(tokens) for tokens in hyp_tokens]
