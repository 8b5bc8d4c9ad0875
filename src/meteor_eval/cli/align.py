"""``meteor-eval align``: METEOR's alignment of each hypothesis with its reference, no score.

``--type maxcov`` (the default) is the alignment ``meteor-eval score`` computes its statistics
from; ``--type maxacc`` is METEOR 1.5's accuracy-oriented alignment (the jar's
``Matcher -t maxacc``: word-level modules first, paraphrases only where they add coverage).
Preprocessing, language, modules, resources and beam size come from the METEOR options; the
options that only change the score (parameters, weights, task, function words, character mode,
aggregation) are refused.

Formats: ``text`` (each segment's alignment as :meth:`Alignment.render` prints it), ``jsonl``
(one object per segment) and ``json`` (one document with every segment). A segment's object
holds ``segment`` (0-based, as in ``score``'s JSON lines), the ``hypothesis`` and ``reference``
tokens, ``chunks`` and ``matches``: per match its module, ``hyp_start``/``hyp_len`` and
``ref_start``/``ref_len`` (token positions from 0) and the words on each side.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Final

from meteor_eval.cli.options import add_meteor_options, meteor_config
from meteor_eval.errors import ConfigError

__all__ = ["DESCRIPTION", "add_options", "run"]

#: The command's own ``--help`` description.
DESCRIPTION = (
    "Align each hypothesis line with the reference line of the same number "
    "using METEOR's matchers and aligner, and print the matches."
)

#: Options of the METEOR group that change scores but never alignments.
SCORE_ONLY: Final = (
    "task",
    "weights",
    "alpha",
    "beta",
    "gamma",
    "delta",
    "aggregate",
    "characters",
    "function_words",
)


def add_options(parser: argparse.ArgumentParser) -> None:
    """The ``align`` options."""
    from meteor_eval.align.objective import ALIGNMENT_TYPES

    parser.add_argument("--hyp", required=True, metavar="FILE", help="hypotheses, one a line")
    parser.add_argument("--ref", required=True, metavar="FILE", help="references, one a line")
    parser.add_argument(
        "--type",
        choices=ALIGNMENT_TYPES,
        default="maxcov",
        help="maxcov: the scorer's alignment (default); maxacc: METEOR 1.5's accuracy type",
    )
    add_meteor_options(parser)
    parser.add_argument("--format", "-f", choices=("text", "json", "jsonl"), default="text")


def _refuse_score_options(args: argparse.Namespace) -> None:
    given = sorted(set(SCORE_ONLY) & getattr(args, "explicit", set()))
    if given:
        names = ", ".join("--" + name.replace("_", "-") for name in given)
        raise ConfigError(
            f"{names}: changes scores, not alignments (use `meteor-eval explain` to see them)"
        )


def run(args: argparse.Namespace) -> int:
    """Align and print; returns the exit status."""
    from meteor_eval.alignments import TextAligner
    from meteor_eval.io import read_segments

    _refuse_score_options(args)
    aligner = TextAligner(meteor_config(args), args.type)
    hyps, refs = read_segments(args.hyp, [args.ref])
    out = sys.stdout
    records: list[dict[str, Any]] = []
    for k, (hyp, group) in enumerate(zip(hyps, refs, strict=True)):
        alignment = aligner.align(hyp, group[0])
        if args.format == "text":
            out.write(f"segment {k + 1}\n{alignment.render()}\n\n")
            continue
        record = {"segment": k + 1, **alignment.to_dict()}
        if args.format == "jsonl":
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
        else:
            records.append(record)
    if args.format == "json":
        document = {
            "type": args.type,
            "signature": aligner.meteor.signature(1).format(),
            "segments": records,
        }
        out.write(json.dumps(document, ensure_ascii=False, indent=1) + "\n")
    return 0
