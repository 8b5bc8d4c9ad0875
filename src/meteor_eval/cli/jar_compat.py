"""``meteor-eval jar-compat TEST REF [jar options]``: a drop-in for ``java -jar meteor-1.5.jar``.

The jar's other entry points are reached by their class name as the first argument, as with
``java -cp meteor-1.5.jar CLASS``: ``jar-compat Matcher TEST REF [options]`` (the aligner,
:mod:`meteor_eval.jar.matcher`), ``jar-compat Stemmer LANG`` (:mod:`meteor_eval.jar.stemmer`),
``jar-compat Parex ...`` (Meteor Universal's paraphrase extraction, :mod:`meteor_eval.jar.parex`),
``jar-compat FilterParaphrase ...`` (:mod:`meteor_eval.jar.filter_paraphrase`),
``jar-compat Trainer TASK DATADIR [options]`` (the parameter search,
:mod:`meteor_eval.jar.trainer`) and ``jar-compat Meteor TEST REF [options]`` (the same as without
a class name). A test file
named like a class is given with a path (``./Matcher``).

Takes the jar's arguments verbatim (``-l en -norm -sgml -f out ...``, spec 6.1) and prints exactly
what the jar prints on stdout, writes the same files (``-writeAlignments``, the SGML score files)
and uses the jar's messages and exit statuses on stderr: usage text and status 2 for fewer than two
arguments, ``Unknown option "<opt>"`` and status 1, ``Error: test and reference not same length``
and status 0. Where the jar crashes or hangs, one ``Error: ...`` line is printed instead and the
status is 1 (listed in ``docs/jar-compat.md``).
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Iterator
from typing import TextIO

from meteor_eval.errors import MeteorEvalError
from meteor_eval.jar.config import JarConfigError, resolve_settings
from meteor_eval.jar.lines import iter_stream_lines
from meteor_eval.jar.options import (
    USAGE,
    JarOptionError,
    JarUsageError,
    UnknownOptionError,
    parse_jar_args,
)

__all__ = ["CLASSES", "register", "run", "run_jar"]

#: The jar's classes with a command line, reachable as ``jar-compat CLASS ...``.
CLASSES = ("Meteor", "Matcher", "Stemmer", "Parex", "FilterParaphrase", "Trainer")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``jar-compat`` subcommand."""
    parser = subparsers.add_parser(
        "jar-compat",
        help="behave exactly like `java -jar meteor-1.5.jar TEST REF [options]` (and like its "
        "Matcher, Stemmer, Parex, FilterParaphrase and Trainer classes: `jar-compat Matcher "
        "...`, `jar-compat Stemmer LANG`, `jar-compat Parex ...`, `jar-compat Trainer TASK "
        "DATADIR ...`)",
        description=(
            "Run METEOR 1.5 with the jar's own command line and output, byte for byte. "
            "Arguments are those of the jar: TEST REF [-l lang] [-norm] [-sgml] [-stdio] ...; "
            "`jar-compat Matcher TEST REF [options]` and `jar-compat Stemmer LANG` run the "
            "jar's aligner and stemmer; `jar-compat Parex ...` and `jar-compat "
            "FilterParaphrase ...` its paraphrase extraction and table filter; `jar-compat "
            "Trainer segcor|spearman|rank DATADIR [options]` its parameter search."
        ),
        add_help=False,
        prefix_chars="\x00",
    )
    parser.add_argument("jar_args", nargs=argparse.REMAINDER, metavar="TEST REF [options]")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Entry point of the subcommand: the exit status."""
    return run_jar(list(args.jar_args))


def run_jar(
    argv: list[str],
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the jar's command line ``argv`` (without ``java -jar meteor-1.5.jar``).

    Args:
        argv: ``TEST REF [options]``.
        stdin: Input of ``-stdio`` (default ``sys.stdin``; its binary buffer is read when present).
        stdout: Where the jar's stdout goes (default ``sys.stdout``).
        stderr: Where the jar's stderr goes (default ``sys.stderr``).

    Returns:
        The jar's exit status (see the module docstring).
    """
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    if argv and argv[0] in CLASSES:
        try:
            return _run_class(argv[0], argv[1:], stdin, out, err)
        finally:
            out.flush()
    try:
        options = parse_jar_args(argv)
    except JarUsageError:
        err.write(USAGE)
        return 2
    except (UnknownOptionError, JarOptionError) as exc:
        err.write(f"{exc}\n")
        return 1
    try:
        settings = resolve_settings(options)
    except JarConfigError as exc:
        err.write(f"{exc}\n")
        return 1
    if not (options.ss_out or options.stdio or options.quiet):
        out.write(settings.header(sgml=options.sgml))
        out.flush()
    if len(settings.weights) < len(settings.modules):
        err.write(
            "Warning: More modules than weights specified - modules with no weights will not"
            " be counted.\n"
        )
    if options.stdio and options.sgml:
        err.write("Warning: Stdio incompatible with other modes - using Stdio only\n")
    try:
        from meteor_eval.metrics.meteor import Meteor

        config = settings.meteor_config()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            meteor = Meteor(config)
        if options.stdio:
            from meteor_eval.jar.stdio import StdioSession

            source = stdin if stdin is not None else sys.stdin
            buffer = getattr(source, "buffer", None)
            lines = iter_stream_lines(buffer) if buffer is not None else _text_lines(source)
            StdioSession(meteor).run(lines, out)
            return 0
        if options.sgml:
            from meteor_eval.jar.sgml import run_sgml

            return run_sgml(meteor, settings, options, out=out, err=err)
        from meteor_eval.jar.plaintext import run_plaintext

        return run_plaintext(meteor, settings, options, out=out, err=err)
    except JarConfigError as exc:
        out.flush()
        err.write(f"{exc}\n")
        return 1
    except MeteorEvalError as exc:
        out.flush()
        err.write(f"Error: {exc}\n")
        return 1
    finally:
        out.flush()


def _run_class(name: str, argv: list[str], stdin: TextIO | None, out: TextIO, err: TextIO) -> int:
    """Run the jar class ``name`` with its arguments ``argv``."""
    if name == "Meteor":
        return run_jar(argv, stdin=stdin, stdout=out, stderr=err)
    if name == "Parex":
        from meteor_eval.jar.parex import run_parex

        return run_parex(argv, out=out, err=err)
    if name == "FilterParaphrase":
        from meteor_eval.jar.filter_paraphrase import run_filter_paraphrase

        return run_filter_paraphrase(argv, out=out, err=err)
    if name == "Trainer":
        from meteor_eval.jar.trainer import run_trainer

        return run_trainer(argv, out=out, err=err)
    lines = _stdin_lines(stdin if stdin is not None else sys.stdin)
    if name == "Matcher":
        from meteor_eval.jar.matcher import run_matcher

        return run_matcher(argv, lines=lines, out=out, err=err)
    from meteor_eval.jar.stemmer import run_stemmer

    return run_stemmer(argv, lines=lines, out=out, err=err)


def _stdin_lines(source: TextIO) -> Iterator[str]:
    """Standard input's lines as the jar reads them, one at a time."""
    buffer = getattr(source, "buffer", None)
    if buffer is not None:
        yield from iter_stream_lines(buffer)
    else:
        yield from _text_lines(source)


def _text_lines(source: TextIO) -> list[str]:
    from meteor_eval.jar.lines import split_jar_lines

    return split_jar_lines(source.read())
