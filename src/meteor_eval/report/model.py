"""The report's data: every segment of every system as compact columns, embedded once as JSON.

The browser builds each segment's alignment matrix and highlighted sentences from this on demand,
so the page holds one copy of the tokens and matches instead of thousands of pre-rendered
matrices. Layout (all lists are indexed by segment)::

    {
      "modules": ["exact", "stem", "synonym", "paraphrase"],
      "n": 2489,
      "references": [[tokens of reference 0, or null if no system kept it, ...], ...],
      "systems": [
        {"name": "system1",
         "score": [...], "precision": [...], "recall": [...], "fmean": [...],
         "fragmentation": [...], "penalty": [...], "chunks": [...],
         "hyp_length": [...], "ref_length": [...],
         "reference": [index of the reference kept, ...],
         "hypothesis": [[tokens], ...],
         "matches": [[hyp_start, hyp_len, ref_start, ref_len, stage, ...], ...]},
        ...
      ]
    }

Numbers are the library's own (no rounding); tokens are those the metric aligned (after its
normalisation), so what the page shows is exactly what was scored.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from meteor_eval.errors import InputError

if TYPE_CHECKING:
    from meteor_eval.metrics.meteor import MeteorScore

__all__ = ["NUMBER_FIELDS", "json_for_script", "segment_model"]

#: The per-segment numbers of each system, in the order the segment table shows them.
NUMBER_FIELDS = (
    "score",
    "precision",
    "recall",
    "fmean",
    "fragmentation",
    "penalty",
    "chunks",
    "hyp_length",
    "ref_length",
)


def _numbers(score: MeteorScore) -> tuple[float | int, ...]:
    stats = score.stats
    return (
        score.score,
        score.precision,
        score.recall,
        score.fmean,
        score.fragmentation,
        score.penalty,
        score.chunks,
        stats.hyp_length,
        stats.ref_length,
    )


def segment_model(
    systems: Mapping[str, Sequence[MeteorScore]], modules: Sequence[str]
) -> dict[str, Any]:
    """The JSON-ready model of every segment of every system (see the module's layout).

    Args:
        systems: Per system name (in order), each segment's sentence score with its alignment
            (``Meteor.segment_score(..., alignment=True)``); every system has the same segments.
        modules: The metric's module names (a match's ``stage`` indexes them).

    Raises:
        InputError: no system, or systems with different numbers of segments.

    Example:
        >>> from meteor_eval.metrics.meteor import Meteor
        >>> meteor = Meteor()
        >>> seg = meteor.segment_score("the cat sat", ["a cat sat"], alignment=True)
        >>> model = segment_model({"A": [seg]}, meteor.config.modules)
        >>> model["references"], model["systems"][0]["matches"]
        ([[['a', 'cat', 'sat']]], [[1, 1, 1, 1, 0, 2, 1, 2, 1, 0]])
    """
    if not systems:
        raise InputError("the report needs at least one system")
    sizes = {name: len(scores) for name, scores in systems.items()}
    if len(set(sizes.values())) != 1:
        detail = ", ".join(f"{name}: {n}" for name, n in sizes.items())
        raise InputError(f"systems have different numbers of segments ({detail})")
    n = next(iter(sizes.values()))
    references: list[list[list[str] | None]] = [[] for _ in range(n)]
    out_systems = []
    for name, scores in systems.items():
        columns: dict[str, list[Any]] = {field: [] for field in NUMBER_FIELDS}
        kept: list[int] = []
        hypotheses: list[list[str]] = []
        matches: list[list[int]] = []
        for index, score in enumerate(scores):
            for field, value in zip(NUMBER_FIELDS, _numbers(score), strict=True):
                columns[field].append(value)
            ref = score.reference_index or 0
            kept.append(ref)
            alignment = score.alignment
            if alignment is None:
                hypotheses.append([])
                matches.append([])
                continue
            hypotheses.append(list(alignment.hyp_tokens))
            matches.append(
                [
                    value
                    for m in alignment.matches
                    for value in (m.hyp_start, m.hyp_len, m.ref_start, m.ref_len, m.stage)
                ]
            )
            slots = references[index]
            slots.extend([None] * (ref + 1 - len(slots)))
            if slots[ref] is None:
                slots[ref] = list(alignment.ref_tokens)
        out_systems.append(
            {
                "name": name,
                **columns,
                "reference": kept,
                "hypothesis": hypotheses,
                "matches": matches,
            }
        )
    return {"modules": list(modules), "n": n, "references": references, "systems": out_systems}


def json_for_script(value: object) -> str:
    """``value`` as JSON that is safe inside an HTML ``<script>`` element (no ``<``, ``>`` or
    ``&`` that could close it or start a comment; non-finite numbers refused).

    Example:
        >>> json_for_script({"text": "</script>"})
        '{"text":"\\\\u003c/script\\\\u003e"}'
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
