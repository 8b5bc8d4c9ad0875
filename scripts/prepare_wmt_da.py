"""Build a compact JSONL of WMT to-English direct-assessment (DA) data for ``meteor-eval train``.

Reads local copies of the public WMT news-task repositories, for example::

    git clone https://github.com/wmt-conference/wmt21-news-systems
    git clone https://github.com/wmt-conference/wmt22-news-systems

(a checkout or a bare git directory both work; nothing is downloaded here) and writes one JSON
object a line::

    {"year": 2021, "lp": "is-en", "system": "Online-W", "seg_id": 340, "sid": 17,
     "hyp": "...", "ref": "...", "human": 0.4121, "raw": 81.5, "judgements": 2}

What is read, per repository:

* ``humaneval/[DA/]newstest<YEAR>-toen/ad-seg-scores-<src>-en.csv``: the DA segment scores
  (space-separated columns ``SYS SID RAW.SCR Z.SCR N``): ``SYS`` is ``<system>.<id>``, ``SID``
  the segment's number in the evaluation (not the line of the ``txt/`` files: see below),
  ``Z.SCR`` the mean of the segment's ``N`` judgements after each annotator's scores were
  standardised (the repositories' ``humaneval`` README); ``RAW.SCR`` the mean raw 0-100
  score (kept as ``raw``: WMT's relative rankings from DA, "daRR", pair translations of a
  source whose raw scores differ by more than 25). A segment listed more than once has
  its z-scores averaged, weighted by ``N``, so every judgement counts once.
* ``txt/system-outputs/<testset><YEAR>.<src>-en.hyp.<system>.en``: the hypotheses.
* ``txt/references/<testset><YEAR>.<src>-en.ref.<X>.en``: the references. The pair's primary
  reference is ``A`` unless the human evaluation scored reference ``A`` as a system
  (``HUMAN-A``); otherwise the first letter not scored as a system (2022 cs-en: ``B``).

Human translations scored as systems (``HUMAN``, ``HUMAN-B`` ...) are left out: they are
references, not the output of MT systems. A system name in the scores that differs from its
file name (2021's ``Nemo`` for ``NVIDIA-NeMo``) is matched after lower-casing and dropping
punctuation, then by a unique containment; an unmatched system is reported and skipped. The
2022 Livonian pair is ``lv-en`` in the scores and ``liv-en`` in the files.

**The segment ids are not the lines of the ``txt/`` files.** Paired by line, the DA scores and
the translations are unrelated (``scripts/judgement_checks.py``; docs/tuning.md): the
evaluation numbered the test set with its documents sorted by id, the ``txt/`` files keep
them in the XML's order. ``--order FILE`` (written by ``scripts/da_order.py`` from the test
set's XML) pairs every score with the line it scores: ``seg_id`` is then the text line,
``sid`` the segment id of the scores file, and pairs without an order are left out with a
message. Without ``--order`` the records pair by line, as before, with a warning.

Usage::

    python scripts/prepare_wmt_da.py --repo wmt21-news-systems --repo wmt22-news-systems \
        --out /tmp/wmt-da.jsonl [--order da-order.json] [--years 2021 2022] [--pairs de-en]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

SCORES = re.compile(r"^humaneval/(?:DA/)?newstest(\d{4})-toen/ad-seg-scores-([a-z]+)-en\.csv$")
SOURCE_ALIASES = {"lv": "liv"}


class Repository:
    """Read-only access to the files of a checkout or of a (bare) git directory."""

    def __init__(self, path: Path) -> None:
        self.path = path
        git_dir = path / ".git" if (path / ".git").exists() else path
        self.git_dir = git_dir if (git_dir / "HEAD").exists() else None
        if self.git_dir is None and not path.is_dir():
            raise SystemExit(f"--repo: {path} is neither a directory nor a git directory")

    def names(self) -> list[str]:
        """Every file path of the repository's HEAD (or of the directory tree)."""
        if self.git_dir is not None:
            out = subprocess.run(
                ["git", "--git-dir", str(self.git_dir), "ls-tree", "-r", "--name-only", "HEAD"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            return out.splitlines()
        return [str(p.relative_to(self.path)) for p in self.path.rglob("*") if p.is_file()]

    def text(self, name: str) -> str:
        """The UTF-8 text of one file."""
        if self.git_dir is not None:
            data = subprocess.run(
                ["git", "--git-dir", str(self.git_dir), "show", f"HEAD:{name}"],
                check=True,
                capture_output=True,
            ).stdout
            return data.decode("utf-8")
        return (self.path / name).read_text(encoding="utf-8")

    def lines(self, name: str) -> list[str]:
        """The lines of a text file, without their line ends."""
        lines = self.text(name).split("\n")
        return lines[:-1] if lines[-1] == "" else lines


def table_rows(
    text: str, where: str, header: list[str], *, more_columns_in_header: bool = False
) -> Iterator[tuple[int, str, list[str]]]:
    """``(line number, line, fields)`` of each non-blank row of a whitespace-separated table.

    The first line must be ``header`` (or start with it, when ``more_columns_in_header``); each
    row must have one field per header column. Exits with ``WHERE:LINE: ...`` otherwise.
    """
    lines = text.splitlines()
    first = lines[0].split() if lines else []
    if not lines or (first[: len(header)] if more_columns_in_header else first) != header:
        raise SystemExit(f"{where}: unexpected header {lines[:1]!r}")
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != len(header):
            raise SystemExit(f"{where}:{number}: expected {len(header)} columns, got {len(fields)}")
        yield number, line, fields


def read_scores(text: str, where: str) -> dict[tuple[str, int], tuple[float, float, int]]:
    """Mean z-score, mean raw score (0-100) and number of judgements of each (system, segment
    id) of a seg-scores file."""
    sums: dict[tuple[str, int], list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    header = ["SYS", "SID", "RAW.SCR", "Z.SCR", "N"]
    for _, _, fields in table_rows(text, where, header, more_columns_in_header=True):
        system = fields[0].rsplit(".", 1)[0]
        count = int(fields[4])
        acc = sums[(system, int(fields[1]))]
        acc[0] += float(fields[3]) * count
        acc[1] += float(fields[2]) * count
        acc[2] += count
    return {key: (z / n, raw / n, int(n)) for key, (z, raw, n) in sums.items() if n > 0}


def _squash(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def match_system(name: str, files: dict[str, str]) -> str | None:
    """The file of a scored system: exact name, squashed name, or a unique containment."""
    if name in files:
        return files[name]
    squashed = {_squash(k): v for k, v in files.items()}
    key = _squash(name)
    if key in squashed:
        return squashed[key]
    hits = [v for k, v in squashed.items() if key and (key in k or k in key)]
    return hits[0] if len(hits) == 1 else None


def primary_reference(refs: dict[str, str], scored: set[str]) -> str:
    """The letter of the primary reference: A, else the first one not scored as a system."""
    human = {s.split("-", 1)[1] for s in scored if s.startswith("HUMAN-")}
    letters = [x for x in sorted(refs) if x not in human]
    if not letters:
        raise SystemExit(f"no reference left among {sorted(refs)} (scored: {sorted(human)})")
    return "A" if "A" in letters else letters[0]


def pair_files(names: list[str], year: int, code: str) -> tuple[dict[str, str], dict[str, str]]:
    """The pair's reference files by letter and system-output files by system name."""
    pattern = re.compile(
        rf"^txt/(references|system-outputs)/[a-z]+test{year}\.{code}-en\.(ref|hyp)\.(.+)\.en$"
    )
    refs: dict[str, str] = {}
    hyps: dict[str, str] = {}
    for name in names:
        m = pattern.match(name)
        if m:
            (refs if m.group(2) == "ref" else hyps)[m.group(3)] = name
    return refs, hyps


def pair_records(
    repo: Repository,
    names: list[str],
    year: int,
    src: str,
    scores_name: str,
    order: list[int] | None = None,
):
    """The JSONL records of one language pair of one year.

    ``order[sid - 1]`` is the text line the segment id scores; without it the segment id is
    taken as the line.
    """
    code = SOURCE_ALIASES.get(src, src)
    refs, hyps = pair_files(names, year, code)
    scores = read_scores(repo.text(scores_name), scores_name)
    scored = {system for system, _ in scores}
    letter = primary_reference(refs, scored)
    ref_lines = repo.lines(refs[letter])
    lp = f"{code}-en"
    print(f"{year} {lp}: reference {letter} ({len(ref_lines)} lines)", file=sys.stderr)
    out = []
    for system in sorted(scored):
        if system.startswith("HUMAN"):
            continue
        hyp_file = match_system(system, hyps)
        if hyp_file is None:
            print(f"  {system}: no system output found, skipped", file=sys.stderr)
            continue
        hyp_lines = repo.lines(hyp_file)
        if len(hyp_lines) != len(ref_lines):
            raise SystemExit(f"{hyp_file}: {len(hyp_lines)} lines, reference {len(ref_lines)}")
        if order is not None and len(order) != len(ref_lines):
            raise SystemExit(
                f"the order of {year} {lp} has {len(order)} lines, the text {len(ref_lines)}"
            )
        for (name, sid), (z, raw, n) in sorted(scores.items()):
            if name != system:
                continue
            if not 1 <= sid <= len(ref_lines):
                raise SystemExit(f"{scores_name}: segment {sid} outside 1..{len(ref_lines)}")
            line = sid if order is None else order[sid - 1]
            out.append(
                {
                    "year": year,
                    "lp": lp,
                    "system": system,
                    "seg_id": line,
                    "sid": sid,
                    "hyp": hyp_lines[line - 1],
                    "ref": ref_lines[line - 1],
                    "human": round(z, 6),
                    "raw": round(raw, 4),
                    "judgements": n,
                }
            )
    return out


def main(argv: list[str] | None = None) -> int:
    """Write the JSONL; print a summary per pair on stderr."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repo", action="append", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--years", type=int, nargs="*")
    parser.add_argument("--pairs", nargs="*")
    parser.add_argument("--order", type=Path, help="orders of scripts/da_order.py")
    args = parser.parse_args(argv)
    orders = None
    if args.order is not None:
        orders = json.loads(args.order.read_text(encoding="utf-8"))
    records = []
    for path in args.repo:
        repo = Repository(path)
        names = repo.names()
        for name in sorted(names):
            m = SCORES.match(name)
            if not m:
                continue
            year, src = int(m.group(1)), m.group(2)
            if args.years and year not in args.years:
                continue
            if args.pairs and f"{src}-en" not in args.pairs:
                continue
            order = None
            if orders is not None:
                entry = orders.get(f"{year} {src}-en")
                if entry is None:
                    print(f"{year} {src}-en: no order in {args.order}, left out", file=sys.stderr)
                    continue
                order = entry.get("order") if isinstance(entry, dict) else None
                if not isinstance(order, list) or sorted(order) != list(range(1, len(order) + 1)):
                    raise SystemExit(f"{args.order}: {year} {src}-en: not an order of lines")
            else:
                print(
                    f"{year} {src}-en: paired by line (no --order): the scores and the texts "
                    "do not correspond (see the docstring)",
                    file=sys.stderr,
                )
            found = pair_records(repo, names, year, src, name, order)
            systems = len({r["system"] for r in found})
            print(f"  {len(found)} segments, {systems} systems", file=sys.stderr)
            records.extend(found)
    with args.out.open("w", encoding="utf-8") as fh:
        for record in records:
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(f"{len(records)} records -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
