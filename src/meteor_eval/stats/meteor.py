"""METEOR sufficient statistics: the 23-number record of METEOR 1.5 (spec sections 1.5, 4.5, 5.5).

Field order of :meth:`MeteorStats.to_row` (the jar's ``-ssOut`` line):

====  =================================================================
1     hypothesis length (tokens; characters in character mode)
2     reference length
3     hypothesis function words
4     reference function words
5-8   stage 1: hyp content, ref content, hyp function, ref function matches
9-12  stage 2, same four fields
13-16 stage 3
17-20 stage 4
21    chunks
22    hypothesis matched words
23    reference matched words
====  =================================================================

Records add with ``+`` following the jar's aggregation: all fields are summed, except that the
chunks of a *perfect* record (every unit of both sides matched, in one chunk) are not added.
:meth:`MeteorStats.merge` can switch that rule off for flavours that sum chunks plainly.

The rule is written once, in :func:`is_perfect`, on numbers or on NumPy columns alike: a record
(:attr:`MeteorStats.is_perfect`), a row (:func:`perfect_row`, :func:`merge_row`), a block of
rows (:func:`perfect_rows`: the compiled batch path, the scores of resampled totals and the
fragmentation triples of the batch and re-scoring paths) and the compiled pair kernel's records
all call it; no caller sums the matched units for it on its own.

A record has one row layout, the jar's above (statistics files, the metric protocol, the
compiled batch kernel ``meteor15_rows``). The compiled per-pair kernels (``word_stats``,
``meteor15_pair``) return a compact record instead: four lengths, chunks, hypothesis and
reference matched words, then four numbers per configured stage (any number of stages);
:func:`stats_of_compiled` reads it, the one place that knows that order.
"""

from __future__ import annotations

import operator
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

from meteor_eval._ext import compiled_kernels
from meteor_eval.errors import InputError
from meteor_eval.match.base import Match

__all__ = [
    "ROW_COLUMNS",
    "ROW_LENGTH",
    "MeteorStats",
    "StageCounts",
    "is_perfect",
    "merge_row",
    "perfect_row",
    "perfect_rows",
    "pool_flat",
    "pool_flat_python",
    "row_problem",
    "stats_from_alignment",
    "stats_of_compiled",
]

#: Names of the numbers of a statistics row, in the jar's order.
ROW_COLUMNS: tuple[str, ...] = (
    "hyp_length",
    "ref_length",
    "hyp_function",
    "ref_function",
    *(
        f"stage{k}_{side}"
        for k in range(1, 5)
        for side in ("hyp_content", "ref_content", "hyp_function", "ref_function")
    ),
    "chunks",
    "hyp_matched",
    "ref_matched",
)

#: Number of numbers in a statistics row.
ROW_LENGTH = len(ROW_COLUMNS)

#: Matches of one stage: (hyp content, ref content, hyp function, ref function).
StageCounts = tuple[int, int, int, int]

_ZERO_STAGE: StageCounts = (0, 0, 0, 0)


def is_perfect(
    chunks: Any, hyp_total: Any, ref_total: Any, hyp_length: Any, ref_length: Any
) -> Any:
    """METEOR 1.5's perfect segment (spec 5.2, 5.5): one chunk and every unit of both sides
    matched (``hyp_total``, ``ref_total``: the matched units over every stage). Its
    fragmentation is 0 and, pooled, it adds no chunks.

    The one statement of the rule: on numbers it gives a ``bool``; on NumPy columns (one entry
    per row), a boolean column.

    Example:
        >>> is_perfect(1, 6, 6, 6, 6), is_perfect(2, 6, 6, 6, 6), is_perfect(1, 5, 6, 6, 6)
        (True, False, False)
    """
    return (chunks == 1) & (hyp_total == hyp_length) & (ref_total == ref_length)


def perfect_row(row: Sequence[float]) -> bool:
    """:func:`is_perfect` of a row in the jar's order."""
    # A segment of more than one chunk (the common case) is not perfect: no sums needed.
    return row[20] == 1 and bool(
        is_perfect(row[20], sum(row[4:20:2]), sum(row[5:20:2]), row[0], row[1])
    )


def perfect_rows(rows: Any) -> Any:
    """:func:`is_perfect` of each row of a NumPy block in the jar's order (a boolean column)."""
    return is_perfect(
        rows[:, 20],
        rows[:, 4:20:2].sum(axis=1),
        rows[:, 5:20:2].sum(axis=1),
        rows[:, 0],
        rows[:, 1],
    )


def merge_row(
    total: Sequence[float], row: Sequence[float], skip_perfect_chunks: bool = True
) -> tuple[float, ...]:
    """``total`` plus one segment's ``row`` (both in the jar's order): sums, except that with
    ``skip_perfect_chunks`` a perfect segment adds no chunks (:meth:`MeteorStats.merge` on
    rows)."""
    # row[20] == 1 first: most segments have other chunk counts (no call, on the protocol's
    # merge of every row)
    if skip_perfect_chunks and row[20] == 1 and perfect_row(row):
        row = (*row[:20], 0, *row[21:])
    return tuple(map(operator.add, total, row))


def stats_of_compiled(row: Sequence[int]) -> MeteorStats:
    """The record of a compiled per-pair kernel's compact row (lengths, chunks, matched words,
    then four numbers per stage: module docstring)."""
    stages = cast(
        "tuple[StageCounts, ...]", tuple(tuple(row[b : b + 4]) for b in range(7, len(row), 4))
    )
    return MeteorStats(row[0], row[1], row[2], row[3], stages, row[4], row[5], row[6])


@dataclass(frozen=True, slots=True)
class MeteorStats:
    """Sufficient statistics of one segment, or the sum over many.

    All counts are integers. ``stages`` has one entry per configured module (a row pads it to four
    stages, or drops stages beyond the fourth as the jar does).
    """

    hyp_length: int
    ref_length: int
    hyp_function: int
    ref_function: int
    stages: tuple[StageCounts, ...]
    chunks: int
    hyp_matched: int
    ref_matched: int

    @classmethod
    def zero(cls, n_stages: int = 4) -> MeteorStats:
        """The neutral element of ``+``."""
        return cls(0, 0, 0, 0, (_ZERO_STAGE,) * n_stages, 0, 0, 0)

    @property
    def hyp_total(self) -> int:
        """Matched hypothesis units over every stage (``T_h`` of spec 5.1)."""
        return sum(s[0] + s[2] for s in self.stages)

    @property
    def ref_total(self) -> int:
        """Matched reference units over every stage (``T_r``)."""
        return sum(s[1] + s[3] for s in self.stages)

    @property
    def is_perfect(self) -> bool:
        """Every unit of both sides matched and a single chunk (:func:`is_perfect`)."""
        # A record of more than one chunk (the common case) is not perfect: no sums needed.
        return self.chunks == 1 and bool(
            is_perfect(
                self.chunks, self.hyp_total, self.ref_total, self.hyp_length, self.ref_length
            )
        )

    def merge(self, other: MeteorStats, *, skip_perfect_chunks: bool = True) -> MeteorStats:
        """Sum two records; with ``skip_perfect_chunks`` a perfect record adds no chunks."""
        n = max(len(self.stages), len(other.stages))
        a = self.stages + (_ZERO_STAGE,) * (n - len(self.stages))
        b = other.stages + (_ZERO_STAGE,) * (n - len(other.stages))
        stages = tuple(
            (x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3]) for x, y in zip(a, b, strict=True)
        )
        if skip_perfect_chunks:
            chunks = (0 if self.is_perfect else self.chunks) + (
                0 if other.is_perfect else other.chunks
            )
        else:
            chunks = self.chunks + other.chunks
        return MeteorStats(
            self.hyp_length + other.hyp_length,
            self.ref_length + other.ref_length,
            self.hyp_function + other.hyp_function,
            self.ref_function + other.ref_function,
            stages,
            chunks,
            self.hyp_matched + other.hyp_matched,
            self.ref_matched + other.ref_matched,
        )

    def __add__(self, other: MeteorStats) -> MeteorStats:
        if not isinstance(other, MeteorStats):
            return NotImplemented
        return self.merge(other)

    def to_row(self) -> tuple[int, ...]:
        """The 23 numbers in the jar's order (stages padded to, or cut at, four)."""
        stages = (self.stages + (_ZERO_STAGE,) * 4)[:4]
        row: list[int] = [self.hyp_length, self.ref_length, self.hyp_function, self.ref_function]
        for s in stages:
            row.extend(s)
        row.extend((self.chunks, self.hyp_matched, self.ref_matched))
        return tuple(row)

    @classmethod
    def from_row(cls, row: Sequence[float | int | str]) -> MeteorStats:
        """Parse 23 numbers (numbers after the 23rd are ignored, as in the jar).

        Raises:
            InputError: fewer than 23 numbers, a non-number, or a non-integral value.
        """
        if len(row) < ROW_LENGTH:
            raise InputError(f"a METEOR statistics row needs {ROW_LENGTH} numbers, got {len(row)}")
        values: list[int] = []
        for k, item in enumerate(row[:ROW_LENGTH]):
            try:
                number = float(item)
            except (TypeError, ValueError):
                raise InputError(f"statistics field {k + 1} is not a number: {item!r}") from None
            if not number.is_integer() or number < 0:
                raise InputError(
                    f"statistics field {k + 1} must be a non-negative whole number, got {item!r}"
                )
            values.append(int(number))
        stages = tuple(
            (values[4 + 4 * s], values[5 + 4 * s], values[6 + 4 * s], values[7 + 4 * s])
            for s in range(4)
        )
        return cls(
            values[0], values[1], values[2], values[3], stages, values[20], values[21], values[22]
        )


def row_problem(row: Sequence[float]) -> str | None:
    """What makes a 23-number METEOR row impossible, or ``None`` if nothing does.

    A negative count, or counts that no alignment can give (more matches than units, more chunks
    than matched words...), which re-scored would give nonsense or scores above 1 (precision
    9.16 from 12 matches of 9 tokens). The one check of every reader of stored rows: statistics
    files (:mod:`meteor_eval.statsfile`) and tuning (:func:`meteor_eval.tuning.stats_matrix`).
    """
    negative = next((k for k, value in enumerate(row[:ROW_LENGTH]) if value < 0), None)
    if negative is not None:
        return f"{ROW_COLUMNS[negative]} is negative ({row[negative]})"
    hyp_len, ref_len, hyp_fun, ref_fun = row[:4]
    stages = [row[4 + 4 * k : 8 + 4 * k] for k in range(4)]
    chunks, hyp_matched, ref_matched = row[20:23]
    rules = (
        (hyp_fun <= hyp_len, "more hypothesis function words than hypothesis units"),
        (ref_fun <= ref_len, "more reference function words than reference units"),
        (
            sum(s[0] for s in stages) <= hyp_len - hyp_fun,
            "more hypothesis content matches than hypothesis content units",
        ),
        (
            sum(s[1] for s in stages) <= ref_len - ref_fun,
            "more reference content matches than reference content units",
        ),
        (
            sum(s[2] for s in stages) <= hyp_fun,
            "more hypothesis function-word matches than hypothesis function words",
        ),
        (
            sum(s[3] for s in stages) <= ref_fun,
            "more reference function-word matches than reference function words",
        ),
        (hyp_matched <= hyp_len and ref_matched <= ref_len, "more matched words than units"),
        (chunks <= min(hyp_matched, ref_matched), "more chunks than matched words"),
    )
    return next((message for holds, message in rules if not holds), None)


# (stage, start, length) of a match on each side (Match is a NamedTuple: ref_start, ref_len,
# hyp_start, hyp_len, stage)
_HYP_SPAN: Final = operator.itemgetter(4, 2, 3)
_REF_SPAN: Final = operator.itemgetter(4, 0, 1)


def _side_counts(
    spans: Iterable[tuple[int, int, int]],
    function: Sequence[bool],
    sizes: Sequence[int] | None,
    n_stages: int,
) -> tuple[list[int], list[int], int, int, int]:
    """One side's counts for :func:`stats_from_alignment`; hypothesis and reference count alike.

    ``spans`` holds each match's ``(stage, start, length)`` on this side. Returns the matched
    content and function units per stage, the matched words, the side's length and its function
    units (a unit is a word, or ``sizes[i]`` of them when sizes are given).
    """
    content = [0] * n_stages
    functional = [0] * n_stages
    matched = 0
    for stage, start, length in spans:
        matched += length
        for i in range(start, start + length):
            size = 1 if sizes is None else sizes[i]
            if function[i]:
                functional[stage] += size
            else:
                content[stage] += size
    if sizes is None:
        return content, functional, matched, len(function), sum(function)
    function_units = sum(n for n, fn in zip(sizes, function, strict=True) if fn)
    return content, functional, matched, sum(sizes), function_units


def stats_from_alignment(
    matches: Sequence[Match],
    chunks: int,
    hyp_function: Sequence[bool],
    ref_function: Sequence[bool],
    n_stages: int,
    *,
    hyp_sizes: Sequence[int] | None = None,
    ref_sizes: Sequence[int] | None = None,
) -> MeteorStats:
    """Statistics of one aligned pair (spec 4.5 and 5.1).

    Args:
        matches: The chosen alignment.
        chunks: Its chunk count.
        hyp_function: Whether each hypothesis token is a function word.
        ref_function: Same for the reference.
        n_stages: Number of configured modules.
        hyp_sizes: Per-token unit size (``None``: each token counts 1; character mode passes
            UTF-16 lengths).
        ref_sizes: Same for the reference.
    """
    hc, hf, hyp_matched, hyp_length, hyp_fn = _side_counts(
        map(_HYP_SPAN, matches), hyp_function, hyp_sizes, n_stages
    )
    rc, rf, ref_matched, ref_length, ref_fn = _side_counts(
        map(_REF_SPAN, matches), ref_function, ref_sizes, n_stages
    )
    stages = tuple((hc[s], rc[s], hf[s], rf[s]) for s in range(n_stages))
    return MeteorStats(
        hyp_length, ref_length, hyp_fn, ref_fn, stages, chunks, hyp_matched, ref_matched
    )


# The pooled row of a block of rows (None: pool_flat_python sums them).
_POOL_KERNEL: Any = compiled_kernels("pool_rows")


def pool_flat_python(rows: array[int] | bytes, skip_perfect: bool) -> tuple[int, ...]:
    """The pooled row of a flat block of rows in the jar's order (``ROW_LENGTH`` int64 values
    a row): each column summed, except that with ``skip_perfect`` a perfect row
    (:func:`~meteor_eval.stats.meteor.perfect_row`) adds no chunks. The readable twin of the
    compiled ``pool_rows`` (``_ext/stats.c``), which it stands for when that returns ``None``
    (a sum beyond int64: these are exact integers).

    Example:
        >>> rows = array("q", [1] * 23 + [2] * 23)
        >>> pool_flat_python(rows, True)[:3], pool_flat_python(rows, False)[20]
        ((3, 3, 3), 3)
    """
    values = memoryview(rows).cast("B").cast("q")
    if len(values) % ROW_LENGTH:
        raise ValueError("rows: expected packed rows of 23 int64 values")
    total = [sum(values[c::ROW_LENGTH]) for c in range(ROW_LENGTH)]
    if skip_perfect:
        for k in range(20, len(values), ROW_LENGTH):
            if values[k] == 1 and perfect_row(values[k - 20 : k + 3]):
                total[20] -= 1
    return tuple(total)


def pool_flat(rows: array[int] | bytes, skip_perfect: bool) -> tuple[int, ...]:
    """:func:`pool_flat_python` through the compiled ``pool_rows`` where it is built."""
    if _POOL_KERNEL is not None:
        pooled: tuple[int, ...] | None = _POOL_KERNEL.pool_rows(rows, skip_perfect)
        if pooled is not None:
            return pooled
    return pool_flat_python(rows, skip_perfect)
