"""CLI: ``meteor-eval bleu``, ``rouge`` and ``compare`` (JSON shape, values, exit codes)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    hyp = tmp_path / "hyp.txt"
    ref = tmp_path / "ref.txt"
    hyp.write_text("He works on machine learning.\nThe starry night.\n", encoding="utf-8")
    ref.write_text("I work on machine learning.\nThe night was starry.\n", encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "meteor_eval", *args, "--hyp", str(hyp), "--ref", str(ref)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(SRC)},
        check=False,
    )


def test_bleu_json_with_segments(tmp_path: Path) -> None:
    done = _run(tmp_path, "bleu", "--format", "json", "--sentence-level")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    (system,) = payload["systems"]
    assert system["bleu"]["score"] == pytest.approx(35.979535642857684, abs=1e-9)
    assert payload["signature"]["bleu"].startswith(
        "bleu|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|"
    )
    assert [s["bleu"]["score"] for s in system["segments"]] == pytest.approx(
        [50.81327481546149, 17.593148699905946], abs=1e-9
    )


def test_rouge_json_keyed_by_variant(tmp_path: Path) -> None:
    done = _run(
        tmp_path, "rouge", "--format", "json", "--sentence-level", "--types", "rouge1,rougeSU"
    )
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    (system,) = payload["systems"]
    assert set(system) == {"name", "rouge1", "rougeSU", "segments"}
    assert system["segments"][0]["rouge1"] == {
        "score": 0.6,
        "precision": 0.6,
        "recall": 0.6,
        "fmeasure": 0.6,
    }
    assert system["rouge1"]["precision"] == pytest.approx(0.8)


def test_rouge_rejects_unknown_variant(tmp_path: Path) -> None:
    done = _run(tmp_path, "rouge", "--types", "rougeX")
    assert done.returncode != 0
    assert "rougeX" in done.stderr


def test_compare_prints_every_metric(tmp_path: Path) -> None:
    types = "rouge1,rouge2,rougeL,rougeLsum,rougeW,rougeS,rougeSU"
    done = _run(tmp_path, "compare", "--format", "json", "--types", types)
    assert done.returncode == 0, done.stderr
    (system,) = json.loads(done.stdout)["systems"]
    assert list(system)[1:] == [
        "meteor", "bleu", "rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW", "rougeS", "rougeSU",
    ]  # fmt: skip
