"""A new user's first run: the paraphrase index build, in a new process and an empty cache.

Rows (each a new process with ``METEOR_EVAL_CACHE`` pointing at a fresh temporary folder, the
table being pycocoevalcap's ``paraphrase-en.gz`` or ``--table``):

* ``index build``: ``open_index(table, "en")`` alone (what the first run adds);
* ``first run``: ``python -m meteor_eval score --example --norm`` on the empty cache (the build
  plus scoring the 30 example segments with all four modules);
* ``later run``: the same command again, the index built.

For each: wall time, CPU time (user + system of the process, from ``wait4``), peak resident
memory, and the first digits of the SHA-256 of the index written (identical for every source
tree, or the build is wrong). ``--src DIR`` adds the same rows for another source tree, e.g. a
checkout from before the vectorised build; ``--repeat N`` keeps the fastest of N runs.

Run from the repository root::

    python benchmarks/bench_first_run.py
    python benchmarks/bench_first_run.py --src ../main/src --repeat 3
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_BUILD = (
    "import sys; from pathlib import Path; "
    "from meteor_eval.resources.paraphrases import open_index; "
    "open_index(Path(sys.argv[1]), 'en')"
)


def _run(command: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """(wall s, CPU s, peak RSS MB) of one process, which must succeed."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"failed ({process.returncode}): {' '.join(command)}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def _index_digest(cache: Path) -> str:
    (index,) = cache.glob("paraphrase-*.idx")
    return hashlib.sha256(index.read_bytes()).hexdigest()[:12]


def measure(src: Path, table: Path, repeat: int) -> list[tuple[str, float, float, float, str]]:
    """Rows for one source tree (fastest of ``repeat`` runs each)."""
    env = {**os.environ, "PYTHONPATH": str(src), "METEOR_EVAL_PARAPHRASE_EN": str(table)}
    score = [sys.executable, "-m", "meteor_eval", "score", "--example", "--norm"]
    best: dict[str, tuple[float, float, float, str]] = {}
    for _ in range(repeat):
        with tempfile.TemporaryDirectory(prefix="bench-first-run-") as folder:
            cache = Path(folder)
            env["METEOR_EVAL_CACHE"] = str(cache)
            timings = {"index build": _run([sys.executable, "-c", _BUILD, str(table)], env)}
            digest = _index_digest(cache)
            for path in cache.iterdir():
                if path.is_dir():
                    shutil.rmtree(path)
                else:
                    path.unlink()
            timings["first run"] = _run(score, env)
            timings["later run"] = _run(score, env)
            for name, (wall, cpu, rss) in timings.items():
                if name not in best or wall < best[name][0]:
                    best[name] = (wall, cpu, rss, digest if name == "index build" else "")
    return [(name, *values) for name, values in best.items()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--table", type=Path, help="paraphrase table (default: pycocoevalcap's)")
    parser.add_argument("--src", type=Path, action="append", default=[], help="another tree")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    table = args.table
    if table is None:
        sys.path.insert(0, str(ROOT / "src"))
        from meteor_eval.resources.paraphrases import find_paraphrase_table

        table = find_paraphrase_table("en")
    print(f"table: {table} ({table.stat().st_size:,} bytes); repeat {args.repeat}\n")
    print("| source | run | wall s | CPU s | peak RSS MB | index sha256 |")
    print("|---|---|---:|---:|---:|---|")
    for src in [ROOT / "src", *args.src]:
        label = os.path.relpath(src.resolve(), ROOT)
        for name, wall, cpu, rss, digest in measure(src.resolve(), table, args.repeat):
            print(f"| {label} | {name} | {wall:.2f} | {cpu:.2f} | {rss:.0f} | {digest} |")
            label = ""


if __name__ == "__main__":
    main()
