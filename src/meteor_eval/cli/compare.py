"""``meteor-eval compare``: METEOR, BLEU and ROUGE for the same data in one table."""

from __future__ import annotations

import argparse
import json
from typing import Any

from meteor_eval.cli._common import load_inputs
from meteor_eval.cli.bleu import add_io_arguments
from meteor_eval.cli.rouge import add_rouge_arguments, config_from_args
from meteor_eval.metrics.bleu import Bleu
from meteor_eval.metrics.rouge import Rouge

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``compare`` subcommand."""
    parser = subparsers.add_parser(
        "compare", help="METEOR, BLEU and ROUGE side by side", description=__doc__.split("\n")[0]
    )
    add_io_arguments(parser)
    add_rouge_arguments(parser)
    parser.set_defaults(func=run, types="rouge1,rouge2,rougeL,rougeLsum,rougeW,rougeS,rougeSU")


def _meteor_row(hypotheses: list[str], references: list[list[str]]) -> tuple[str, float, str]:
    try:
        from meteor_eval.metrics.meteor import Meteor, MeteorConfig
    except ImportError:  # pragma: no cover - METEOR not built into this installation
        return "meteor", float("nan"), "unavailable"
    config = MeteorConfig.preset("meteor15", modules=("exact", "stem", "synonym"))
    score = Meteor(config).corpus_score(hypotheses, references)
    return "meteor", float(score.score), score.signature.format()


def run(args: argparse.Namespace) -> int:
    """Score with every metric and print one table; returns the exit code."""
    hypotheses, references = load_inputs(args)
    rows: list[tuple[str, float, str]] = [_meteor_row(hypotheses, references)]
    bleu = Bleu().corpus_score(hypotheses, references)
    rows.append(("bleu", bleu.score, bleu.signature.format(short=args.short)))
    for variant, score in (
        Rouge(config_from_args(args)).corpus_score(hypotheses, references).items()
    ):
        rows.append((variant, score.fmeasure, score.signature.format(short=args.short)))
    if args.format == "json":
        payload: dict[str, Any] = {
            name: {"score": value, "signature": signature} for name, value, signature in rows
        }
        print(json.dumps(payload))
    elif args.format == "tsv":
        for name, value, signature in rows:
            print(f"{name}\t{value!r}\t{signature}")
    else:
        width = max(len(name) for name, _, _ in rows)
        for name, value, signature in rows:
            print(f"{name:<{width}}  {value:10.4f}  {signature}")
    return 0
