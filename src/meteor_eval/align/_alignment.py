"""The chosen alignment of one hypothesis with one reference, :class:`Alignment`.

It is a dataclass, and making its class compiles the methods :mod:`dataclasses` generates
(about 4 M instructions), so it lives apart from :mod:`meteor_eval.align.alignment`, which
gives it as ``alignment.Alignment`` on first use (PEP 562): a run that asks for no alignment
(a corpus score from the command line) does not make the class.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from meteor_eval.match.base import Match

__all__ = ["Alignment"]


@dataclass(frozen=True, slots=True)
class Alignment:
    """Matches chosen between one hypothesis and one reference.

    Attributes:
        hyp_tokens: Hypothesis tokens after preprocessing.
        ref_tokens: Reference tokens after preprocessing.
        matches: Chosen matches in reference order.
        modules: Module name of each stage (``matches[k].stage`` indexes it).
        chunks: Number of chunks (section 4.5).
    """

    hyp_tokens: tuple[str, ...]
    ref_tokens: tuple[str, ...]
    matches: tuple[Match, ...]
    modules: tuple[str, ...]
    chunks: int

    def pairs(self) -> list[tuple[str, str, str]]:
        """``(hypothesis span text, reference span text, module)`` for each match."""
        out = []
        for m in self.matches:
            hyp = " ".join(self.hyp_tokens[m.hyp_start : m.hyp_start + m.hyp_len])
            ref = " ".join(self.ref_tokens[m.ref_start : m.ref_start + m.ref_len])
            out.append((hyp, ref, self.modules[m.stage]))
        return out

    def to_dict(self) -> dict[str, object]:
        """JSON-ready view: tokens and one record per match."""
        return {
            "hypothesis": list(self.hyp_tokens),
            "reference": list(self.ref_tokens),
            "chunks": self.chunks,
            "matches": [
                {
                    "hyp_start": m.hyp_start,
                    "hyp_len": m.hyp_len,
                    "ref_start": m.ref_start,
                    "ref_len": m.ref_len,
                    "module": self.modules[m.stage],
                    "hyp": hyp,
                    "ref": ref,
                }
                for m, (hyp, ref, _) in zip(self.matches, self.pairs(), strict=True)
            ],
        }

    def render(self) -> str:
        """Human-readable table: one line per match, then the unmatched words of each side."""
        lines = [
            f"hypothesis: {' '.join(self.hyp_tokens)}",
            f"reference:  {' '.join(self.ref_tokens)}",
        ]
        width = max((len(h) for h, _, _ in self.pairs()), default=0)
        for m, (hyp, ref, module) in zip(self.matches, self.pairs(), strict=True):
            span_h = f"{m.hyp_start}:{m.hyp_len}"
            span_r = f"{m.ref_start}:{m.ref_len}"
            lines.append(f"  {span_h:>6} {hyp:<{width}}  ~  {ref}  [{span_r}, {module}]")
        matched_h = {i for m in self.matches for i in range(m.hyp_start, m.hyp_start + m.hyp_len)}
        matched_r = {j for m in self.matches for j in range(m.ref_start, m.ref_start + m.ref_len)}
        free_h = [t for i, t in enumerate(self.hyp_tokens) if i not in matched_h]
        free_r = [t for j, t in enumerate(self.ref_tokens) if j not in matched_r]
        lines.append(f"  unmatched hypothesis: {' '.join(free_h) or '-'}")
        lines.append(f"  unmatched reference:  {' '.join(free_r) or '-'}")
        lines.append(f"  chunks: {self.chunks}")
        return "\n".join(lines)
