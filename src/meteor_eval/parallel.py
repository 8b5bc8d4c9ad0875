"""Any metric over a stream of segments, in one or several processes, in input order.

The local engine, above the metrics: one engine for every metric of
:mod:`meteor_eval.metrics.protocol`, run on the executor of :mod:`meteor_eval.pool`. The pairs
are cut into chunks; with ``jobs=1`` each chunk is handled here, with ``jobs=N`` by N worker
processes, each of which builds its own metric from ``type(metric)(metric.config)`` once, in
its initializer (resources are loaded once per worker, or inherited from this process where
processes are forked). How workers start is :mod:`meteor_eval.processes`' choice
(``start_method``). At most a few chunks per worker are in flight, so memory does not grow with
the number of segments, and results come back in input order whatever order the workers finish
in.

What a worker receives is text, and it tokenises, normalises and interns it itself (each worker
has its own word-type tables):

* input from files (:class:`Files`): byte ranges of the files (:func:`meteor_eval.io.file_chunks`,
  one pass over the bytes here, which also checks the line counts before any scoring); each
  worker reads and decodes its own lines with the rules, warnings and errors of one process
  (warnings come back and are raised here, naming file and line), so the text never goes
  through a pipe and this process does not decode it;
* any other stream of pairs: the chunk's strings as they are (pickled strings are the raw text
  plus a few bytes each: 27.0 MB for 25.8 MB of text on 100,000 xray segments).

What comes back is statistics: one merged record per chunk for the corpus score of a metric with
integer statistics or exact sums, else one row per segment (or result objects when asked for).

Three things can be asked of a chunk, and so of a stream:

* :func:`corpus_total`: the merged statistics only. Metrics whose totals merge exactly in any
  grouping (``Metric.groups_exactly``: integer statistics, or float columns held as exact sums
  as ROUGE's) merge each chunk where it is scored, so one small record per chunk comes back
  from a worker; the others return their rows, which are merged here one by one in input
  order, so floating-point sums are the same whatever the number of processes.
  :func:`corpus_result` scores the total.
* :func:`segment_rows`: each segment's statistics row and number of references.
* :func:`segment_results`: each segment's result object (with options such as METEOR's
  ``alignment``).

:func:`local_runs` carries out a comparison's request (:func:`meteor_eval.comparison.run`)
with this engine: every system with every metric, each as the request needs it (the corpus
result only, or each segment's row, result or alignment too).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, Unpack

from meteor_eval.errors import InputError, WorkBudgetError
from meteor_eval.metrics.protocol import Metric, Pair, Row, Total
from meteor_eval.pool import (
    DEFAULT_CHUNK_SIZE,
    MAX_JOBS,
    Files,
    Progress,
    Run,
    RunOptions,
    WorkerError,
    each,
    resolve_jobs,
)
from meteor_eval.results import SystemRun

if TYPE_CHECKING:
    from meteor_eval.systems import ProgressCallback, Systems

__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "MAX_JOBS",
    "Files",
    "RunOptions",
    "WorkerError",
    "corpus_result",
    "corpus_total",
    "local_runs",
    "resolve_jobs",
    "segment_results",
    "segment_rows",
]

_ScoreT = TypeVar("_ScoreT")


# -- what callers ask for ---------------------------------------------------------------------


def corpus_total(
    metric: Metric[Any],
    pairs: Iterable[Pair],
    **run: Unpack[RunOptions],
) -> Total:
    """The merged statistics of a stream of pairs (and its rows when the metric keeps them).

    ``pairs`` may be :class:`Files` (worker processes then read byte ranges of the files);
    ``run``: ``jobs``, ``chunk_size``, ``start_method`` and ``progress``, as
    :class:`RunOptions` describes them.

    Equal to merging every segment's row in input order: metrics that group exactly merge
    chunk totals (integer or exact sums), the others fold the rows one by one here.

    Raises:
        ConfigError: ``jobs``, ``chunk_size`` or ``start_method`` is invalid
            (:mod:`meteor_eval.processes`).
    """
    return metric.stream_total(pairs, Run(**run))


def corpus_result(
    metric: Metric[_ScoreT], pairs: Iterable[Pair], **options: Any
) -> tuple[_ScoreT, int]:
    """The corpus result of a stream of pairs and the number of segments (``options``: those
    of :func:`corpus_total`).

    Equal to the metric's ``corpus_score`` on the same segments, bit for bit.
    """
    total = corpus_total(metric, pairs, **options)
    return metric.result(total), total.count


def segment_rows(
    metric: Metric[Any],
    pairs: Iterable[Pair],
    **run: Unpack[RunOptions],
) -> Iterator[tuple[Row, int]]:
    """Each pair's statistics row and number of references, in input order (``run``: as
    :func:`corpus_total`).

    Raises:
        ConfigError: ``jobs``, ``chunk_size`` or ``start_method`` is invalid
            (:mod:`meteor_eval.processes`).
    """
    return each(metric, pairs, "chunk_rows", Run(**run))


def segment_results(
    metric: Metric[_ScoreT],
    pairs: Iterable[Pair],
    *,
    jobs: int = 1,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    progress: Progress | None = None,
    start_method: str | None = None,
    **options: Any,
) -> Iterator[_ScoreT]:
    """Each pair's result object, in input order (``jobs``, ``chunk_size``, ``progress``,
    ``start_method``: as :class:`RunOptions`; the other ``options`` go to the metric's
    ``segment_results``, e.g. ``alignment=True`` for METEOR).

    Raises:
        ConfigError: ``jobs``, ``chunk_size`` or ``start_method`` is invalid
            (:mod:`meteor_eval.processes`).
    """
    run = Run(jobs, chunk_size, start_method, progress)
    return each(metric, pairs, "segment_results", run, **options)


# -- a comparison's request -------------------------------------------------------------------


class _Progress:
    """The engine's progress callback for one system and metric: the request's callback with
    the system, the metric and the number of segments (when known) added."""

    def __init__(
        self, report: ProgressCallback, system: str, metric: str, total: int | None
    ) -> None:
        self.report, self.system, self.metric, self.total = report, system, metric, total

    def __call__(self, done: int) -> None:
        self.report(self.system, self.metric, done, self.total)


class _Wanted(NamedTuple):
    """What a run of one system keeps besides its corpus result: each segment's row, result,
    alignment."""

    rows: bool
    segments: bool
    alignments: bool


def _system_run(
    systems: Systems,
    k: int,
    metric: Metric[Any],
    wanted: _Wanted,
    run: Run,
    report: ProgressCallback | None,
) -> SystemRun:
    """System ``k`` scored with ``metric`` as ``wanted``, its chunks run as ``run`` says (with
    a progress callback of its own when the request has one)."""
    if report is not None:
        from meteor_eval.io import count_lines

        source = systems.sources[k]
        total = count_lines(source) if source else None
        run = replace(run, progress=_Progress(report, systems.names[k], metric.name, total))
    pairs = systems.pairs(k)
    if wanted.alignments and metric.has_alignments:
        segments = list(each(metric, pairs, "segment_results", run, alignment=True))
        rows = [seg.stats.to_row() for seg in segments]
        nrefs = [int(seg.signature.get("nrefs") or 1) for seg in segments]
        return SystemRun(metric.score_rows(rows, nrefs), rows, nrefs, segments)
    if not wanted.rows:
        return SystemRun(metric.result(metric.stream_total(pairs, run)))
    records = list(each(metric, pairs, "chunk_rows", run))
    rows = [row for row, _ in records]
    nrefs = [n for _, n in records]
    per_segment = metric.segment_results_of_rows(rows, nrefs) if wanted.segments else None
    return SystemRun(metric.score_rows(rows, nrefs), rows, nrefs, per_segment)


def local_runs(
    systems: Systems,
    metrics: Sequence[Metric[Any]],
    *,
    keep_rows: bool = False,
    segment_level: bool = False,
    alignments: bool = False,
    jobs: int = 1,
    start_method: str | None = None,
    progress: ProgressCallback | None = None,
) -> dict[str, dict[str, SystemRun]]:
    """Per system name, per metric name, the run of every system with every metric, in this
    process or ``jobs`` local processes, one after the other in input order: the corpus
    result, with ``keep_rows`` each segment's statistics row, with ``segment_level`` each
    segment's result, with ``alignments`` each segment's alignment (metrics that have them;
    implies the rows). ``progress``: a comparison's callback (:data:`ProgressCallback
    <meteor_eval.systems.ProgressCallback>`).

    Raises:
        InputError: unreadable input, or a segment over a work budget (its file and line, or
            in document mode its document, named).
    """
    wanted = _Wanted(keep_rows, segment_level, alignments)
    run = Run(jobs, start_method=start_method)
    runs: dict[str, dict[str, SystemRun]] = {name: {} for name in systems.names}
    for k, name in enumerate(systems.names):
        for metric in metrics:
            try:
                runs[name][metric.name] = _system_run(systems, k, metric, wanted, run, progress)
            except WorkBudgetError as exc:  # say which input the line is in
                raise InputError(systems.locate(k, exc)) from None
    return runs
