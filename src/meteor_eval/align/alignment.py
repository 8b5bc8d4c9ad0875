"""The chosen alignment of one hypothesis with one reference, its chunks, and a printable view.

Chunks follow METEOR 1.5 (spec section 4.5): a chunk is a maximal run of matches that are
adjacent in the reference (no unmatched reference token between them) and contiguous, in the same
order, in the hypothesis.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from meteor_eval._lazy import lazy_names

if TYPE_CHECKING:
    from meteor_eval.align._alignment import Alignment as Alignment
    from meteor_eval.match.base import Match

__all__ = ["Alignment", "count_chunks"]


#: ``Alignment`` is imported from :mod:`meteor_eval.align._alignment` on first use (PEP 562): a run
#: that makes no alignment does not make the dataclass.
__getattr__, __dir__ = lazy_names(
    __name__, globals(), {"Alignment": "meteor_eval.align._alignment"}
)


def count_chunks(matches: Sequence[Match], ref_len: int) -> int:
    """Number of chunks of an alignment (matches need not be sorted).

    Walks the reference from left to right: an unmatched reference position closes the open chunk;
    a match continues the open chunk only if it starts in the hypothesis where the previous match
    ended.
    """
    by_start = {m.ref_start: m for m in matches}
    chunks = 0
    open_end = -1  # hypothesis position after the open chunk's last match, -1 if none is open
    j = 0
    while j < ref_len:
        match = by_start.get(j)
        if match is None:
            if open_end != -1:
                chunks += 1
                open_end = -1
            j += 1
            continue
        if open_end != -1 and match.hyp_start != open_end:
            chunks += 1
        open_end = match.hyp_start + match.hyp_len
        j = match.ref_start + match.ref_len
    if open_end != -1:
        chunks += 1
    return chunks
