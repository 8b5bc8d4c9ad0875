"""The shipped table of the METEOR 1.5 jar's ``Math.pow`` results that differ from Python's.

HotSpot (the JVM the jar runs on) computes ``Math.pow`` with a fast intrinsic that is not correctly
rounded; for a few hundred of the 250,000 segment-level fragmentations ``K / (S / 2)``
(``S`` = matched words of both sides up to 1,000) and each exponent it returns a neighbour of
the double that Python's ``math.pow`` gives. The exponents listed are the task exponents and
those of the jar Trainer's grid (0.05 to 2.0, both as its loop accumulates them and as
two-decimal values), so that re-scoring over that grid (:mod:`meteor_eval.tuning`) gives the
jar's numbers. The table ``data/jvm_pow.json.gz`` (made by
``scripts/make_jvm_pow_table.py`` on OpenJDK 17, x86-64) lists those cases with the difference in
ulps. This module only reads it; the power itself is computed by
:func:`meteor_eval.metrics.meteor.formula.fragmentation_power`.
"""

from __future__ import annotations

import gzip
import json
from functools import cache

from meteor_eval.resources.registry import data_file

__all__ = ["jvm_pow_correction", "jvm_pow_differences"]


@cache
def _payload() -> tuple[int, dict[float, list[list[int]]]]:
    """``(max_s, {beta: [[S, K, ulps], ...]})`` as read from the shipped file (rows not indexed)."""
    with gzip.open(data_file("jvm_pow.json.gz"), "rt", encoding="utf-8") as handle:
        payload = json.load(handle)
    rows = {float(beta): listed for beta, listed in payload["differences"].items()}
    return int(payload["max_s"]), rows


@cache
def _corrections(beta: float) -> dict[tuple[int, int], int] | None:
    """``{(S, K): ulps}`` of one exponent, indexed on first use; ``None`` if it is not listed.

    Indexing only the exponent a run uses keeps a new process's cost at reading the file
    (the 72 exponents hold about 19,000 cases; one holds a few hundred).
    """
    listed = _payload()[1].get(beta)
    if listed is None:
        return None
    return {(s, k): delta for s, k, delta in listed}


def jvm_pow_correction(beta: float, matched: int, chunks: int) -> int:
    """The difference in ulps between the JVM's and Python's ``(K / (S / 2)) ** beta`` for
    ``S = matched``, ``K = chunks``: 0 when the table does not list the case.

    Example:
        >>> jvm_pow_correction(3.0, 2000, 1)  # S beyond the table's bound
        0
    """
    max_s, _rows = _payload()
    if matched > max_s:
        return 0
    corrections = _corrections(beta)
    if corrections is None:
        return 0
    return corrections.get((matched, chunks), 0)


def jvm_pow_differences() -> tuple[int, dict[float, dict[tuple[int, int], int]]]:
    """``(max_s, {beta: {(S, K): ulps}})``: the largest ``S`` the table covers and, per exponent,
    the difference in ulps between the JVM's and Python's power for each listed ``(S, K)``.

    The whole table, every exponent indexed (scoring asks :func:`jvm_pow_correction`)."""
    max_s, rows = _payload()
    table: dict[float, dict[tuple[int, int], int]] = {}
    for beta in rows:
        found = _corrections(beta)
        if found is not None:
            table[beta] = found
    return max_s, table
