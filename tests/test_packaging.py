"""Packaging rules, read from the configuration (nothing is built here).

The C sources of the compiled kernels go in the sdist, which builds them, and stay out of wheels;
setup.py builds every C file of ``_ext/`` into the one extension module the loader imports; ``all``
is every other extra. Building both archives and listing them is a release step
(``python -m build``), too slow for the test suite.
"""

from __future__ import annotations

import ast
import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXT = ROOT / "src" / "meteor_eval" / "_ext"


def _pyproject() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        return tomllib.load(handle)


def _setup_constant(name: str) -> object:
    """The literal value of a module-level constant of setup.py."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == name for target in node.targets
        ):
            return ast.literal_eval(node.value)
    raise AssertionError(f"setup.py has no constant {name}")


def _manifest() -> list[list[str]]:
    lines = (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines()
    return [line.split() for line in lines if line.strip() and not line.startswith("#")]


def test_wheels_leave_out_the_c_sources() -> None:
    setuptools = _pyproject()["tool"]["setuptools"]  # type: ignore[index]
    excluded = setuptools["exclude-package-data"]["*"]
    for name in ("beam.c", "kernels.h", "_kernels.cpython-311-x86_64-linux-gnu.so"):
        assert any(fnmatch.fnmatch(name, pattern) for pattern in excluded), name
    # Everything else under the package ships, so only the exclusion keeps the sources out.
    assert setuptools["package-data"]["*"] == ["*", "**/*"]


def test_the_sdist_keeps_the_c_sources() -> None:
    manifest = _manifest()
    assert ["recursive-include", "src/meteor_eval/_ext", "*.c", "*.h"] in manifest
    assert ["graft", "src/meteor_eval"] in manifest
    excluded = [pattern for line in manifest if line[0] == "global-exclude" for pattern in line[1:]]
    assert not [p for p in excluded if fnmatch.fnmatch("beam.c", p) or fnmatch.fnmatch("x.h", p)]
    assert [line for line in manifest if line[0] == "include" and "setup.py" in line]


def test_setup_builds_every_c_file_of_ext_into_one_module() -> None:
    sources = _setup_constant("SOURCES")
    assert isinstance(sources, tuple)
    assert sorted(sources) == sorted(path.name for path in EXT.glob("*.c"))
    assert sources[0] == "module.c"
    assert (EXT / "kernels.h").is_file()
    setup_text = (ROOT / "setup.py").read_text(encoding="utf-8")
    assert '"meteor_eval._ext._kernels"' in setup_text
    assert "align._beam" not in setup_text


def test_all_is_every_other_extra() -> None:
    extras = _pyproject()["project"]["optional-dependencies"]  # type: ignore[index]
    others = [
        requirement for name, group in extras.items() if name != "all" for requirement in group
    ]
    assert len(others) >= 2
    assert sorted(extras["all"]) == sorted(others)
