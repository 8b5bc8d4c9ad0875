"""Chunks of a stream of segments run in one or several processes, in input order.

The executor under every engine: it knows nothing of metrics. A *worker object* (a metric, in
practice) is anything rebuilt from ``type(obj)(obj.config)``; the pool calls one of its methods,
by name, on each chunk of the pairs (``obj.chunk_total(chunk)``, ``obj.chunk_rows(chunk)``,
``obj.segment_results(chunk, alignment=True)``) and yields the results in input order. With
``jobs=1`` each chunk is handled here; with ``jobs=N`` by N worker processes, each of which
builds its own object from the configuration once, in its initializer (resources are loaded
once per worker, or inherited from this process where processes are forked). How workers start
is :mod:`meteor_eval.processes`' choice (``start_method``). At most a few chunks per worker are in
flight, so memory does not grow with the number of segments.

What a worker receives is text, and it tokenises, normalises and interns it itself:

* input from files (:class:`Files`): byte ranges of the files (:func:`meteor_eval.io.file_chunks`,
  one pass over the bytes here, which also checks the line counts before any scoring); each
  worker reads and decodes its own lines with the rules, warnings and errors of one process
  (warnings come back and are raised here, naming file and line), so the text never goes
  through a pipe and this process does not decode it; consecutive chunks go to a worker as
  one task (up to :data:`_MAX_CHUNKS_PER_TASK`, shrinking to single chunks towards the end),
  so this process handles a few dozen tasks rather than one per chunk;
* any other stream of pairs: the chunk's strings as they are (pickled strings are the raw text
  plus a few bytes each: 27.0 MB for 25.8 MB of text on 100,000 xray segments).

It sits below the metrics: the metric protocol's own ``jobs=`` (``Metric.corpus_score(...,
jobs=N)``) runs through it, and so does :mod:`meteor_eval.parallel`, the engine of the command
line and of :func:`meteor_eval.compare`, above the metrics. Neither imports the other.
"""

from __future__ import annotations

import contextlib
import os
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, Protocol, TypedDict, TypeVar

from meteor_eval.errors import ConfigError, MeteorEvalError, WorkBudgetError
from meteor_eval.io import EncodingErrors
from meteor_eval.processes import WorkerState

if TYPE_CHECKING:
    from concurrent.futures import Future

    from meteor_eval.io import FileChunk

__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "MAX_JOBS",
    "Files",
    "Run",
    "WorkerError",
    "each",
    "processes_for",
    "resolve_jobs",
    "run_chunks",
]

#: One segment: a hypothesis and its references (``meteor_eval.metrics.protocol.Pair``).
Pair = tuple[str, Sequence[str]]


class Rebuildable(Protocol):
    """What the pool runs: an object that a worker rebuilds as ``type(obj)(obj.config)``."""

    config: Any


_T = TypeVar("_T")

#: Most worker processes a run may ask for (each one is a whole interpreter with its resources).
MAX_JOBS = 1024

#: Segments sent to a worker at a time: large enough to amortise pickling, small enough to
#: keep every worker busy until the end.
DEFAULT_CHUNK_SIZE = 256

# Segments a metric handles in one call here (METEOR interns a batch's new words at once).
_BATCH = 256

# Tasks in flight per worker (queued or being scored).
_IN_FLIGHT_PER_JOB = 3

# File input: most chunks sent to a worker as one task (consecutive byte ranges), and the share
# of the chunks left that one task takes (1 / (jobs * _SHARE)). A task costs this process
# about a millisecond of CPU (the executor's threads, pipes and pickles), which it takes from
# the workers on a machine with as many cores as workers; grouping cuts the number of tasks
# while the last ones shrink to single chunks, so the workers still finish together.
_MAX_CHUNKS_PER_TASK = 16
_SHARE = 2

# File input: most chunks found for the workers' first tasks before the files are scanned
# whole (a file shorter than that is read once for nothing, then scanned whole).
_HEAD_CHUNKS = 64

Progress = Callable[[int], None]

_worker_object: Rebuildable | None = None
_worker_failure: Exception | None = None


class WorkerError(MeteorEvalError, RuntimeError):
    """A worker process died while scoring (the whole run fails: no partial result)."""


@dataclass(frozen=True)
class Files:
    """Segments of line files: line ``i`` of ``hypothesis`` against line ``i`` of each file of
    ``references``. Iterating gives the pairs (:func:`meteor_eval.io.iter_segments`); worker
    processes are sent byte ranges and read the lines themselves.

    Attributes:
        hypothesis: The hypothesis file (not standard input: it cannot be read twice).
        references: One file per reference set.
        errors: Invalid UTF-8: ``"strict"`` (an error naming file and line) or ``"replace"``.
    """

    hypothesis: str
    references: tuple[str, ...]
    errors: EncodingErrors = "strict"

    def __iter__(self) -> Iterator[Pair]:
        from meteor_eval.io import iter_segments

        return iter_segments(self.hypothesis, self.references, errors=self.errors)


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


def processes_for(jobs: int, start_method: str | None = None) -> int:
    """The number of processes of ``jobs`` (0: one per CPU), with ``start_method`` checked,
    as every ``jobs=`` argument of the library and ``--jobs`` check them.

    Raises:
        ConfigError: ``jobs`` is not an integer from 0 to 1,024, or ``start_method`` is
            unknown or unavailable (:mod:`meteor_eval.processes`).
    """
    from meteor_eval.processes import resolve_start_method

    n_jobs = resolve_jobs(jobs)
    resolve_start_method(start_method)
    return n_jobs


def _check_chunk_size(chunk_size: int) -> None:
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ConfigError(f"chunk_size: {chunk_size!r} is invalid; allowed: an integer >= 1")


# -- what a chunk is turned into (here or in a worker) ---------------------------------------


def _call(obj: Rebuildable, chunk: Sequence[Pair], method: str, options: Mapping[str, Any]) -> Any:
    """``obj.method(chunk, **options)``: the one task of the pool (a method named, not sent, so
    that a worker runs its own object's method)."""
    return getattr(obj, method)(chunk, **options)


def _init_worker(factory: Callable[[Any], Rebuildable], config: object, state: WorkerState) -> None:
    """A worker's initializer: this process's runtime state, then its object (a metric:
    resources load here, once per worker)."""
    global _worker_object, _worker_failure
    from meteor_eval.processes import apply_worker_state

    try:
        apply_worker_state(state)
        # Configuration warnings were already shown by the process that started the workers.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _worker_object = factory(config)
    except Exception as exc:  # raised with the first chunk instead
        # An initializer that raises breaks the pool, which would be reported as a dead
        # worker; kept here, the error itself reaches the caller (a resource a worker
        # cannot load, a matcher module it cannot build).
        _worker_failure = exc


def _in_worker(
    task: Callable[..., _T],
    job: Sequence[Pair] | FileChunk | tuple[FileChunk, ...],
    errors: EncodingErrors,
    *extra: object,
) -> tuple[_T | list[_T], list[str]]:
    """Run ``task`` on a chunk with this worker process's object; a chunk of files is read here
    first, and the warnings of reading come back with the result. A tuple of file chunks (one
    task of consecutive chunks) gives the list of their results, in order; a segment over its
    work budget is placed in the task's segments."""
    if _worker_failure is not None:
        raise _worker_failure
    if _worker_object is None:  # pragma: no cover - the initializer always runs first
        raise RuntimeError("worker process was not initialised")
    if isinstance(job, tuple):
        results: list[_T] = []
        notes: list[str] = []
        before = 0  # segments of this task before the chunk being scored
        for part in job:
            try:
                result, part_notes = _in_worker(task, part, errors, *extra)
            except WorkBudgetError as exc:
                index = before + (exc.index or 0)
                raise WorkBudgetError(exc.metric, exc.kind, exc.units, exc.budget, index) from None
            results.append(result)  # type: ignore[arg-type]
            notes += part_notes
            before += part.lines
        return results, notes
    notes = []
    if not isinstance(job, Sequence):  # a FileChunk (made on first use, in meteor_eval.io)
        from meteor_eval.io import read_chunk

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            job = read_chunk(job, errors)
        notes = [str(w.message) for w in caught]
    return task(_worker_object, job, *extra), notes


# -- the engine -------------------------------------------------------------------------------


def _chunks(pairs: Iterable[Pair], size: int) -> Iterator[list[Pair]]:
    iterator = iter(pairs)
    while chunk := list(islice(iterator, size)):
        yield chunk


class RunOptions(TypedDict, total=False):
    """The keyword options of a run, as the functions of :mod:`meteor_eval.parallel` take them
    (``**run``): each is a field of :class:`Run`, whose defaults apply to those left out."""

    #: Processes to score in (0: one per CPU); the results are the same.
    jobs: int
    #: Segments a chunk (a worker's unit of work).
    chunk_size: int
    #: How worker processes start (:mod:`meteor_eval.processes`; ``None``: the environment
    #: variable ``METEOR_EVAL_START_METHOD``, else ``"auto"``).
    start_method: str | None
    #: Called with the number of segments done.
    progress: Progress | None


@dataclass(frozen=True)
class Run:
    """How a stream is run: processes (0: one per CPU), chunk size, start method, progress
    callback (called with the number of segments done)."""

    jobs: int = 1
    chunk_size: int = DEFAULT_CHUNK_SIZE
    start_method: str | None = None
    progress: Progress | None = field(default=None, compare=False)


def run_chunks(
    obj: Rebuildable,
    pairs: Iterable[Pair],
    method: str,
    run: Run,
    size: Callable[[Any], int],
    **options: Any,
) -> Iterator[Any]:
    """``obj.method(chunk, **options)`` of each chunk of ``pairs``, in input order, here or in
    ``run.jobs`` worker processes that each rebuild ``obj`` from its configuration; ``size``
    counts the segments of a result, for ``run.progress``. ``pairs`` may be :class:`Files`.

    Raises:
        ConfigError: ``jobs``, ``chunk_size`` or ``start_method`` is invalid (checked here,
            before the first chunk is asked for).
        WorkerError: a worker process died.
        WorkBudgetError: a segment over its work budget, placed at its line.
    """
    from meteor_eval.processes import resolve_start_method

    extra: tuple[object, ...] = (method, options)

    n_jobs = resolve_jobs(run.jobs)
    _check_chunk_size(run.chunk_size)
    resolve_start_method(run.start_method)
    work = _Work(obj, _call, extra, size)
    if n_jobs == 1:
        return _serial(work, pairs, min(run.chunk_size, _BATCH), run.progress)
    return _parallel(work, pairs, n_jobs, run)


class _Work(NamedTuple, Generic[_T]):
    """What a stream runs on each chunk, as :func:`_serial` and :func:`_parallel` both take it:
    ``task(metric, chunk, *extra)`` (in a worker: on that worker's own rebuilt object), and
    ``size``, the segments a result counts for the progress callback. A named tuple, not a
    dataclass: this module is imported by every scoring run, and a dataclass's methods are
    compiled when its class is made."""

    metric: Rebuildable
    task: Callable[..., _T]
    extra: tuple[object, ...]
    size: Callable[[_T], int]


def _serial(
    work: _Work[_T], pairs: Iterable[Pair], chunk_size: int, progress: Progress | None
) -> Iterator[_T]:
    done = 0
    offset = 0
    for chunk in _chunks(pairs, chunk_size):
        try:
            result = work.task(work.metric, chunk, *work.extra)
        except WorkBudgetError as exc:
            raise exc.at_line(offset) from None
        offset += len(chunk)
        yield result
        done += work.size(result)
        if progress is not None:
            progress(done)
    if progress is not None and done == 0:
        progress(0)


if TYPE_CHECKING:
    #: One task for the workers: a chunk of pairs, a chunk of files, or consecutive chunks of
    #: files.
    Job = Sequence[Pair] | FileChunk | tuple[FileChunk, ...]


def _jobs(
    pairs: Iterable[Pair], chunk_size: int, n_jobs: int
) -> Iterator[tuple[Job, int, int, bool]]:
    """What is sent to the workers, with its number of chunks and of segments, and whether
    the input is known to be consistent by then (files: their line counts checked): byte
    ranges of files (consecutive chunks grouped into one task, see :func:`_file_tasks`; the
    first task of each worker is found before the rest of the files is scanned, see
    :func:`meteor_eval.io.head_chunks`, and the whole scan goes on from there), or chunks of
    pairs."""
    if isinstance(pairs, Files):
        from meteor_eval.io import file_chunks, head_scans

        paths = [pairs.hypothesis, *pairs.references]
        # The first task of each worker from a scan of their bytes only: the workers score
        # them while this process scans the rest (which checks the line counts: no result is
        # taken before that, see _parallel).
        # More workers than _HEAD_CHUNKS: no head (the whole scan comes first).
        per_job = max(1, min(_MAX_CHUNKS_PER_TASK, _HEAD_CHUNKS // n_jobs))
        head, stopped = (
            head_scans(paths, chunk_size, n_jobs * per_job)
            if n_jobs <= _HEAD_CHUNKS
            else ([], None)
        )
        for start in range(0, len(head), per_job):
            parts = tuple(head[start : start + per_job])
            job = parts[0] if len(parts) == 1 else parts
            yield job, len(parts), sum(part.lines for part in parts), False
        ranges = file_chunks(paths, chunk_size, resume=stopped)  # from where the head stopped
        for group in _file_tasks(len(ranges) - len(head), n_jobs):
            first, stop = group.start + len(head), group.stop + len(head)
            if stop - first == 1:
                yield ranges[first], 1, ranges[first].lines, True
            else:
                parts = tuple(ranges[first:stop])
                yield parts, len(parts), sum(part.lines for part in parts), True
        return
    for chunk in _chunks(pairs, chunk_size):
        yield chunk, 1, len(chunk), True


def _file_tasks(chunks: int, n_jobs: int) -> Iterator[range]:
    """The chunk numbers (from 0) of each task, in order: each task takes a
    ``n_jobs * _SHARE``-th part of the chunks not yet given (at most
    :data:`_MAX_CHUNKS_PER_TASK`, at least one), so tasks shrink towards the end and the
    workers finish within about a chunk of each other."""
    start = 0
    while start < chunks:
        step = max(1, min(_MAX_CHUNKS_PER_TASK, (chunks - start) // (n_jobs * _SHARE)))
        yield range(start, start + step)
        start += step


def _pool(metric: Rebuildable, n_jobs: int, start_method: str | None) -> Any:
    """The pool of ``n_jobs`` workers, each with its object built in its initializer, and
    its workers already starting (:func:`_start_workers`)."""
    from concurrent.futures import ProcessPoolExecutor

    from meteor_eval import processes

    method = processes.choose_start_method(start_method)
    state = processes.worker_state(metric.config, method)
    pool = ProcessPoolExecutor(
        max_workers=n_jobs,
        mp_context=processes.context(method),
        initializer=_init_worker,
        initargs=(type(metric), metric.config, state),
    )
    try:
        with warnings.catch_warnings():
            if method == "fork" and processes.forks_beside_numpy_only():
                # numpy's BLAS threads are stopped by OpenBLAS around a fork (see
                # processes.import_numpy): Python's warning about threads does not apply.
                warnings.filterwarnings("ignore", _FORK_WITH_THREADS, DeprecationWarning)
            _start_workers(pool, n_jobs)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    return pool


def _parallel(work: _Work[_T], pairs: Iterable[Pair], n_jobs: int, run: Run) -> Iterator[_T]:
    done = 0
    # Tasks in input order, each with its first chunk's number and first segment, and its
    # last chunk's number and last segment.
    pending: deque[_Pending] = deque()
    limit = n_jobs * _IN_FLIGHT_PER_JOB
    offset = 0
    number = 1
    from concurrent.futures.process import BrokenProcessPool

    errors = pairs.errors if isinstance(pairs, Files) else "strict"
    with _no_sigpipe(), _pool(work.metric, n_jobs, run.start_method) as pool:
        try:
            for job, chunks, count, checked in _jobs(pairs, run.chunk_size, n_jobs):
                try:
                    future = pool.submit(_in_worker, work.task, job, errors, *work.extra)
                except BrokenProcessPool:
                    # a worker died before the next result was asked for: the pool refuses
                    # new work, and every chunk in flight is lost
                    if pending:
                        head, tail = pending[0], pending[-1]
                        raise _worker_died(head[1], head[2], tail[3], tail[4]) from None
                    raise WorkerError(
                        f"a worker process died (killed, or out of memory?) before chunk "
                        f"{number} (segments {offset + 1:,}-{offset + count:,}) could be "
                        "scored; no result was produced"
                    ) from None
                last = number + chunks - 1
                pending.append((future, number, offset + 1, last, offset + count, chunks > 1))
                offset += count
                number += chunks
                # No result is taken before the input is known to be consistent (a file with
                # too few lines fails the run before any row is given to the caller).
                while checked and (len(pending) >= limit or (pending and pending[0][0].done())):
                    for result in _outcome(pending):
                        yield result
                        done += work.size(result)
                        if run.progress is not None:
                            run.progress(done)
            while pending:
                for result in _outcome(pending):
                    yield result
                    done += work.size(result)
                    if run.progress is not None:
                        run.progress(done)
        finally:
            for future, *_ in pending:
                future.cancel()


#: The start of Python's warning (3.12 and later) at a fork of a process with several threads.
_FORK_WITH_THREADS = r"This process \(pid=\d+\) is multi-threaded, use of fork\(\) may lead"


def _started() -> None:
    """A worker's first task: nothing (it makes the pool start the worker, see
    :func:`_start_workers`)."""


def _start_workers(pool: Any, n_jobs: int) -> None:
    """Start the pool's ``n_jobs`` workers now, before this process reads the input (the scan
    of the files' line offsets, the first chunks of pairs) or sends any task.

    A pool starts its workers when tasks are submitted: by ``fork`` all at the first one,
    otherwise one per task while none is idle. A worker started by ``spawn`` or
    ``forkserver`` then imports the package and opens its resources (0.1 to 0.8 s on two
    cores), which overlaps this process's reading of the input once they are started first;
    the empty tasks sent for this run before any chunk, each in a worker that is still busy
    starting, so every one of them starts a process. A worker that cannot build its object
    returns nothing here: its error is raised with the first chunk, and so is a pool already
    broken (a worker that died while starting), by the first chunk's ``submit``.
    """
    from concurrent.futures.process import BrokenProcessPool

    for _ in range(n_jobs):
        try:
            pool.submit(_started)
        except BrokenProcessPool:
            return


#: A task in flight: its future, first chunk number, first segment, last chunk number, last
#: segment, and whether it is a group of chunks (its result is then the list of theirs).
_Pending = tuple["Future[tuple[Any, list[str]]]", int, int, int, int, bool]


def _worker_died(number: int, first: int, last_number: int, last: int) -> WorkerError:
    """The error for a broken pool: which chunks (and segments) were lost."""
    chunks = f"chunk {number}" if last_number == number else f"chunks {number}-{last_number}"
    return WorkerError(
        f"a worker process died (killed, or out of memory?) while {chunks} "
        f"(segments {first:,}-{last:,}) were being scored; no result was produced"
    )


def _outcome(pending: deque[_Pending]) -> list[Any]:
    """The results of the oldest task in flight (one per chunk), with a worker's death or a
    segment over its work budget turned into an error that says where.

    Raises:
        WorkerError: a worker process died (killed, out of memory): the pool is broken and
            every chunk in flight is lost, so the message names the range of them.
        WorkBudgetError: placed at its line.
    """
    from concurrent.futures.process import BrokenProcessPool

    future, number, first, _, _, grouped = pending[0]
    try:
        result, notes = future.result()
    except BrokenProcessPool:
        raise _worker_died(number, first, pending[-1][3], pending[-1][4]) from None
    except WorkBudgetError as exc:
        raise exc.at_line(first - 1) from None
    pending.popleft()
    for note in notes:  # warnings of a worker's reading, in input order
        warnings.warn(note, stacklevel=2)
    return result if grouped else [result]


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


def each(
    obj: Rebuildable, pairs: Iterable[Pair], method: str, run: Run, **options: Any
) -> Iterator[Any]:
    """Each pair's item of ``obj.method``'s per-chunk lists, in input order (options checked
    before the first item is asked for)."""
    chunks = run_chunks(obj, pairs, method, run, len, **options)
    return (item for part in chunks for item in part)
