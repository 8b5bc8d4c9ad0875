"""The command's cyclic garbage collector: off while it starts, its start-up objects frozen,
on for the run, everything frozen before the interpreter exits; and only when the command is
the program (``main()`` without arguments), never for a caller's ``main(argv)``."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

import pytest

from meteor_eval.cli import main

HYP = "the cat sat on the mat\non the mat sat the cat\nzebra\n" * 20
REF = "the cat sat on the mat\nthe cat was sitting\nzebras\n" * 20

# Runs ``meteor-eval score`` as the program (``main()`` reading sys.argv), recording the
# collector's state when the command itself starts and after ``main`` returns.
_DRIVER = """
import gc, json, sys
import meteor_eval.cli as cli
import meteor_eval.cli.score as score

seen = {}
run = score.run

def spy(args):
    seen["enabled_in_run"] = gc.isenabled()
    seen["frozen_in_run"] = gc.get_freeze_count()
    return run(args)

score.run = spy
seen["enabled_before"] = gc.isenabled()
sys.argv = ["meteor-eval", *sys.argv[1:]]
status = cli.main()
seen["status"] = status
seen["enabled_after"] = gc.isenabled()
seen["frozen_after"] = gc.get_freeze_count()
print(json.dumps(seen), file=sys.stderr)
"""


@pytest.fixture
def files(tmp_path: Path) -> list[str]:
    hyp, ref = tmp_path / "hyp", tmp_path / "ref"
    hyp.write_text(HYP, encoding="utf-8")
    ref.write_text(REF, encoding="utf-8")
    return [str(hyp), str(ref)]


def _score_args(files: list[str], *extra: str) -> list[str]:
    return ["score", "--hyp", files[0], "--ref", files[1], "--lang", "en", "--format", "json",
            "--no-progress", "--modules", "exact,stem", *extra]  # fmt: skip


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_program_freezes_start_up_and_collects_during_the_run(
    files: list[str], jobs: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = _score_args(files, "--jobs", jobs)
    done = subprocess.run(
        [sys.executable, "-c", _DRIVER, *args], capture_output=True, text=True, check=True
    )
    seen = json.loads(done.stderr.strip().splitlines()[-1])
    assert seen["status"] == 0
    assert seen["enabled_before"] and seen["enabled_in_run"] and seen["enabled_after"]
    # start-up objects frozen before the run; more frozen after it, before the exit
    assert seen["frozen_in_run"] > 1000
    assert seen["frozen_after"] > seen["frozen_in_run"]
    # the same output as a caller's in-process run
    assert main(args) == 0
    assert json.loads(done.stdout) == json.loads(capsys.readouterr().out)


def test_callers_main_leaves_the_collector_alone(
    files: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    frozen = gc.get_freeze_count()
    assert gc.isenabled()
    assert main(_score_args(files)) == 0
    assert json.loads(capsys.readouterr().out)["systems"]
    assert gc.isenabled()
    assert gc.get_freeze_count() == frozen


def test_program_keeps_a_disabled_collector_disabled(files: list[str]) -> None:
    driver = _DRIVER.replace("seen = {}", "seen = {}\ngc.disable()")
    done = subprocess.run(
        [sys.executable, "-c", driver, *_score_args(files)],
        capture_output=True,
        text=True,
        check=True,
    )
    seen = json.loads(done.stderr.strip().splitlines()[-1])
    assert seen["status"] == 0
    assert not seen["enabled_in_run"] and not seen["enabled_after"]
