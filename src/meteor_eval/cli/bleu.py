"""``meteor-eval bleu``: BLEU (sacrebleu-compatible) for a hypothesis file against references."""

from __future__ import annotations

import argparse
import json
from typing import Any

from meteor_eval.cli._common import add_input_options, add_output_options, load_inputs
from meteor_eval.metrics.bleu import SMOOTH_METHODS, Bleu, BleuConfig
from meteor_eval.text.bleu_tokenizers import BLEU_TOKENIZERS

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``bleu`` subcommand."""
    parser = subparsers.add_parser(
        "bleu", help="BLEU, equal to sacrebleu 2.x", description=__doc__.split("\n")[0]
    )
    add_io_arguments(parser)
    parser.add_argument("--tokenize", choices=BLEU_TOKENIZERS, default="13a")
    parser.add_argument("--smooth-method", choices=SMOOTH_METHODS, default="exp")
    parser.add_argument("--smooth-value", type=float, default=None)
    parser.add_argument("--lowercase", "-lc", action="store_true")
    parser.add_argument("--effective-order", action="store_true", help="also for the corpus score")
    parser.add_argument("--max-ngram-order", type=int, default=4)
    parser.set_defaults(func=run)


def add_io_arguments(parser: argparse.ArgumentParser) -> None:
    """The input/output options shared with ``score``, plus ``--short`` signatures."""
    add_input_options(parser)
    add_output_options(parser)
    parser.add_argument("--short", action="store_true", help="short signature")


def run(args: argparse.Namespace) -> int:
    """Score and print; returns the exit code."""
    hypotheses, references = load_inputs(args)
    config = BleuConfig(
        tokenize=args.tokenize,
        smooth_method=args.smooth_method,
        smooth_value=args.smooth_value,
        lowercase=args.lowercase,
        effective_order=args.effective_order,
        max_ngram_order=args.max_ngram_order,
    )
    bleu = Bleu(config)
    corpus = bleu.corpus_score(hypotheses, references)
    signature = corpus.signature.format(short=args.short)
    segments = []
    if args.sentence_level:
        # Segment scores use effective order, as sacrebleu's --sentence-level does.
        segments = bleu.with_options(effective_order=True).sentence_scores(hypotheses, references)
    if args.format == "json":
        payload: dict[str, Any] = {"score": corpus.score, "signature": signature}
        if args.sentence_level:
            payload["segments"] = [{"score": s.score} for s in segments]
        print(json.dumps(payload))
    elif args.format == "tsv":
        if args.sentence_level:
            for index, s in enumerate(segments, start=1):
                print(f"{index}\t{s.score!r}")
        print(f"corpus\t{corpus.score!r}\t{signature}")
    else:
        for index, s in enumerate(segments, start=1):
            print(f"Segment {index} BLEU = {s.score:.2f}")
        print(f"BLEU = {corpus.score:.2f} {corpus.verbose()} {signature}")
    return 0
