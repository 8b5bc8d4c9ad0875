"""The command line's rendering of the results schema (``docs/output-schema.md``).

One schema, five formats:

* ``json``: the schema as it is, one document;
* ``jsonl``: one object per segment (``system``, ``segment`` from 1, then each headline number's
  components), or one per system when no segment was scored;
* ``tsv`` / ``csv``: the same records flattened to columns (``meteor``, ``meteor_precision``,
  ``meteor_matches_exact_hyp``, ``bleu_ci_low``, ...), one row per segment with
  ``--sentence-level``, otherwise one row per system;
* ``text``: one system without a test prints each metric's familiar lines (``METEOR = ...``,
  sacrebleu's ``BLEU = ...``, ROUGE's ``P/R/F``) and its signature; several systems or a test
  print a table (score, the resamples' mean ± half the interval, p-value with ``*`` below
  0.05) followed by the signatures.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

from meteor_eval.results import flatten

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
    def part(label: str, key: str) -> str:
        interval = value.get(f"{key}_ci")
        if interval is None:
            return f"{label} = {value[key]:.5f}"
        return f"{label} = {value[key]:.5f} [{interval[0]:.5f}, {interval[1]:.5f}]"

    return f"{variant} {part('P', 'precision')} {part('R', 'recall')} {part('F', 'fmeasure')}"


def _value_names(comparison: dict[str, Any]) -> list[str]:
    """The headline numbers, in output order (``meteor``, ``bleu``, ``rouge1``, ...)."""
    first = comparison["systems"][0]
    return [key for key in first if key not in ("name", "segments")]


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
            mean = "|aggregate:mean|" in signature or "|agg:mean|" in signature
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


def _number(value_name: str, x: float) -> str:
    """A score as printed in tables: BLEU in points with 2 decimals, the others with 4."""
    return f"{x:.2f}" if value_name == "bleu" else f"{x:.4f}"


def _label(value_name: str) -> str:
    return {"meteor": "METEOR", "bleu": "BLEU"}.get(value_name, value_name)


def _cells(value_name: str, value: dict[str, Any], tested: bool) -> list[str]:
    """Score, interval and p-value cells of one headline number of one system."""
    cells = [_number(value_name, value["score"])]
    if "ci" in value:
        low, high = value["ci"]
        half = _number(value_name, 0.5 * (high - low))
        cells.append(f"({_number(value_name, value['mean'])} ± {half})")
    if tested:
        p = value.get("p_value")
        cells.append("-" if p is None else f"{p:.4f}{'*' if p < 0.05 else ''}")
    return cells


def _table_text(comparison: dict[str, Any]) -> str:
    """Several systems or a test: one row per system, then the signatures."""
    names = _value_names(comparison)
    test = comparison.get("test")
    tested = test is not None and str(test["name"]).startswith("paired")
    baseline = comparison.get("baseline")
    header = ["System"]
    for name in names:
        header.append(_label(name))
        if test:
            header.append(f"(μ ± {test['confidence']:.0%} CI)")
        if tested:
            header.append("p")
    rows = [header]
    for system in comparison["systems"]:
        label = system["name"]
        if tested and label == baseline:
            label = f"Baseline: {label}"
        row = [label]
        for name in names:
            row.extend(_cells(name, system[name], tested))
        rows.append(row)
    widths = [max(len(row[k]) for row in rows) for k in range(len(header))]
    lines = [
        "  ".join(
            cell.ljust(widths[k]) if k == 0 else cell.rjust(widths[k]) for k, cell in enumerate(row)
        ).rstrip()
        for row in rows
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.extend(_segment_text(comparison, names))
    lines.append("")
    lines.extend(comparison["signature"].values())
    if test:
        lines.append(test["signature"])
        if tested:
            assert test is not None
            method = (
                "paired bootstrap"
                if test["name"] == "paired-bs"
                else ("paired approximate randomisation")
            )
            lines.append(
                f"* p < 0.05 against the baseline {baseline!r} ({method}, "
                f"{test['n_samples']} samples, seed {test['seed']})"
            )
    return "\n".join(lines) + "\n"


def _segment_text(comparison: dict[str, Any], names: list[str]) -> list[str]:
    """With ``--sentence-level``: per headline number, one line per segment and system."""
    systems = comparison["systems"]
    if not all(system.get("segments") for system in systems):
        return []
    lines = [""]
    header = "\t".join(["segment", *(system["name"] for system in systems)])
    for name in names:
        lines.append(f"{_label(name)} per segment")
        lines.append(header)
        for index in range(len(systems[0]["segments"])):
            scores = [repr(system["segments"][index][name]["score"]) for system in systems]
            lines.append("\t".join([str(index + 1), *scores]))
    return lines


def _records(comparison: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Per segment (when scored) or per system: ``system``, ``segment``, then the numbers."""
    for system in comparison["systems"]:
        segments = system.get("segments")
        if segments:
            for index, segment in enumerate(segments):
                yield {"system": system["name"], "segment": index + 1, **segment}
        else:
            yield {
                "system": system["name"],
                **{k: v for k, v in system.items() if k not in ("name", "segments")},
            }


def _delimited(comparison: dict[str, Any], dialect: str) -> str:
    import csv  # only for these two formats

    rows = [flatten(record) for record in _records(comparison)]
    columns: list[str] = []
    for row in rows:
        columns.extend(key for key in row if key not in columns)
    buffer = io.StringIO()
    if dialect == "tsv":
        writer = csv.writer(buffer, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    else:
        writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row.get(column)) for column in columns])
    return buffer.getvalue()


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    return str(value)


def render(comparison: dict[str, Any], fmt: str) -> str:
    """The results in ``fmt`` (``text``, ``json``, ``jsonl``, ``tsv``, ``csv``)."""
    if fmt == "json":
        return json.dumps(comparison, ensure_ascii=False) + "\n"
    if fmt == "jsonl":
        return "".join(
            json.dumps(record, ensure_ascii=False) + "\n" for record in _records(comparison)
        )
    if fmt in ("tsv", "csv"):
        return _delimited(comparison, fmt)
    if len(comparison["systems"]) == 1 and "test" not in comparison:
        return _single_text(comparison)
    return _table_text(comparison)
