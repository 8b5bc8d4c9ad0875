"""Any metric over a stream of segments, in one or several processes, in input order.

One engine for every metric of :mod:`meteor_eval.metrics.protocol`: the pairs are cut into
chunks; with ``jobs=1`` each chunk is handled here, with ``jobs=N`` by N worker processes, each
of which builds its own metric from ``type(metric)(metric.config)`` once (resources are loaded
once per worker, or inherited from this process where processes are forked). At most a few
chunks per worker are in flight, so memory does not grow with the number of segments, and
results come back in input order whatever order the workers finish in.

Three things can be asked of a chunk, and so of a stream:

* :func:`corpus_total`: the merged statistics only. Metrics with integer statistics
  (``Metric.exact``) merge each chunk where it is scored, so one small record per chunk comes
  back from a worker; the others return their rows, which are merged here one by one in input
  order, so floating-point sums are the same whatever the number of processes.
  :func:`corpus_result` scores the total.
* :func:`segment_rows`: each segment's statistics row and number of references.
* :func:`segment_results`: each segment's result object (with options such as METEOR's
  ``alignment``).
"""

from __future__ import annotations

import contextlib
import os
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any, TypeVar

from meteor_eval.errors import ConfigError, MeteorEvalError, SegmentTooLongError, warn_empty
from meteor_eval.metrics.protocol import Metric, Pair, Row, Total

if TYPE_CHECKING:
    import multiprocessing.context
    from concurrent.futures import Future

__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "MAX_JOBS",
    "WorkerError",
    "corpus_result",
    "corpus_total",
    "resolve_jobs",
    "segment_results",
    "segment_rows",
]

_T = TypeVar("_T")
_ScoreT = TypeVar("_ScoreT")

#: Most worker processes a run may ask for (each one is a whole interpreter with its resources).
MAX_JOBS = 1024

#: Segments sent to a worker at a time: large enough to amortise pickling, small enough to
#: keep every worker busy until the end.
DEFAULT_CHUNK_SIZE = 256

# Segments a metric handles in one call here (METEOR interns a batch's new words at once).
_BATCH = 256

# Chunks in flight per worker (queued or being scored).
_IN_FLIGHT_PER_JOB = 3

Progress = Callable[[int], None]

_worker_metric: Metric[Any] | None = None


class WorkerError(MeteorEvalError, RuntimeError):
    """A worker process died while scoring (the whole run fails: no partial result)."""


def resolve_jobs(jobs: int) -> int:
    """Number of processes for ``jobs`` (0 means one per available CPU).

    Raises:
        ConfigError: ``jobs`` is not an integer from 0 to :data:`MAX_JOBS`.
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 0 <= jobs <= MAX_JOBS:
        raise ConfigError(
            f"jobs: {jobs!r} is invalid; allowed: an integer from 0 to {MAX_JOBS:,} (0 = all CPUs)"
        )
    if jobs == 0:
        return (
            len(os.sched_getaffinity(0))
            if hasattr(os, "sched_getaffinity")
            else (os.cpu_count() or 1)
        )
    return jobs


def _check_chunk_size(chunk_size: int) -> None:
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ConfigError(f"chunk_size: {chunk_size!r} is invalid; allowed: an integer >= 1")


# -- what a chunk is turned into (here or in a worker) ---------------------------------------


def _chunk_total(metric: Metric[Any], chunk: Sequence[Pair]) -> Total:
    """The chunk's total: pooled where the statistics allow it, else its rows kept."""
    if metric.exact:
        return metric.pooled_rows(chunk)
    total = Total(metric.zero(), keep_rows=True)
    metric.add_rows(total, metric.segment_rows(chunk))
    total.nrefs.update(len(refs) for _, refs in chunk)
    return total


def _chunk_rows(metric: Metric[Any], chunk: Sequence[Pair]) -> list[tuple[Row, int]]:
    rows = metric.segment_rows(chunk)
    return [(row, len(refs)) for row, (_, refs) in zip(rows, chunk, strict=True)]


def _chunk_results(
    metric: Metric[_ScoreT], chunk: Sequence[Pair], options: dict[str, Any]
) -> list[_ScoreT]:
    return metric.segment_results(chunk, **options)


def _init_worker(factory: Callable[[Any], Metric[Any]], config: object) -> None:
    global _worker_metric
    # Configuration warnings were already shown by the process that started the workers.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _worker_metric = factory(config)


def _in_worker(task: Callable[..., _T], chunk: Sequence[Pair], *extra: object) -> _T:
    """Run ``task`` on a chunk with this worker process's metric."""
    if _worker_metric is None:  # pragma: no cover - the initializer always runs first
        raise RuntimeError("worker process was not initialised")
    return task(_worker_metric, chunk, *extra)


# -- the engine -------------------------------------------------------------------------------


def _chunks(pairs: Iterable[Pair], size: int) -> Iterator[list[Pair]]:
    iterator = iter(pairs)
    while chunk := list(islice(iterator, size)):
        yield chunk


def _context() -> multiprocessing.context.BaseContext:
    import multiprocessing  # only runs with several jobs: keeps start-up short otherwise

    # fork shares the already loaded resources copy-on-write and starts at once; elsewhere
    # (macOS, Windows) each worker imports the package and loads what it needs.
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _run_chunks(
    metric: Metric[Any],
    pairs: Iterable[Pair],
    task: Callable[..., _T],
    extra: tuple[object, ...],
    *,
    jobs: int,
    chunk_size: int,
    size: Callable[[_T], int],
    progress: Progress | None,
) -> Iterator[_T]:
    """``task(metric, chunk, *extra)`` of each chunk, in input order; ``size`` counts the
    segments of a result, for ``progress``."""
    n_jobs = resolve_jobs(jobs)
    _check_chunk_size(chunk_size)
    if n_jobs == 1:
        return _serial(metric, pairs, task, extra, min(chunk_size, _BATCH), size, progress)
    return _parallel(metric, pairs, task, extra, n_jobs, chunk_size, size, progress)


def _serial(
    metric: Metric[Any],
    pairs: Iterable[Pair],
    task: Callable[..., _T],
    extra: tuple[object, ...],
    chunk_size: int,
    size: Callable[[_T], int],
    progress: Progress | None,
) -> Iterator[_T]:
    done = 0
    offset = 0
    for chunk in _chunks(pairs, chunk_size):
        try:
            result = task(metric, chunk, *extra)
        except SegmentTooLongError as exc:
            raise exc.at_line(offset) from None
        offset += len(chunk)
        yield result
        done += size(result)
        if progress is not None:
            progress(done)
    if progress is not None and done == 0:
        progress(0)


def _parallel(
    metric: Metric[Any],
    pairs: Iterable[Pair],
    task: Callable[..., _T],
    extra: tuple[object, ...],
    n_jobs: int,
    chunk_size: int,
    size: Callable[[_T], int],
    progress: Progress | None,
) -> Iterator[_T]:
    from concurrent.futures import ProcessPoolExecutor

    done = 0
    # Futures in input order, each with its chunk's number and first and last segment.
    pending: deque[tuple[Future[_T], int, int, int]] = deque()
    limit = n_jobs * _IN_FLIGHT_PER_JOB
    offset = 0
    with (
        _no_sigpipe(),
        ProcessPoolExecutor(
            max_workers=n_jobs,
            mp_context=_context(),
            initializer=_init_worker,
            initargs=(type(metric), metric.config),
        ) as pool,
    ):
        try:
            for number, chunk in enumerate(_chunks(pairs, chunk_size), start=1):
                future = pool.submit(_in_worker, task, chunk, *extra)
                pending.append((future, number, offset + 1, offset + len(chunk)))
                offset += len(chunk)
                while len(pending) >= limit or (pending and pending[0][0].done()):
                    result = _outcome(pending)
                    yield result
                    done += size(result)
                    if progress is not None:
                        progress(done)
            while pending:
                result = _outcome(pending)
                yield result
                done += size(result)
                if progress is not None:
                    progress(done)
        finally:
            for future, *_ in pending:
                future.cancel()


def _outcome(pending: deque[tuple[Future[_T], int, int, int]]) -> _T:
    """The result of the oldest chunk in flight, with a worker's death or a too-long segment
    turned into an error that says where.

    Raises:
        WorkerError: a worker process died (killed, out of memory): the pool is broken and
            every chunk in flight is lost, so the message names the range of them.
        SegmentTooLongError: placed at its line.
    """
    from concurrent.futures.process import BrokenProcessPool

    future, number, first, _ = pending[0]
    try:
        result = future.result()
    except BrokenProcessPool:
        last_number, last = pending[-1][1], pending[-1][3]
        chunks = f"chunk {number}" if last_number == number else f"chunks {number}-{last_number}"
        raise WorkerError(
            f"a worker process died (killed, or out of memory?) while {chunks} "
            f"(segments {first:,}-{last:,}) were being scored; no result was produced"
        ) from None
    except SegmentTooLongError as exc:
        raise exc.at_line(first - 1) from None
    pending.popleft()
    return result


@contextlib.contextmanager
def _no_sigpipe() -> Iterator[None]:
    """Ignore SIGPIPE while worker processes run (main thread only).

    The command line restores SIGPIPE's default action so that ``| head`` ends it quietly;
    but then a write to the pipe of a worker that died kills this process without a word. With
    the signal ignored, the write fails with an exception and the pool reports the death.
    """
    import signal
    import threading

    if not hasattr(signal, "SIGPIPE") or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGPIPE, previous)


# -- what callers ask for ---------------------------------------------------------------------


def corpus_total(
    metric: Metric[Any],
    pairs: Iterable[Pair],
    *,
    jobs: int = 1,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    progress: Progress | None = None,
) -> Total:
    """The merged statistics of a stream of pairs (and its rows when the metric keeps them).

    Equal to merging every segment's row in input order: exact metrics merge chunk totals
    (integer sums), the others fold the rows one by one here.

    Raises:
        ConfigError: ``jobs`` or ``chunk_size`` is invalid.
    """
    total = metric.new_total()

    def count(part: Total) -> int:
        return part.count

    for part in _run_chunks(
        metric,
        pairs,
        _chunk_total,
        (),
        jobs=jobs,
        chunk_size=chunk_size,
        size=count,
        progress=progress,
    ):
        if metric.exact:
            total.merge_total(metric, part)
        else:
            assert part.rows is not None
            metric.add_rows(total, part.rows)
            total.nrefs |= part.nrefs
    if total.count == 0:
        warn_empty()
    return total


def corpus_result(
    metric: Metric[_ScoreT],
    pairs: Iterable[Pair],
    *,
    jobs: int = 1,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    progress: Progress | None = None,
) -> tuple[_ScoreT, int]:
    """The corpus result of a stream of pairs and the number of segments.

    Equal to the metric's ``corpus_score`` on the same segments, bit for bit.
    """
    total = corpus_total(metric, pairs, jobs=jobs, chunk_size=chunk_size, progress=progress)
    return metric.result(total), total.count


def segment_rows(
    metric: Metric[Any],
    pairs: Iterable[Pair],
    *,
    jobs: int = 1,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    progress: Progress | None = None,
) -> Iterator[tuple[Row, int]]:
    """Each pair's statistics row and number of references, in input order.

    Raises:
        ConfigError: ``jobs`` or ``chunk_size`` is invalid.
    """
    count = 0
    for part in _run_chunks(
        metric,
        pairs,
        _chunk_rows,
        (),
        jobs=jobs,
        chunk_size=chunk_size,
        size=len,
        progress=progress,
    ):
        count += len(part)
        yield from part
    if count == 0:
        warn_empty()


def segment_results(
    metric: Metric[_ScoreT],
    pairs: Iterable[Pair],
    *,
    jobs: int = 1,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    progress: Progress | None = None,
    **options: Any,
) -> Iterator[_ScoreT]:
    """Each pair's result object, in input order (``options`` go to the metric's
    ``segment_results``, e.g. ``alignment=True`` for METEOR).

    Raises:
        ConfigError: ``jobs`` or ``chunk_size`` is invalid.
    """
    count = 0
    for part in _run_chunks(
        metric,
        pairs,
        _chunk_results,
        (options,),
        jobs=jobs,
        chunk_size=chunk_size,
        size=len,
        progress=progress,
    ):
        count += len(part)
        yield from part
    if count == 0:
        warn_empty()
