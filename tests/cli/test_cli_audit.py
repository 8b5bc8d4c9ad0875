"""Edge cases of every command found by the audit of issue #28, one test per case: each is a
one-line error naming the option, file, line or field, or the correct result.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meteor_eval.cli import main

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "data" / "train_tiny.jsonl"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _one_error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


# -- 1. train: an undefined objective never wins ----------------------------------------------


def _judgements(tmp_path: Path, human: object = None) -> str:
    rows = [json.loads(line) for line in TINY.read_text(encoding="utf-8").splitlines()]
    path = tmp_path / "judgements.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for row in rows:
            if human is not None:
                row["human"] = human
            out.write(json.dumps(row) + "\n")
    return str(path)


def test_train_the_wrong_way_round_writes_real_parameters_and_warns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "p.json"
    status, stdout, err = _run(
        capsys, "train", "--input", str(TINY), "--human-kind", "rank",
        "--modules", "exact,stem,synonym", "--restarts", "1", "--out", str(out),
    )  # fmt: skip
    assert status == 0
    assert "nan" not in stdout
    assert "tuned objective" in " ".join(stdout.split()) and "--human-kind" in err
    doc = json.loads(out.read_text(encoding="utf-8"))
    # Not the degenerate alpha 0, beta 0, gamma 1 that scores every segment 0.
    assert (doc["beta"], doc["gamma"]) != (0.0, 1.0)
    assert doc["training"]["value"] == pytest.approx(-0.3225, abs=5e-5)


def test_train_with_every_human_number_equal_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "p.json"
    status, _, err = _run(
        capsys, "train", "--input", _judgements(tmp_path, 1.0),
        "--modules", "exact,stem,synonym", "--out", str(out),
    )  # fmt: skip
    assert status == 1 and not out.exists()
    line = _one_error_line(err)
    assert "'xx-en'" in line and "every human number is the same" in line and "kendall" in line


@pytest.mark.parametrize("objective", ["pearson", "spearman", "tau-like"])
def test_train_system_and_ranking_objectives_refuse_constant_humans(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], objective: str
) -> None:
    status, _, err = _run(
        capsys, "train", "--input", _judgements(tmp_path, 0.5), "--objective", objective,
        "--modules", "exact,stem,synonym", "--out", str(tmp_path / "p.json"),
    )  # fmt: skip
    assert status == 1
    assert objective in _one_error_line(err)
