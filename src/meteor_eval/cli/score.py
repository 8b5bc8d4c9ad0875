"""``meteor-eval score``: METEOR of a hypothesis file against one or more reference files."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from meteor_eval.cli._common import (
    add_input_options,
    add_output_options,
    load_inputs,
    split_list,
    write_json,
)
from meteor_eval.errors import InputError
from meteor_eval.javafmt import java_double
from meteor_eval.metrics.meteor import Meteor, MeteorConfig, MeteorScore, Normalization
from meteor_eval.stats.meteor import MeteorStats

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``score`` subcommand."""
    parser = subparsers.add_parser(
        "score",
        help="METEOR score (official 1.5 by default)",
        description="METEOR of hypotheses against references, one segment a line.",
    )
    add_input_options(parser)
    parser.add_argument(
        "--flavour", "--flavor", choices=("meteor15", "paper2005"), default="meteor15"
    )
    parser.add_argument("--lang", default="en", help="language code (default en)")
    parser.add_argument(
        "--task", default="rank", help="METEOR 1.5 task: rank adq hter util li tune"
    )
    norm = parser.add_argument_group("text handling")
    norm.add_argument("--norm", action="store_true", help="the jar's -norm: normalise, lower-case")
    norm.add_argument("--lower", action="store_true", help="the jar's -lower: lower-case only")
    norm.add_argument(
        "--no-punct",
        action="store_true",
        help="normalise, lower-case and drop punctuation (the jar's -norm -noPunct)",
    )
    params = parser.add_argument_group("parameters")
    params.add_argument("--modules", help="comma-separated stages, e.g. exact,stem,synonym")
    params.add_argument("--weights", help="comma-separated weight per stage, by position")
    for name in ("alpha", "beta", "gamma", "delta"):
        params.add_argument(f"--{name}", type=float)
    params.add_argument("--beam", type=int, default=40, help="beam size of the aligner (40)")
    params.add_argument("--aggregate", choices=("pooled", "mean"), default="pooled")
    add_output_options(parser)
    parser.add_argument(
        "--alignments", metavar="FILE", help="write each segment's alignment (JSON lines)"
    )
    parser.add_argument("--stats", metavar="FILE", help="write each segment's 23 statistics")
    parser.add_argument(
        "--from-stats",
        metavar="FILE",
        help="score statistics lines (as written by --stats) instead of text",
    )
    parser.add_argument("--short-signature", action="store_true", help="abbreviated signature keys")
    parser.set_defaults(func=run)


def config_from_args(args: argparse.Namespace) -> MeteorConfig:
    """The configuration the options describe."""
    normalization: Normalization | None
    if args.no_punct:
        normalization = "norm_nopunct"
    elif args.norm:
        normalization = "norm"
    elif args.lower:
        normalization = "lower"
    else:
        normalization = None
    modules = split_list(args.modules) if args.modules else None
    weights = None
    if args.weights:
        try:
            weights = [float(w) for w in split_list(args.weights)]
        except ValueError:
            from meteor_eval.errors import ConfigError

            raise ConfigError(f"--weights: {args.weights!r} is not a list of numbers") from None
    return MeteorConfig.preset(
        args.flavour,
        language=args.lang,
        task=args.task,
        normalization=normalization,
        modules=modules,
        weights=weights,
        alpha=args.alpha,
        beta=args.beta,
        gamma=args.gamma,
        delta=args.delta,
        beam=args.beam,
        aggregate=args.aggregate,
    )


def _read_stats(path: str) -> list[MeteorStats]:
    rows = []
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise InputError(f"{path}: file not found") from None
    for k, line in enumerate(lines):
        try:
            rows.append(MeteorStats.from_row(line.split()))
        except InputError as exc:
            raise InputError(f"{path}:{k + 1}: {exc}") from None
    return rows


def _row_text(stats: MeteorStats) -> str:
    return " ".join(java_double(float(x)) for x in stats.to_row())


def run(args: argparse.Namespace) -> int:
    """Score and print; returns the exit status."""
    config = config_from_args(args)
    scorer = Meteor(config)
    short = args.short_signature
    if args.from_stats:
        rows = _read_stats(args.from_stats)
        segments = [scorer.score_stats(r) for r in rows]
        total = scorer.combine(segments, keep_segments=True)
    else:
        hypotheses, references = load_inputs(args)
        total = scorer.corpus_score(
            hypotheses, references, segments=True, alignments=bool(args.alignments)
        )
    if args.stats:
        with open(args.stats, "w", encoding="utf-8") as out:
            for seg in total.segments:
                out.write(_row_text(seg.stats) + "\n")
    if args.alignments:
        with open(args.alignments, "w", encoding="utf-8") as out:
            for k, seg in enumerate(total.segments):
                record: dict[str, object] = {
                    "segment": k + 1,
                    "score": seg.score,
                    "reference": seg.reference_index,
                }
                if seg.alignment is not None:
                    record.update(seg.alignment.to_dict())
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
    _print(total, args.format, sentence_level=args.sentence_level, short=short)
    return 0


def _components(score: MeteorScore) -> dict[str, object]:
    return {
        "score": score.score,
        "precision": score.precision,
        "recall": score.recall,
        "fmean": score.fmean,
        "fragmentation": score.fragmentation,
        "penalty": score.penalty,
        "chunks": score.chunks,
    }


def _print(total: MeteorScore, fmt: str, *, sentence_level: bool, short: bool) -> None:
    signature = total.signature.format(short=short)
    out = sys.stdout
    if fmt == "json":
        payload: dict[str, object] = {
            "score": total.score,
            "signature": signature,
            "precision": total.precision,
            "recall": total.recall,
            "fmean": total.fmean,
            "penalty": total.penalty,
            "stats": list(total.stats.to_row()),
        }
        if sentence_level:
            payload["segments"] = [
                {"score": s.score, "stats": list(s.stats.to_row())} for s in total.segments
            ]
        write_json(payload)
        return
    if fmt == "tsv":
        header: Sequence[str] = (
            "segment",
            "score",
            "precision",
            "recall",
            "fmean",
            "penalty",
            "chunks",
        )
        out.write("\t".join(header) + "\n")
        rows = list(enumerate(total.segments, 1)) if sentence_level else []
        for k, seg in rows:
            values = _components(seg)
            out.write("\t".join([str(k)] + [repr(values[h]) for h in header[1:]]) + "\n")
        values = _components(total)
        out.write("\t".join(["corpus"] + [repr(values[h]) for h in header[1:]]) + "\n")
        out.write(f"# {signature}\n")
        return
    if sentence_level:
        for k, seg in enumerate(total.segments, 1):
            out.write(f"Segment {k} score:\t{seg.score!r}\n")
    out.write(
        f"METEOR = {total.score!r} (P {total.precision!r}, R {total.recall!r}, "
        f"Fmean {total.fmean!r}, penalty {total.penalty!r}, chunks {total.chunks})\n"
    )
    out.write(f"{signature}\n")
