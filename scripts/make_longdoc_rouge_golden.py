"""Regenerate tests/reference/golden/longdoc/rouge_score.json: ROUGE of long natural documents
as rouge-score computes them.

Usage: python scripts/make_longdoc_rouge_golden.py [--lines 90 440]

A document is the first N lines of ``../shared/data/meteor15/xray-system1.hyp`` joined with
single spaces, against the first N lines of ``xray-reference`` (as
``scripts/make_longdoc_golden.py``); for ROUGE-Lsum the lines are joined with newlines instead
(rouge-score's sentence separator). The peer runs as::

    rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"]).score(REF, HYP)

(rouge-score 0.1.2, no stemmer). The file records, per N, the token counts of rouge-score's
tokenizer, precision, recall and F-measure of each type (``repr``), and the peer's seconds.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from rouge_score import rouge_scorer, tokenize

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "meteor15"
OUT = ROOT / "tests" / "reference" / "golden" / "longdoc" / "rouge_score.json"
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def lines(name: str, n_lines: int) -> list[str]:
    return [
        line.strip() for line in (DATA / name).read_text(encoding="utf-8").splitlines()[:n_lines]
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, nargs="+", default=[90, 440])
    args = parser.parse_args()
    scorer = rouge_scorer.RougeScorer(TYPES)
    cases = []
    for n in args.lines:
        hyp, ref = lines("xray-system1.hyp", n), lines("xray-reference", n)
        scores: dict[str, list[str]] = {}
        start = time.perf_counter()
        flat = scorer.score(" ".join(ref), " ".join(hyp))
        summary = scorer.score("\n".join(ref), "\n".join(hyp))
        seconds = time.perf_counter() - start
        for rouge_type in TYPES:
            s = (summary if rouge_type == "rougeLsum" else flat)[rouge_type]
            scores[rouge_type] = [repr(s.precision), repr(s.recall), repr(s.fmeasure)]
        cases.append(
            {
                "lines": n,
                "hyp_tokens": len(tokenize.tokenize(" ".join(hyp), None)),
                "ref_tokens": len(tokenize.tokenize(" ".join(ref), None)),
                "scores": scores,
                "peer_seconds": round(seconds, 1),
            }
        )
        print(cases[-1], flush=True)
    OUT.write_text(json.dumps({"cases": cases}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
