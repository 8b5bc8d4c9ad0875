"""Comparing systems: one request in, one result out, for the API and the command line.

A :class:`Request` says everything a run needs: the systems (in-memory lists, files, or stored
statistics), the metrics with their configurations, the significance settings, the side files
wanted (statistics, alignments), the engine (one process, ``jobs`` processes, or a Dask
cluster) and a progress callback. :func:`run` carries it out and returns a
:class:`ComparisonResult`, every metric's results for every system in one schema
(``docs/output-schema.md``).

:func:`compare` (``meteor_eval.compare``) builds a request from in-memory lists; the command
line builds one from its options; both call :func:`run`, so a number cannot differ between
them. The rules of one metric live in its class (:meth:`Metric.segment_metric`:
BLEU's effective order for single segments; :attr:`Metric.has_alignments`), the file formats
in the modules that own them (:mod:`meteor_eval.statsfile`, :mod:`meteor_eval.alignments`), the
engines in :mod:`meteor_eval.parallel` and :mod:`meteor_eval.distributed`.

Example:
    >>> from meteor_eval import compare
    >>> refs = [["the cat sat on the mat"], ["a dog barked"]]
    >>> result = compare({"a": ["the cat sat on the mat", "a dog barked"],
    ...                   "b": ["a cat on a mat", "the dog"]}, refs, metrics=("bleu",))
    >>> [round(system["bleu"]["score"], 2) for system in result.to_dict()["systems"]]
    [100.0, 9.87]
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, cast

from meteor_eval._lazy import lazy_names
from meteor_eval.errors import ConfigError, InputError, WorkBudgetError, warn_renamed
from meteor_eval.io import EncodingErrors
from meteor_eval.metrics.protocol import Metric, Pair, Row
from meteor_eval.results import ComparisonResult, SystemRun, flatten

if TYPE_CHECKING:
    # Imported where used: a run without significance tests, documents or statistics files
    # does not pay their modules' imports (their dataclasses are made at import).
    from meteor_eval._significance_settings import Significance as Significance
    from meteor_eval.documents import Documents
    from meteor_eval.statsfile import StoredSystems

__all__ = [
    "ComparisonResult",
    "Engine",
    "ProgressCallback",
    "Request",
    "Significance",
    "SystemRun",
    "Systems",
    "compare",
    "flatten",
    "run",
]

#: ``progress(system, metric, done, total)``: segments scored so far of one system and metric
#: (``total``: the number of segments when known beforehand, else ``None``).
ProgressCallback = Callable[[str, str, int, "int | None"], None]


#: ``Significance`` is imported from :mod:`meteor_eval._significance_settings` on first use (PEP
#: 562): a run without intervals or tests does not make the dataclass.
__getattr__, __dir__ = lazy_names(
    __name__, globals(), {"Significance": "meteor_eval._significance_settings"}
)


def _stored(systems: object) -> bool:
    """Whether ``systems`` are :class:`~meteor_eval.statsfile.StoredSystems` (none can exist
    before their module is imported, so it is not imported here)."""
    statsfile = sys.modules.get("meteor_eval.statsfile")
    return statsfile is not None and isinstance(systems, statsfile.StoredSystems)


def _metrics(metrics: Sequence[str | Metric[Any]]) -> list[Metric[Any]]:
    from meteor_eval.metrics.registry import metric_class

    out: list[Metric[Any]] = []
    for item in metrics:
        metric = metric_class(item)() if isinstance(item, str) else item
        if not isinstance(metric, Metric):
            raise ConfigError(f"metrics: {item!r} is neither a metric name nor a Metric")
        if any(m.name == metric.name for m in out):
            raise ConfigError(f"metrics: {metric.name} is given twice")
        out.append(metric)
    if not out:
        raise ConfigError("metrics: at least one metric is required")
    return out


def _systems(
    systems: Mapping[str, Sequence[str]] | None,
    references: Sequence[Sequence[str]] | None,
    data: Any,
    hyp_fields: Sequence[str] | None,
    ref_fields: Sequence[str] | None,
) -> tuple[dict[str, Sequence[str]], Sequence[Sequence[str]]]:
    if data is not None:
        if systems is not None or references is not None:
            raise ConfigError("give either systems and references or data, not both")
        from meteor_eval.tables import from_dataframe

        table = from_dataframe(data, hyp_fields=hyp_fields or (), ref_fields=ref_fields or ())
        return dict(table.hypotheses), table.references
    if systems is None or references is None:
        raise ConfigError("systems and references are required (or data with the fields)")
    if isinstance(systems, str) or not isinstance(systems, Mapping):
        raise TypeError("systems: expected a mapping of system name -> hypotheses")
    if not systems:
        raise InputError("systems: no system")
    return dict(systems), references


@dataclass
class Systems:
    """The systems of a request and how to read each one's segments.

    Attributes:
        names: One name per system, in order.
        sources: Per system, the hypothesis file (``None`` for in-memory systems): named in
            errors, counted for progress totals.
        pairs: ``pairs(k)`` streams system ``k``'s ``(hypothesis, references)`` pairs; it may be
            called once per metric (for files: a :class:`~meteor_eval.parallel.Files`, whose
            worker processes read their own byte ranges).
        ref_sources: The reference files, which Dask workers may read themselves (empty for
            in-memory systems or standard input).
        errors: How invalid UTF-8 is read (``"strict"`` or ``"replace"``).
        documents: In document mode, the documents (ids and lines; the same for every
            system, whose pairs are then the documents').
    """

    names: list[str]
    sources: list[str | None]
    pairs: Callable[[int], Iterable[Pair]]
    ref_sources: list[str] = field(default_factory=list)
    errors: EncodingErrors = "strict"
    documents: Documents | None = None

    def locate(self, k: int, error: WorkBudgetError) -> str:
        """A work budget's error of system ``k`` with its file and line, or in document mode
        its file and document (id and lines)."""
        source = self.sources[k] or self.names[k]
        if self.documents is None or error.line is None:
            return f"{source}, {error}"
        bare = WorkBudgetError(error.metric, error.kind, error.units, error.budget)
        return f"{source}, {self.documents.where(error.line - 1)}: {bare}"

    @classmethod
    def from_lists(
        cls, systems: Mapping[str, Sequence[str]], references: Sequence[Sequence[str]]
    ) -> Systems:
        """In-memory systems: per name, each segment's hypothesis; ``references[i]`` the
        references of segment ``i`` (every segment is checked, as by ``corpus_score``).

        Raises:
            TypeError: a bare string where a sequence is expected.
            InputError: no system, a system of another length, a segment without reference.
        """
        from meteor_eval.metrics.base import check_corpus, check_segment

        if isinstance(systems, str) or not isinstance(systems, Mapping):
            raise TypeError("systems: expected a mapping of system name -> hypotheses")
        if not systems:
            raise InputError("systems: no system")
        checked: list[list[Pair]] = []
        for name, hypotheses in systems.items():
            try:
                check_corpus(hypotheses, references)
                pairs: list[Pair] = []
                for index, (hyp, refs) in enumerate(zip(hypotheses, references, strict=True)):
                    check_segment(index, hyp, refs)
                    pairs.append((hyp, refs))
            except InputError as exc:
                raise InputError(f"system {name!r}: {exc}") from None
            checked.append(pairs)
        return cls(list(systems), [None] * len(checked), lambda k: iter(checked[k]))


@dataclass(frozen=True)
class Engine:
    """Where the statistics are computed; the results are identical in every engine.

    Attributes:
        jobs: Local processes (0: one per CPU).
        scheduler: A Dask scheduler address, ``"local"`` or ``"local:N"`` instead
            (:func:`meteor_eval.distributed.connect`).
        start_method: How local worker processes start (:mod:`meteor_eval.processes`).
    """

    jobs: int = 1
    scheduler: str | None = None
    start_method: str | None = None


@dataclass
class Request:
    """Everything one run needs (:func:`run`).

    Attributes:
        systems: The systems to score (:class:`Systems`), or statistics files read back
            (:class:`~meteor_eval.statsfile.StoredSystems`, whose headers give the metrics).
        metrics: The metrics, configured (ignored for stored statistics).
        segment_level: Keep every segment's result (``to_dict()["systems"][i]["segments"]``).
        significance: Intervals and paired tests, or ``None``.
        stats_files: One statistics file to write per system (empty: none).
        alignment_files: One alignments file to write per system (empty: none); written by
            the metrics that have alignments (METEOR).
        engine: Where to compute (:class:`Engine`).
        progress: Called as segments are scored (:data:`ProgressCallback`; local engines).
        keep_rows: Keep each segment's statistics row even when nothing of the request needs
            it, so that :meth:`ComparisonResult.test` can be called afterwards.
    """

    systems: Systems | StoredSystems
    metrics: Sequence[Metric[Any]] = ()
    segment_level: bool = False
    significance: Significance | None = None
    stats_files: Sequence[str] = ()
    alignment_files: Sequence[str] = ()
    engine: Engine = field(default_factory=Engine)
    progress: ProgressCallback | None = None
    keep_rows: bool = False

    @property
    def keeps_rows(self) -> bool:
        """Whether each segment's statistics row is kept (significance, statistics files,
        per-segment output); otherwise the input streams with flat memory."""
        return (
            self.keep_rows
            or self.significance is not None
            or bool(self.stats_files)
            or self.segment_level
        )


def _check(request: Request) -> int:
    """The request's settings checked before anything is scored; the number of processes."""
    from meteor_eval.metrics.protocol import processes_for

    engine = request.engine
    n_jobs = processes_for(engine.jobs, engine.start_method)
    names = request.systems.names
    for option, paths in (("stats", request.stats_files), ("alignments", request.alignment_files)):
        if paths and len(paths) != len(names):
            raise ConfigError(
                f"{option}: {len(paths)} file(s) for {len(names)} systems; give one per system"
            )
    if _stored(request.systems) and (request.stats_files or request.alignment_files):
        raise ConfigError("statistics and alignments files cannot be written from statistics")
    if engine.scheduler is not None:
        if engine.jobs != 1:
            raise ConfigError("jobs and scheduler are alternatives; give one")
        if request.alignment_files:
            raise ConfigError("alignments are written by local scoring only (not on Dask)")
    test = request.significance
    if test is not None:
        if test.method is not None and len(names) < 2:
            raise ConfigError(
                f"paired test {test.method!r} compares systems with a baseline: give at least "
                "two systems (intervals alone need no baseline)"
            )
        if test.baseline is not None and test.baseline not in names:
            raise ConfigError(f"baseline: {test.baseline!r} is not one of {', '.join(names)}")
    return n_jobs


def _run_of_rows(
    metric: Metric[Any], rows: list[Row], nrefs: list[int], segment_level: bool
) -> SystemRun:
    run = SystemRun(metric.score_rows(rows, nrefs), rows, nrefs)
    if segment_level:
        single = metric.segment_metric()
        run.segments = [single.segment_result(r, n) for r, n in zip(rows, nrefs, strict=True)]
    return run


class _Progress:
    """The engine's progress callback for one system and metric."""

    def __init__(
        self, report: ProgressCallback, system: str, metric: str, total: int | None
    ) -> None:
        self.report, self.system, self.metric, self.total = report, system, metric, total

    def __call__(self, done: int) -> None:
        self.report(self.system, self.metric, done, self.total)


def _score_local(
    request: Request, systems: Systems, metric: Metric[Any], k: int, n_jobs: int
) -> SystemRun:
    """One system and metric in this process or ``n_jobs`` local processes."""
    from meteor_eval.parallel import corpus_result, segment_results, segment_rows

    progress = None
    if request.progress is not None:
        from meteor_eval.io import count_lines

        source = systems.sources[k]
        total = count_lines(source) if source else None
        progress = _Progress(request.progress, systems.names[k], metric.name, total)
    options: dict[str, Any] = {
        "jobs": n_jobs,
        "progress": progress,
        "start_method": request.engine.start_method,
    }
    pairs = systems.pairs(k)
    if request.alignment_files and metric.has_alignments:
        segments = list(segment_results(metric, pairs, alignment=True, **options))
        rows = [seg.stats.to_row() for seg in segments]
        nrefs = [int(seg.signature.get("nrefs") or 1) for seg in segments]
        return SystemRun(metric.score_rows(rows, nrefs), rows, nrefs, segments)
    if not request.keeps_rows:
        result, _ = corpus_result(metric, pairs, **options)
        return SystemRun(result)
    records = list(segment_rows(metric, pairs, **options))
    rows = [row for row, _ in records]
    nrefs = [n for _, n in records]
    return _run_of_rows(metric, rows, nrefs, request.segment_level)


def _score_dask(request: Request, systems: Systems, result: ComparisonResult) -> None:
    """Every system and metric on a Dask cluster; files are read by the workers where they
    see them."""
    from meteor_eval import distributed

    assert request.engine.scheduler is not None
    client, close = distributed.connect(request.engine.scheduler)
    try:
        for k, name in enumerate(systems.names):
            source = systems.sources[k]
            # Workers read the files themselves only where a file's lines are the segments
            # scored (in document mode the pairs are the joined documents).
            direct = source and systems.ref_sources and systems.documents is None
            files = [source, *systems.ref_sources] if direct else None
            for metric in result.metrics:
                where: dict[str, Any] = {"files": files} if files else {"pairs": systems.pairs(k)}
                if not request.keeps_rows:
                    total = distributed.corpus_result(
                        metric, client, errors=systems.errors, **where
                    )
                    result.runs[name][metric.name] = SystemRun(total)
                    continue
                records = distributed.segment_rows(metric, client, errors=systems.errors, **where)
                rows = [row for row, _ in records]
                nrefs = [n for _, n in records]
                run = _run_of_rows(metric, rows, nrefs, request.segment_level)
                result.runs[name][metric.name] = run
    finally:
        close()


def _from_stored(request: Request, stored: StoredSystems) -> ComparisonResult:
    """Results of statistics files: each metric as its files' headers configure it."""
    result = ComparisonResult(list(stored.names), [metric for metric, _ in stored.metrics])
    result.runs = {name: {} for name in stored.names}
    for metric, files in stored.metrics:
        single = metric.segment_metric()
        for name, stats in zip(stored.names, files, strict=True):
            total = metric.total_of(stats.rows, ())
            score = metric.score_total(total.row, nrefs=stats.nrefs, rows=total.rows)
            n = int(stats.nrefs) if stats.nrefs.isdigit() else 0
            run = SystemRun(score, list(stats.rows), [n] * len(stats.rows))
            if request.segment_level:
                run.segments = [single.segment_result(row, n) for row in stats.rows]
            result.runs[name][metric.name] = run
    return result


def _write_side_files(request: Request, result: ComparisonResult) -> None:
    """Statistics and alignments files, one per system, written after every system was scored
    (a failure leaves none half-written)."""
    if not request.stats_files and not request.alignment_files:
        return
    from meteor_eval.statsfile import input_references_digest, write_stats

    references = None
    if request.stats_files and isinstance(request.systems, Systems):
        # What identifies the segments scored: paired tests of statistics files refuse files
        # of other references or another order (statsfile.check_same_segments).
        references = input_references_digest(request.systems.pairs(0))
    for k, name in enumerate(result.names):
        for metric in result.metrics:
            run = result.runs[name][metric.name]
            if request.stats_files and run.rows is not None and run.nrefs is not None:
                write_stats(
                    request.stats_files[k],
                    metric,
                    run.rows,
                    run.nrefs,
                    system=name,
                    references=references,
                )
            if request.alignment_files and metric.has_alignments and run.segments is not None:
                from meteor_eval.alignments import write_alignments

                write_alignments(request.alignment_files[k], run.segments)


def run(request: Request) -> ComparisonResult:
    """Carry out a request: score every system with every metric, write the side files, test
    significance; the one path of :func:`compare` and the command line.

    Raises:
        ConfigError: settings that do not go together (files per system, an unknown baseline,
            a paired test of one system, bad ``jobs``), a missing engine.
        InputError: unreadable or inconsistent input (a too-long segment names its file).
    """
    n_jobs = _check(request)
    if _stored(request.systems):
        result = _from_stored(request, cast("StoredSystems", request.systems))
    else:
        systems = cast("Systems", request.systems)
        metrics = _metrics(request.metrics)
        result = ComparisonResult(list(systems.names), metrics)
        result.runs = {name: {} for name in systems.names}
        if request.engine.scheduler is not None:
            _score_dask(request, systems, result)
        else:
            for k, name in enumerate(systems.names):
                for metric in metrics:
                    try:
                        run = _score_local(request, systems, metric, k, n_jobs)
                    except WorkBudgetError as exc:  # say which input the line is in
                        raise InputError(systems.locate(k, exc)) from None
                    result.runs[name][metric.name] = run
        _write_side_files(request, result)
    test = request.significance
    if test is not None:
        result.test(
            baseline=test.baseline,
            method=test.method,
            n_samples=test.n_samples,
            seed=test.seed,
            confidence=test.confidence,
        )
    if not request.segment_level:  # kept only to write the alignments
        for runs in result.runs.values():
            for system_run in runs.values():
                system_run.segments = None
    return result


def compare(
    systems: Mapping[str, Sequence[str]] | None = None,
    references: Sequence[Sequence[str]] | None = None,
    *,
    metrics: Sequence[str | Metric[Any]] = ("meteor", "bleu", "rouge"),
    paired: Literal["bs", "ar"] | None = None,
    ci: bool = False,
    baseline: str | None = None,
    n_samples: int | None = None,
    seed: int | None = 12345,
    confidence: float = 0.95,
    segment_level: bool = False,
    data: Any = None,
    hyp_fields: Sequence[str] | None = None,
    ref_fields: Sequence[str] | None = None,
    jobs: int = 1,
    start_method: str | None = None,
    scheduler: str | None = None,
    progress: ProgressCallback | None = None,
    sentence_level: bool | None = None,
) -> ComparisonResult:
    """Score several systems with several metrics, optionally with intervals and paired tests
    (a :class:`Request` of in-memory lists, carried out by :func:`run`).

    Args:
        systems: Per system name, each segment's hypothesis (every system the same length).
        references: Each segment's references (shared by every system).
        metrics: Metric names (``"meteor"``, ``"bleu"``, ``"rouge"``: default settings) or
            configured metric objects (``Meteor(MeteorConfig.preset(...))``).
        paired: ``"bs"`` (paired bootstrap) or ``"ar"`` (approximate randomisation) against
            ``baseline`` (default: the first system); ``None``: no test.
        ci: Bootstrap intervals without a paired test.
        baseline: The system the others are tested against.
        n_samples: Resamples or trials (default 1000 for ``bs``, 10000 for ``ar``).
        seed: Random seed (``None``: not reproducible).
        confidence: Interval coverage.
        segment_level: Keep every segment's result (``to_dict()["systems"][i]["segments"]``);
            BLEU scores single segments with effective order, as sacrebleu's ``sentence_bleu``
            and the command line's ``--sentence-level``.
        data: Instead of ``systems``/``references``: a pandas DataFrame, one row a segment.
        hyp_fields: With ``data``: the columns of the systems (one column per system).
        ref_fields: With ``data``: the columns of references (a column of lists counts as
            several references).
        jobs: Processes to compute the statistics in (0: one per CPU); the results are
            identical.
        start_method: How worker processes start (:mod:`meteor_eval.processes`).
        scheduler: Score on a Dask cluster instead (an address, ``"local"`` or
            ``"local:N"``); the results are identical.
        progress: Called as segments are scored (:data:`ProgressCallback`).
        sentence_level: The former name of ``segment_level`` (deprecated; removed in 0.3).

    Raises:
        ConfigError: unknown metric or test, bad counts, an unknown baseline, bad ``jobs`` or
            ``start_method``.
        InputError: systems of different lengths, segments without reference.
    """
    if sentence_level is not None:
        warn_renamed("compare(sentence_level=)", "segment_level=")
        segment_level = sentence_level
    hyps, refs = _systems(systems, references, data, hyp_fields, ref_fields)
    if paired is not None and paired not in ("bs", "ar"):
        raise ConfigError(f"paired: {paired!r} is unknown; allowed: 'bs', 'ar', None")
    if baseline is not None and paired is None and not ci:
        raise ConfigError("baseline needs paired='bs' or paired='ar'")
    significance = None
    if paired is not None or ci:
        from meteor_eval._significance_settings import Significance

        significance = Significance(paired, baseline, n_samples, seed, confidence)
    chosen = _metrics(metrics)
    if data is None and any(metric.name == "bleu" for metric in chosen):
        # References given as sacrebleu's streams would be read per segment: refuse the shape
        # that could be either (a table's references are per segment by construction).
        from meteor_eval.metrics.bleu import check_reference_layout

        for hypotheses in hyps.values():
            check_reference_layout(hypotheses, refs)
    request = Request(
        Systems.from_lists(hyps, refs),
        chosen,
        segment_level=segment_level,
        significance=significance,
        engine=Engine(jobs, scheduler, start_method),
        progress=progress,
        keep_rows=True,
    )
    return run(request)
