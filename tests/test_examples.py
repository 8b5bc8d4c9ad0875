"""The example scripts in examples/ run as a user runs them and print what they promise (the
numbers are those of the README's worked example and of the official jar for the segment:
``java -jar meteor-1.5.jar h.txt r.txt -l en -norm -m "exact stem synonym"`` gives
0.26405361727165727)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(script: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / script)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_compare_systems_example() -> None:
    lines = _run("compare_systems.py")
    assert lines[0].startswith("baseline  meteor 0.4017 [0.3590, 0.4427]")
    assert lines[2] == "other     meteor 0.3445 [0.3052, 0.3818], p = 0.0010"
    assert lines[3].startswith("other     bleu   17.6896")
    assert lines[-1] == "test:paired-bs|n:1000|seed:12345|ci:0.95"


def test_explain_segment_example() -> None:
    lines = _run("explain_segment.py")
    assert "sitting  ~  sat  [2:1, synonym]" in "\n".join(lines)
    assert "METEOR = 0.2641" in lines
    assert any(line.startswith("penalty = 0.6 * 0.7500 ^ 0.2 = 0.5665") for line in lines)
