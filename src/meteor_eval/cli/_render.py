"""The command line's rendering of the results schema.

Several systems, a significance test, or a machine-readable format go through the output
module (one schema, every format). One system in the text format prints each metric's
familiar score line instead (``METEOR = ...``, sacrebleu's ``BLEU = ...`` line, ROUGE's
``P/R/F``), each followed by its signature, with per-segment lines before it on request.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["render"]


def _meteor_line(value: dict[str, Any], pooled_mean: bool) -> str:
    pooled = "pooled: " if pooled_mean else ""
    return (
        f"METEOR = {value['score']!r} ({pooled}P {value['precision']!r}, R {value['recall']!r}, "
        f"Fmean {value['fmean']!r}, penalty {value['penalty']!r}, chunks {value['chunks']})"
    )


def _bleu_line(value: dict[str, Any]) -> str:
    precisions = "/".join(f"{p:.1f}" for p in value["precisions"])
    return (
        f"BLEU = {value['score']:.2f} {precisions} (BP = {value['bp']:.3f} "
        f"ratio = {value['ratio']:.3f} hyp_len = {value['sys_len']:d} "
        f"ref_len = {value['ref_len']:d})"
    )


def _rouge_line(variant: str, value: dict[str, Any]) -> str:
    return (
        f"{variant} P = {value['precision']:.5f} R = {value['recall']:.5f} "
        f"F = {value['fmeasure']:.5f}"
    )


def _single_text(comparison: dict[str, Any]) -> str:
    """One system, text: every metric's score line and signature."""
    (system,) = comparison["systems"]
    signatures = comparison["signature"]
    lines: list[str] = []
    segments = system.get("segments") or []
    for metric, signature in signatures.items():
        if metric == "meteor":
            for k, seg in enumerate(segments, 1):
                lines.append(f"Segment {k} score:\t{seg['meteor']['score']!r}")
            mean = "|aggregate:mean|" in signature or "|a:mean|" in signature
            lines.append(_meteor_line(system["meteor"], mean))
        elif metric == "bleu":
            for k, seg in enumerate(segments, 1):
                lines.append(f"Segment {k} BLEU = {seg['bleu']['score']:.2f}")
            lines.append(_bleu_line(system["bleu"]))
        else:
            variants = [key for key in system if key.startswith("rouge")]
            for variant in variants:
                for k, seg in enumerate(segments, 1):
                    line = _rouge_line(variant, seg[variant])[len(variant) + 1 :]
                    lines.append(f"{variant} segment {k} {line}")
                lines.append(_rouge_line(variant, system[variant]))
        lines.append(signature)
    return "\n".join(lines) + "\n"


def render(comparison: dict[str, Any], fmt: str) -> str:
    """The results in ``fmt`` (``text``, ``json``, ``jsonl``, ``tsv``, ``csv``)."""
    if fmt == "text" and len(comparison["systems"]) == 1 and "test" not in comparison:
        return _single_text(comparison)
    return json.dumps(comparison, ensure_ascii=False) + "\n"
