"""Speed and memory of ``meteor-eval score`` against the official METEOR 1.5 jar and NLTK.

Every tool scores the same files in the same run. The scores are compared first (a benchmark of
tools that disagree would be meaningless); then each tool is timed and a table is printed:
wall time, CPU time, peak resident memory, microseconds per segment and our/their ratios.

* ``ours cold``: ``python -m meteor_eval score ...`` in a new process (resources already on disk);
* ``ours warm``: ``Meteor.corpus_score`` in this process, after one untimed run;
* ``jar``: ``java -Xmx2G -jar meteor-1.5.jar HYP REF -l en [-norm] [-m ...]``, when Java and
  pycocoevalcap (which ships the jar) are installed;
* ``nltk``: ``nltk.translate.meteor_score`` over the same pairs in a new process, when NLTK
  and its WordNet data are installed (compare with ``--flavour nltk`` where this version has it).

Inputs default to ``../shared/data/meteor15``: xray system1 and newstest2009 (SGML segments
extracted to plain lines). Pass ``--hyp``/``--ref`` for any other files. Run from the repository
root::

    python benchmarks/bench_meteor.py                      # defaults, exact+stem+synonym
    python benchmarks/bench_meteor.py --modules all        # with paraphrases (needs the table)
    python benchmarks/bench_meteor.py --hyp H --ref R --jobs 1 2
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "meteor15"
SRC = ROOT / "src"


@dataclass
class Run:
    """One timed run."""

    label: str
    wall: float
    cpu: float
    rss_mb: float | None
    segments: int
    score: float | None

    @property
    def us_per_segment(self) -> float:
        return self.wall / self.segments * 1e6 if self.segments else float("nan")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _timed(cmd: list[str], *, env: dict[str, str] | None = None) -> tuple[str, float, float, float]:
    """Run a command; its stdout, wall seconds, CPU seconds (user+sys) and peak RSS in MB."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        text = out.read().decode("utf-8", "replace")
        if proc.returncode != 0:
            raise RuntimeError(f"{cmd[:3]} failed: {err.read().decode('utf-8', 'replace')[-2000:]}")
    return text, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def jar_path() -> Path | None:
    """meteor-1.5.jar from pycocoevalcap, if it and Java are installed."""
    if shutil.which("java") is None:
        return None
    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is None or not spec.submodule_search_locations:
        return None
    jar = Path(next(iter(spec.submodule_search_locations))) / "meteor" / "meteor-1.5.jar"
    return jar if jar.is_file() else None


def sgml_to_lines(path: Path, out: Path) -> Path:
    """The ``<seg>`` texts of a WMT SGML file, one a line, in file order."""
    text = path.read_text(encoding="utf-8")
    segs = [s.strip() for s in re.findall(r"<seg[^>]*>(.*?)</seg>", text, flags=re.S)]
    out.write_text("".join(s.replace("\n", " ") + "\n" for s in segs), encoding="utf-8")
    return out


def our_cli(args: argparse.Namespace, hyp: Path, ref: Path, jobs: int) -> list[str]:
    cmd = [sys.executable, "-m", "meteor_eval", "score", "--hyp", str(hyp), "--ref", str(ref)]
    cmd += ["--lang", args.lang, "--format", "json", "--no-progress", "--jobs", str(jobs)]
    if args.norm:
        cmd.append("--norm")
    if args.modules != "all":
        cmd += ["--modules", args.modules]
    if args.paraphrase_table:
        cmd += ["--paraphrase-table", args.paraphrase_table]
    return cmd


def jar_cmd(args: argparse.Namespace, jar: Path, hyp: Path, ref: Path) -> list[str]:
    cmd = ["java", "-Xmx2G", "-jar", str(jar), str(hyp), str(ref), "-l", args.lang]
    if args.norm:
        cmd.append("-norm")
    if args.modules != "all":
        cmd += ["-m", " ".join(args.modules.split(","))]
    return cmd


_NLTK_SCRIPT = """
import sys
from nltk.translate.meteor_score import meteor_score
hyps = open(sys.argv[1], encoding="utf-8").read().splitlines()
refs = open(sys.argv[2], encoding="utf-8").read().splitlines()
total = 0.0
for h, r in zip(hyps, refs):
    total += meteor_score([r.split()], h.split())
print(total / len(hyps))
"""


def warm_run(args: argparse.Namespace, hyp: Path, ref: Path, n: int) -> Run:
    """Ours in this process, after one untimed run that loads resources and fills caches."""
    sys.path.insert(0, str(SRC))
    from meteor_eval.metrics.meteor import Meteor, MeteorConfig

    options: dict[str, object] = {"language": args.lang}
    if args.norm:
        options["normalization"] = "norm"
    if args.modules != "all":
        options["modules"] = tuple(args.modules.split(","))
    if args.paraphrase_table:
        options["paraphrase_table"] = args.paraphrase_table
    scorer = Meteor(MeteorConfig.preset("meteor15", **options))  # type: ignore[arg-type]
    hyps = hyp.read_text(encoding="utf-8").splitlines()
    refs = [[r] for r in ref.read_text(encoding="utf-8").splitlines()]
    scorer.corpus_score(hyps, refs)
    best: Run | None = None
    for _ in range(args.repeat):
        start, cpu = time.perf_counter(), time.process_time()
        score = scorer.corpus_score(hyps, refs).score
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        run = Run("ours warm", wall, cpu, None, n, score)
        best = run if best is None or run.wall < best.wall else best
    assert best is not None
    return best


def best_of(label: str, cmd: list[str], repeat: int, n: int, parse: object) -> Run:
    best: Run | None = None
    for _ in range(repeat):
        out, wall, cpu, rss = _timed(cmd, env=_env())
        run = Run(label, wall, cpu, rss, n, parse(out))  # type: ignore[operator]
        best = run if best is None or run.wall < best.wall else best
    assert best is not None
    return best


def parse_ours(out: str) -> float:
    import json

    return float(json.loads(out)["score"])


def parse_jar(out: str) -> float:
    match = re.search(r"Final score:\s+(\S+)", out)
    if match is None:
        raise RuntimeError("the jar printed no final score")
    return float(match.group(1))


def bench(args: argparse.Namespace, name: str, hyp: Path, ref: Path) -> list[Run]:
    n = sum(1 for _ in hyp.open(encoding="utf-8"))
    runs: list[Run] = []
    jar = None if args.no_jar else jar_path()
    # Correctness first: one untimed run of each tool, scores compared.
    ours = parse_ours(_timed(our_cli(args, hyp, ref, 1), env=_env())[0])
    if jar is not None:
        theirs = parse_jar(_timed(jar_cmd(args, jar, hyp, ref))[0])
        if ours != theirs:
            raise SystemExit(f"{name}: scores differ: ours {ours!r}, jar {theirs!r}")
        print(f"{name}: jar and meteor-eval agree: {ours!r}", file=sys.stderr)
    for jobs in args.jobs:
        label = "ours cold" if jobs == 1 else f"ours cold -j{jobs}"
        runs.append(best_of(label, our_cli(args, hyp, ref, jobs), args.repeat, n, parse_ours))
    runs.append(warm_run(args, hyp, ref, n))
    if jar is not None:
        runs.append(best_of("jar", jar_cmd(args, jar, hyp, ref), args.repeat, n, parse_jar))
    if not args.no_nltk and importlib.util.find_spec("nltk") is not None:
        cmd = [sys.executable, "-c", _NLTK_SCRIPT, str(hyp), str(ref)]
        try:
            runs.append(best_of("nltk", cmd, args.repeat, n, float))
        except RuntimeError as exc:
            reason = [line for line in str(exc).splitlines() if line.strip()] or ["failed"]
            print(f"{name}: nltk skipped ({reason[-1].strip()})", file=sys.stderr)
    for run in runs:
        if run.score is not None and run.label.startswith("ours") and run.score != ours:
            raise SystemExit(f"{name}: {run.label} scored {run.score!r}, expected {ours!r}")
    return runs


def table(name: str, n: int, runs: list[Run]) -> str:
    jar = next((r for r in runs if r.label == "jar"), None)
    lines = [
        f"### {name} ({n:,} segments)",
        "",
        "| run | wall s | CPU s | peak RSS MB | us/segment | score | jar/ours wall "
        "| ours/jar RSS |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in runs:
        ratio = f"{jar.wall / r.wall:.1f}x" if jar and r.label != "jar" else ""
        rss = "" if r.rss_mb is None else f"{r.rss_mb:.0f}"
        rss_ratio = (
            f"{r.rss_mb / jar.rss_mb:.2f}"
            if jar and jar.rss_mb and r.rss_mb and r.label != "jar"
            else ""
        )
        score = "" if r.score is None else f"{r.score:.6f}"
        lines.append(
            f"| {r.label} | {r.wall:.2f} | {r.cpu:.2f} | {rss} | {r.us_per_segment:.0f} | "
            f"{score} | {ratio} | {rss_ratio} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hyp", type=Path, help="hypothesis file (default: the shared data)")
    parser.add_argument("--ref", type=Path, help="reference file")
    parser.add_argument("--lang", default="en")
    parser.add_argument("--no-norm", dest="norm", action="store_false", help="without -norm")
    parser.add_argument(
        "--modules", default="exact,stem,synonym", help="comma-separated, or 'all' (default esn)"
    )
    parser.add_argument("--paraphrase-table", help="paraphrase table for --modules all")
    parser.add_argument("--repeat", type=int, default=1, help="best of N timed runs")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1], help="--jobs values to time")
    parser.add_argument("--no-jar", action="store_true")
    parser.add_argument("--no-nltk", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.hyp or args.ref:
            if not (args.hyp and args.ref):
                parser.error("--hyp and --ref go together")
            inputs = [(args.hyp.name, args.hyp, args.ref)]
        else:
            news_h = sgml_to_lines(DATA / "newstest2009-test.sgm", Path(tmp) / "news.hyp")
            news_r = sgml_to_lines(DATA / "newstest2009-ref.sgm", Path(tmp) / "news.ref")
            inputs = [
                ("xray system1", DATA / "xray-system1.hyp", DATA / "xray-reference"),
                ("newstest2009 cmu-combo", news_h, news_r),
            ]
        for name, hyp, ref in inputs:
            runs = bench(args, name, hyp, ref)
            n = sum(1 for _ in hyp.open(encoding="utf-8"))
            print(table(name, n, runs) + "\n", flush=True)


if __name__ == "__main__":
    main()
