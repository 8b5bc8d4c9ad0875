"""Regenerate the long-document METEOR 1.5 goldens (tests/reference/golden/meteor15/longdoc.json).

Usage: python scripts/make_longdoc_stats_golden.py [--jar PATH] [--lines 130 400]

A document is the first N lines of the xray data of ../shared/data/meteor15 joined by single
spaces into one line (hypothesis: ``xray-system1.hyp``, reference: ``xray-reference``), as
document-level evaluation joins a document's segments. For each N the jar runs twice with a
large heap (its memory grows with the square of the document's length: 130 lines, about 2,500
tokens a side, take 5 to 7 GB)::

    java -Xmx8g -jar meteor-1.5.jar DOC.hyp DOC.ref -l en -norm -ssOut   # the 23 statistics
    java -Xmx8g -jar meteor-1.5.jar DOC.hyp DOC.ref -l en -norm          # "Final score:"

The jar is the one shipped in PyPI pycocoevalcap 1.2, run on OpenJDK 17. Documents for which
the jar fails (out of heap) are left out.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "meteor15"
OUT = ROOT / "tests" / "reference" / "golden" / "meteor15" / "longdoc.json"


def document(name: str, lines: int) -> str:
    """The first ``lines`` lines of a data file joined by spaces (one document line)."""
    text = (DATA / name).read_text(encoding="utf-8").split("\n")
    return " ".join(text[:lines])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jar", default=None, help="meteor-1.5.jar (default: pycocoevalcap's)")
    parser.add_argument("--lines", type=int, nargs="+", default=[130, 400])
    parser.add_argument("--heap", default="8g")
    args = parser.parse_args()
    jar = args.jar
    if jar is None:
        import pycocoevalcap

        jar = str(Path(next(iter(pycocoevalcap.__path__))) / "meteor" / "meteor-1.5.jar")
    goldens: dict[str, object] = {}
    for n in args.lines:
        with tempfile.TemporaryDirectory() as tmp:
            hyp, ref = Path(tmp) / "doc.hyp", Path(tmp) / "doc.ref"
            hyp.write_text(document("xray-system1.hyp", n) + "\n", encoding="utf-8")
            ref.write_text(document("xray-reference", n) + "\n", encoding="utf-8")
            base = ["java", f"-Xmx{args.heap}", "-jar", jar, str(hyp), str(ref), "-l", "en"]
            stats = subprocess.run([*base, "-norm", "-ssOut"], capture_output=True, text=True)
            out = subprocess.run([*base, "-norm"], capture_output=True, text=True)
        if stats.returncode or out.returncode:
            print(f"{n} lines: the jar failed ({(stats.stderr or out.stderr).strip()[:200]})")
            continue
        score = next(
            line.split()[-1] for line in out.stdout.splitlines() if line.startswith("Final score")
        )
        goldens[f"xray-first-{n}-lines"] = {
            "lines": n,
            "command": f"java -Xmx{args.heap} -jar meteor-1.5.jar DOC.hyp DOC.ref -l en -norm "
            "[-ssOut]",
            "stats": [int(float(x)) for x in stats.stdout.split()],
            "score": score,
        }
        print(n, score)
    OUT.write_text(json.dumps(goldens, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
