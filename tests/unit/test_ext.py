"""The one loader of the compiled kernels (``meteor_eval._ext``): what it hands out and reports.

The kernels' results are compared with their pure-Python twins elsewhere (``test_compiled_*``
and ``test_beam_equivalence``); these tests pin down which module or function each caller gets,
under ``METEOR_EVAL_PURE_PYTHON=1``, without the extension and with a build that lacks kernels.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from meteor_eval import _ext

SRC = Path(__file__).resolve().parents[2] / "src" / "meteor_eval"
needs_build = pytest.mark.skipif(_ext.built_module() is None, reason="extension not built")


def _partial_build(*names: str) -> SimpleNamespace:
    """A stand-in for an older build that has only the functions ``names``."""
    return SimpleNamespace(**{name: (lambda *args: None) for name in names})


def test_kernels_name_every_function_of_the_module_once() -> None:
    functions = [name for names in _ext.KERNELS.values() for name in names]
    assert len(functions) == len(set(functions)) == 43
    assert list(_ext.KERNELS) == [
        "normalise",
        "hash",
        "stem",
        "candidates",
        "beam",
        "stats",
        "pair",
        "greedy",
        "index",
        "text",
        "bleu",
        "lcs",
        "rouge",
        "front",
        "caption",
        "ptb",
        "exact",
    ]


@needs_build
def test_the_built_module_has_exactly_the_listed_functions() -> None:
    module = _ext.built_module()
    public = {name for name in dir(module) if not name.startswith("_")}
    assert public == {name for names in _ext.KERNELS.values() for name in names}


@needs_build
def test_every_kernel_is_in_use_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(_ext.PURE_PYTHON_VARIABLE, raising=False)
    assert _ext.kernel_status() == dict.fromkeys(_ext.KERNELS, True)
    assert _ext.compiled_kernels("align", "word_stats") is _ext.built_module()
    assert _ext.compiled_function("java_hash") is _ext.built_module().java_hash  # type: ignore[union-attr]
    assert _ext.compiled_kernels("align", "no_such_kernel") is None
    assert _ext.compiled_function("no_such_kernel") is None


def test_pure_python_forced_turns_every_kernel_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_ext.PURE_PYTHON_VARIABLE, "1")
    assert _ext.pure_python_forced()
    assert _ext.kernel_status() == dict.fromkeys(_ext.KERNELS, False)
    assert _ext.compiled_kernels("align") is None
    assert _ext.compiled_function("normalize_line") is None
    # The module itself stays reachable, for the parity tests that compare both on purpose.
    assert _ext.built_module() is _ext._BUILT
    assert _ext.kernels_summary() == "kernels: pure Python (METEOR_EVAL_PURE_PYTHON=1)"


@pytest.mark.parametrize("value", ["0", "", "true", "yes"])
def test_only_the_value_1_forces_pure_python(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv(_ext.PURE_PYTHON_VARIABLE, value)
    assert not _ext.pure_python_forced()


def test_without_the_extension_nothing_is_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(_ext.PURE_PYTHON_VARIABLE, raising=False)
    monkeypatch.setattr(_ext, "_BUILT", None)
    assert _ext.built_module() is None
    assert _ext.kernel_status() == dict.fromkeys(_ext.KERNELS, False)
    assert _ext.compiled_kernels() is None
    assert _ext.kernels_summary() == "kernels: pure Python (extension not built)"


def test_an_older_build_reports_the_kernels_it_lacks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(_ext.PURE_PYTHON_VARIABLE, raising=False)
    # "candidates" needs all four of its functions: paraphrase_root is missing.
    build = _partial_build("normalize_line", "align", "align_stages", "equal_keys", "paraphrase")
    monkeypatch.setattr(_ext, "_BUILT", build)
    status = _ext.kernel_status()
    assert [kernel for kernel, used in status.items() if used] == ["normalise", "beam"]
    assert _ext.compiled_kernels("equal_keys") is build
    assert _ext.kernels_summary() == (
        "kernels: compiled (normalise, beam); "
        "pure Python (hash, stem, candidates, stats, pair, greedy, index, text, bleu, lcs, rouge, "
        "front, caption, ptb, exact: not in this build)"
    )
    monkeypatch.setattr(_ext, "_BUILT", _partial_build())
    assert _ext.kernels_summary() == "kernels: pure Python (no kernel in this build)"


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


_IMPORT_BY_NAME = re.compile(r"import_module\(\s*[\"']meteor_eval\._ext\._kernels")
_READS_VARIABLE = re.compile(r"(environ|getenv)\W[^\n]*PURE_PYTHON")


def test_only_the_loader_imports_the_compiled_module() -> None:
    """No other module imports ``_kernels`` or reads the environment variable itself."""
    offenders = []
    for path in SRC.rglob("*.py"):
        if path == SRC / "_ext" / "__init__.py":
            continue
        text = path.read_text(encoding="utf-8")
        imported = _imported_modules(path)
        if (
            "meteor_eval._ext._kernels" in imported
            or _IMPORT_BY_NAME.search(text)
            or _READS_VARIABLE.search(text)
        ):
            offenders.append(path.relative_to(SRC).as_posix())
    assert offenders == []


def test_text_and_resources_import_nothing_from_align() -> None:
    """The data flows one way: text and resources sit above matching and alignment."""
    offenders = sorted(
        path.relative_to(SRC).as_posix()
        for folder in ("text", "resources", "match")
        for path in (SRC / folder).rglob("*.py")
        if any(module.startswith("meteor_eval.align") for module in _imported_modules(path))
    )
    assert offenders == []


def test_the_loader_imports_nothing_of_the_package() -> None:
    modules = _imported_modules(SRC / "_ext" / "__init__.py")
    assert not {module for module in modules if module.startswith("meteor_eval")}


@pytest.mark.skipif(
    os.environ.get("METEOR_EVAL_REQUIRE_EXTENSION") != "1",
    reason="only where METEOR_EVAL_REQUIRE_EXTENSION=1 asks for the compiled kernels (CI)",
)
def test_the_required_extension_is_built_from_the_current_sources() -> None:
    """CI asks for the extension: it must load, and in a source tree be newer than every C file.

    The build falls back to pure Python when a C file does not compile, and an editable install
    then keeps the previous build in the tree: this catches both, which the parity tests cannot
    (the twins give the same numbers).
    """
    module = _ext.built_module()
    assert module is not None, "METEOR_EVAL_REQUIRE_EXTENSION=1 but the extension is not built"
    built = Path(str(module.__file__))
    if built.parent == SRC / "_ext":
        sources = sorted((SRC / "_ext").glob("*.[ch]"))
        assert sources
        stale = [path.name for path in sources if path.stat().st_mtime > built.stat().st_mtime]
        assert not stale, f"{built.name} is older than {', '.join(stale)}: rebuild it"
