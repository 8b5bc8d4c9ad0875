"""Do human segment scores belong to the translations they are paired with? Checks of a file.

Reads the layout of ``scripts/prepare_wmt_da.py`` / ``prepare_wmt_mqm.py`` (``year``, ``lp``,
``system``, ``seg_id``, ``hyp``, ``ref``, ``human``) and prints, per year and language pair:

* **identical translations**: the mean absolute difference of the human scores of two
  translations of the same source segment whose texts are identical, next to the same for two
  different texts of the same segment and for two translations drawn at random from different
  segments (20,000 draws, NumPy seed 0). Judgements that see the text score identical texts
  alike: the first number sits well below the second. When it does not, the scores say little
  about the texts they are paired with.
* **segment-id shifts**: Pearson's r between each translation's human score and sentence chrF
  (sacrebleu, its defaults) of the same system's translation ``k`` segments away, for
  ``k = -K..K`` (only where that translation is also in the file). With the ids paired right,
  ``k = 0`` stands out; neighbours still correlate a little (segments of one document share
  topic and difficulty).

With ``--hits FILE ...`` (the ``ad-<src>en-good-stnd.csv`` files of the WMT DA folders: one
row per judgement, with ``HITId WorkerId ... sys_id ... type sid score``), also
**self-agreement**: Pearson's r between the score an annotator gave a translation and the score
the same annotator gave it again in the same HIT (the evaluation's REPEAT rows). It needs no
text, so it says whether the scores carry information whichever way they are paired.

With ``--against FILE`` (another judgements JSONL, e.g. expert MQM scores of the same
translations), also the Pearson correlation of the two files' human scores for the records they
share (same pair, system and ``seg_id``).

Usage::

    python scripts/judgement_checks.py --data wmt21-da.jsonl [--shift 3] [--pairs de-en zh-en]
        [--hits humaneval/newstest2021-toen/ad-deen-good-stnd.csv ...] [--against mqm.jsonl]
"""

from __future__ import annotations

import argparse
import itertools
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np


def read(path: Path, pairs: list[str] | None) -> list[dict[str, Any]]:
    """The records of the file (of the given pairs only, if any)."""
    with path.open(encoding="utf-8") as fh:
        records = [json.loads(line) for line in fh if line.strip()]
    return [r for r in records if not pairs or r["lp"] in pairs]


def identical_translations(records: list[dict[str, Any]]) -> tuple[int, float, int, float, float]:
    """Pairs and mean |difference| for same-text pairs, different-text pairs, random pairs."""
    by_segment: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        by_segment[r["seg_id"]].append(r)
    same: list[float] = []
    different: list[float] = []
    for group in by_segment.values():
        for a, b in itertools.combinations(group, 2):
            gap = abs(a["human"] - b["human"])
            (same if a["hyp"].strip() == b["hyp"].strip() else different).append(gap)
    rng = np.random.default_rng(0)
    human = np.asarray([r["human"] for r in records])
    segment = np.asarray([r["seg_id"] for r in records])
    a, b = rng.integers(0, len(records), 20_000), rng.integers(0, len(records), 20_000)
    apart = segment[a] != segment[b]
    random_gap = float(np.abs(human[a] - human[b])[apart].mean())
    return (
        len(same),
        float(np.mean(same)) if same else float("nan"),
        len(different),
        float(np.mean(different)) if different else float("nan"),
        random_gap,
    )


def shifted_chrf(records: list[dict[str, Any]], shifts: int) -> dict[int, tuple[int, float]]:
    """Pearson's r of human scores and chrF of the translation ``k`` segments away."""
    from sacrebleu.metrics import CHRF

    chrf = CHRF()
    text = {(r["system"], r["seg_id"]): (r["hyp"], r["ref"]) for r in records}
    score = {key: chrf.sentence_score(h, [ref]).score for key, (h, ref) in text.items()}
    out = {}
    for k in range(-shifts, shifts + 1):
        xs, ys = [], []
        for r in records:
            other = score.get((r["system"], r["seg_id"] + k))
            if other is not None:
                xs.append(other)
                ys.append(r["human"])
        out[k] = (len(xs), float(np.corrcoef(xs, ys)[0, 1]) if len(xs) > 2 else float("nan"))
    return out


def self_agreement(path: Path) -> tuple[int, float]:
    """Repeated judgements and Pearson's r of first and repeated score (same HIT, annotator)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split()
    need = ("HITId", "WorkerId", "sys_id", "type", "sid", "score")
    if not all(name in header for name in need):
        raise SystemExit(f"{path}: unexpected header {lines[0]!r}")
    col = {name: header.index(name) for name in need}
    first: dict[tuple[str, ...], float] = {}
    repeats: list[tuple[tuple[str, ...], float]] = []
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split("\t")
        if len(fields) != len(header):
            raise SystemExit(f"{path}:{number}: {len(fields)} fields, header has {len(header)}")
        key = tuple(fields[col[n]] for n in ("HITId", "WorkerId", "sys_id", "sid"))
        if fields[col["type"]] == "SYSTEM":
            first[key] = float(fields[col["score"]])
        elif fields[col["type"]] == "REPEAT":
            repeats.append((key, float(fields[col["score"]])))
    pairs = [(first[key], score) for key, score in repeats if key in first]
    if len(pairs) < 3:
        return len(pairs), float("nan")
    a = np.asarray(pairs)
    return len(pairs), float(np.corrcoef(a[:, 0], a[:, 1])[0, 1])


def agreement(records: list[dict[str, Any]], others: list[dict[str, Any]]) -> tuple[int, float]:
    """Shared records (pair, system, seg_id) and Pearson's r of their two human scores."""
    mine = {(r.get("year"), r["lp"], r["system"], r["seg_id"]): r["human"] for r in records}
    pairs = [
        (mine[key], r["human"])
        for r in others
        if (key := (r.get("year"), r["lp"], r["system"], r["seg_id"])) in mine
    ]
    if len(pairs) < 3:
        return len(pairs), float("nan")
    a = np.asarray(pairs)
    return len(pairs), float(np.corrcoef(a[:, 0], a[:, 1])[0, 1])


def main(argv: list[str] | None = None) -> int:
    """Print the checks for every year and pair of the file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="judgements JSONL")
    parser.add_argument("--shift", type=int, default=3, help="largest segment-id shift K")
    parser.add_argument("--pairs", nargs="*", help="only these language pairs")
    parser.add_argument("--hits", nargs="*", type=Path, default=[], help="DA judgement files")
    parser.add_argument("--against", type=Path, help="another judgements JSONL to compare")
    args = parser.parse_args(argv)
    for path in args.hits:
        count, r = self_agreement(path)
        print(f"{path}: {count:,} repeated judgements, self-agreement r {r:.3f}")
    records = read(args.data, args.pairs)
    # one group per year and pair: a file may hold two years of one pair
    groups: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        year = record.get("year")
        label = record["lp"] if year is None else f"{year} {record['lp']}"
        groups.setdefault(label, []).append(record)
    pairs = sorted(groups)
    print(f"{args.data}: {len(records):,} judgements")
    if args.against is not None:
        count, r = agreement(records, read(args.against, args.pairs))
        print(f"against {args.against}: {count:,} shared translations, Pearson r {r:.3f}")
    print("| pair | same text: pairs, mean gap | different text | random segments |")
    print("|---|---:|---:|---:|")
    for lp in pairs:
        n_same, same, n_diff, diff, rand = identical_translations(groups[lp])
        print(f"| {lp} | {n_same:,}, {same:.3f} | {n_diff:,}, {diff:.3f} | {rand:.3f} |")
    ks = range(-args.shift, args.shift + 1)
    print("| pair | " + " | ".join(f"k={k:+d}" for k in ks) + " |")
    print("|---|" + "---:|" * len(ks))
    for lp in pairs:
        result = shifted_chrf(groups[lp], args.shift)
        print(f"| {lp} | " + " | ".join(f"{result[k][1]:.3f}" for k in ks) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
