"""Regenerate the METEOR 1.5 golden files under tests/reference/golden/meteor15 with the jar.

Usage: python scripts/make_meteor_golden.py [--jar PATH]

For every configuration below it runs, on the xray data of ../shared/data/meteor15,
``java -Xmx2G -jar meteor-1.5.jar HYP REF OPTIONS`` twice: once as is (scores, kept as
``NAME.out.gz``) and once with ``-ssOut`` (23 statistics per segment, ``NAME.stats.gz``).
The jar is the one shipped in PyPI pycocoevalcap 1.2, run on OpenJDK 17.
"""

from __future__ import annotations

import argparse
import gzip
import shlex
import subprocess
from pathlib import Path

from _common import official_jar_or_exit

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "meteor15"
OUT = ROOT / "tests" / "reference" / "golden" / "meteor15"

ESN = ["-m", "exact stem synonym"]
CONFIGS: dict[str, tuple[str, list[str]]] = {
    "xray-system1.en-norm-esn": ("xray-system1.hyp", ["-l", "en", "-norm", *ESN]),
    "xray-system2.en-norm-esn": ("xray-system2.hyp", ["-l", "en", "-norm", *ESN]),
    "xray-system1.en-norm-exact": ("xray-system1.hyp", ["-l", "en", "-norm", "-m", "exact"]),
    "xray-system1.en-lower-esn": ("xray-system1.hyp", ["-l", "en", "-lower", *ESN]),
    "xray-system1.en-esn": ("xray-system1.hyp", ["-l", "en", *ESN]),
    "xray-system1.en-norm-nopunct-esn": (
        "xray-system1.hyp",
        ["-l", "en", "-norm", "-noPunct", *ESN],
    ),
    "xray-system1.en-norm-adq-esn": ("xray-system1.hyp", ["-l", "en", "-norm", "-t", "adq", *ESN]),
    "xray-system1.en-norm-hter-esn": (
        "xray-system1.hyp",
        ["-l", "en", "-norm", "-t", "hter", *ESN],
    ),
    "xray-system1.en-norm-li-esn": ("xray-system1.hyp", ["-l", "en", "-norm", "-t", "li", *ESN]),
    "xray-system1.en-norm-tune-esn": (
        "xray-system1.hyp",
        ["-l", "en", "-norm", "-t", "tune", *ESN],
    ),
    "xray-system1.en-norm-util-esn": (
        "xray-system1.hyp",
        ["-l", "en", "-norm", "-t", "util", *ESN],
    ),
    "xray-system2.en-norm-esn-beam3": ("xray-system2.hyp", ["-l", "en", "-norm", "-x", "3", *ESN]),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jar", type=Path, default=None)
    args = parser.parse_args()
    jar = args.jar or official_jar_or_exit()
    OUT.mkdir(parents=True, exist_ok=True)
    commands = []
    for name, (hyp, options) in CONFIGS.items():
        base = ["java", "-Xmx2G", "-jar", str(jar), str(DATA / hyp), str(DATA / "xray-reference")]
        for suffix, extra in (("out", []), ("stats", ["-ssOut"])):
            cmd = base + options + extra
            result = subprocess.run(cmd, capture_output=True, check=True)
            with gzip.GzipFile(OUT / f"{name}.{suffix}.gz", "wb", mtime=0) as handle:
                handle.write(result.stdout)
            shown = [
                "java",
                "-Xmx2G",
                "-jar",
                "meteor-1.5.jar",
                hyp,
                "xray-reference",
                *options,
                *extra,
            ]
            commands.append(f"| `{name}.{suffix}.gz` | `{shlex.join(shown)}` |")
            print(name, suffix, "done")
    readme = OUT / "README.md"
    readme.write_text(
        "# METEOR 1.5 golden outputs\n\n"
        "Produced by `scripts/make_meteor_golden.py` with `meteor-1.5.jar` from PyPI pycocoevalcap"
        " 1.2 on OpenJDK 17.0.15, inputs from `../shared/data/meteor15` (xray, from the official"
        " METEOR 1.5 example data, LGPL-2.1). Each file is the jar's stdout, gzip-compressed.\n\n"
        "| file | command |\n|---|---|\n" + "\n".join(commands) + "\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
