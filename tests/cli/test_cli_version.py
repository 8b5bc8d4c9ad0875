"""``meteor-eval --version``: the version, then which kernels run compiled."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from meteor_eval import _ext
from meteor_eval._version import __version__
from meteor_eval.cli import main

SRC = str(Path(__file__).resolve().parents[2] / "src")
ALL_KERNELS = (
    "normalise, hash, stem, candidates, beam, stats, pair, greedy, index, text, bleu, lcs, rouge, "
    "front, caption, ptb, exact"
)


def _version(pure_python: bool) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC}
    env.pop(_ext.PURE_PYTHON_VARIABLE, None)
    if pure_python:
        env[_ext.PURE_PYTHON_VARIABLE] = "1"
    return subprocess.run(
        [sys.executable, "-m", "meteor_eval", "--version"],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )


def test_version_prints_two_lines_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert out == f"meteor-eval {__version__}\n{_ext.kernels_summary()}\n"


@pytest.mark.skipif(_ext.built_module() is None, reason="compiled extension not built")
def test_version_names_every_compiled_kernel() -> None:
    done = _version(pure_python=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"meteor-eval {__version__}",
        f"kernels: compiled ({ALL_KERNELS})",
    ]


def test_version_says_when_pure_python_is_forced() -> None:
    done = _version(pure_python=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"meteor-eval {__version__}",
        "kernels: pure Python (METEOR_EVAL_PURE_PYTHON=1)",
    ]


def test_version_says_when_the_extension_is_not_built(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(_ext, "_BUILT", None)
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.splitlines()[1] == "kernels: pure Python (extension not built)"
