"""Speed and memory of ``meteor-eval score`` against the official METEOR 1.5 jar and NLTK.

Every tool scores the same files in the same run. The scores are compared first (a benchmark of
tools that disagree would be meaningless); then each tool is timed and a table is printed:
wall time, CPU time, peak resident memory, microseconds per segment and our/their ratios.

* ``ours cold``: ``python -m meteor_eval score ...`` in a new process (resources already on disk);
* ``ours warm``: ``Meteor.corpus_score`` in this process, after one untimed run;
* ``jar``: ``java -Xmx2G -jar meteor-1.5.jar HYP REF -l en [-norm] [-m ...]``, when Java and
  pycocoevalcap (which ships the jar) are installed;
* ``nltk flavour (ours)`` and ``nltk (NLTK)``: a new process that imports
  ``meteor_eval.compat.nltk`` (respectively ``nltk.translate.meteor_score``) and calls
  ``meteor_score([ref.lower().split()], hyp.lower().split())`` once per pair; import and WordNet
  loading included. NLTK's WordNet is laid out from Debian's files with
  ``scripts/make_nltk_wordnet_dir.py`` unless ``--nltk-data`` names a folder. The two sums of
  scores must be equal.

Inputs default to ``../shared/data/meteor15``: xray system1 and newstest2009 (SGML segments
extracted to plain lines). Pass ``--hyp``/``--ref`` for any other files. Run from the repository
root::

    python benchmarks/bench_meteor.py                      # all four modules (the default)
    python benchmarks/bench_meteor.py --modules exact,stem,synonym
    python benchmarks/bench_meteor.py --hyp H --ref R --jobs 1 2
    python benchmarks/bench_meteor.py --combined --repeat 3   # the performance document's table

Timed runs alternate between the tools (ours, then the jar, ``--repeat`` times) and each row
keeps its fastest run. The package's bytecode is compiled first, so that new processes do not
compile sources (they would on every start with ``PYTHONDONTWRITEBYTECODE`` set).
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "meteor15"
SRC = ROOT / "src"
sys.path.insert(0, str(ROOT / "scripts"))

from _common import official_jar  # noqa: E402


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


# One fresh process scoring every pair with ``meteor_score`` of the module named by argv[3]
# (NLTK's or our drop-in); argv[4], when given, is put first on NLTK's data path. Import and
# WordNet loading are part of the measurement. Prints the sum of the sentence scores.
_NLTK_SCRIPT = """
import importlib, sys
if len(sys.argv) > 4:
    import nltk
    nltk.data.path.insert(0, sys.argv[4])
meteor_score = importlib.import_module(sys.argv[3]).meteor_score
hyps = open(sys.argv[1], encoding="utf-8").read().splitlines()
refs = open(sys.argv[2], encoding="utf-8").read().splitlines()
total = 0.0
for h, r in zip(hyps, refs):
    total += meteor_score([r.lower().split()], h.lower().split())
print(repr(total))
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


def keep_best(best: dict[str, Run], run: Run) -> None:
    """Keep ``run`` under its label if it is the fastest so far."""
    if run.label not in best or run.wall < best[run.label].wall:
        best[run.label] = run


def best_of(label: str, cmd: list[str], repeat: int, n: int, parse: object) -> Run:
    best: Run | None = None
    for _ in range(repeat):
        out, wall, cpu, rss = _timed(cmd, env=_env())
        run = Run(label, wall, cpu, rss, n, parse(out))  # type: ignore[operator]
        best = run if best is None or run.wall < best.wall else best
    assert best is not None
    return best


def nltk_runs(args: argparse.Namespace, name: str, hyp: Path, ref: Path, n: int) -> list[Run]:
    """Our nltk flavour (``meteor_eval.compat.nltk``) and, when installed, NLTK itself, timed
    alternately (``--repeat`` rounds, the fastest run of each kept)."""
    script = [sys.executable, "-c", _NLTK_SCRIPT, str(hyp), str(ref)]
    ours_cmd = [*script, "meteor_eval.compat.nltk"]
    theirs_cmd: list[str] | None = [*script, "nltk.translate.meteor_score"]
    if importlib.util.find_spec("nltk") is None:
        print(f"{name}: NLTK not installed", file=sys.stderr)
        theirs_cmd = None
    elif args.nltk_data:
        theirs_cmd = [*script, "nltk.translate.meteor_score", str(args.nltk_data)]
    best: dict[str, Run] = {}
    for _ in range(args.repeat):
        keep_best(best, best_of("nltk flavour (ours)", ours_cmd, 1, n, float))
        if theirs_cmd is None:
            continue
        try:
            keep_best(best, best_of("nltk (NLTK)", theirs_cmd, 1, n, float))
        except RuntimeError as exc:
            reason = [line for line in str(exc).splitlines() if line.strip()] or ["failed"]
            print(f"{name}: NLTK skipped ({reason[-1].strip()})", file=sys.stderr)
            theirs_cmd = None
    ours = best["nltk flavour (ours)"]
    theirs = best.get("nltk (NLTK)")
    if theirs is None:
        return [ours]
    if theirs.score != ours.score:
        raise SystemExit(f"{name}: nltk sums differ: ours {ours.score!r}, NLTK {theirs.score!r}")
    return [ours, theirs]


def nltk_data_dir(tmp: Path) -> Path | None:
    """An NLTK data folder with WordNet laid out from Debian's files, if that is possible."""
    maker = ROOT / "scripts" / "make_nltk_wordnet_dir.py"
    if not maker.is_file() or importlib.util.find_spec("nltk") is None:
        return None
    dest = tmp / "nltk_data"
    done = subprocess.run([sys.executable, str(maker), str(dest)], capture_output=True, env=_env())
    return dest if done.returncode == 0 else None


def parse_ours(out: str) -> float:
    """The corpus score in ``score --format json`` output (the results schema: one system)."""
    import json

    result = json.loads(out)
    if "systems" in result:
        return float(result["systems"][0]["meteor"]["score"])
    return float(result["score"])


def parse_jar(out: str) -> float:
    match = re.search(r"Final score:\s+(\S+)", out)
    if match is None:
        raise RuntimeError("the jar printed no final score")
    return float(match.group(1))


def bench(args: argparse.Namespace, name: str, hyp: Path, ref: Path) -> list[Run]:
    n = sum(1 for _ in hyp.open(encoding="utf-8"))
    runs: list[Run] = []
    jar = None if args.no_jar else official_jar(need_java=True)
    # Correctness first: one untimed run of each tool, scores compared.
    ours = parse_ours(_timed(our_cli(args, hyp, ref, 1), env=_env())[0])
    if jar is not None:
        theirs = parse_jar(_timed(jar_cmd(args, jar, hyp, ref))[0])
        if ours != theirs:
            raise SystemExit(f"{name}: scores differ: ours {ours!r}, jar {theirs!r}")
        print(f"{name}: jar and meteor-eval agree: {ours!r}", file=sys.stderr)
    # Timed runs alternate between the tools, so that a busy spell of a shared machine does not
    # fall on one of them only; each row keeps its best run.
    best: dict[str, Run] = {}
    for _ in range(args.repeat):
        for jobs in args.jobs:
            label = "ours cold" if jobs == 1 else f"ours cold -j{jobs}"
            keep_best(best, best_of(label, our_cli(args, hyp, ref, jobs), 1, n, parse_ours))
        if jar is not None:
            keep_best(best, best_of("jar", jar_cmd(args, jar, hyp, ref), 1, n, parse_jar))
    runs.extend(run for label, run in best.items() if label != "jar")
    runs.append(warm_run(args, hyp, ref, n))
    if "jar" in best:
        runs.append(best["jar"])
    if not args.no_nltk:
        runs.extend(nltk_runs(args, name, hyp, ref, n))
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
        ratio = f"{jar.wall / r.wall:.1f}x" if jar and r.label in ("ours cold", "ours warm") else ""
        rss = "" if r.rss_mb is None else f"{r.rss_mb:.0f}"
        rss_ratio = (
            f"{r.rss_mb / jar.rss_mb:.2f}"
            if jar and jar.rss_mb and r.rss_mb and r.label.startswith("ours cold")
            else ""
        )
        score = "" if r.score is None else f"{r.score:.6f}"
        if r.label.startswith("nltk"):
            score = "" if r.score is None else f"sum {r.score:.6f}"
        lines.append(
            f"| {r.label} | {r.wall:.2f} | {r.cpu:.2f} | {rss} | {r.us_per_segment:.0f} | "
            f"{score} | {ratio} | {rss_ratio} |"
        )
    ours_nltk = next((r for r in runs if r.label == "nltk flavour (ours)"), None)
    nltk = next((r for r in runs if r.label == "nltk (NLTK)"), None)
    if ours_nltk and nltk:
        lines.append("")
        lines.append(
            f"nltk flavour: NLTK / ours = {nltk.wall / ours_nltk.wall:.1f}x wall, "
            f"{nltk.cpu / ours_nltk.cpu:.1f}x CPU (same sum of scores)"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hyp", type=Path, help="hypothesis file (default: the shared data)")
    parser.add_argument("--ref", type=Path, help="reference file")
    parser.add_argument("--lang", default="en")
    parser.add_argument("--no-norm", dest="norm", action="store_false", help="without -norm")
    parser.add_argument(
        "--modules",
        default="all",
        help="comma-separated, or 'all' (default: all four, the official default)",
    )
    parser.add_argument("--paraphrase-table", help="paraphrase table for --modules all")
    parser.add_argument("--repeat", type=int, default=1, help="best of N timed runs")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1], help="--jobs values to time")
    parser.add_argument("--no-jar", action="store_true")
    parser.add_argument("--no-nltk", action="store_true")
    parser.add_argument(
        "--nltk-data", type=Path, help="NLTK data folder with WordNet (default: laid out here)"
    )
    parser.add_argument(
        "--combined",
        action="store_true",
        help="also score xray system1 + system2 + newstest2009 as one file (about 7,500 lines)",
    )
    args = parser.parse_args()
    # Fresh processes should load bytecode, not compile the sources (which they do on every
    # start when PYTHONDONTWRITEBYTECODE is set and the .pyc files are missing or stale).
    compileall.compile_dir(str(SRC / "meteor_eval"), quiet=1)
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
            if args.combined:
                xray_ref = (DATA / "xray-reference").read_text(encoding="utf-8")
                all_h, all_r = Path(tmp) / "all.hyp", Path(tmp) / "all.ref"
                all_h.write_text(
                    (DATA / "xray-system1.hyp").read_text(encoding="utf-8")
                    + (DATA / "xray-system2.hyp").read_text(encoding="utf-8")
                    + news_h.read_text(encoding="utf-8"),
                    encoding="utf-8",
                )
                all_r.write_text(
                    xray_ref + xray_ref + news_r.read_text(encoding="utf-8"), encoding="utf-8"
                )
                inputs.append(("xray system1 + system2 + newstest2009", all_h, all_r))
        if not args.no_nltk and args.nltk_data is None:
            args.nltk_data = nltk_data_dir(Path(tmp))
        for name, hyp, ref in inputs:
            runs = bench(args, name, hyp, ref)
            n = sum(1 for _ in hyp.open(encoding="utf-8"))
            print(table(name, n, runs) + "\n", flush=True)


if __name__ == "__main__":
    main()
