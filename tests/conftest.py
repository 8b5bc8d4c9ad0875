"""Shared test helpers: where the shared data lives and whether oracles are installed."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Test this checkout's code even if another copy of meteor-eval is installed.
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))
SHARED = ROOT.parent / "shared"
METEOR_DATA = SHARED / "data" / "meteor15"
GOLDEN = Path(__file__).resolve().parent / "reference" / "golden"


def jar_path() -> Path | None:
    """The official meteor-1.5.jar shipped by pycocoevalcap, if it and Java are installed."""
    if shutil.which("java") is None:
        return None
    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is None or not spec.submodule_search_locations:
        return None
    jar = Path(next(iter(spec.submodule_search_locations))) / "meteor" / "meteor-1.5.jar"
    return jar if jar.is_file() else None


@pytest.fixture(scope="session")
def meteor_data() -> Path:
    """``../shared/data/meteor15`` (skips when the shared folder is absent)."""
    if not METEOR_DATA.is_dir():
        pytest.skip("../shared/data/meteor15 is not available")
    return METEOR_DATA


@pytest.fixture(scope="session")
def golden_dir() -> Path:
    """``tests/reference/golden``: committed outputs of the official tools."""
    return GOLDEN
