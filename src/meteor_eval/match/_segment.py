"""A preprocessed segment, :class:`Segment`: its tokens and their word identities.

It is a dataclass, and making its class compiles the methods :mod:`dataclasses` generates
(about 4 M instructions), so it lives apart from :mod:`meteor_eval.match.base`, which gives it
as ``base.Segment`` on first use (PEP 562): the batch path of a corpus score, which interns
whole blocks of lines, makes no segment record and does not make the class.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field

__all__ = ["Segment"]


@dataclass(frozen=True, slots=True)
class Segment:
    """A preprocessed segment: its tokens and their word identities.

    Attributes:
        tokens: The words after normalisation and tokenisation.
        ids: One integer identity per token. For METEOR 1.5 this is Java's ``String.hashCode``
            (spec J1), so that hash collisions behave as in the jar.
        interned: Set by scorers that intern word types for the compiled pair kernel.
    """

    tokens: tuple[str, ...]
    ids: tuple[int, ...]
    #: ``(word types, ids)``: the interning table the segment was built with and the dense id
    #: of each token in it (see :mod:`meteor_eval.match.word_types`), or ``None``.
    interned: tuple[object, array[int]] | None = field(default=None, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.tokens)
