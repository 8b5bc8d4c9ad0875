"""Throughput of ``--jobs`` and memory against corpus size for ``meteor-eval score``.

Inputs are the xray system1 hypothesis/reference pairs (``../shared/data/meteor15``) repeated
and shuffled together with a fixed seed to the requested sizes, written to a temporary folder.
Every run is a new process (``python -m meteor_eval score --hyp H --ref R --lang en --norm``,
all four modules, paraphrase index already built); the table gives wall time, CPU time (user +
system, including worker processes), peak RSS of the main process, microseconds per segment
and the score, which must be the same for every ``--jobs`` value of a size.

Run from the repository root::

    python benchmarks/bench_scaling.py                         # jobs 1 and 2 on 50,000 segments
    python benchmarks/bench_scaling.py --memory 10000 1000000  # peak RSS at two sizes
"""

from __future__ import annotations

import argparse
import compileall
import json
import random
import sys
import tempfile
from pathlib import Path

from bench_meteor import _env, _timed  # same folder: run as a script from the repository root

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
DATA = ROOT.parent / "shared" / "data" / "meteor15"


def make_inputs(folder: Path, size: int, seed: int = 1) -> tuple[Path, Path]:
    """``size`` shuffled repetitions of the xray pairs as a hypothesis and a reference file."""
    hyps = (DATA / "xray-system1.hyp").read_text(encoding="utf-8").splitlines()
    refs = (DATA / "xray-reference").read_text(encoding="utf-8").splitlines()
    pairs = list(zip(hyps, refs, strict=True))
    rng = random.Random(seed)
    hyp_path, ref_path = folder / f"s{size}.hyp", folder / f"s{size}.ref"
    with hyp_path.open("w", encoding="utf-8") as h, ref_path.open("w", encoding="utf-8") as r:
        written = 0
        while written < size:
            rng.shuffle(pairs)
            for hyp, ref in pairs[: size - written]:
                h.write(hyp + "\n")
                r.write(ref + "\n")
            written += min(len(pairs), size - written)
    return hyp_path, ref_path


def run(hyp: Path, ref: Path, jobs: int) -> dict[str, float]:
    """One scoring process: wall and CPU seconds, peak RSS (MB) and the score."""
    cmd = [sys.executable, "-m", "meteor_eval", "score", "--hyp", str(hyp), "--ref", str(ref)]
    cmd += ["--lang", "en", "--norm", "--no-progress", "--format", "json", "--jobs", str(jobs)]
    try:
        out, wall, cpu, rss_mb = _timed(cmd, env=_env())  # CPU: the process and its workers
    except RuntimeError as error:
        raise SystemExit(f"scoring failed: {error}") from None
    return {"wall": wall, "cpu": cpu, "rss_mb": rss_mb, "score": float(json.loads(out)["score"])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=50_000, help="segments for the jobs runs")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--memory", type=int, nargs="*", default=[], help="sizes for RSS runs")
    parser.add_argument("--repeat", type=int, default=1, help="best of N (alternating jobs)")
    args = parser.parse_args()
    compileall.compile_dir(str(SRC / "meteor_eval"), quiet=1)
    rows = ["| segments | jobs | wall s | CPU s | peak RSS MB | us/segment | score |"]
    rows.append("|---:|---:|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        hyp, ref = make_inputs(Path(tmp), args.size)
        best: dict[int, dict[str, float]] = {}
        for _ in range(args.repeat):
            for jobs in args.jobs:
                result = run(hyp, ref, jobs)
                if jobs not in best or result["wall"] < best[jobs]["wall"]:
                    best[jobs] = result
        scores = {r["score"] for r in best.values()}
        if len(scores) != 1:
            raise SystemExit(f"--jobs values disagree: {sorted(scores)}")
        for jobs, r in best.items():
            rows.append(
                f"| {args.size:,} | {jobs} | {r['wall']:.2f} | {r['cpu']:.2f} | "
                f"{r['rss_mb']:.0f} | {r['wall'] / args.size * 1e6:.0f} | {r['score']!r} |"
            )
        for size in args.memory:
            hyp, ref = make_inputs(Path(tmp), size)
            r = run(hyp, ref, 1)
            rows.append(
                f"| {size:,} | 1 | {r['wall']:.2f} | {r['cpu']:.2f} | {r['rss_mb']:.0f} | "
                f"{r['wall'] / size * 1e6:.0f} | {r['score']!r} |"
            )
    print("\n".join(rows))
    if len(best) >= 2 and 1 in best:
        for jobs, r in best.items():
            if jobs != 1:
                print(f"\n--jobs {jobs}: {best[1]['wall'] / r['wall']:.2f}x the throughput of 1")


if __name__ == "__main__":
    main()
