#!/usr/bin/env python
"""BLEU and ROUGE at scale: meteor-eval against sacrebleu and rouge-score, same input, same run.

Input: real MT output of at least 100,000 segments, one hypothesis and one reference a line
(``hyp.txt``, ``ref.txt``). The WMT22 general-task system outputs into English (71 systems,
126,836 segments) are research-only data that meteor-eval does not ship; build the two files
from a copy of ``https://github.com/wmt-conference/wmt22-news-systems`` with
``scripts/build_bleu_rouge_bench.py WMT22_DIR DATA_DIR``, then::

    python benchmarks/bench_bleu_rouge.py DATA_DIR
    python benchmarks/bench_bleu_rouge.py DATA_DIR --repeat 3 --rouge-segments 30000

Rows, each timed in the same run on the same lines (``--segments``, default all):

* BLEU (13a, exp smoothing), command line: ``meteor-eval bleu --hyp H --ref R`` against
  ``sacrebleu R -i H -m bleu``, each a new process under ``/usr/bin/time`` (wall, CPU =
  user + system, peak resident memory);
* BLEU, API: ``meteor_eval.corpus_bleu`` against ``sacrebleu.corpus_bleu``, and the drop-in
  ``meteor_eval.compat.sacrebleu.corpus_bleu``, in this process (CPU time);
* ROUGE (rouge1, rouge2, rougeL, rougeLsum, F-measure mean of segments), API:
  ``meteor_eval.corpus_rouge`` and the drop-in ``RougeScorer.score`` loop against rouge-score's
  ``RougeScorer.score`` loop (``--rouge-segments``, default all), and the command line
  ``meteor-eval rouge`` (a new process);
* memory: peak resident memory of ``meteor-eval bleu``, ``meteor-eval rouge`` (the four
  variants above, mean of segment scores) and ``meteor-eval rouge --types rougeL,rougeW`` (the
  pure-Python ROUGE-W path) on a quarter of the input, on half of it and on all of it, with the
  growth from a quarter to all (flat memory: about 1.0x; the corpus total is exact column sums,
  never a list of rows).

Every pair of numbers is compared and printed (``same``); the run stops if they differ.
Ratios are CPU time (peer / ours): on a shared machine wall times swing with the load, CPU
times much less. ``--repeat N`` keeps the fastest of N runs of each.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def read_lines(path: Path, limit: int | None) -> list[str]:
    """The file's lines without line ends (at most ``limit``)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines[:limit] if limit else lines


def timed_process(argv: list[str], repeat: int) -> tuple[str, float, float, float]:
    """Stdout, wall s, CPU s and peak MB of the fastest (by CPU) of ``repeat`` runs."""
    best: tuple[str, float, float, float] | None = None
    for _ in range(repeat):
        with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
            done = subprocess.run(
                ["/usr/bin/time", "-o", report.name, "-f", "%e %U %S %M", *argv],
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode != 0:
                raise SystemExit(f"{' '.join(argv)} failed:\n{done.stderr}")
            wall, user, system, peak_kb = Path(report.name).read_text().split()[-4:]
        run = (done.stdout, float(wall), float(user) + float(system), int(peak_kb) / 1024)
        if best is None or run[2] < best[2]:
            best = run
    assert best is not None
    return best


def timed_call(fn: Callable[[], Any], repeat: int) -> tuple[Any, float, float]:
    """Result, wall s and CPU s of the fastest (by CPU) of ``repeat`` calls."""
    best: tuple[Any, float, float] | None = None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = fn()
        run = (result, time.perf_counter() - wall, time.process_time() - cpu)
        if best is None or run[2] < best[2]:
            best = run
    assert best is not None
    return best


def row(table: list[list[str]], what: str, ours: float, peer: float, same: bool, note: str) -> None:
    """One table row: CPU times, their ratio, whether the numbers agree."""
    table.append(
        [
            what,
            f"{ours:.2f}",
            f"{peer:.2f}",
            f"{peer / ours:.1f}x",
            "same" if same else "DIFFER",
            note,
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="folder with hyp.txt and ref.txt")
    parser.add_argument("--segments", type=int, default=None, help="first N lines only")
    parser.add_argument("--rouge-segments", type=int, default=None, help="ROUGE: first N lines")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--no-peers", action="store_true", help="time meteor-eval only")
    args = parser.parse_args(argv)
    hyp_path, ref_path = args.data / "hyp.txt", args.data / "ref.txt"
    hyps = read_lines(hyp_path, args.segments)
    refs = read_lines(ref_path, args.segments)
    if len(hyps) != len(refs):
        raise SystemExit(f"{hyp_path} and {ref_path} have different line counts")
    work = Path(tempfile.mkdtemp(prefix="bench-bleu-rouge-"))
    try:
        return run(args, hyps, refs, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(args: argparse.Namespace, hyps: list[str], refs: list[str], work: Path) -> int:
    import sacrebleu
    from rouge_score import rouge_scorer

    import meteor_eval
    from meteor_eval._ext import kernels_summary
    from meteor_eval.compat import sacrebleu as dropin_sacrebleu
    from meteor_eval.compat.rouge_score import rouge_scorer as dropin_rouge

    n = len(hyps)
    hyp_file, ref_file = work / "hyp.txt", work / "ref.txt"
    hyp_file.write_text("".join(h + "\n" for h in hyps), encoding="utf-8")
    ref_file.write_text("".join(r + "\n" for r in refs), encoding="utf-8")
    python = sys.executable
    env_cli = [python, "-m", "meteor_eval"]
    table: list[list[str]] = []
    print(
        f"# {n:,} segments; meteor-eval {meteor_eval.__version__}, sacrebleu "
        f"{sacrebleu.__version__}; {kernels_summary()}"
    )

    # -- BLEU, command line ------------------------------------------------------------------
    out, _, ours_cpu, ours_mb = timed_process(
        [*env_cli, "bleu", "--hyp", str(hyp_file), "--ref", str(ref_file), "--format", "json"],
        args.repeat,
    )
    ours_bleu = json.loads(out)["systems"][0]["bleu"]["score"]
    out, _, peer_cpu, peer_mb = timed_process(
        [
            python,
            "-m",
            "sacrebleu",
            str(ref_file),
            "-i",
            str(hyp_file),
            "-m",
            "bleu",
            "-b",
            "-w",
            "16",
        ],
        args.repeat,
    )
    peer_bleu = float(out.split()[0])
    same = f"{ours_bleu:.16f}"[:18] == f"{peer_bleu:.16f}"[:18]
    row(
        table,
        "BLEU, CLI",
        ours_cpu,
        peer_cpu,
        same,
        f"{ours_bleu!r} vs {peer_bleu!r}; peak {ours_mb:.0f} MB vs {peer_mb:.0f} MB",
    )

    # -- BLEU, API ---------------------------------------------------------------------------
    ours, _, ours_cpu = timed_call(
        lambda: meteor_eval.corpus_bleu(hyps, [[r] for r in refs]), args.repeat
    )
    peer, _, peer_cpu = timed_call(lambda: sacrebleu.corpus_bleu(hyps, [refs]), args.repeat)
    row(
        table,
        "BLEU, API corpus_bleu",
        ours_cpu,
        peer_cpu,
        ours.score == peer.score,
        f"{ours.score!r} vs {peer.score!r}",
    )
    drop, _, drop_cpu = timed_call(lambda: dropin_sacrebleu.corpus_bleu(hyps, [refs]), args.repeat)
    row(
        table,
        "BLEU, drop-in corpus_bleu",
        drop_cpu,
        peer_cpu,
        drop.score == peer.score,
        f"{drop.score!r}",
    )

    # -- ROUGE -------------------------------------------------------------------------------
    m = args.rouge_segments or n
    r_hyps, r_refs = hyps[:m], refs[:m]
    ours_r, _, ours_cpu = timed_call(
        lambda: meteor_eval.corpus_rouge(r_hyps, [[r] for r in r_refs], types=ROUGE_TYPES),
        args.repeat,
    )

    def peer_rouge(module: Any) -> dict[str, float]:
        # rouge-score scores segments and defines no corpus mean; the mean of its segment
        # F-measures is taken exactly rounded (math.fsum), as meteor-eval's mean is (the same
        # to the last bit however the segments are split; a left-to-right sum can differ in
        # the last bit).
        scorer = module.RougeScorer(list(ROUGE_TYPES))
        values: dict[str, list[float]] = {t: [] for t in ROUGE_TYPES}
        for h, r in zip(r_hyps, r_refs, strict=True):
            scores = scorer.score(r, h)
            for t in ROUGE_TYPES:
                values[t].append(scores[t].fmeasure)
        return {t: math.fsum(values[t]) / m for t in ROUGE_TYPES}

    peer_r, _, peer_cpu = timed_call(lambda: peer_rouge(rouge_scorer), args.repeat)
    ours_f = {t: ours_r[t].fmeasure for t in ROUGE_TYPES}
    row(
        table,
        f"ROUGE, API corpus_rouge ({m:,})",
        ours_cpu,
        peer_cpu,
        ours_f == peer_r,
        " ".join(f"{t}={ours_f[t]:.6f}" for t in ROUGE_TYPES),
    )
    drop_r, _, drop_cpu = timed_call(lambda: peer_rouge(dropin_rouge), args.repeat)
    row(
        table,
        f"ROUGE, drop-in RougeScorer.score ({m:,})",
        drop_cpu,
        peer_cpu,
        drop_r == peer_r,
        "one call a segment",
    )
    rouge_cli = [*env_cli, "rouge", "--types", ",".join(ROUGE_TYPES), "--format", "json"]
    r_hyp_file, r_ref_file = work / "rhyp.txt", work / "rref.txt"
    r_hyp_file.write_text("".join(h + "\n" for h in r_hyps), encoding="utf-8")
    r_ref_file.write_text("".join(r + "\n" for r in r_refs), encoding="utf-8")
    out, _, cli_cpu, cli_mb = timed_process(
        [*rouge_cli, "--hyp", str(r_hyp_file), "--ref", str(r_ref_file)], args.repeat
    )
    cli_f = {t: json.loads(out)["systems"][0][t]["fmeasure"] for t in ROUGE_TYPES}
    row(
        table,
        f"ROUGE, CLI ({m:,})",
        cli_cpu,
        peer_cpu,
        cli_f == peer_r,
        f"peak {cli_mb:.0f} MB (rouge-score timed in this process)",
    )

    header = ["", "meteor-eval CPU s", "peer CPU s", "ratio", "numbers", "notes"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for cells in table:
        print("| " + " | ".join(cells) + " |")

    # -- memory at three input sizes ---------------------------------------------------------
    sizes = (n // 4, n // 2, n)
    files = []
    for size in sizes:
        s_hyp, s_ref = work / f"hyp{size}.txt", work / f"ref{size}.txt"
        s_hyp.write_text("".join(h + "\n" for h in hyps[:size]), encoding="utf-8")
        s_ref.write_text("".join(r + "\n" for r in refs[:size]), encoding="utf-8")
        files.append((s_hyp, s_ref))
    print()
    print(
        "| peak resident memory | "
        + " | ".join(f"{size:,} segments" for size in sizes)
        + f" | growth {sizes[0]:,} -> {sizes[-1]:,} |"
    )
    print("|---|" + "---:|" * (len(sizes) + 1))
    for name, cli in (
        ("meteor-eval bleu", [*env_cli, "bleu"]),
        (f"meteor-eval rouge --types {','.join(ROUGE_TYPES)}", rouge_cli),
        (
            "meteor-eval rouge --types rougeL,rougeW",
            [*env_cli, "rouge", "--types", "rougeL,rougeW"],
        ),
    ):
        peaks = [timed_process([*cli, "--hyp", str(h), "--ref", str(r)], 1)[3] for h, r in files]
        cells = " | ".join(f"{peak:.0f} MB" for peak in peaks)
        print(f"| {name} | {cells} | {peaks[-1] / peaks[0]:.2f}x |")
    if any(cells[4] != "same" for cells in table):
        print("numbers differ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    raise SystemExit(main())
