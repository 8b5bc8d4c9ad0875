"""Regenerate ``tests/reference/golden/jar/``: outputs of the official METEOR 1.5 jar.

Usage: ``python scripts/make_jar_golden.py [--jar PATH]``. Needs Java and the ``meteor-1.5.jar``
shipped by PyPI ``pycocoevalcap`` 1.2 (found automatically). Writes the small input files under
``inputs/`` and ``cases.json.gz``: for every case the jar's arguments, stdin file, exit status,
stdout, stderr and the files it wrote (``-f`` prefix). Arguments use placeholders: ``{inputs}``
(``golden/jar/inputs``), ``{data}`` (``../shared/data/meteor15``) and ``{out}`` (a scratch
folder). Every case avoids the paraphrase module so that it runs in seconds.
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import tempfile
from pathlib import Path

from _common import official_jar_or_exit

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "reference" / "golden" / "jar"
INPUTS = GOLDEN / "inputs"
DATA = ROOT.parent / "shared" / "data" / "meteor15"

ESN = "exact stem synonym"
#: The jar's recommended English setting: every module, normalised text.
EN_NORM_ESN = ["-l", "en", "-norm", "-m", ESN]
#: The score files of an SGML run (``-f PREFIX``).
SGML_SCORES = ["-sys.scr", "-doc.scr", "-seg.scr"]

HYP = (
    "\ufeffThe cat sat on the mat.\n"
    "A quick brown fox jumps over the lazy dogs\r"
    "He said: \"It's John's 1990's car.\" (really?)\r\n"
    "the the the cats\n"
    "\n"
    "Running runners ran quickly; state-of-the-art results\n"
    "caf\xe9 na\xefve r\xe9sum\xe9 \U0001f600 emoji\n"
    "Aa BB mr. smith met dr. who\n"
)
REF = (
    "The cat is sitting on the mat.\n"
    "The quick brown fox jumped over a lazy dog\n"
    "He said it was John's car from 1990.\n"
    "a cat\n"
    "nothing here\n"
    "Runners were running fast with the state of the art result\n"
    "cafe naive resume \U0001f600 emoji\n"
    "BB Aa Mr. Smith met Dr. Who\n"
)
REF_ALT = (
    "A cat sat on a mat.\n"
    "the quick brown fox jumps over the lazy dogs\n"
    "He said: it is John's 1990's car (really)\n"
    "the cats\n"
    "\n"
    "running runners ran quick ; state of the art results\n"
    "caf\xe9 na\xefve r\xe9sum\xe9 emoji\n"
    "Aa BB mr. smith met dr. who\n"
)


def _interleave(*files: str) -> str:
    columns = [f.splitlines() for f in files]
    return "".join(f"{line}\n" for group in zip(*columns, strict=True) for line in group)


TEST_SGM = """<tstset setid="set1" srclang="any" trglang="en">
<doc sysid="sysA" docid="d1" genre="news">
<p>
<seg id="1">The cat sat on the mat &amp; the dog.</seg>
<seg id="2">the cat
sat on the mat</seg>
<seg id=3>He said &quot;yes&quot; &LT;really&gt;</seg>
<seg id="10">ten is after two</seg>
</p>
</doc>
<doc sysid="sysA" docid="d2">
<seg id="1">  Another   document here  </seg>
<seg id="x">a string id</seg>
</doc>
<doc sysid="sysB" docid="d1">
<seg id="1">A cat on a mat and a dog.</seg>
<seg id="2">the catsat on the mat</seg>
</doc>
</tstset>
"""
REF_SGM = """<refset setid="set1" srclang="any" trglang="en">
<doc sysid="ref1" docid="d1">
<seg id="1">The cat sat on the mat and the dog.</seg>
<seg id="2">the cat sat on the mat</seg>
<seg id="3">He said "yes" <really></seg>
<seg id="4">a segment only in the reference</seg>
<seg id="10">ten comes after two</seg>
</doc>
<doc sysid="ref1" docid="d2">
<seg id="1">another document</seg>
<seg id="x">a string id</seg>
</doc>
<doc sysid="ref2" docid="d1">
<seg id="1">The cat sat on the mat and the dog.</seg>
<seg id="2">the catsat on the mat</seg>
<seg id="3">he said yes</seg>
</doc>
</refset>
"""

STDIO = (
    "SCORE ||| the cat sat on the mat ||| the cat sat on a mat\n"
    "SCORE ||| the cat ||| a cat ||| the dog sat\n"
    "score ||| Ref One ||| ref two ||| a ||| b\n"
    "SCOREXYZ ||| the cats ||| the cat\n"
    "SCORE ||| the cat |||\n"
    "SCORE ||| the cat ||| \n"
    "SCORE ||| ||| \n"
    "Score ||| the cat ||| the cat\n"
    "\n"
    "EVAL ||| 6 6 3 3 2 2 3 3 0 0 0 0 0 0 0 0 0 0 0 0 1 5 5 "
    "||| 2 2 1 1 1 1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 1 2 2\n"
    "EVAL ||| 7.0 8.0 2.0 3.0 4.0 4.0 2.0 2.0 1.0 1.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 "
    "3.0 7.0 7.0 99\n"
    "EVAL |||\n"
    "eval\n"
    "SING ||| 6 6 3 3 2 2 3 3 0 0 0 0 0 0 0 0 0 0 0 0 1 5 5\n"
    "SING ||| 6 6 3 3 2 2 3 3 0 0 0 0 0 0 0 0 0 0 0 0 1 5 5 "
    "||| 2 2 1 1 1 1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 1 2 2\n"
    "sing ||| 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
    "SCORE ||| He said: \"It's John's car.\" ||| he said it's johns car\n"
    "SCORE ||| a \U0001f600 b ||| a \U0001f600\n"
)

# name -> (arguments, stdin file or None, written file suffixes)
CASES: dict[str, tuple[list[str], str | None, list[str]]] = {
    "usage": ([], None, []),
    "usage-one-arg": (["x"], None, []),
    "unknown-option": (["{inputs}/small.hyp", "{inputs}/small.ref", "-nBest"], None, []),
    "plain-esn-norm": (
        ["{inputs}/small.hyp", "{inputs}/small.ref", *EN_NORM_ESN],
        None,
        [],
    ),
    "plain-vout-align": (
        [
            "{inputs}/small.hyp",
            "{inputs}/small.ref",
            "-lower",
            "-m",
            "exact stem",
            "-vOut",
            "-writeAlignments",
            "-f",
            "{out}/p",
        ],
        None,
        ["-align.out"],
    ),
    "plain-raw-align-default-prefix": (
        ["{inputs}/small.hyp", "{inputs}/small.ref", "-m", ESN, "-writeAlignments"],
        None,
        ["meteor-align.out"],
    ),
    "plain-ssout-ch": (
        ["{inputs}/small.hyp", "{inputs}/small.ref", "-norm", "-ch", "-ssOut", "-m", ESN],
        None,
        [],
    ),
    "plain-ch-block": (
        ["{inputs}/small.hyp", "{inputs}/small.ref", "-norm", "-ch", "-m", ESN, "-t", "util"],
        None,
        [],
    ),
    "plain-quiet": (["{inputs}/small.hyp", "{inputs}/small.ref", "-m", "exact", "-q"], None, []),
    "plain-r2": (
        [
            "{inputs}/small.hyp",
            "{inputs}/small.ref2",
            "-r",
            "2",
            "-norm",
            "-m",
            ESN,
            "-writeAlignments",
            "-f",
            "{out}/r",
        ],
        None,
        ["-align.out"],
    ),
    "plain-r2-null": (
        ["{inputs}/small.hyp", "{inputs}/small.ref2short", "-r", "2", "-norm", "-m", "exact"],
        None,
        [],
    ),
    "plain-length-mismatch": (
        ["{inputs}/small.hyp", "{inputs}/small.ref2", "-m", "exact"],
        None,
        [],
    ),
    "plain-util-no-ch": (
        ["{inputs}/small.hyp", "{inputs}/small.ref", "-t", "util", "-norm", "-m", ESN],
        None,
        [],
    ),
    "plain-p-custom": (
        [
            "{inputs}/small.hyp",
            "{inputs}/small.ref",
            "-m",
            ESN,
            "-t",
            "hter",
            "-norm",
            "-p",
            "0.5 1 0.5 0.5 9",
        ],
        None,
        [],
    ),
    "plain-p-only-other-lang": (
        [
            "{inputs}/small.hyp",
            "{inputs}/small.ref",
            "-l",
            "de",
            "-p",
            "0.7 1 0.3 0.6",
            "-m",
            "stem EXACT",
        ],
        None,
        [],
    ),
    "plain-w-fewer": (
        ["{inputs}/small.hyp", "{inputs}/small.ref", "-m", ESN, "-w", "1 0.5", "-norm"],
        None,
        [],
    ),
    "plain-m-repeat-resize": (
        [
            "{inputs}/small.hyp",
            "{inputs}/small.ref",
            "-m",
            "exact synonym exact",
            "-lower",
            "-m",
            "exact synonym",
            "-w",
            "1 0.25 0.5",
        ],
        None,
        [],
    ),
    "plain-fr": (
        ["{inputs}/small.hyp", "{inputs}/small.ref", "-l", "fr", "-m", "exact stem", "-norm"],
        None,
        [],
    ),
    "plain-da-rank-zero": (["{inputs}/small.hyp", "{inputs}/small.ref", "-l", "da"], None, []),
    "plain-se-li": (["{inputs}/small.hyp", "{inputs}/small.ref", "-l", "SV", "-lower"], None, []),
    "plain-other-tune": (
        ["{inputs}/small.hyp", "{inputs}/small.ref", "-l", "xx", "-t", "tune", "-noPunct"],
        None,
        [],
    ),
    "plain-tune-beam": (
        [
            "{inputs}/small.hyp",
            "{inputs}/small.ref",
            "-t",
            "tune",
            "-m",
            ESN,
            "-x",
            "2",
            "-norm",
            "-noPunct",
            "-vOut",
        ],
        None,
        [],
    ),
    "plain-adq-default-task": (
        ["{inputs}/small.hyp", "{inputs}/small.ref", "-t", "adq", "-t", "DEFAULT", "-m", ESN],
        None,
        [],
    ),
    "sgml-esn": (
        [
            "{inputs}/test.sgm",
            "{inputs}/ref.sgm",
            "-sgml",
            *EN_NORM_ESN,
            "-writeAlignments",
            "-f",
            "{out}/s",
        ],
        None,
        [*SGML_SCORES, "-align.out"],
    ),
    "sgml-vout": (
        [
            "{inputs}/test.sgm",
            "{inputs}/ref.sgm",
            "-sgml",
            "-vOut",
            "-lower",
            "-m",
            "exact stem",
            "-f",
            "{out}/v",
        ],
        None,
        SGML_SCORES,
    ),
    "sgml-ssout": (
        [
            "{inputs}/test.sgm",
            "{inputs}/ref.sgm",
            "-sgml",
            "-ssOut",
            "-m",
            "exact",
            "-f",
            "{out}/q",
        ],
        None,
        SGML_SCORES,
    ),
    "stdio-esn": (["-", "-", "-stdio", *EN_NORM_ESN], "stdio.in", []),
    "stdio-mira-ch-hter": (
        ["-", "-", "-mira", "-sgml", "-norm", "-ch", "-m", ESN, "-t", "hter", "-q"],
        "stdio.in",
        [],
    ),
    "stdio-raw-exact": (["-", "-", "-stdio", "-m", "exact", "-w", "0.5"], "stdio.in", []),
    "newstest2009-sgml-esn": (
        [
            "{data}/newstest2009-test.sgm",
            "{data}/newstest2009-ref.sgm",
            "-sgml",
            *EN_NORM_ESN,
            "-f",
            "{out}/n",
        ],
        None,
        SGML_SCORES,
    ),
}


def _write_inputs() -> None:
    INPUTS.mkdir(parents=True, exist_ok=True)
    (INPUTS / "small.hyp").write_bytes(HYP.encode("utf-8").replace(b"emoji\n", b"emoji \xff\n"))
    (INPUTS / "small.ref").write_text(REF, encoding="utf-8", newline="")
    pairs = _interleave(REF, REF_ALT)
    (INPUTS / "small.ref2").write_text(pairs, encoding="utf-8", newline="")
    (INPUTS / "small.ref2short").write_text(
        "".join(pairs.splitlines(keepends=True)[:-1]), encoding="utf-8", newline=""
    )
    (INPUTS / "test.sgm").write_text(TEST_SGM, encoding="utf-8", newline="")
    (INPUTS / "ref.sgm").write_text(REF_SGM, encoding="utf-8", newline="")
    (INPUTS / "stdio.in").write_text(STDIO, encoding="utf-8", newline="")


def expand(arg: str, out: Path) -> str:
    """Replace the placeholders of a golden argument."""
    return arg.format(inputs=INPUTS, data=DATA, out=out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jar", type=Path, default=None)
    args = parser.parse_args()
    jar = args.jar or official_jar_or_exit()
    _write_inputs()
    results = {}
    for name, (jar_args, stdin_name, files) in CASES.items():
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            argv = [expand(a, out) for a in jar_args]
            stdin = (INPUTS / stdin_name).read_bytes() if stdin_name else b""
            proc = subprocess.run(
                ["java", "-Xmx2G", "-jar", str(jar), *argv],
                input=stdin,
                capture_output=True,
                cwd=tmp,
                check=False,
            )
            written = {}
            for suffix in files:
                if suffix.startswith("meteor"):
                    path = out / suffix
                else:
                    path = Path(
                        expand(next(a for a in jar_args if a.startswith("{out}")), out) + suffix
                    )
                written[suffix] = path.read_bytes().decode("utf-8")
            results[name] = {
                "args": jar_args,
                "stdin": stdin_name,
                "status": proc.returncode,
                "stdout": proc.stdout.decode("utf-8"),
                "stderr": proc.stderr.decode("utf-8"),
                "files": written,
            }
            print(f"{name}: exit {proc.returncode}, {len(proc.stdout)} bytes")
    with gzip.open(GOLDEN / "cases.json.gz", "wt", encoding="utf-8") as handle:
        json.dump(results, handle, ensure_ascii=False, indent=0, sort_keys=True)


if __name__ == "__main__":
    main()
