"""Steps tokens -> statistics in one compiled call per pair, for batches (the fast path).

For the ``meteor15`` flavour in word mode, when every configured module has a code in the
compiled pair kernel (``compiled_kind`` in :mod:`meteor_eval.match.registry`),
:class:`FastPipeline` interns word types into a :class:`~meteor_eval.match.word_types.WordTypes`
table (Java hash, stem, function flag, synonym set and paraphrase id once per type) and scores a
pair with the extension's ``meteor15_pair``: candidates, beam search and statistics in one call.
Batches intern the new word types of all their pairs at once, and a pooled batch sums the
kernel's rows directly. Batches of single-reference pairs go further
(:meth:`FastPipeline.rows_flat`): their word-type ids are concatenated into two arrays and
``meteor15_rows`` writes every pair's 23 statistics straight into one int64 buffer, with no
Python object per pair between the tokens and the row, and a pooled batch sums it in C
(``pool_rows``): the plain corpus path does not import NumPy (its import is about a quarter of a
small job's time); :meth:`FastPipeline.rows_block` gives the same rows as a NumPy block for
callers that want arrays. Their lines are preprocessed and interned by
the compiled front end ``meteor15_lines`` (``_ext/frontend.c``: normaliser, Java's
lower-casing, split, a token cache and a line cache, one Python object per new word type only,
none per line or token), whose readable twin is :meth:`FastPipeline.tokens_python`. Results
are those of
:class:`~meteor_eval.metrics.meteor.pipeline.Pipeline`, bit for bit
(``tests/unit/metrics/test_compiled_pair.py``); whatever the kernel cannot take (another flavour,
character mode, a module without a code, a synonym identifier beyond 64 bits, a full table's old
segments) goes through the general path.

A pair's work is its number of candidate matches: the kernel counts them before building its
store and refuses a pair above :data:`meteor_eval.limits.WORK_BUDGET` (there is no token limit).
"""

from __future__ import annotations

import itertools
import operator
from array import array
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, cast

from meteor_eval import limits
from meteor_eval._ext import compiled_kernels
from meteor_eval.errors import ConfigError, WorkBudgetError
from meteor_eval.match import base as _base
from meteor_eval.match import registry as matchers
from meteor_eval.match.base import Match
from meteor_eval.match.word_types import WordTypes
from meteor_eval.metrics.meteor.config import MeteorConfig
from meteor_eval.metrics.meteor.pipeline import (
    CACHE_LIMIT,
    Pipeline,
    aligner_substituted,
    check_reference,
    check_segment,
)
from meteor_eval.resources.nonbreaking import nonbreaking_prefixes
from meteor_eval.stats.meteor import (
    ROW_LENGTH,
    MeteorStats,
    perfect_rows,
    pool_flat,
    stats_of_compiled,
)
from meteor_eval.text.normalize import normalizer_language
from meteor_eval.text.tokenize import java_hash, java_lower

if TYPE_CHECKING:
    import numpy as np

    from meteor_eval.match._segment import Segment

__all__ = ["FastPipeline", "compiled_kinds"]

# The whole METEOR 1.5 pair (candidates, beam search, statistics) in one compiled call; builds
# before the paraphrase index's node table (no _paraphrase_layout) read another trie tuple.
_PAIR_KERNEL: Any = compiled_kernels("meteor15_pair", "paraphrase_root", "_paraphrase_layout")
# A batch of pairs into a block of statistics rows (None with an older build).
_ROWS_KERNEL: Any = compiled_kernels(
    "meteor15_rows", "meteor15_pair", "paraphrase_root", "_paraphrase_layout"
)
# A cache of the references' paraphrase walks, bound to a scorer's trie (None: older build).
_WALK_CACHE: Any = compiled_kernels("paraphrase_walk_cache", "meteor15_pair", "_paraphrase_layout")
# A chunk of lines normalised, lower-cased, split and interned in one call (None: the Python
# front end, FastPipeline.tokens_python, does it).
_FRONT_KERNEL: Any = compiled_kernels("meteor15_tokens", "meteor15_token_cache")
# The same with a line cache in the token cache: a line met before is not read again (None:
# an older build; FastPipeline.line_ids keeps the lines in a dict instead).
_LINES_KERNEL: Any = compiled_kernels("meteor15_lines", "meteor15_tokens", "meteor15_token_cache")

_LABEL = "METEOR (meteor15)"

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


def _stats_of_jar_row(row: Sequence[int], n_stages: int) -> MeteorStats:
    """A row in the jar's order (23 numbers) as a statistics record of ``n_stages`` stages."""
    stages = cast(
        "tuple[tuple[int, int, int, int], ...]",
        tuple(tuple(row[4 + 4 * s : 8 + 4 * s]) for s in range(n_stages)),
    )
    return MeteorStats(row[0], row[1], row[2], row[3], stages, row[20], row[21], row[22])


def _rows_of_flat(rows: array[int]) -> list[list[int]]:
    """The rows of a flat block (:meth:`FastPipeline.rows_flat`) as lists of ints."""
    values = rows.tolist()
    return [values[k : k + ROW_LENGTH] for k in range(0, len(values), ROW_LENGTH)]


def _over_budget(units: int, index: int | None = None) -> WorkBudgetError:
    """The error of a pair whose candidate matches passed the budget."""
    return WorkBudgetError(_LABEL, "meteor15", units, limits.WORK_BUDGET["meteor15"], index)


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
        #: Line (hypothesis or reference) -> its word-type ids (native int32 bytes) in the
        #: current table: the block path's cache (at most CACHE_LIMIT lines, plus a batch).
        self._line_ids: dict[str, bytes] = {}
        #: The compiled front end's settings (mode, keep punctuation, nonbreaking prefixes), or
        #: ``None`` when the lines of a batch are preprocessed in Python.
        self._front = self._front_settings(config)
        #: The compiled front end's token cache (one per word-type table).
        self._token_cache: object = None
        #: The references' paraphrase walks met so far (the fifth item of the trie tuple).
        self._walk_cache: object = (
            None if _WALK_CACHE is None else _WALK_CACHE.paraphrase_walk_cache()
        )
        if self.pair_kinds is not None:
            self.new_word_types()

    def new_word_types(self) -> None:
        """Start an empty word-type table (and forget the references interned with the old)."""
        stem: Callable[[str], int] | None = None
        stems_of: Callable[[Sequence[str]], list[int]] | None = None
        synonyms: Any = None
        paraphrase: Callable[[str], int] | None = None
        paraphrases_of: Callable[[Sequence[str]], list[int]] | None = None
        assert self.pair_kinds is not None
        for kind, matcher in zip(self.pair_kinds, self.matchers, strict=True):
            if kind == _STEM:
                stem = matcher.stem_id  # type: ignore[attr-defined]
                stems_of = getattr(matcher, "stem_ids_uncached", None)
            elif kind == _SYNONYM:
                synonyms = matcher.packed_sets  # type: ignore[attr-defined]
            elif kind == _PARAPHRASE:
                paraphrase = matcher.token_id  # type: ignore[attr-defined]
                paraphrases_of = getattr(matcher, "token_ids", None)
                self._trie = (*matcher.compiled_trie(), self._walk_cache)  # type: ignore[attr-defined]
        # A table's new word types are new to it: their properties are computed a batch at a
        # time, without the matchers' per-word caches.
        self.word_types = WordTypes(
            identity=java_hash,
            function=self.function_cache.__getitem__,
            stem=stem,
            paraphrase=paraphrase,
            synonyms=synonyms,
            functions_of=self.function_flags_uncached,
            stems_of=stems_of,
            paraphrases_of=paraphrases_of,
        )
        self.ref_cache.clear()
        self._line_ids = {}
        self._token_cache = None if self._front is None else _FRONT_KERNEL.meteor15_token_cache()

    def _general_path(self) -> None:
        """Leave the compiled pair path for good (a synonym identifier beyond 64 bits)."""
        self.word_types = None
        self.ref_cache.clear()
        self._line_ids = {}
        self._token_cache = None

    @staticmethod
    def _front_settings(config: MeteorConfig) -> tuple[int, bool, dict[str, bool]] | None:
        """``meteor15_tokens``'s settings for ``config`` (the apostrophe mode, whether
        punctuation stays, the nonbreaking prefixes), or ``None`` when the compiled front end
        does not apply (no extension, another tokenizer, no ``-norm``)."""
        if (
            _FRONT_KERNEL is None
            or config.tokenizer != "default"
            or config.normalization not in ("norm", "norm_nopunct")
        ):
            return None
        try:
            language = normalizer_language(config.language)
        except ConfigError:
            return None  # (tokenize() raises the configuration's error)
        mode = {"english": 0, "french": 1}.get(language, 2)
        keep = config.normalization == "norm"
        return mode, keep, dict(nonbreaking_prefixes(language))

    def tokens_python(
        self, lines: Sequence[str], known: dict[str, int]
    ) -> tuple[bytes, bytes, list[str]]:
        """The front end in Python, the readable twin of ``meteor15_tokens`` (``_ext/
        frontend.c``): every line preprocessed (:meth:`tokenize`) and each token's word-type
        id in ``known`` (values ``0 .. len(known) - 1``), a token not in it numbered
        ``len(known) + k`` in order of first appearance. Returns the ids (native int32 bytes),
        the offsets of each line's ids (``len(lines) + 1`` native int64 values, as bytes) and
        the new word types in the order of their ids; ``known`` is not changed.

        Example:
            >>> pipe = FastPipeline(MeteorConfig.preset("meteor15", normalization="norm"))
            >>> ids, offsets, new = pipe.tokens_python(["The cat.", "the end"], {"the": 0})
            >>> list(array("i", ids)), list(array("q", offsets)), new
            ([0, 1, 2, 0, 3], [0, 3, 5], ['cat', '.', 'end'])
        """
        new: dict[str, int] = {}
        base = len(known)
        ids = array("i")
        offsets = array("q", [0])
        for line in lines:
            for token in self.tokenize(line):
                found = known.get(token)
                if found is None:
                    found = new.setdefault(token, base + len(new))
                ids.append(found)
            offsets.append(len(ids))
        return ids.tobytes(), offsets.tobytes(), list(new)

    def line_ids(self, texts: Sequence[str]) -> list[bytes] | None:
        """Each text's word-type ids (native int32 bytes) in the current table. Every distinct
        line (hypothesis or reference) is preprocessed and interned once in the table's life:
        the lines met before are read from the cache (at most ``CACHE_LIMIT`` lines, plus a
        batch), the others go through one :meth:`intern_lines` call. ``None`` when the
        compiled pair path is off or turns off here."""
        if self.word_types is None:
            return None
        cache = self._line_ids
        new_lines = [t for t in dict.fromkeys(texts) if t not in cache]
        interned = self.intern_lines(new_lines) if new_lines else (b"", bytes(8))
        if interned is None:
            return None
        ids, offsets = interned
        if len(cache) + len(new_lines) > CACHE_LIMIT:
            # Keep this batch's lines only (the cache then passes its limit by a batch at most).
            kept = {t: cache[t] for t in dict.fromkeys(texts) if t in cache}
            cache.clear()
            cache.update(kept)
        ends = memoryview(offsets).cast("q").tolist()
        for k, text in enumerate(new_lines):
            cache[text] = ids[4 * ends[k] : 4 * ends[k + 1]]
        return list(map(cache.__getitem__, texts))

    def line_block(self, texts: Sequence[str]) -> tuple[bytes, bytes] | None:
        """The word-type ids of every text in the current table, as one block: the ids
        (native int32 bytes) and the offsets of each text's ids (``len(texts) + 1`` native
        int64 values, as bytes), what :meth:`line_ids` gives joined. With the compiled front
        end, one ``meteor15_lines`` call: the line cache lives in the token cache (a C table
        keyed by the str's hash, at most ``CACHE_LIMIT`` lines), so no Python object is made
        per line or per token; otherwise :meth:`line_ids`, joined. ``None`` when the compiled
        pair path is off or turns off here."""
        if self.word_types is None:
            return None
        if _LINES_KERNEL is not None and self._front is not None:
            return self.intern_lines(texts, cached=True)
        arrays = self.line_ids(texts)
        if arrays is None:
            return None
        offsets = array("q", [0])
        offsets.extend(itertools.accumulate(len(a) // 4 for a in arrays))
        return b"".join(arrays), offsets.tobytes()

    def intern_lines(
        self, lines: Sequence[str], *, cached: bool = False
    ) -> tuple[bytes, bytes] | None:
        """Every line preprocessed and its tokens interned into the current word-type table
        (new word types added in one batch): the ids as native int32 bytes and the offsets of
        each line's ids (``len(lines) + 1`` native int64 values, as bytes), through the
        compiled front end where it applies (:meth:`tokens_python` otherwise). ``None`` when
        the compiled pair path is off or turns off here (an identifier beyond 64 bits, see
        :meth:`segment_of`). The table's lock is held from the numbering of the new word types
        to their addition, so the ids handed out are theirs. ``cached``: through
        ``meteor15_lines`` and its line cache (the same results; only with the compiled front
        end and a build that has it)."""
        types = self.word_types
        if types is None:
            return None
        front, cache = self._front, self._token_cache
        with types.lock:
            try:
                if front is not None and cache is not None:
                    mode, keep, prefixes = front
                    if cached and _LINES_KERNEL is not None:
                        ids, offsets, new = _LINES_KERNEL.meteor15_lines(
                            lines, mode, keep, prefixes, java_lower, types, cache, CACHE_LIMIT
                        )
                    else:
                        ids, offsets, new = _FRONT_KERNEL.meteor15_tokens(
                            lines, mode, keep, prefixes, java_lower, types, cache
                        )
                else:
                    ids, offsets, new = self.tokens_python(lines, types)
                if new:
                    types.append_new(new)
            except OverflowError:
                self._general_path()
                return None
            except BaseException:
                # The cache may have numbered word types that were not added: start it afresh.
                if self._token_cache is cache and cache is not None:
                    self._token_cache = _FRONT_KERNEL.meteor15_token_cache()
                raise
        return ids, offsets

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
        return _base.Segment(tokens, types.identities(interned), (types, interned))

    def _table_arguments(self, types: WordTypes | None = None) -> tuple[object, ...]:
        """The arguments that ``meteor15_pair`` and ``meteor15_rows`` share, in their order:
        the word-type tables of ``types`` (the table the segments were interned with; default
        the current one), the paraphrase trie, the aligner weights and the beam width."""
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
        )

    def _kernel_arguments(
        self, want_matches: bool, types: WordTypes | None = None
    ) -> tuple[object, ...]:
        """The arguments of ``meteor15_pair`` after the two segments (``types``: as
        :meth:`_table_arguments`)."""
        return (
            *self._table_arguments(types),
            Match if want_matches else None,
            limits.WORK_BUDGET["meteor15"],
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
        if row is None:  # over the work budget: matches holds the candidates counted
            raise _over_budget(matches)
        return stats_of_compiled(row), matches if matches is not None else [], row[4]

    def best_stats_many(self, pairs: Sequence[tuple[str, Sequence[str]]]) -> list[MeteorStats]:
        """:meth:`Pipeline.best_stats_many`, with the new word types of all the pairs interned
        in one batch (cheaper than one batch per segment when many words are new), or, with one
        reference per pair, through :meth:`rows_flat`. The same statistics and errors (the
        first faulty pair raises, before any is scored)."""
        rows = self.rows_flat(pairs) if len(pairs) >= 2 else None
        if rows is not None:
            n_stages = len(self.config.modules)
            return [_stats_of_jar_row(row, n_stages) for row in _rows_of_flat(rows)]
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
        """:meth:`Pipeline.pooled_stats_many`; when the block path applies (:meth:`rows_flat`:
        one reference a pair, at most four modules) the rows are summed in one compiled call
        (:func:`pool_flat`), with no statistics record or Python call per pair and no NumPy;
        otherwise the general path pools each pair's record."""
        rows = self.rows_flat(pairs)
        if rows is None:
            return super().pooled_stats_many(pairs)
        pooled = pool_flat(rows, self.config.zero_penalty_if_perfect)
        return _stats_of_jar_row(pooled, len(self.config.modules))

    def pooled_block(self, rows: np.ndarray[Any, np.dtype[np.int64]]) -> np.ndarray[Any, Any]:
        """The pooled row of a NumPy block of rows in the jar's order (:func:`pool_flat` of a
        flat block): column sums, except that a perfect segment (one chunk, every unit of both
        sides matched: ``perfect_row``) adds no chunks (METEOR 1.5's rule, spec 5.2)."""
        total: np.ndarray[Any, Any] = rows.sum(axis=0)
        if self.config.zero_penalty_if_perfect and len(rows):
            total[20] -= int(perfect_rows(rows).sum())
        return total

    def rows_block(
        self, pairs: Sequence[tuple[str, Sequence[str]]]
    ) -> np.ndarray[Any, np.dtype[np.int64]] | None:
        """The statistics of single-reference pairs as an ``(n, 23)`` int64 NumPy block in the
        jar's order (:data:`~meteor_eval.stats.meteor.ROW_COLUMNS`): :meth:`rows_flat`'s
        buffer, not copied. ``None`` and errors as :meth:`rows_flat`."""
        rows = self.rows_flat(pairs)
        if rows is None:
            return None
        import numpy as np

        return np.frombuffer(rows, dtype=np.int64).reshape(-1, ROW_LENGTH)

    def rows_flat(self, pairs: Sequence[tuple[str, Sequence[str]]]) -> array[int] | None:
        """The statistics of single-reference pairs as one flat int64 ``array`` (``"q"``), the
        23 numbers of each pair in the jar's order (:data:`~meteor_eval.stats.meteor.
        ROW_COLUMNS`) one pair after the other, from one ``meteor15_rows`` call: the lines
        (hypotheses and references) come from :meth:`line_block` in one block of ids (a line met
        before, e.g. a hypothesis scored against a second reference, is copied from the line
        cache, not preprocessed again), which both sides read through their offsets, so no
        Python object is made per token or per pair on the way from the text to the row, and
        NumPy is not needed.

        ``None`` when the block path does not apply (the compiled pair path is off, a pair
        has several references, more than four modules, a substituted aligner). Errors are
        those of :meth:`Pipeline.best_stats`, the first faulty pair raising before any is
        scored; a pair over the work budget raises :class:`WorkBudgetError` placed at its index.
        """
        types = self.word_types
        if (
            types is None
            or _ROWS_KERNEL is None
            or not pairs
            or len(self.config.modules) > 4
            or aligner_substituted()
        ):
            return None
        n = len(pairs)
        hyp_texts: list[str] = []
        ref_texts: list[str] = []
        for hypothesis, references in pairs:
            # The checks of check_segment() and check_reference() inline for the usual pair
            # (a str and a one-item sequence of str), the functions themselves otherwise (same
            # errors, same order).
            if (
                type(hypothesis) is not str
                or type(references) is str
                or len(references) != 1
                or type(references[0]) is not str
            ):
                check_segment(hypothesis, references)
                if len(references) != 1:
                    return None
                check_reference(0, references[0])
            hyp_texts.append(hypothesis)
            ref_texts.append(references[0])
        if types.full:
            self.new_word_types()
            types = self.word_types
            assert types is not None
        block = self.line_block(hyp_texts + ref_texts)
        if block is None:
            return None
        # One buffer of ids for both sides: the hypotheses' offsets are the first n + 1, the
        # references' the last n + 1 (no copy of either side).
        ids = block[0]
        offsets = memoryview(block[1]).cast("q")
        hyp_offsets, ref_offsets = offsets[: n + 1], offsets[n:]
        budget = limits.WORK_BUDGET["meteor15"]
        # The exact count of equal words and stems (as the other paths give it) where the
        # lengths allow it to pass the budget; the kernel counts every stage's candidates as
        # well, and stops at the budget. (An int64 offset as a Python int: no overflow.)
        ends = offsets.tolist()
        # No pair can pass the budget when the longest hypothesis times the longest reference
        # does not (the usual batch): the per-pair test is then skipped.
        hyp_lengths = map(operator.sub, ends[1 : n + 1], ends[:n])
        ref_lengths = map(operator.sub, ends[n + 1 :], ends[n : 2 * n])
        if max(hyp_lengths, default=0) * max(ref_lengths, default=0) <= budget:
            return self._kernel_rows(types, ids, hyp_offsets, ids, ref_offsets)
        for index in range(n):
            if (ends[index + 1] - ends[index]) * (ends[n + index + 1] - ends[n + index]) > budget:
                try:
                    self.check_token_work(
                        self.tokenize(hyp_texts[index]), self.tokenize(ref_texts[index])
                    )
                except WorkBudgetError as exc:
                    raise exc.at_index(index) from None
        return self._kernel_rows(types, ids, hyp_offsets, ids, ref_offsets)

    def _add_words(self, types: WordTypes, *token_lists: Iterable[tuple[str, ...]]) -> bool:
        """Intern every word of ``token_lists`` that ``types`` does not know yet, in one batch;
        ``False`` when an identifier would pass 64 bits (see :meth:`segment_of`): the general
        path is taken from then on."""
        words = dict.fromkeys(itertools.chain.from_iterable(itertools.chain(*token_lists)))
        try:
            types.add([w for w in words if w not in types])
        except OverflowError:
            self._general_path()
            return False
        return True

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
        if not self._add_words(types, hyp_tokens, new_refs.values()):
            return None
        if len(cache) + len(new_refs) > CACHE_LIMIT:
            cache.clear()
        # Every word is known now: the segments are built without segment_of()'s checks.
        known = types.__getitem__
        identities = types.identities
        record = _base.Segment

        def segment_of(tokens: tuple[str, ...]) -> Segment:
            ids = array("i", map(known, tokens))
            return record(tokens, identities(ids), (types, ids))

        for text, tokens in new_refs.items():
            cache[text] = segment_of(tokens)
        return [segment_of(tokens) for tokens in hyp_tokens]

    def rows_of_ids(
        self,
        hyp_ids: np.ndarray[Any, np.dtype[np.int32]],
        hyp_offsets: np.ndarray[Any, np.dtype[np.int64]],
        ref_ids: np.ndarray[Any, np.dtype[np.int32]],
        ref_offsets: np.ndarray[Any, np.dtype[np.int64]],
    ) -> np.ndarray[Any, np.dtype[np.int64]] | None:
        """:meth:`rows_block` of pairs already interned by :meth:`intern_lines` into the current
        table: pair ``k`` is ``hyp_ids[hyp_offsets[k]:hyp_offsets[k + 1]]`` against
        ``ref_ids[ref_offsets[k]:ref_offsets[k + 1]]``, so a caller that pairs each text with
        many others interns it once. ``None`` when the block path does not apply (as
        :meth:`rows_block`); the caller checks the pairs and their budget beforehand as
        :meth:`rows_block` does.

        Raises:
            WorkBudgetError: the kernel's count of a pair's candidate matches passed the
                budget (placed at the pair's index).
        """
        types = self.word_types
        if (
            types is None
            or _ROWS_KERNEL is None
            or len(self.config.modules) > 4
            or aligner_substituted()
        ):
            return None
        import numpy as np

        rows = self._kernel_rows(types, hyp_ids, hyp_offsets, ref_ids, ref_offsets)
        return np.frombuffer(rows, dtype=np.int64).reshape(-1, ROW_LENGTH)

    def _kernel_rows(
        self,
        types: WordTypes,
        hyp_ids: Any,
        hyp_offsets: Any,
        ref_ids: Any,
        ref_offsets: Any,
    ) -> array[int]:
        """The compiled kernel's rows (the jar's order, one a pair, flat in an int64 ``array``)
        of pairs interned in ``types`` (as :meth:`rows_of_ids` takes them; ids and offsets as
        int32 and int64 buffers: NumPy arrays, bytes, memoryviews), under the work budget."""
        assert _ROWS_KERNEL is not None
        out = array("q", bytes(8 * ROW_LENGTH * (len(hyp_offsets) - 1)))
        with types.lock:  # the tables do not grow while the kernel reads them
            over = _ROWS_KERNEL.meteor15_rows(
                self.pair_kinds,
                hyp_ids,
                hyp_offsets,
                ref_ids,
                ref_offsets,
                *self._table_arguments(types),
                limits.WORK_BUDGET["meteor15"],
                out,
            )
        if over is not None:
            index, units = over
            raise _over_budget(units, index)
        return out
