"""Regenerate the paraphrase golden files under tests/reference/golden/paraphrase with the jar.

Usage: python scripts/make_paraphrase_golden.py [--jar PATH]

Runs the official ``meteor-1.5.jar`` (PyPI pycocoevalcap 1.2, with its ``data/paraphrase-en.gz``;
OpenJDK 17) on the xray data of ../shared/data/meteor15 with the default English modules
(exact, stem, synonym, paraphrase):

* ``java -Xmx2G -jar meteor-1.5.jar xray-systemN.hyp xray-reference -l en -norm``
  -> ``xray-systemN.en-norm.out.gz`` (stdout, N = 1, 2);
* ``java -Xmx2G -jar meteor-1.5.jar xray-system1.hyp xray-reference -l en -norm
  -writeAlignments -f xray-system1.en-norm`` -> ``xray-system1.en-norm-align.out.gz`` (the
  alignment file the jar writes, spec section 6.3).
"""

from __future__ import annotations

import argparse
import gzip
import subprocess
import tempfile
from pathlib import Path

from _common import official_jar_or_exit

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "meteor15"
OUT = ROOT / "tests" / "reference" / "golden" / "paraphrase"


def run(jar: Path, args: list[str], cwd: Path) -> bytes:
    command = ["java", "-Xmx2G", "-jar", str(jar), *args]
    print("$", " ".join(command))
    return subprocess.run(command, cwd=cwd, check=True, capture_output=True).stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jar", type=Path, default=None)
    jar = (parser.parse_args().jar or official_jar_or_exit()).resolve()
    OUT.mkdir(parents=True, exist_ok=True)
    for system in ("xray-system1", "xray-system2"):
        hyp, ref = str(DATA / f"{system}.hyp"), str(DATA / "xray-reference")
        stdout = run(jar, [hyp, ref, "-l", "en", "-norm"], DATA)
        (OUT / f"{system}.en-norm.out.gz").write_bytes(gzip.compress(stdout, mtime=0))
    with tempfile.TemporaryDirectory() as folder:
        hyp, ref = str(DATA / "xray-system1.hyp"), str(DATA / "xray-reference")
        prefix = "xray-system1.en-norm"
        run(jar, [hyp, ref, "-l", "en", "-norm", "-writeAlignments", "-f", prefix], Path(folder))
        alignment = (Path(folder) / f"{prefix}-align.out").read_bytes()
    (OUT / "xray-system1.en-norm-align.out.gz").write_bytes(gzip.compress(alignment, mtime=0))


if __name__ == "__main__":
    main()
