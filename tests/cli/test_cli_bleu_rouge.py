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
    assert payload["score"] == pytest.approx(35.979535642857684, abs=1e-9)
    assert payload["signature"].startswith("bleu|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|")
    assert [s["score"] for s in payload["segments"]] == pytest.approx(
        [50.81327481546149, 17.593148699905946], abs=1e-9
    )


def test_rouge_json_keyed_by_variant(tmp_path: Path) -> None:
    done = _run(
        tmp_path, "rouge", "--format", "json", "--sentence-level", "--types", "rouge1,rougeSU"
    )
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert set(payload) == {"rouge1", "rougeSU"}
    assert payload["rouge1"]["segments"][0] == {"precision": 0.6, "recall": 0.6, "fmeasure": 0.6}
    assert payload["rouge1"]["precision"] == pytest.approx(0.8)


def test_rouge_rejects_unknown_variant(tmp_path: Path) -> None:
    done = _run(tmp_path, "rouge", "--types", "rougeX")
    assert done.returncode != 0
    assert "rougeX" in done.stderr


def test_compare_prints_every_metric(tmp_path: Path) -> None:
    done = _run(tmp_path, "compare", "--format", "tsv")
    assert done.returncode == 0, done.stderr
    names = [line.split("\t")[0] for line in done.stdout.splitlines()]
    assert names == [
        "meteor", "bleu", "rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW", "rougeS", "rougeSU",
    ]  # fmt: skip
