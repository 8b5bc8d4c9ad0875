"""Steady-state cost per segment of METEOR 1.5 at scale: meteor-eval against the official jar.

Start-up (Java's, the paraphrase table's loading, Python's imports) dominates small inputs; this
benchmark subtracts it. Each tool scores a large input of real MT output and its first
``--small`` lines, in the same run; the marginal cost per segment is

    (time on the large input - time on the small one) / (segments of the large - of the small)

for wall time and for CPU time (user + system; the fairer figure on a shared machine). The
scores are compared first, as the jar prints them (Java ``Double.toString``): a benchmark of
tools that disagree would be meaningless.

* ``meteor-eval (process)``: ``python -m meteor_eval score --hyp H --ref R --norm`` (all four
  English modules), a new process per size;
* ``meteor-eval (in process)``: ``Meteor.corpus_score`` on both sizes in this process, after an
  untimed warm-up run (CPU time of this process);
* ``jar``: ``java -Xmx2G -jar meteor-1.5.jar H R -l en -norm`` (from pycocoevalcap), when Java
  and pycocoevalcap are installed.

The input: every to-English system output of the WMT22 general task scored against each of its
pair's references, distinct non-empty (hypothesis, reference) pairs in file order (139,691 pairs,
96,202 distinct hypotheses). Nothing is downloaded: ``--wmt DIR`` names a checkout of the
public repository ``wmt-conference/wmt22-news-systems`` (its ``txt/system-outputs`` and
``txt/references``). Without it, the input is built from ``../shared/data/meteor15`` (xray
systems 1 and 2 and newstest2009: about 7,500 pairs, too few for a steady state; the table says
so). Run from the repository root::

    python benchmarks/bench_steady.py --wmt PATH/TO/wmt22-news-systems
    python benchmarks/bench_steady.py --wmt PATH --no-jar --repeat 3
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from _common import official_jar
from bench_meteor import DATA, SRC, _env, _timed, sgml_to_lines

FINAL = re.compile(r"^Final score:\s+(\S+)", re.M)


def wmt_pairs(root: Path) -> list[tuple[str, str]]:
    """Distinct non-empty (hypothesis, reference) pairs of every to-English system output
    against each reference of its language pair, in sorted file order."""
    outputs = root / "txt" / "system-outputs"
    references = root / "txt" / "references"
    pairs: dict[tuple[str, str], None] = {}
    names = sorted(p.name for p in outputs.glob("generaltest2022.*-en.hyp.*.en"))
    langs = sorted({name.split(".")[1] for name in names})
    for lang in langs:
        for ref_file in sorted(references.glob(f"generaltest2022.{lang}.ref.*.en")):
            refs = ref_file.read_text(encoding="utf-8").split("\n")
            for name in (n for n in names if n.split(".")[1] == lang):
                hyps = (outputs / name).read_text(encoding="utf-8").split("\n")
                for hyp, ref in zip(hyps, refs, strict=False):
                    if hyp.strip() and ref.strip():
                        pairs[(hyp, ref)] = None
    return list(pairs)


def shared_pairs(tmp: Path) -> list[tuple[str, str]]:
    """The fallback input from ../shared/data/meteor15 (xray systems, newstest2009)."""
    ref = (DATA / "xray-reference").read_text(encoding="utf-8").splitlines()
    pairs: dict[tuple[str, str], None] = {}
    for name in ("xray-system1.hyp", "xray-system2.hyp"):
        hyps = (DATA / name).read_text(encoding="utf-8").splitlines()
        pairs.update(dict.fromkeys(zip(hyps, ref, strict=True)))
    test = sgml_to_lines(DATA / "newstest2009-test.sgm", tmp / "nt.hyp").read_text("utf-8")
    gold = sgml_to_lines(DATA / "newstest2009-ref.sgm", tmp / "nt.ref").read_text("utf-8")
    pairs.update(dict.fromkeys(zip(test.splitlines(), gold.splitlines(), strict=True)))
    return [(h, r) for h, r in pairs if h.strip() and r.strip()]


def write(pairs: list[tuple[str, str]], folder: Path, label: str) -> tuple[Path, Path]:
    hyp, ref = folder / f"{label}.hyp", folder / f"{label}.ref"
    hyp.write_text("".join(h + "\n" for h, _ in pairs), encoding="utf-8")
    ref.write_text("".join(r + "\n" for _, r in pairs), encoding="utf-8")
    return hyp, ref


def ours_process(hyp: Path, ref: Path) -> tuple[str, float, float, float]:
    """Our CLI in a new process: its score (as the jar prints it), wall, CPU, peak MB."""
    cmd = [sys.executable, "-m", "meteor_eval", "score", "--hyp", str(hyp), "--ref", str(ref)]
    cmd += ["--norm", "--format", "json", "--no-progress"]
    text, wall, cpu, rss = _timed(cmd, env=_env())
    import json

    from meteor_eval.javafmt import java_double

    return java_double(json.loads(text)["systems"][0]["meteor"]["score"]), wall, cpu, rss


def jar_run(jar: Path, hyp: Path, ref: Path) -> tuple[str, float, float, float]:
    cmd = ["java", "-Xmx2G", "-jar", str(jar), str(hyp), str(ref), "-l", "en", "-norm"]
    text, wall, cpu, rss = _timed(cmd)
    found = FINAL.search(text)
    if found is None:
        raise RuntimeError("the jar printed no final score")
    return found.group(1), wall, cpu, rss


def in_process(pairs: list[tuple[str, str]], small: int) -> tuple[str, str, float, float]:
    """Scores and CPU seconds of Meteor.corpus_score on both sizes, in this process."""
    from meteor_eval.javafmt import java_double
    from meteor_eval.metrics.meteor import Meteor, MeteorConfig

    config = MeteorConfig.preset("meteor15", normalization="norm")
    Meteor(config).corpus_score([h for h, _ in pairs[:small]], [[r] for _, r in pairs[:small]])
    results = []
    for part in (pairs[:small], pairs):
        scorer = Meteor(config)  # fresh caches: every word type and reference is new
        # The input's lists are made before the clock starts: they are the caller's (one list
        # a reference group, 139,691 of them, and the full collection of the cyclic GC they
        # set off), not the scorer's.
        hypotheses, references = [h for h, _ in part], [[r] for _, r in part]
        start = time.process_time()
        score = scorer.corpus_score(hypotheses, references).score
        results.append((java_double(score), time.process_time() - start))
    return results[0][0], results[1][0], results[0][1], results[1][1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wmt", type=Path, default=os.environ.get("WMT22_NEWS_SYSTEMS"))
    parser.add_argument("--small", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=1, help="runs per tool and size (fastest)")
    parser.add_argument("--no-jar", action="store_true")
    args = parser.parse_args()
    os.environ["PYTHONPATH"] = str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", "")
    sys.path.insert(0, str(SRC))
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        if args.wmt is not None and (Path(args.wmt) / "txt" / "system-outputs").is_dir():
            pairs = wmt_pairs(Path(args.wmt))
            source = f"WMT22 to-English system outputs ({args.wmt})"
        else:
            pairs = shared_pairs(tmp)
            source = "../shared/data/meteor15 (no --wmt: too few segments for a steady state)"
        n_small, n_large = min(args.small, len(pairs)), len(pairs)
        files = {
            "small": write(pairs[:n_small], tmp, "small"),
            "large": write(pairs, tmp, "large"),
        }
        print(f"input: {source}: {n_large:,} pairs, {len({h for h, _ in pairs}):,} distinct")
        print(f"sizes: {n_small:,} and {n_large:,} segments; fastest of {args.repeat} run(s)\n")
        tools: dict[str, dict[str, tuple[str, float, float, float]]] = {"meteor-eval": {}}
        jar = None if args.no_jar else official_jar(need_java=True)
        if jar is not None:
            tools["jar"] = {}
        for _ in range(args.repeat):
            for size, (hyp, ref) in files.items():
                runs = [("meteor-eval", lambda h=hyp, r=ref: ours_process(h, r))]
                if jar is not None:
                    runs.append(("jar", lambda h=hyp, r=ref, j=jar: jar_run(j, h, r)))
                for name, run in runs:
                    result = run()
                    best = tools[name].get(size)
                    if best is None or result[1] < best[1]:
                        tools[name][size] = result
        warm_small, warm_large, cpu_small, cpu_large = in_process(pairs, n_small)
        delta = n_large - n_small
        print(
            f"| tool | {n_small:,} segments | {n_large:,} segments | peak MB (large) |"
            " marginal us/segment, wall | marginal us/segment, CPU | score (large) |"
        )
        print("|---|---:|---:|---:|---:|---:|---|")
        marginal: dict[str, float] = {}
        for name, sizes in tools.items():
            s, lg = sizes["small"], sizes["large"]
            wall_us = (lg[1] - s[1]) / delta * 1e6
            cpu_us = (lg[2] - s[2]) / delta * 1e6
            marginal[name] = cpu_us
            print(
                f"| {name} (process) | {s[1]:.2f} s | {lg[1]:.2f} s | {lg[3]:.0f} | "
                f"{wall_us:.1f} | {cpu_us:.1f} | {lg[0]} |"
            )
        warm_us = (cpu_large - cpu_small) / delta * 1e6
        print(
            f"| meteor-eval (in process) | {cpu_small:.2f} s CPU | {cpu_large:.2f} s CPU | | "
            f"| {warm_us:.1f} | {warm_large} |"
        )
        scores = {sizes["large"][0] for sizes in tools.values()} | {warm_large}
        small_scores = {sizes["small"][0] for sizes in tools.values()} | {warm_small}
        print()
        print("scores equal:", len(scores) == 1 and len(small_scores) == 1)
        if "jar" in marginal:
            ratio = marginal["jar"] / marginal["meteor-eval"]
            print(f"marginal CPU cost, jar / meteor-eval (process): {ratio:.1f}x")
            warm_ratio = marginal["jar"] / warm_us
            print(f"marginal CPU cost, jar / meteor-eval (in process): {warm_ratio:.1f}x")


if __name__ == "__main__":
    main()
