"""The Dask engine: on a LocalCluster of 2 worker processes every metric gives the score and
segment list of one local process, bit for bit, reading files by byte ranges on the workers or
sent from the client."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from meteor_eval.cli import main
from meteor_eval.errors import InputError
from meteor_eval.io import read_segments
from meteor_eval.metrics.bleu import Bleu
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.metrics.rouge import Rouge, RougeConfig

distributed = pytest.importorskip("distributed")

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "meteor15"
pytestmark = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is missing")
N = 600


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    folder = tmp_path_factory.mktemp("dask")
    out = []
    for source in ("xray-system1.hyp", "xray-reference", "xray-system2.hyp"):
        lines = (DATA / source).read_text(encoding="utf-8").splitlines()[:N]
        path = folder / source
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        out.append(str(path))
    return out


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    from meteor_eval.distributed import connect

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dask_client, close = connect("local:2")
    try:
        yield dask_client
    finally:
        close()


def test_local_cluster_workers_do_not_profile_themselves(client: Any) -> None:
    """A cluster started here runs its workers without Dask's statistical profiler (a thread
    that takes the interpreter lock from the scoring every 10 ms) or the lock's sampling; the
    settings apply to that cluster only, not to this process's Dask configuration."""
    import dask

    def settings() -> tuple[object, ...]:
        import dask

        get = dask.config.get
        return (
            get("distributed.worker.profile.enabled"),
            get("distributed.admin.system-monitor.gil.enabled"),
            get("distributed.admin.tick.interval"),
            get("distributed.worker.memory.monitor-interval"),
            get("distributed.admin.system-monitor.interval"),
        )

    answers = client.run(settings)
    assert len(answers) == 2
    assert set(answers.values()) == {(False, False, "200ms", "1s", "2s")}
    assert dask.config.get("distributed.worker.profile.enabled") is True


METRICS = {
    "meteor": lambda: Meteor(
        MeteorConfig.preset("meteor15", normalization="norm", modules=("exact", "stem"))
    ),
    "meteor-mean": lambda: Meteor(MeteorConfig.preset("meteor15", aggregate="mean")),
    "bleu": Bleu,
    "rouge": lambda: Rouge(RougeConfig(types=("rouge1", "rougeL", "rougeSU"))),
}


@pytest.mark.parametrize("name", list(METRICS))
def test_cluster_equals_one_process(client: Any, files: list[str], name: str) -> None:
    from meteor_eval.distributed import corpus_result, segment_rows

    metric = METRICS[name]()
    hyps, refs = read_segments(files[0], files[1:])
    assert corpus_result(metric, client, files=files, chunk_size=97) == metric.corpus_score(
        hyps, refs
    )
    rows = segment_rows(metric, client, files=files, chunk_size=128, shared_storage=False)
    assert [row for row, _ in rows] == metric.corpus_rows(hyps, refs)
    assert {n for _, n in rows} == {2}
    pairs = list(zip(hyps, refs, strict=True))
    assert corpus_result(metric, client, pairs=pairs, chunk_size=50) == metric.corpus_score(
        hyps, refs
    )


def test_worker_errors_and_warnings_reach_the_client(client: Any, tmp_path: Path) -> None:
    from meteor_eval.distributed import corpus_result

    hyp = tmp_path / "hyp.txt"
    ref = tmp_path / "ref.txt"
    hyp.write_bytes(b"a b\nc d\re\nf\n")
    ref.write_bytes(b"a b\nc d e\nf\xff\n")
    with pytest.raises(InputError, match=r"ref.txt:3: invalid UTF-8"):
        corpus_result(Bleu(), client, files=[str(hyp), str(ref)], chunk_size=2)
    ref.write_bytes(b"a b\nc d e\n")
    with pytest.raises(InputError, match=r"has 3 lines but .*ref\.txt has 2"):
        corpus_result(Bleu(), client, files=[str(hyp), str(ref)])
    # The first tasks are submitted before the files are scanned whole: the scan still fails
    # the run.
    hyp.write_bytes(b"a b\n" * 40)
    ref.write_bytes(b"a b\n" * 39)
    with pytest.raises(InputError, match=r"has 40 lines but .*ref\.txt has 39"):
        corpus_result(Bleu(), client, files=[str(hyp), str(ref)], chunk_size=4)
    # Read by the client (no shared storage), the files' lengths are checked before any line
    # is decoded or warned about: the error names the lengths, and nothing is warned.
    hyp.write_bytes(b"a\xff b\rc\n" + b"a b\n" * 40)
    ref.write_bytes(b"a b\n" * 40)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(InputError, match=r"has 41 lines but .*ref\.txt has 40"):
            corpus_result(
                Bleu(), client, files=[str(hyp), str(ref)], chunk_size=4, shared_storage=False
            )
    hyp.write_bytes(b"a b\nc d\re\nf\n")
    ref.write_bytes(b"a b\nc d e\nf\n")
    with pytest.warns(UserWarning, match=r"hyp.txt:2: a carriage return"):
        corpus_result(Bleu(), client, files=[str(hyp), str(ref)], chunk_size=1)


def test_work_budget_of_the_client_reaches_the_workers(client: Any) -> None:
    from meteor_eval import limits
    from meteor_eval.distributed import corpus_result
    from meteor_eval.errors import WorkBudgetError

    pairs = [("the cat sat", ["the cat sat"]), ("a b c d", ["a b c d"])]
    rouge = Rouge(RougeConfig(types=("rougeL",)))
    with limits.work_budget(rouge=15), pytest.raises(WorkBudgetError, match="16 LCS table cells"):
        corpus_result(rouge, client, pairs=pairs, chunk_size=1)
    # The workers' own budgets were not changed: the default lets it through.
    assert corpus_result(rouge, client, pairs=pairs, chunk_size=1) == rouge.corpus_score(
        [h for h, _ in pairs], [r for _, r in pairs]
    )


def test_command_line_scheduler_equals_jobs_1(
    files: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["compare", "--hyp", files[0], files[2], "--ref", files[1], "--modules", "exact"]
    argv += ["--sentence-level", "-f", "json"]
    assert main(argv) == 0
    local = json.loads(capsys.readouterr().out)
    assert main([*argv, "--scheduler", "local:2"]) == 0
    assert json.loads(capsys.readouterr().out) == local
    assert main([*argv, "--scheduler", "local:2", "--jobs", "2"]) == 2
    assert "--jobs and --scheduler are alternatives" in capsys.readouterr().err
    assert main([*argv, "--scheduler", "local:x"]) == 2
    assert "local:N" in capsys.readouterr().err


@pytest.mark.parametrize("sentence_level", [False, True])
def test_empty_input_warns_on_the_cluster_as_in_one_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sentence_level: bool
) -> None:
    """A system and metric with no segment is warned of by either engine (a statistics row per
    segment or a total per task), with the same output."""
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    argv = ["compare", "--hyp", str(empty), str(empty), "--names", "a,b", "--ref", str(empty)]
    argv += ["-f", "json", "--modules", "exact", *(["--sentence-level"] if sentence_level else [])]
    assert main(argv) == 0
    local = capsys.readouterr()
    warning = "meteor-eval: warning: no segments to score (empty input): the score is 0.0\n"
    assert local.err == warning  # two systems and three metrics, warned of once
    assert main([*argv, "--scheduler", "local:2"]) == 0
    cluster = capsys.readouterr()
    assert cluster.out == local.out
    # (a cluster started here may warn of its own ports and sockets too)
    assert [line for line in cluster.err.splitlines(True) if "segments" in line] == [warning]


def test_empty_input_warns_in_the_library_total(client: Any) -> None:
    from meteor_eval.distributed import corpus_total, segment_rows
    from meteor_eval.errors import EmptyInputWarning

    bleu = Bleu()
    with pytest.warns(EmptyInputWarning, match="no segments to score"):
        assert corpus_total(bleu, client, pairs=[]).count == 0
    with warnings.catch_warnings():  # rows of no segment are an empty list, no score
        warnings.simplefilter("error", EmptyInputWarning)
        assert segment_rows(bleu, client, pairs=[]) == []


def test_file_tasks_shrink_at_the_end_and_read_as_their_units(tmp_path: Path) -> None:
    """Tasks of files join consecutive units (``_file_tasks``): at most ``most`` of them,
    smaller towards the end so that the workers finish together, every unit once and in
    order; a joined task reads as its units one after the other."""
    from meteor_eval import io as mio
    from meteor_eval.distributed import _file_tasks

    hyp, ref = tmp_path / "hyp", tmp_path / "ref"
    hyp.write_text("".join(f"the cat {k}\n" for k in range(203)), encoding="utf-8")
    ref.write_text("".join(f"a cat {k % 5}\n" for k in range(203)), encoding="utf-8")
    paths = [str(hyp), str(ref)]
    units = mio.file_chunks(paths, 3)  # 68 units, the last of 2 lines
    tasks = list(_file_tasks(units, 4, 2))
    sizes = [task.lines for task in tasks]
    assert sum(sizes) == 203 and max(sizes) == 12
    assert sizes[:5] == [12] * 5 and sizes[-4:] == [3, 3, 3, 2]
    assert sizes == sorted(sizes, reverse=True)
    assert [task.first_line for task in tasks] == [sum(sizes[:k]) for k in range(len(sizes))]
    read = [pair for task in tasks for pair in mio.read_chunk(task, "strict")]
    assert read == [pair for unit in units for pair in mio.read_chunk(unit, "strict")]
    assert len(read) == 203
