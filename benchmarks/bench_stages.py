"""Cost of each matching stage in the compiled METEOR 1.5 pair kernel, and of builds side by side.

The pairs are tokenised and interned first; each timed call is one ``meteor15_rows`` batch over
all of them with a subset of the stages (the kernel's ``kinds``): none (the per-pair frame), the
synonym stage alone, the paraphrase stage alone, all four (exact, stem, synonym, paraphrase,
``-norm``). A stage alone includes the beam search over its own candidates. CPU time of this
process (``time.process_time``), the fastest of ``--rounds``; microseconds a pair.

``--build PATH`` (repeatable) also loads the compiled kernels of another build (its
``_kernels*.so``, e.g. a copy of the previous commit's): every round times each build in turn on
the same arrays, so builds are compared under the same load; each build gets its own paraphrase
walk cache, and the rows of every build must be equal (the script stops otherwise). A build
from before the paraphrase index's node table (format version 1: no ``_paraphrase_layout``)
gets the table's two columns as arrays of their own (copies, in the order it reads them).

The pairs: ``--wmt DIR`` (a checkout of ``wmt-conference/wmt22-news-systems``) takes ``-n``
consecutive pairs of ``bench_steady.py``'s input from ``--skip`` on (references repeat once per
system, as at scale); without it, xray system1 against its reference. Run from the repository
root::

    python benchmarks/bench_stages.py --wmt PATH -n 30000 --skip 40000 --rounds 7
    python benchmarks/bench_stages.py --wmt PATH --build /tmp/old/_kernels.so
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import itertools
import sys
import time
from array import array
from pathlib import Path
from types import ModuleType

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from meteor_eval.metrics.meteor import Meteor, MeteorConfig, fast

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "meteor15"


def load_build(path: Path) -> ModuleType:
    """The compiled kernels of another build, loaded beside this tree's."""
    name = "meteor_eval._ext._kernels"
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_file_location(name, str(path), loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


KernelInputs = tuple["fast.FastPipeline", array, array, array, array, list[object], int]


def kernel_inputs(pairs: list[tuple[str, str]]) -> KernelInputs:
    """``meteor15_rows``'s inputs for ``pairs`` (all four English stages, ``-norm``): the
    pipeline, the interned token ids and offsets of both sides, the pipeline's table arguments
    and the position of the paraphrase trie among them."""
    pipe = Meteor(MeteorConfig.preset("meteor15", normalization="norm")).pipeline
    hyp_segments = pipe.interned_batch([(h, [r]) for h, r in pairs])
    assert hyp_segments is not None and pipe.word_types is not None
    hyp_ids, ref_ids = array("i"), array("i")
    hyp_lengths, ref_lengths = [], []
    for hyp, (_, r) in zip(hyp_segments, pairs, strict=True):
        ref = pipe.reference(r)
        assert hyp.interned is not None and ref.interned is not None
        hyp_ids.extend(hyp.interned[1])
        ref_ids.extend(ref.interned[1])
        hyp_lengths.append(len(hyp.interned[1]))
        ref_lengths.append(len(ref.interned[1]))
    hyp_offsets = array("q", itertools.accumulate(hyp_lengths, initial=0))
    ref_offsets = array("q", itertools.accumulate(ref_lengths, initial=0))
    tables = list(pipe._table_arguments(pipe.word_types))
    trie_at = next(k for k, item in enumerate(tables) if isinstance(item, tuple) and len(item) == 5)
    return pipe, hyp_ids, hyp_offsets, ref_ids, ref_offsets, tables, trie_at


def build_arguments(tables: list[object], trie_at: int, module: ModuleType) -> list[object]:
    """The table arguments for one build: a paraphrase walk cache of its own, and for a build
    from before the index's node table (format version 1: no ``_paraphrase_layout``) the
    table's two columns as arrays of their own (copies, in the order it reads them)."""
    trie = tables[trie_at]
    assert isinstance(trie, tuple)
    own = list(tables)
    own[trie_at] = (*trie[:4], module.paraphrase_walk_cache())
    if not hasattr(module, "_paraphrase_layout"):  # format 1: (first_child, token,
        nodes, token, record_b, root = trie[:4]  # record_start, record_b, root)
        columns = np.frombuffer(nodes, np.uint32)
        own[trie_at] = (
            columns[0::2].copy(),
            token,
            columns[1::2].copy(),
            record_b,
            root,
            module.paraphrase_walk_cache(),
        )
    return own


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wmt", type=Path)
    parser.add_argument("-n", type=int, default=30_000)
    parser.add_argument("--skip", type=int, default=40_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--build", type=Path, action="append", default=[])
    args = parser.parse_args()
    if args.wmt is not None:
        from bench_steady import wmt_pairs

        pairs = wmt_pairs(args.wmt)[args.skip : args.skip + args.n]
        source = f"WMT22 pairs {args.skip:,} to {args.skip + len(pairs):,}"
    else:
        hyps = (DATA / "xray-system1.hyp").read_text(encoding="utf-8").splitlines()
        refs = (DATA / "xray-reference").read_text(encoding="utf-8").splitlines()
        pairs = list(zip(hyps, refs, strict=True))[: args.n]
        source = "xray system1"
    pipe, hyp_ids, hyp_offsets, ref_ids, ref_offsets, tables, trie_at = kernel_inputs(pairs)
    builds: list[tuple[str, ModuleType]] = [("this tree", fast._ROWS_KERNEL)]
    builds += [(str(path), load_build(path)) for path in args.build]
    arguments = [build_arguments(tables, trie_at, module) for _, module in builds]
    kinds = bytes(pipe.pair_kinds)
    stages = {"none": b"", "synonym": kinds[2:3], "paraphrase": kinds[3:4], "all four": kinds}
    n = len(pairs)
    best = {(b, s): float("inf") for b in range(len(builds)) for s in stages}
    for _ in range(args.rounds):
        for stage, stage_kinds in stages.items():
            rows = []
            for b, (_, module) in enumerate(builds):
                out = np.zeros((n, 23), dtype=np.int64)
                start = time.process_time()
                module.meteor15_rows(
                    stage_kinds, hyp_ids, hyp_offsets, ref_ids, ref_offsets, *arguments[b], 0, out
                )
                best[b, stage] = min(best[b, stage], (time.process_time() - start) / n * 1e6)
                rows.append(out)
            if any(not np.array_equal(rows[0], other) for other in rows[1:]):
                raise SystemExit(f"builds disagree on the rows ({stage})")
    tokens = (len(hyp_ids) + len(ref_ids)) / n
    print(f"{source}: {n:,} pairs, {tokens:.1f} tokens a pair; fastest of {args.rounds} rounds")
    print()
    print("| build | " + " | ".join(f"{s}, us/pair" for s in stages) + " |")
    print("|---|" + "---:|" * len(stages))
    for b, (label, _) in enumerate(builds):
        print(f"| {label} | " + " | ".join(f"{best[b, s]:.2f}" for s in stages) + " |")


if __name__ == "__main__":
    main()
