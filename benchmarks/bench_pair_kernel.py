"""The compiled METEOR 1.5 pair kernel alone: ``meteor15_pair`` once per pair against one
``meteor15_rows`` call for the whole batch, on the same pre-interned pairs.

Tokenising and interning happen before timing, so the figures are the kernel's own cost per
pair (candidates, beam search, statistics), CPU time (``time.process_time``), the best of three
runs. All four English modules, ``-norm``. Run from the repository root::

    python benchmarks/bench_pair_kernel.py --hyp H --ref R -n 5000

To compare two builds, run it with ``PYTHONPATH`` pointing at each one's ``src``.
"""

from __future__ import annotations

import argparse
import itertools
import time
from array import array
from pathlib import Path

import numpy as np

from meteor_eval.metrics.meteor import Meteor, MeteorConfig, fast

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "meteor15"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hyp", type=Path, default=DATA / "xray-system1.hyp")
    parser.add_argument("--ref", type=Path, default=DATA / "xray-reference")
    parser.add_argument("-n", type=int, default=5_000)
    args = parser.parse_args()
    hyps_text = args.hyp.read_text(encoding="utf-8").splitlines()[: args.n]
    refs_text = args.ref.read_text(encoding="utf-8").splitlines()[: args.n]
    n = len(hyps_text)
    scorer = Meteor(MeteorConfig.preset("meteor15", normalization="norm"))
    pipe = scorer.pipeline
    hyps = pipe.interned_batch([(h, [r]) for h, r in zip(hyps_text, refs_text, strict=True)])
    assert hyps is not None and pipe.word_types is not None
    refs = [pipe.reference(r) for r in refs_text]
    fixed = pipe._kernel_arguments(False)
    kernel = fast._PAIR_KERNEL.meteor15_pair
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for hyp, ref in zip(hyps, refs, strict=True):
            assert hyp.interned is not None and ref.interned is not None
            kernel(pipe.pair_kinds, hyp.interned[1], ref.interned[1], *fixed)
        best = min(best, time.process_time() - start)
    print(f"meteor15_pair, one call per pair: {best / n * 1e6:.1f} us/pair ({n:,} pairs)")
    rows = getattr(fast, "_ROWS_KERNEL", None)
    if rows is None:
        return
    types = pipe.word_types
    hyp_ids, ref_ids = array("i"), array("i")
    for seg in hyps:
        assert seg.interned is not None
        hyp_ids.extend(seg.interned[1])
    for seg in refs:
        assert seg.interned is not None
        ref_ids.extend(seg.interned[1])
    lengths = [len(s.interned[1]) for s in hyps if s.interned is not None]
    hyp_offsets = array("q", itertools.accumulate(lengths, initial=0))
    lengths = [len(s.interned[1]) for s in refs if s.interned is not None]
    ref_offsets = array("q", itertools.accumulate(lengths, initial=0))
    out = np.zeros((n, 23), dtype=np.int64)
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        rows.meteor15_rows(
            pipe.pair_kinds,
            hyp_ids,
            hyp_offsets,
            ref_ids,
            ref_offsets,
            *pipe._table_arguments(types),
            0,
            out,
        )
        best = min(best, time.process_time() - start)
    print(f"meteor15_rows, one call per batch: {best / n * 1e6:.1f} us/pair")


if __name__ == "__main__":
    main()
