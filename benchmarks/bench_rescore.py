"""Speed of re-scoring stored statistics under new parameters (:mod:`meteor_eval.tuning`).

Rows are the jar's ``-ssOut`` statistics of the xray data (``tests/reference/golden/meteor15``),
repeated up to ``--segments``. Timed, best of ``--repeat``: preparing the rows once, one re-score
with an exponent not seen before (its powers computed), one re-score with a known exponent, a
corpus score, and a grid of ``--grid`` parameter sets (``segment_scores_grid``, four exponents).

Run from the repository root::

    python benchmarks/bench_rescore.py                     # 100,000 segments
    python benchmarks/bench_rescore.py --segments 1000000
"""

from __future__ import annotations

import argparse
import gzip
import sys
from pathlib import Path

import numpy as np

from meteor_eval.tuning import (
    TuningParams,
    prepare_stats,
    segment_scores,
    segment_scores_grid,
    system_scores,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from _common import shortest_run

STATS = (
    Path(__file__).resolve().parents[1]
    / "tests/reference/golden/meteor15/xray-system1.en-norm-esn.stats.gz"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--segments", type=int, default=100_000)
    parser.add_argument("--grid", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with gzip.open(STATS, "rt", encoding="utf-8") as handle:
        base = np.array([[float(x) for x in line.split()] for line in handle], dtype=np.int64)
    rows = np.resize(base, (args.segments, base.shape[1]))
    params = TuningParams(0.85, 0.2, 0.6, 0.75, (1.0, 0.6, 0.8))
    betas = iter(np.linspace(0.01, 3.0, 10_000))
    prepared = prepare_stats(rows)
    groups = np.arange(args.segments) % 20
    grid = [
        TuningParams(a, b, g, 0.75, (1.0, 0.6, 0.8))
        for a in np.linspace(0.5, 0.95, 5)
        for b in (0.5, 1.0, 1.5, 2.0)
        for g in np.linspace(0.2, 0.6, max(1, args.grid // 20))
    ][: args.grid]
    results = [
        (
            "prepare_stats (once per data set)",
            shortest_run(args.repeat, lambda: prepare_stats(rows)),
        ),
        (
            "segment_scores, new beta",
            shortest_run(
                args.repeat,
                lambda: segment_scores(
                    prepared, params.__class__(0.85, float(next(betas)), 0.6, 0.75, (1.0, 0.6, 0.8))
                ),
            ),
        ),
        (
            "segment_scores, known beta",
            shortest_run(args.repeat, lambda: segment_scores(prepared, params)),
        ),
        (
            "system_scores, 20 systems",
            shortest_run(args.repeat, lambda: system_scores(prepared, groups, params)),
        ),
        (
            f"segment_scores_grid, {len(grid)} sets",
            shortest_run(args.repeat, lambda: segment_scores_grid(prepared, grid)),
        ),
    ]
    print(f"{args.segments:,} segments, best of {args.repeat}")
    print(f"{'operation':<40} {'ms':>10}")
    for name, seconds in results:
        print(f"{name:<40} {seconds * 1000:>10.1f}")


if __name__ == "__main__":
    main()
