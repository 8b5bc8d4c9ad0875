"""Regenerate tests/reference/golden/longdoc/meteor15.json: METEOR 1.5 of long natural
documents, as the official jar scores them.

Usage: python scripts/make_longdoc_golden.py [--jar PATH] [--lines 80 200]

A document is the first N lines of ``../shared/data/meteor15/xray-system1.hyp`` joined with
single spaces (one line), against the first N lines of ``xray-reference`` joined the same way:
consecutive real sentences, as document-level evaluation joins them. For each N the jar
(PyPI pycocoevalcap 1.2's ``meteor-1.5.jar``, OpenJDK 17) runs as::

    java -Xmx8g -jar meteor-1.5.jar HYP REF -l en -norm

(the default English modules: exact, stem, synonym, paraphrase; 8 GB of heap, since the jar
keeps every candidate match: its default heap runs out on documents of about 8,000 tokens).
The file records, per N, the command, the heap, the jar's segment score (``Segment 1 score``,
printed with Java's shortest round-trip digits), its wall time and the token counts.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import tempfile
import time
from pathlib import Path

from _common import official_jar_or_exit

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "meteor15"
OUT = ROOT / "tests" / "reference" / "golden" / "longdoc" / "meteor15.json"
HEAP = "-Xmx8g"


def document(name: str, n_lines: int) -> str:
    """The first ``n_lines`` lines of a data file joined with single spaces."""
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()[:n_lines]
    return " ".join(line.strip() for line in lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jar", type=Path, default=None)
    parser.add_argument("--lines", type=int, nargs="+", default=[80, 200])
    args = parser.parse_args()
    jar = (args.jar or official_jar_or_exit()).resolve()
    cases = []
    with tempfile.TemporaryDirectory() as folder:
        for n in args.lines:
            hyp, ref = Path(folder) / "hyp.txt", Path(folder) / "ref.txt"
            hyp.write_text(document("xray-system1.hyp", n) + "\n", encoding="utf-8")
            ref.write_text(document("xray-reference", n) + "\n", encoding="utf-8")
            command = ["java", HEAP, "-jar", str(jar), str(hyp), str(ref), "-l", "en", "-norm"]
            print("$", " ".join(command), flush=True)
            start = time.perf_counter()
            out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
            seconds = time.perf_counter() - start
            score = re.search(r"^Segment 1 score:\s*(\S+)", out, re.MULTILINE)
            assert score is not None, out
            cases.append(
                {
                    "lines": n,
                    "hyp_words": len(hyp.read_text(encoding="utf-8").split()),
                    "ref_words": len(ref.read_text(encoding="utf-8").split()),
                    "command": "java -Xmx8g -jar meteor-1.5.jar HYP REF -l en -norm",
                    "heap": HEAP,
                    "segment_score": score.group(1),
                    "jar_seconds": round(seconds, 1),
                }
            )
            print(cases[-1], flush=True)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"cases": cases}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
