"""``.pre-commit-config.yaml`` runs the project's lint tools, configured as the project's lint is.

The lint tools are the ``lint`` dependency group of ``pyproject.toml`` (ruff, mypy) and their
configuration is ``[tool.ruff]`` and ``[tool.mypy]`` there; the commands are those of
``CONTRIBUTING.md``. The hooks must run exactly those tools from the environment (no pinned
copies that could drift from the group's versions), without overriding the configuration, over
the same folders. Nothing is installed or downloaded.
"""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Options that would replace or bypass pyproject.toml's settings.
OVERRIDES = ("--config", "--select", "--ignore", "--extend-select", "--line-length", "--isolated")
OVERRIDES += ("--no-strict", "--ignore-missing-imports", "--config-file", "--fix-only")


@pytest.fixture(scope="module")
def hooks() -> list[dict[str, Any]]:
    yaml = pytest.importorskip("yaml")
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    assert [repo["repo"] for repo in config["repos"]] == ["local"]
    found: list[dict[str, Any]] = config["repos"][0]["hooks"]
    return found


@pytest.fixture(scope="module")
def pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def command(hook: dict[str, Any]) -> list[str]:
    return [*shlex.split(hook["entry"]), *hook.get("args", [])]


def by_command(hooks: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(command(h)[0], command(h)[1]): h for h in hooks}


def test_hooks_use_the_installed_tools(hooks: list[dict[str, Any]]) -> None:
    for hook in hooks:
        assert hook["language"] == "system", hook["id"]
        assert "additional_dependencies" not in hook


def test_hooks_run_exactly_the_lint_group(
    hooks: list[dict[str, Any]], pyproject: dict[str, Any]
) -> None:
    group = pyproject["dependency-groups"]["lint"]
    tools = {re.split(r"[<>=!~\[ ;]", spec, maxsplit=1)[0] for spec in group}
    assert tools == {command(hook)[0] for hook in hooks} == {"ruff", "mypy"}
    for tool in tools:
        assert tool in pyproject["tool"], f"[tool.{tool}] configures {tool}"


def test_ruff_checks_and_formats_the_linted_folders(hooks: list[dict[str, Any]]) -> None:
    found = by_command(hooks)
    check = found[("ruff", "check")]
    fmt = found[("ruff", "format")]
    # CONTRIBUTING.md: ruff check src tests benchmarks scripts; ruff format --check src tests.
    for folder in ("src", "tests", "benchmarks", "scripts"):
        assert re.search(check["files"], f"{folder}/module.py"), folder
    for folder in ("src", "tests"):
        assert re.search(fmt["files"], f"{folder}/module.py"), folder
    assert not re.search(fmt["files"], "benchmarks/module.py")
    for hook in (check, fmt):
        assert "python" in hook["types_or"]
        assert hook.get("pass_filenames", True)


def test_mypy_checks_the_package_with_the_strict_configuration(
    hooks: list[dict[str, Any]], pyproject: dict[str, Any]
) -> None:
    mypy = by_command(hooks)[("mypy", "src")]
    assert command(mypy) == ["mypy", "src"]
    assert mypy["pass_filenames"] is False  # the whole package, as `mypy src`, not single files
    assert pyproject["tool"]["mypy"]["strict"] is True


def test_no_hook_overrides_the_configuration(hooks: list[dict[str, Any]]) -> None:
    for hook in hooks:
        for argument in command(hook):
            assert not argument.startswith(OVERRIDES), (hook["id"], argument)


def test_contributing_documents_the_same_commands() -> None:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    for line in (
        "ruff check src tests benchmarks scripts",
        "ruff format --check src tests",
        "mypy src",
    ):
        assert line in text
