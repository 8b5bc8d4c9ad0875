"""Faults while scoring: a worker process killed, segments too long for a metric.

Each gives one error that says where (the chunk, the line), and leaves no process behind.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import re
import signal
import time
from collections.abc import Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from meteor_eval import limits, pool
from meteor_eval.errors import SegmentTooLongError, WorkBudgetError
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.metrics.protocol import Metric, Pair, Total
from meteor_eval.metrics.rouge import Rouge, RougeConfig
from meteor_eval.parallel import WorkerError, corpus_result, segment_rows

CONFIG = MeteorConfig.preset("meteor15", modules=("exact",), normalization="norm")
PAIRS: list[Pair] = [(f"the cat number {k}", [f"a cat number {k}"]) for k in range(40)]


def _children() -> set[int]:
    """Process ids of this process's children (Linux ``/proc``), except multiprocessing's
    resource tracker, which is started once per process and lives on by design."""
    found: set[int] = set()
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        try:
            children = (task / "children").read_text().split()
        except OSError:  # a thread (a pool's helper) that ended after the listing
            continue
        for pid in children:
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:  # already gone
                continue
            if b"resource_tracker" not in command:
                found.add(int(pid))
    return found


def _killing_total(metric: Metric[Any], chunk: Sequence[Pair]) -> Total:  # a method of Meteor
    """A chunk task that kills its own worker on the chunk holding segment 21 (in a worker)."""
    if any(h == "the cat number 21" for h, _ in chunk):
        os.kill(os.getpid(), signal.SIGKILL)
    return metric.pooled_rows(chunk)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="the hook needs fork"
)
def test_killed_worker_names_its_chunk_and_leaves_no_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Meteor, "chunk_total", _killing_total)  # forked workers inherit it
    sigpipe = signal.getsignal(signal.SIGPIPE)
    before = _children()  # other tests in this process may have left helpers running
    with pytest.raises(WorkerError, match=r"a worker process died ") as caught:
        corpus_result(Meteor(CONFIG), iter(PAIRS), jobs=2, chunk_size=10, start_method="fork")
    # Segment 22 (the 22nd line) is in chunk 3, segments 21-30. A dead worker loses every
    # chunk in flight, and which earlier chunks were still in flight depends on timing
    # (chunks 3-4 on an idle machine, 1-4 now and then): the range named must cover it.
    found = re.search(
        r"while chunks? (\d+)(?:-(\d+))? \(segments ([\d,]+)-([\d,]+)\)", str(caught.value)
    )
    assert found is not None, str(caught.value)
    first, last = int(found[1]), int(found[2] or found[1])
    assert first <= 3 <= last
    assert int(found[3].replace(",", "")) <= 22 <= int(found[4].replace(",", ""))
    assert int(found[3].replace(",", "")) == 10 * (first - 1) + 1
    assert multiprocessing.active_children() == []
    # Workers being stopped may take a moment to exit and be reaped on a loaded machine.
    deadline = time.monotonic() + 10
    while _children() - before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _children() - before == set()
    assert signal.getsignal(signal.SIGPIPE) == sigpipe  # restored after the pool


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
def test_killed_spawned_worker_is_reported_and_leaves_no_process() -> None:
    """A worker started by spawn (not this process's copy) killed from outside mid-run."""
    before = _children()
    killed: list[int] = []

    def kill_one(done: int) -> None:
        if not killed:
            victim = multiprocessing.active_children()[0]
            killed.append(victim.pid or 0)
            os.kill(victim.pid or 0, signal.SIGKILL)

    # Killed from outside at any moment: the pool is found broken either while chunks are in
    # flight ("while chunks N-M") or at the next submit with none in flight ("before chunk N").
    with pytest.raises(
        WorkerError, match=r"a worker process died .* (while chunks? \d+|before chunk \d+)"
    ):
        corpus_result(
            Meteor(CONFIG),
            iter(PAIRS * 5),
            jobs=2,
            chunk_size=2,
            progress=kill_one,
            start_method="spawn",
        )
    assert killed
    assert multiprocessing.active_children() == []
    deadline = time.monotonic() + 10
    while _children() - before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _children() - before == set()


class _PoolBrokenAtSubmit:
    """A process pool whose workers died before any result was asked for: the second
    ``submit`` raises, as ``ProcessPoolExecutor`` does once it knows it is broken."""

    def __init__(self, failing: int) -> None:
        self.submitted = 0
        self.failing = failing

    def __enter__(self) -> _PoolBrokenAtSubmit:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def submit(self, *args: object) -> Future[Any]:
        from concurrent.futures.process import BrokenProcessPool

        self.submitted += 1
        if self.submitted == self.failing:
            raise BrokenProcessPool("A child process terminated abruptly")
        return Future()  # never finishes: its worker is gone


@pytest.mark.parametrize(
    ("failing", "message"),
    [
        (2, r"^a worker process died .* while chunk 1 \(segments 1-2\) were being scored"),
        (1, r"^a worker process died .* before chunk 1 \(segments 1-2\) could be scored"),
    ],
)
def test_pool_found_broken_at_submit_is_a_worker_error(
    monkeypatch: pytest.MonkeyPatch, failing: int, message: str
) -> None:
    """Under load a killed worker can break the pool before the next result is asked for;
    ``submit`` then raises BrokenProcessPool, which used to escape as is. The chunks in
    flight are named, or the one that could not be submitted when none was."""
    monkeypatch.setattr(pool, "_pool", lambda *args: _PoolBrokenAtSubmit(failing))
    with pytest.raises(WorkerError, match=message):
        corpus_result(Meteor(CONFIG), iter(PAIRS), jobs=2, chunk_size=2)


def test_worker_error_is_a_meteor_eval_error() -> None:
    from meteor_eval.errors import MeteorEvalError

    assert issubclass(WorkerError, MeteorEvalError)


@pytest.mark.parametrize("jobs", [1, 2])
def test_work_budget_error_names_its_line(jobs: int) -> None:
    pairs = list(PAIRS)
    # 3,000 x 3,000 pairs of one repeated word: 9 million candidate pairs, above 5 million.
    pairs[26] = (" ".join(["word"] * 3_000), [" ".join(["word"] * 3_000)])
    with limits.work_budget(meteor15=5_000_000), pytest.raises(WorkBudgetError) as caught:
        list(segment_rows(Meteor(CONFIG), iter(pairs), jobs=jobs, chunk_size=10))
    assert str(caught.value) == (
        "line 27: METEOR (meteor15) would take 9,000,000 candidate pairs on this segment, above "
        "its work budget of 5,000,000 (meteor15); raise it with --work-budget meteor15=N, "
        "METEOR_EVAL_WORK_BUDGET or meteor_eval.limits.work_budget() (see docs/limits.md)"
    )
    # It crosses process boundaries intact.
    again = pickle.loads(pickle.dumps(caught.value))
    assert (again.line, again.units, again.budget, again.kind) == (
        27,
        9_000_000,
        5_000_000,
        "meteor15",
    )
    assert SegmentTooLongError is WorkBudgetError  # the deprecated name still catches it


@pytest.mark.parametrize("flavour", ["meteor15", "paper2005", "nltk"])
def test_meteor_budget_counts_work_not_length(flavour: str) -> None:
    scorer = Meteor(MeteorConfig.preset(flavour))  # type: ignore[arg-type]
    # 3,000 distinct words against themselves: 3,000 candidate pairs (9 million comparisons
    # for nltk), far longer than any former token limit and cheap at any budget.
    ok = " ".join(f"w{k}" for k in range(3_000))
    units = 9_000_000 if flavour == "nltk" else 3_000
    with limits.work_budget(**{flavour: units}):
        assert scorer.segment_score(ok, [ok]).score > 0.9
    with limits.work_budget(**{flavour: units - 1}):
        with pytest.raises(WorkBudgetError, match=f"would take {units:,} "):
            scorer.segment_score(ok, [ok])
        with pytest.raises(WorkBudgetError, match=r"^line 2: "):
            corpus_result(scorer, iter([("w", ["w"]), (ok, [ok])]))
    assert dict(limits.DEFAULT_WORK_BUDGET) == limits.WORK_BUDGET  # restored after the block


def test_meteor15_budget_counts_stem_pairs_with_the_stem_module() -> None:
    scorer = Meteor(MeteorConfig.preset("meteor15", modules=("exact", "stem")))
    pipeline = scorer.pipeline
    hyp = pipeline.tokenize("runs running run cat")
    ref = pipeline.tokenize("run runs dog")
    # Same stem 'run': 3 x 2 pairs (exact alone: runs-runs and run-run, 2).
    assert pipeline.candidate_pairs(hyp, ref) == 6
    exact = Meteor(MeteorConfig.preset("meteor15", modules=("exact",))).pipeline
    assert exact.candidate_pairs(hyp, ref) == 2


def test_repeated_word_refused_at_the_default_budget() -> None:
    """One word repeated 17,321 times on both sides: 300,017,041 candidate pairs, above the
    default 300 million; refused before any candidate is built (it would take gigabytes)."""
    repeated = " ".join(["the"] * 17_321)
    with pytest.raises(WorkBudgetError, match="300,017,041 candidate pairs"):
        Meteor(CONFIG).segment_score(repeated, [repeated])


def test_rouge_budget_only_for_the_quadratic_variants() -> None:
    long = " ".join(f"w{k % 50}" for k in range(2_001))
    linear = Rouge(RougeConfig(types=("rouge1", "rouge2", "rougeS")))
    with limits.work_budget(1):
        assert linear.segment_score(long, [long])["rouge1"].fmeasure == 1.0
    with limits.work_budget(rouge=2_001 * 2 - 1):
        for variant, label in (
            ("rougeL", "ROUGE-L"),
            ("rougeW", "ROUGE-W"),
            ("rougeLsum", "ROUGE-Lsum"),
        ):
            with pytest.raises(WorkBudgetError, match=f"^{label} would take 4,002 LCS table"):
                Rouge(RougeConfig(types=(variant,))).segment_score(long, ["a b"])
    unlimited = Rouge(RougeConfig(types=("rougeSU",), skip_distance=-1))
    with pytest.raises(WorkBudgetError, match="ROUGE-SU without a skip limit would take "):
        unlimited.segment_score("a b", [" ".join(["w"] * 8_000)])  # 31,996,000 skip bigrams


def test_rouge_budget_names_the_segment_past_the_first_chunk() -> None:
    """The compiled corpus path scores 8,192 segments a chunk; a segment over the budget in a
    later chunk is named by its index in the corpus, not in its chunk."""
    from meteor_eval.metrics.rouge import _ROUGE_ROWS, CHUNK

    if _ROUGE_ROWS is None:
        pytest.skip("compiled kernels not built")
    long = " ".join(f"w{k % 50}" for k in range(2_001))
    hyps = ["a b"] * (CHUNK + 10)
    hyps[CHUNK + 5] = long
    refs = [["a b c"]] * len(hyps)
    refs[CHUNK + 5] = [long]
    with limits.work_budget(rouge=2_001 * 2_001 - 1), pytest.raises(WorkBudgetError) as info:
        Rouge(RougeConfig(types=("rougeL",))).corpus_score(hyps, refs)
    assert info.value.index == CHUNK + 5
