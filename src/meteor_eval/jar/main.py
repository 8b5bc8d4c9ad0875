"""The jar's command line as a library call: :func:`run_jar` runs ``java -jar meteor-1.5.jar
ARGS`` (or ``java -cp meteor-1.5.jar CLASS ARGS`` when the first argument names a class of
:data:`CLASSES`) on given streams and returns the jar's exit status.

It lives with the jar-compatible modules rather than in the command line so that they can call
it too (the Trainer scores its data with the jar-compatible Meteor); ``meteor-eval jar-compat``
(:mod:`meteor_eval.cli.jar_compat`) is a thin wrapper around it. Behaviour, messages and exit
statuses are described there and in ``docs/jar-compat.md``.
"""

from __future__ import annotations

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

__all__ = ["CLASSES", "run_jar"]

#: The jar's classes with a command line, reachable as ``jar-compat CLASS ...``.
CLASSES = ("Meteor", "Matcher", "Stemmer", "Parex", "FilterParaphrase", "Trainer")


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
