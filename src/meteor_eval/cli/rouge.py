"""``meteor-eval rouge``: ROUGE-N/L/Lsum (rouge-score) and ROUGE-W/S/SU (ROUGE-1.5.5)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from meteor_eval.cli._common import load_inputs
from meteor_eval.cli.bleu import add_io_arguments
from meteor_eval.metrics.rouge import Rouge, RougeConfig, RougeScore

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``rouge`` subcommand."""
    parser = subparsers.add_parser(
        "rouge", help="ROUGE-N/L/Lsum/W/S/SU", description=__doc__.split("\n")[0]
    )
    add_io_arguments(parser)
    add_rouge_arguments(parser)
    parser.set_defaults(func=run)


def add_rouge_arguments(parser: argparse.ArgumentParser) -> None:
    """ROUGE options (shared with ``compare``)."""
    parser.add_argument(
        "--types",
        default="rouge1,rouge2,rougeL",
        help="comma-separated variants: rougeN, rougeL, rougeLsum, rougeW, rougeS, rougeSU",
    )
    parser.add_argument("--stemmer", action="store_true", help="Porter stemming (rouge-score's)")
    parser.add_argument("--multi-ref", choices=("best", "average"), default="best")
    parser.add_argument("--aggregate", choices=("mean", "pooled"), default="mean")
    parser.add_argument("--weight", type=float, default=1.2, help="ROUGE-W weight")
    parser.add_argument("--skip-distance", type=int, default=4, help="ROUGE-S/SU gap (-1: any)")
    parser.add_argument(
        "--sentence-separator", default=None, help="splits a line into sentences, e.g. '<n>'"
    )
    parser.add_argument("--bootstrap", type=int, default=0, metavar="N", help="resamples for a CI")
    parser.add_argument("--seed", type=int, default=12345)


def config_from_args(args: argparse.Namespace) -> RougeConfig:
    """The :class:`RougeConfig` the options describe."""
    return RougeConfig(
        types=tuple(t.strip() for t in args.types.split(",") if t.strip()),
        use_stemmer=args.stemmer,
        multi_ref=args.multi_ref,
        aggregate=args.aggregate,
        weight=args.weight,
        skip_distance=args.skip_distance,
        sentence_separator=args.sentence_separator,
        n_bootstrap=args.bootstrap,
        seed=args.seed,
    )


def _prf(score: RougeScore) -> dict[str, float]:
    return {"precision": score.precision, "recall": score.recall, "fmeasure": score.fmeasure}


def run(args: argparse.Namespace) -> int:
    """Score and print; returns the exit code."""
    hypotheses, references = load_inputs(args)
    rouge = Rouge(config_from_args(args))
    corpus = rouge.corpus_score(hypotheses, references)
    segments = rouge.sentence_scores(hypotheses, references) if args.sentence_level else []
    if args.format == "json":
        payload: dict[str, Any] = {}
        for variant, score in corpus.items():
            entry: dict[str, Any] = _prf(score)
            entry["signature"] = score.signature.format(short=args.short)
            if score.fmeasure_ci is not None and score.precision_ci and score.recall_ci:
                entry["confidence_interval"] = {
                    "precision": [score.precision_ci.low, score.precision_ci.high],
                    "recall": [score.recall_ci.low, score.recall_ci.high],
                    "fmeasure": [score.fmeasure_ci.low, score.fmeasure_ci.high],
                }
            if args.sentence_level:
                entry["segments"] = [_prf(s[variant]) for s in segments]
            payload[variant] = entry
        print(json.dumps(payload))
        return 0
    for variant, score in corpus.items():
        signature = score.signature.format(short=args.short)
        if args.format == "tsv":
            for index, s in enumerate(segments, start=1):
                seg = s[variant]
                print(f"{variant}\t{index}\t{seg.precision!r}\t{seg.recall!r}\t{seg.fmeasure!r}")
            print(
                f"{variant}\tcorpus\t{score.precision!r}\t{score.recall!r}\t{score.fmeasure!r}"
                f"\t{signature}"
            )
        else:
            for index, s in enumerate(segments, start=1):
                seg = s[variant]
                print(
                    f"{variant} segment {index} P = {seg.precision:.5f} R = {seg.recall:.5f} "
                    f"F = {seg.fmeasure:.5f}"
                )
            ci = ""
            if score.fmeasure_ci is not None:
                ci = f" (F {score.fmeasure_ci.low:.5f}-{score.fmeasure_ci.high:.5f})"
            print(
                f"{variant} P = {score.precision:.5f} R = {score.recall:.5f} "
                f"F = {score.fmeasure:.5f}{ci} {signature}"
            )
    return 0
