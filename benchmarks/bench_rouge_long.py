#!/usr/bin/env python
"""ROUGE-L and ROUGE-Lsum on long natural documents: time and peak memory by length.

ROUGE-L's LCS runs bit-parallel in one row of memory and ROUGE-Lsum's union LCS keeps
``O(n sqrt(m))`` bits (``_ext/lcs.c``; ``docs/metrics/rouge.md``), so neither refuses a long
document. Each case joins consecutive lines of a text file (hypothesis side and reference side,
the same line numbers) until N rouge-score tokens, and scores it in a new process under
``/usr/bin/time`` (CPU seconds of the scoring alone, imports excluded; peak resident memory of
the whole process).
``--peer`` also runs rouge-score's ``RougeScorer`` on the same pair, up to ``--peer-max``
tokens (its table is quadratic)::

    python benchmarks/bench_rouge_long.py --hyp H --ref R
    python benchmarks/bench_rouge_long.py --hyp H --ref R --sizes 2000 10000 --peer

Default input: the WMT-style newstest2009 system output and reference of ``../shared/data``
(their ``<seg>`` lines), which hold about 70,000 tokens a side: larger sizes repeat the text.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "meteor15"

CHILD = """
import sys, time
sys.path.insert(0, {src!r})
hyp = open({hyp!r}, encoding="utf-8").read()
ref = open({ref!r}, encoding="utf-8").read()
types = {types!r}
if {peer!r}:
    from rouge_score import rouge_scorer
    score = lambda: rouge_scorer.RougeScorer(list(types)).score(ref, hyp)
else:
    from meteor_eval import segment_rouge
    score = lambda: segment_rouge(hyp, [ref], types=types)
start = time.process_time()
scores = score()
print(time.process_time() - start, *[scores[t].fmeasure for t in types])
"""


def segments(path: Path) -> list[str]:
    """Plain lines, or the ``<seg>`` contents of an SGML file."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".sgm":
        return re.findall(r"<seg[^>]*>(.*?)</seg>", text)
    return text.splitlines()


def document(lines: list[str], size: int) -> str:
    """Consecutive lines joined by spaces up to ``size`` rouge-score tokens."""
    from meteor_eval.text.rouge_tokenizer import tokenize_rouge_score

    out: list[str] = []
    count = 0
    k = 0
    while count < size:
        line = lines[k % len(lines)]
        tokens = tokenize_rouge_score(line)
        if count + len(tokens) > size:
            line = " ".join(tokens[: size - count])
            tokens = tokens[: size - count]
        out.append(line)
        count += len(tokens)
        k += 1
    return " ".join(out)


def run_case(hyp: str, ref: str, types: tuple[str, ...], peer: bool, work: Path) -> str:
    """``seconds peak_MB F...`` of one case in a new process."""
    hyp_file, ref_file, script = work / "h.txt", work / "r.txt", work / "child.py"
    hyp_file.write_text(hyp, encoding="utf-8")
    ref_file.write_text(ref, encoding="utf-8")
    script.write_text(
        CHILD.format(
            src=str(ROOT / "src"), hyp=str(hyp_file), ref=str(ref_file), types=types, peer=peer
        )
    )
    report = work / "time.txt"
    done = subprocess.run(
        ["/usr/bin/time", "-o", str(report), "-f", "%M", sys.executable, str(script)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return f"failed: {done.stderr.strip().splitlines()[-1]}"
    seconds, *values = done.stdout.split()
    peak = int(report.read_text().split()[-1]) / 1024
    return f"{float(seconds):.2f} s CPU, {peak:.0f} MB, F " + " ".join(
        f"{float(v):.6f}" for v in values
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hyp", type=Path, default=DATA / "newstest2009-test.sgm")
    parser.add_argument("--ref", type=Path, default=DATA / "newstest2009-ref.sgm")
    parser.add_argument("--sizes", type=int, nargs="+", default=[2_000, 10_000, 40_000, 100_000])
    parser.add_argument("--peer", action="store_true", help="also time rouge-score")
    parser.add_argument("--peer-max", type=int, default=10_000)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "src"))
    hyp_lines, ref_lines = segments(args.hyp), segments(args.ref)
    print("| tokens | variant | meteor-eval | rouge-score |")
    print("|---:|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for size in args.sizes:
            hyp, ref = document(hyp_lines, size), document(ref_lines, size)
            for types in (("rougeL",), ("rougeLsum",)):
                ours = run_case(hyp, ref, types, False, work)
                peer = (
                    run_case(hyp, ref, types, True, work)
                    if args.peer and size <= args.peer_max
                    else "-"
                )
                print(f"| {size:,} | {types[0]} | {ours} | {peer} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
