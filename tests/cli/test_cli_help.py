"""Every command's ``--help`` works under ``python -OO`` (which strips docstrings) and prints
exactly what it prints in normal mode (same output, same exit status; ``jar-compat --help`` is
the jar's usage on stderr and status 2): no description may come from a ``__doc__``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from meteor_eval.cli import _COMMANDS, main

SRC = str(Path(__file__).resolve().parents[2] / "src")
COLUMNS = "100"


@pytest.mark.parametrize(
    "arguments",
    [["--help"]] + [[name.replace("_", "-"), "--help"] for name in _COMMANDS],
    ids=lambda arguments: arguments[0],
)
def test_help_under_OO_is_the_help_of_normal_mode(
    arguments: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("COLUMNS", COLUMNS)
    try:
        status = main(arguments)
    except SystemExit as exit_info:
        status = exit_info.code
    normal = capsys.readouterr()
    optimised = subprocess.run(
        [sys.executable, "-OO", "-m", "meteor_eval", *arguments],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env={**os.environ, "PYTHONPATH": SRC, "COLUMNS": COLUMNS},
    )
    assert optimised.returncode == status, optimised.stderr
    assert optimised.stderr == normal.err
    assert optimised.stdout == normal.out
    assert normal.out or normal.err
