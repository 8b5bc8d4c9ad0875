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

import json
import threading
import zlib
from functools import cache

from meteor_eval.resources.registry import data_file

__all__ = ["jvm_pow_correction", "jvm_pow_differences"]


def _text() -> bytes:
    """The shipped file's whole JSON text (about 230 KB, ASCII), its gzip checksum checked."""
    import gzip  # only here: a run reads part of the file through zlib (_Inflated)

    return gzip.decompress(data_file("jvm_pow.json.gz").read_bytes())


class _Inflated:
    """The shipped file's JSON text, inflated only as far as it has been searched.

    A run needs the largest ``S`` (the file's first key) and one exponent's list; the task
    exponents come first in the file: those of 0.1 and 0.2 end within its first 10.5 KB of text
    (of 229 KB), those of 0.05 and 1.3 to 1.5 within 23.5 KB; the Trainer grid's 1.0 stands at
    about 117 KB. Bytes, not text: the parts parsed are decoded by :func:`json.loads`, the rest
    is only searched. One object serves the process, so a lock keeps its inflater to one thread
    at a time (zlib lets other threads run while it inflates); the compressed bytes are let go
    once the whole file is inflated, when the gzip trailer's checksum has been checked.
    """

    _STEP = 4096  # compressed bytes inflated at a time (about 13 KB of text)

    def __init__(self, compressed: bytes) -> None:
        self._inflater = zlib.decompressobj(wbits=31)  # 31: a gzip header and trailer
        self._compressed = compressed
        self._fed = 0
        self._lock = threading.Lock()
        self.text = b""

    def _more(self) -> bool:
        """Inflate the next step; False once the whole file is inflated (the caller holds the
        lock)."""
        if self._fed >= len(self._compressed):
            return False
        step = self._compressed[self._fed : self._fed + self._STEP]
        self._fed += len(step)
        self.text += self._inflater.decompress(step)
        if self._fed >= len(self._compressed):
            if not self._inflater.eof:  # pragma: no cover - the shipped file is whole
                raise zlib.error("the JVM power table ends before its gzip trailer")
            self._compressed = b""
            self._fed = 0
        return True

    def index(self, sub: bytes, start: int) -> int:
        """``text.index(sub, start)``, inflating until found (ValueError if never)."""
        with self._lock:
            while True:
                found = self.text.find(sub, start)
                if found >= 0 or not self._more():
                    break
        if found < 0:
            raise ValueError(f"{sub!r} not in the table")
        return found

    def upto(self, end: int) -> bytes:
        """The text up to ``end`` (less at the end of the file)."""
        with self._lock:
            while len(self.text) < end and self._more():
                pass
            return self.text


@cache
def _inflated() -> _Inflated:
    return _Inflated(data_file("jvm_pow.json.gz").read_bytes())


@cache
def _payload() -> tuple[int, dict[float, list[list[int]]]]:
    """``(max_s, {beta: [[S, K, ulps], ...]})`` as read from the shipped file (rows not indexed)."""
    payload = json.loads(_text())
    rows = {float(beta): listed for beta, listed in payload["differences"].items()}
    return int(payload["max_s"]), rows


@cache
def _max_s() -> int:
    """The largest ``S`` the table covers (the file's ``max_s``), read where the key stands
    rather than by parsing the whole file or compiling a pattern for it."""
    inflated = _inflated()
    try:
        at = inflated.index(b'"max_s":', 0)
    except ValueError:  # pragma: no cover - the shipped file has it
        return _payload()[0]
    value = inflated.upto(at + 40)[at + 8 : at + 40].lstrip(b" \t\n\r")
    return int(value[: len(value) - len(value.lstrip(b"0123456789"))])


def _listed(beta: float) -> list[list[int]] | None:
    """The ``[[S, K, ulps], ...]`` of one exponent, parsed alone from the file's text: a run
    uses one exponent, and parsing all 72 would make about 60,000 Python objects (2.4 MB, part
    of a small run's peak memory) for the few hundred it needs.

    The ``differences`` object is walked key by key (each value is a list of ``[S, K, ulps]``
    lists, so it ends at the first ``]]``, or is ``[]``), without a pattern to compile.
    """
    inflated = _inflated()
    at = inflated.index(b'"differences":', 0) + 14
    while True:
        opening = inflated.index(b'"', at)
        closing = inflated.index(b'"', opening + 1)
        start = inflated.index(b"[", closing)
        if inflated.upto(start + 2)[start + 1 : start + 2] == b"[":
            end = inflated.index(b"]]", start) + 2
        else:
            end = start + 2
        text = inflated.upto(end + 8)
        if _as_float(text[opening + 1 : closing]) == beta:
            listed: list[list[int]] = json.loads(text[start:end])
            return listed
        after = text[end : end + 8].lstrip(b" \t\n\r")
        if not after.startswith(b","):  # the object's closing brace: not listed
            return None
        at = end


def _as_float(key: str | bytes) -> float | None:
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
