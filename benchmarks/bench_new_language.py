"""Meteor Universal's paraphrase extraction: ``jar-compat Parex`` and ``new-language`` against
the jar's ``Parex``.

Inputs: the fixture of ``tests/data/parex`` (100 X-Ray segments, 7,166 phrase pairs) and, with
``--data ../shared/data/meteor15``, the same fixture built from all 2,489 X-Ray segments
(``scripts/make_parex_fixture.py --lines 2489``: 4,978 sentence pairs, about 183,000 phrase
pairs). Rows, each a new process:

* ``jar Parex``: ``java -Xmx2G -cp meteor-1.5.jar Parex F E TABLE E OUT`` (when the jar and Java
  are installed);
* ``jar-compat Parex``: ``python -m meteor_eval jar-compat Parex`` with the same arguments (its
  five files are compared with the jar's, decompressed);
* ``new-language``: ``python -m meteor_eval new-language`` on the same inputs (with the pivot
  corpus and the paraphrase index build).

For each: wall time, CPU time (user + system of the process, from ``wait4``) and peak resident
memory. ``--repeat N`` keeps the fastest of N runs. Run from the repository root::

    python benchmarks/bench_new_language.py --data ../shared/data/meteor15
"""

from __future__ import annotations

import argparse
import gzip
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "data" / "parex"
sys.path.insert(0, str(ROOT / "scripts"))

from _common import official_jar  # noqa: E402


def measure(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and peak memory (KiB) of one process."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(command)}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def best(
    runs: int, command: list[str], cwd: Path, env: dict[str, str], out: Path
) -> tuple[float, float, int]:
    """The fastest of ``runs`` runs (``out`` removed before each)."""
    results = []
    for _ in range(runs):
        shutil.rmtree(out, ignore_errors=True)
        results.append(measure(command, cwd, env))
    return min(results)


def same_output(a: Path, b: Path) -> bool:
    """Whether two Parex folders hold the same content."""
    for name in ("parex.f", "parex.e", "parex.raw.gz", "parex.group.gz", "paraphrase.gz"):
        x, y = (a / name).read_bytes(), (b / name).read_bytes()
        if name.endswith(".gz"):
            x, y = gzip.decompress(x), gzip.decompress(y)
        if x != y:
            return False
    return True


def bench(
    name: str, inputs: Path, runs: int, work: Path
) -> list[tuple[str, str, float, float, int]]:
    """Every row for one input folder."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "METEOR_EVAL_CACHE": str(work / "cache")}
    args = ["corpus.f", "corpus.e", "phrase-table.gz", "corpus.e"]
    rows = []
    jar = official_jar(need_java=True)
    if jar is not None:
        out = work / f"{name}-jar"
        command = ["java", "-Xmx2G", "-cp", str(jar), "Parex", *args, str(out)]
        rows.append((name, "jar Parex", *best(runs, command, inputs, env, out)))
    out = work / f"{name}-ours"
    command = [sys.executable, "-m", "meteor_eval", "jar-compat", "Parex", *args, str(out)]
    rows.append((name, "jar-compat Parex", *best(runs, command, inputs, env, out)))
    if jar is not None and not same_output(work / f"{name}-jar", out):
        raise SystemExit(f"{name}: jar-compat Parex differs from the jar")
    out = work / f"{name}-folder"
    command = [
        sys.executable,
        "-m",
        "meteor_eval",
        "-q",
        "new-language",
        "--corpus",
        "corpus.e",
        "--foreign-corpus",
        "corpus.f",
        "--phrase-table",
        "phrase-table.gz",
        "--out",
        str(out),
    ]
    rows.append((name, "new-language", *best(runs, command, inputs, env, out)))
    return rows


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, help="../shared/data/meteor15, for the large input")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        rows += bench("fixture (7,166 pairs)", FIXTURE, args.repeat, work)
        if args.data is not None:
            big = work / "big"
            subprocess.run(
                [
                    sys.executable,
                    str(ROOT / "scripts" / "make_parex_fixture.py"),
                    "--data",
                    str(args.data),
                    "--out",
                    str(big),
                    "--lines",
                    "2489",
                ],
                env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
                check=True,
                stdout=subprocess.DEVNULL,
            )
            rows += bench("X-Ray, all (about 183,000 pairs)", big, args.repeat, work)
    print(f"{'input':34} {'command':18} {'wall s':>7} {'CPU s':>7} {'peak MB':>8}")
    for name, what, wall, cpu, peak in rows:
        print(f"{name:34} {what:18} {wall:7.2f} {cpu:7.2f} {peak / 1024:8.0f}")


if __name__ == "__main__":
    main()
