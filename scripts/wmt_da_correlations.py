"""Correlations with WMT direct assessments of METEOR settings, NLTK's METEOR, BLEU and chrF.

Reads a JSONL written by ``scripts/prepare_wmt_da.py`` (one judged translation a line) and
prints, per year, the mean over language pairs of

* segment level: Kendall's tau-b between each metric's segment scores and the DA z-scores of
  all judged translations of the pair (every system, every segment);
* system level: Pearson's r between each system's corpus score (over its judged segments) and
  its mean DA z-score;

for these metrics:

* ``meteor rank`` / ``meteor rank --norm``: METEOR 1.5's default English settings, as
  ``meteor-eval score`` (and the jar) compute them, without and with ``-norm``;
* ``meteor da`` / ``meteor da --norm``: ``--task da``;
* ``meteor --params FILE``: any parameter file of ``meteor-eval train`` (``--params``);
* ``nltk``: the ``nltk`` flavour (NLTK's ``meteor_score``, bit for bit; the system score is
  the mean of segment scores, as ``evaluate`` reports it);
* ``bleu`` / ``chrf``: sacrebleu's sentence BLEU (``sentence_score``, its defaults: exp
  smoothing, effective order) and chrF; system level its ``corpus_score``.

METEOR's segment scores come from one alignment per setting of the text handling
(:func:`meteor_eval.tuning.data.statistics`), re-scored under each parameter set by
:mod:`meteor_eval.tuning.rescore` (bit-identical with ``meteor-eval score``).

With ``--bootstrap N``: a paired bootstrap of the segment-level difference between
``meteor da`` and ``meteor rank`` (no ``--norm``): N resamples of the source segments of each
pair (all translations of a segment drawn together; NumPy's generator, seed 1), and the 95%
interval of the mean-over-pairs difference of tau-b.

Usage::

    python scripts/wmt_da_correlations.py --data /tmp/wmt-da-2022.jsonl [--params FILE ...]
        [--jobs 2] [--pairs] [--no-baselines] [--bootstrap 200]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import defaultdict
from typing import Any

import numpy as np

from meteor_eval.metrics.meteor import MeteorConfig
from meteor_eval.tuning.data import Judgements, read_judgements_table, statistics
from meteor_eval.tuning.objectives import kendall_tau_b, pearson
from meteor_eval.tuning.paramfile import read_params
from meteor_eval.tuning.rescore import TuningParams, prepare_stats, segment_scores, system_scores


def _groups(data: Judgements) -> tuple[dict[str, Any], Any, list[tuple[str, str]]]:
    """Item indices per pair, the system group of each item, and the (pair, system) names."""
    keys = sorted(set(zip(data.pairs, data.systems, strict=True)))
    number = {k: i for i, k in enumerate(keys)}
    groups = np.asarray([number[k] for k in zip(data.pairs, data.systems, strict=True)])
    pairs: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(data.pairs):
        pairs[p].append(i)
    return {p: np.asarray(v) for p, v in pairs.items()}, groups, keys


def correlations(data: Judgements, segment: Any, system: Any) -> dict[str, tuple[float, float]]:
    """Per pair: (segment-level Kendall tau-b, system-level Pearson r)."""
    index, groups, keys = _groups(data)
    human = np.asarray(data.human)
    counts = np.bincount(groups)
    system_human = np.bincount(groups, weights=human) / counts
    out = {}
    for pair, items in index.items():
        mine = [k for k, (p, _) in enumerate(keys) if p == pair]
        out[pair] = (
            kendall_tau_b(segment[items], human[items]),
            pearson(np.asarray(system)[mine], system_human[mine]),
        )
    return out


def _meteor(
    data: Judgements, norm: bool, params: list[tuple[str, Any]], jobs: int, keep: dict[str, Any]
) -> dict[str, Any]:
    config = MeteorConfig.preset(normalization="norm" if norm else None)
    rows, segments = statistics(data, config, jobs=jobs)
    prepared = prepare_stats(rows, segments=segments)
    _, groups, _ = _groups(data)
    out = {}
    for label, p in params:
        name = label + (" --norm" if norm else "")
        keep[name] = segment_scores(prepared, p)
        out[name] = correlations(data, keep[name], system_scores(prepared, groups, p))
    return out


def _sacrebleu(data: Judgements, which: str) -> dict[str, tuple[float, float]]:
    from sacrebleu.metrics import BLEU, CHRF

    metric = BLEU(effective_order=True) if which == "bleu" else CHRF()
    corpus = BLEU() if which == "bleu" else CHRF()
    segment = np.asarray(
        [
            metric.sentence_score(h, r).score
            for h, r in zip(data.hypotheses, data.references, strict=True)
        ]
    )
    _, groups, keys = _groups(data)
    system = []
    for k in range(len(keys)):
        items = np.flatnonzero(groups == k)
        hyps = [data.hypotheses[i] for i in items]
        refs = [[data.references[i][0] for i in items]]
        system.append(corpus.corpus_score(hyps, refs).score)
    return correlations(data, segment, np.asarray(system))


def _nltk(data: Judgements, jobs: int) -> dict[str, tuple[float, float]]:
    from meteor_eval import parallel
    from meteor_eval.metrics.meteor import Meteor

    metric = Meteor(MeteorConfig.preset("nltk"))
    pairs = zip(data.hypotheses, data.references, strict=True)
    segment = np.asarray([s.score for s in parallel.segment_results(metric, pairs, jobs=jobs)])
    _, groups, _ = _groups(data)
    system = np.bincount(groups, weights=segment) / np.bincount(groups)
    return correlations(data, segment, system)


def bootstrap_difference(data: Judgements, a: Any, b: Any, samples: int) -> tuple[float, ...]:
    """Observed mean-over-pairs tau-b difference ``b - a``, its 95% bootstrap interval and the
    share of resamples where it is positive (source segments resampled within each pair)."""
    human = np.asarray(data.human)
    by_segment: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for i, (pair, segment) in enumerate(zip(data.pairs, data.segments, strict=True)):
        by_segment[pair][segment].append(i)
    groups = {p: [np.asarray(v) for v in segs.values()] for p, segs in by_segment.items()}

    def difference(chosen: dict[str, Any]) -> float:
        return _mean(
            [kendall_tau_b(b[i], human[i]) - kendall_tau_b(a[i], human[i]) for i in chosen.values()]
        )

    observed = difference({p: np.concatenate(g) for p, g in groups.items()})
    rng = np.random.default_rng(1)
    values = []
    for _ in range(samples):
        chosen = {}
        for pair, segs in groups.items():
            pick = rng.integers(0, len(segs), len(segs))
            chosen[pair] = np.concatenate([segs[k] for k in pick])
        values.append(difference(chosen))
    low, high = np.percentile(values, [2.5, 97.5])
    return observed, float(low), float(high), float(np.mean(np.asarray(values) > 0))


def _mean(values: list[float]) -> float:
    finite = [v for v in values if not math.isnan(v)]
    return sum(finite) / len(finite) if finite else math.nan


def main(argv: list[str] | None = None) -> int:
    """Print the table (and, with ``--pairs``, every pair's numbers)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", required=True, help="JSONL of scripts/prepare_wmt_da.py")
    parser.add_argument("--params", nargs="*", default=[], help="parameter files to evaluate")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--pairs", action="store_true", help="also print every pair")
    parser.add_argument("--no-baselines", action="store_true", help="METEOR settings only")
    parser.add_argument("--bootstrap", type=int, default=0, help="resamples of da - rank")
    args = parser.parse_args(argv)
    data = read_judgements_table(args.data)
    started = time.time()
    settings = [
        ("meteor rank", TuningParams.from_config(MeteorConfig.preset())),
        ("meteor da", TuningParams.from_config(MeteorConfig.preset(task="da"))),
    ]
    for path in args.params:
        settings.append((f"meteor --params {read_params(path).id}", read_params(path).params))
    results: dict[str, dict[str, tuple[float, float]]] = {}
    segment: dict[str, Any] = {}
    for norm in (False, True):
        results.update(_meteor(data, norm, settings, args.jobs, segment))
    if not args.no_baselines:
        results["nltk"] = _nltk(data, args.jobs)
        results["bleu"] = _sacrebleu(data, "bleu")
        results["chrf"] = _sacrebleu(data, "chrf")
    pairs = data.pair_names
    print(f"{args.data}: {len(data):,} judgements, pairs {' '.join(pairs)}")
    print("| metric | segment Kendall tau-b | system Pearson r |")
    print("|---|---:|---:|")
    for label, per_pair in results.items():
        tau = _mean([per_pair[p][0] for p in pairs])
        r = _mean([per_pair[p][1] for p in pairs])
        print(f"| {label} | {tau:.4f} | {r:.4f} |")
    if args.pairs:
        print("| metric | " + " | ".join(pairs) + " |")
        for label, per_pair in results.items():
            cells = " | ".join(f"{per_pair[p][0]:.4f} / {per_pair[p][1]:.3f}" for p in pairs)
            print(f"| {label} | {cells} |")
    if args.bootstrap:
        observed, low, high, share = bootstrap_difference(
            data, segment["meteor rank"], segment["meteor da"], args.bootstrap
        )
        print(
            f"segment tau-b, da - rank: {observed:+.4f}, 95% interval [{low:+.4f}, {high:+.4f}] "
            f"({args.bootstrap} resamples of source segments; positive in {share:.0%})"
        )
    print(f"({time.time() - started:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
