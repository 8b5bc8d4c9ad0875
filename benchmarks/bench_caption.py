"""Speed of the caption evaluation: pycocoevalcap (Java) against the drop-in, same run, same data.

Input: a caption corpus made by ``scripts/make_caption_corpus.py`` (default 8,000 images, four
to seven references each, mostly five: about 40,000 raw references and 8,000 raw results), or
COCO files given with ``--annotations`` / ``--results``. Both sides do what ``COCOEvalCap``
does without SPICE: tokenize the references and the results, then BLEU-1..4, METEOR, ROUGE-L and
CIDEr-D. The benchmark stops if any tokenized caption, corpus score or per-image score differs.
Times are wall-clock seconds of the whole step in this process (pycocoevalcap's include its JVM
starts: that is what its users wait for), best of ``--repeat`` runs for ours (pycocoevalcap once
by default, ``--repeat-original`` to repeat it too). Before each run of ours the tokenizer's and
the caption metrics' caches are cleared and new scorer objects are made, so every run tokenizes
and scores from scratch; the first run also loads METEOR's resources (its paraphrase table,
stemmer and word lists), which later runs in the same process reuse: its times are printed too.

Run from the repository root::

    python benchmarks/bench_caption.py                    # 8,000 images
    python benchmarks/bench_caption.py --images 2000 --repeat 3
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))


def _corpus(
    args: argparse.Namespace,
) -> tuple[dict[Any, list[dict[str, Any]]], dict[Any, list[dict[str, Any]]]]:
    if args.annotations:
        annotations = json.loads(Path(args.annotations).read_text(encoding="utf-8"))
        results = json.loads(Path(args.results).read_text(encoding="utf-8"))
    else:
        spec = importlib.util.spec_from_file_location(
            "make_caption_corpus", ROOT / "scripts" / "make_caption_corpus.py"
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        annotations, all_results = module.generate(args.images, 1, args.seed)
        results = all_results[0]
    gts: dict[Any, list[dict[str, Any]]] = {}
    for ann in annotations["annotations"]:
        gts.setdefault(ann["image_id"], []).append(ann)
    res = {r["image_id"]: [r] for r in results}
    ids = [i for i in gts if i in res]
    return {i: gts[i] for i in ids}, {i: res[i] for i in ids}


def _run(
    modules: dict[str, Any], gts_raw: Any, res_raw: Any
) -> tuple[dict[str, float], dict[str, Any]]:
    clear = modules.get("clear_caches")
    if clear is not None:
        clear()
    times: dict[str, float] = {}
    out: dict[str, Any] = {}
    start = time.perf_counter()
    tokenizer = modules["PTBTokenizer"]()
    gts = tokenizer.tokenize(gts_raw)
    res = tokenizer.tokenize(res_raw)
    times["tokenize"] = time.perf_counter() - start
    out["tokens"] = (gts, res)
    for name in ("Bleu", "Meteor", "Rouge", "Cider"):
        scorer = modules[name](4) if name == "Bleu" else modules[name]()
        begin = time.perf_counter()
        if name == "Bleu":
            score, scores = scorer.compute_score(gts, res, verbose=0)
        else:
            score, scores = scorer.compute_score(gts, res)
        times[name] = time.perf_counter() - begin
        out[name] = (score, scores)
    times["total"] = time.perf_counter() - start
    return times, out


def _flat(value: Any) -> list[float]:
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [x for item in value for x in _flat(item)]
    return [float(value)]


def _compare(ours: dict[str, Any], theirs: dict[str, Any]) -> float:
    if ours["tokens"] != theirs["tokens"]:
        raise SystemExit("tokenized captions differ")
    worst = 0.0
    for name in ("Bleu", "Meteor", "Rouge", "Cider"):
        a = _flat(ours[name][0]) + _flat(ours[name][1])
        b = _flat(theirs[name][0]) + _flat(theirs[name][1])
        if len(a) != len(b):
            raise SystemExit(f"{name}: {len(a)} values against {len(b)}")
        for x, y in zip(a, b, strict=True):
            if not math.isclose(x, y, rel_tol=0.0, abs_tol=1e-9):
                raise SystemExit(f"{name}: {x!r} != {y!r}")
            worst = max(worst, abs(x - y))
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=8000)
    parser.add_argument("--seed", type=int, default=8000)
    parser.add_argument("--annotations", help="COCO captions file (instead of a generated corpus)")
    parser.add_argument("--results", help="COCO results file (with --annotations)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of ours (best kept)")
    parser.add_argument("--repeat-original", type=int, default=1, help="runs of pycocoevalcap")
    args = parser.parse_args()

    from pycocoevalcap.bleu.bleu import Bleu as OBleu
    from pycocoevalcap.cider.cider import Cider as OCider
    from pycocoevalcap.meteor.meteor import Meteor as OMeteor
    from pycocoevalcap.rouge.rouge import Rouge as ORouge
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer as OTokenizer

    from meteor_eval.compat.pycocoevalcap.bleu.bleu import Bleu
    from meteor_eval.compat.pycocoevalcap.cider.cider import Cider
    from meteor_eval.compat.pycocoevalcap.meteor.meteor import Meteor
    from meteor_eval.compat.pycocoevalcap.rouge.rouge import Rouge
    from meteor_eval.compat.pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer
    from meteor_eval.metrics import caption
    from meteor_eval.text import ptb

    def clear_caches() -> None:
        ptb.clear_caches()
        caption.clear_caches()

    original = {
        "PTBTokenizer": OTokenizer,
        "Bleu": OBleu,
        "Meteor": OMeteor,
        "Rouge": ORouge,
        "Cider": OCider,
    }
    drop_in = {
        "PTBTokenizer": PTBTokenizer,
        "Bleu": Bleu,
        "Meteor": Meteor,
        "Rouge": Rouge,
        "Cider": Cider,
        "clear_caches": clear_caches,
    }
    gts_raw, res_raw = _corpus(args)
    n_refs = sum(len(v) for v in gts_raw.values())

    best_theirs: dict[str, float] = {}
    theirs_out: dict[str, Any] = {}
    for _ in range(args.repeat_original):
        times, theirs_out = _run(original, gts_raw, res_raw)
        best_theirs = {k: min(v, best_theirs.get(k, math.inf)) for k, v in times.items()}
    best_ours: dict[str, float] = {}
    first_ours: dict[str, float] = {}
    ours_out: dict[str, Any] = {}
    for _ in range(args.repeat):
        times, ours_out = _run(drop_in, gts_raw, res_raw)
        first_ours = first_ours or times
        best_ours = {k: min(v, best_ours.get(k, math.inf)) for k, v in times.items()}
    worst = _compare(ours_out, theirs_out)

    print(f"{len(gts_raw)} images, {n_refs} references; largest difference {worst:.3g}\n")
    print("| step | pycocoevalcap (s) | drop-in, best (s) | ratio | drop-in, first run (s) |")
    print("|---|---:|---:|---:|---:|")
    for step in ("tokenize", "Bleu", "Meteor", "Rouge", "Cider", "total"):
        ratio = best_theirs[step] / best_ours[step] if best_ours[step] else math.inf
        print(
            f"| {step} | {best_theirs[step]:.2f} | {best_ours[step]:.3f} | {ratio:.1f}x "
            f"| {first_ours[step]:.3f} |"
        )


if __name__ == "__main__":
    main()
