"""The fuzzers of ``scripts/fuzz`` run clean for a few seconds each, and report what fails.

CI runs each fuzzer's deterministic mutation loop (``--no-atheris``, fixed seed) for a bounded
number of inputs; ``docs/testing.md`` gives the longer, coverage-guided runs with atheris.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parents[1] / "scripts" / "fuzz"
sys.path.insert(0, str(FUZZ))
import _driver  # noqa: E402

BOUNDS = {"fuzz_normalize.py": 4000, "fuzz_tokenize.py": 4000, "fuzz_paraphrase_index.py": 600}


@pytest.mark.slow
@pytest.mark.parametrize("script", sorted(BOUNDS))
def test_fuzzer_finds_nothing(script: str, tmp_path: Path) -> None:
    command = [sys.executable, str(FUZZ / script), "--no-atheris", f"-runs={BOUNDS[script]}"]
    run = subprocess.run(
        [*command, "-seed=1", "-max_total_time=10"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert "no failure" in run.stderr
    assert list(tmp_path.iterdir()) == []  # no crash file


def test_the_mutation_loop_reports_a_failing_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    seen: list[bytes] = []

    def target(data: bytes) -> None:
        seen.append(data)
        if b"\xff" in data:
            raise ValueError("found it")

    assert _driver.mutation_loop(target, [b"abc"], ["-runs=100000", "-seed=3"]) == 1
    crashes = list(tmp_path.glob("crash-*"))
    assert len(crashes) == 1 and b"\xff" in crashes[0].read_bytes()
    assert seen[0] == b"abc" and len(seen) > 1
    assert _driver.mutation_loop(lambda data: None, [b"abc"], ["-runs=50"]) == 0
