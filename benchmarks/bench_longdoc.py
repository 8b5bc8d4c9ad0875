"""METEOR 1.5 on long documents: time and peak memory by length, and the work-budget refusal.

A document is the first N lines of the xray data (``../shared/data/meteor15``) joined by spaces
into one line, hypothesis (system 1) against reference, as document-level evaluation joins a
document's segments. Each case runs in a new process (so its peak RSS is its own) and prints
the tokens of both sides, the score, the CPU seconds of scoring (``time.process_time``) and the
process's peak RSS. The last row is the pathological pair: one word repeated 20,001 times on
both sides (400,040,001 candidate matches), refused at the default work budget. Run from the
repository root::

    python benchmarks/bench_longdoc.py                 # 130, 400 and 1,600 lines
    python benchmarks/bench_longdoc.py --lines 2489    # the whole of xray: 62,000 tokens a side
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "meteor15"

_CASE = """
import json, resource, sys, time
from meteor_eval.errors import WorkBudgetError
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
lines, data = int(sys.argv[1]), sys.argv[2]
scorer = Meteor(MeteorConfig.preset("meteor15", normalization="norm"))
scorer.segment_score("a b", ["a b"])  # resources opened before timing
if lines > 0:
    hyp = " ".join(open(data + "/xray-system1.hyp", encoding="utf-8").read().split("\\n")[:lines])
    ref = " ".join(open(data + "/xray-reference", encoding="utf-8").read().split("\\n")[:lines])
else:
    hyp = ref = " ".join(["w"] * 20_001)
start = time.process_time()
try:
    outcome = repr(scorer.segment_score(hyp, [ref]).score)
except WorkBudgetError as exc:
    outcome = f"refused ({exc.units:,} candidates counted)"
print(json.dumps({
    "tokens": f"{len(scorer.tokenize(hyp)):,} / {len(scorer.tokenize(ref)):,}",
    "outcome": outcome,
    "cpu": time.process_time() - start,
    "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, nargs="+", default=[130, 400, 1_600])
    args = parser.parse_args()
    env_path = str(ROOT / "src")
    print("| input | tokens (hyp / ref) | outcome | CPU s | peak RSS MB |")
    print("|---|---:|---|---:|---:|")
    for lines in [*args.lines, 0]:
        done = subprocess.run(
            [sys.executable, "-c", _CASE, str(lines), str(DATA)],
            capture_output=True,
            text=True,
            env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
            check=True,
        )
        row = json.loads(done.stdout.strip().splitlines()[-1])
        label = f"first {lines:,} lines" if lines else "one word x 20,001, both sides"
        print(
            f"| {label} | {row['tokens']} | {row['outcome']} | {row['cpu']:.2f} | "
            f"{row['rss']:.0f} |"
        )


if __name__ == "__main__":
    main()
