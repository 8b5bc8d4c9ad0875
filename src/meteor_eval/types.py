"""Type aliases shared by every layer of the pipeline."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

__all__ = ["Hypotheses", "References", "Tokens"]

#: A tokenised segment: the words of one hypothesis or reference, in order.
Tokens: TypeAlias = tuple[str, ...]

#: One hypothesis string per segment.
Hypotheses: TypeAlias = Sequence[str]

#: References grouped per segment: ``references[i]`` holds every reference of hypothesis ``i``.
References: TypeAlias = Sequence[Sequence[str]]
