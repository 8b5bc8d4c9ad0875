"""``jobs=`` in the public API and how worker processes start (``meteor_eval.processes``).

Every start method gives the results of one process, bit for bit; byte ranges of files read by
the workers give the segments, warnings and errors of reading them here.
"""

from __future__ import annotations

import multiprocessing
import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fakes import CAT_HYPS, CAT_REFS, LowercaseMatcher, build_lowercase
from meteor_eval import MeteorMetric, corpus_bleu, corpus_meteor, corpus_rouge, processes
from meteor_eval.errors import ConfigError, InputError
from meteor_eval.match import registry
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.metrics.protocol import Pair
from meteor_eval.parallel import Files, segment_rows

OPTIONS = {"modules": ("exact", "stem", "synonym"), "normalization": "norm"}
CONFIG = MeteorConfig.preset("meteor15", **OPTIONS)  # type: ignore[arg-type]
HYPS = CAT_HYPS * 6
REFS = CAT_REFS * 6
METHODS = [
    m for m in ("fork", "forkserver", "spawn") if m in multiprocessing.get_all_start_methods()
]


def _write(tmp_path: Path) -> Files:
    hyp, ref, ref2 = tmp_path / "hyp", tmp_path / "ref", tmp_path / "ref2"
    hyp.write_text("\n".join(HYPS) + "\n", encoding="utf-8")
    ref.write_text("\n".join(r[0] for r in REFS) + "\n", encoding="utf-8")
    ref2.write_text("\n".join(r[-1] for r in REFS) + "\n", encoding="utf-8")
    return Files(str(hyp), (str(ref), str(ref2)))


@pytest.mark.parametrize("method", METHODS)
def test_every_start_method_gives_the_results_of_one_process(method: str, tmp_path: Path) -> None:
    one = corpus_meteor(HYPS, REFS, config=CONFIG, segments=True)
    two = corpus_meteor(HYPS, REFS, config=CONFIG, segments=True, jobs=2, start_method=method)
    assert (two.score, two.stats, two.signature) == (one.score, one.stats, one.signature)
    assert [s.score for s in two.segments] == [s.score for s in one.segments]
    assert [s.reference_index for s in two.segments] == [s.reference_index for s in one.segments]
    # Files: the workers read byte ranges (chunks of 7 lines: the last one is short).
    files = _write(tmp_path)
    scorer = Meteor(CONFIG)
    expected = [
        (scorer.segment_score(h, [r[0], r[-1]]).stats.to_row(), 2)
        for h, r in zip(HYPS, REFS, strict=True)
    ]
    got = list(segment_rows(scorer, files, jobs=2, chunk_size=7, start_method=method))
    assert got == expected


def test_jobs_in_every_public_entry_point() -> None:
    assert corpus_bleu(HYPS, REFS, jobs=2, start_method="fork") == corpus_bleu(HYPS, REFS)
    types = ["rouge1", "rougeL"]
    rouge = corpus_rouge(HYPS, REFS, types=types, jobs=2, start_method="fork")
    assert rouge == corpus_rouge(HYPS, REFS, types=types)
    scorer = Meteor(CONFIG)
    scores = scorer.segment_scores(HYPS, REFS, jobs=2, start_method="fork")
    assert scores == scorer.segment_scores(HYPS, REFS)
    aligned = scorer.corpus_score(HYPS, REFS, alignments=True, jobs=2, start_method="fork")
    assert aligned == scorer.corpus_score(HYPS, REFS, alignments=True)  # every alignment too
    assert aligned.segments and aligned.segments[1].alignment is not None
    metric = MeteorMetric(**OPTIONS)
    metric.update(HYPS, REFS, jobs=2, start_method="fork")
    assert metric.compute() == scorer.corpus_score(HYPS, REFS)


@pytest.mark.parametrize(
    ("jobs", "message"),
    [
        (-1, "jobs: -1 is invalid; allowed: an integer from 0 to 1,024 (0 = all CPUs)"),
        (True, "jobs: True is invalid"),
        (2.0, "jobs: 2.0 is invalid"),
    ],
)
def test_api_jobs_checked_as_the_command_line_checks_them(jobs: object, message: str) -> None:
    for score in (
        lambda: corpus_meteor(HYPS, REFS, config=CONFIG, jobs=jobs),  # type: ignore[arg-type]
        lambda: corpus_bleu(HYPS, REFS, jobs=jobs),  # type: ignore[arg-type]
        lambda: Meteor(CONFIG).segment_scores(HYPS, REFS, jobs=jobs),  # type: ignore[arg-type]
        lambda: MeteorMetric(**OPTIONS).update(HYPS, REFS, jobs=jobs),  # type: ignore[arg-type]
    ):
        with pytest.raises(ConfigError) as caught:
            score()
        assert str(caught.value).startswith(message)


def test_bad_start_method_refused_from_the_keyword_and_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    expected = corpus_bleu(HYPS, REFS).score
    with pytest.raises(ConfigError) as caught:
        corpus_bleu(HYPS, REFS, start_method="forks")
    assert str(caught.value) == (
        "start_method: 'forks' is invalid; allowed: auto, fork, forkserver, spawn"
    )
    monkeypatch.setenv("METEOR_EVAL_START_METHOD", "threads")
    with pytest.raises(ConfigError, match=r"^METEOR_EVAL_START_METHOD: 'threads' is invalid"):
        corpus_bleu(HYPS, REFS, jobs=2)
    # The keyword wins over the variable.
    assert corpus_bleu(HYPS, REFS, start_method="auto").score == expected


def test_auto_forks_only_a_single_threaded_linux_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("METEOR_EVAL_START_METHOD", raising=False)
    monkeypatch.setattr(processes.sys, "platform", "linux")
    monkeypatch.setattr(processes, "thread_count", lambda: 1)
    assert processes.choose_start_method() == "fork"
    monkeypatch.setattr(processes, "thread_count", lambda: 3)
    assert processes.choose_start_method() == "forkserver"
    monkeypatch.setattr(processes.sys, "platform", "darwin")
    monkeypatch.setattr(processes, "thread_count", lambda: 1)
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn", "fork"])
    assert processes.choose_start_method() == "spawn"
    monkeypatch.setattr(processes.sys, "platform", "freebsd14")
    assert processes.choose_start_method() == "fork"
    monkeypatch.setattr(processes, "thread_count", lambda: 2)
    assert processes.choose_start_method() == "spawn"  # no forkserver in this list
    monkeypatch.setenv("METEOR_EVAL_START_METHOD", "spawn")
    assert processes.choose_start_method() == "spawn"
    assert processes.choose_start_method("fork") == "fork"


def test_auto_does_not_count_the_threads_numpy_started(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("METEOR_EVAL_START_METHOD", raising=False)
    monkeypatch.setattr(processes.sys, "platform", "linux")
    monkeypatch.setattr(processes, "_numpy_threads", frozenset({"11"}))
    monkeypatch.setattr(processes, "_thread_ids", lambda: frozenset({"10", "11"}))
    monkeypatch.setattr(processes, "thread_count", lambda: 2)
    assert processes.choose_start_method() == "fork"
    # numpy's thread gone (stopped by a fork), another one started: that one counts.
    monkeypatch.setattr(processes, "_thread_ids", lambda: frozenset({"10", "12"}))
    assert processes.choose_start_method() == "forkserver"
    monkeypatch.setattr(processes, "_thread_ids", lambda: frozenset({"10", "11", "12"}))
    monkeypatch.setattr(processes, "thread_count", lambda: 3)  # one more thread than numpy's
    assert processes.choose_start_method() == "forkserver"
    # Already imported (here, by this test: the package's METEOR path no longer imports it):
    # nothing is noted, nothing changes.
    import numpy  # noqa: F401

    assert processes.import_numpy() == 0
    assert processes._numpy_threads == frozenset({"11"})


def _fresh_python(code: str) -> list[str]:
    """The words ``code`` prints in a new interpreter that chooses its own start method."""
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "METEOR_EVAL_START_METHOD"}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    ).stdout.split()


def test_import_numpy_counts_its_threads_in_a_fresh_process() -> None:
    """A new interpreter: what numpy's import starts is counted, so ``auto`` still forks."""
    import sys

    code = (
        "import sys; from meteor_eval import processes as p; n = p.import_numpy(); "
        "print(n, p.thread_count() - n, p.choose_start_method())"
    )
    out = _fresh_python(code)
    assert out[1] == "1"
    if sys.platform == "linux":
        assert out[2] == "fork"


def test_a_watched_numpy_import_counts_its_threads_whoever_imports_it() -> None:
    """A new interpreter: :func:`processes.watch_numpy_import` notes the threads of numpy's
    import when some other module imports it (here ``import numpy.linalg``), so ``auto`` still
    forks; the watch leaves the import system as it found it, and numpy works."""
    import sys

    code = (
        "import sys; from meteor_eval import processes as p\n"
        "finders = list(sys.meta_path); p.watch_numpy_import(); p.watch_numpy_import()\n"
        "assert len(sys.meta_path) == len(finders) + 1\n"
        "import numpy.linalg\n"
        "assert sys.meta_path == finders and numpy.linalg.det(numpy.eye(2)) == 1.0\n"
        "n = len(p._numpy_threads)\n"
        "print(n, p.thread_count() - n, p.choose_start_method(), p.import_numpy())"
    )
    out = _fresh_python(code)
    assert out[1] == "1" and out[3] == "0"
    if sys.platform == "linux":
        assert out[2] == "fork"


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        ({"Build Dependencies": {"blas": {"name": "scipy-openblas"}}}, True),
        ({"Build Dependencies": {"blas": {"name": "openblas64"}}}, True),
        ({"Build Dependencies": {"blas": {"name": "mkl-sdl"}}}, False),
        ({"Build Dependencies": {"blas": {"name": "accelerate"}}}, False),
        ({"Build Dependencies": {}}, False),
        (None, False),  # a numpy older than 1.26 does not say
    ],
)
def test_only_openblas_threads_are_left_uncounted(config: object, expected: bool) -> None:
    """Only OpenBLAS is known to stop its threads around a fork; any other BLAS's threads keep
    ``auto`` from forking."""
    from types import SimpleNamespace

    numpy = SimpleNamespace(
        __config__=SimpleNamespace() if config is None else SimpleNamespace(CONFIG=config)
    )
    assert processes._blas_is_openblas(numpy) is expected


def test_thread_count_sees_a_new_thread() -> None:
    import threading

    before = processes.thread_count()
    release = threading.Event()
    thread = threading.Thread(target=release.wait)
    thread.start()
    try:
        assert processes.thread_count() == before + 1
    finally:
        release.set()
        thread.join()


def test_runtime_module_reaches_spawned_workers_or_is_refused() -> None:
    hyps, refs = ["The Cat sat", "a Dog"] * 3, [["the cat sat"], ["a dog"]] * 3
    registry.register(registry.MatcherModule("lowercase", "lc", build=build_lowercase))
    try:
        config = MeteorConfig.preset("meteor15", modules=("exact", "lowercase"), weights=(1, 0.5))
        expected = Meteor(config).corpus_score(hyps, refs)
        exact = MeteorConfig.preset("meteor15", modules=("exact",))
        assert expected.score > 2 * Meteor(exact).corpus_score(hyps, refs).score  # it matched
        got = Meteor(config).corpus_score(hyps, refs, jobs=2, start_method="spawn")
        assert (got.score, got.stats) == (expected.score, expected.stats)
        registry.register(
            registry.MatcherModule("lowercase", "lc", build=lambda context: LowercaseMatcher()),
            replace=True,
        )
        with pytest.raises(ConfigError) as caught:
            Meteor(config).corpus_score(hyps, refs, jobs=2, start_method="forkserver")
        assert str(caught.value).startswith(
            "modules: 'lowercase' was registered at run time with functions that cannot be "
            "sent to worker processes started by forkserver ("
        )
        assert str(caught.value).endswith(
            "define them at the top level of an importable module, or use "
            "start_method='fork' (--start-method fork)"
        )
    finally:
        registry.unregister("lowercase")


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_workers_reading_files_warn_and_fail_as_one_process(tmp_path: Path) -> None:
    hyp, ref = tmp_path / "hyp", tmp_path / "ref"
    hyp.write_bytes(b"\xef\xbb\xbfthe cat\n" + b"a dog\n" * 5 + b"a\rdog\n" + b"a dog\n" * 3)
    ref.write_bytes(b"the cat\n" + b"a dog\n" * 9)
    files = Files(str(hyp), (str(ref),))
    scorer = Meteor(CONFIG)
    for jobs in (1, 2):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            rows = list(segment_rows(scorer, files, jobs=jobs, chunk_size=3, start_method="fork"))
        assert [str(w.message) for w in caught] == [
            f"{hyp}:1: dropped a UTF-8 byte-order mark",
            f"{hyp}:7: a carriage return inside the line is read as a space",
        ]
        assert len(rows) == 10
    ref.write_bytes(b"the cat\n" + b"a dog\n" * 7 + b"a \xff\n" + b"a dog\n")
    with pytest.raises(InputError, match=rf"^{ref}:9: invalid UTF-8 \(byte 0xff\)"):
        list(segment_rows(scorer, files, jobs=2, chunk_size=3, start_method="fork"))
    ref.write_bytes(b"the cat\n")
    with pytest.raises(InputError, match=r"has 10 lines but .* has 1; every reference file"):
        list(segment_rows(scorer, files, jobs=2, chunk_size=3, start_method="fork"))


@pytest.mark.parametrize("method", ["forkserver", "spawn"])
def test_work_budget_of_this_process_reaches_workers_that_do_not_fork(method: str) -> None:
    from meteor_eval import limits
    from meteor_eval.errors import WorkBudgetError

    with limits.work_budget(meteor15=1), pytest.raises(WorkBudgetError) as caught:
        Meteor(CONFIG).corpus_score(HYPS, REFS, jobs=2, start_method=method)
    assert str(caught.value).startswith("line 1: METEOR (meteor15) would take ")
    assert "above its work budget of 1 (meteor15)" in str(caught.value)


def test_compare_in_processes_gives_the_same_results() -> None:
    from meteor_eval import compare

    systems = {"a": HYPS, "b": list(reversed(HYPS))}
    one = compare(systems, REFS, metrics=["bleu", Meteor(CONFIG)], paired="bs", n_samples=50)
    two = compare(
        systems,
        REFS,
        metrics=["bleu", Meteor(CONFIG)],
        paired="bs",
        n_samples=50,
        jobs=2,
        start_method="fork",
    )
    assert two.to_dict() == one.to_dict()
    with pytest.raises(ConfigError, match=r"^jobs: -3 is invalid"):
        compare(systems, REFS, metrics=["bleu"], jobs=-3)


def build_failing_in_workers(context: registry.MatcherContext) -> LowercaseMatcher:
    """A factory that fails where ``JOBS_TEST_FAIL`` is set (the workers, set after the scorer
    of the main process was built)."""
    import os

    from meteor_eval.errors import ResourceError

    if os.environ.get("JOBS_TEST_FAIL"):
        raise ResourceError("lowercase: its word list is missing in this process")
    return LowercaseMatcher()


def test_a_worker_that_cannot_build_its_metric_reports_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from meteor_eval.errors import ResourceError

    registry.register(registry.MatcherModule("lowercase", "lc", build=build_failing_in_workers))
    try:
        config = MeteorConfig.preset("meteor15", modules=("exact", "lowercase"), weights=(1, 0.5))
        scorer = Meteor(config)
        scorer.segment_score("a", ["a"])  # built here
        monkeypatch.setenv("JOBS_TEST_FAIL", "1")
        with pytest.raises(ResourceError, match=r"^lowercase: its word list is missing"):
            scorer.corpus_score(HYPS, REFS, jobs=2, start_method="spawn")
    finally:
        registry.unregister("lowercase")


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_file_chunks_grouped_into_tasks_give_one_process_rows_warnings_and_errors(
    tmp_path: Path,
) -> None:
    """With many chunks, workers are sent several consecutive chunks of files per task
    (``pool._file_tasks``): the rows, the reading warnings and errors (file and line) and a
    segment over its work budget (its line) are those of one process."""
    from meteor_eval import limits, pool
    from meteor_eval.errors import WorkBudgetError

    tasks = [len(task) for task in pool._file_tasks(60, 2)]
    assert tasks[:2] == [15, 11] and tasks[-1] == 1 and sum(tasks) == 60
    # With chunks of one line, each worker's first task is 16 lines found by a scan of the
    # first 32 lines only (io.head_chunks); the other 28 lines make tasks of 7, 5, 4, ...
    hyp, ref = tmp_path / "hyp", tmp_path / "ref"
    lines = [f"the cat number {k}" for k in range(60)]
    lines[8] = "a\rcat"  # the 9th chunk of the first task
    lines[11] = "a\rdog"
    lines[36] = "a\rbird"  # the 5th of the 7 chunks of the first task after the scan
    hyp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ref.write_text("\n".join(f"a cat number {k % 7}" for k in range(60)) + "\n", encoding="utf-8")
    files = Files(str(hyp), (str(ref),))
    scorer = Meteor(CONFIG)
    for method in ("fork", "spawn"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = list(segment_rows(scorer, files, jobs=2, chunk_size=1, start_method=method))
        assert [str(w.message) for w in caught] == [
            f"{hyp}:9: a carriage return inside the line is read as a space",
            f"{hyp}:12: a carriage return inside the line is read as a space",
            f"{hyp}:37: a carriage return inside the line is read as a space",
        ]
        assert got == list(segment_rows(scorer, files))
        total = scorer.stream_total(files, pool.Run(2, 1, method))
        one = scorer.stream_total(files, pool.Run())
        assert (total.count, scorer.result(total)) == (one.count, scorer.result(one))
    # 30 candidate pairs (the other lines have 3 at most), in the first task's 3rd chunk of 2
    lines[5] = " ".join(["cat"] * 30)
    hyp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with limits.work_budget(meteor15=10), pytest.raises(WorkBudgetError) as over:
        list(segment_rows(scorer, files, jobs=2, chunk_size=2, start_method="fork"))
    assert str(over.value).startswith("line 6: METEOR (meteor15) would take ")
    # ... and in a task sent after the scan (chunks of one line: line 36 is the 4th chunk of
    # the task of 7 that follows the two first tasks of 16)
    lines[5], lines[35] = lines[4], " ".join(["cat"] * 30)
    hyp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with limits.work_budget(meteor15=10), pytest.raises(WorkBudgetError) as over:
        list(segment_rows(scorer, files, jobs=2, chunk_size=1, start_method="fork"))
    assert str(over.value).startswith("line 36: METEOR (meteor15) would take ")
    ref.write_bytes(ref.read_bytes().replace(b"a cat number 3\n", b"a cat \xff 3\n", 5))
    bad = [k + 1 for k, line in enumerate(ref.read_bytes().split(b"\n")) if b"\xff" in line]
    assert len(bad) == 5 and bad[0] > 1
    with pytest.raises(InputError, match=rf"^{ref}:{bad[0]}: invalid UTF-8 \(byte 0xff\)"):
        list(segment_rows(scorer, files, jobs=2, chunk_size=1, start_method="fork"))


@pytest.mark.parametrize("method", [m for m in METHODS if m != "fork"])
def test_workers_start_before_the_files_are_scanned(
    method: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Workers that do not fork take long to start (imports, resources): they are started
    when the pool is made, so that this process scans the files meanwhile; the rows are
    still those of one process."""
    from meteor_eval import io as mio

    files = _write(tmp_path)
    seen: list[int] = []
    scan = mio.file_chunks

    def counting(paths: list[str], chunk_lines: int, **resume: Any) -> list[mio.FileChunk]:
        seen.append(len(multiprocessing.active_children()))
        return scan(paths, chunk_lines, **resume)

    monkeypatch.setattr(mio, "file_chunks", counting)
    metric = Meteor(CONFIG)
    rows = list(segment_rows(metric, files, jobs=2, start_method=method, chunk_size=5))
    assert seen == [2]  # both workers were started before the scan
    pairs = [(h, [r[0], r[-1]]) for h, r in zip(HYPS, REFS, strict=True)]
    assert rows == list(segment_rows(metric, pairs))


def test_a_pool_broken_while_its_workers_start_is_left_to_the_first_chunk() -> None:
    """Starting the workers does not raise for a pool that broke meanwhile: the first chunk's
    ``submit`` reports it, with the chunk it could not send."""
    from concurrent.futures.process import BrokenProcessPool

    from meteor_eval import pool

    class Broken:
        calls = 0

        def submit(self, *args: object) -> None:
            Broken.calls += 1
            raise BrokenProcessPool("A child process terminated abruptly")

    pool._start_workers(Broken(), 3)
    assert Broken.calls == 1


@pytest.mark.parametrize("numpy_only", [True, False])
def test_python_warning_at_fork_is_quiet_only_beside_numpy_threads(
    numpy_only: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Python 3.12+ warns at a fork of a multi-threaded process; the command line forks
    beside numpy's BLAS threads (stopped by OpenBLAS around a fork), where the warning would
    show on every run. It is silenced then, and only then."""
    from meteor_eval import pool

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork here")

    def warn_like_python(executor: object, n_jobs: int) -> None:
        warnings.warn(
            "This process (pid=42) is multi-threaded, use of fork() may lead to deadlocks in "
            "the child.",
            DeprecationWarning,
            stacklevel=1,
        )

    monkeypatch.setattr(pool, "_start_workers", warn_like_python)
    monkeypatch.setattr(processes, "forks_beside_numpy_only", lambda: numpy_only)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        executor = pool._pool(Meteor(CONFIG), 2, "fork")
    executor.shutdown()
    assert len(caught) == (0 if numpy_only else 1)


def test_forks_beside_numpy_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(processes, "_numpy_threads", frozenset())
    monkeypatch.setattr(processes, "thread_count", lambda: 1)
    assert not processes.forks_beside_numpy_only()  # nothing to silence
    monkeypatch.setattr(processes, "_numpy_threads", frozenset({"11"}))
    monkeypatch.setattr(processes, "_thread_ids", lambda: frozenset({"10", "11"}))
    monkeypatch.setattr(processes, "thread_count", lambda: 2)
    assert processes.forks_beside_numpy_only()
    monkeypatch.setattr(processes, "_thread_ids", lambda: frozenset({"10", "11", "12"}))
    monkeypatch.setattr(processes, "thread_count", lambda: 3)
    assert not processes.forks_beside_numpy_only()


@pytest.mark.parametrize("head", [1, 2, 8])
def test_first_tasks_of_one_chunk_or_several_give_the_rows_of_one_process(
    head: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With many workers each first task found before the whole scan is a single chunk (here
    2 chunks for 2 workers), otherwise several, and with more workers than ``_HEAD_CHUNKS``
    none (the whole scan comes first, so at most that many chunks are read ahead): the rows
    are those of one process."""
    from meteor_eval import pool

    monkeypatch.setattr(pool, "_HEAD_CHUNKS", head)
    files = _write(tmp_path)
    ahead = [job for job, _, _, checked in pool._jobs(files, 3, 2) if not checked]
    assert len(ahead) == (0 if head < 2 else 2)
    metric = Meteor(CONFIG)
    rows = list(segment_rows(metric, files, jobs=2, chunk_size=3, start_method="fork"))
    assert rows == list(segment_rows(metric, files))
    total = metric.stream_total(files, pool.Run(2, 3, "fork"))
    one = metric.stream_total(files, pool.Run())
    assert (total.count, metric.result(total)) == (one.count, metric.result(one))


def test_no_result_is_given_before_the_files_line_counts_are_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first task of each worker is sent before the files are scanned whole (the scan
    checks their line counts); a result that comes back meanwhile is not given to the caller,
    so files of different lengths fail the run before any row is seen."""
    from meteor_eval import pool

    pairs = list(zip(HYPS, REFS, strict=True))
    in_flight = 2 * pool._IN_FLIGHT_PER_JOB  # the most tasks sent before one is waited on
    assert len(pairs) >= in_flight

    def jobs(pairs: list[Pair], chunk_size: int, n_jobs: int) -> Iterator[Any]:
        # As many first tasks as may be in flight: without the rule, the last of them makes
        # the first one's result be taken (and given) before the scan below, whatever the
        # timing.
        for k in range(in_flight):
            yield pairs[k : k + 1], 1, 1, False
        raise InputError("hyp has 9 lines but ref has 8")  # the whole scan

    monkeypatch.setattr(pool, "_jobs", jobs)
    rows = segment_rows(Meteor(CONFIG), pairs, jobs=2, start_method="fork")
    with pytest.raises(InputError, match="has 9 lines but"):
        next(rows)  # no row before the error
