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
import re
from functools import cache

from meteor_eval.resources.registry import data_file

__all__ = ["jvm_pow_correction", "jvm_pow_differences"]


def _text() -> str:
    """The shipped file's JSON text (about 230 KB)."""
    with gzip.open(data_file("jvm_pow.json.gz"), "rt", encoding="utf-8") as handle:
        return handle.read()


@cache
def _payload() -> tuple[int, dict[float, list[list[int]]]]:
    """``(max_s, {beta: [[S, K, ulps], ...]})`` as read from the shipped file (rows not indexed)."""
    payload = json.loads(_text())
    rows = {float(beta): listed for beta, listed in payload["differences"].items()}
    return int(payload["max_s"]), rows


@cache
def _max_s() -> int:
    """The largest ``S`` the table covers (the file's ``max_s``)."""
    found = re.search(r'"max_s":\s*(\d+)', _text())
    if found is None:  # pragma: no cover - the shipped file has it
        return _payload()[0]
    return int(found.group(1))


def _listed(beta: float) -> list[list[int]] | None:
    """The ``[[S, K, ulps], ...]`` of one exponent, parsed alone from the file's text: a run
    uses one exponent, and parsing all 72 would make about 60,000 Python objects (2.4 MB, part
    of a small run's peak memory) for the few hundred it needs."""
    text = _text()
    body = text.index('"differences":')
    for key in re.finditer(r'"([^"]+)":\s*\[', text[body + 14 :]):
        if _as_float(key.group(1)) != beta:
            continue
        start = body + 14 + key.end() - 1
        end = text.index("]]", start) + 2 if text[start + 1 : start + 2] == "[" else start + 2
        listed: list[list[int]] = json.loads(text[start:end])
        return listed
    return None


def _as_float(key: str) -> float | None:
    try:
        return float(key)
    except ValueError:
        return None


@cache
def _corrections(beta: float) -> dict[tuple[int, int], int] | None:
    """``{(S, K): ulps}`` of one exponent, indexed on first use; ``None`` if it is not listed.

    Indexing only the exponent a run uses keeps a new process's cost at reading the file
    (the 72 exponents hold about 19,000 cases; one holds a few hundred).
    """
    listed = _listed(beta)
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
    if matched > _max_s():
        return 0
    corrections = _corrections(beta)
    if corrections is None:
        return 0
    return corrections.get((matched, chunks), 0)


def jvm_pow_differences() -> tuple[int, dict[float, dict[tuple[int, int], int]]]:
    """``(max_s, {beta: {(S, K): ulps}})``: the largest ``S`` the table covers and, per exponent,
    the difference in ulps between the JVM's and Python's power for each listed ``(S, K)``.

    The whole table, every exponent indexed, from one parse of the whole file (scoring asks
    :func:`jvm_pow_correction`, which parses one exponent's part alone)."""
    max_s, rows = _payload()
    table = {beta: {(s, k): delta for s, k, delta in listed} for beta, listed in rows.items()}
    return max_s, table
