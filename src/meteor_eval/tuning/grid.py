"""The METEOR 1.5 ``Trainer``'s parameter grid: its axes, its order, its blocks.

The jar searches eight values, ``alpha beta gamma delta w1 w2 w3 w4``, each over an axis
``for (n = initial; n <= final + 0.001; n += step)``: the values are accumulated in doubles
(``0.1 + 0.05`` is ``0.15000000000000002``), and the ``0.001`` added to the final value keeps the
last step despite that drift. Parameter sets are visited with the first value in the outermost
loop and the last in the innermost, which is the order the jar prints them in.

:class:`ParameterGrid` holds the axes and yields the grid in that order as blocks of a
``(k, n_values)`` matrix, which :func:`meteor_eval.tuning.rescore.block_scores` scores at once.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["FINAL_SLACK", "MAX_AXIS", "ParameterGrid", "axis_values"]

#: What the jar adds to each final value "to account for Java double accuracy issues".
FINAL_SLACK = 0.001

#: Values allowed on one axis: a longer axis is refused rather than run for hours.
MAX_AXIS = 1_000_000


def axis_values(initial: float, final: float, step: float) -> tuple[float, ...]:
    """The values of one axis, as the jar's loop produces them (``final`` without the slack).

    Raises:
        ValueError: a non-finite value, or a step that never reaches ``final`` (zero or
            negative, where the jar loops forever), or more than :data:`MAX_AXIS` values.

    Example:
        >>> axis_values(0.1, 0.2, 0.05)
        (0.1, 0.15000000000000002, 0.2)
    """
    for name, value in (("initial", initial), ("final", final), ("step", step)):
        if not math.isfinite(value):
            raise ValueError(f"{name} value {value!r} is not a finite number")
    limit = final + FINAL_SLACK
    if initial <= limit and step <= 0.0:
        raise ValueError(f"step {step!r} never reaches the final value (the jar loops forever)")
    values: list[float] = []
    n = initial
    while n <= limit:
        if len(values) >= MAX_AXIS:
            raise ValueError(f"more than {MAX_AXIS:,} values from {initial!r} to {final!r}")
        values.append(n)
        n += step
    return tuple(values)


@dataclass(frozen=True, slots=True)
class ParameterGrid:
    """A grid of parameter lists, in the jar's order.

    Attributes:
        base: The full list of values (the jar's initial list): positions without an axis keep
            their value in every parameter set.
        axes: The values of the first ``len(axes)`` positions.
    """

    base: tuple[float, ...]
    axes: tuple[tuple[float, ...], ...]

    @classmethod
    def from_ranges(
        cls, initial: Sequence[float], final: Sequence[float], step: Sequence[float]
    ) -> ParameterGrid:
        """The grid of the jar's ``-i``, ``-f`` and ``-s`` lists (one axis per step).

        Raises:
            ValueError: more steps than initial or final values, or a bad axis
                (:func:`axis_values`), naming the position.
        """
        if len(step) > len(initial) or len(step) > len(final):
            raise ValueError(
                f"{len(step)} steps for {len(initial)} initial and {len(final)} final values"
            )
        axes = []
        for k, (a, b, s) in enumerate(zip(initial, final, step, strict=False)):
            try:
                axes.append(axis_values(a, b, s))
            except ValueError as exc:
                raise ValueError(f"value {k + 1}: {exc}") from None
        return cls(tuple(initial), tuple(axes))

    @property
    def size(self) -> int:
        """Number of parameter sets."""
        return math.prod(len(axis) for axis in self.axes)

    def blocks(self, max_sets: int) -> Iterator[npt.NDArray[np.float64]]:
        """The parameter sets in the jar's order, ``max_sets`` at a time, as float rows."""
        if not self.axes:
            # No axis: the jar scores its initial values once.
            yield np.asarray([self.base], dtype=np.float64)
            return
        shape = tuple(len(axis) for axis in self.axes)
        columns = [np.asarray(axis, dtype=np.float64) for axis in self.axes]
        base = np.asarray(self.base, dtype=np.float64)
        for start in range(0, self.size, max(1, max_sets)):
            flat = np.arange(start, min(self.size, start + max(1, max_sets)))
            block = np.tile(base, (len(flat), 1))
            for position, index in enumerate(np.unravel_index(flat, shape)):
                block[:, position] = columns[position][index]
            yield block
