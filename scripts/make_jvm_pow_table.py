"""Build the table of segment-level ``Math.pow`` results where the JVM differs from Python.

Usage: python scripts/make_jvm_pow_table.py   (needs ``javac``/``java``; OpenJDK 17 on x86-64)

The METEOR 1.5 jar computes the fragmentation penalty with ``Math.pow``, which HotSpot replaces by
a fast intrinsic that is not correctly rounded: for about one argument in ten it returns the
neighbouring double of the correctly rounded result that Python's ``math.pow`` gives. Most of
these one-ulp differences vanish in ``1 - gamma * pow``, but some reach the printed score.

For every task exponent of METEOR 1.5 (0.1, 0.2, 1.3, 1.4, 1.5), every exponent of the jar
Trainer's default beta axis (0.05 to 2.0 as its loop accumulates them) and every two-decimal
multiple of 0.05 up to 2.0, and every segment-level fragmentation ``K / (S / 2)`` (``S`` =
matched hypothesis + reference words up to ``MAX_S``, ``1 <= K <= S / 2``), this script runs
``scripts/java/JvmPow.java`` and records the pairs whose result differs from ``math.pow``, with
the difference in ulps, in ``src/meteor_eval/resources/data/jvm_pow.json.gz``.
"""

from __future__ import annotations

import gzip
import json
import math
import struct
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "meteor_eval" / "resources" / "data" / "jvm_pow.json.gz"
TASK_BETAS = ("0.1", "0.2", "1.3", "1.4", "1.5")


def _trainer_betas() -> tuple[str, ...]:
    """The exponents of the jar Trainer's beta axis (``0`` to ``2`` by ``0.05``, accumulated as
    its loop ``n += step`` accumulates them: ``0.15000000000000002``, ...) and the two-decimal
    values ``0.05`` to ``2.0`` a grid may start from; ``0`` needs no table (``pow(x, 0) = 1``)."""
    accumulated, n = [], 0.0
    while n <= 2.0 + 0.001:
        accumulated.append(n)
        n += 0.05
    literals = [float(f"{0.05 * k:.2f}") for k in range(41)]
    values = sorted({*accumulated, *literals} - {0.0} - {float(b) for b in TASK_BETAS})
    return tuple(repr(v) for v in values)


BETAS = TASK_BETAS + _trainer_betas()
MAX_S = 1000


def _bits(value: float) -> int:
    return int.from_bytes(struct.pack(">d", value), "big", signed=True)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            ["javac", "-d", tmp, str(ROOT / "scripts" / "java" / "JvmPow.java")], check=True
        )
        version = subprocess.run(
            ["java", "-version"], capture_output=True, text=True
        ).stderr.splitlines()[0]
        text = subprocess.run(
            ["java", "-cp", tmp, "JvmPow", str(MAX_S), *BETAS],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    lines = iter(text.splitlines())
    table: dict[str, list[list[int]]] = {}
    for beta_text in BETAS:
        header = next(lines)
        assert header == f"beta {beta_text}", header
        beta = float(beta_text)
        diffs: list[list[int]] = []
        for s in range(1, MAX_S + 1):
            for k in range(1, s // 2 + 1):
                jvm = int(next(lines), 16)
                jvm = jvm - (1 << 64) if jvm >= 1 << 63 else jvm
                ours = _bits(math.pow(k / (s / 2.0), beta))
                if jvm != ours:
                    diffs.append([s, k, jvm - ours])
        table[beta_text] = diffs
        print(f"beta {beta_text}: {len(diffs)} differences")
    payload = {
        "about": "Math.pow(K / (S / 2.0), beta) of the JVM minus Python's math.pow, in ulps, "
        "where they differ; produced by scripts/make_jvm_pow_table.py",
        "jvm": version,
        "max_s": MAX_S,
        "differences": table,
    }
    with gzip.GzipFile(OUT, "wb", mtime=0) as handle:
        handle.write(json.dumps(payload, separators=(",", ":")).encode("utf-8"))
    print(f"written {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
