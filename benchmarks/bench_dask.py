"""Throughput and memory of the Dask engine: 1 and 2 worker processes against one local process.

Writes ``--segments`` segments (default 1,000,000: the xray system and reference of
``../shared/data/meteor15`` repeated) to a temporary folder, then scores them with METEOR
(``--modules``, default exact,stem,synonym, ``--norm``) and BLEU:

* ``local``: the library in this process (``parallel.corpus_result``, ``jobs=1``);
* ``dask N``: :func:`meteor_eval.distributed.corpus_result` on a ``LocalCluster`` of N worker
  processes (cluster start not timed; workers read their byte ranges of the files).

Scores must be identical. Printed per row: seconds, segments per second, speed-up over local,
and the peak resident memory of each worker process (``resource.getrusage`` in the worker).

Run from the repository root::

    python benchmarks/bench_dask.py                      # 1,000,000 segments
    python benchmarks/bench_dask.py --segments 200000 --workers 1 2

On a real cluster, give ``--scheduler tcp://HOST:8786`` and paths on storage every worker sees;
see docs/performance.md ("Scoring on a cluster").
"""

from __future__ import annotations

import argparse
import resource
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--segments", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--modules", default="exact,stem,synonym")
    parser.add_argument("--scheduler", help="an existing scheduler instead of local clusters")
    parser.add_argument("--chunk-size", type=int, default=4096)
    args = parser.parse_args()

    from meteor_eval import distributed
    from meteor_eval.io import iter_segments
    from meteor_eval.parallel import corpus_result

    metrics: dict[str, Any] = {
        "meteor": Meteor(
            MeteorConfig.preset(
                "meteor15", normalization="norm", modules=tuple(args.modules.split(","))
            )
        ),
        "bleu": Bleu(),
    }
    with tempfile.TemporaryDirectory() as tmp:
        files = _write(Path(tmp), args.segments)
        print(f"{args.segments:,} segments, chunks of {args.chunk_size} lines")
        print(
            f"{'metric':<7} {'engine':<9} {'s':>8} {'seg/s':>10} {'speed-up':>9} {'MB/worker':>16}"
        )
        for name, metric in metrics.items():
            start = time.perf_counter()
            local = corpus_result(metric, iter_segments(files[0], files[1:]))[0]
            base = time.perf_counter() - start
            rate = args.segments / base
            print(
                f"{name:<7} {'local':<9} {base:>8.1f} {rate:>10,.0f} {1.0:>8.2f}x "
                f"{_peak_mb():>16.0f}"
            )
            targets = [args.scheduler] if args.scheduler else [f"local:{n}" for n in args.workers]
            for target in targets:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    client, close = distributed.connect(target)
                try:
                    client.run(metric.signature)  # workers up before timing
                    start = time.perf_counter()
                    result = distributed.corpus_result(
                        metric, client, files=files, chunk_size=args.chunk_size
                    )
                    seconds = time.perf_counter() - start
                    if result != local:
                        raise SystemExit(f"{name}: the cluster's score differs from local")
                    peaks = client.run(_peak_mb)
                finally:
                    close()
                memory = "/".join(f"{mb:.0f}" for mb in peaks.values())
                label = "dask " + target.partition(":")[2] if target.startswith("local") else target
                rate = args.segments / seconds
                print(
                    f"{name:<7} {label:<9} {seconds:>8.1f} {rate:>10,.0f} "
                    f"{base / seconds:>8.2f}x {memory:>16}"
                )


if __name__ == "__main__":
    main()
