"""Any metric on a Dask cluster: chunks scored by workers, statistics merged, results identical
to one process.

The same protocol as :mod:`meteor_eval.parallel` (statistics rows per segment, merged, scored
once), with ``dask.distributed`` workers instead of local processes:

* **Input.** Files are cut into chunks of ``chunk_size`` lines by byte ranges
  (:func:`meteor_eval.io.line_offsets`, one pass over the bytes here); a worker that sees the
  same path (shared storage) reads its ranges itself (:func:`meteor_eval.io.read_range`, with the
  rules, warnings and errors of the local reader), so the text never travels through the client.
  Otherwise (``shared_storage=False``, standard input, in-memory pairs) the client reads the
  chunks and sends them.
* **Resources** load once per worker process: each worker keeps one metric per configuration
  (the same cache as the mergeable metric objects).
* **Tasks.** A task scores at most ``chunk_size`` segments; towards the end of a file the
  tasks shrink (down to a quarter of that) so that the workers finish together rather than one
  waiting for the other's last large task (:func:`_file_tasks`).
* **Merging.** Metrics with integer statistics or exact sums (``Metric.groups_exactly``)
  return one merged total per task (exact in any grouping); the others return their rows. The
  results come back to the client in one gather and are merged there in input order
  (``Metric.total_of_chunks``, the rule of every engine), so floating-point sums equal
  ``jobs=1``'s; merging a few dozen small totals in the client costs microseconds, where a
  tree of merge tasks on the workers cost the scheduler and the client one task and one
  transfer each.
  Per-segment rows come back in input order.
* Warnings a worker raises while reading (a byte-order mark, a carriage return) are re-raised
  here, once each, naming the file and line as locally.

:func:`cluster_parts` computes a comparison's request (:func:`meteor_eval.comparison.run`)
with this engine: every system with every metric, each as the request needs it; the metric
makes the results of what it computed (``Metric.system_run``), as of the local engine's.

Dask is an optional extra (``pip install 'meteor-eval[dask]'``), imported only here.
"""

from __future__ import annotations

import itertools
import os
import warnings
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

from meteor_eval import io
from meteor_eval.errors import ConfigError, warn_empty
from meteor_eval.io import EncodingErrors, FileChunk
from meteor_eval.io import read_chunk as _read_chunk
from meteor_eval.metrics.protocol import Metric, Pair, Parts, Row, Total

if TYPE_CHECKING:
    from meteor_eval.systems import Systems

__all__ = [
    "DEFAULT_CHUNK_LINES",
    "DaskInput",
    "FileChunk",
    "cluster_parts",
    "connect",
    "corpus_result",
    "corpus_total",
    "file_chunks",
    "segment_rows",
]

#: Segments per task at most: big enough that scheduling costs little (each task costs the
#: scheduler and the client a few milliseconds of CPU, which they take from the workers on a
#: machine with as many cores as workers), while the last tasks shrink so the workers finish
#: together (:func:`_file_tasks`).
DEFAULT_CHUNK_LINES = 8192

#: File input: a task is cut from units of ``chunk_size // _UNITS_PER_TASK`` lines, at most
#: ``_UNITS_PER_TASK`` of them, fewer once fewer than ``workers * _TAIL_SHARE`` tasks of full
#: size are left.
_UNITS_PER_TASK = 4
_TAIL_SHARE = 2

#: File input: most units found for the workers' first tasks before the files are scanned
#: whole (a file shorter than that is read once for nothing, then scanned whole).
_HEAD_UNITS = 64


def file_chunks(paths: Sequence[str], chunk_lines: int = DEFAULT_CHUNK_LINES) -> list[FileChunk]:
    """Chunks of ``chunk_lines`` segments of a hypothesis file and its reference files
    (:func:`meteor_eval.io.file_chunks`, with this engine's default size).

    Raises:
        InputError: a file is unreadable, or the files' line counts differ (both named).
    """
    return io.file_chunks(paths, chunk_lines)


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ConfigError(
            "the Dask engine needs dask.distributed: pip install 'meteor-eval[dask]'"
        ) from None
    return distributed


#: Seconds to wait for a remote scheduler before giving up (Dask's own default is 30).
CONNECT_TIMEOUT = 10.0

#: Address schemes whose location is ``host:port``.
_HOST_PORT_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")


def check_scheduler(scheduler: str) -> None:
    """Refuse a ``scheduler`` that is neither ``local``, ``local:N`` nor a Dask address
    (``tcp://host:port``, ``host:port``, ``tls://...``, ``inproc://...``), before any work.

    Raises:
        ConfigError: naming ``--scheduler`` and what is wrong.
    """
    if scheduler == "local" or scheduler.startswith("local:"):
        count = scheduler.partition(":")[2]
        if count and (not count.isdigit() or int(count) < 1):
            raise ConfigError(f"--scheduler: {scheduler!r}: expected local or local:N with N >= 1")
        return
    scheme, _, location = scheduler.rpartition("://")
    scheme = scheme or "tcp"
    host, _, port = location.rpartition(":")
    wrong = None
    if not location:
        wrong = "no host"
    elif scheme in _HOST_PORT_SCHEMES:
        if not port.isdigit() or not 0 < int(port) < 65536:
            wrong = "no port number" if not host else f"port {port!r} is not from 1 to 65535"
        elif not host:
            wrong = "no host"
    elif scheme != "inproc":
        wrong = f"unknown scheme {scheme!r}"
    if wrong is not None:
        raise ConfigError(
            f"--scheduler: {scheduler!r} is not a scheduler address ({wrong}); give "
            "tcp://host:port, local or local:N"
        )


#: Dask settings of a cluster that :func:`connect` starts here (``local``, ``local:N``): no
#: statistical profiler sampling each worker's thread every 10 ms (it takes the interpreter
#: lock from the scoring), no sampling of that lock's contention every millisecond, and the
#: event loops' watchdog tick every 200 ms instead of 20 ms. Together they cost each process
#: about 5% of a core while the workers score or wait. Then the workers' memory check once a
#: second instead of every 100 ms (its pause and spill thresholds still apply) and the
#: system monitor (processes' CPU, memory and network counters, for the dashboard, which such
#: a cluster does not serve) every 2 s instead of 500 ms: an idle cluster of two workers then
#: costs the client about half the CPU (0.16 to 0.18 s per 10 s against 0.30 to 0.37) and
#: each worker 0.07 s against 0.12. A cluster of the user's own keeps its settings.
_LOCAL_CONFIG: dict[str, object] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.system-monitor.gil.enabled": False,
    "distributed.admin.tick.interval": "200ms",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
}


def connect(scheduler: str) -> tuple[Any, Any]:
    """A Dask client for ``scheduler``: an address (``tcp://host:8786``), ``local`` (one worker
    process per CPU) or ``local:N`` (N worker processes). Returns ``(client, close)``; call
    ``close()`` when done (it also stops a local cluster).

    Raises:
        ConfigError: dask is not installed, a malformed address (:func:`check_scheduler`), or
            no scheduler answers at the address within :data:`CONNECT_TIMEOUT` seconds.
    """
    check_scheduler(scheduler)
    distributed = _import_distributed()
    if scheduler == "local" or scheduler.startswith("local:"):
        count = scheduler.partition(":")[2]
        workers = int(count) if count else (os.cpu_count() or 1)
        import dask

        with dask.config.set(_LOCAL_CONFIG):
            cluster = distributed.LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
            )
        client = distributed.Client(cluster)

        def close_local() -> None:
            client.close()
            cluster.close()

        return client, close_local
    try:
        client = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:
        # Dask's own error is a traceback, or an OSError that the command line would report
        # as a failure to write the results.
        raise ConfigError(
            f"--scheduler: cannot reach a scheduler at {scheduler} within "
            f"{CONNECT_TIMEOUT:g} s ({type(exc).__name__}: {exc})"
        ) from None
    return client, client.close


def _worker_metric(cls: type[Metric[Any]], config: Any) -> Metric[Any]:
    from meteor_eval.mergeable import _shared_metric

    return _shared_metric(cls, config)


def _score_chunk(
    cls: type[Metric[Any]],
    config: Any,
    job: FileChunk | list[Pair],
    mode: str,
    errors: EncodingErrors,
    budgets: dict[str, int] | None = None,
) -> tuple[Any, list[str]]:
    """Run on a worker: a chunk's total (``"total"``) or rows (``"rows"``), with the
    warnings raised while reading it; ``budgets``: the caller's work budgets
    (:mod:`meteor_eval.limits`), in force while the chunk is scored."""
    from meteor_eval.limits import work_budget

    with work_budget(**(budgets or {})):
        metric = _worker_metric(cls, config)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            pairs = _read_chunk(job, errors) if isinstance(job, FileChunk) else job
        notes = [str(w.message) for w in caught]
        if mode == "rows":
            return metric.chunk_rows(pairs), notes
        return metric.chunk_total(pairs), notes


def _jobs(
    client: Any,
    files: Sequence[str] | None,
    pairs: Iterable[Pair] | None,
    chunk_size: int,
    errors: EncodingErrors,
    shared_storage: bool,
) -> Iterator[FileChunk | list[Pair]]:
    if files is not None:
        unit = max(1, chunk_size // _UNITS_PER_TASK)
        most = max(1, chunk_size // unit)
        seen = _workers_see(client, files) if shared_storage else None
        workers = max(1, len(seen) if seen else len(client.nthreads()))
        if not (seen and all(seen.values())):
            # The workers cannot read the files: this process reads every task, after the
            # whole scan has checked the line counts (so a file's length is named before any
            # of its lines is decoded or warned about).
            for task in _file_tasks(file_chunks(files, unit), most, workers):
                yield _read_chunk(task, errors)
            return
        # Each worker's first task from a scan of its bytes only, submitted (by the caller)
        # while the rest of the files is scanned; the whole scan checks the line counts, and
        # no result is read before it (a failure drops the futures submitted). With more
        # workers than _HEAD_UNITS, no head: the whole scan comes first.
        first = max(1, min(most, _HEAD_UNITS // workers))
        head = io.head_chunks(files, unit, workers * first) if workers <= _HEAD_UNITS else []

        def rest() -> Iterator[FileChunk]:  # scanned once the first tasks are submitted
            yield from _file_tasks(file_chunks(files, unit)[len(head) :], most, workers)

        yield from itertools.chain(
            (_joined(head[k : k + first]) for k in range(0, len(head), first)), rest()
        )
        return
    assert pairs is not None
    iterator = iter(pairs)
    while batch := list(islice(iterator, chunk_size)):
        yield batch


def _file_tasks(units: Sequence[FileChunk], most: int, workers: int) -> Iterator[FileChunk]:
    """Consecutive ``units`` (chunks of the files, in order) joined into tasks of at most
    ``most`` units: each takes a ``workers * _TAIL_SHARE``-th part of the units not yet given,
    at most ``most`` and at least one, so the tasks keep their full size until the last
    ``workers * _TAIL_SHARE`` of them and then shrink, and no worker waits at the end for
    another's last large task. A task is one :class:`FileChunk` (the units' byte ranges are
    contiguous in every file)."""
    start = 0
    while start < len(units):
        step = max(1, min(most, (len(units) - start) // (max(1, workers) * _TAIL_SHARE)))
        yield _joined(units[start : start + step])
        start += step


def _joined(units: Sequence[FileChunk]) -> FileChunk:
    """One chunk of consecutive chunks (each file's ranges end where the next one's begin)."""
    first, last = units[0], units[-1]
    if len(units) == 1:
        return first
    ranges = tuple(
        (path, start, end)
        for (path, start, _), (_, _, end) in zip(first.ranges, last.ranges, strict=True)
    )
    return FileChunk(first.first_line, ranges, sum(unit.lines for unit in units))


def _workers_see(client: Any, paths: Sequence[str]) -> dict[str, bool]:
    """Per worker, whether it can open every path (shared storage when all of them can)."""
    absolute = [os.path.abspath(path) for path in paths]

    def visible(paths: list[str]) -> bool:
        return all(os.access(path, os.R_OK) for path in paths)

    answers: dict[str, bool] = client.run(visible, absolute)
    return answers


def _check(chunk_size: int, files: Sequence[str] | None, pairs: object) -> None:
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ConfigError(f"chunk_size: {chunk_size!r} is invalid; allowed: an integer >= 1")
    if (files is None) == (pairs is None):
        raise ConfigError("give either files (hypothesis, then references) or pairs")
    if files is not None and any(path == "-" for path in files):
        raise ConfigError("the Dask engine reads files; standard input ('-') is not supported")


def _reraise(notes: Iterable[str]) -> None:
    for note in dict.fromkeys(notes):
        warnings.warn(note, stacklevel=3)


class DaskInput(TypedDict, total=False):
    """The keyword options of :func:`corpus_total`, :func:`corpus_result` and
    :func:`segment_rows`: what is scored (``files`` or ``pairs``, exactly one) and how it is cut
    and read.

    Attributes:
        files: The hypothesis file, then the reference files (one line a segment) ...
        pairs: ... or ``(hypothesis, references)`` pairs, sent from here.
        chunk_size: Segments per task at most (default :data:`DEFAULT_CHUNK_LINES`; the last
            tasks of a file are smaller).
        errors: Invalid UTF-8: ``"strict"`` (the default: an error naming file and line) or
            ``"replace"``.
        shared_storage: Let workers read the files themselves when they see the same paths
            (default true).
    """

    files: Sequence[str] | None
    pairs: Iterable[Pair] | None
    chunk_size: int
    errors: EncodingErrors
    shared_storage: bool


def _submit(metric: Metric[Any], client: Any, mode: str, **options: Unpack[DaskInput]) -> list[Any]:
    """One task per chunk (``mode``: ``"total"`` or ``"rows"``), in input order."""
    files, pairs = options.get("files"), options.get("pairs")
    chunk_size = options.get("chunk_size", DEFAULT_CHUNK_LINES)
    errors = options.get("errors", "strict")
    shared_storage = options.get("shared_storage", True)
    _check(chunk_size, files, pairs)
    from meteor_eval.limits import WORK_BUDGET

    cls, config, budgets = type(metric), metric.config, dict(WORK_BUDGET)
    return [
        client.submit(_score_chunk, cls, config, job, mode, errors, budgets, pure=False)
        for job in _jobs(client, files, pairs, chunk_size, errors, shared_storage)
    ]


def corpus_total(metric: Metric[Any], client: Any, **options: Unpack[DaskInput]) -> Total:
    """The merged statistics of every segment, scored on the cluster of ``client``.

    Args:
        metric: Any metric of the protocol (rebuilt on the workers from its configuration).
        client: A ``dask.distributed.Client``.
        **options: What to score and how (:class:`DaskInput`: ``files`` or ``pairs``,
            ``chunk_size``, ``errors``, ``shared_storage``).

    Raises:
        InputError: unreadable input or differing line counts.
    """
    futures = _submit(metric, client, "total", **options)
    total = metric.total_of_chunks(_results(client, futures))
    if not total.count:
        warn_empty()
    return total


def _results(client: Any, futures: Sequence[Any]) -> list[Any]:
    """The futures' results in order, once every one is in, fetched in one gather; then the
    warnings their workers raised while reading, re-raised here. A task that failed raises
    its error, the first in input order."""
    if not futures:
        return []
    distributed = _import_distributed()
    for finished in distributed.as_completed(futures):
        if finished.status == "error":
            for future in futures:  # the earliest failure in input order
                future.result()
    out: list[Any] = []
    notes_all: list[str] = []
    for part, notes in client.gather(list(futures)):
        out.append(part)
        notes_all.extend(notes)
    _reraise(notes_all)
    return out


def corpus_result(metric: Metric[Any], client: Any, **options: Unpack[DaskInput]) -> Any:
    """The corpus result of :func:`corpus_total` (same options)."""
    total = corpus_total(metric, client, **options)
    return metric.result(total)


def segment_rows(
    metric: Metric[Any], client: Any, **options: Unpack[DaskInput]
) -> list[tuple[Row, int]]:
    """Each segment's statistics row and number of references, in input order (``options``:
    those of :func:`corpus_total`)."""
    futures = _submit(metric, client, "rows", **options)
    return [record for rows in _results(client, futures) for record in rows]


def cluster_parts(
    systems: Systems,
    metrics: Sequence[Metric[Any]],
    scheduler: str,
    *,
    keep_rows: bool = False,
) -> dict[str, dict[str, Parts]]:
    """Per system name, per metric name, what the Dask cluster of ``scheduler``
    (:func:`connect`) computes of every system with every metric
    (:class:`~meteor_eval.metrics.protocol.Parts`, which the metric reduces:
    ``Metric.system_run``): each task's total, with ``keep_rows`` each segment's statistics
    row instead. Files are read by the workers where they see them.

    Raises:
        ConfigError: the scheduler cannot be reached, or Dask is not installed.
        InputError: unreadable input or differing line counts.
    """
    parts: dict[str, dict[str, Parts]] = {name: {} for name in systems.names}
    mode = "rows" if keep_rows else "total"
    client, close = connect(scheduler)
    try:
        for k, name in enumerate(systems.names):
            source = systems.sources[k]
            # Workers read the files themselves only where a file's lines are the segments
            # scored (in document mode the pairs are the joined documents).
            direct = source and systems.ref_sources and systems.documents is None
            files = [source, *systems.ref_sources] if direct else None
            for metric in metrics:
                where: dict[str, Any] = {"files": files} if files else {"pairs": systems.pairs(k)}
                futures = _submit(metric, client, mode, errors=systems.errors, **where)
                results = _results(client, futures)
                if keep_rows:
                    segments = [(row, n, None) for rows in results for row, n in rows]
                    parts[name][metric.name] = Parts(segments=segments)
                else:
                    parts[name][metric.name] = Parts(chunks=results)
    finally:
        close()
    return parts
