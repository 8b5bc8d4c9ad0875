"""Which line of the released test set each WMT to-English DA segment id scores.

The DA segment scores of the WMT 2021 and 2022 to-English evaluations
(``humaneval/.../ad-seg-scores-<src>-en.csv``) number the segments ``SID = 1..N`` with the
test set's **documents sorted by their id as text** (``"text_105"`` before ``"text_31"``),
segments in document order within each; the released ``txt/`` files keep the documents in the
order of the test set's XML. Paired by line, a DA score and the translation it is paired with
are unrelated (within each system, chrF against the z-scores: Pearson -0.01 to 0.03 in all 14
pairs); paired through this order they are not (2021 is-en: 0.024 by line, 0.265 through the
order). Found on 2021 is-en, where the documents of the evaluation's HITs (runs of
consecutive SIDs) have, one for one, the lengths of the XML's documents sorted by id; the
repositories do not state it, so this script checks it on every pair: the within-system
correlation of sentence chrF and the z-scores through the order must beat pairing by line by
``MIN_GAIN`` (0.1; it does by 0.21 to 0.35 in the nine pairs of docs/tuning.md), or nothing is
written (``--no-check`` writes it anyway).

The documents come from the test set's XML (``--docs``): an XML file of the repository
(2021: ``xml/newstest2021.<src>-en.all.xml``; 2022: ``xml/wmttest2022.<src>-en.xml``, in the
repository's history), or a JSON Lines file with one object per document in file order
(``doc_id``, ``segments`` and its first source or reference segment as ``src1``/``ref1``,
or the reference segment's beginning as ``ref1_prefix``).
Each document is found in the ``txt/`` files by its first source segment (or first reference
segment), followed by as many lines as it has segments; a document whose first segment occurs
more than once is placed at the first free match whose second segment also matches.

Writes (or adds to) a JSON object: ``"<year> <src>-en"`` -> ``{"order": [line of SID 1, ...],
"r_by_line": ..., "r_by_order": ...}``, read by ``scripts/prepare_wmt_da.py --order``.

Usage::

    python scripts/da_order.py --repo wmt21-news-systems --year 2021 --pair is-en \
        --docs wmt21-news-systems/xml/newstest2021.is-en.all.xml --out da-order.json
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import numpy as np
from prepare_wmt_da import (
    SCORES,
    SOURCE_ALIASES,
    Repository,
    match_system,
    pair_files,
    primary_reference,
    read_scores,
)

#: How much better than pairing by line the order must correlate to be written.
MIN_GAIN = 0.1


def read_docs(path: Path, collection: str | None = None) -> list[dict[str, Any]]:
    """Documents in file order: id, number of source segments, first source/reference texts
    (of one ``<collection>`` only, if given: 2022's files add biomedical collections)."""
    if path.suffix == ".jsonl":
        docs = []
        with path.open(encoding="utf-8") as fh:
            for number, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                try:
                    doc = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise SystemExit(f"{path}:{number}: not JSON ({exc.msg})") from None
                if not isinstance(doc, dict) or "doc_id" not in doc or "segments" not in doc:
                    raise SystemExit(f"{path}:{number}: needs doc_id and segments")
                docs.append(doc)
        if collection is not None:
            docs = [d for d in docs if d.get("collection") == collection]
            if not docs:
                raise SystemExit(f"{path}: no document of collection {collection!r}")
        return docs
    root = ET.parse(path).getroot()
    parts = (
        root.findall("collection")
        if collection is None
        else [c for c in root.findall("collection") if c.get("id") == collection]
    )
    if collection is not None and not parts:
        raise SystemExit(f"{path}: no collection {collection!r}")
    scopes = parts or [root]
    docs = []
    for doc in (d for scope in scopes for d in scope.iter("doc")):
        src = doc.find("src")
        if src is None:
            raise SystemExit(f"{path}: document {doc.get('id')} has no src")
        segs = [seg.text or "" for seg in src.iter("seg")]
        ref = doc.find("ref")
        refs = [] if ref is None else [seg.text or "" for seg in ref.iter("seg")]
        docs.append(
            {
                "doc_id": doc.get("id"),
                "segments": len(segs),
                "src1": segs[0] if segs else "",
                "src2": segs[1] if len(segs) > 1 else "",
                "ref1": refs[0] if refs else "",
            }
        )
    return docs


def place(docs: list[dict[str, Any]], sources: list[str], references: list[list[str]]) -> list[int]:
    """0-based first text line of every document, found by its first segment."""
    n = len(sources)
    taken = np.zeros(n, dtype=bool)
    starts = []
    for doc in docs:
        length = int(doc["segments"])
        if length == 0:  # an empty document (2022 liv-en has one): no line, no SID
            starts.append(0)
            continue
        candidates: list[int] = []
        if doc.get("src1"):
            key = doc["src1"].strip()
            candidates = [i for i, line in enumerate(sources) if line.strip() == key]
        if not candidates and (doc.get("ref1") or doc.get("ref1_prefix")):
            exact = bool(doc.get("ref1"))
            key = (doc.get("ref1") or doc["ref1_prefix"]).strip()
            for ref in references:
                candidates = [
                    i
                    for i, line in enumerate(ref)
                    if (line.strip() == key if exact else line.strip().startswith(key))
                ]
                if candidates:
                    break
        free = [i for i in candidates if i + length <= n and not taken[i : i + length].any()]
        if not free and doc.get("src1"):
            free = _closest(doc["src1"], sources, taken, length)
        if len(free) > 1 and doc.get("src2"):
            second = doc["src2"].strip()
            free = [i for i in free if i + 1 < n and sources[i + 1].strip() == second] or free
        if len(free) > 1:
            print(
                f"document {doc['doc_id']}: its first segment is at {len(free)} free lines "
                f"({', '.join(str(i + 1) for i in free[:5])}); placed at the first",
                file=sys.stderr,
            )
        if not free:
            raise SystemExit(f"document {doc['doc_id']}: its first segment is not in the text")
        starts.append(free[0])
        taken[free[0] : free[0] + length] = True
    if not taken.all():
        raise SystemExit(f"the documents cover {int(taken.sum())} of {n} text lines")
    return starts


def _closest(text: str, lines: list[str], taken: np.ndarray, length: int) -> list[int]:
    """The free start whose line is most like ``text`` (ratio 0.9 or more), for first
    segments copied with a look-alike character or a different space."""
    key = unicodedata.normalize("NFKC", " ".join(text.split()))
    best, where = 0.0, -1
    for i, line in enumerate(lines):
        if i + length > len(lines) or taken[i : i + length].any():
            continue
        ratio = difflib.SequenceMatcher(
            None, key, unicodedata.normalize("NFKC", " ".join(line.split()))
        ).ratio()
        if ratio > best:
            best, where = ratio, i
    return [where] if best >= 0.9 else []


def sid_order(docs: list[dict[str, Any]], starts: list[int]) -> list[int]:
    """Text line (1-based) of every SID: documents sorted by id as text, segments in order."""
    order: list[int] = []
    for doc, start in sorted(
        zip(docs, starts, strict=True), key=lambda pair: str(pair[0]["doc_id"])
    ):
        order.extend(range(start + 1, start + 1 + int(doc["segments"])))
    return order


def within_system_r(
    scores: dict[str, dict[int, float]], chrf: dict[str, list[float]], order: list[int]
) -> float:
    """Pearson's r of DA z-scores and sentence chrF of the paired lines, centred per system."""
    xs, ys = [], []
    for system, by_sid in scores.items():
        if system not in chrf or len(by_sid) < 3:
            continue
        c = np.asarray([chrf[system][order[sid - 1] - 1] for sid in by_sid])
        z = np.asarray(list(by_sid.values()))
        xs.append(c - c.mean())
        ys.append(z - z.mean())
    if not xs:
        raise SystemExit("no system with three or more scores has an output file to check with")
    return float(np.corrcoef(np.concatenate(xs), np.concatenate(ys))[0, 1])


def main(argv: list[str] | None = None) -> int:
    """Compute, check and write the order of one pair."""
    from sacrebleu.metrics import CHRF

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repo", type=Path, required=True, help="wmt21/22-news-systems copy")
    parser.add_argument("--year", type=int, required=True)
    parser.add_argument("--pair", required=True, help="as in the scores file, e.g. is-en, lv-en")
    parser.add_argument("--docs", type=Path, required=True, help="the test set's XML (or JSONL)")
    parser.add_argument("--out", type=Path, required=True, help="JSON file to write or add to")
    parser.add_argument("--collection", help="only this <collection> (2022: general)")
    parser.add_argument(
        "--skip-prefix",
        action="append",
        default=[],
        help="leave out documents whose id starts so (2021 ru-en: tsuite-, its test suites)",
    )
    parser.add_argument(
        "--no-check",
        action="store_true",
        help="write the order even if it does not correlate better than pairing by line",
    )
    args = parser.parse_args(argv)
    repo = Repository(args.repo)
    names = repo.names()
    src = args.pair.split("-")[0]
    code = SOURCE_ALIASES.get(src, src)
    found = [
        name
        for name in names
        if (m := SCORES.match(name)) and int(m.group(1)) == args.year and m.group(2) == src
    ]
    if len(found) != 1:
        raise SystemExit(f"{args.repo}: no DA scores of {src}-en {args.year} (ad-seg-scores-*)")
    scores_name = found[0]
    scores: dict[str, dict[int, float]] = {}
    for (system, sid), (z, _, _) in read_scores(repo.text(scores_name), scores_name).items():
        scores.setdefault(system, {})[sid] = z
    tag = f"{args.year}.{code}-en."
    sources = [n for n in names if n.startswith("txt/sources/") and tag in n]
    refs, hyps = pair_files(names, args.year, code)
    if len(sources) != 1 or not refs:
        raise SystemExit(
            f"{args.repo}: no single source file and references for {code}-en {args.year}"
        )
    source_lines = repo.lines(sources[0])
    reference_lines = [repo.lines(refs[k]) for k in sorted(refs)]
    docs = [
        d
        for d in read_docs(args.docs, args.collection)
        if not any(str(d["doc_id"]).startswith(p) for p in args.skip_prefix)
    ]
    total = sum(int(d["segments"]) for d in docs)
    if total != len(source_lines):
        raise SystemExit(f"{args.docs}: {total} segments, the text has {len(source_lines)} lines")
    order = sid_order(docs, place(docs, source_lines, reference_lines))
    ref = repo.lines(refs[primary_reference(refs, set(scores))])
    metric = CHRF()
    chrf = {}
    for system in scores:
        path = match_system(system, hyps)
        if path is not None and not system.startswith("HUMAN"):
            chrf[system] = [
                metric.sentence_score(h, [r]).score
                for h, r in zip(repo.lines(path), ref, strict=True)
            ]
    by_line = within_system_r(scores, chrf, list(range(1, len(ref) + 1)))
    by_order = within_system_r(scores, chrf, order)
    key = f"{args.year} {src}-en"
    print(
        f"{key}: {len(docs)} documents; within-system r of chrF and DA z: "
        f"by line {by_line:.3f}, through the order {by_order:.3f}",
        file=sys.stderr,
    )
    if by_order < by_line + MIN_GAIN and not args.no_check:
        raise SystemExit(
            f"{key}: the order does not pair the scores better than the lines do "
            f"(r {by_order:.3f} against {by_line:.3f}; needs {MIN_GAIN} more): wrong documents, "
            "--collection or --skip-prefix? (--no-check writes it anyway)"
        )
    result = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}
    result[key] = {"order": order, "r_by_line": by_line, "r_by_order": by_order}
    args.out.write_text(json.dumps(result) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
