"""The systems a command scores: hypothesis files (``--hyp`` repeated or ``--hyp a b c``),
the bundled example, or a table (``--input`` with ``--hyp-field``/``--ref-field``).

Every system is read against the same references and gets a name (its file name as given, its
field name, or ``--names``). Nothing is dropped: two systems with the same name, a ``--names``
list of another length, or options that do not go together stop with a usage error. In document
mode (``--doc-ids``/``--doc-field``) each system's consecutive segments of one document are
joined and scored as one.

The command reads these options once into :class:`InputOptions`; what reads the systems takes
those values, not the command's whole set of options.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Literal, NamedTuple

from meteor_eval.errors import ConfigError
from meteor_eval.metrics.protocol import Pair
from meteor_eval.systems import Systems

__all__ = ["InputOptions", "SystemsInput", "add_input_options", "example_path", "load_systems"]


class InputOptions(NamedTuple):
    """The input options' values (:func:`add_input_options`, the document options and
    ``--from-stats``), read once from the command line by the command, so that reading the
    systems takes values, not the whole set of options. The fields are the options'
    destinations; an option a command lacks keeps the field's default.

    A named tuple, not a dataclass (internal, only read): a dataclass's methods are compiled
    when its class is made, about 3 M instructions in every run of a command that scores.
    """

    command: str = ""
    hyp: Sequence[str] = ()
    ref: Sequence[str] = ()
    names: str | None = None
    input: str | None = None
    hyp_field: Sequence[str] = ()
    ref_field: Sequence[str] = ()
    example: bool = False
    encoding_errors: Literal["strict", "replace"] = "strict"
    doc_ids: str | None = None
    doc_field: str | None = None
    doc_separator: str | None = None
    from_stats: Sequence[str] | None = None

    @staticmethod
    def names_of() -> tuple[str, ...]:
        """The fields, each an option's destination (what a command reads into this)."""
        return InputOptions._fields


def add_input_options(parser: argparse.ArgumentParser) -> None:
    """``--hyp`` (repeatable, several files each), ``--ref``, ``--names``, ``--input`` and its
    fields, ``--example``, ``--encoding-errors``."""
    group = parser.add_argument_group("input")
    group.add_argument(
        "--hyp",
        "-i",
        metavar="FILE",
        nargs="+",
        action="extend",
        default=[],
        help="hypotheses, one segment a line ('-' for stdin); several files (or --hyp repeated) "
        "score several systems against the same references",
    )
    group.add_argument(
        "--ref",
        "-r",
        metavar="FILE",
        action="append",
        default=[],
        help="references, one segment a line; repeat for several references per segment",
    )
    group.add_argument(
        "--names",
        metavar="A,B,...",
        help="system names, one per hypothesis file or field (default: the file or field names)",
    )
    group.add_argument(
        "--input",
        metavar="FILE",
        help="a table (.jsonl, .csv, .tsv, .parquet) holding hypotheses and references",
    )
    group.add_argument(
        "--hyp-field",
        metavar="NAME",
        action="append",
        default=[],
        help="--input: a field holding one system's hypotheses (repeat for several systems)",
    )
    group.add_argument(
        "--ref-field",
        metavar="NAME",
        action="append",
        default=[],
        help="--input: a field holding references (a list counts as several); repeatable",
    )
    group.add_argument(
        "--example",
        action="store_true",
        help="score the example data shipped with meteor-eval instead of --hyp/--ref",
    )
    add_document_options(group)
    group.add_argument(
        "--encoding-errors",
        choices=("strict", "replace"),
        default="strict",
        help="invalid UTF-8: stop with an error (strict) or replace bad bytes with U+FFFD",
    )


def example_path(name: str) -> Path:
    """A file of the bundled example data."""
    return Path(__file__).resolve().parent.parent / "examples" / name


#: The systems of a request (:class:`meteor_eval.systems.Systems`), read from the options.
SystemsInput = Systems


def _usage(command: str, message: str) -> ConfigError:
    """A usage error (exit status 2); ``command`` is named by the caller's error report."""
    del command
    return ConfigError(message)


def _names(options: InputOptions, default: Sequence[str]) -> list[str]:
    if options.names is None:
        names = list(default)
    else:
        names = [part.strip() for part in options.names.split(",")]
        if len(names) != len(default) or not all(names):
            raise _usage(
                options.command,
                f"--names gives {len(names)} names for {len(default)} systems "
                f"({', '.join(default)})",
            )
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise _usage(
            options.command,
            f"two systems are named {duplicates[0]!r}; give each system once (or use --names)",
        )
    return names


def _from_files(
    options: InputOptions,
    hyps: list[str],
    refs: list[str],
    *,
    default_names: list[str] | None = None,
) -> SystemsInput:
    from meteor_eval.io import read_segments
    from meteor_eval.parallel import Files

    if hyps.count("-") > 1:
        raise _usage(options.command, "standard input ('-') can be given as --hyp only once")
    errors = options.encoding_errors
    buffered: dict[int, list[Pair]] = {}
    for k, hyp in enumerate(hyps):
        if hyp == "-" or "-" in refs:
            # Standard input can be read once: keep it for every pass.
            hyp_lines, ref_groups = read_segments(hyp, refs, errors=errors)
            buffered[k] = list(zip(hyp_lines, ref_groups, strict=True))

    def pairs(k: int) -> Iterable[Pair]:
        if k in buffered:
            return iter(buffered[k])
        return Files(hyps[k], tuple(refs), errors)

    has_stdin = "-" in hyps or "-" in refs
    return SystemsInput(
        _names(options, default_names or hyps),
        list(hyps),
        pairs,
        ref_sources=[] if has_stdin else list(refs),
        errors=errors,
    )


def _from_table(options: InputOptions) -> SystemsInput:
    from meteor_eval.tables import read_table

    if options.hyp or options.ref or options.example:
        raise _usage(options.command, "--input cannot be combined with --hyp, --ref or --example")
    if not options.hyp_field or not options.ref_field:
        raise _usage(options.command, "--input needs at least one --hyp-field and one --ref-field")
    assert options.input is not None  # _load_segments reads a table only with --input
    table = read_table(
        options.input,
        hyp_fields=options.hyp_field,
        ref_fields=options.ref_field,
        errors=options.encoding_errors,
    )
    references = table.references
    columns = [table.hypotheses[name] for name in table.names]

    def pairs(k: int) -> Iterator[Pair]:
        return iter(list(zip(columns[k], references, strict=True)))

    return SystemsInput(_names(options, list(table.names)), [None] * len(columns), pairs)


def load_systems(options: InputOptions) -> SystemsInput:
    """The systems named by the input options (in document mode, their documents).

    Raises:
        ConfigError: options that do not go together (a usage error, exit status 2).
    """
    systems = _load_segments(options)
    found = document_source(
        options.doc_ids,
        options.doc_field,
        options.doc_separator,
        input_file=options.input,
        from_stats=bool(options.from_stats),
    )
    if found is None:
        return systems
    ids, source, separator = found
    return systems.in_documents(ids, source=source, separator=separator)


def _load_segments(options: InputOptions) -> SystemsInput:
    """The systems named by the input options, segment by segment."""
    if options.input is not None:
        return _from_table(options)
    if options.hyp_field or options.ref_field:
        raise _usage(options.command, "--hyp-field/--ref-field need --input FILE")
    if options.example:
        if options.hyp or options.ref:
            raise _usage(options.command, "--example cannot be combined with --hyp/--ref")
        hyp = str(example_path("hypotheses.txt"))
        refs = [str(example_path("references.txt")), str(example_path("references2.txt"))]
        return _from_files(options, [hyp], refs, default_names=["example"])
    if not options.hyp or not options.ref:
        raise _usage(
            options.command, "--hyp FILE and at least one --ref FILE are required (or --example)"
        )
    return _from_files(options, list(options.hyp), list(options.ref))


def add_document_options(group: argparse._ArgumentGroup) -> None:
    """``--doc-ids``, ``--doc-field`` and ``--doc-separator``: score documents of several
    segments (:mod:`meteor_eval.documents`)."""
    group.add_argument(
        "--doc-ids",
        metavar="FILE",
        help="document mode: one document id a line, one line per segment; each document's "
        "consecutive segments are joined (hypotheses and each reference) and scored as one",
    )
    group.add_argument(
        "--doc-field",
        metavar="NAME",
        help="document mode with --input: the field holding each record's document id",
    )
    group.add_argument(
        "--doc-separator",
        choices=("space", "newline"),
        default=None,
        help="document mode: what joins a document's segments (default space; newline keeps "
        "them as sentences for ROUGE-Lsum and ROUGE-W)",
    )


def document_source(
    ids_file: str | None,
    field: str | None,
    separator_name: str | None,
    *,
    input_file: str | None,
    from_stats: bool,
) -> tuple[list[str], str, str] | None:
    """Document mode's ids, how errors name them, and the separator; ``None`` without
    ``--doc-ids``/``--doc-field``. The arguments are the values of ``--doc-ids``,
    ``--doc-field``, ``--doc-separator``, ``--input`` and whether ``--from-stats`` was given.

    Raises:
        ConfigError: ``--doc-field`` without ``--input``, ``--doc-ids`` with it, or
            ``--doc-separator`` outside document mode (usage errors).
        InputError: an unreadable ids file or a bad field (file and line named).
    """
    separator = {"space": " ", "newline": "\n", None: " "}[separator_name]
    if ids_file is None and field is None:
        if separator_name is not None:
            raise ConfigError("--doc-separator is for document mode: give --doc-ids or --doc-field")
        return None
    from meteor_eval.documents import read_doc_field, read_doc_ids

    if field is not None:
        if input_file is None:
            raise ConfigError("--doc-field needs --input FILE (with --hyp files, use --doc-ids)")
        if ids_file is not None:
            raise ConfigError("--doc-ids and --doc-field cannot be combined; give one")
        return read_doc_field(input_file, field), f"{input_file}: field {field!r}", separator
    if input_file is not None:
        raise ConfigError("with --input, give the document ids as --doc-field NAME")
    if from_stats:
        raise ConfigError("--doc-ids: statistics files are already scored per segment")
    assert ids_file is not None
    return read_doc_ids(ids_file), str(ids_file), separator
