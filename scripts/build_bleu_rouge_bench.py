#!/usr/bin/env python
"""Build the BLEU/ROUGE benchmark input from WMT22 general-task system outputs (into English).

The WMT22 system outputs and references are research-only data: they are not shipped with
meteor-eval and never committed. Get them from the public repository
``https://github.com/wmt-conference/wmt22-news-systems`` (``git clone`` it, or ``git archive
HEAD txt`` from a copy), then::

    python scripts/build_bleu_rouge_bench.py WMT22_DIR OUT_DIR

``WMT22_DIR`` is the folder holding ``txt/system-outputs`` and ``txt/references``. Every
system output of every ``xx-en`` pair (71 systems, 126,836 segments in the repository's
version of 2024-02) is written, in sorted file order, to ``OUT_DIR/hyp.txt``, and the
pair's first reference (by file name: ``ref.A`` before ``ref.B``) line by line to
``OUT_DIR/ref.txt``, so the two files pair line by line. ``OUT_DIR/ref2.txt`` holds each
pair's second reference where one exists (else the first again), for two-reference runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def read_lines(path: Path) -> list[str]:
    """The file's lines without their line ends (UTF-8, as the WMT files are)."""
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wmt22_dir", type=Path)
    parser.add_argument("out_dir", type=Path)
    args = parser.parse_args(argv)
    outputs = args.wmt22_dir / "txt" / "system-outputs"
    references = args.wmt22_dir / "txt" / "references"
    if not outputs.is_dir() or not references.is_dir():
        parser.error(f"{args.wmt22_dir}: no txt/system-outputs and txt/references folders")
    args.out_dir.mkdir(parents=True, exist_ok=True)
    n_segments = n_systems = 0
    with (
        open(args.out_dir / "hyp.txt", "w", encoding="utf-8") as hyp_out,
        open(args.out_dir / "ref.txt", "w", encoding="utf-8") as ref_out,
        open(args.out_dir / "ref2.txt", "w", encoding="utf-8") as ref2_out,
    ):
        for hyp_path in sorted(outputs.glob("generaltest2022.*-en.hyp.*.en")):
            pair = hyp_path.name.split(".")[1]
            refs = sorted(references.glob(f"generaltest2022.{pair}.ref.*.en"))
            if not refs:
                print(f"{hyp_path.name}: no reference, skipped", file=sys.stderr)
                continue
            hyps = read_lines(hyp_path)
            first = read_lines(refs[0])
            second = read_lines(refs[1]) if len(refs) > 1 else first
            if not len(hyps) == len(first) == len(second):
                print(f"{hyp_path.name}: line counts differ, skipped", file=sys.stderr)
                continue
            hyp_out.writelines(line + "\n" for line in hyps)
            ref_out.writelines(line + "\n" for line in first)
            ref2_out.writelines(line + "\n" for line in second)
            n_segments += len(hyps)
            n_systems += 1
    print(f"{n_systems} systems, {n_segments} segments -> {args.out_dir}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
