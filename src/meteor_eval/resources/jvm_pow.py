"""The METEOR 1.5 jar's ``Math.pow`` on segment-level fragmentations, where it differs from Python.

HotSpot (the JVM the jar runs on) computes ``Math.pow`` with a fast intrinsic that is not correctly
rounded; for a few hundred of the 250,000 segment-level fragmentations ``K / (S / 2)``
(``S`` = matched words of both sides up to 1,000) and each task exponent it returns a neighbour of
the double that Python's ``math.pow`` gives. The shipped table ``data/jvm_pow.json.gz`` (made by
``scripts/make_jvm_pow_table.py`` on OpenJDK 17, x86-64) lists those cases with the difference in
ulps, so that segment scores are bit-identical to the jar's. Outside the table (other exponents,
longer segments, pooled corpus statistics) Python's correctly rounded value is used, which can
differ from the jar in the last bit.
"""

from __future__ import annotations

import gzip
import json
import math
import struct
from functools import cache

from meteor_eval.resources.registry import data_file

__all__ = ["jvm_fragmentation_pow"]


@cache
def _table() -> tuple[int, dict[float, dict[tuple[int, int], int]]]:
    with gzip.open(data_file("jvm_pow.json.gz"), "rt", encoding="utf-8") as handle:
        payload = json.load(handle)
    table = {
        float(beta): {(s, k): delta for s, k, delta in rows}
        for beta, rows in payload["differences"].items()
    }
    return int(payload["max_s"]), table


def jvm_fragmentation_pow(chunks: int, matched: int, beta: float) -> float:
    """``Math.pow(chunks / (matched / 2.0), beta)`` as the jar's JVM computes it.

    Args:
        chunks: Number of chunks ``K``.
        matched: Matched hypothesis plus reference words ``S``.
        beta: The exponent.
    """
    value = math.pow(chunks / (matched / 2.0), beta)
    max_s, table = _table()
    corrections = table.get(beta)
    if corrections is None or matched > max_s:
        return value
    delta = corrections.get((matched, chunks))
    if delta is None:
        return value
    bits = struct.unpack(">q", struct.pack(">d", value))[0] + delta
    return float(struct.unpack(">d", struct.pack(">q", bits))[0])
