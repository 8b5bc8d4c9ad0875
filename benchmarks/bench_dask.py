"""Throughput and memory of the Dask engine: 1 and 2 worker processes against one local process.

Writes ``--segments`` segments (default 1,000,000: the xray system and reference of
``../shared/data/meteor15`` repeated) to a temporary folder, then scores them with METEOR
(``--modules``, default exact,stem,synonym, ``--norm``) and BLEU:

* ``local``: the library in this process (``parallel.corpus_result``, ``jobs=1``);
* ``dask N``: :func:`meteor_eval.distributed.corpus_result` on a ``LocalCluster`` of N worker
  processes (cluster start not timed; workers read their byte ranges of the files).

Scores must be identical. The engines are alternated ``--repeat`` times (each cluster started
once and kept; a run's first round includes opening the resources, in this process and in the
workers alike). Printed per row: the median and minimum wall time, segments per second and the
speed-up over local at the median, the median CPU time (this process for ``local``; this process
plus every worker for Dask, so the scheduler's and the client's work count too), the median CPU
time of this process alone (for Dask: the client and the scheduler of the local cluster, whose
work competes with the workers' on a machine with as many cores as workers), and the peak
resident memory of each worker process (``VmHWM`` in the worker).

Run from the repository root::

    python benchmarks/bench_dask.py                      # 1,000,000 segments
    python benchmarks/bench_dask.py --segments 200000 --workers 1 2 --repeat 3

On a real cluster, give ``--scheduler tcp://HOST:8786`` and paths on storage every worker sees;
see docs/performance.md ("Scoring on a cluster").
"""

from __future__ import annotations

import argparse
import resource
import statistics
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from meteor_eval.metrics.bleu import Bleu
from meteor_eval.metrics.meteor import Meteor, MeteorConfig

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "meteor15"


def _write(folder: Path, segments: int) -> list[str]:
    out = []
    for source in ("xray-system1.hyp", "xray-reference"):
        lines = (DATA / source).read_text(encoding="utf-8").splitlines()
        reps = segments // len(lines) + 1
        text = "\n".join((lines * reps)[:segments]) + "\n"
        path = folder / source
        path.write_text(text, encoding="utf-8")
        out.append(str(path))
    return out


def _peak_mb() -> float:
    """Peak resident memory of this process since it started its program, in MB.

    Linux's ``VmHWM`` where there is one: ``ru_maxrss`` survives ``fork`` + ``exec``, so a
    worker spawned by a process holding 783 MB would report 783 MB whatever it used itself.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu() -> float:
    """User + system CPU seconds of this process."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _print_row(
    name: str,
    label: str,
    walls: list[float],
    cpus: list[float],
    own: list[float],
    base: float,
    segments: int,
    memory: str,
) -> None:
    wall = statistics.median(walls)
    print(
        f"{name:<7} {label:<9} {wall:>8.2f} {min(walls):>8.2f} {segments / wall:>10,.0f} "
        f"{base / wall:>8.2f}x {statistics.median(cpus):>8.2f} {statistics.median(own):>8.2f} "
        f"{memory:>12}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--segments", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--modules", default="exact,stem,synonym")
    parser.add_argument("--scheduler", help="an existing scheduler instead of local clusters")
    parser.add_argument(
        "--chunk-size", type=int, help="segments per task at most (default: the engine's)"
    )
    parser.add_argument("--repeat", type=int, default=1, help="rounds of every engine (default 1)")
    parser.add_argument(
        "--metrics", nargs="+", choices=("meteor", "bleu"), default=["meteor", "bleu"]
    )
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat: at least 1")

    from meteor_eval import distributed
    from meteor_eval.io import iter_segments
    from meteor_eval.parallel import corpus_result

    chunk_size = args.chunk_size or distributed.DEFAULT_CHUNK_LINES

    makers: dict[str, Any] = {
        "meteor": lambda: Meteor(
            MeteorConfig.preset(
                "meteor15", normalization="norm", modules=tuple(args.modules.split(","))
            )
        ),
        "bleu": Bleu,
    }
    targets = [args.scheduler] if args.scheduler else [f"local:{n}" for n in args.workers]
    with tempfile.TemporaryDirectory() as tmp:
        files = _write(Path(tmp), args.segments)
        print(
            f"{args.segments:,} segments, tasks of at most {chunk_size} lines, "
            f"{args.repeat} round(s), engines alternated"
        )
        print(
            f"{'metric':<7} {'engine':<9} {'median s':>8} {'min s':>8} {'seg/s':>10} "
            f"{'speed-up':>9} {'CPU s':>8} {'client s':>8} {'MB/worker':>12}"
        )
        clients = []
        try:
            for target in targets:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    clients.append((target, *distributed.connect(target)))
            for name in args.metrics:
                metric = makers[name]()
                walls: dict[str, list[float]] = {}
                cpus: dict[str, list[float]] = {}
                own: dict[str, list[float]] = {}
                local = None
                for _ in range(args.repeat):
                    start, cpu = time.perf_counter(), _cpu()
                    result = corpus_result(metric, iter_segments(files[0], files[1:]))[0]
                    walls.setdefault("local", []).append(time.perf_counter() - start)
                    cpus.setdefault("local", []).append(_cpu() - cpu)
                    own.setdefault("local", []).append(cpus["local"][-1])
                    if local is not None and result != local:
                        raise SystemExit(f"{name}: two local runs differ")
                    local = result
                    for target, client, _close in clients:
                        client.run(metric.signature)  # workers up before timing
                        before = sum(client.run(_cpu).values())
                        start, cpu = time.perf_counter(), _cpu()
                        result = distributed.corpus_result(
                            metric, client, files=files, chunk_size=chunk_size
                        )
                        walls.setdefault(target, []).append(time.perf_counter() - start)
                        own.setdefault(target, []).append(_cpu() - cpu)
                        spent = _cpu() - cpu + sum(client.run(_cpu).values()) - before
                        cpus.setdefault(target, []).append(spent)
                        if result != local:
                            raise SystemExit(f"{name}: the cluster's score differs from local")
                base = statistics.median(walls["local"])
                _print_row(
                    name,
                    "local",
                    walls["local"],
                    cpus["local"],
                    own["local"],
                    base,
                    args.segments,
                    f"{_peak_mb():.0f}",
                )
                for target, client, _close in clients:
                    memory = "/".join(f"{mb:.0f}" for mb in client.run(_peak_mb).values())
                    label = (
                        "dask " + target.partition(":")[2] if target.startswith("local") else target
                    )
                    _print_row(
                        name,
                        label,
                        walls[target],
                        cpus[target],
                        own[target],
                        base,
                        args.segments,
                        memory,
                    )
        finally:
            for _target, _client, close in clients:
                close()


if __name__ == "__main__":
    main()
