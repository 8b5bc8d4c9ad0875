"""Worst inputs we can construct, per METEOR flavour and per BLEU/ROUGE variant: time and memory.

Each case scores one hypothesis against one reference in a new process (so that its peak
resident memory is its own, read from ``resource.getrusage``) under a timeout. Cases:

* ``natural N``: xray sentences (``../shared/data/meteor15``) joined on one line up to N tokens
  (a paragraph or a document on one line);
* ``repeated N``: one word N times against the same word N - 1 times and another word (every
  position of one side matches every position of the other: the most candidate pairs);
* ``interleaved``: paper2005's adversarial case, five words repeated 3 to 10 times in
  different numbers on each side, shuffled among singletons (64 tokens);
* ``N MB``: a line of that many megabytes of natural text (the linear metrics' worst case;
  for the others, the time it takes to refuse it).

A case above a metric's limit (:mod:`meteor_eval.limits`) ends with ``SegmentTooLongError``
and is reported as ``refused``; paper2005 cases that exhaust the exact search's budget say so.
Seconds count the scoring only (the scorer and its resources are loaded first); peak RSS is the
whole process's, resources included. Run from the repository root::

    python benchmarks/bench_worst_case.py                 # every case (about two minutes)
    python benchmarks/bench_worst_case.py --only meteor15 --timeout 60
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
DATA = ROOT.parent / "shared" / "data" / "meteor15"

#: (group, label, metric spec, input spec); metric spec: a METEOR flavour or ``bleu``/``rougeX``
#: (``rougeSU*``: ROUGE-SU without a skip limit); input spec: see :func:`make_pair`.
CASES: list[tuple[str, str, str, str]] = [
    ("meteor15", "natural 2,000 tokens (limit)", "meteor15", "natural:2000"),
    ("meteor15", "repeated 2,000 tokens (limit)", "meteor15", "repeated:2000"),
    ("meteor15", "1 MB line", "meteor15", "mb:1"),
    ("paper2005", "natural 500 tokens (limit)", "paper2005", "natural:500"),
    ("paper2005", "repeated 500 tokens (limit)", "paper2005", "repeated:500"),
    ("paper2005", "interleaved 64 tokens", "paper2005", "interleaved"),
    ("paper2005", "1 MB line", "paper2005", "mb:1"),
    ("nltk", "natural 10,000 tokens (limit)", "nltk", "natural:10000"),
    ("nltk", "repeated 10,000 tokens (limit)", "nltk", "repeated:10000"),
    ("nltk", "1 MB line", "nltk", "mb:1"),
    ("bleu", "10 MB line", "bleu", "mb:10"),
    ("bleu", "repeated 1,000,000 tokens", "bleu", "repeated:1000000"),
    ("rouge", "ROUGE-1/2 10 MB line", "rouge1,rouge2", "mb:10"),
    ("rouge", "ROUGE-S/SU (skip 4) 10 MB line", "rougeS,rougeSU", "mb:10"),
    ("rouge", "ROUGE-L natural 2,000 tokens (limit)", "rougeL", "natural:2000"),
    ("rouge", "ROUGE-Lsum natural 2,000 tokens (limit)", "rougeLsum", "natural:2000"),
    ("rouge", "ROUGE-W natural 2,000 tokens (limit)", "rougeW", "natural:2000"),
    ("rouge", "ROUGE-W repeated 2,000 tokens (limit)", "rougeW", "repeated:2000"),
    ("rouge", "ROUGE-SU unlimited skip 2,000 tokens (limit)", "rougeSU*", "natural:2000"),
    ("rouge", "ROUGE-L 10 MB line", "rougeL", "mb:10"),
]

INTERLEAVED = (
    "x2 d d x9 d d x0 c d x25 x21 x14 d x29 e c x30 a d x20 c c b e x13 x1 x31 d c c x6 c x19 "
    "x17 x33 x15 a x26 x27 x3 c x10 x4 a x18 x11 x23 x7 x8 e x16 x12 d x34 x5 b e b a x24 x28 "
    "x22 x32 d",
    "e d b e c d b a c a e c c e c b d d b e b d a e e e c e d a d c b d b a a a a c c a e d a",
)


def _joined(lines: list[str], stop: int, *, by_bytes: bool) -> str:
    """Lines joined with spaces until ``stop`` tokens (whitespace-separated) or bytes."""
    out: list[str] = []
    size = 0
    k = 0
    while size < stop:
        line = lines[k % len(lines)]
        out.append(line)
        size += len(line.encode()) + 1 if by_bytes else len(line.split())
        k += 1
    text = " ".join(out)
    return text if by_bytes else " ".join(text.split()[:stop])


def make_pair(spec: str) -> tuple[str, str]:
    """The hypothesis and reference of an input spec (see the module docstring)."""
    kind, _, size = spec.partition(":")
    if kind == "interleaved":
        return INTERLEAVED
    if kind == "repeated":
        n = int(size)
        return " ".join(["the"] * n), " ".join(["the"] * (n - 1) + ["cat"])
    hyps = (DATA / "xray-system1.hyp").read_text(encoding="utf-8").splitlines()
    refs = (DATA / "xray-reference").read_text(encoding="utf-8").splitlines()
    if kind == "natural":
        # Token counts after each metric's tokenizer differ a little from whitespace words.
        return _joined(hyps, int(size), by_bytes=False), _joined(refs, int(size), by_bytes=False)
    n_bytes = int(float(size) * 1_000_000)
    return _joined(hyps, n_bytes, by_bytes=True), _joined(refs, n_bytes, by_bytes=True)


def run_case(metric: str, spec: str) -> dict[str, object]:
    """Score one case here and return its outcome, seconds (scoring only, the scorer is built
    first) and peak RSS (MB, the whole process)."""
    import resource
    import warnings

    sys.path.insert(0, str(SRC))
    from meteor_eval.errors import SearchBudgetWarning, SegmentTooLongError

    hyp, ref = make_pair(spec)
    score, tokenize = _scorer(metric)
    if spec.startswith("natural:") and tokenize is not None:
        # Cut at the metric's own token count (its tokenizer splits punctuation off words).
        n = int(spec.partition(":")[2])
        hyp, ref = (_cut(text, n, tokenize) for text in (hyp, ref))
    start = time.perf_counter()
    outcome = "ok"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            score(hyp, ref)
        except SegmentTooLongError as exc:
            outcome = f"refused ({exc.tokens:,} tokens)"
    seconds = time.perf_counter() - start
    if any(issubclass(w.category, SearchBudgetWarning) for w in caught):
        outcome = "exact-search budget spent"
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KB on Linux
    return {"outcome": outcome, "seconds": seconds, "rss_mb": peak}


def _cut(text: str, n: int, tokenize: Callable[[str], Any]) -> str:
    """The first tokens of ``text``, joined with spaces, that the tokenizer counts as ``n``
    (joining can change the count a little: cut again until it fits)."""
    keep = n
    while True:
        cut = " ".join(tokenize(text)[:keep])
        excess = len(tokenize(cut)) - n
        if excess <= 0:
            return cut
        keep -= excess


def _scorer(metric: str) -> tuple[Callable[[str, str], object], Callable[[str], Any] | None]:
    """A function scoring one pair with ``metric``, and the tokenizer of a METEOR flavour."""
    if metric in ("meteor15", "paper2005", "nltk"):
        from meteor_eval import Meteor, MeteorConfig

        extra: dict[str, Any] = (
            {"normalization": "norm", "modules": ("exact", "stem", "synonym")}
            if metric == "meteor15"
            else {}
        )
        scorer = Meteor(MeteorConfig.preset(metric, **extra))  # type: ignore[arg-type]
        return (lambda h, r: scorer.sentence_score(h, [r])), scorer.tokenize
    if metric == "bleu":
        from meteor_eval.metrics.bleu import Bleu

        bleu = Bleu()
        return (lambda h, r: bleu.corpus_score([h], [[r]])), None
    from meteor_eval.metrics.rouge import Rouge, RougeConfig
    from meteor_eval.text.rouge_tokenizer import tokenize_rouge155

    skip = -1 if metric.endswith("*") else 4
    types = tuple(metric.rstrip("*").split(","))
    rouge = Rouge(RougeConfig(types=types, skip_distance=skip))
    return (lambda h, r: rouge.sentence_score(h, [r])), lambda text: tokenize_rouge155(text, False)


def _in_subprocess(metric: str, spec: str, timeout: float) -> dict[str, object]:
    command = [sys.executable, __file__, "--case", metric, spec]
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"outcome": f"timeout > {timeout:.0f} s", "seconds": None, "rss_mb": None}
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        return {"outcome": f"failed: {last[:60]}", "seconds": time.perf_counter() - start}
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--case", nargs=2, metavar=("METRIC", "INPUT"), help=argparse.SUPPRESS)
    parser.add_argument("--only", help="a group: meteor15, paper2005, nltk, bleu or rouge")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per case (120)")
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(*args.case)))
        return
    print("| metric | input | outcome | seconds | peak RSS MB |")
    print("|---|---|---|---:|---:|")
    for group, label, metric, spec in CASES:
        if args.only and group != args.only:
            continue
        result = _in_subprocess(metric, spec, args.timeout)
        seconds = result.get("seconds")
        rss = result.get("rss_mb")
        secs = f"{seconds:.2f}" if isinstance(seconds, float) else ""
        mem = f"{rss:.0f}" if isinstance(rss, float) else ""
        print(f"| {group} | {label} | {result['outcome']} | {secs} | {mem} |", flush=True)


if __name__ == "__main__":
    main()
