"""``scripts/build_wordnet.py`` rebuilds the shipped WordNet files byte for byte.

Runs when Debian's ``wordnet-base`` is installed (``apt-get install wordnet-base``: its files in
``/usr/share/wordnet``) in the revision the manifest records; the same check by hand::

    PYTHONPATH=src python scripts/build_wordnet.py --out-dir /tmp/wordnet
    sha256sum /tmp/wordnet/*.xz src/meteor_eval/resources/data/wordnet/*.xz
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from pathlib import Path

import pytest

from meteor_eval.resources.registry import data_file

ROOT = Path(__file__).resolve().parents[2]
WORDNET_DIR = Path("/usr/share/wordnet")


@pytest.mark.slow
def test_build_reproduces_the_shipped_files(tmp_path: Path) -> None:
    manifest = json.loads(data_file("wordnet", "manifest.json").read_text(encoding="utf-8"))
    inputs = manifest["source"]["files"]
    if not all((WORDNET_DIR / name).is_file() for name in inputs):
        pytest.skip("Debian's wordnet-base is not installed")
    for name, digest in inputs.items():
        if hashlib.sha256((WORDNET_DIR / name).read_bytes()).hexdigest() != digest:
            pytest.skip(f"/usr/share/wordnet/{name} is from another wordnet-base revision")
    spec = importlib.util.spec_from_file_location(
        "build_wordnet", ROOT / "scripts/build_wordnet.py"
    )
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    sys.modules["build_wordnet"] = build
    spec.loader.exec_module(build)

    written = build.build(WORDNET_DIR, tmp_path, text=True)
    assert written["text_form"] == manifest["text_form"]
    assert written["outputs"] == manifest["outputs"]
    assert written["counts"] == manifest["counts"]
    for name in manifest["outputs"]:
        assert (tmp_path / name).read_bytes() == data_file("wordnet", name).read_bytes()
    for name, digest in manifest["text_form"].items():
        assert hashlib.sha256((tmp_path / name).read_bytes()).hexdigest() == digest
