"""Speed of the compiled METEOR 1.5 kernels alone: the beam search and the paraphrase generator.

The whole pipeline (``Meteor`` with ``meteor15``, all four modules, ``--norm``) runs once over
the inputs to record what the two kernels receive:

* ``align_stages``: every call of ``align_stages`` (``_ext/beam.c``: each stage's candidate
  list, both segment lengths, the aligner weights and the beam);
* ``paraphrase``: every call of ``paraphrase`` (``_ext/paraphrase.c``: table token ids of both
  segments, the memory-mapped index arrays and the root table).

Each kernel is then timed alone over the recorded calls (best of ``--repeat`` passes, default
5) and a Markdown table is printed. ``--baseline FILE`` loads another build of the extension
(for example a copy of the shared library made before a change, ``_kernels*.so``, or the
older single-file ``_beam*.so``) and times it on the same calls, after checking that both builds
return the same results, so the table shows before, after and the speed-up.

Run from the repository root (the package is taken from ``src/``)::

    python benchmarks/bench_kernels.py
    python benchmarks/bench_kernels.py --baseline /tmp/old/_kernels.cpython-311-x86_64-linux-gnu.so
    python benchmarks/bench_kernels.py --hyp H --ref R --beam 40 --repeat 9

Inputs default to ``../shared/data/meteor15``: ``xray-system1.hyp`` against ``xray-reference``.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "meteor15"
sys.path.insert(0, str(ROOT / "src"))

from meteor_eval._ext import built_module  # noqa: E402
from meteor_eval.match import paraphrase as paraphrase_module  # noqa: E402
from meteor_eval.metrics.meteor import Meteor, MeteorConfig  # noqa: E402
from meteor_eval.metrics.meteor import fast as fast_module  # noqa: E402

Call = tuple[Any, ...]

# The compiled module under test (this checkout's build), or None when it is not built.
_kernels = built_module()


class _Recorder:
    """Stands in for the extension module, forwards every call and keeps the arguments."""

    def __init__(self, module: ModuleType, names: tuple[str, ...]) -> None:
        self._module = module
        self.calls: dict[str, list[Call]] = {name: [] for name in names}

    def __getattr__(self, name: str) -> Any:
        function = getattr(self._module, name)
        calls = self.calls.get(name)
        if calls is None:
            return function

        def recorded(*args: Any) -> Any:
            calls.append(args)
            return function(*args)

        return recorded


def record(hyp_path: Path, ref_path: Path, beam: int) -> dict[str, list[Call]]:
    """Score the inputs once through the real pipeline and return the kernels' calls."""
    from meteor_eval.align import search

    kernels = (_kernels, search._compiled_align_stages, paraphrase_module._KERNELS)
    if any(kernel is None for kernel in kernels):
        sys.exit("the compiled extension is not built (python setup.py build_ext --inplace)")
    recorder = _Recorder(_kernels, ("align_stages", "paraphrase"))
    saved_stages = search._compiled_align_stages
    saved_kernels = paraphrase_module._KERNELS
    saved_pair = fast_module._PAIR_KERNEL
    search._compiled_align_stages = recorder.__getattr__("align_stages")
    paraphrase_module._KERNELS = recorder
    # The general path (one kernel call per stage and one for the search), not the fused
    # pair kernel, so that the stage kernels' own calls can be recorded and timed.
    fast_module._PAIR_KERNEL = None
    try:
        config = MeteorConfig.preset("meteor15", normalization="norm", beam=beam)
        scorer = Meteor(config)
        hyps = hyp_path.read_text(encoding="utf-8").splitlines()
        refs = ref_path.read_text(encoding="utf-8").splitlines()
        if len(hyps) != len(refs):
            sys.exit(f"{hyp_path} and {ref_path} differ in length")
        scorer.corpus_score(hyps, [[r] for r in refs])
    finally:
        search._compiled_align_stages = saved_stages
        paraphrase_module._KERNELS = saved_kernels
        fast_module._PAIR_KERNEL = saved_pair
    return recorder.calls


def load_extension(path: Path) -> ModuleType:
    """Another build of the extension loaded from ``path`` beside the current one.

    The module's name is the file name's first part (``_kernels``, or ``_beam`` for builds from
    before the kernels moved to ``_ext/``): it names the initialiser the loader calls.
    """
    name = path.name.split(".")[0]
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    if spec is None:
        sys.exit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def best_of(function: Callable[..., Any], calls: list[Call], repeat: int) -> float:
    """Fastest of ``repeat`` passes of ``function`` over every recorded call, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for args in calls:
            function(*args)
        best = min(best, time.perf_counter() - start)
    return best


def same_results(name: str, a: ModuleType, b: ModuleType, calls: list[Call]) -> None:
    """Stop unless both builds return equal results on every call."""
    fa, fb = getattr(a, name), getattr(b, name)
    for args in calls:
        if fa(*args) != fb(*args):
            sys.exit(f"{name}: the two builds disagree on {args!r}")


def main(argv: list[str] | None = None) -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hyp", type=Path, default=DATA / "xray-system1.hyp")
    parser.add_argument("--ref", type=Path, default=DATA / "xray-reference")
    parser.add_argument("--beam", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="another build of the extension to compare")
    args = parser.parse_args(argv)

    calls = record(args.hyp, args.ref, args.beam)
    baseline = load_extension(args.baseline) if args.baseline else None
    for name, kernel_calls in calls.items():
        if baseline is not None:
            same_results(name, _kernels, baseline, kernel_calls)

    print(f"inputs: {args.hyp.name} / {args.ref.name}, beam {args.beam}, best of {args.repeat}")
    print()
    header = "| kernel | calls | time (ms) | us/call |"
    rule = "|---|---:|---:|---:|"
    if baseline is not None:
        header += " baseline (ms) | speed-up |"
        rule += "---:|---:|"
    print(header)
    print(rule)
    for name, kernel_calls in calls.items():
        now = best_of(getattr(_kernels, name), kernel_calls, args.repeat)
        row = (
            f"| {name} | {len(kernel_calls)} | {now * 1e3:.1f} | "
            f"{now / max(1, len(kernel_calls)) * 1e6:.2f} |"
        )
        if baseline is not None:
            before = best_of(getattr(baseline, name), kernel_calls, args.repeat)
            row += f" {before * 1e3:.1f} | {before / now:.2f}x |"
        print(row)


if __name__ == "__main__":
    main()
