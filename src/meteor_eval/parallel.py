"""Scoring many segments in several processes, in input order, with bounded memory.

:func:`score_segments` takes any iterable of ``(hypothesis, references)`` pairs (a list, or a
stream from :func:`meteor_eval.io.iter_segments`) and yields one
:class:`~meteor_eval.metrics.meteor.MeteorScore` per pair, in the same order. With ``jobs=1``
everything runs in this process. With ``jobs=N`` the pairs are cut into chunks and scored by N
worker processes; each worker builds its own ``Meteor(config)`` from the pickled configuration
(resources are loaded once per worker, or inherited from this process where processes are
forked). At most a few chunks per worker are in flight, so memory does not grow with the
number of segments, and results come back in input order whatever order the workers finish in.

:func:`corpus_score_stream` pools the yielded segments into a corpus score as
:meth:`Meteor.combine` does, without keeping them.
"""

from __future__ import annotations

import math
import os
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, TypeVar

from meteor_eval.errors import ConfigError
from meteor_eval.metrics.meteor import Meteor, MeteorConfig, MeteorScore, score_from_stats
from meteor_eval.stats.meteor import MeteorStats

if TYPE_CHECKING:
    import multiprocessing.context
    from concurrent.futures import Future

__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "corpus_score_from_stats",
    "corpus_score_stream",
    "pooled_corpus_score",
    "resolve_jobs",
    "score_segments",
    "segment_stats_stream",
]

_T = TypeVar("_T")

#: Segments sent to a worker at a time: large enough to amortise pickling, small enough to
#: keep every worker busy until the end.
DEFAULT_CHUNK_SIZE = 256

# Chunks in flight per worker (queued or being scored).
_IN_FLIGHT_PER_JOB = 3

Pair = tuple[str, Sequence[str]]

_worker_scorer: Meteor | None = None


def resolve_jobs(jobs: int) -> int:
    """Number of processes for ``jobs`` (0 means one per available CPU).

    Raises:
        ConfigError: ``jobs`` is negative or not an integer.
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 0:
        raise ConfigError(f"jobs: {jobs!r} is invalid; allowed: an integer >= 0 (0 = all CPUs)")
    if jobs == 0:
        return (
            len(os.sched_getaffinity(0))
            if hasattr(os, "sched_getaffinity")
            else (os.cpu_count() or 1)
        )
    return jobs


def _init_worker(config: MeteorConfig) -> None:
    global _worker_scorer
    # Configuration warnings were already shown by the process that started the workers.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _worker_scorer = Meteor(config)


def _worker() -> Meteor:
    """This worker process's scorer (built by the pool's initializer)."""
    if _worker_scorer is None:  # pragma: no cover - the initializer always runs first
        raise RuntimeError("worker process was not initialised")
    return _worker_scorer


def _score_chunk(chunk: list[Pair], alignment: bool) -> list[MeteorScore]:
    scorer = _worker()
    return [scorer.sentence_score(h, refs, alignment=alignment) for h, refs in chunk]


def _stats_chunk(chunk: list[Pair]) -> list[tuple[MeteorStats, int]]:
    scorer = _worker()
    records = scorer.best_stats_many(chunk)
    return [(stats, len(refs)) for stats, (_, refs) in zip(records, chunk, strict=True)]


def _pool_chunk(chunk: list[Pair]) -> list[tuple[MeteorStats, frozenset[int], int]]:
    scorer = _worker()
    return [_pooled(scorer, chunk)]


def _pooled(scorer: Meteor, chunk: Sequence[Pair]) -> tuple[MeteorStats, frozenset[int], int]:
    """The chunk's records pooled from zero, its reference counts and its size."""
    partial = scorer.pooled_stats_many(chunk)
    return partial, frozenset(len(refs) for _, refs in chunk), len(chunk)


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


def _resolve(
    jobs: int, chunk_size: int, config: MeteorConfig | None, scorer: Meteor | None
) -> tuple[int, MeteorConfig]:
    """Checked number of processes and the configuration to score with."""
    n_jobs = resolve_jobs(jobs)
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ConfigError(f"chunk_size: {chunk_size!r} is invalid; allowed: an integer >= 1")
    if scorer is not None and config is not None and scorer.config != config:
        raise ConfigError("config and scorer.config differ; pass one of them")
    if config is None:
        config = scorer.config if scorer is not None else MeteorConfig.preset("meteor15")
    return n_jobs, config


def score_segments(
    pairs: Iterable[Pair],
    *,
    config: MeteorConfig | None = None,
    scorer: Meteor | None = None,
    jobs: int = 1,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    alignment: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Iterator[MeteorScore]:
    """Sentence scores of ``(hypothesis, references)`` pairs, in input order.

    Args:
        pairs: The segments; consumed lazily, a chunk at a time.
        config: The settings (default: ``scorer.config``, else the ``meteor15`` preset).
        scorer: An existing scorer to use in this process when ``jobs`` is 1 (its caches are
            reused); workers always build their own from ``config``.
        jobs: Number of processes; 1 scores here, 0 uses every available CPU.
        chunk_size: Segments per task sent to a worker.
        alignment: Attach each segment's alignment.
        progress: Called with the number of segments finished so far, after each chunk.

    Yields:
        One score per pair, as :meth:`Meteor.sentence_score` returns it.

    Raises:
        ConfigError: ``jobs`` or ``chunk_size`` is invalid, or ``config`` and ``scorer`` differ.
    """
    n_jobs, config = _resolve(jobs, chunk_size, config, scorer)
    if n_jobs == 1:
        score = (scorer or Meteor(config)).sentence_score
        return _serial(
            (score(h, refs, alignment=alignment) for h, refs in pairs), chunk_size, progress
        )
    return _parallel(pairs, config, n_jobs, chunk_size, progress, _score_chunk, (alignment,))


def segment_stats_stream(
    pairs: Iterable[Pair],
    *,
    config: MeteorConfig | None = None,
    scorer: Meteor | None = None,
    jobs: int = 1,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    progress: Callable[[int], None] | None = None,
) -> Iterator[tuple[MeteorStats, int]]:
    """Each pair's best-reference statistics and number of references, in input order.

    What a corpus score needs and nothing more: no per-segment score objects or alignments
    are built (:func:`corpus_score_from_stats` pools the records). Arguments and errors are
    those of :func:`score_segments`; the records are :meth:`Meteor.best_stats`'s.
    """
    n_jobs, config = _resolve(jobs, chunk_size, config, scorer)
    if n_jobs == 1:
        many = (scorer or Meteor(config)).best_stats_many
        return _serial(_stats_in_chunks(pairs, many, chunk_size), chunk_size, progress)
    return _parallel(pairs, config, n_jobs, chunk_size, progress, _stats_chunk, ())


def _stats_in_chunks(
    pairs: Iterable[Pair],
    many: Callable[[Sequence[Pair]], list[MeteorStats]],
    chunk_size: int,
) -> Iterator[tuple[MeteorStats, int]]:
    """Records of ``pairs`` scored a chunk at a time (new word types interned per chunk)."""
    for chunk in _chunks(pairs, min(chunk_size, 256)):
        for stats, (_, refs) in zip(many(chunk), chunk, strict=True):
            yield stats, len(refs)


def _serial(
    results: Iterator[_T], chunk_size: int, progress: Callable[[int], None] | None
) -> Iterator[_T]:
    if progress is None:
        yield from results
        return
    done = 0
    for result in results:
        yield result
        done += 1
        if done % chunk_size == 0:
            progress(done)
    progress(done)


def _parallel(
    pairs: Iterable[Pair],
    config: MeteorConfig,
    n_jobs: int,
    chunk_size: int,
    progress: Callable[[int], None] | None,
    task: Callable[..., list[_T]],
    extra: tuple[object, ...],
    segments: Callable[[list[_T]], int] = len,
) -> Iterator[_T]:
    from concurrent.futures import ProcessPoolExecutor

    done = 0
    pending: deque[Future[list[_T]]] = deque()
    limit = n_jobs * _IN_FLIGHT_PER_JOB
    with ProcessPoolExecutor(
        max_workers=n_jobs, mp_context=_context(), initializer=_init_worker, initargs=(config,)
    ) as pool:
        try:
            for chunk in _chunks(pairs, chunk_size):
                pending.append(pool.submit(task, chunk, *extra))
                while len(pending) >= limit or (pending and pending[0].done()):
                    results = pending.popleft().result()
                    yield from results
                    done += segments(results)
                    if progress is not None:
                        progress(done)
            while pending:
                results = pending.popleft().result()
                yield from results
                done += segments(results)
                if progress is not None:
                    progress(done)
        finally:
            for future in pending:
                future.cancel()


class _ExactSum:
    """Running exact sum of floats (Shewchuk's partials), so ``math.fsum`` needs no list."""

    __slots__ = ("partials",)

    def __init__(self) -> None:
        self.partials: list[float] = []

    def add(self, x: float) -> None:
        partials = self.partials
        i = 0
        for y in partials:
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo:
                partials[i] = lo
                i += 1
            x = hi
        partials[i:] = [x]

    def total(self) -> float:
        return math.fsum(self.partials)


def corpus_score_stream(
    scorer: Meteor,
    seg_scores: Iterable[MeteorScore],
    *,
    each: Callable[[int, MeteorScore], None] | None = None,
) -> tuple[MeteorScore, int]:
    """Corpus score of a stream of segment scores, equal to :meth:`Meteor.combine`'s.

    Statistics are pooled in input order as they arrive; the segments themselves are not kept
    (``each`` sees every one, with its 0-based index, e.g. to write it out).

    Returns:
        The corpus score (without ``segments``) and the number of segments.
    """
    from meteor_eval.metrics.meteor import pool_stats

    config = scorer.config
    n_refs_seen: set[object] = set()
    mean = _ExactSum()
    count = 0
    total = pool_stats((), config)
    skip = config.zero_penalty_if_perfect
    for seg in seg_scores:
        if each is not None:
            each(count, seg)
        n_refs_seen.add(seg.signature.get("nrefs"))
        total = total.merge(seg.stats, skip_perfect_chunks=skip)
        mean.add(seg.score)
        count += 1
    n_refs = (next(iter(n_refs_seen)) or "1") if len(n_refs_seen) == 1 else "var"
    result = scorer.score_stats(total, n_refs=str(n_refs))
    if config.aggregate == "mean":
        import dataclasses

        result = dataclasses.replace(result, score=mean.total() / count if count else 0.0)
    return result, count


def corpus_score_from_stats(
    scorer: Meteor, records: Iterable[tuple[MeteorStats, int]]
) -> tuple[MeteorScore, int]:
    """Corpus score of a stream of ``(statistics, number of references)`` records.

    Equal to :func:`corpus_score_stream` over the same segments' scores (and so to
    :meth:`Meteor.corpus_score`): the records are pooled in input order, and with
    ``aggregate="mean"`` each one is scored to average the segment scores exactly.

    Returns:
        The corpus score (without ``segments``) and the number of segments.
    """
    from meteor_eval.metrics.meteor import pool_stats

    config = scorer.config
    n_refs_seen: set[int] = set()
    mean = _ExactSum() if config.aggregate == "mean" else None
    count = 0
    total = pool_stats((), config)
    skip = config.zero_penalty_if_perfect
    for stats, n_refs in records:
        n_refs_seen.add(n_refs)
        total = total.merge(stats, skip_perfect_chunks=skip)
        if mean is not None:
            mean.add(score_from_stats(stats, config).score)
        count += 1
    label = str(next(iter(n_refs_seen))) if len(n_refs_seen) == 1 else "var"
    result = scorer.score_stats(total, n_refs=label)
    if mean is not None:
        import dataclasses

        result = dataclasses.replace(result, score=mean.total() / count if count else 0.0)
    return result, count


def pooled_corpus_score(
    pairs: Iterable[Pair],
    *,
    config: MeteorConfig | None = None,
    scorer: Meteor | None = None,
    jobs: int = 1,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    progress: Callable[[int], None] | None = None,
) -> tuple[MeteorScore, int]:
    """Corpus score of a stream of pairs, equal to :func:`corpus_score_from_stats` over
    :func:`segment_stats_stream`, with the statistics pooled a chunk at a time where the chunk
    is scored (in the workers with several jobs: only one record per chunk comes back).

    Exact: no running total of the pooling is perfect (the chunks it counts come from
    imperfect records only, so it has either not exactly one chunk or an unmatched word), so
    the perfect-segment rule never applies to a total and chunk totals add plainly. With
    ``aggregate="mean"`` every segment's score is needed and the records are pooled one by one
    instead.

    Returns:
        The corpus score (without ``segments``) and the number of segments.

    Raises:
        ConfigError: as :func:`score_segments`.
    """
    n_jobs, config = _resolve(jobs, chunk_size, config, scorer)
    if scorer is None:
        scorer = Meteor(config)
    if config.aggregate == "mean":
        records = segment_stats_stream(
            pairs, scorer=scorer, jobs=n_jobs, chunk_size=chunk_size, progress=progress
        )
        return corpus_score_from_stats(scorer, records)
    from meteor_eval.metrics.meteor import pool_stats

    parts: Iterator[tuple[MeteorStats, frozenset[int], int]]
    if n_jobs == 1:
        scored = (_pooled(scorer, chunk) for chunk in _chunks(pairs, min(chunk_size, 256)))
        parts = scored if progress is None else _counted(scored, progress)
    else:
        parts = _parallel(
            pairs, config, n_jobs, chunk_size, progress, _pool_chunk, (), _segments_pooled
        )
    total = pool_stats((), config)
    n_refs_seen: set[int] = set()
    count = 0
    for partial, n_refs, size in parts:
        total = total.merge(partial, skip_perfect_chunks=False)
        n_refs_seen |= n_refs
        count += size
    label = str(next(iter(n_refs_seen))) if len(n_refs_seen) == 1 else "var"
    return scorer.score_stats(total, n_refs=label), count


def _segments_pooled(results: list[tuple[MeteorStats, frozenset[int], int]]) -> int:
    return sum(size for _, _, size in results)


def _counted(
    parts: Iterator[tuple[MeteorStats, frozenset[int], int]], progress: Callable[[int], None]
) -> Iterator[tuple[MeteorStats, frozenset[int], int]]:
    """Pass the chunk totals on, reporting the segments finished after each chunk."""
    done = 0
    for part in parts:
        yield part
        done += part[2]
        progress(done)
    progress(done)
