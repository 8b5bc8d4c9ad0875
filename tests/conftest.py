"""Shared test helpers: where the shared data lives and whether oracles are installed."""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Test this checkout's code even if another copy of meteor-eval is installed.
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))
# The scripts' shared helpers (scripts/_common.py), for the tests that load or run a script;
# appended, so that no script's module name hides another module.
if str(ROOT / "scripts") not in sys.path:
    sys.path.append(str(ROOT / "scripts"))

from _common import official_jar  # noqa: E402

SHARED = ROOT.parent / "shared"
METEOR_DATA = SHARED / "data" / "meteor15"
GOLDEN = Path(__file__).resolve().parent / "reference" / "golden"


@pytest.fixture(scope="session")
def meteor_data() -> Path:
    """``../shared/data/meteor15`` (skips when the shared folder is absent)."""
    if not METEOR_DATA.is_dir():
        pytest.skip("../shared/data/meteor15 is not available")
    return METEOR_DATA


@pytest.fixture(scope="session")
def xray_head(
    tmp_path_factory: pytest.TempPathFactory, meteor_data: Path
) -> Callable[[int], dict[str, str]]:
    """Files of the first ``n`` segments of the xray data: ``sys1`` and ``sys2`` (the two
    systems) and ``ref`` (their reference), made once per ``n``; a test may add its own keys."""
    made: dict[int, dict[str, str]] = {}

    def head(n: int) -> dict[str, str]:
        if n not in made:
            folder = tmp_path_factory.mktemp(f"xray{n}")
            made[n] = {}
            for name, source in (
                ("sys1", "xray-system1.hyp"),
                ("sys2", "xray-system2.hyp"),
                ("ref", "xray-reference"),
            ):
                lines = (meteor_data / source).read_text(encoding="utf-8").splitlines()[:n]
                path = folder / f"{name}.txt"
                path.write_text("\n".join(lines) + "\n", encoding="utf-8")
                made[n][name] = str(path)
        return dict(made[n])

    return head


JarCli = Callable[..., tuple[int, str, str]]


def _jar_cli(argv: list[str], folder: Path, stdin: bytes = b"") -> tuple[int, str, str]:
    from meteor_eval.cli.jar_compat import run_jar

    out, err = io.StringIO(), io.StringIO()
    source = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    with contextlib.chdir(folder):
        status = run_jar(argv, stdin=source, stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="session")
def jar_cli() -> JarCli:
    """The jar-compatible command line in this process: ``jar_cli(argv, folder, stdin=b"")``
    runs ``argv`` inside ``folder`` (where the jar's relative paths and side files go) and
    gives its exit status, standard output and standard error."""
    return _jar_cli


@pytest.fixture(scope="session")
def jar_file() -> Path:
    """The official meteor-1.5.jar shipped by pycocoevalcap, to read (skips without it)."""
    jar = official_jar()
    if jar is None:
        pytest.skip("meteor-1.5.jar (pycocoevalcap) is not installed")
    return jar


@pytest.fixture(scope="session")
def live_jar() -> Path:
    """The official meteor-1.5.jar, to run (skips without it or without java)."""
    jar = official_jar(need_java=True)
    if jar is None:
        pytest.skip("java or meteor-1.5.jar (pycocoevalcap) is not installed")
    return jar


@pytest.fixture(scope="session")
def golden_dir() -> Path:
    """``tests/reference/golden``: committed outputs of the official tools."""
    return GOLDEN
