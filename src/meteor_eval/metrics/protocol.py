"""The metric protocol: segment -> statistics row -> merge -> score, written once.

Every metric (METEOR in each flavour, BLEU, ROUGE) says four things and nothing more:

1. **Statistics of a segment** (:meth:`Metric.segment_rows`): a fixed-width row of numbers per
   ``(hypothesis, references)`` pair, named by :attr:`Metric.columns`. The row is all a score
   needs: corpus scores, statistics files, resampling and parallel workers never see the text.
2. **Merge** (:meth:`Metric.merge`): how a row joins a running total. Element-wise sum unless
   the metric has its own rule (METEOR: a perfect segment adds no chunks). :attr:`Metric.exact`
   says whether totals of any grouping add up to the same total (integer statistics); when it
   is false the rows are folded one by one in input order, so floating-point sums stay
   bit-identical whatever the number of processes, unless :meth:`Metric.exact_sums` says that
   the total holds each column's exact sum (ROUGE): such totals merge in any grouping too.
3. **Score** (:meth:`Metric.score_total`): the metric's result object from a total (and, for
   metrics whose corpus score needs each segment, from the rows), plus :meth:`Metric.values`,
   the headline numbers of a result by name (``{"meteor": ...}``, ``{"rouge1": ..., ...}``).
4. **Signature** (:meth:`Metric.signature`): every setting that determines the score.

On top of that the base class writes once what every metric shares: sentence and corpus scores,
the reference-count label of signatures, the total of a stream of rows, a system's run made of
what an engine computed (:meth:`Metric.system_run`), and the resampling interface
(:meth:`Metric.sample_matrix`, :meth:`Metric.sample_values`) that significance tests use to
score thousands of resampled corpora without touching the text again.
``jobs=`` runs on :mod:`meteor_eval.pool`, an executor below the metrics that knows nothing of
them (it calls a metric's ``chunk_total``, ``chunk_rows`` or ``segment_results`` by name on each
chunk); :mod:`meteor_eval.parallel` and :mod:`meteor_eval.distributed`, the engines above the
metrics, schedule any metric's chunks over streams and processes and hand what they computed
(:class:`Parts`) back to the metric, which reduces it: engines schedule, the metric reduces.
Nothing here imports them.

Models: sacrebleu's ``Metric`` (statistics, then a formula, then a signature) and torchmetrics'
update/merge/compute on one statistics path.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from meteor_eval.errors import warn_empty, warn_renamed
from meteor_eval.metrics.base import Signature, check_corpus, check_segment
from meteor_eval.pool import Run, each, processes_for, run_chunks
from meteor_eval.stats.exactsum import ExactSum

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "Metric",
    "Pair",
    "Parts",
    "Row",
    "ScoredSegment",
    "SystemRun",
    "Total",
    "nrefs_label",
    "processes_for",
]

#: One segment: a hypothesis and its references.
Pair = tuple[str, Sequence[str]]
#: A statistics row: fixed width, integers for METEOR and BLEU, floats for ROUGE.
Row = tuple[float, ...]
#: One segment as an engine hands it over: its statistics row, its number of references and
#: the result the engine's workers made of it (``None`` where they made none).
ScoredSegment = tuple[Row, int, Any]

ScoreT = TypeVar("ScoreT")


def nrefs_label(counts: Iterable[int]) -> str:
    """The ``nrefs`` value of a signature: the number of references of every segment, or
    ``var`` when it varies (or there is no segment).

    Example:
        >>> nrefs_label([2, 2, 2]), nrefs_label([1, 2]), nrefs_label([])
        ('2', 'var', 'var')
    """
    seen = set(counts)
    return str(next(iter(seen))) if len(seen) == 1 else "var"


class Total:
    """A running total of rows: the merged statistics, the segment count, the reference counts
    seen, and (when the metric needs them) the rows themselves, in input order.

    For a metric whose columns are summed exactly (:meth:`Metric.exact_sums`) the total holds
    an :class:`~meteor_eval.stats.exactsum.ExactSum` (``sums``) instead of a fold: ``row`` is
    then every column's sum rounded once, the same bits whatever the grouping, in constant
    memory.

    Totals of consecutive parts of a stream merge with :meth:`merge_total` (in order).
    """

    __slots__ = ("_row", "count", "nrefs", "rows", "sums")

    def __init__(self, row: Row, *, keep_rows: bool, exact_sums: bool = False) -> None:
        self._row = row
        self.count = 0
        self.nrefs: set[int] = set()
        self.rows: list[Row] | None = [] if keep_rows else None
        self.sums: ExactSum | None = None
        if exact_sums:
            self.sums = ExactSum(len(row))
            self.sums.add_row(row)

    @classmethod
    def restored(
        cls,
        row: Row,
        *,
        count: int,
        nrefs: set[int],
        rows: list[Row] | None,
        sums: ExactSum | None,
    ) -> Total:
        """A total rebuilt from its parts as stored (e.g. a mergeable state): ``row``, the
        merged statistics (with ``sums``: their rounding), and the rest as the attributes."""
        total = cls(row, keep_rows=False)
        total.count = count
        total.nrefs = nrefs
        total.rows = rows
        total.sums = sums
        return total

    @property
    def row(self) -> Row:
        """The merged statistics (with exact sums: each column's sum rounded once)."""
        return self._row if self.sums is None else self.sums.rounded()

    @row.setter
    def row(self, value: Row) -> None:
        if self.sums is not None:
            raise AttributeError("a total of exact sums changes only by adding rows or totals")
        self._row = value

    def merge_total(self, metric: Metric[Any], other: Total) -> None:
        """Add ``other``, the total of the segments that follow this one's."""
        if self.sums is not None:
            if other.sums is None:
                raise ValueError("cannot merge a total without exact sums into one with them")
            self.sums.merge(other.sums)
        else:
            self._row = metric.merge_totals(self._row, other.row)
        self.count += other.count
        self.nrefs |= other.nrefs
        if self.rows is not None:
            if other.rows is None:
                raise ValueError("cannot merge a total without rows into one that keeps rows")
            self.rows.extend(other.rows)


def _count(total: Total) -> int:
    """The number of segments of a chunk's total (for progress)."""
    return total.count


def _counted(total: Total, rows: Iterable[Row]) -> Iterator[Row]:
    """``rows``, each counted in ``total`` (and kept, when it keeps rows) as it passes."""
    kept = total.rows
    for row in rows:
        total.count += 1
        if kept is not None:
            kept.append(row)
        yield row


class Parts:
    """One system's statistics for one metric, in input order, as an engine computed them or a
    statistics file holds them: the raw material that :meth:`Metric.system_run` reduces into a
    :class:`SystemRun`, whatever made it (local processes, a Dask cluster, stored rows); read
    once (its chunks and segments may be streams).

    Attributes:
        chunks: Each chunk's total (:meth:`Metric.chunk_total`), when the corpus result alone
            is wanted; it may be a stream, read once (the local engine scores a chunk as the
            metric asks for it, so memory does not grow with the input).
        segments: Otherwise each segment (:data:`ScoredSegment`): its row, its number of
            references, the result the engine's workers made of it.
        made: Whether those results are the segments' results to keep (METEOR's segment results
            with their alignments); else each segment's result is made from its row when
            wanted.
        nrefs: The reference-count label the rows were scored with where the segments' counts
            are not known (stored statistics: their header's); ``None``: from the counts.
    """

    __slots__ = ("chunks", "made", "nrefs", "segments")

    def __init__(
        self,
        chunks: Iterable[Total] = (),
        segments: Iterable[ScoredSegment] | None = None,
        *,
        made: bool = False,
        nrefs: str | None = None,
    ) -> None:
        self.chunks = chunks
        self.segments = segments
        self.made = made
        self.nrefs = nrefs


@dataclass
class SystemRun:
    """One metric's results for one system (:meth:`Metric.system_run`).

    Attributes:
        result: The corpus result object.
        rows: Each segment's statistics row (when kept).
        nrefs: Each segment's number of references (when rows are kept).
        segments: Each segment's result object (per-segment output).
        label: The reference-count label the result was scored with (its signature's
            ``nrefs``; what a statistics file's header records).
    """

    result: Any
    rows: list[Row] | None = None
    nrefs: list[int] | None = None
    segments: list[Any] | None = None
    label: str | None = None


class Metric(ABC, Generic[ScoreT]):
    """Base of every metric: segment -> statistics row -> merge -> score (module docstring).

    A metric is built from one picklable, frozen ``config``; ``type(metric)(metric.config)``
    builds an equal metric in another process (what :mod:`meteor_eval.parallel` does).
    """

    #: Metric family name used in outputs (``"meteor"``, ``"bleu"``, ``"rouge"``).
    name: ClassVar[str]
    #: Totals of any grouping of rows are equal (integer statistics): workers may pre-merge.
    exact: ClassVar[bool] = True
    #: Configuration fields that change only the formula, not the statistics: stored
    #: statistics may be re-scored with other values of these (and of no other field).
    score_fields: ClassVar[frozenset[str]] = frozenset()
    #: Configuration fields that name resource files whose content the signature's
    #: ``resources`` ids record, each with the name its id starts with (``function_words_file``:
    #: ``function-words``): stored statistics may be re-scored with such a file at another
    #: path (a copied or moved folder) when its content, so its id, is the same.
    resource_fields: ClassVar[Mapping[str, str]] = MappingProxyType({})
    #: Segment results can carry their alignment (``segment_results(pairs, alignment=True)``):
    #: what an alignments file (:mod:`meteor_eval.alignments`) is written from.
    has_alignments: ClassVar[bool] = False

    config: Any

    def __init__(self, config: Any = None) -> None:
        """Build the metric from its configuration (``None``: the defaults; checked by
        :meth:`checked_config`). Metrics that prepare more (tokenizers, kernels) extend this."""
        self.config = self.checked_config(config)

    #: The configuration class this metric is built from (what :meth:`config_type` returns).
    config_class: ClassVar[type[Any]]

    @classmethod
    def config_type(cls) -> type[Any]:
        """The configuration class this metric is built from: :attr:`config_class`."""
        return cls.config_class

    @classmethod
    def checked_config(cls, config: Any) -> Any:
        """``config``, or the default :meth:`config_type` for ``None``.

        Raises:
            TypeError: ``config`` is of another type.
        """
        kind = cls.config_type()
        if config is None:
            return kind()
        if not isinstance(config, kind):
            raise TypeError(f"config: got {type(config).__name__}, expected {kind.__name__}")
        return config

    # -- 1. statistics of segments ---------------------------------------------------------

    @property
    @abstractmethod
    def columns(self) -> tuple[str, ...]:
        """Names of the numbers of a statistics row, in order."""

    @abstractmethod
    def segment_rows(self, pairs: Sequence[Pair]) -> list[Row]:
        """The statistics row of each ``(hypothesis, references)`` pair, in order.

        A batch, so that a metric can share work between the segments (METEOR interns the new
        words of the whole batch at once). Checks the pairs and raises as ``segment_score``.
        """

    # -- 2. merge ---------------------------------------------------------------------------

    def keeps_rows(self) -> bool:
        """True when the corpus score needs every segment's row (a mean of segment scores,
        a bootstrap), not just the merged total."""
        return False

    def exact_sums(self) -> bool:
        """True when the total holds each column's exact sum (:class:`Total`, ``sums``): the
        merged row is each column's exactly rounded sum (``math.fsum``'s bits) whatever the
        order or grouping of the rows, so totals of any parts merge without keeping rows.
        Only for metrics that merge by plain sums (no :meth:`merge` rule of their own)."""
        return False

    def groups_exactly(self) -> bool:
        """True when totals of parts merge into the total of the whole, bit for bit, however
        the rows were grouped: integer statistics (:attr:`exact`) or exact sums
        (:meth:`exact_sums`). Workers then return one merged total per chunk."""
        return self.exact or self.exact_sums()

    def zero(self) -> Row:
        """The total of no segment."""
        return (0,) * len(self.columns)

    def merge(self, total: Row, row: Row) -> Row:
        """``total`` with one more segment's ``row`` (element-wise sum unless overridden)."""
        return tuple(a + b for a, b in zip(total, row, strict=True))

    def merge_totals(self, first: Row, second: Row) -> Row:
        """The total of two consecutive parts of a stream (sums; only used when :attr:`exact`
        or when ``second`` is a single row's merge from :meth:`zero`)."""
        return tuple(a + b for a, b in zip(first, second, strict=True))

    def pooled_rows(self, pairs: Sequence[Pair]) -> Total:
        """The :class:`Total` of a batch of pairs (a metric may compute it without building
        each row, as METEOR's compiled path does)."""
        return self.total_of(self.segment_rows(pairs), (len(refs) for _, refs in pairs))

    def chunk_total(self, pairs: Sequence[Pair]) -> Total:
        """What an engine's worker returns for a chunk's corpus total: pooled where the
        statistics allow it (:meth:`groups_exactly`), else its rows kept, to be folded in input
        order by whoever merges the chunks."""
        if self.groups_exactly():
            return self.pooled_rows(pairs)
        total = Total(self.zero(), keep_rows=True)
        self.add_rows(total, self.segment_rows(pairs))
        total.nrefs.update(len(refs) for _, refs in pairs)
        return total

    def chunk_rows(self, pairs: Sequence[Pair]) -> list[tuple[Row, int]]:
        """Each pair's statistics row and number of references, in order (what an engine's
        worker returns for per-segment output)."""
        rows = self.segment_rows(pairs)
        return [(row, len(refs)) for row, (_, refs) in zip(rows, pairs, strict=True)]

    def new_total(self) -> Total:
        """An empty running total for this metric."""
        return Total(self.zero(), keep_rows=self.keeps_rows(), exact_sums=self.exact_sums())

    def add_rows(self, total: Total, rows: Iterable[Row]) -> None:
        """Merge ``rows`` into ``total``, in order (the caller records their reference counts
        in ``total.nrefs``)."""
        if total.sums is not None:
            total.sums.add_rows(_counted(total, rows))
            return
        merge = self.merge
        acc = total.row
        kept = total.rows
        count = 0
        for row in rows:
            acc = merge(acc, row)
            count += 1
            if kept is not None:
                kept.append(row)
        total.row = acc
        total.count += count

    # -- 3. score ---------------------------------------------------------------------------

    @abstractmethod
    def score_total(
        self, total: Row, *, nrefs: str = "1", rows: Sequence[Row] | None = None
    ) -> ScoreT:
        """The result for merged statistics ``total`` (``rows``: every segment's row, given
        when :meth:`keeps_rows` is true)."""

    @abstractmethod
    def values(self, score: ScoreT) -> dict[str, float]:
        """The headline numbers of a result, by name (e.g. ``{"bleu": 34.2}``)."""

    def report(self, score: ScoreT) -> dict[str, dict[str, Any]]:
        """Per headline number, the number (``"score"``) and the components that explain it,
        for outputs: ``{"bleu": {"score": 34.2, "bp": 1.0, ...}}``. By default the score only."""
        return {name: {"score": value} for name, value in self.values(score).items()}

    @abstractmethod
    def signature(self, nrefs: str = "1", /) -> Signature:
        """Every setting that determines the score, for ``nrefs`` references per segment."""

    def result(self, total: Total) -> ScoreT:
        """The corpus result of a running total."""
        return self.score_total(total.row, nrefs=nrefs_label(total.nrefs), rows=total.rows)

    # -- written once -------------------------------------------------------------------------

    def segment_score(self, hypothesis: str, references: Sequence[str]) -> ScoreT:
        """The score of one hypothesis against its references."""
        check_segment(0, hypothesis, references)
        (row,) = self.segment_rows([(hypothesis, references)])
        return self.segment_result(row, len(references))

    def sentence_score(self, hypothesis: str, references: Sequence[str], **options: Any) -> ScoreT:
        """Deprecated name of :meth:`segment_score` (removed in 0.3)."""
        warn_renamed(f"{type(self).__name__}.sentence_score", "segment_score")
        return self.segment_score(hypothesis, references, **options)

    def segment_result(self, row: Row, nrefs: int) -> ScoreT:
        """The result of one segment's statistics row (a row is the total of its segment)."""
        return self.score_total(row, nrefs=str(nrefs))

    def segment_metric(self) -> Metric[ScoreT]:
        """The metric whose results report single segments in sentence-level output: this one
        unless the metric has a rule of its own for single segments (BLEU: effective order,
        as sacrebleu's ``sentence_bleu`` and ``--sentence-level``)."""
        return self

    def segment_results_of_rows(self, rows: Sequence[Row], nrefs: Iterable[int]) -> list[ScoreT]:
        """Each segment's result in sentence-level output, from its statistics row and number
        of references, by :meth:`segment_metric`'s rule (BLEU: effective order): what every
        engine and the statistics files' re-scoring report per segment."""
        single = self.segment_metric()
        return [single.segment_result(row, n) for row, n in zip(rows, nrefs, strict=True)]

    def _checked_pairs(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
    ) -> list[Pair]:
        """The pairs of a corpus, after checking every segment."""
        check_corpus(hypotheses, references)
        pairs: list[Pair] = []
        for index, (hyp, refs) in enumerate(zip(hypotheses, references, strict=True)):
            check_segment(index, hyp, refs)
            pairs.append((hyp, refs))
        return pairs

    def corpus_rows(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]],
        *,
        jobs: int = 1,
        start_method: str | None = None,
    ) -> list[Row]:
        """One statistics row per segment (after checking every segment), computed in
        ``jobs`` processes (:func:`processes_for`; the rows are the same)."""
        n_jobs = processes_for(jobs, start_method)
        pairs = self._checked_pairs(hypotheses, references)
        if n_jobs == 1:
            return self.segment_rows(pairs)
        rows = each(self, pairs, "chunk_rows", Run(n_jobs, start_method=start_method))
        return [row for row, _ in rows]

    def corpus_score(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]],
        *,
        jobs: int = 1,
        start_method: str | None = None,
    ) -> ScoreT:
        """The corpus result: every segment's statistics merged in order, then scored.

        Args:
            hypotheses: One string per segment.
            references: ``references[i]`` lists the references of ``hypotheses[i]``.
            jobs: Processes to score in (0: one per CPU); the result is identical.
            start_method: How worker processes start (:mod:`meteor_eval.processes`).

        Raises:
            TypeError: a bare string where a sequence is expected.
            InputError: different numbers of hypotheses and reference groups, or a segment
                without reference.
            ConfigError: ``jobs`` or ``start_method`` is invalid.
        """
        n_jobs = processes_for(jobs, start_method)
        if n_jobs > 1:
            pairs = self._checked_pairs(hypotheses, references)
            return self.result(self.stream_total(pairs, Run(n_jobs, start_method=start_method)))
        check_corpus(hypotheses, references)
        total = self.compiled_corpus_total(hypotheses, references)
        if total is not None:
            if not total.count:
                warn_empty()
            return self.result(total)
        rows = self.segment_rows(self._checked_pairs(hypotheses, references))
        if not rows:
            warn_empty()
        return self.score_rows(rows, (len(refs) for refs in references))

    def compiled_corpus_total(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
    ) -> Total | None:
        """The total of a whole corpus (checked by :func:`check_corpus`) computed in this
        process without a Python object per segment, as a compiled kernel allows, or ``None``
        for the general path of :meth:`corpus_score` (also when the kernel meets an item it
        refuses, which the general path then names). The base has no such path."""
        return None

    def segment_scores(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]],
        *,
        jobs: int = 1,
        start_method: str | None = None,
    ) -> list[ScoreT]:
        """The result of each segment on its own (``jobs``, ``start_method``: as
        :meth:`corpus_score`)."""
        rows = self.corpus_rows(hypotheses, references, jobs=jobs, start_method=start_method)
        return [
            self.segment_result(row, len(refs)) for row, refs in zip(rows, references, strict=True)
        ]

    def sentence_scores(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]],
        *,
        jobs: int = 1,
        start_method: str | None = None,
    ) -> list[ScoreT]:
        """Deprecated name of :meth:`segment_scores` (removed in 0.3)."""
        warn_renamed(f"{type(self).__name__}.sentence_scores", "segment_scores")
        return self.segment_scores(hypotheses, references, jobs=jobs, start_method=start_method)

    def stream_total(self, pairs: Iterable[Pair], run: Run) -> Total:
        """The merged statistics of a stream of pairs (and its rows when :meth:`keeps_rows`),
        its chunks run as ``run`` says (:mod:`meteor_eval.pool`: here or in worker processes;
        ``pairs`` may be :class:`meteor_eval.pool.Files`), merged by :meth:`total_of_chunks`.

        Equal to merging every segment's row in input order: with statistics that group
        exactly (:meth:`groups_exactly`: integer statistics or exact sums) each chunk is
        merged where it is scored (one small total comes back from a worker),
        else the chunk's rows come back and are folded here one by one, in input order, so
        floating-point sums are the same whatever the number of processes. An empty stream
        warns.
        """
        total = self.total_of_chunks(run_chunks(self, pairs, "chunk_total", run, _count))
        if total.count == 0:
            warn_empty()
        return total

    def total_of_chunks(self, chunks: Iterable[Total]) -> Total:
        """The total of consecutive chunks' totals (:meth:`chunk_total`), in input order, each
        added by :meth:`add_chunk`: the one rule by which every engine's chunks merge."""
        total = self.new_total()
        for part in chunks:
            self.add_chunk(total, part)
        return total

    def add_chunk(self, total: Total, part: Total) -> None:
        """Add ``part``, the :meth:`chunk_total` of the chunk that follows the segments of
        ``total``: merged whole when the statistics group exactly (:meth:`groups_exactly`), else
        its rows folded one by one, in input order, so that floating-point sums are the same
        however the stream was cut."""
        if self.groups_exactly():
            total.merge_total(self, part)
            return
        if part.rows is None:
            raise ValueError("cannot fold a chunk total without rows")
        self.add_rows(total, part.rows)
        total.nrefs |= part.nrefs

    def total_of(self, rows: Iterable[Row], nrefs: Iterable[int]) -> Total:
        """The running total of ``rows`` (with the segments' numbers of references)."""
        total = self.new_total()
        self.add_rows(total, rows)
        total.nrefs.update(nrefs)
        return total

    def score_rows(self, rows: Sequence[Row], nrefs: Iterable[int]) -> ScoreT:
        """The corpus result of statistics rows, e.g. read back from a statistics file."""
        return self.result(self.total_of(rows, nrefs))

    def system_run(self, parts: Parts, *, segment_level: bool = False) -> SystemRun:
        """The run of one system with this metric, made of what an engine computed or a
        statistics file holds (:class:`Parts`): the chunks' totals merged in input order
        (:meth:`total_of_chunks`), or the segments' rows folded in input order
        (:meth:`total_of`) and kept with their numbers of references; then scored under the
        reference-count label of those counts (or the one given). Each segment's result is the
        engine's where it made them (alignments), else with ``segment_level`` made from its row
        (:meth:`segment_results_of_rows`). Every engine's output is reduced here, the same
        way, so that no engine can give other numbers than another. ``parts`` is read once: its
        streams are spent afterwards."""
        rows: list[Row] | None = None
        nrefs: list[int] | None = None
        made: list[Any] = []
        if parts.segments is None:
            total = self.total_of_chunks(parts.chunks)
        else:
            rows, nrefs = [], []
            for row, count, result in parts.segments:
                rows.append(row)
                nrefs.append(count)
                if parts.made:
                    made.append(result)
            total = self.total_of(rows, nrefs)
        if total.count == 0:  # every engine's empty input, warned of here alike
            warn_empty()
        label = nrefs_label(total.nrefs) if parts.nrefs is None else parts.nrefs
        score = self.score_total(total.row, nrefs=label, rows=total.rows)
        run = SystemRun(score, rows, nrefs, label=label)
        if parts.made:
            run.segments = made
        elif segment_level and rows is not None and nrefs is not None:
            run.segments = self.segment_results_of_rows(rows, nrefs)
        return run

    def segment_results(self, pairs: Sequence[Pair], **options: Any) -> list[ScoreT]:
        """The result of each pair, in order. ``options`` are metric-specific (METEOR:
        ``alignment``); the base takes none.

        Raises:
            TypeError: an option this metric does not have.
        """
        if options:
            raise TypeError(f"{self.name}: unknown option(s) {', '.join(sorted(options))}")
        rows = self.segment_rows(pairs)
        return [
            self.segment_result(row, len(refs)) for row, (_, refs) in zip(rows, pairs, strict=True)
        ]

    # -- resampling (significance tests) ------------------------------------------------------

    def sample_matrix(self, rows: Sequence[Row]) -> npt.NDArray[np.float64]:
        """Per segment, what it adds to a resampled corpus total: a ``(segments, k)`` matrix
        ``M`` such that a sample that takes segment ``i`` ``w[i]`` times has the total
        ``w @ M``, scored by :meth:`sample_values`. By default the rows as they are merged
        (every metric here merges by sums after its per-row rule)."""
        import numpy as np

        zero = self.zero()
        merged = [self.merge(zero, row) for row in rows]
        return np.asarray(merged, dtype=np.float64).reshape(len(rows), len(zero))

    def sample_values(self, totals: npt.NDArray[np.float64]) -> dict[str, npt.NDArray[np.float64]]:
        """Headline numbers of each resampled total (one row of ``totals`` per sample)."""
        import numpy as np

        names: list[str] | None = None
        out: list[list[float]] = []
        for total in totals:
            values = self.values(self.score_total(self._row_of(total)))
            if names is None:
                names = list(values)
            out.append([values[name] for name in names])
        if names is None:
            return {}
        array = np.asarray(out, dtype=np.float64)
        return {name: array[:, k] for k, name in enumerate(names)}

    def _row_of(self, total: npt.NDArray[np.float64]) -> Row:
        """A resampled total as a statistics row (integral numbers back to ``int``)."""
        return tuple(int(x) if self.exact and math.isfinite(x) else float(x) for x in total)
