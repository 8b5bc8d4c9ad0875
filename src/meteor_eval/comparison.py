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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from meteor_eval._lazy import lazy_names
from meteor_eval.errors import ConfigError, InputError, warn_renamed
from meteor_eval.metrics.protocol import Metric
from meteor_eval.results import ComparisonResult, SystemRun, flatten
from meteor_eval.systems import ProgressCallback, Systems

if TYPE_CHECKING:
    # Imported where used: a run without significance tests, documents or statistics files
    # does not pay their modules' imports (their dataclasses are made at import).
    from meteor_eval._significance_settings import Significance as Significance
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


#: ``Significance`` is imported from :mod:`meteor_eval._significance_settings` on first use (PEP
#: 562): a run without intervals or tests does not make the dataclass.
__getattr__, __dir__ = lazy_names(
    __name__, globals(), {"Significance": "meteor_eval._significance_settings"}
)


def _metrics(metrics: Sequence[str | Metric[Any]]) -> list[Metric[Any]]:
    from meteor_eval.metrics.registry import metric_class

    if isinstance(metrics, str):
        raise TypeError(f"metrics: got the bare string {metrics!r}, expected a list of names")
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


def _check(request: Request) -> tuple[list[Metric[Any]], int]:
    """The request's settings checked before anything is scored: the metrics (those of the
    statistics files' headers for stored systems, checked when read) and the number of
    processes."""
    from meteor_eval.pool import processes_for

    engine = request.engine
    names = request.systems.names
    for option, paths in (("stats", request.stats_files), ("alignments", request.alignment_files)):
        if paths and len(paths) != len(names):
            raise ConfigError(
                f"{option}: {len(paths)} file(s) for {len(names)} systems; give one per system"
            )
    text = isinstance(request.systems, Systems)
    if not text and (request.stats_files or request.alignment_files):
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
    metrics = _metrics(request.metrics) if text else []
    return metrics, processes_for(engine.jobs, engine.start_method)


def run(request: Request) -> ComparisonResult:
    """Carry out a request: score every system with every metric, write the side files, test
    significance; the one path of :func:`compare` and the command line.

    An engine computes the systems' statistics (:func:`meteor_eval.parallel.local_parts`,
    :func:`meteor_eval.distributed.cluster_parts`; statistics files read back hold theirs
    already: :attr:`StoredSystems.parts <meteor_eval.statsfile.StoredSystems.parts>`), and each
    metric makes its results of them (:meth:`Metric.system_run`), the same way for every
    engine. The side files are written by the modules of their formats, after every system was
    scored (a failure leaves none half-written).

    Raises:
        ConfigError: settings that do not go together (files per system, an unknown baseline,
            a paired test of one system, bad ``jobs``), a missing engine.
        InputError: unreadable input, a too-long segment (its file named), inconsistent input.
    """
    metrics, n_jobs = _check(request)
    systems, engine = request.systems, request.engine
    if not isinstance(systems, Systems):  # statistics files read back, scored as they say
        metrics, parts = [m for m, _ in systems.metrics], systems.parts
    elif engine.scheduler is not None:
        from meteor_eval.distributed import cluster_parts

        parts = cluster_parts(systems, metrics, engine.scheduler, keep_rows=request.keeps_rows)
    else:
        from meteor_eval.parallel import local_parts

        parts = local_parts(
            systems,
            metrics,
            keep_rows=request.keeps_rows,
            alignments=bool(request.alignment_files),
            jobs=n_jobs,
            start_method=engine.start_method,
            progress=request.progress,
        )
    segment_level = request.segment_level
    runs = {
        name: {
            m.name: m.system_run(parts[name][m.name], segment_level=segment_level) for m in metrics
        }
        for name in systems.names
    }
    result = ComparisonResult(list(systems.names), metrics, runs)
    if isinstance(systems, Systems) and request.stats_files:  # first: they read the input again
        from meteor_eval.statsfile import write_system_stats

        write_system_stats(request.stats_files, result, systems.pairs(0))
    if request.alignment_files:
        from meteor_eval.alignments import write_system_alignments

        write_system_alignments(request.alignment_files, result)
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
        for system_runs in result.runs.values():
            for system_run in system_runs.values():
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
