"""Java's ``Double.toString`` text for numbers the jar prints (spec J8).

Between 10^-3 (inclusive) and 10^7 (exclusive) Java prints a plain decimal with at least one
fractional digit (``13.0``, ``0.375``); elsewhere a scientific form with at least one fractional
mantissa digit and an unsigned-positive exponent (``5.0E-4``, ``1.2345678E7``). The digits are
Python's shortest round-trip digits, which equal Java 17's for the scores METEOR produces
(checked on every number of the golden files).
"""

from __future__ import annotations

import math

__all__ = ["java_double"]


def java_double(value: float) -> str:
    """Render a float as Java's ``Double.toString`` does."""
    x = float(value)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0.0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    if 1e-3 <= abs(x) < 1e7:
        # Python's repr is positional here, with the same shortest digits: Java's text.
        return repr(x)
    from decimal import Decimal  # only here: the scientific form is rare in a run's output

    sign, digits, exponent = Decimal(repr(x)).as_tuple()
    assert isinstance(exponent, int)
    text_digits = "".join(map(str, digits)).rstrip("0") or "0"
    # value = 0.d1d2d3... * 10**point
    point = len(digits) + exponent
    prefix = "-" if sign else ""
    magnitude = abs(x)
    if 1e-3 <= magnitude < 1e7:
        if point <= 0:
            return f"{prefix}0.{'0' * -point}{text_digits}"
        if point >= len(text_digits):
            return f"{prefix}{text_digits}{'0' * (point - len(text_digits))}.0"
        return f"{prefix}{text_digits[:point]}.{text_digits[point:]}"
    mantissa = text_digits[0] + "." + (text_digits[1:] or "0")
    return f"{prefix}{mantissa}E{point - 1}"
