"""The new-process targets of the scale issue in one table: rows (a), (b) and (c).

Each row is a ratio of two tools measured in the same round, on xray system1 (2,489 segments of
``../shared/data/meteor15``) or the files given:

* **(a)** ``python -m meteor_eval score --norm`` (all four English modules, the paraphrase index
  already built) in a new process against ``java -Xmx2G -jar meteor-1.5.jar H R -l en -norm``:
  target jar / ours at least 40x, and our peak RSS at most a tenth of the jar's;
* **(b)** a new process importing ``meteor_eval.compat.nltk`` and calling ``meteor_score`` per
  pair against the same with ``nltk.translate.meteor_score``: target NLTK / ours at least 40x,
  with the same sum of scores;
* **(c)** the first run: (a)'s command with ``METEOR_EVAL_CACHE`` pointing at an empty folder
  (the paraphrase index is built from pycocoevalcap's ``paraphrase-en.gz``, then the score)
  against the jar: target ours / jar at most 0.6.

Scores are checked first (ours and the jar equal; our NLTK flavour and NLTK's sums equal).
Every round runs each tool once, in an interleaved order, so that a busy spell of a shared
machine falls on both sides of a ratio; the table gives the median over ``--repeat`` rounds
of each time and of each round's ratio (wall and CPU, CPU being user + system of the process
from ``wait4``), with the machine's load average before and after. Run from the repository
root::

    python benchmarks/bench_targets.py --repeat 5
    python benchmarks/bench_targets.py --hyp H --ref R --no-nltk
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_meteor as bm
from _common import official_jar

#: (row, target text, whether the target is met by the median ratio).
TARGETS: dict[str, tuple[str, Callable[[float], bool]]] = {
    "a": ("jar / ours >= 40x", lambda ratio: ratio >= 40.0),
    "a-rss": ("ours / jar <= 0.10", lambda ratio: ratio <= 0.10),
    "b": ("NLTK / ours >= 40x", lambda ratio: ratio >= 40.0),
    "c": ("ours / jar <= 0.60", lambda ratio: ratio <= 0.60),
}


@dataclass
class Samples:
    """Wall s, CPU s and peak RSS MB of one command over the rounds."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    rss: list[float] = field(default_factory=list)

    def add(self, wall: float, cpu: float, rss: float) -> None:
        self.wall.append(wall)
        self.cpu.append(cpu)
        self.rss.append(rss)


def _load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def _args() -> argparse.Namespace:
    """bench_meteor's options for (a)'s command: all modules, -norm, English."""
    return argparse.Namespace(lang="en", norm=True, modules="all", paraphrase_table=None)


def _timed(cmd: list[str], env: dict[str, str]) -> tuple[str, float, float, float]:
    return bm._timed(cmd, env=env)


def check_scores(
    args: argparse.Namespace, commands: dict[str, list[str] | None], env: dict[str, str]
) -> str:
    """Scores first: ours and the jar equal, our NLTK flavour's sum and NLTK's equal."""
    ours = bm.parse_ours(_timed(commands["ours"] or [], env)[0])
    jar = bm.parse_jar(_timed(commands["jar"] or [], env)[0])
    if ours != jar:
        raise SystemExit(f"scores differ: ours {ours!r}, jar {jar!r}")
    note = f"jar and meteor-eval agree ({ours!r})"
    if commands["nltk theirs"] is not None:
        sum_ours = float(_timed(commands["nltk ours"] or [], env)[0])
        sum_theirs = float(_timed(commands["nltk theirs"], env)[0])
        if sum_ours != sum_theirs:
            raise SystemExit(f"nltk sums differ: ours {sum_ours!r}, NLTK {sum_theirs!r}")
        note += f"; nltk sums agree ({sum_ours!r})"
    return note


def rounds(
    args: argparse.Namespace,
    commands: dict[str, list[str] | None],
    env: dict[str, str],
    tmp: Path,
) -> tuple[dict[str, Samples], dict[str, list[float]]]:
    """``--repeat`` interleaved rounds: each command's samples and each round's ratios."""
    runs: dict[str, Samples] = {}
    ratios: dict[str, list[float]] = {}

    def run(label: str, cmd: list[str] | None, run_env: dict[str, str]) -> tuple[float, ...]:
        _, wall, cpu, rss = _timed(cmd or [], run_env)
        runs.setdefault(label, Samples()).add(wall, cpu, rss)
        return wall, cpu, rss

    def ratio(key: str, value: float) -> None:
        ratios.setdefault(key, []).append(value)

    ours_label = "(a) meteor-eval, new process"
    for round_number in range(args.repeat):
        # Alternate which side goes first, so that neither always meets a cold page cache.
        if round_number % 2 == 0:
            ours = run(ours_label, commands["ours"], env)
            theirs = run("jar", commands["jar"], env)
        else:
            theirs = run("jar", commands["jar"], env)
            ours = run(ours_label, commands["ours"], env)
        ratio("a wall", theirs[0] / ours[0])
        ratio("a cpu", theirs[1] / ours[1])
        ratio("a-rss", ours[2] / theirs[2])
        if commands["nltk theirs"] is not None:
            mine = run("(b) meteor_eval.compat.nltk", commands["nltk ours"], env)
            other = run("nltk.translate.meteor_score", commands["nltk theirs"], env)
            ratio("b wall", other[0] / mine[0])
            ratio("b cpu", other[1] / mine[1])
        if not args.no_first_run:
            with tempfile.TemporaryDirectory(prefix="cache-", dir=tmp) as cache:
                first = run(
                    "(c) meteor-eval, first run (index built)",
                    commands["ours"],
                    {**env, "METEOR_EVAL_CACHE": cache},
                )
                if not list(Path(cache).glob("paraphrase-*.idx")):
                    raise SystemExit("the first run wrote no paraphrase index")
            ratio("c wall", first[0] / theirs[0])
            ratio("c cpu", first[1] / theirs[1])
    return runs, ratios


def print_tables(runs: dict[str, Samples], ratios: dict[str, list[float]]) -> None:
    """The medians of the runs, then one line per target with its verdict."""
    print("| run | wall s | CPU s | peak RSS MB |")
    print("|---|---:|---:|---:|")
    for label, samples in runs.items():
        print(
            f"| {label} | {statistics.median(samples.wall):.2f} | "
            f"{statistics.median(samples.cpu):.2f} | {statistics.median(samples.rss):.0f} |"
        )
    print("\n| row | target | median wall ratio | median CPU ratio | per round (wall) | met |")
    print("|---|---|---:|---:|---|---|")
    rss = ratios.get("a-rss")
    for row in ("a", "a-rss", "b", "c"):
        text, met = TARGETS[row]
        if row == "a-rss":
            if rss:
                median = statistics.median(rss)
                each = ", ".join(f"{v:.3f}" for v in rss)
                verdict = "yes" if met(median) else "no"
                print(f"| (a) peak RSS | {text} | {median:.3f} |  | {each} | {verdict} |")
            continue
        walls, cpus = ratios.get(f"{row} wall"), ratios.get(f"{row} cpu")
        if not walls or not cpus:
            continue
        wall, cpu = statistics.median(walls), statistics.median(cpus)
        unit = "" if row == "c" else "x"
        each = ", ".join(f"{v:.2f}{unit}" for v in walls)
        verdict = "yes" if met(wall) else "no"
        print(f"| ({row}) | {text} | {wall:.2f}{unit} | {cpu:.2f}{unit} | {each} | {verdict} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hyp", type=Path, default=bm.DATA / "xray-system1.hyp")
    parser.add_argument("--ref", type=Path, default=bm.DATA / "xray-reference")
    parser.add_argument("--repeat", type=int, default=3, help="rounds (medians are reported)")
    parser.add_argument("--no-nltk", action="store_true", help="skip row (b)")
    parser.add_argument("--no-first-run", action="store_true", help="skip row (c)")
    args = parser.parse_args()
    hyp, ref = args.hyp.resolve(), args.ref.resolve()
    n = sum(1 for _ in hyp.open(encoding="utf-8"))
    jar = official_jar(need_java=True)
    if jar is None:
        raise SystemExit("the jar (pycocoevalcap) and Java are needed for the ratios")
    compileall.compile_dir(str(bm.SRC / "meteor_eval"), quiet=1)
    env = bm._env()
    load_before = _load()
    with tempfile.TemporaryDirectory(prefix="bench-targets-") as folder:
        tmp = Path(folder)
        script = [sys.executable, "-c", bm._NLTK_SCRIPT, str(hyp), str(ref)]
        commands: dict[str, list[str] | None] = {
            "ours": bm.our_cli(_args(), hyp, ref, 1),
            "jar": bm.jar_cmd(_args(), jar, hyp, ref),
            "nltk ours": [*script, "meteor_eval.compat.nltk"],
            "nltk theirs": None,
        }
        if not args.no_nltk:
            data = bm.nltk_data_dir(tmp)
            theirs = [*script, "nltk.translate.meteor_score"]
            commands["nltk theirs"] = theirs if data is None else [*theirs, str(data)]
        note = check_scores(args, commands, env)
        print(f"{hyp.name} ({n:,} segments): {note}", file=sys.stderr)
        runs, ratios = rounds(args, commands, env, tmp)
    print(f"### {hyp.name} ({n:,} segments), median of {args.repeat} rounds\n")
    print(f"load average before: {load_before}; after: {_load()}\n")
    print_tables(runs, ratios)


if __name__ == "__main__":
    main()
