"""Training data: hypotheses, references and human judgements, read once and aligned once.

A :class:`Judgements` holds one item per judged translation: its hypothesis, references, the
human number (higher is better), the system that produced it, its language pair and its source
segment (items of the same pair and segment are translations of the same source: relative
rankings compare only those). :func:`statistics` aligns every item once, with every module of
the configuration, into the 23-number METEOR statistics; tuning then only re-scores those rows
(:mod:`meteor_eval.tuning.rescore`), which is why parameters can be searched in seconds.

Two input layouts:

* a table, one record per judged translation (:func:`read_judgements_table`; JSON lines, CSV,
  TSV, Parquet), fields named by the caller (``hyp``, ``ref``, ``human``, ``system``, ``lp``,
  ``seg_id`` by default; ``scripts/prepare_wmt_da.py`` writes that layout);
* plain files (:func:`read_judgements_files`): per system a hypothesis file and a file of human
  numbers, one a line, against shared reference files; one language pair, segments numbered by
  line.

Relative rankings (1 = best) are read with ``kind="rank"`` and negated, so that every number
downstream is "higher is better".
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from meteor_eval.errors import InputError
from meteor_eval.io import read_text
from meteor_eval.tables import table_records

__all__ = [
    "FIELD_DEFAULTS",
    "HumanKind",
    "Judgements",
    "read_judgements_files",
    "read_judgements_table",
    "statistics",
]

HumanKind = Literal["da", "rank"]

#: Default field names of a judgements table, by role.
FIELD_DEFAULTS: dict[str, str] = {
    "hyp": "hyp",
    "ref": "ref",
    "human": "human",
    "system": "system",
    "lp": "lp",
    "segment": "seg_id",
}


@dataclass(frozen=True)
class Judgements:
    """Judged translations, one item per index.

    Attributes:
        hypotheses: Each item's hypothesis.
        references: Each item's references (one or more).
        human: Each item's human number, higher is better.
        systems: Each item's system.
        pairs: Each item's language pair (or any grouping cross-validation leaves out).
        segments: Each item's source segment within its pair.
    """

    hypotheses: list[str]
    references: list[list[str]]
    human: list[float]
    systems: list[str]
    pairs: list[str]
    segments: list[str]

    def __len__(self) -> int:
        return len(self.hypotheses)

    @property
    def pair_names(self) -> list[str]:
        """The language pairs in order of first appearance."""
        return list(dict.fromkeys(self.pairs))


def _number(value: Any, where: str, field: str, kind: HumanKind) -> float:
    if isinstance(value, bool) or value is None:
        raise InputError(f"{where}: field {field!r} is {value!r}, not a number")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{where}: field {field!r} is {value!r}, not a number") from None
    if not math.isfinite(number):
        raise InputError(f"{where}: field {field!r} is {value!r}, not a finite number")
    return -number if kind == "rank" else number


def _label(value: Any, where: str, field: str) -> str:
    if isinstance(value, str | int) and not isinstance(value, bool):
        text = str(value)
        if text:
            return text
    raise InputError(f"{where}: field {field!r} is {value!r}, not a name or number")


def _references(value: Any, where: str, field: str) -> list[str]:
    refs = [value] if isinstance(value, str) else value
    if not isinstance(refs, list) or not refs or not all(isinstance(r, str) for r in refs):
        raise InputError(f"{where}: field {field!r} is not text or a list of texts")
    return list(refs)


def _collect(
    records: Iterable[tuple[str, Mapping[str, Any]]],
    fields: Mapping[str, str | None],
    kind: HumanKind,
    source: str,
) -> Judgements:
    hyp_f, ref_f, human_f, system_f = (str(fields[r]) for r in ("hyp", "ref", "human", "system"))
    lp, segment = fields.get("lp"), fields.get("segment")
    needed = [f for f in (hyp_f, ref_f, human_f, system_f, lp, segment) if f is not None]
    data = Judgements([], [], [], [], [], [])
    for where, record in records:
        for name in needed:
            if name not in record:
                known = ", ".join(sorted(map(str, record))) or "none"
                raise InputError(f"{where}: no field {name!r} (fields: {known})")
        hyp = record[hyp_f]
        if not isinstance(hyp, str):
            raise InputError(f"{where}: field {hyp_f!r} is {hyp!r}, not text")
        data.hypotheses.append(hyp)
        data.references.append(_references(record[ref_f], where, ref_f))
        data.human.append(_number(record[human_f], where, human_f, kind))
        data.systems.append(_label(record[system_f], where, system_f))
        data.pairs.append("all" if lp is None else _label(record[lp], where, lp))
        seg = str(len(data.segments) + 1) if segment is None else record[segment]
        data.segments.append(_label(seg, where, str(segment)))
    if not data.hypotheses:
        raise InputError(f"{source}: no judgement")
    return data


def read_judgements_table(
    path: str | Path,
    *,
    fields: Mapping[str, str | None] | None = None,
    kind: HumanKind = "da",
) -> Judgements:
    """Judgements from a table (``.jsonl``, ``.csv``, ``.tsv``, ``.parquet``), a record each.

    Args:
        path: The table.
        fields: Field name per role (``hyp``, ``ref``, ``human``, ``system``, ``lp``,
            ``segment``), replacing :data:`FIELD_DEFAULTS`; ``lp`` or ``segment`` set to None
            means one pair (``all``) or one segment per record (numbered in order).
        kind: ``da`` (higher is better) or ``rank`` (1 is best; negated).

    Raises:
        InputError: a missing field or a value of the wrong kind (file, line and field named).
    """
    names: dict[str, str | None] = {**FIELD_DEFAULTS, **(fields or {})}
    file = Path(path)
    try:
        return _collect(table_records(file), names, kind, str(file))
    except UnicodeDecodeError as exc:
        raise InputError(f"{file}: not valid UTF-8 ({exc.reason} at byte {exc.start})") from None


def _lines(path: Path) -> list[str]:
    lines = read_text(path).split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def read_judgements_files(
    hypotheses: Sequence[str | Path],
    references: Sequence[str | Path],
    human: Sequence[str | Path],
    *,
    kind: HumanKind = "da",
    pair: str = "all",
) -> Judgements:
    """Judgements from plain files: ``hypotheses[k]`` judged by ``human[k]`` (one number a line).

    Every system is read against the same references; segments are numbered by line. System
    names are the hypothesis file names.

    Raises:
        InputError: files of different lengths, or a line of a human file that is not a finite
            number (file and line named).
    """
    if len(hypotheses) != len(human):
        raise InputError(f"{len(hypotheses)} hypothesis files but {len(human)} human files")
    refs = [_lines(Path(p)) for p in references]
    if not refs:
        raise InputError("at least one reference file is required")
    n = len(refs[0])
    for path, lines in zip(references, refs, strict=True):
        if len(lines) != n:
            raise InputError(f"{path}: {len(lines)} lines, but {references[0]} has {n}")
    data = Judgements([], [], [], [], [], [])
    for hyp_path, human_path in zip(hypotheses, human, strict=True):
        hyps = _lines(Path(hyp_path))
        scores = _lines(Path(human_path))
        for path, lines in ((hyp_path, hyps), (human_path, scores)):
            if len(lines) != n:
                raise InputError(f"{path}: {len(lines)} lines, but the references have {n}")
        for k in range(n):
            where = f"{human_path}: line {k + 1}"
            data.human.append(_number(scores[k].strip(), where, "human score", kind))
            data.hypotheses.append(hyps[k])
            data.references.append([r[k] for r in refs])
            data.systems.append(str(hyp_path))
            data.pairs.append(pair)
            data.segments.append(str(k + 1))
    if not data.hypotheses:
        raise InputError(f"{references[0]}: no segment")
    return data


def statistics(
    judgements: Judgements, config: Any, *, jobs: int = 1, progress: Any = None
) -> tuple[Any, Any]:
    """Align every item once under ``config`` (its modules and text handling: parameters and
    weights do not change a statistics row).

    Returns:
        ``(rows, segments)``: an ``(m, 23)`` int64 array with one row per reference of each
        item, and the item of each row, as :func:`meteor_eval.tuning.rescore.prepare_stats`
        takes them (the best reference is chosen again under each parameter set).
    """
    import numpy as np

    from meteor_eval import parallel
    from meteor_eval.metrics.meteor import Meteor

    metric = Meteor(config)
    pairs = [
        (hyp, [ref])
        for hyp, refs in zip(judgements.hypotheses, judgements.references, strict=True)
        for ref in refs
    ]
    segments = np.repeat(
        np.arange(len(judgements), dtype=np.int64), [len(r) for r in judgements.references]
    )
    found = parallel.segment_rows(metric, pairs, jobs=jobs, progress=progress)
    rows = np.asarray([row for row, _ in found], dtype=np.int64).reshape(len(pairs), 23)
    return rows, segments
