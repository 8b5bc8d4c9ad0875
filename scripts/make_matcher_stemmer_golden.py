"""Regenerate ``tests/reference/golden/matcher_stemmer/``: the jar's ``Matcher`` and ``Stemmer``.

Usage: ``python scripts/make_matcher_stemmer_golden.py [--jar PATH]``. Needs Java (recorded with
OpenJDK 17) and ``meteor-1.5.jar`` as shipped in PyPI ``pycocoevalcap`` 1.2 (found automatically),
with the English paraphrase table next to it (``meteor/data/paraphrase-en.gz``), which the
``Matcher``'s default modules load. Every case runs::

    java -Xmx2G -Dfile.encoding=UTF-8 -Dsun.stdout.encoding=UTF-8 -Dsun.stderr.encoding=UTF-8 \\
        -cp meteor-1.5.jar CLASS ARGS < STDIN

in a scratch folder holding the input files, and records the exit status, stdout and stderr.
The UTF-8 settings make the jar read and write UTF-8 whatever the machine's locale (Java 17
otherwise uses the locale's charset for stdin and stdout).

Inputs (all stored in ``cases.json.gz`` under ``"inputs"``, so the tests need nothing else):

* ``hyp``/``hyp2``/``ref``: the first 200 lines of ``xray-system1.hyp``, ``xray-system2.hyp`` and
  ``xray-reference`` (``../shared/data/meteor15``, the official METEOR 1.5 example data), as
  written: the ``Matcher`` neither normalises nor lower-cases. ``hyp150``/``ref150``: the first
  150 lines (files of different lengths).
* ``stdio``: ``hyp2 ||| ref`` lines for ``Matcher - - -stdio``, with a few malformed lines.
* ``stem-LANG``: lines of words for ``Stemmer LANG``, built (seed 2015) from the first column of
  ``golden/stemmers/LANG.tsv.gz``: 1 to 10 words a line separated by spaces and tabs, some
  lines empty, with leading and trailing blanks, number tokens, CRLF and CR line ends;
  ``stem-en-xray`` is ``xray-reference``'s first 200 lines.

Output: ``cases.json.gz``: ``{"inputs": {name: text}, "cases": {name: {"class", "args",
"stdin", "status", "stdout", "stderr"}}}``; in ``args``, ``{in}`` stands for the folder holding
the inputs.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import subprocess
import tempfile
from pathlib import Path

from _common import official_jar

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "reference" / "golden"
OUT = GOLDEN / "matcher_stemmer"
DATA = ROOT.parent / "shared" / "data" / "meteor15"

#: Languages of the jar's Stemmer that stem (its usage also lists ``ar``, which it refuses).
STEM_LANGUAGES = ("en", "da", "de", "es", "fi", "fr", "hu", "it", "nl", "no", "pt", "ro", "ru")
STEM_LANGUAGES += ("se", "tr")

ESN = "exact stem synonym"

# name -> (class, arguments, stdin input name or None)
MATCHER_CASES: dict[str, tuple[list[str], str | None]] = {
    "usage": ([], None),
    "usage-one-arg": (["{in}/hyp"], None),
    "unknown-option": (["{in}/hyp", "{in}/ref", "-m", "exact", "-e", "x"], None),
    "maxcov-default": (["{in}/hyp", "{in}/ref"], None),
    "maxacc-default": (["{in}/hyp", "{in}/ref", "-t", "maxacc"], None),
    "maxcov-esn": (["{in}/hyp", "{in}/ref", "-m", ESN], None),
    "maxacc-esn": (["{in}/hyp", "{in}/ref", "-m", ESN, "-t", "maxacc"], None),
    "maxacc-hyp2-default": (["{in}/hyp2", "{in}/ref", "-t", "maxacc", "-l", "en"], None),
    "maxacc-exact-para-x5": (
        ["{in}/hyp", "{in}/ref", "-m", "exact paraphrase", "-t", "maxacc", "-x", "5"],
        None,
    ),
    "maxcov-para-first": (["{in}/hyp2", "{in}/ref", "-m", "paraphrase exact stem"], None),
    "maxcov-fr-stem": (["{in}/hyp", "{in}/ref", "-l", "fr", "-m", "exact stem"], None),
    "maxcov-esn-x1": (["{in}/hyp2", "{in}/ref", "-m", ESN, "-x", "1"], None),
    "type-other-is-maxacc": (["{in}/hyp2", "{in}/ref", "-m", ESN, "-t", "accuracy"], None),
    "beam0": (["{in}/hyp5", "{in}/ref5", "-m", "exact stem", "-x", "0"], None),
    "no-modules": (["{in}/hyp5", "{in}/ref5", "-m", ""], None),
    "module-names-any-case": (["{in}/hyp5", "{in}/ref5", "-m", "EXACT Stem"], None),
    "stdio-default": (["-", "-", "-stdio"], "stdio"),
    "stdio-maxacc-esn": (["-", "-", "-stdio", "-t", "maxacc", "-m", ESN], "stdio"),
    "length-test-longer": (["{in}/hyp", "{in}/ref150", "-m", ESN], None),
    "length-ref-longer": (["{in}/hyp150", "{in}/ref", "-m", ESN], None),
}

STEMMER_CASES: dict[str, tuple[list[str], str | None]] = {
    "usage": ([], None),
    "usage-two-args": (["en", "fr"], None),
    **{f"lang-{code}": ([code], f"stem-{code}") for code in STEM_LANGUAGES},
    "lang-en-xray": (["en"], "stem-en-xray"),
    "lang-long-name": (["French"], "stem-fr"),
}


def _head(path: Path, n: int) -> str:
    lines = path.read_text(encoding="utf-8").split("\n")
    return "".join(f"{line}\n" for line in lines[:n])


def _stdio_input(hyp: str, ref: str) -> str:
    pairs = [f"{h} ||| {r}" for h, r in zip(hyp.splitlines(), ref.splitlines(), strict=True)]
    pairs.insert(3, "a line without the separator")
    pairs.insert(7, " ||| ")
    pairs.insert(11, "left|||right")
    pairs.insert(15, "one ||| two ||| three")
    return "".join(f"{line}\n" for line in pairs)


def _stem_words(code: str) -> list[str]:
    with gzip.open(GOLDEN / "stemmers" / f"{code}.tsv.gz", "rt", encoding="utf-8") as handle:
        return [line.split("\t", 1)[0] for line in handle.read().split("\n") if line]


def _stem_input(code: str, size: int = 3000, seed: int = 2015) -> str:
    rng = random.Random(f"{seed}-{code}")
    words = _stem_words(code)
    if len(words) > size:
        words = rng.sample(words, size)
    numbers = ["1,000.5", "-3", "12", "3.14", "2015", "1.2.3", "--", "12a"]
    out: list[str] = []
    k = 0
    while k < len(words):
        if rng.random() < 0.05:
            out.append("" if rng.random() < 0.5 else " \t ")
        n = rng.randint(1, 10)
        tokens = words[k : k + n]
        k += n
        if rng.random() < 0.2:
            tokens.insert(rng.randint(0, len(tokens)), rng.choice(numbers))
        line = ""
        for j, token in enumerate(tokens):
            if j:
                line += rng.choice([" ", " ", " ", "  ", "\t", " \t "])
            line += token
        if rng.random() < 0.1:
            line = "  " + line + " "
        out.append(line + rng.choice(["\n"] * 18 + ["\r\n", "\r"]))
    return "".join(out)


def build_inputs() -> dict[str, str]:
    hyp = _head(DATA / "xray-system1.hyp", 200)
    hyp2 = _head(DATA / "xray-system2.hyp", 200)
    ref = _head(DATA / "xray-reference", 200)
    inputs = {
        "hyp": hyp,
        "hyp2": hyp2,
        "ref": ref,
        "hyp150": _head(DATA / "xray-system1.hyp", 150),
        "ref150": _head(DATA / "xray-reference", 150),
        "hyp5": _head(DATA / "xray-system2.hyp", 5),
        "ref5": _head(DATA / "xray-reference", 5),
        "stdio": _stdio_input(hyp2, ref),
        "stem-en-xray": ref,
    }
    for code in STEM_LANGUAGES:
        inputs[f"stem-{code}"] = _stem_input(code)
    return inputs


def run_case(
    jar: Path, cls: str, args: list[str], stdin: str | None, folder: Path
) -> dict[str, object]:
    command = [
        "java",
        "-Xmx2G",
        "-Dfile.encoding=UTF-8",
        "-Dsun.stdout.encoding=UTF-8",
        "-Dsun.stderr.encoding=UTF-8",
        "-cp",
        str(jar),
        cls,
        *[a.format(**{"in": folder}) for a in args],
    ]
    data = b"" if stdin is None else (folder / stdin).read_bytes()
    done = subprocess.run(command, input=data, capture_output=True, cwd=folder, check=False)
    return {
        "class": cls,
        "args": args,
        "stdin": stdin,
        "status": done.returncode,
        "stdout": done.stdout.decode("utf-8"),
        "stderr": done.stderr.decode("utf-8"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--jar", type=Path, default=official_jar())
    args = parser.parse_args()
    if args.jar is None:
        raise SystemExit("meteor-1.5.jar not found: pip install pycocoevalcap, or pass --jar")
    inputs = build_inputs()
    cases: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        for name, text in inputs.items():
            (folder / name).write_bytes(text.encode("utf-8"))
        for cls, table in (("Matcher", MATCHER_CASES), ("Stemmer", STEMMER_CASES)):
            for name, (case_args, stdin) in table.items():
                key = f"{cls}/{name}"
                cases[key] = run_case(args.jar, cls, case_args, stdin, folder)
                print(key, cases[key]["status"], flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    payload = json.dumps({"inputs": inputs, "cases": cases}, ensure_ascii=False, sort_keys=True)
    (OUT / "cases.json.gz").write_bytes(gzip.compress(payload.encode("utf-8"), mtime=0))


if __name__ == "__main__":
    main()
