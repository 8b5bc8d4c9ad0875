"""The jar's command lines as a library call: :func:`run_jar` runs ``java -jar meteor-1.5.jar
ARGS``, or ``java -cp meteor-1.5.jar CLASS ARGS`` when the first argument names a class of
:data:`CLASSES`, on given streams and returns the jar's exit status.

``meteor-eval jar-compat`` (:mod:`meteor_eval.cli.jar_compat`) is a thin wrapper around it. The
scorer itself is :func:`meteor_eval.jar.main.run_meteor`; the classes' modules may call that, and
none of them imports this one.
"""

from __future__ import annotations

import sys
from typing import TextIO

from meteor_eval.jar.lines import iter_text_stream_lines
from meteor_eval.jar.main import run_meteor

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
    """Run the jar's command line ``argv``: a class of :data:`CLASSES` when ``argv[0]`` names
    one (``java -cp meteor-1.5.jar CLASS ...``), the scorer otherwise (``java -jar ...``).

    Args:
        argv: ``TEST REF [options]`` or ``CLASS ARGS``.
        stdin: Standard input (default ``sys.stdin``; its binary buffer is read when present).
        stdout: Where the jar's stdout goes (default ``sys.stdout``).
        stderr: Where the jar's stderr goes (default ``sys.stderr``).

    Returns:
        The jar's exit status.
    """
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    if argv and argv[0] in CLASSES:
        try:
            return _run_class(argv[0], argv[1:], stdin, out, err)
        finally:
            out.flush()
    return run_meteor(argv, stdin=stdin, stdout=out, stderr=err)


def _run_class(name: str, argv: list[str], stdin: TextIO | None, out: TextIO, err: TextIO) -> int:
    """Run the jar class ``name`` with its arguments ``argv``."""
    if name == "Meteor":
        return run_meteor(argv, stdin=stdin, stdout=out, stderr=err)
    if name == "Parex":
        from meteor_eval.jar.parex import run_parex

        return run_parex(argv, out=out, err=err)
    if name == "FilterParaphrase":
        from meteor_eval.jar.filter_paraphrase import run_filter_paraphrase

        return run_filter_paraphrase(argv, out=out, err=err)
    if name == "Trainer":
        from meteor_eval.jar.trainer import run_trainer

        return run_trainer(argv, out=out, err=err)
    lines = iter_text_stream_lines(stdin if stdin is not None else sys.stdin)
    if name == "Matcher":
        from meteor_eval.jar.matcher import run_matcher

        return run_matcher(argv, lines=lines, out=out, err=err)
    from meteor_eval.jar.stemmer import run_stemmer

    return run_stemmer(argv, lines=lines, out=out, err=err)
