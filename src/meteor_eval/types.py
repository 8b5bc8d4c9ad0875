"""Type aliases shared by every layer of the pipeline."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

__all__ = ["Hypotheses", "PerSegment", "References", "Tokens"]

#: A tokenised segment: the words of one hypothesis or reference, in order.
Tokens: TypeAlias = tuple[str, ...]

#: One hypothesis string per segment.
Hypotheses: TypeAlias = Sequence[str]

#: References grouped per segment: ``references[i]`` holds every reference of hypothesis ``i``.
References: TypeAlias = Sequence[Sequence[str]]


class PerSegment(list[Sequence[str]]):
    """References declared to be grouped per segment (``references[i]`` holds every reference
    of hypothesis ``i``), for the one case where the layout cannot be told from the shape: as
    many references per segment as segments, which is also the shape of sacrebleu's transposed
    streams (``references[k][i]``). BLEU refuses that shape unless the references come wrapped
    in this list.

    Example:
        >>> refs = PerSegment([["a b", "a c"], ["d e", "d f"]])
        >>> refs[1]
        ['d e', 'd f']
    """

    __slots__ = ()
