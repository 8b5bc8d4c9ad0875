"""One ``meteor15_rows`` call over WMT22 pairs, to count the beam search's instructions.

Run under callgrind with collection only inside ``search()`` (the compiled beam search, called
once per pair with candidates), so the count is the search's own cost, the same for every run
of the same build on the same pairs::

    valgrind --tool=callgrind --toggle-collect=search \\
        python benchmarks/bench_search_instructions.py --wmt PATH -n 3000 --skip 40000
    valgrind --tool=callgrind --toggle-collect=search \\
        python benchmarks/bench_search_instructions.py --wmt PATH --build OLD/_kernels.so

``--build`` loads another build's compiled kernels instead of this tree's (as
``bench_stages.py`` does). All four English stages, ``-norm``; the pairs are ``-n`` consecutive
pairs of ``bench_steady.py``'s input from ``--skip`` on. The SHA-1 of the statistics rows is
printed, so that two builds can be checked to give the same rows.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from bench_stages import build_arguments, kernel_inputs, load_build
from bench_steady import wmt_pairs

from meteor_eval.metrics.meteor import fast


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wmt", type=Path, required=True)
    parser.add_argument("-n", type=int, default=3_000)
    parser.add_argument("--skip", type=int, default=40_000)
    parser.add_argument("--build", type=Path)
    args = parser.parse_args()
    pairs = wmt_pairs(args.wmt)[args.skip : args.skip + args.n]
    pipe, hyp_ids, hyp_offsets, ref_ids, ref_offsets, tables, trie_at = kernel_inputs(pairs)
    module = fast._ROWS_KERNEL if args.build is None else load_build(args.build)
    tables = build_arguments(tables, trie_at, module)
    out = np.zeros((len(pairs), 23), dtype=np.int64)
    module.meteor15_rows(
        bytes(pipe.pair_kinds), hyp_ids, hyp_offsets, ref_ids, ref_offsets, *tables, 0, out
    )
    print(f"{len(pairs):,} pairs; rows SHA-1 {hashlib.sha1(out.tobytes()).hexdigest()}")


if __name__ == "__main__":
    main()
