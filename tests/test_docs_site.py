"""The documentation site builds with ``mkdocs build --strict`` (no broken link, no unresolved
reference), and its command-line reference, generated from the parser, lists every command
and every option."""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _hook() -> object:
    spec = importlib.util.spec_from_file_location(
        "cli_reference", ROOT / "docs/hooks/cli_reference.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cli_reference_lists_every_command_and_option() -> None:
    from meteor_eval.cli import build_parser

    hook = _hook()
    text = hook.reference()  # type: ignore[attr-defined]
    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in subparsers.choices.items():
        assert f"## `meteor-eval {name}`" in text
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue  # -h/--help: on every command
            for option in action.option_strings:
                assert f"`{option}`" in text, (name, option)


@pytest.mark.slow
def test_site_builds_strictly(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    pytest.importorskip("mkdocstrings")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert (tmp_path / "site" / "cli" / "index.html").is_file()
    api = (tmp_path / "site" / "api" / "index.html").read_text(encoding="utf-8")
    assert "paired_tests" in api and "ComparisonResult" in api
