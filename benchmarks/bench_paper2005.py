"""CPU cost per segment of the ``paper2005`` flavour, fresh and warm, for one or more source trees.

Each round runs, for each tree in turn, a new process (``PYTHONPATH=TREE/src``,
``PYTHONHASHSEED=0``) that scores the first ``--fresh`` WMT22 pairs with a new
``Meteor(MeteorConfig.preset("paper2005"))`` (every word new: the stemmer and WordNet are met for
the first time) and then the next ``--warm`` pairs with the same scorer; it reports the CPU
time (``time.process_time``) per segment of each part and both scores. The table gives the
fastest of ``--rounds`` rounds, the trees alternated so that a busy machine slows them alike.
Every tree must give the same scores, or the script stops. Each tree's ``src`` is
byte-compiled first, as an installed package is.

The pairs are ``bench_steady.py``'s: every to-English system output of the WMT22 general task
against each reference of its language pair, distinct non-empty pairs in file order. Nothing is
downloaded: ``--wmt DIR`` names a checkout of ``wmt-conference/wmt22-news-systems``.

Run from the repository root::

    python benchmarks/bench_paper2005.py --wmt PATH/TO/wmt22-news-systems
    python benchmarks/bench_paper2005.py --wmt PATH --trees OLD_CHECKOUT . --rounds 3
"""

from __future__ import annotations

import argparse
import compileall
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

_CHILD = r"""
import sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from bench_steady import wmt_pairs
import meteor_eval
assert meteor_eval.__file__.startswith(sys.argv[1]), meteor_eval.__file__
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
fresh, warm = int(sys.argv[4]), int(sys.argv[5])
pairs = wmt_pairs(Path(sys.argv[3]))[: fresh + warm]
hyps = [h for h, _ in pairs]
refs = [[r] for _, r in pairs]
scorer = Meteor(MeteorConfig.preset("paper2005"))
start = time.process_time()
first = scorer.corpus_score(hyps[:fresh], refs[:fresh])
middle = time.process_time()
second = scorer.corpus_score(hyps[fresh:], refs[fresh:])
end = time.process_time()
print((middle - start) / fresh * 1e6, (end - middle) / max(1, len(hyps) - fresh) * 1e6,
      repr(first.score), repr(second.score))
"""


def _run(tree: Path, wmt: Path, fresh: int, warm: int) -> tuple[float, float, str, str]:
    src = tree / "src"
    env = dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED="0")
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(src), str(HERE), str(wmt), str(fresh), str(warm)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return float(out[0]), float(out[1]), out[2], out[3]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wmt", type=Path, default=os.environ.get("WMT22_NEWS_SYSTEMS"))
    parser.add_argument("--trees", type=Path, nargs="+", default=[HERE.parent])
    parser.add_argument("--fresh", type=int, default=1_000)
    parser.add_argument("--warm", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.wmt is None:
        parser.error("--wmt: give a checkout of wmt-conference/wmt22-news-systems")
    if args.fresh < 1 or args.warm < 0 or args.rounds < 1:
        parser.error("--fresh and --rounds must be at least 1, --warm at least 0")
    trees = [tree.resolve() for tree in args.trees]
    for tree in trees:
        # With PYTHONDONTWRITEBYTECODE set, an uncompiled tree would compile its modules in
        # every new process, inside the timed calls (imports made on first use).
        compileall.compile_dir(tree / "src", quiet=1)
    results: dict[Path, list[tuple[float, float, str, str]]] = {tree: [] for tree in trees}
    for _ in range(args.rounds):
        for tree in trees:
            results[tree].append(_run(tree, args.wmt, args.fresh, args.warm))
    scores = {run[2:] for runs in results.values() for run in runs}
    if len(scores) != 1:
        raise SystemExit(f"the trees' scores differ: {sorted(scores)}")
    print(
        f"paper2005: {args.fresh:,} pairs fresh, then {args.warm:,} warm; fastest of "
        f"{args.rounds} round(s); load average {os.getloadavg()[0]:.1f}"
    )
    print("| tree | fresh us/segment | warm us/segment |")
    print("|---|---:|---:|")
    for tree, runs in results.items():
        fresh = min(run[0] for run in runs)
        warm = min(run[1] for run in runs)
        print(f"| {tree} | {fresh:.0f} | {warm:.0f} |")
    print(f"scores: {scores.pop()}")


if __name__ == "__main__":
    main()
