"""Long natural documents and the worst inputs, per METEOR flavour and BLEU/ROUGE variant: time
and peak memory at the default work budgets.

Each case scores one hypothesis against one reference in a new process (so that its peak
resident memory is its own, read from ``resource.getrusage``) under a timeout and an address
space limit (``--memory-limit``, so that a case that would take more fails alone instead of
the machine). Cases:

* ``natural N``: a document of N tokens (after the metric's own tokenizer) on one line: the
  consecutive sentences of ``../shared/data/meteor15`` (the xray system output, then the
  newstest2009 system output, against the xray reference, then the newstest2009 reference;
  126,000 tokens a side, no sentence repeated), as document-level evaluation joins them;
* ``repeated N``: one word N times against the same word N times (every position of one side
  matches every position of the other: the most work per token), at the largest N the
  default budget lets through and the smallest it refuses;
* ``interleaved``: paper2005's adversarial case, five words repeated 3 to 10 times in
  different numbers on each side, shuffled among singletons (64 tokens);
* ``N MB``: a line of that many megabytes of natural text (the linear metrics' worst case).

A case above its metric's work budget (:mod:`meteor_eval.limits`) ends with
``WorkBudgetError`` and is reported as ``refused`` with its work; paper2005 cases that exhaust
the exact search's budget say so. Seconds count the scoring only (the scorer and its resources
are loaded first); peak RSS is the whole process's, resources included. Run from the repository
root::

    python benchmarks/bench_worst_case.py                 # every case (about half an hour)
    python benchmarks/bench_worst_case.py --only meteor15 --timeout 60
"""

from __future__ import annotations

import argparse
import html
import json
import re
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
    *(
        (group, f"{label}natural {n:,} tokens", metric, f"natural:{n}")
        for group, label, metric in (
            ("meteor15", "", "meteor15"),
            ("paper2005", "", "paper2005"),
            ("nltk", "", "nltk"),
            ("bleu", "", "bleu"),
            ("rouge", "ROUGE-1/2 ", "rouge1,rouge2"),
            ("rouge", "ROUGE-L ", "rougeL"),
            ("rouge", "ROUGE-Lsum ", "rougeLsum"),
            ("rouge", "ROUGE-W ", "rougeW"),
        )
        for n in (2_000, 10_000, 40_000, 100_000)
    ),
    ("rouge", "ROUGE-SU unlimited skip natural 2,000 tokens", "rougeSU*", "natural:2000"),
    ("rouge", "ROUGE-SU unlimited skip natural 10,000 tokens", "rougeSU*", "natural:10000"),
    # The pathological cases: the largest repetition each default budget lets through, and
    # the smallest it refuses.
    ("meteor15", "repeated 17,320 (299,982,400 pairs: within)", "meteor15", "repeated:17320"),
    ("meteor15", "repeated 17,321 (300,017,041 pairs: refused)", "meteor15", "repeated:17321"),
    ("paper2005", "repeated 3,162 (9,998,244 pairs: within)", "paper2005", "repeated:3162"),
    ("paper2005", "repeated 3,163 (10,004,569 pairs: refused)", "paper2005", "repeated:3163"),
    ("paper2005", "interleaved 64 tokens", "paper2005", "interleaved"),
    ("nltk", "repeated 100,000 (10 billion comparisons)", "nltk", "repeated:100000"),
    ("nltk", "repeated 141,422 (refused)", "nltk", "repeated:141422"),
    ("bleu", "10 MB line", "bleu", "mb:10"),
    ("bleu", "repeated 1,000,000 tokens", "bleu", "repeated:1000000"),
    ("rouge", "ROUGE-1/2 10 MB line", "rouge1,rouge2", "mb:10"),
    ("rouge", "ROUGE-S/SU (skip 4) 10 MB line", "rougeS,rougeSU", "mb:10"),
    ("rouge", "ROUGE-L repeated 20,000 (400 million cells)", "rougeL", "repeated:20000"),
    ("rouge", "ROUGE-L repeated 141,422 (refused)", "rougeL", "repeated:141422"),
    ("rouge", "ROUGE-SU unlimited repeated 5,000 (within)", "rougeSU*", "repeated:5000"),
    ("rouge", "ROUGE-SU unlimited repeated 5,001 (refused)", "rougeSU*", "repeated:5001"),
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


def _sgm_segments(path: Path) -> list[str]:
    """The segments of an SGML test set, in order."""
    text = path.read_text(encoding="utf-8")
    return [html.unescape(seg).strip() for seg in re.findall(r"<seg[^>]*>(.*?)</seg>", text)]


def _sentences() -> tuple[list[str], list[str]]:
    """Consecutive real sentences: system output and references (xray, then newstest2009)."""
    hyps = (DATA / "xray-system1.hyp").read_text(encoding="utf-8").splitlines()
    refs = (DATA / "xray-reference").read_text(encoding="utf-8").splitlines()
    hyps += _sgm_segments(DATA / "newstest2009-test.sgm")
    refs += _sgm_segments(DATA / "newstest2009-ref.sgm")
    return hyps, refs


def make_pair(spec: str) -> tuple[str, str]:
    """The hypothesis and reference of an input spec (see the module docstring)."""
    kind, _, size = spec.partition(":")
    if kind == "interleaved":
        return INTERLEAVED
    if kind == "repeated":
        n = int(size)
        return " ".join(["the"] * n), " ".join(["the"] * n)
    hyps, refs = _sentences()
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
    from meteor_eval.errors import SearchBudgetWarning, WorkBudgetError
    from meteor_eval.limits import UNITS

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
        except WorkBudgetError as exc:
            outcome = f"refused ({exc.units:,} {UNITS[exc.kind]})"
        except MemoryError:
            outcome = "out of memory (the address space limit)"
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
        return (lambda h, r: scorer.segment_score(h, [r])), scorer.tokenize
    if metric == "bleu":
        from meteor_eval.metrics.bleu import Bleu

        bleu = Bleu()
        return (lambda h, r: bleu.corpus_score([h], [[r]])), None
    from meteor_eval.metrics.rouge import Rouge, RougeConfig
    from meteor_eval.text.rouge_tokenizer import tokenize_rouge155

    skip = -1 if metric.endswith("*") else 4
    types = tuple(metric.rstrip("*").split(","))
    rouge = Rouge(RougeConfig(types=types, skip_distance=skip))
    return (lambda h, r: rouge.segment_score(h, [r])), lambda text: tokenize_rouge155(text, False)


def _in_subprocess(metric: str, spec: str, timeout: float, memory_mb: int) -> dict[str, object]:
    command = [sys.executable, __file__, "--case", metric, spec, "--memory-limit", str(memory_mb)]
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"outcome": f"timeout > {timeout:.0f} s", "seconds": None, "rss_mb": None}
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [f"status {done.returncode}"])[-1]
        if "MemoryError" in done.stderr or "Cannot allocate" in done.stderr:
            last = f"out of memory (the {memory_mb:,} MB limit)"
        return {"outcome": f"failed: {last[:70]}", "seconds": time.perf_counter() - start}
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--case", nargs=2, metavar=("METRIC", "INPUT"), help=argparse.SUPPRESS)
    parser.add_argument("--only", help="a group: meteor15, paper2005, nltk, bleu or rouge")
    parser.add_argument("--match", help="only the cases whose label contains this text")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per case (120)")
    parser.add_argument(
        "--memory-limit",
        type=int,
        default=8_000,
        metavar="MB",
        help="address space of each case's process (8,000 MB): a case that needs more fails",
    )
    args = parser.parse_args()
    if args.case:
        import resource

        limit = args.memory_limit * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        print(json.dumps(run_case(*args.case)))
        return
    print("| metric | input | outcome | seconds | peak RSS MB |")
    print("|---|---|---|---:|---:|")
    for group, label, metric, spec in CASES:
        if (args.only and group != args.only) or (args.match and args.match not in label):
            continue
        result = _in_subprocess(metric, spec, args.timeout, args.memory_limit)
        seconds = result.get("seconds")
        rss = result.get("rss_mb")
        secs = f"{seconds:.2f}" if isinstance(seconds, float) else ""
        mem = f"{rss:.0f}" if isinstance(rss, float) else ""
        print(f"| {group} | {label} | {result['outcome']} | {secs} | {mem} |", flush=True)


if __name__ == "__main__":
    main()
