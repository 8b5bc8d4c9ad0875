"""Step: the METEOR metric. :class:`Meteor`, :class:`MeteorScore` and the plain functions.

:class:`Meteor` is thin: it holds a configuration and a pipeline
(:class:`~meteor_eval.metrics.meteor.fast.FastPipeline`: text to statistics, compiled where it
applies), scores statistics with :func:`~meteor_eval.metrics.meteor.formula.score_from_stats`,
signs them (:mod:`meteor_eval.metrics.meteor.signature`) and implements the metric protocol
(:class:`~meteor_eval.metrics.protocol.Metric`) on the jar's 23-number statistics rows.
``corpus_meteor`` and ``segment_meteor`` are wrappers around a cached :class:`Meteor`.

Several references: each reference is scored and the first one with the strictly highest score
keeps its statistics (spec 5.4). Corpus score: the segments' statistics are pooled and scored once
(spec 5.5); ``aggregate="mean"`` averages segment scores instead and says so in the signature.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from meteor_eval.errors import renamed, warn_empty
from meteor_eval.match.base import Match
from meteor_eval.metrics.base import Score, Signature
from meteor_eval.metrics.cache import LruCache
from meteor_eval.metrics.meteor.config import MeteorConfig
from meteor_eval.metrics.meteor.fast import FastPipeline
from meteor_eval.metrics.meteor.formula import finite, score_from_stats, scores_of_totals
from meteor_eval.metrics.meteor.pipeline import check_corpus, each_placed, pool_stats
from meteor_eval.metrics.meteor.signature import build_signature, resource_ids
from meteor_eval.metrics.protocol import Metric, Pair, Row, Total, processes_for
from meteor_eval.pool import Run, each
from meteor_eval.stats.meteor import ROW_COLUMNS, ROW_LENGTH, MeteorStats, merge_row

if TYPE_CHECKING:
    from meteor_eval.align._alignment import Alignment
    from meteor_eval.match._segment import Segment

__all__ = ["Meteor", "MeteorScore", "corpus_meteor", "segment_meteor", "sentence_meteor"]

#: Pairs scored together by :meth:`Meteor.corpus_score` (their new word types are interned in
#: one batch).
_BATCH = 256


@dataclass(frozen=True, slots=True)
class MeteorScore(Score):
    """A METEOR score with everything that explains it.

    Where the jar's formula gives NaN (an empty side: 0/0), ``precision``, ``recall``, ``fmean``,
    ``fragmentation`` and ``penalty`` are reported as 0.0; the score is 0.0 as in the jar.

    Attributes:
        precision: Weighted precision.
        recall: Weighted recall.
        fmean: Parameterised harmonic mean of precision and recall.
        fragmentation: ``chunks / mean matched words`` (0 for a perfect METEOR 1.5 match).
        penalty: ``gamma * fragmentation ** beta``.
        chunks: Number of chunks.
        matches: Matched words (hypothesis side, reference side).
        stats: The statistics record the score was computed from.
        alignment: The chosen alignment (sentence scores, on request).
        reference_index: Index of the reference that was kept (sentence scores).
        segments: Per-segment scores (corpus scores, on request).
    """

    precision: float = 0.0
    recall: float = 0.0
    fmean: float = 0.0
    fragmentation: float = 0.0
    penalty: float = 0.0
    chunks: int = 0
    matches: tuple[int, int] = (0, 0)
    stats: MeteorStats = field(default_factory=MeteorStats.zero)
    alignment: Alignment | None = None
    reference_index: int | None = None
    segments: tuple[MeteorScore, ...] = ()


def _nrefs(nrefs: int | str, n_refs: int | str | None) -> int | str:
    """``nrefs``, or the deprecated ``n_refs`` keyword with a warning (the protocol, BLEU and
    ROUGE name it ``nrefs``, as sacrebleu's signature does)."""
    if n_refs is None:
        return nrefs
    warnings.warn(
        "n_refs= is deprecated and will be removed in 0.3; use nrefs=",
        DeprecationWarning,
        stacklevel=3,
    )
    return n_refs


class Meteor(Metric["MeteorScore"]):
    """A METEOR scorer: holds the configuration, the loaded resources and caches.

    A :class:`~meteor_eval.metrics.protocol.Metric`: a segment's statistics row is the jar's
    23 numbers (:meth:`MeteorStats.to_row`); rows merge by sums, except that with METEOR 1.5's
    rule a perfect segment adds no chunks (spec 5.5).

    One instance can score any number of systems; preprocessed references and per-word results
    (stems, synonym sets, function-word flags) are cached. Resources load on first use.

    Args:
        config: The settings; defaults to ``MeteorConfig.preset("meteor15")``.

    Example:
        >>> scorer = Meteor(MeteorConfig.preset("meteor15", modules=("exact", "stem", "synonym"),
        ...                                     normalization="norm"))
        >>> scorer.segment_score("The cat sat on the mat.", ["The cat sat on the mat."]).score
        1.0
    """

    def __init__(self, config: MeteorConfig | None = None) -> None:
        self.config = config if config is not None else MeteorConfig.preset("meteor15")
        if len(self.config.weights) < len(self.config.modules):
            warnings.warn(
                "More modules than weights specified - "
                "modules with no weights will not be counted.",
                stacklevel=2,
            )
        #: The steps from text to statistics, with the resources and caches they use.
        self.pipeline = FastPipeline(self.config)
        self._signature_cache: dict[str, Signature] = {}

    def __reduce__(self) -> tuple[type[Meteor], tuple[MeteorConfig]]:
        """Pickle a scorer as its configuration; the copy builds its own resources and caches.

        The live state holds locks, memory-mapped tables and per-process caches that cannot
        travel (the paraphrase index, the Porter stemmer's per-thread state, the word-type
        tables); the resources themselves are loaded once per process and shared, so the
        rebuilt scorer gives the same scores.
        """
        return (type(self), (self.config,))

    # -- text -> statistics (the pipeline's steps) ---------------------------------------------

    def tokenize(self, text: str) -> tuple[str, ...]:
        """Preprocess one text as configured: normalise, lower-case, split (spec 1.6)."""
        return self.pipeline.tokenize(text)

    def segment(self, text: str, side: str = "hypothesis") -> Segment:
        """Preprocessed tokens of a text with their word identities (any length; scoring a
        pair whose work exceeds :data:`meteor_eval.limits.WORK_BUDGET` raises
        :class:`~meteor_eval.errors.WorkBudgetError`)."""
        return self.pipeline.segment(text, side)

    def align(self, hyp: Segment, ref: Segment) -> list[Match]:
        """The chosen matches between two preprocessed segments, in reference order."""
        return self.pipeline.align(hyp, ref)

    def pair_stats(
        self, hyp: Segment, ref: Segment, *, want_matches: bool = True
    ) -> tuple[MeteorStats, list[Match], int]:
        """Statistics, matches and chunks of one hypothesis against one reference.

        With ``want_matches=False`` the returned match list may be empty.
        """
        return self.pipeline.pair_stats(hyp, ref, want_matches=want_matches)

    def segment_stats(
        self, hypothesis: str, references: Sequence[str]
    ) -> tuple[MeteorStats, int, Alignment]:
        """The pipeline's :meth:`~meteor_eval.metrics.meteor.pipeline.Pipeline.segment_stats`:
        the best reference's statistics (spec 5.4), its index and its alignment."""
        return self.pipeline.segment_stats(hypothesis, references)

    def best_stats(self, hypothesis: str, references: Sequence[str]) -> MeteorStats:
        """Statistics of the best reference, built without the alignment.

        Raises:
            TypeError: ``references`` is a bare string.
            InputError: there is no reference.
        """
        return self.pipeline.best_stats(hypothesis, references)

    def best_stats_many(self, pairs: Sequence[tuple[str, Sequence[str]]]) -> list[MeteorStats]:
        """:meth:`best_stats` of each ``(hypothesis, references)`` pair, in order (the first
        faulty pair raises, before any is scored)."""
        return self.pipeline.best_stats_many(pairs)

    def pooled_stats_many(self, pairs: Sequence[tuple[str, Sequence[str]]]) -> MeteorStats:
        """``pool_stats(best_stats_many(pairs))``: the pairs' statistics pooled in order."""
        return self.pipeline.pooled_stats_many(pairs)

    # -- statistics -> score -------------------------------------------------------------------

    def signature(self, nrefs: int | str = 1, /, *, n_refs: int | str | None = None) -> Signature:
        """The signature of this configuration for a given number of references (``n_refs``:
        the former keyword, deprecated)."""
        key = str(_nrefs(nrefs, n_refs))
        cached = self._signature_cache.get(key)
        if cached is None:
            cached = build_signature(self.config, key, resource_ids(self.pipeline))
            self._signature_cache[key] = cached
        return cached

    def score_stats(
        self, stats: MeteorStats, *, nrefs: int | str = 1, n_refs: int | str | None = None
    ) -> MeteorScore:
        """Score a statistics record (one segment or a pooled sum); ``nrefs``: the number of
        references the signature records (``n_refs``: the former name, deprecated)."""
        return self._make_score(stats, _nrefs(nrefs, n_refs), None, None)

    def _make_score(
        self,
        stats: MeteorStats,
        n_refs: int | str,
        alignment: Alignment | None,
        reference_index: int | None,
    ) -> MeteorScore:
        """:meth:`score_stats` with the sentence fields set at once (no copy per segment)."""
        c = score_from_stats(stats, self.config)
        return MeteorScore(
            c.score,
            self.signature(n_refs),
            precision=finite(c.precision),
            recall=finite(c.recall),
            fmean=finite(c.fmean),
            fragmentation=finite(c.fragmentation),
            penalty=finite(c.penalty),
            chunks=stats.chunks,
            matches=(stats.hyp_matched, stats.ref_matched),
            stats=stats,
            alignment=alignment,
            reference_index=reference_index,
        )

    def _mean_score(self, records: Sequence[MeteorStats]) -> float:
        """The mean of the records' scores (``aggregate="mean"``), 0.0 for none."""
        config = self.config
        if not records:
            return 0.0
        return math.fsum(score_from_stats(r, config).score for r in records) / len(records)

    def segment_score(
        self, hypothesis: str, references: Sequence[str], *, alignment: bool = False
    ) -> MeteorScore:
        """METEOR of one hypothesis against its references.

        Args:
            hypothesis: The system output.
            references: One or more references for it.
            alignment: Attach the chosen alignment to the result.
        """
        if alignment or self.pipeline.nltk is not None:
            stats, k, align = self.pipeline.segment_stats(hypothesis, references)
            return self._make_score(stats, len(references), align if alignment else None, k)
        # No alignment requested: the same statistics without building an Alignment.
        stats, k = self.pipeline.best_stats_and_index(hypothesis, references)
        return self._make_score(stats, len(references), None, k)

    def corpus_score(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]],
        *,
        segments: bool = False,
        alignments: bool = False,
        jobs: int = 1,
        start_method: str | None = None,
    ) -> MeteorScore:
        """METEOR of a corpus: pooled statistics scored once (or the mean, if configured).

        Args:
            hypotheses: One string per segment.
            references: ``references[i]`` lists the references of ``hypotheses[i]``.
            segments: Attach per-segment scores.
            alignments: Attach each segment's alignment (implies ``segments``).
            jobs: Processes to score in (0: one per CPU); the result is identical.
            start_method: How worker processes start (:mod:`meteor_eval.processes`).

        Raises:
            TypeError: a bare string where a sequence is expected.
            InputError: the numbers of hypotheses and reference groups differ.
            ConfigError: ``jobs`` or ``start_method`` is invalid.
        """
        if processes_for(jobs, start_method) > 1:
            return self._corpus_score_in_processes(
                hypotheses, references, segments or alignments, alignments, jobs, start_method
            )
        check_corpus(hypotheses, references)
        if not hypotheses:
            warn_empty()
        if segments or alignments:
            seg_scores = [
                self.segment_score(h, refs, alignment=alignments)
                for h, refs in zip(hypotheses, references, strict=True)
            ]
            return self.combine(seg_scores, keep_segments=True)
        # Only the statistics are needed: no per-segment score objects or alignments.
        n_refs_set = set(map(len, references))
        n_refs = str(next(iter(n_refs_set))) if len(n_refs_set) == 1 else "var"
        # The (hypothesis, references) tuples are made a batch at a time: a list of one tuple
        # per segment of the corpus would be walked by the cyclic garbage collector (a full
        # collection over every tuple when they pass a quarter of the long-lived objects).
        pairs = zip(hypotheses, references, strict=True)
        if self.config.aggregate != "mean":
            # Pooled batch by batch (the compiled path sums a block of rows: no statistics
            # record per segment). A batch's total is never perfect (a fully matched segment
            # with one chunk is perfect and adds none), so the totals add up plainly.
            total = MeteorStats.zero(len(self.config.modules))
            while batch := list(itertools.islice(pairs, _BATCH)):
                total = total.merge(self.pooled_stats_many(batch), skip_perfect_chunks=False)
            return self.score_stats(total, nrefs=n_refs)
        records: list[MeteorStats] = []
        while batch := list(itertools.islice(pairs, _BATCH)):
            records.extend(self.best_stats_many(batch))
        result = self.score_stats(pool_stats(records, self.config), nrefs=n_refs)
        return dataclasses.replace(result, score=self._mean_score(records))

    def _corpus_score_in_processes(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]],
        segments: bool,
        alignments: bool,
        jobs: int,
        start_method: str | None,
    ) -> MeteorScore:
        """:meth:`corpus_score` in worker processes (the same result, bit for bit)."""
        pairs = self._checked_pairs(hypotheses, references)
        run = Run(jobs, start_method=start_method)
        if segments:
            seg_scores = list(each(self, pairs, "segment_results", run, alignment=alignments))
            if not seg_scores:  # the engine's segment results say nothing of an empty input
                warn_empty()
            return self.combine(seg_scores, keep_segments=True)
        return self.result(self.stream_total(pairs, run))

    def combine(
        self, seg_scores: Iterable[MeteorScore], *, keep_segments: bool = False
    ) -> MeteorScore:
        """Corpus score from segment scores: pooled statistics, or their mean if configured."""
        scores = list(seg_scores)
        n_refs_set = {s.signature.get("nrefs") for s in scores}
        n_refs = (next(iter(n_refs_set)) or "1") if len(n_refs_set) == 1 else "var"
        total = pool_stats((s.stats for s in scores), self.config)
        result = self.score_stats(total, nrefs=n_refs)
        if self.config.aggregate == "mean":
            mean = math.fsum(s.score for s in scores) / len(scores) if scores else 0.0
            result = dataclasses.replace(result, score=mean)
        if keep_segments:
            result = dataclasses.replace(result, segments=tuple(scores))
        return result

    # -- the metric protocol -------------------------------------------------------------

    name = "meteor"
    has_alignments = True
    config: MeteorConfig
    score_fields = frozenset(
        {"alpha", "beta", "gamma", "delta", "weights", "aggregate", "params_id"}
    )
    # Not synonym_dir: its id is its path (meteor_eval.match.registry).
    resource_fields = MappingProxyType(
        {
            "function_words_file": "function-words",
            "paraphrase_table": "paraphrase",
            "stem_table": "stem-table",
        }
    )

    config_class = MeteorConfig

    @property
    def columns(self) -> tuple[str, ...]:
        """The 23 numbers of the jar's statistics line (see :mod:`meteor_eval.stats.meteor`)."""
        return ROW_COLUMNS

    def segment_rows(self, pairs: Sequence[Pair]) -> list[Row]:
        """The best reference's statistics row of each pair (:meth:`best_stats_many`); one
        compiled call for a batch of single-reference pairs (``FastPipeline.rows_flat``)."""
        block = self.pipeline.rows_flat(pairs) if len(pairs) >= 2 else None
        if block is not None:
            values = block.tolist()
            return [tuple(values[k : k + ROW_LENGTH]) for k in range(0, len(values), ROW_LENGTH)]
        return [stats.to_row() for stats in self.best_stats_many(pairs)]

    def keeps_rows(self) -> bool:
        """``aggregate="mean"`` averages the segments' scores, so it needs every row."""
        return self.config.aggregate == "mean"

    def merge(self, total: Row, row: Row) -> Row:
        """Sum, except that a perfect segment's chunks are not added (METEOR 1.5's rule:
        :func:`~meteor_eval.stats.meteor.merge_row`)."""
        return merge_row(total, row, self.config.zero_penalty_if_perfect)

    def pooled_rows(self, pairs: Sequence[Pair]) -> Total:
        """The pooled total of a batch, from :meth:`pooled_stats_many` where the rows are not
        needed (no statistics record per pair on the compiled path)."""
        if self.keeps_rows():
            return super().pooled_rows(pairs)
        total = self.new_total()
        total.row = self.pooled_stats_many(pairs).to_row()
        total.count = len(pairs)
        total.nrefs = {len(refs) for _, refs in pairs}
        return total

    def stats_of_row(self, row: Row) -> MeteorStats:
        """A statistics row as a record with this configuration's number of stages."""
        stats = MeteorStats.from_row(row)
        n = len(self.config.modules)
        if n < len(stats.stages):
            stats = dataclasses.replace(stats, stages=stats.stages[:n])
        return stats

    def score_total(
        self, total: Row, *, nrefs: str = "1", rows: Sequence[Row] | None = None
    ) -> MeteorScore:
        """The score of merged statistics; with ``aggregate="mean"`` and ``rows``, the score is
        the exact mean of the segments' scores (the other fields stay those of the total)."""
        result = self.score_stats(self.stats_of_row(total), nrefs=nrefs)
        if rows is not None and self.config.aggregate == "mean":
            mean = self._mean_score([self.stats_of_row(r) for r in rows])
            result = dataclasses.replace(result, score=mean)
        return result

    def segment_results(
        self, pairs: Sequence[Pair], *, alignment: bool = False, **options: Any
    ) -> list[MeteorScore]:
        """:meth:`segment_score` of each pair (``alignment``: attach each one's alignment)."""
        if options:
            return super().segment_results(pairs, **options)

        def score(hypothesis: str, references: Sequence[str]) -> MeteorScore:
            return self.segment_score(hypothesis, references, alignment=alignment)

        return each_placed(pairs, score)

    def values(self, score: MeteorScore) -> dict[str, float]:
        """``{"meteor": score}``."""
        return {"meteor": score.score}

    def report(self, score: MeteorScore) -> dict[str, dict[str, Any]]:
        """METEOR with precision, recall, Fmean, fragmentation, penalty, chunks, the matches
        of each module (hypothesis and reference side) and the lengths."""
        stats = score.stats
        matches = {
            module: [counts[0] + counts[2], counts[1] + counts[3]]
            for module, counts in zip(self.config.modules, stats.stages, strict=False)
        }
        return {
            "meteor": {
                "score": score.score,
                "precision": score.precision,
                "recall": score.recall,
                "fmean": score.fmean,
                "fragmentation": score.fragmentation,
                "penalty": score.penalty,
                "chunks": score.chunks,
                "matches": matches,
                "hyp_length": stats.hyp_length,
                "ref_length": stats.ref_length,
                "stats": list(stats.to_row()),
            }
        }

    def sample_matrix(self, rows: Sequence[Row]) -> Any:
        """Merged rows, or with ``aggregate="mean"`` each segment's score and a count of 1, so
        that a resampled total is scored as its corpus score is made."""
        if self.config.aggregate != "mean":
            return super().sample_matrix(rows)
        import numpy as np

        config = self.config
        scores = [score_from_stats(self.stats_of_row(r), config).score for r in rows]
        return np.column_stack([np.asarray(scores, dtype=np.float64), np.ones(len(rows))])

    def sample_values(self, totals: Any) -> Any:
        """Headline score of each resampled total (see :meth:`sample_matrix`): the exact
        formula of the corpus score on each pooled total, or the mean of segment scores."""
        import numpy as np

        if self.config.aggregate != "mean":
            config = self.config
            if config.flavour != "nltk":
                return {"meteor": scores_of_totals(totals, config)}
            stats_of = self.stats_of_row
            scores = [
                score_from_stats(stats_of(tuple(int(x) for x in total)), config).score
                for total in totals.tolist()
            ]
            return {"meteor": np.asarray(scores, dtype=np.float64)}

        with np.errstate(invalid="ignore", divide="ignore"):
            means = np.where(totals[:, 1] > 0, totals[:, 0] / totals[:, 1], 0.0)
        return {"meteor": means}


# -- the plain functions ----------------------------------------------------------------------

#: The scorers of ``corpus_meteor`` and ``segment_meteor``, by configuration.
_DEFAULT_SCORERS: LruCache[MeteorConfig, Meteor] = LruCache(16)


def _scorer(config: MeteorConfig | None, options: dict[str, object]) -> Meteor:
    if config is not None and options:
        raise TypeError("pass either config= or individual options, not both")
    if config is None:
        config = MeteorConfig.preset(**options)  # type: ignore[arg-type]
    chosen = config
    return _DEFAULT_SCORERS.get(config, lambda: Meteor(chosen))


def corpus_meteor(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    *,
    config: MeteorConfig | None = None,
    segments: bool = False,
    jobs: int = 1,
    start_method: str | None = None,
    **options: object,
) -> MeteorScore:
    """Corpus METEOR; ``options`` are those of :meth:`MeteorConfig.preset`; ``jobs`` processes
    (0: one per CPU) started by ``start_method`` (:mod:`meteor_eval.processes`) give the same
    result as one.

    Example:
        >>> s = corpus_meteor(["the cat sat on the mat"], [["the cat sat on the mat"]],
        ...                   flavour="paper2005", modules=("exact",))
        >>> round(s.score, 4)
        0.9977
    """
    return _scorer(config, options).corpus_score(
        hypotheses, references, segments=segments, jobs=jobs, start_method=start_method
    )


def segment_meteor(
    hypothesis: str,
    references: Sequence[str],
    *,
    config: MeteorConfig | None = None,
    alignment: bool = False,
    **options: object,
) -> MeteorScore:
    """METEOR of one hypothesis; ``options`` are those of :meth:`MeteorConfig.preset`.

    Example:
        >>> s = segment_meteor("on the mat sat the cat", ["the cat sat on the mat"],
        ...                     flavour="paper2005", modules=("exact",))
        >>> (s.chunks, s.penalty, s.score)
        (6, 0.5, 0.5)
    """
    return _scorer(config, options).segment_score(hypothesis, references, alignment=alignment)


sentence_meteor = renamed(segment_meteor, "sentence_meteor")
