"""``meteor-eval caption``: the COCO caption metrics of one or more systems, without Java.

Inputs are COCO files (``--annotations captions.json --results results.json [more.json]``) or a
table (``--input FILE --hyp-field F [--hyp-field G] --ref-field REFS``, one image a row, the
reference field a list). Captions are tokenized as pycocoevalcap does (``--no-tokenize`` when
they already are), then scored with BLEU-1..4, METEOR, ROUGE-L and CIDEr-D exactly as
pycocoevalcap scores them (``--metrics`` to choose). Output: the results schema of ``score``
(``docs/output-schema.md``) in every ``--format``; the text format is one table. Several
systems can be tested with ``--paired-bs``/``--paired-ar``, intervals with ``--ci``.
SPICE is not computed here (it needs Java and Stanford CoreNLP: see ``docs/captioning.md``).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from meteor_eval.cli._common import add_output_options
from meteor_eval.cli.options import add_significance_options
from meteor_eval.errors import ConfigError

if TYPE_CHECKING:
    from meteor_eval.captioning import CaptionCorpus
    from meteor_eval.cli._systems import SystemsInput

__all__ = ["DESCRIPTION", "add_coco_options", "add_options", "coco_systems", "run"]

#: The command's own ``--help`` description.
DESCRIPTION = (
    "Caption evaluation as pycocoevalcap's COCOEvalCap (PTB tokenization, "
    "BLEU-1..4, METEOR, ROUGE-L, CIDEr-D), without Java; several --results files compare "
    "systems."
)

_METRICS = ("bleu", "meteor", "rouge", "cider")


def add_coco_options(group: argparse._ArgumentGroup, *, annotations: str, results: str) -> None:
    """``--annotations FILE`` and ``--results FILE [FILE ...]`` (repeatable), with their help
    texts: the COCO inputs :func:`coco_systems` reads, for ``caption`` and ``report``."""
    group.add_argument("--annotations", metavar="FILE", help=annotations)
    group.add_argument(
        "--results", metavar="FILE", nargs="+", action="extend", default=[], help=results
    )


def add_options(parser: argparse.ArgumentParser) -> None:
    """The ``caption`` options."""
    group = parser.add_argument_group("input")
    add_coco_options(
        group,
        annotations="COCO captions file (the references: 'annotations' with image_id and caption)",
        results="COCO results file(s) ([{image_id, caption}]); several compare systems",
    )
    group.add_argument(
        "--input",
        metavar="FILE",
        help="instead of COCO files: a table (.jsonl, .csv, .tsv, .parquet), one image a row",
    )
    group.add_argument(
        "--id-field",
        metavar="NAME",
        help="--input: the image id field (checked: each image once)",
    )
    group.add_argument(
        "--hyp-field",
        metavar="NAME",
        action="append",
        default=[],
        help="--input: a field holding one system's captions (repeat for several systems)",
    )
    group.add_argument(
        "--ref-field",
        metavar="NAME",
        action="append",
        default=[],
        help="--input: a field holding the references (a list counts as several)",
    )
    group.add_argument(
        "--names",
        metavar="A,B,...",
        help="system names, one per results file or field (default: the file or field names)",
    )
    group.add_argument(
        "--no-tokenize",
        action="store_true",
        help="the captions are already tokenized (pycocoevalcap's PTB tokenizer is skipped)",
    )
    parser.add_argument(
        "--metrics",
        metavar="LIST",
        default=",".join(_METRICS),
        help="comma-separated subset of bleu,meteor,rouge,cider (default: all, in this order)",
    )
    add_output_options(parser)
    add_significance_options(parser)


def _metric_names(text: str) -> list[str]:
    names = [part.strip() for part in text.split(",") if part.strip()]
    if "spice" in names:
        raise ConfigError(
            "--metrics: spice is not computed by meteor-eval caption (it needs Java and "
            "Stanford CoreNLP); use meteor_eval.compat.pycocoevalcap.spice.spice.Spice"
        )
    unknown = [name for name in names if name not in _METRICS]
    if unknown or not names:
        raise ConfigError(
            f"--metrics: {text!r} is invalid; allowed: a comma-separated subset of "
            f"{','.join(_METRICS)}"
        )
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise ConfigError(f"--metrics: {duplicates[0]} is given twice")
    return names


def _system_names(args: argparse.Namespace, default: list[str]) -> list[str]:
    if args.names is None:
        names = default
    else:
        names = [part.strip() for part in args.names.split(",")]
        if len(names) != len(default) or not all(names):
            raise ConfigError(f"--names gives {len(names)} names for {len(default)} systems")
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ConfigError(
            f"two systems are named {duplicates[0]!r}; give each system once (or use --names)"
        )
    return names


def _from_coco(args: argparse.Namespace) -> tuple[Any, dict[str, Any], dict[str, str]]:
    from meteor_eval.captioning import read_coco_annotations, read_coco_results

    if (
        args.input is not None
        or args.hyp_field
        or args.ref_field
        or getattr(args, "id_field", None)
        or getattr(args, "hyp", None)
        or getattr(args, "ref", None)
        or getattr(args, "example", False)
    ):
        raise ConfigError(
            "--annotations/--results and --input/--hyp-field/--ref-field/--id-field (or "
            "--hyp/--ref/--example) are alternatives; give one"
        )
    if not args.annotations or not args.results:
        raise ConfigError("--annotations FILE and --results FILE are required (or --input)")
    references = read_coco_annotations(args.annotations)
    names = _system_names(args, list(args.results))
    systems = {
        name: read_coco_results(path, references)
        for name, path in zip(names, args.results, strict=True)
    }
    return references, systems, dict(zip(names, args.results, strict=True))


def _from_table(args: argparse.Namespace) -> tuple[Any, dict[str, Any], dict[str, str]]:
    from meteor_eval.errors import InputError
    from meteor_eval.tables import read_table, table_records

    if args.annotations or args.results:
        raise ConfigError("--input cannot be combined with --annotations/--results")
    if not args.hyp_field or not args.ref_field:
        raise ConfigError("--input needs at least one --hyp-field and one --ref-field")
    table = read_table(args.input, hyp_fields=args.hyp_field, ref_fields=args.ref_field)
    ids: list[Any] = list(range(1, len(table.references) + 1))
    if args.id_field:
        ids = []
        seen: set[Any] = set()
        for where, record in table_records(Path(args.input)):
            if args.id_field not in record:
                raise InputError(f"{where}: no field {args.id_field!r}")
            value = record[args.id_field]
            key = value if isinstance(value, (int, str)) else repr(value)
            if key in seen:
                raise InputError(f"{where}: image {value!r} is given twice ({args.id_field})")
            seen.add(key)
            ids.append(key)
    references = dict(zip(ids, table.references, strict=True))
    names = _system_names(args, list(table.names))
    systems = {
        name: dict(zip(ids, table.hypotheses[field], strict=True))
        for name, field in zip(names, table.names, strict=True)
    }
    return references, systems, dict.fromkeys(names, args.input)


def _system_pairs(
    corpus: CaptionCorpus,
) -> tuple[list[str], Callable[[int], list[tuple[str, list[str]]]]]:
    """The system names of a caption corpus and, for the k-th, its (caption, references) pairs
    image by image."""
    names = list(corpus.hypotheses)

    def pairs(k: int) -> list[tuple[str, list[str]]]:
        return list(zip(corpus.hypotheses[names[k]], corpus.references, strict=True))

    return names, pairs


def coco_systems(args: argparse.Namespace) -> SystemsInput:
    """The systems of ``--annotations``/``--results``, tokenized as pycocoevalcap does (for
    ``meteor-eval report``): one segment per image, its references all the image's captions."""
    from meteor_eval.captioning import caption_corpus
    from meteor_eval.cli._systems import SystemsInput

    references, systems, sources = _from_coco(args)
    names, pairs = _system_pairs(caption_corpus(references, systems, sources=sources))
    return SystemsInput(names, [sources[name] for name in names], pairs)


def run(args: argparse.Namespace) -> int:
    """Read, tokenize, score, test and print; returns the exit status."""
    from meteor_eval.captioning import caption_corpus
    from meteor_eval.cli._render import _table_text, render
    from meteor_eval.cli._request import request_from_args
    from meteor_eval.comparison import run as run_request
    from meteor_eval.metrics.coco import coco_metrics
    from meteor_eval.systems import Systems

    metric_names = _metric_names(args.metrics)
    if args.input is not None:
        references, systems, sources = _from_table(args)
    else:
        references, systems, sources = _from_coco(args)
    corpus = caption_corpus(references, systems, tokenize=not args.no_tokenize, sources=sources)
    metrics = coco_metrics(metric_names, corpus.references)
    names, pairs = _system_pairs(corpus)
    given = Systems(names, [None] * len(names), pairs)
    request = request_from_args(args, (), configured=metrics, systems=given)
    result = run_request(request)
    comparison = result.to_dict(short_signature=bool(getattr(args, "short_signature", False)))
    text = _table_text(comparison) if args.format == "text" else render(comparison, args.format)
    with contextlib.suppress(BrokenPipeError):
        sys.stdout.write(text)
    return 0
