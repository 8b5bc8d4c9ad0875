"""Speed of significance testing: intervals and paired tests over stored statistics.

Builds statistics rows once (not timed) for ``--systems`` systems of ``--segments`` segments:
system 1 is the xray system of ``../shared/data/meteor15`` and every other system is a copy with
a seeded share of its words dropped or swapped (so the systems differ, as real ones do). Segments
are the xray segments repeated up to ``--segments``. Then it times, per metric and method,
:func:`meteor_eval.significance.paired_tests` over all systems against the first, and, with
sacrebleu installed, sacrebleu's ``PairedTest`` for BLEU on the same systems (which re-extracts
statistics per system, as its command line does) for a ratio measured in the same run.

Run from the repository root::

    python benchmarks/bench_significance.py                       # 20 x 3000, 1000 resamples
    python benchmarks/bench_significance.py --systems 5 --methods bs ar
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from meteor_eval.metrics.bleu import Bleu
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.significance import paired_tests

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from _common import shortest_run

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "meteor15"


def _systems(n_systems: int, n_segments: int) -> tuple[list[list[str]], list[str]]:
    hyps = (DATA / "xray-system1.hyp").read_text(encoding="utf-8").splitlines()
    refs = (DATA / "xray-reference").read_text(encoding="utf-8").splitlines()
    hyps = (hyps * (n_segments // len(hyps) + 1))[:n_segments]
    refs = (refs * (n_segments // len(refs) + 1))[:n_segments]
    systems = [hyps]
    for k in range(1, n_systems):
        rng = random.Random(k)
        share = 0.02 * k
        damaged = []
        for line in hyps:
            words = line.split()
            kept = [w for w in words if rng.random() >= share] or words[:1]
            if len(kept) > 2 and rng.random() < share:
                i = rng.randrange(len(kept) - 1)
                kept[i], kept[i + 1] = kept[i + 1], kept[i]
            damaged.append(" ".join(kept))
        systems.append(damaged)
    return systems, refs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--systems", type=int, default=20)
    parser.add_argument("--segments", type=int, default=3000)
    parser.add_argument("--samples", type=int, default=1000, help="bootstrap resamples")
    parser.add_argument("--trials", type=int, default=10000, help="randomisation trials")
    parser.add_argument("--methods", nargs="+", default=["bs"], choices=["bs", "ar", "ci"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-sacrebleu", action="store_true", help="skip the sacrebleu runs")
    args = parser.parse_args()

    systems, refs = _systems(args.systems, args.segments)
    ref_groups = [[r] for r in refs]
    metrics = {
        "meteor": Meteor(MeteorConfig.preset("meteor15", normalization="norm")),
        "bleu": Bleu(),
    }
    start = time.perf_counter()
    rows = {
        name: {f"sys{k}": metric.corpus_rows(hyps, ref_groups) for k, hyps in enumerate(systems)}
        for name, metric in metrics.items()
    }
    prep = time.perf_counter() - start
    print(
        f"{args.systems} systems x {args.segments} segments; statistics made once in "
        f"{prep:.1f} s (not timed below); best of {args.repeat}"
    )
    head = ("metric", "method", "resamples", "ours s", "sacrebleu s", "ratio")
    print(f"{head[0]:<8} {head[1]:<7} {head[2]:>9} {head[3]:>8} {head[4]:>12} {head[5]:>7}")
    total = {}
    for method in args.methods:
        n = args.trials if method == "ar" else args.samples
        test = None if method == "ci" else method
        for name, metric in metrics.items():
            seconds = shortest_run(
                args.repeat,
                lambda m=metric, r=rows[name], t=test, k=n: paired_tests(
                    m, r, method=t, n_samples=k
                ),
            )
            total[method] = total.get(method, 0.0) + seconds
            theirs = ""
            ratio = ""
            if name == "bleu" and method != "ci" and not args.no_sacrebleu:
                peer = _sacrebleu_time(systems, refs, method, n)
                if peer is not None:
                    theirs = f"{peer:.2f}"
                    ratio = f"{peer / seconds:.1f}x"
            print(f"{name:<8} {method:<7} {n:>9} {seconds:>8.2f} {theirs:>12} {ratio:>7}")
    for method, seconds in total.items():
        print(f"METEOR + BLEU, {method}: {seconds:.2f} s")


def _sacrebleu_time(systems: list[list[str]], refs: list[str], method: str, n: int) -> float | None:
    try:
        from sacrebleu.metrics import BLEU
        from sacrebleu.significance import PairedTest
    except ImportError:
        return None
    named = [(f"sys{k}", hyps) for k, hyps in enumerate(systems)]
    start = time.perf_counter()
    test = PairedTest(named, {"BLEU": BLEU()}, [refs], test_type=method, n_samples=n)
    test()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
