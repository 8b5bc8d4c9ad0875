"""Re-run the edge cases E1-E45 of the METEOR 1.5 spec (section 8) with ``-m "exact stem synonym"``.

Usage: python scripts/make_edge_golden.py [--jar PATH]

Reads the inputs from the spec's table (../shared/spec/meteor-1.5.md), writes them one per line
to a hypothesis and a reference file, and runs, for each text mode (``-norm``, none, ``-lower``):

    java -Xmx2G -jar meteor-1.5.jar HYP REF -l en [-norm|-lower] -m "exact stem synonym" [-ssOut]

The inputs and the jar's segment scores and statistics lines are written to
tests/reference/golden/meteor15/edge_cases.json (jar from PyPI pycocoevalcap 1.2, OpenJDK 17).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import tempfile
from pathlib import Path

from _common import official_jar_or_exit

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT.parent / "shared" / "spec" / "meteor-1.5.md"
OUT = ROOT / "tests" / "reference" / "golden" / "meteor15" / "edge_cases.json"
MODES = {"norm": ["-norm"], "none": [], "lower": ["-lower"]}
MODULES = ["-m", "exact stem synonym"]


def _cell(text: str) -> str:
    text = text.strip()
    if text == "(empty)":
        return ""
    assert text.startswith("`") and text.endswith("`"), text
    body = text[1:-1].replace("\\|", "|").replace("\\t", "\t")
    return re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), body)


def parse_cases() -> list[dict[str, str]]:
    cases = []
    for line in SPEC.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^\| (E\d+) \| ", line)
        if not match or int(match.group(1)[1:]) > 45:
            continue
        cells = re.split(r"(?<!\\)\|", line)[1:-1]
        case_id, description, hyp, ref = (c.strip() for c in cells[:4])
        if case_id == "E42":  # long inputs are abbreviated in the table
            hyp_text = " ".join(["the cat sat on the mat"] * 50)
            ref_text = " ".join(["a cat sat on a mat"] * 50)
        else:
            hyp_text, ref_text = _cell(hyp), _cell(ref)
        cases.append(
            {"id": case_id, "case": description, "hypothesis": hyp_text, "reference": ref_text}
        )
    return cases


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jar", type=Path, default=None)
    args = parser.parse_args()
    jar = args.jar or official_jar_or_exit()
    cases = parse_cases()
    with tempfile.TemporaryDirectory() as tmp:
        hyp_file, ref_file = Path(tmp, "hyp"), Path(tmp, "ref")
        hyp_file.write_text("".join(c["hypothesis"] + "\n" for c in cases), encoding="utf-8")
        ref_file.write_text("".join(c["reference"] + "\n" for c in cases), encoding="utf-8")
        base = [
            "java",
            "-Xmx2G",
            "-jar",
            str(jar),
            str(hyp_file),
            str(ref_file),
            "-l",
            "en",
            *MODULES,
        ]
        for mode, flags in MODES.items():
            scores = subprocess.run(base + flags, capture_output=True, text=True, check=True).stdout
            stats = subprocess.run(
                base + flags + ["-ssOut"], capture_output=True, text=True, check=True
            ).stdout
            seg_scores = re.findall(r"^Segment \d+ score:\t(\S+)$", scores, flags=re.M)
            stat_lines = stats.strip("\n").split("\n")
            assert len(seg_scores) == len(cases) == len(stat_lines), (
                len(seg_scores),
                len(stat_lines),
            )
            system = re.search(r"^Final score:\s+(\S+)$", scores, flags=re.M)
            assert system is not None
            for case, score, row in zip(cases, seg_scores, stat_lines, strict=True):
                case[f"score_{mode}"] = score
                case[f"stats_{mode}"] = row
            for case in cases[:1]:
                case[f"system_{mode}"] = system.group(1)
    payload = {
        "tool": "meteor-1.5.jar from PyPI pycocoevalcap 1.2, OpenJDK 17.0.15",
        "command": "java -Xmx2G -jar meteor-1.5.jar HYP REF -l en [-norm|-lower] "
        "-m 'exact stem synonym' [-ssOut]; HYP/REF hold the cases one per line",
        "cases": cases,
    }
    OUT.write_text(json.dumps(payload, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(cases)} cases written to {OUT}")


if __name__ == "__main__":
    main()
