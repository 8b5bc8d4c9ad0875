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
* **Merging.** Metrics with integer statistics or exact sums (``Metric.groups_exactly``)
  return one merged total per chunk, summed pairwise in a tree on the workers (exact in any
  grouping); the others return
  their rows, folded here in input order, so floating-point sums equal ``jobs=1``'s. Per-segment
  rows come back in input order.
* Warnings a worker raises while reading (a byte-order mark, a carriage return) are re-raised
  here, once each, naming the file and line as locally.

Dask is an optional extra (``pip install 'meteor-eval[dask]'``), imported only here.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import Any, TypedDict, Unpack

from meteor_eval import io
from meteor_eval.errors import ConfigError
from meteor_eval.io import EncodingErrors, FileChunk
from meteor_eval.io import read_chunk as _read_chunk
from meteor_eval.metrics.protocol import Metric, Pair, Row, Total

__all__ = [
    "DEFAULT_CHUNK_LINES",
    "DaskInput",
    "FileChunk",
    "connect",
    "corpus_result",
    "corpus_total",
    "file_chunks",
    "segment_rows",
]

#: Segments per chunk: big enough that scheduling costs nothing, small enough to balance.
DEFAULT_CHUNK_LINES = 4096


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
#: about 5% of a core while the workers score or wait; a cluster of the user's own keeps its
#: settings.
_LOCAL_CONFIG: dict[str, object] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.system-monitor.gil.enabled": False,
    "distributed.admin.tick.interval": "200ms",
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


def _merge_pair(cls: type[Metric[Any]], config: Any, first: Any, second: Any) -> Any:
    """Run on a worker: the total of two consecutive chunk results (notes concatenated)."""
    metric = _worker_metric(cls, config)
    total, notes = first
    other, more = second
    total.merge_total(metric, other)
    return total, notes + more


def _jobs(
    client: Any,
    files: Sequence[str] | None,
    pairs: Iterable[Pair] | None,
    chunk_size: int,
    errors: EncodingErrors,
    shared_storage: bool,
) -> Iterator[FileChunk | list[Pair]]:
    if files is not None:
        chunks = file_chunks(files, chunk_size)
        if shared_storage and _workers_see(client, files):
            yield from chunks
        else:
            for chunk in chunks:
                yield _read_chunk(chunk, errors)
        return
    assert pairs is not None
    iterator = iter(pairs)
    while batch := list(islice(iterator, chunk_size)):
        yield batch


def _workers_see(client: Any, paths: Sequence[str]) -> bool:
    """True when every worker can open every path (shared storage)."""
    absolute = [os.path.abspath(path) for path in paths]

    def visible(paths: list[str]) -> bool:
        return all(os.access(path, os.R_OK) for path in paths)

    answers = client.run(visible, absolute)
    return bool(answers) and all(answers.values())


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
        chunk_size: Segments per task (default :data:`DEFAULT_CHUNK_LINES`).
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
    cls, config = type(metric), metric.config
    if not futures:
        return metric.new_total()
    if metric.groups_exactly():
        while len(futures) > 1:  # pairwise, in order: a tree of merges on the workers
            merged = [
                client.submit(_merge_pair, cls, config, futures[k], futures[k + 1], pure=False)
                for k in range(0, len(futures) - 1, 2)
            ]
            if len(futures) % 2:
                merged.append(futures[-1])
            futures = merged
        total, notes = futures[0].result()
        _reraise(notes)
        merged_total: Total = total
        return merged_total
    result = metric.new_total()
    for part in _results(futures):
        metric.add_chunk(result, part)
    return result


def _results(futures: Sequence[Any]) -> list[Any]:
    """The futures' results in order, once every one is in; then the warnings their workers
    raised while reading, re-raised here."""
    out: list[Any] = []
    notes_all: list[str] = []
    for future in futures:
        part, notes = future.result()
        out.append(part)
        notes_all.extend(notes)
    _reraise(notes_all)
    return out


def corpus_result(metric: Metric[Any], client: Any, **options: Unpack[DaskInput]) -> Any:
    """The corpus result of :func:`corpus_total` (same options)."""
    return metric.result(corpus_total(metric, client, **options))


def segment_rows(
    metric: Metric[Any], client: Any, **options: Unpack[DaskInput]
) -> list[tuple[Row, int]]:
    """Each segment's statistics row and number of references, in input order (``options``:
    those of :func:`corpus_total`)."""
    futures = _submit(metric, client, "rows", **options)
    return [record for rows in _results(futures) for record in rows]
