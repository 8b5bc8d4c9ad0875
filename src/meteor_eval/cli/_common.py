"""Options and output helpers shared by the subcommands."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from meteor_eval.io import read_segments

__all__ = ["add_input_options", "add_output_options", "example_path", "load_inputs", "write_json"]


def add_input_options(parser: argparse.ArgumentParser) -> None:
    """``--hyp``, ``--ref`` (repeatable), ``--encoding-errors``."""
    parser.add_argument(
        "--hyp", metavar="FILE", help="hypotheses, one segment a line ('-' for stdin)"
    )
    parser.add_argument(
        "--ref",
        metavar="FILE",
        action="append",
        default=[],
        help="references, one segment a line; repeat for several references per segment",
    )
    parser.add_argument(
        "--example",
        action="store_true",
        help="score the example data shipped with meteor-eval instead of --hyp/--ref",
    )
    parser.add_argument(
        "--encoding-errors",
        choices=("strict", "replace"),
        default="strict",
        help="invalid UTF-8: stop with an error (strict) or replace bad bytes with U+FFFD",
    )


def add_output_options(parser: argparse.ArgumentParser) -> None:
    """``--format`` and ``--sentence-level``."""
    parser.add_argument("--format", choices=("text", "json", "tsv"), default="text")
    parser.add_argument(
        "--sentence-level", action="store_true", help="also print one score per segment"
    )


def example_path(name: str) -> Path:
    """A file of the bundled example data."""
    return Path(__file__).resolve().parent.parent / "examples" / name


def load_inputs(
    args: argparse.Namespace, parser_error: object = None
) -> tuple[list[str], list[list[str]]]:
    """Hypotheses and per-segment references named by the input options."""
    if args.example:
        if args.hyp or args.ref:
            raise SystemExit("meteor-eval: error: --example cannot be combined with --hyp/--ref")
        hyp = str(example_path("hypotheses.txt"))
        refs = [str(example_path("references.txt")), str(example_path("references2.txt"))]
        return read_segments(hyp, refs)
    if not args.hyp or not args.ref:
        sys.stderr.write(
            f"meteor-eval {args.command}: error: --hyp FILE and at least one --ref FILE are "
            "required (or --example)\n"
        )
        raise SystemExit(2)
    return read_segments(args.hyp, args.ref, errors=args.encoding_errors)


def write_json(payload: object) -> None:
    """One JSON document on stdout, floats at full precision."""
    sys.stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")


def split_list(text: str) -> Sequence[str]:
    """``"a,b c"`` -> ``["a", "b", "c"]`` (commas or spaces)."""
    return [part for part in text.replace(",", " ").split() if part]
