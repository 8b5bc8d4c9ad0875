"""``meteor-eval score --jobs N`` and streamed input: the same bytes as a single process."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

from meteor_eval.cli import main

HYP = "the cat sat on the mat\non the mat sat the cat\nthe cats were sitting\n\nzebra\n" * 40
REF = "the cat sat on the mat\nthe cat sat on the mat\nthe cat was sitting\nx\nzebras\n" * 40
REF2 = "on the mat sat the cat\nthe mat\ncats sat\n\nzebra\n" * 40


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str, str]:
    paths = []
    for name, text in (("hyp", HYP), ("ref", REF), ("ref2", REF2)):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return paths[0], paths[1], paths[2]


def _outputs(
    args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str], tag: str
) -> tuple[int, str, str, str, str]:
    stats, align = tmp_path / f"stats.{tag}", tmp_path / f"align.{tag}"
    status = main([*args, "--stats", str(stats), "--alignments", str(align)])
    captured = capsys.readouterr()
    return (
        status,
        captured.out,
        captured.err,
        stats.read_text(encoding="utf-8"),
        align.read_text(encoding="utf-8"),
    )


@pytest.mark.parametrize(
    "extra",
    [
        ["--sentence-level"],
        ["--format", "json", "--sentence-level"],
        ["--format", "tsv", "--sentence-level", "--aggregate", "mean"],
        ["--format", "json"],
    ],
)
def test_jobs_give_identical_output(
    files: tuple[str, str, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
) -> None:
    hyp, ref, ref2 = files
    args = ["score", "--hyp", hyp, "--ref", ref, "--ref", ref2, "--norm", *extra]
    args += ["--modules", "exact,stem,synonym"]
    one = _outputs([*args, "--jobs", "1"], tmp_path, capsys, "1")
    two = _outputs([*args, "--jobs", "2"], tmp_path, capsys, "2")
    assert one == two
    assert one[0] == 0
    assert len(one[3].splitlines()) == 201  # the header, then one row per segment
    assert one[3].startswith("#meteor-eval-stats ")
    assert len(one[4].splitlines()) == 200


def test_line_count_mismatch_reports_both_counts_and_writes_nothing(
    files: tuple[str, str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, ref, _ = files
    short = tmp_path / "short"
    short.write_text("one\ntwo\n", encoding="utf-8")
    stats = tmp_path / "stats.out"
    for jobs in ("1", "2"):
        args = ["score", "--hyp", hyp, "--ref", ref, "--ref", str(short), "--jobs", jobs]
        assert main([*args, "--modules", "exact", "--stats", str(stats)]) == 1
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err == (
            f"meteor-eval score: error: {hyp} has 200 lines but {short} has 2; "
            "every reference file needs one line per hypothesis\n"
        )
        assert not stats.exists()


OPTS = ("--modules", "exact", "--sentence-level", "--jobs")


def test_stdin_and_jobs(files: tuple[str, str, str]) -> None:
    hyp, ref, _ = files
    outs = []
    for jobs in ("1", "2"):
        proc = subprocess.run(
            [sys.executable, "-m", "meteor_eval", "score", "--hyp", "-", "--ref", ref, *OPTS, jobs],
            input=Path(hyp).read_bytes(),
            capture_output=True,
            check=True,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")},
        )
        assert proc.stderr == b""  # no progress bar: stderr is not a terminal
        outs.append(proc.stdout)
    assert outs[0] == outs[1]
    assert outs[0].count(b"\nSegment ") == 199


def test_invalid_jobs(files: tuple[str, str, str], capsys: pytest.CaptureFixture[str]) -> None:
    hyp, ref, _ = files
    assert main(["score", "--hyp", hyp, "--ref", ref, "--jobs", "-2"]) == 2
    assert "jobs: -2 is invalid" in capsys.readouterr().err


METHODS = [
    m for m in ("fork", "forkserver", "spawn") if m in multiprocessing.get_all_start_methods()
]


@pytest.mark.skipif(sys.platform != "linux", reason="auto forks on Linux only")
def test_auto_forks_the_command_line_workers(files: tuple[str, str, str]) -> None:
    """``--jobs 2`` in a new process: if its metric imports numpy, whose BLAS starts threads,
    they are seen starting (a plain METEOR run does not import it), so ``auto`` still forks
    (with the score of one process)."""
    hyp, ref, _ = files
    code = (
        "import sys\n"
        "from meteor_eval import processes\n"
        "from meteor_eval.cli import main\n"
        "choose = processes.choose_start_method\n"
        "def spy(method=None):\n"
        "    chosen = choose(method)\n"
        "    print('chosen', chosen, file=sys.stderr)\n"
        "    return chosen\n"
        "processes.choose_start_method = spy\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "METEOR_EVAL_START_METHOD"}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2] / "src")
    outs = []
    for jobs in ("1", "2"):
        args = ["score", "--hyp", hyp, "--ref", ref, "--norm", "--jobs", jobs, "--no-progress"]
        proc = subprocess.run(
            [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env
        )
        assert proc.returncode == 0, proc.stderr
        outs.append(proc.stdout)
    assert outs[0] == outs[1]
    assert "chosen fork" in proc.stderr.splitlines()


@pytest.mark.parametrize("method", METHODS)
def test_every_start_method_gives_the_bytes_of_one_process(
    files: tuple[str, str, str], tmp_path: Path, method: str
) -> None:
    """As a user runs it: a new process, with files read by the workers as byte ranges."""
    hyp, ref, ref2 = files
    args = ["score", "--hyp", hyp, "--ref", ref, "--ref", ref2, "--norm", "--sentence-level"]
    args += ["--modules", "exact,stem,synonym", "--format", "tsv"]
    outs = []
    for extra in (["--jobs", "1"], ["--jobs", "2", "--start-method", method]):
        stats = tmp_path / f"stats.{len(outs)}"
        proc = subprocess.run(
            [sys.executable, "-m", "meteor_eval", *args, *extra, "--stats", str(stats)],
            capture_output=True,
            check=True,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")},
        )
        assert proc.stderr == b""
        outs.append((proc.stdout, stats.read_bytes()))
    assert outs[0] == outs[1]
    assert outs[0][0].count(b"\n") == 201  # the header, then one line per segment


@pytest.mark.parametrize(
    ("extra", "env", "message"),
    [
        (
            ["--jobs", "2", "--start-method", "threads"],
            None,
            "argument --start-method: invalid choice: 'threads' (choose from 'auto', 'fork', "
            "'forkserver', 'spawn')",
        ),
        (
            ["--start-method", "spawn"],
            None,
            "error: --start-method: no worker process starts with --jobs 1; give --jobs N (N > 1, "
            "or 0 for one per CPU)",
        ),
        (
            ["--start-method", "spawn", "--scheduler", "local:2"],
            None,
            "error: --start-method is for --jobs workers, not --scheduler",
        ),
        (
            ["--jobs", "2"],
            "thread",
            "error: METEOR_EVAL_START_METHOD: 'thread' is invalid; allowed: auto, fork, "
            "forkserver, spawn",
        ),
    ],
)
def test_bad_start_method_is_a_usage_error(
    files: tuple[str, str, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    extra: list[str],
    env: str | None,
    message: str,
) -> None:
    hyp, ref, _ = files
    if env is not None:
        monkeypatch.setenv("METEOR_EVAL_START_METHOD", env)
    try:
        status = main(["score", "--hyp", hyp, "--ref", ref, "--modules", "exact", *extra])
    except SystemExit as exc:  # argparse exits by itself, after its usage lines
        status = exc.code  # type: ignore[assignment]
    assert status == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip().splitlines()[-1].endswith(message)
