"""``--jobs`` through the command line as a user runs it: METEOR, BLEU, ROUGE, 100,000 segments.

The input is generated here: the xray system1 hypotheses and references
(``../shared/data/meteor15``) repeated in order to ``--segments`` lines, written to a temporary
folder (or ``--folder``). Every run is a new process (``python -m meteor_eval <command> --hyp H
--ref R --no-progress --format json --jobs N``), so each time includes start-up, reading the
files and, with ``--jobs``, starting the workers and loading their resources.

Rows: METEOR with the English defaults (``--lang en --norm``, all four modules, paraphrase index
already built), METEOR without the paraphrase module (``--modules exact,stem,synonym``), BLEU and
ROUGE (their defaults), each with every ``--jobs`` value; then METEOR with ``--jobs 2`` and each
start method. The runs are alternated ``--repeat`` times; the table gives the minimum and median
wall time, the median CPU time (user + system of every process, workers included), the speed-up
against ``--jobs 1`` (median / median, and min / min), the CPU time of the main process and of
the busiest worker (sampled every 50 ms: on a busy machine they show what the wall time would
be on free cores), and the peak resident memory of the main process and of the largest worker.
Every run of a row must give the same score, or the script stops.

A second table gives what crosses the pipes to the workers for the input: the pickled chunks of
pairs the workers received before this change against the byte ranges they receive now.

Run from the repository root::

    python benchmarks/bench_jobs.py                      # 100,000 segments, 3 repetitions
    python benchmarks/bench_jobs.py --src OLD/src --start-methods   # an older tree
    python benchmarks/bench_jobs.py --segments 20000 --repeat 1 --rows meteor bleu
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from itertools import cycle, islice
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
DATA = ROOT.parent / "shared" / "data" / "meteor15"

#: Row name -> the command's arguments besides the files and --jobs.
ROWS: dict[str, list[str]] = {
    "meteor": ["score", "--lang", "en", "--norm"],
    "meteor-nopara": ["score", "--lang", "en", "--norm", "--modules", "exact,stem,synonym"],
    "bleu": ["bleu"],
    "rouge": ["rouge"],
}


def make_inputs(folder: Path, size: int) -> tuple[Path, Path]:
    """The xray system1 pairs repeated in order to ``size`` lines: a hypothesis and a reference
    file."""
    hyps = (DATA / "xray-system1.hyp").read_text(encoding="utf-8").splitlines()
    refs = (DATA / "xray-reference").read_text(encoding="utf-8").splitlines()
    hyp_path, ref_path = folder / f"h{size}", folder / f"r{size}"
    hyp_path.write_text("\n".join(islice(cycle(hyps), size)) + "\n", encoding="utf-8")
    ref_path.write_text("\n".join(islice(cycle(refs), size)) + "\n", encoding="utf-8")
    return hyp_path, ref_path


def _descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (Linux ``/proc``)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, []))
    return found


def _sample(pid: int, seen: dict[int, tuple[float, float]]) -> None:
    """Per process: the CPU seconds and peak RSS (MB, ``VmHWM``) seen so far."""
    tick = os.sysconf("SC_CLK_TCK")
    for process in _descendants(pid):
        try:
            stat = Path(f"/proc/{process}/stat").read_text().rsplit(")", 1)[1].split()
            status = Path(f"/proc/{process}/status").read_text()
        except OSError:
            continue
        cpu = (int(stat[11]) + int(stat[12])) / tick
        hwm = next((line for line in status.splitlines() if line.startswith("VmHWM:")), "")
        rss = int(hwm.split()[1]) / 1024 if hwm else 0.0
        seen[process] = (cpu, max(rss, seen.get(process, (0.0, 0.0))[1]))


def timed(cmd: list[str], env: dict[str, str]) -> dict[str, float]:
    """One process tree: wall and CPU seconds, peak RSS of the main process and of its largest
    descendant (MB), and the score."""
    seen: dict[int, tuple[float, float]] = {}
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
        stop = threading.Event()

        def poll() -> None:
            while not stop.wait(0.05):
                _sample(proc.pid, seen)

        sampler = threading.Thread(target=poll, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        stop.set()
        sampler.join()
        out.seek(0)
        err.seek(0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{' '.join(cmd)} failed: {err.read().decode()[-2000:]}")
        result = json.loads(out.read())
    # wait4 counts the main process and the workers it reaped; a forkserver's workers are
    # reaped by the server, so the per-process samples (every 50 ms) are summed too.
    reaped = usage.ru_utime + usage.ru_stime
    sampled = sum(cpu for cpu, _ in seen.values())
    workers = [rss for pid, (_, rss) in seen.items() if pid != proc.pid]
    return {
        "wall": wall,
        "cpu": max(reaped, sampled),
        "main_mb": seen.get(proc.pid, (0.0, usage.ru_maxrss / 1024))[1],
        "worker_mb": max(workers, default=0.0),
        "main_cpu": seen.get(proc.pid, (reaped, 0.0))[0],
        "worker_cpu": max((c for p, (c, _) in seen.items() if p != proc.pid), default=0.0),
        "score": _headline(result),
    }


def _headline(result: dict[str, object]) -> float:
    """The first headline number of the JSON results schema."""
    text = json.dumps(result)
    for key in ('"score": ', '"meteor": ', '"bleu": ', '"rouge1": '):
        if key in text:
            return float(text.split(key, 1)[1].split(",", 1)[0].split("}", 1)[0])
    raise SystemExit(f"no score in {text[:200]}")


def pipe_traffic(hyp: Path, ref: Path, chunk_size: int = 256) -> tuple[int, int, int]:
    """Bytes pickled for the workers: chunks of pairs (before) and byte ranges (now), and the
    number of chunks."""
    sys.path.insert(0, str(SRC))
    from meteor_eval.io import file_chunks, iter_segments
    from meteor_eval.pool import _chunks

    pairs_bytes = sum(
        len(pickle.dumps(chunk)) for chunk in _chunks(iter_segments(str(hyp), [str(ref)]), 256)
    )
    ranges = file_chunks([str(hyp), str(ref)], chunk_size)
    return pairs_bytes, sum(len(pickle.dumps(chunk)) for chunk in ranges), len(ranges)


def _runs(args: argparse.Namespace) -> Iterator[tuple[str, int, str | None]]:
    for row in args.rows:
        for jobs in args.jobs:
            yield row, jobs, None
    if "meteor" in args.rows:
        for method in args.start_methods:
            yield "meteor", 2, method


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--segments", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2, 0])
    parser.add_argument("--rows", nargs="+", choices=list(ROWS), default=list(ROWS))
    parser.add_argument(
        "--start-methods", nargs="*", default=["fork", "forkserver", "spawn"], metavar="METHOD"
    )
    parser.add_argument("--folder", type=Path, help="keep the generated input here")
    parser.add_argument(
        "--src",
        type=Path,
        default=SRC,
        help="the package's source tree to time (e.g. an older "
        "checkout, with its compiled extension; give --start-methods without a value then)",
    )
    args = parser.parse_args()
    compileall.compile_dir(str(args.src), quiet=1)
    env = {**os.environ, "PYTHONPATH": str(args.src)}
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.folder or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        hyp, ref = make_inputs(folder, args.segments)
        # Untimed: builds the paraphrase index in the cache if it is not there yet.
        subprocess.run(
            [sys.executable, "-m", "meteor_eval", "score", "--example", "--norm"],
            env=env,
            check=True,
            capture_output=True,
        )
        results: dict[tuple[str, int, str | None], list[dict[str, float]]] = {}
        for _ in range(args.repeat):
            for row, jobs, method in _runs(args):
                cmd = [sys.executable, "-m", "meteor_eval", *ROWS[row], "--hyp", str(hyp)]
                cmd += ["--ref", str(ref), "--no-progress", "--format", "json"]
                cmd += ["--jobs", str(jobs)]
                if method is not None:
                    cmd += ["--start-method", method]
                results.setdefault((row, jobs, method), []).append(timed(cmd, env))
        print_table(args.segments, results)
        before, after, chunks = pipe_traffic(hyp, ref)
    print()
    print("| sent to the workers | bytes | per chunk |")
    print("|---|---:|---:|")
    print(f"| chunks of pairs (before) | {before:,} | {before // chunks:,} |")
    print(f"| byte ranges (now) | {after:,} | {after // chunks:,} |")


def print_table(
    segments: int, results: dict[tuple[str, int, str | None], list[dict[str, float]]]
) -> None:
    """The Markdown table; stops if the runs of one metric do not agree."""
    print(f"{segments:,} segments, {len(next(iter(results.values())))} runs each\n")
    print(
        "| metric | jobs | start | wall s min | wall s median | CPU s | speed-up median (min) "
        "| main CPU s | busiest worker CPU s | main MB | worker MB |"
    )
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    median: Callable[[list[float]], float] = statistics.median
    for (row, jobs, method), runs in results.items():
        scores = {run["score"] for runs_of_row in _of(results, row) for run in runs_of_row}
        if len(scores) != 1:
            raise SystemExit(f"{row}: the runs disagree: {sorted(scores)}")
        base = results[(row, 1, None)]
        walls = [run["wall"] for run in runs]
        base_walls = [run["wall"] for run in base]
        speed = median(base_walls) / median(walls)
        speed_min = min(base_walls) / min(walls)
        print(
            f"| {row} | {jobs} | {method or 'auto'} | {min(walls):.2f} | {median(walls):.2f} "
            f"| {median([r['cpu'] for r in runs]):.2f} | {speed:.2f}x ({speed_min:.2f}x) "
            f"| {median([r['main_cpu'] for r in runs]):.2f} "
            f"| {median([r['worker_cpu'] for r in runs]):.2f} "
            f"| {max(r['main_mb'] for r in runs):.0f} | {max(r['worker_mb'] for r in runs):.0f} |"
        )


def _of(
    results: dict[tuple[str, int, str | None], list[dict[str, float]]], row: str
) -> list[list[dict[str, float]]]:
    return [runs for (name, _, _), runs in results.items() if name == row]


if __name__ == "__main__":
    main()
