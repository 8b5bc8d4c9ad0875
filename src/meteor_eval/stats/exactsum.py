"""Exact running sums of float columns: the column sums of any number of rows in constant
memory, merged in any grouping and any order with the same bits.

Every finite double is an integer multiple of ``2**-1074`` (the smallest subnormal), so the
exact sum of a column is held as the Python integer ``S = sum(x * 2**1074)``. Adding a row,
a NumPy block of rows or another :class:`ExactSum` is integer addition, which is associative
and commutative: sums of batches, of ``jobs`` chunks, of Dask partitions or of mergeable
states give the same ``S`` however the rows were split. :meth:`ExactSum.rounded` rounds each
``S`` once to the nearest double (Python's integer true division is correctly rounded, ties to
even), which is what ``math.fsum`` of the column's values returns: the same bits, without
keeping the values.

Non-finite values follow ``math.fsum``: a NaN gives NaN, infinities of one sign give that
infinity, both signs raise ``ValueError``. Two differences, both where ``math.fsum`` has no
finite answer to give: a zero sum is ``+0.0`` (as ``math.fsum`` on Python 3.11; 3.12 keeps the
sign of a sum of negative zeros), and a column whose partial sums leave the double range but
whose total does not gets that total where ``math.fsum`` raises ``OverflowError``
("intermediate overflow"). A total beyond the double range raises ``OverflowError`` in both.

NumPy blocks take a fast path (:meth:`ExactSum.add_block`): ``np.frexp`` splits each value
into a 53-bit integer mantissa and an exponent; the mantissas are cut into two parts of 27 and
26 bits and summed per column and exponent with ``np.bincount`` (float64 sums of integers
below ``2**53``, so exact); only the few sums per exponent become Python integers.

Model: Shewchuk's exact expansions (what ``math.fsum`` uses), kept as one integer instead of a
list of partials because merging integers is a single addition. :meth:`ExactSum.partials`
writes a sum as a short list of doubles whose exact sum it is, for JSON states.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["ExactSum"]

#: Every finite double times ``2**1074`` is an integer.
_SHIFT = 1074
_SCALE = 1 << _SHIFT
#: ``np.frexp`` exponents run from -1073 (the smallest subnormal) to 1024; ``+ _EXP_OFFSET``
#: makes them bin indices from 1, zeros (exponent 0) included.
_EXP_OFFSET = 1074
_EXP_BINS = 2100
#: Rows summed per ``np.bincount``: a bin's sum of 27-bit parts stays below ``2**53``.
_BLOCK_ROWS = 1 << 20
#: Python rows converted to a NumPy block at a time (:meth:`ExactSum.add_rows`).
_ROWS_BATCH = 4096


def _scaled(x: float) -> int:
    """``x * 2**1074`` exactly, for a finite ``x``."""
    numerator, denominator = float(x).as_integer_ratio()
    return numerator << (_SHIFT + 1 - denominator.bit_length())


class ExactSum:
    """The exact sum of each of ``width`` float columns (see the module docstring).

    Args:
        width: Number of columns.

    Example:
        >>> total = ExactSum(2)
        >>> total.add_row((0.1, 1e100))
        >>> total.add_row((0.2, 1.0))
        >>> total.add_row((0.3, -1e100))
        >>> total.rounded() == (math.fsum([0.1, 0.2, 0.3]), 1.0)
        True
    """

    __slots__ = ("_infinite", "_special", "_sums", "width")

    def __init__(self, width: int) -> None:
        if isinstance(width, bool) or not isinstance(width, int) or width < 0:
            raise ValueError(f"width: {width!r} is not a whole number >= 0")
        self.width = width
        self._sums = [0] * width
        # As math.fsum: the sum of the infinities seen and of every non-finite value seen.
        self._infinite = [0.0] * width
        self._special = [0.0] * width

    # -- adding ------------------------------------------------------------------------------

    def _add_special(self, k: int, x: float) -> None:
        if math.isinf(x):
            self._infinite[k] += x
        self._special[k] += x

    def add_row(self, row: Sequence[float]) -> None:
        """Add one row of ``width`` numbers (each taken as a double, as ``math.fsum`` does).

        Raises:
            ValueError: a row of another width.
        """
        if len(row) != self.width:
            raise ValueError(f"a row of {len(row)} numbers added to sums of {self.width}")
        sums = self._sums
        for k, value in enumerate(row):
            x = float(value)
            if math.isfinite(x):
                sums[k] += _scaled(x)
            else:
                self._add_special(k, x)

    def add_rows(self, rows: Iterable[Sequence[float]]) -> None:
        """Add rows (converted to NumPy blocks a few thousand at a time).

        Raises:
            ValueError: a row of another width.
        """
        batch: list[Sequence[float]] = []
        for row in rows:
            if len(row) != self.width:
                raise ValueError(f"a row of {len(row)} numbers added to sums of {self.width}")
            batch.append(row)
            if len(batch) == _ROWS_BATCH:
                self._add_batch(batch)
                batch = []
        if batch:
            self._add_batch(batch)

    def _add_batch(self, batch: list[Sequence[float]]) -> None:
        import numpy as np

        self.add_block(np.array(batch, dtype=np.float64).reshape(len(batch), self.width))

    def add_block(self, block: npt.ArrayLike) -> None:
        """Add the rows of a 2-D array of shape ``(rows, width)`` (converted to float64).

        Raises:
            ValueError: an array of another shape.
        """
        import numpy as np

        data = np.asarray(block, dtype=np.float64)
        if data.ndim != 2 or data.shape[1] != self.width:
            raise ValueError(f"a block of shape {data.shape} added to sums of {self.width}")
        if not data.size:
            return
        finite = np.isfinite(data)
        if not finite.all():
            for i, k in zip(*np.nonzero(~finite), strict=True):
                self._add_special(int(k), float(data[i, k]))
            data = np.where(finite, data, 0.0)
        for start in range(0, data.shape[0], _BLOCK_ROWS):
            self._add_finite_block(data[start : start + _BLOCK_ROWS])

    def _add_finite_block(self, data: Any) -> None:
        """Add a block of finite values with at most ``_BLOCK_ROWS`` rows."""
        import numpy as np

        fraction, exponent = np.frexp(data)
        # |fraction| < 1, so the mantissa is an exact integer below 2**53 in magnitude; a
        # value is mantissa * 2**(exponent - 53).
        mantissa = np.ldexp(fraction, 53).astype(np.int64)
        high = (mantissa >> 26).astype(np.float64)  # floor: |high| <= 2**27
        low = (mantissa & ((1 << 26) - 1)).astype(np.float64)  # 0 <= low < 2**26
        bins = exponent.astype(np.int64) + _EXP_OFFSET
        bins += np.arange(self.width, dtype=np.int64) * _EXP_BINS
        size = self.width * _EXP_BINS
        keys = bins.ravel()
        # float64 sums of at most 2**20 integers below 2**27 in magnitude: exact.
        high_sums = np.bincount(keys, weights=high.ravel(), minlength=size)
        low_sums = np.bincount(keys, weights=low.ravel(), minlength=size)
        sums = self._sums
        for index in np.flatnonzero((high_sums != 0) | (low_sums != 0)).tolist():
            column, slot = divmod(index, _EXP_BINS)
            whole = (int(high_sums[index]) << 26) + int(low_sums[index])
            # mantissa * 2**(e - 53) * 2**1074 = mantissa << (e + 1021); below 0 only for
            # subnormals, whose mantissas (and so their sums) end in enough zero bits.
            shift = slot - _EXP_OFFSET + _SHIFT - 53
            sums[column] += whole << shift if shift >= 0 else whole >> -shift

    def merge(self, other: ExactSum) -> None:
        """Add ``other``'s sums to this one's (any order and grouping: the same sums).

        Raises:
            ValueError: sums of another width.
        """
        if other.width != self.width:
            raise ValueError(f"sums of {other.width} columns merged into sums of {self.width}")
        for k in range(self.width):
            self._sums[k] += other._sums[k]
            self._infinite[k] += other._infinite[k]
            self._special[k] += other._special[k]

    # -- reading -----------------------------------------------------------------------------

    def column(self, k: int) -> float:
        """Column ``k``'s sum rounded once to the nearest double (``math.fsum``'s result).

        Raises:
            ValueError: the column has infinities of both signs.
            OverflowError: the sum is beyond the double range.
        """
        if self._special[k] != 0.0:  # a non-finite value was added (NaN != 0.0 too)
            if math.isnan(self._infinite[k]):
                raise ValueError(f"column {k}: -inf + inf in an exact sum")
            return self._special[k]
        try:
            return self._sums[k] / _SCALE
        except OverflowError:
            raise OverflowError(f"column {k}: the exact sum is beyond the double range") from None

    def rounded(self) -> tuple[float, ...]:
        """Every column's sum rounded once (:meth:`column`)."""
        return tuple(self.column(k) for k in range(self.width))

    def partials(self, k: int) -> list[float]:
        """Column ``k``'s sum as doubles whose exact sum it is (largest first; none for zero):
        a JSON-ready form that :meth:`from_partials` reads back. Non-finite values seen are
        written as ``math.fsum`` would see them again (one NaN, one infinity, or both).

        Raises:
            OverflowError: the sum is beyond the double range.
        """
        out: list[float] = []
        rest = self._sums[k]
        while rest:
            try:
                part = rest / _SCALE
            except OverflowError:
                raise OverflowError(
                    f"column {k}: the exact sum is beyond the double range"
                ) from None
            out.append(part)
            rest -= _scaled(part)
        infinite, special = self._infinite[k], self._special[k]
        if math.isnan(infinite):
            out.extend((math.inf, -math.inf))
            return out
        if infinite != 0.0:
            out.append(infinite)
        if math.isnan(special):
            out.append(special)
        return out

    @classmethod
    def from_partials(cls, columns: Sequence[Sequence[float]]) -> ExactSum:
        """Sums of ``len(columns)`` columns, each the exact sum of its list of doubles."""
        out = cls(len(columns))
        for k, values in enumerate(columns):
            for value in values:
                x = float(value)
                if math.isfinite(x):
                    out._sums[k] += _scaled(x)
                else:
                    out._add_special(k, x)
        return out

    def copy(self) -> ExactSum:
        """An independent copy."""
        out = ExactSum(self.width)
        out._sums = list(self._sums)
        out._infinite = list(self._infinite)
        out._special = list(self._special)
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ExactSum):
            return NotImplemented
        return self._sums == other._sums and self._specials() == other._specials()

    def _specials(self) -> list[tuple[str, str]]:
        """The non-finite part of each column, as comparable text (NaN equals NaN here)."""
        return [(repr(a), repr(b)) for a, b in zip(self._infinite, self._special, strict=True)]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"ExactSum({self.width}, partials={[self.partials(k) for k in range(self.width)]!r})"
