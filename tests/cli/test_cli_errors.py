"""Every refused command is one line on stderr, with exit status 2 for a usage error (naming
the option) and 1 for a data or output error; output paths are checked before any scoring."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"


def _cli(*args: str, cwd: Path, **options: Any) -> subprocess.CompletedProcess[str]:
    """The command line in a child process; ``options`` go to :func:`subprocess.run`."""
    return subprocess.run(
        [sys.executable, "-m", "meteor_eval", *args],
        capture_output=True,
        text=True,
        # no bytecode: a child under a file size limit would leave cut-off caches behind
        env={"PYTHONPATH": str(SRC), "PYTHONDONTWRITEBYTECODE": "1"},
        cwd=cwd,
        check=False,
        timeout=120,
        **options,
    )


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "hyp.txt").write_text("the cat sat on the mat\na dog\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("the cat was on the mat\nthe dog\n", encoding="utf-8")
    (tmp_path / "folder").mkdir()
    (tmp_path / "bad.stats").write_bytes(b"\xff\xfe\n")
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "empty.gz").write_bytes(b"")
    return tmp_path


IO = ("--hyp", "hyp.txt", "--ref", "ref.txt")

CASES = [
    (
        ("score", *IO, "--beam", "100000000000000000000"),
        2,
        "error: --beam: beam: 100000000000000000000 ",
    ),
    (("compare", *IO, "--beam", "0"), 2, "error: --beam: beam: 0 is invalid"),
    (("score", *IO, "--jobs", "100000000000000000000"), 2, "error: --jobs: 100000000000000000000"),
    (
        ("bleu", *IO, "--max-ngram-order", "0"),
        2,
        "error: --max-ngram-order: max_ngram_order: got 0",
    ),
    (
        ("bleu", *IO, "--smooth-method", "floor", "--smooth-value", "nan"),
        2,
        "error: --smooth-value: smooth_value: got nan",
    ),
    (("bleu", *IO, "--smooth-value", "0.5"), 2, "error: --smooth-value: only --smooth-method"),
    (("rouge", *IO, "--types", "rouge9x"), 2, "error: --types: types: got 'rouge9x'"),
    (("score", *IO, "--stats", "missing/x.stats"), 2, "error: --stats: cannot write"),
    (("score", *IO, "--stats", "folder"), 2, "error: --stats: folder is a directory"),
    (("score", *IO, "--alignments", "missing/a.jsonl"), 2, "error: --alignments: cannot write"),
    (("bleu", *IO, "--stats", "x.stats", "--stats", "x.stats"), 2, "error: --stats: 2 file(s)"),
    (("score", "--from-stats", "folder"), 1, "error: folder: is a directory"),
    (("score", "--from-stats", "bad.stats"), 1, "error: bad.stats: not UTF-8 text"),
    (("score", "--example", "--hyp", "hyp.txt"), 2, "error: --example cannot be combined"),
    (
        ("score", *IO, "--modules", "exact,paraphrase", "--paraphrase-table", "empty.gz"),
        1,
        "error: paraphrase table empty.gz has no paraphrase records",
    ),
]


@pytest.mark.parametrize(("args", "status", "message"), CASES, ids=[c[2][7:30] for c in CASES])
def test_refusal_is_one_line(files: Path, args: tuple[str, ...], status: int, message: str) -> None:
    done = _cli(*args, cwd=files)
    assert done.returncode == status, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert message in lines[0]
    assert lines[0].startswith(f"meteor-eval {args[0]}: error: ")
    assert done.stdout == ""


def test_output_path_checked_before_scoring(files: Path) -> None:
    """--stats and --alignments are checked together before scoring: with a bad --alignments
    path the good --stats file is never written."""
    done = _cli("score", *IO, "--stats", "ok.stats", "--alignments", "folder", cwd=files)
    assert done.returncode == 2
    assert not (files / "ok.stats").exists()  # nothing was written: refused before scoring


def test_write_error_is_one_line(files: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("needs /dev/full")
    done = _cli("bleu", *IO, "--stats", "/dev/full", cwd=files)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "meteor-eval bleu: error: cannot write /dev/full: No space left on device"
    ]
    assert Path("/dev/full").exists()  # a device is never removed after a failed write


def _file_size_limit(limit: int) -> None:  # pragma: no cover - runs in the child
    import resource
    import signal

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_FSIZE and SIGXFSZ as on Linux")
def test_failed_side_file_is_named_and_removed(files: Path) -> None:
    """A side file that cannot be written in full (here: a 64-byte file size limit, as a full
    disk would) is named in the one-line error and not left half-written."""
    done = _cli(
        "bleu", *IO, "--stats", "out.stats", cwd=files, preexec_fn=lambda: _file_size_limit(64)
    )
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "meteor-eval bleu: error: cannot write out.stats: File too large"
    ]
    assert not (files / "out.stats").exists()


@pytest.mark.skipif(sys.platform != "linux", reason="a pipe opened again by /dev/fd, as on Linux")
def test_input_that_cannot_be_read_again_leaves_no_side_file(files: Path) -> None:
    """--stats reads the input a second time (the references' digest); a pipe gives nothing the
    second time. That is an error, and it comes before any side file is written."""
    read_end, write_end = os.pipe()
    os.write(write_end, (files / "hyp.txt").read_bytes())
    os.close(write_end)
    try:
        done = _cli(
            "score",
            *("--hyp", f"/dev/fd/{read_end}", "--ref", "ref.txt"),
            *("--stats", "s.stats", "--alignments", "a.jsonl"),
            cwd=files,
            pass_fds=(read_end,),
        )
    finally:
        os.close(read_end)
    assert done.returncode == 1
    assert f"/dev/fd/{read_end} has 0 lines but ref.txt has 2" in done.stderr
    assert not (files / "s.stats").exists()
    assert not (files / "a.jsonl").exists()


def test_empty_input_warns(files: Path) -> None:
    done = _cli("bleu", "--hyp", "empty.txt", "--ref", "empty.txt", cwd=files)
    assert done.returncode == 0
    assert done.stderr.splitlines() == [
        "meteor-eval: warning: no segments to score (empty input): the score is 0.0"
    ]


def test_warning_lines_remember_a_bounded_number_of_texts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each text once while fewer than the limit are remembered; past it, texts are shown
    without being kept (a repeat is shown again), so memory stays bounded."""
    import meteor_eval.cli as cli

    monkeypatch.setattr(cli, "_REMEMBERED", 2)
    show = cli._WarningLines()
    for text in ["a", "b", "a", "c", "c", "b"]:
        show(UserWarning(text), UserWarning, "f.py", 1)
    assert capsys.readouterr().err.split() == [
        "meteor-eval:", "warning:", "a", "meteor-eval:", "warning:", "b",
        "meteor-eval:", "warning:", "c", "meteor-eval:", "warning:", "c",
    ]  # fmt: skip
    assert show.shown == {"a", "b"}


def _repeated(files: Path, n: int) -> None:
    """long.txt and longref.txt: a short line, then one word ``n`` times on both sides."""
    (files / "long.txt").write_text("a\n" + "the " * n + "\n", encoding="utf-8")
    (files / "longref.txt").write_text("a\n" + "the " * n + "\n", encoding="utf-8")


BUDGET_ADVICE = (
    "raise it with --work-budget meteor15=N, METEOR_EVAL_WORK_BUDGET or "
    "meteor_eval.limits.work_budget() (see docs/limits.md)"
)


def test_repeated_word_refused_by_its_work_naming_file_and_line(files: Path) -> None:
    """20,000 times one word on both sides: 400 million candidate pairs, above the default
    budget of 300 million (a natural 100,000-token document has 146 million)."""
    _repeated(files, 20_000)
    done = _cli("score", "--hyp", "long.txt", "--ref", "longref.txt", cwd=files)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "meteor-eval score: error: long.txt, line 2: METEOR (meteor15) would take 400,000,000 "
        "candidate pairs on this segment, above its work budget of 300,000,000 (meteor15); "
        + BUDGET_ADVICE
    ]


@pytest.mark.parametrize("where", ["option", "environment"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_work_budget_setting_reaches_every_worker(files: Path, where: str, jobs: str) -> None:
    _repeated(files, 100)  # 10,000 candidate pairs: scored at the default budget
    args = ["score", "--hyp", "long.txt", "--ref", "longref.txt", "--jobs", jobs]
    if jobs == "2":
        args += ["--start-method", "spawn"]
    assert _cli(*args, cwd=files).returncode == 0
    env = {"METEOR_EVAL_WORK_BUDGET": "meteor15=9_999"} if where == "environment" else {}
    if where == "option":
        args += ["--work-budget", "meteor15=9999"]
    done = subprocess.run(
        [sys.executable, "-m", "meteor_eval", *args],
        capture_output=True,
        text=True,
        cwd=files,
        env={"PYTHONPATH": str(SRC), **env},
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        "meteor-eval score: error: long.txt, line 2: METEOR (meteor15) would take 10,000 "
        "candidate pairs on this segment, above its work budget of 9,999 (meteor15); "
        + BUDGET_ADVICE
    )


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("meteor15=0", "--work-budget meteor15: '0' must be at least 1"),
        ("bleu=5", "--work-budget: 'bleu=5' is not KIND=N with KIND one of meteor15, "),
        ("1.5", "--work-budget: '1.5' is not a whole number of work units"),
    ],
)
def test_bad_work_budget_is_a_usage_error(files: Path, value: str, message: str) -> None:
    done = _cli("score", *IO, "--work-budget", value, cwd=files)
    assert done.returncode == 2
    assert message in done.stderr


NEW = ("new-language", "--corpus", "hyp.txt", "--phrase-table", "empty.gz")


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("score", *IO, "--alpha", "0.5", "--alpha=0.7"), "--alpha"),
        (("bleu", *IO, "--max-ngram-order", "2", "--max-ngram-order", "3"), "--max-ngram-order"),
        ((*NEW, "--corpus", "ref.txt", "--out", "o"), "--corpus"),
        ((*NEW, "--out", "o", "--out", "p"), "--out"),
    ],
)
def test_single_valued_option_given_twice_is_refused(
    files: Path, args: tuple[str, ...], option: str
) -> None:
    done = _cli(*args, cwd=files)
    assert done.returncode == 2, done.stderr
    assert f"error: argument {option}: given more than once" in done.stderr
    assert done.stdout == ""
    assert not (files / "o").exists() and not (files / "p").exists()
