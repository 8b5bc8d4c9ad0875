"""Speed of ``jar-compat Trainer`` against the METEOR 1.5 jar's ``Trainer`` on the same grid.

Runs both commands as a user would (a fresh process each, wall time, best of ``--repeat``) on a
fixture of ``tests/data/trainer`` with a one-point grid (the cost of reading and aligning the
data) and with a larger grid (``--grid``: ``small`` 1,620 points, ``large`` 64,800 points), checks
that both print the same bytes, and prints a table. The grid's own cost is the difference
between the two rows of a tool.

Needs Java and ``meteor-1.5.jar`` (inside the installed ``pycocoevalcap``, or ``--jar``) and an
English paraphrase table for meteor-eval. Run from the repository root::

    python benchmarks/bench_trainer.py                        # segcor, large grid
    python benchmarks/bench_trainer.py --task rank --grid small
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from _common import official_jar_or_exit  # noqa: E402

FIXTURES = ROOT / "tests" / "data" / "trainer"

ONE_POINT = ["-i", "0.85 0.2 0.6 0.75 1.0 0.6 0.8 0.6", "-f", "0.85 0.2 0.6 0.75 1.0 0.6 0.8 0.6"]
GRIDS = {
    # 4 x 5 x 3 x 3 x 1 x 3 x 3 x 1 = 1,620 parameter sets
    "small": [
        "-i", "0.6 0.0 0.2 0.6 1.0 0.4 0.6 0.0",
        "-f", "0.9 1.0 0.5 1.0 1.0 0.8 1.0 0.0",
        "-s", "0.1 0.25 0.15 0.2 0.05 0.2 0.2 0.05",
    ],
    # 10 x 9 x 5 x 4 x 1 x 3 x 3 x 4 = 64,800 parameter sets
    "large": [
        "-i", "0.5 0.0 0.2 0.7 1.0 0.2 0.2 0.0",
        "-f", "0.95 2.0 0.6 1.0 1.0 0.6 0.6 0.6",
        "-s", "0.05 0.25 0.1 0.1 0.05 0.2 0.2 0.2",
    ],
}  # fmt: skip


def _run(command: list[str], repeat: int) -> tuple[float, bytes]:
    best, stdout = float("inf"), b""
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            proc = subprocess.run(command, capture_output=True, cwd=tmp, check=True)
            best = min(best, time.perf_counter() - start)
        stdout = proc.stdout
    return best, stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", choices=("segcor", "spearman", "rank"), default="segcor")
    parser.add_argument("--grid", choices=tuple(GRIDS), default="large")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--jar", type=Path, default=None)
    args = parser.parse_args()
    data = str(FIXTURES / ("rank" if args.task == "rank" else "segcor"))
    jar = [
        "java",
        "-Xmx2G",
        "-cp",
        str(args.jar or official_jar_or_exit()),
        "Trainer",
        args.task,
        data,
    ]
    ours = [sys.executable, "-m", "meteor_eval", "jar-compat", "Trainer", args.task, data]
    rows = []
    for label, grid in (("1 point", ONE_POINT), (f"{args.grid} grid", GRIDS[args.grid])):
        jar_time, jar_out = _run([*jar, *grid], args.repeat)
        our_time, our_out = _run([*ours, *grid], args.repeat)
        points = jar_out.count(b"\n")
        rows.append((label, points, jar_time, our_time, jar_out == our_out))
    print(f"Trainer {args.task} on {data}, wall seconds, best of {args.repeat}")
    print(f"{'grid':<12} {'points':>8} {'jar':>9} {'meteor-eval':>12} {'same bytes':>11}")
    for label, points, jar_time, our_time, same in rows:
        print(f"{label:<12} {points:>8,} {jar_time:>9.2f} {our_time:>12.2f} {same!s:>11}")
    (_, _, jar1, our1, _), (_, points, jar2, our2, _) = rows
    print(
        f"grid only: jar {jar2 - jar1:.2f} s, meteor-eval {our2 - our1:.2f} s for {points:,} points"
    )


if __name__ == "__main__":
    main()
