"""Build a JSONL of expert MQM judgements of WMT 2021 Chinese-English for ``meteor-eval train``.

Professional translators re-annotated Chinese-English outputs of WMT 2021 with MQM error spans
(Freitag et al. 2021, "Experts, errors, and context"): judgements by other annotators and
another method than the crowd direct assessments of ``scripts/prepare_wmt_da.py``, and the
check of them in docs/tuning.md. This script writes them in the same one-record-a-line
layout::

    {"year": 2021, "lp": "zh-en", "set": "newstest2021", "system": "NiuTrans", "seg_id": 91,
     "hyp": "...", "ref": "...", "human": -5.0, "raw": -5.0, "judgements": 1}

``human`` is the MQM score averaged over the segment's raters: minus the weighted error
points, so higher is better (``--human-kind da`` in ``train``). ``judgements`` is 1: the
files give the average, not the number of raters.

Reads local copies (a checkout or a bare git directory) of the public repositories::

    git clone https://github.com/google/wmt-mqm-human-evaluation
    git clone https://github.com/wmt-conference/wmt21-news-systems

Two sets (``--set``):

* ``newstest2021``: scores from ``newstest2021/zhen/mqm_newstest2021_zhen.avg_seg_scores.tsv``
  (``system``, ``mqm_avg_score``, ``seg_id``; ``None`` for a segment not annotated);
  ``seg_id`` is the 1-based line of the ``txt/`` files of wmt21-news-systems, whose
  ``newstest2021.zh-en.hyp.<system>.en`` give the hypotheses and ``ref.A`` the reference.
  Systems with no output file there (the anonymous ``metricsystem1`` ... ``5``) are reported
  and skipped, as are the human translations scored as systems (``ref-A``, ``ref-B``).
* ``ted``: the WMT 2021 TED-talk test suite. The hypotheses are the ``target`` column of
  ``ted/zhen/mqm_ted_zhen.tsv`` (every annotated segment, error spans marked ``<v>...</v>``,
  marks removed), the scores ``ted/zhen/mqm_ted_zhen.avg_seg_scores.tsv``, the reference the
  translation the experts rated best, ``refB`` (ref.A ranks last of 15 in the repository's
  README). Human translations are left out as systems.

A segment whose text differs between two annotation rows, a score without text, or a
malformed row stops the script with the file and line.

Usage::

    python scripts/prepare_wmt_mqm.py --mqm wmt-mqm-human-evaluation \
        --systems wmt21-news-systems --set newstest2021 --out mqm-news2021.jsonl
    python scripts/prepare_wmt_mqm.py --mqm wmt-mqm-human-evaluation --set ted \
        --out mqm-ted2021.jsonl
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from pathlib import Path

from prepare_wmt_da import Repository, table_rows

NEWS_SCORES = "newstest2021/zhen/mqm_newstest2021_zhen.avg_seg_scores.tsv"
TED_SCORES = "ted/zhen/mqm_ted_zhen.avg_seg_scores.tsv"
TED_TEXT = "ted/zhen/mqm_ted_zhen.tsv"
NEWS_HYP = "txt/system-outputs/newstest2021.zh-en.hyp.{}.en"
NEWS_REF = "txt/references/newstest2021.zh-en.ref.A.en"
#: Human translations scored as systems in the MQM files (left out as systems).
HUMAN = {"ref-A", "ref-B", "ref", "refB", "ref.A", "ref.B"}


def read_avg_scores(text: str, where: str) -> dict[tuple[str, int], float]:
    """The MQM score of every annotated (system, segment id) of an ``avg_seg_scores`` file."""
    scores: dict[tuple[str, int], float] = {}
    for number, line, fields in table_rows(text, where, ["system", "mqm_avg_score", "seg_id"]):
        system, value, seg = fields
        try:
            key = (system, int(seg))
            if value == "None":
                continue
            score = float(value)
        except ValueError:
            raise SystemExit(f"{where}:{number}: not a score and segment id: {line!r}") from None
        if key in scores:
            raise SystemExit(f"{where}:{number}: {system} segment {seg} listed twice")
        scores[key] = score
    return scores


def read_ted_text(text: str, where: str) -> dict[tuple[str, int], str]:
    """The translation of every (system, segment id) of the TED annotation file, marks removed."""
    reader = csv.reader(io.StringIO(text), delimiter="\t", quoting=csv.QUOTE_NONE)
    header = next(reader, None)
    if header is None or header[:7] != [
        "system",
        "doc",
        "doc_id",
        "seg_id",
        "rater",
        "source",
        "target",
    ]:
        raise SystemExit(f"{where}: unexpected header {header!r}")
    texts: dict[tuple[str, int], str] = {}
    for number, row in enumerate(reader, start=2):
        if not row:
            continue
        if len(row) != len(header):
            raise SystemExit(f"{where}:{number}: expected {len(header)} columns, got {len(row)}")
        try:
            key = (row[0], int(row[3]))
        except ValueError:
            raise SystemExit(f"{where}:{number}: segment id {row[3]!r} is not a number") from None
        target = row[6].replace("<v>", "").replace("</v>", "")
        if texts.setdefault(key, target) != target:
            raise SystemExit(f"{where}:{number}: {row[0]} segment {row[3]} has two texts")
    return texts


def record(
    system: str, seg_id: int, hyp: str, ref: str, score: float, name: str
) -> dict[str, object]:
    """One judged translation in the layout of ``meteor-eval train --input``."""
    return {
        "year": 2021,
        "lp": "zh-en",
        "set": name,
        "system": system,
        "seg_id": seg_id,
        "hyp": hyp,
        "ref": ref,
        "human": score,
        "raw": score,
        "judgements": 1,
    }


def news_records(mqm: Repository, systems: Repository) -> list[dict[str, object]]:
    """The newstest2021 zh-en records: MQM scores joined to the WMT 2021 output files."""
    scores = read_avg_scores(mqm.text(NEWS_SCORES), NEWS_SCORES)
    names = set(systems.names())
    ref = systems.lines(NEWS_REF)
    hyps: dict[str, list[str]] = {}
    out = []
    for (system, seg_id), score in sorted(scores.items()):
        if system in HUMAN:
            continue
        if system not in hyps:
            path = NEWS_HYP.format(system)
            if path not in names:
                print(f"  {system}: no output file {path}, skipped", file=sys.stderr)
                hyps[system] = []
                continue
            hyps[system] = systems.lines(path)
            if len(hyps[system]) != len(ref):
                raise SystemExit(f"{path}: {len(hyps[system])} lines, reference {len(ref)}")
        lines = hyps[system]
        if not lines:
            continue
        if not 1 <= seg_id <= len(ref):
            raise SystemExit(f"{NEWS_SCORES}: segment {seg_id} outside 1..{len(ref)}")
        out.append(
            record(system, seg_id, lines[seg_id - 1], ref[seg_id - 1], score, "newstest2021")
        )
    return out


def ted_records(mqm: Repository) -> list[dict[str, object]]:
    """The TED zh-en records: MQM scores joined to the annotated translations."""
    scores = read_avg_scores(mqm.text(TED_SCORES), TED_SCORES)
    texts = read_ted_text(mqm.text(TED_TEXT), TED_TEXT)
    out = []
    for (system, seg_id), score in sorted(scores.items()):
        if system in HUMAN:
            continue
        hyp = texts.get((system, seg_id))
        ref = texts.get(("refB", seg_id))
        if hyp is None or ref is None:
            missing = system if hyp is None else "refB"
            raise SystemExit(f"{TED_SCORES}: {system} segment {seg_id}: no text of {missing}")
        out.append(record(system, seg_id, hyp, ref, score, "ted"))
    return out


def main(argv: list[str] | None = None) -> int:
    """Write the JSONL; print a summary on stderr."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mqm", type=Path, required=True, help="wmt-mqm-human-evaluation copy")
    parser.add_argument("--systems", type=Path, help="wmt21-news-systems copy (newstest2021)")
    parser.add_argument("--set", required=True, choices=("newstest2021", "ted"))
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    mqm = Repository(args.mqm)
    if args.set == "newstest2021":
        if args.systems is None:
            parser.error("--set newstest2021 needs --systems (a wmt21-news-systems copy)")
        records = news_records(mqm, Repository(args.systems))
    else:
        if args.systems is not None:
            parser.error("--set ted reads no system outputs: drop --systems")
        records = ted_records(mqm)
    with args.out.open("w", encoding="utf-8") as fh:
        for item in records:
            fh.write(json.dumps(item, ensure_ascii=False) + "\n")
    systems = len({r["system"] for r in records})
    print(f"{len(records)} records, {systems} systems -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
