"""Build the Trainer fixtures and record the METEOR 1.5 jar's Trainer output on them.

Usage: ``python scripts/make_trainer_golden.py [--jar PATH] [--fixtures-only]``. Needs Java and
``meteor-1.5.jar`` (found inside the installed ``pycocoevalcap``, with its
``data/paraphrase-en.gz``, unless ``--jar`` is given), and ``../shared/data/meteor15``.

Fixtures (``tests/data/trainer/``), made from the METEOR 1.5 development data:

``segcor/``
    three systems in the Trainer's ``NAME.tst`` / ``NAME.ref`` / ``NAME.ter`` layout: ``xray1``
    and ``xray2`` (segments 1-60 of ``xray-system1.hyp`` / ``xray-system2.hyp`` against
    ``xray-reference``, as two documents of 30 segments with the same segment ids) and ``news``
    (the first three documents of ``newstest2009-test.sgm`` / ``-ref.sgm``). The development data
    has no human judgements, so each ``.ter`` line holds a stand-in computed here: the word error
    rate (word edit distance / reference words, lower-cased, split on spaces), four decimals.
``multiref/``
    one system, ``xray1m``: segments 61-100 of ``xray-system1.hyp`` against two references per
    segment (``xray-reference`` and, as a second reference, ``xray-system2.hyp``); the stand-in
    judgement is the word error rate against the first.
``rank/``
    ``fr-en.sys1.sgm``, ``fr-en.sys2.sgm``, ``fr-en.ref.sgm`` and ``fr-en.rank``: the official
    ``example/train`` ranking example (two segments with real human rankings) in SGML;
    ``xray-en.system1.sgm``, ``xray-en.system2.sgm``, ``xray-en.ref.sgm``: segments 1-80 of the
    xray data, and ``xray-en.rank``: for each segment, the system with the lower word error
    rate judged better (equal rates left out), plus two lines naming a system that has no file
    (skipped, as the jar skips them).

Goldens (``tests/reference/golden/trainer/``): for each case of :data:`CASES`, the jar's stdout
(``NAME.out.gz``); ``cases.json`` records each case's arguments and the order in which the
jar's ``File.list()`` returned the data directory (it decides the order of the segcor sums; the
tests replay it), and ``README.md`` the jar, Java version and commands.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import subprocess
import tempfile
from html import escape
from pathlib import Path

from _common import official_jar_or_exit

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "meteor15"
FIXTURES = ROOT / "tests" / "data" / "trainer"
GOLDEN = ROOT / "tests" / "reference" / "golden" / "trainer"

NARROW = [
    "-i", "0.6 0.0 0.2 0.6 1.0 0.4 0.6 0.0",
    "-f", "0.9 1.0 0.5 1.0 1.0 0.8 1.0 0.0",
    "-s", "0.1 0.25 0.15 0.2 0.05 0.2 0.2 0.05",
]  # fmt: skip
LOW_BETA = [
    "-i", "0.7 0.0 0.3 0.8 1.0 0.6 0.8 0.2",
    "-f", "0.9 0.3 0.6 0.9 1.0 0.6 0.8 0.6",
    "-s", "0.1 0.05 0.3 0.1 0.05 0.05 0.05 0.4",
]  # fmt: skip

# Exponents where the JVM's Math.pow differs from the correctly rounded power on some fixture
# segments (0.95, 1.2, 1.45 for segcor; 1.2, 1.4 for rank): the goldens pin the JVM's digits.
JVM_SEGCOR = [
    "-i", "0.6 0.95 0.4 0.7 1.0 0.6 0.8 0.6",
    "-f", "0.9 1.45 0.6 0.9 1.0 0.6 0.8 0.6",
    "-s", "0.3 0.25 0.2 0.2 0.05 0.05 0.05 0.05",
]  # fmt: skip
JVM_RANK = [
    "-i", "0.6 1.2 0.4 0.7 1.0 0.6 0.8 0.6",
    "-f", "0.9 1.4 0.6 0.9 1.0 0.6 0.8 0.6",
    "-s", "0.3 0.2 0.2 0.2 0.05 0.05 0.05 0.05",
]  # fmt: skip

#: name -> (task, fixture folder, extra arguments)
CASES: dict[str, tuple[str, str, list[str]]] = {
    "segcor-narrow": ("segcor", "segcor", NARROW),
    "segcor-lowbeta": ("segcor", "segcor", LOW_BETA),
    "segcor-nonorm": ("segcor", "segcor", ["-noNorm", *LOW_BETA]),
    "segcor-ch": ("segcor", "segcor", ["-ch", *LOW_BETA]),
    "spearman-narrow": ("spearman", "segcor", NARROW),
    "spearman-lowbeta": ("spearman", "segcor", LOW_BETA),
    "rank-narrow": ("rank", "rank", NARROW),
    "rank-lowbeta-eps": ("rank", "rank", ["-e", "0.01", *LOW_BETA]),
    "segcor-jvmpow": ("segcor", "segcor", JVM_SEGCOR),
    "spearman-jvmpow": ("spearman", "segcor", JVM_SEGCOR),
    "rank-jvmpow": ("rank", "rank", JVM_RANK),
    "segcor-multiref": ("segcor", "multiref", LOW_BETA),
    "spearman-multiref": ("spearman", "multiref", LOW_BETA),
}


def _wer(hyp: str, ref: str) -> float:
    h, r = hyp.lower().split(), ref.lower().split()
    previous = list(range(len(h) + 1))
    for i, word in enumerate(r, 1):
        current = [i]
        for j, other in enumerate(h, 1):
            current.append(
                min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (word != other))
            )
        previous = current
    return previous[-1] / max(1, len(r))


def _sgml(
    kind: str, set_id: str, system: str, docs: list[tuple[str, list[str]]], *, raw: bool = False
) -> str:
    """An SGML test or reference file; ``raw``: the texts are already escaped."""
    tag = "tstset" if kind == "tst" else "refset"
    sys_key = "sysid" if kind == "tst" else "refid"
    lines = [f'<{tag} trglang="en" setid="{set_id}" srclang="any">']
    for doc_id, segments in docs:
        lines.append(f'<doc {sys_key}="{system}" docid="{doc_id}">')
        lines += [
            f'<seg id="{k}">{text if raw else escape(text, quote=False)}</seg>'
            for k, text in enumerate(segments, 1)
        ]
        lines.append("</doc>")
    lines.append(f"</{tag}>")
    return "\n".join(lines) + "\n"


def _lines(name: str) -> list[str]:
    return (DATA / name).read_text(encoding="utf-8").splitlines()


def _news_docs(path: Path, n_docs: int) -> list[tuple[str, list[str]]]:
    docs: list[tuple[str, list[str]]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        found = re.search(r'docid="([^"]+)"', line)
        if found:
            if len(docs) == n_docs:
                break
            docs.append((found.group(1), []))
        seg = re.search(r"<seg id=\"?\d+\"?>(.*)</seg>", line)
        if seg and docs:
            docs[-1][1].append(seg.group(1).strip())
    return docs


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")


def _ter_lines(hyp_docs: list[tuple[str, list[str]]], ref_docs: list[tuple[str, list[str]]]) -> str:
    out = []
    for (doc, hyps), (_, refs) in zip(hyp_docs, ref_docs, strict=True):
        for k, (h, r) in enumerate(zip(hyps, refs, strict=True), 1):
            out.append(f"{doc} {k} {_wer(h, r):.4f}")
    return "\n".join(out) + "\n"


def write_segcor() -> None:
    folder = FIXTURES / "segcor"
    ref = _lines("xray-reference")[:60]
    ref_docs = [("xray-a", ref[:30]), ("xray-b", ref[30:])]
    for name, source in (("xray1", "xray-system1.hyp"), ("xray2", "xray-system2.hyp")):
        hyp = _lines(source)[:60]
        hyp_docs = [("xray-a", hyp[:30]), ("xray-b", hyp[30:])]
        _write(folder / f"{name}.tst", _sgml("tst", "xray", name, hyp_docs))
        _write(folder / f"{name}.ref", _sgml("ref", "xray", "ref", ref_docs))
        _write(folder / f"{name}.ter", _ter_lines(hyp_docs, ref_docs))
    news_hyp = _news_docs(DATA / "newstest2009-test.sgm", 3)
    news_ref = _news_docs(DATA / "newstest2009-ref.sgm", 3)
    _write(folder / "news.tst", _sgml("tst", "newstest2009", "cmu-combo", news_hyp, raw=True))
    _write(folder / "news.ref", _sgml("ref", "newstest2009", "ref", news_ref, raw=True))
    _write(folder / "news.ter", _ter_lines(news_hyp, news_ref))


def write_multiref() -> None:
    folder = FIXTURES / "multiref"
    hyp = _lines("xray-system1.hyp")[60:100]
    refs = {"ref": _lines("xray-reference")[60:100], "alt": _lines("xray-system2.hyp")[60:100]}
    _write(folder / "xray1m.tst", _sgml("tst", "xray", "xray1m", [("xray-c", hyp)]))
    text = ['<refset trglang="en" setid="xray" srclang="any">']
    for ref_id, segments in refs.items():
        body = _sgml("ref", "xray", ref_id, [("xray-c", segments)]).splitlines()[1:-1]
        text += body
    _write(folder / "xray1m.ref", "\n".join([*text, "</refset>"]) + "\n")
    _write(folder / "xray1m.ter", _ter_lines([("xray-c", hyp)], [("xray-c", refs["ref"])]))


def write_rank() -> None:
    folder = FIXTURES / "rank"
    for system in ("sys1", "sys2"):
        _write(
            folder / f"fr-en.{system}.sgm",
            _sgml("tst", "example", system, [("train", _lines(f"train-fr-en.{system}"))]),
        )
    _write(
        folder / "fr-en.ref.sgm",
        _sgml("ref", "example", "ref", [("train", _lines("train-fr-en.ref"))]),
    )
    _write(folder / "fr-en.rank", (DATA / "train-fr-en.rank").read_text(encoding="utf-8"))
    ref = _lines("xray-reference")[:80]
    hyps = {s: _lines(f"xray-{s}.hyp")[:80] for s in ("system1", "system2")}
    for system, hyp in hyps.items():
        _write(folder / f"xray-en.{system}.sgm", _sgml("tst", "xray", system, [("xray", hyp)]))
    _write(folder / "xray-en.ref.sgm", _sgml("ref", "xray", "ref", [("xray", ref)]))
    lines = []
    for k in range(80):
        one, two = _wer(hyps["system1"][k], ref[k]), _wer(hyps["system2"][k], ref[k])
        if one != two:
            better, worse = ("system1", "system2") if one < two else ("system2", "system1")
            lines.append(f"{k + 1}\txray-en\t{better}\txray-en\t{worse}")
    lines += ["3\txray-en\tsystem3\txray-en\tsystem1", "4\txray-en\tsystem1\txray-en\tsystem3"]
    _write(folder / "xray-en.rank", "\n".join(lines) + "\n")


def run_cases(jar: Path, names: list[str]) -> None:
    """Run the jar on the cases ``names``; keep the other cases' goldens and listings."""
    GOLDEN.mkdir(parents=True, exist_ok=True)
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr
    index = GOLDEN / "cases.json"
    manifest = json.loads(index.read_text(encoding="utf-8")) if index.exists() else {}
    for name in names:
        task, folder, extra = CASES[name]
        data_dir = FIXTURES / folder
        listing = os.listdir(data_dir)
        with tempfile.TemporaryDirectory() as tmp:
            argv = ["java", "-Xmx2G", "-cp", str(jar), "Trainer", task, str(data_dir), *extra]
            proc = subprocess.run(argv, capture_output=True, cwd=tmp, check=True)
        if os.listdir(data_dir) != listing:
            raise SystemExit(f"{data_dir} changed while the jar ran")
        with gzip.GzipFile(GOLDEN / f"{name}.out.gz", "wb", mtime=0) as handle:
            handle.write(proc.stdout)
        manifest[name] = {"task": task, "data": folder, "args": extra, "listing": listing}
        print(name, len(proc.stdout), "bytes")
    manifest = {name: manifest[name] for name in CASES if name in manifest}
    index.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    commands = []
    for name, (task, folder, extra) in CASES.items():
        shown = " ".join(f"'{a}'" if " " in a else a for a in extra)
        n_lines = gzip.decompress((GOLDEN / f"{name}.out.gz").read_bytes()).count(b"\n")
        commands.append(
            f"| `{name}.out.gz` | `java -Xmx2G -cp meteor-1.5.jar Trainer {task} "
            f"tests/data/trainer/{folder} {shown}` | {n_lines} |"
        )
    readme = [
        "# Golden outputs of the METEOR 1.5 jar's Trainer",
        "",
        "Made by `python scripts/make_trainer_golden.py` (which also builds the fixtures in",
        "`tests/data/trainer/`, see its docstring) with `meteor-1.5.jar` from PyPI `pycocoevalcap`",
        f"1.2 (with its `data/paraphrase-en.gz`) on {java.splitlines()[0]}, run in an empty",
        "working directory. Each file is the jar's stdout, gzipped. `cases.json` records each",
        "case's arguments and the order of the data directory's listing the jar saw (the order of",
        "its segcor sums); the tests replay that order.",
        "",
        "| file | command | lines |",
        "|---|---|---|",
        *commands,
        "",
    ]
    (GOLDEN / "README.md").write_text("\n".join(readme), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jar", type=Path, default=None)
    parser.add_argument("--fixtures-only", action="store_true")
    parser.add_argument(
        "--cases", nargs="+", choices=tuple(CASES), default=None, help="only these (default: all)"
    )
    args = parser.parse_args()
    write_segcor()
    write_multiref()
    write_rank()
    if not args.fixtures_only:
        run_cases(args.jar or official_jar_or_exit(), args.cases or list(CASES))


if __name__ == "__main__":
    main()
