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

:func:`local_parts` computes a comparison's request (:func:`meteor_eval.comparison.run`)
with this engine: every system with every metric, each as the request needs it (the chunks'
totals only, or each segment's row, or its result with its alignment too). It makes no result:
what it computes goes to the metric, which reduces it (``Metric.system_run``), as it does the
Dask engine's and stored statistics.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Literal, TypeVar, Unpack

from meteor_eval.errors import InputError, WorkBudgetError
from meteor_eval.metrics.protocol import Metric, Pair, Parts, Row, Total
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
    run_chunks,
)

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
    "local_parts",
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


#: What the local engine gives of one system and metric (:func:`_scored`).
_Kept = Literal["totals", "rows", "alignments"]


def _scored(
    systems: Systems,
    k: int,
    metric: Metric[Any],
    kept: _Kept,
    run: Run,
    report: ProgressCallback | None,
) -> Iterator[Any]:
    """System ``k`` scored with ``metric``, started when first read and in input order: each
    chunk's total (``kept="totals"``), each segment's row and number of
    references (``"rows"``), or each segment's result with its alignment and its row
    (``"alignments"``), as :class:`~meteor_eval.metrics.protocol.Parts` holds them. Its chunks
    run as ``run`` says, with a progress callback of their own when the request has one; a
    segment over its work budget is named by its file and line (or document)."""
    try:
        if report is not None:
            from meteor_eval.io import count_lines

            source = systems.sources[k]
            total = count_lines(source) if source else None
            run = replace(run, progress=_Progress(report, systems.names[k], metric.name, total))
        pairs = systems.pairs(k)
        if kept == "alignments":
            for seg in each(metric, pairs, "segment_results", run, alignment=True):
                yield seg.stats.to_row(), int(seg.signature.get("nrefs") or 1), seg
        elif kept == "rows":
            for row, count in each(metric, pairs, "chunk_rows", run):
                yield row, count, None
        else:
            yield from run_chunks(metric, pairs, "chunk_total", run, attrgetter("count"))
    except WorkBudgetError as exc:  # say which input the line is in
        raise InputError(systems.locate(k, exc)) from None


def local_parts(
    systems: Systems,
    metrics: Sequence[Metric[Any]],
    *,
    keep_rows: bool = False,
    alignments: bool = False,
    jobs: int = 1,
    start_method: str | None = None,
    progress: ProgressCallback | None = None,
) -> dict[str, dict[str, Parts]]:
    """Per system name, per metric name, what this engine computes of every system with every
    metric (:class:`~meteor_eval.metrics.protocol.Parts`, which the metric reduces:
    ``Metric.system_run``), in this process or ``jobs`` local processes: each chunk's total,
    with ``keep_rows`` each segment's statistics row instead, with ``alignments`` each
    segment's result with its alignment (metrics that have them). ``progress``: a comparison's
    callback (:data:`ProgressCallback <meteor_eval.systems.ProgressCallback>`).

    Every part is a stream, scored as it is read (one system and metric after the other, in
    the order in which they are reduced), so that memory does not grow with the input where
    nothing keeps the rows.

    Raises (as the parts are read):
        InputError: unreadable input, or a segment over a work budget (its file and line, or
            in document mode its document, named).
    """
    run = Run(jobs, start_method=start_method)
    parts: dict[str, dict[str, Parts]] = {name: {} for name in systems.names}
    for k, name in enumerate(systems.names):
        for metric in metrics:
            aligned = alignments and metric.has_alignments
            kept: _Kept = "alignments" if aligned else "rows" if keep_rows else "totals"
            stream = _scored(systems, k, metric, kept, run, progress)
            parts[name][metric.name] = (
                Parts(segments=stream, made=aligned) if aligned or keep_rows else Parts(stream)
            )
    return parts
