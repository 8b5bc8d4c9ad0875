"""Matches, the matcher protocol and the candidate store shared by every matching stage.

A :class:`Match` says that a span of the hypothesis corresponds to a span of the reference
according to one stage (the 0-based position of its module in the configured module list).
Matchers only *propose* candidates; choosing among them is the aligner's job
(:mod:`meteor_eval.align.search` for METEOR 1.5, :mod:`meteor_eval.align.exhaustive` for the
2005 paper).

The candidate store mirrors METEOR 1.5 (spec section 3.1): one ordered list per reference start
position plus coverage counters on both sides. Every stage appends in its own documented order,
duplicates are kept (they change coverage and beam contents), and nothing is ever removed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple, Protocol

from meteor_eval._lazy import lazy_names

if TYPE_CHECKING:
    from meteor_eval.match._segment import Segment as Segment

__all__ = [
    "CandidateStore",
    "Match",
    "Matcher",
    "Segment",
]


#: ``Segment`` is imported from :mod:`meteor_eval.match._segment` on first use (PEP 562): a run
#: that makes no segment record does not make the dataclass.
__getattr__, __dir__ = lazy_names(__name__, globals(), {"Segment": "meteor_eval.match._segment"})


class Match(NamedTuple):
    """One candidate or chosen correspondence between a hypothesis and a reference span.

    Attributes:
        ref_start: First reference token of the span (0-based).
        ref_len: Number of reference tokens (at least 1).
        hyp_start: First hypothesis token of the span (0-based).
        hyp_len: Number of hypothesis tokens (at least 1).
        stage: 0-based position of the producing module in the module list.
    """

    ref_start: int
    ref_len: int
    hyp_start: int
    hyp_len: int
    stage: int


class CandidateStore:
    """Candidate matches per reference start position, with coverage counts on both sides."""

    __slots__ = ("by_ref", "hyp_coverage", "ref_coverage")

    def __init__(self, hyp_len: int, ref_len: int) -> None:
        self.by_ref: list[list[Match]] = [[] for _ in range(ref_len)]
        self.hyp_coverage = [0] * hyp_len
        self.ref_coverage = [0] * ref_len

    def add(self, match: Match) -> None:
        """Append a candidate to its reference position's list and count its coverage."""
        self.by_ref[match.ref_start].append(match)
        for j in range(match.ref_start, match.ref_start + match.ref_len):
            self.ref_coverage[j] += 1
        for i in range(match.hyp_start, match.hyp_start + match.hyp_len):
            self.hyp_coverage[i] += 1

    def extend(self, matches: Sequence[Match]) -> None:
        """Append several candidates in order (same effect as :meth:`add` on each)."""
        by_ref = self.by_ref
        ref_coverage = self.ref_coverage
        hyp_coverage = self.hyp_coverage
        for match in matches:
            ref_start, ref_len, hyp_start, hyp_len, _stage = match
            by_ref[ref_start].append(match)
            if ref_len == 1:
                ref_coverage[ref_start] += 1
            else:
                for j in range(ref_start, ref_start + ref_len):
                    ref_coverage[j] += 1
            if hyp_len == 1:
                hyp_coverage[hyp_start] += 1
            else:
                for i in range(hyp_start, hyp_start + hyp_len):
                    hyp_coverage[i] += 1

    def __len__(self) -> int:
        return sum(len(cands) for cands in self.by_ref)


class Matcher(Protocol):
    """Proposes candidate matches for one stage.

    Implementations return candidates ordered by reference start ascending (then as the module
    documents), so that appending them to a :class:`CandidateStore` keeps each position's list in
    METEOR 1.5's order.
    """

    name: str

    def candidates(self, hyp: Segment, ref: Segment, stage: int) -> list[Match]:
        """Candidates between ``hyp`` and ``ref``, labelled with ``stage``."""
        ...
