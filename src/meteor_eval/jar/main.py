"""The jar's scorer as a library call: :func:`run_meteor` runs ``java -jar meteor-1.5.jar
ARGS`` on given streams and returns the jar's exit status.

It lives with the jar-compatible modules rather than in the command line so that they can call
it too (the Trainer scores its data with it). The jar's other classes are reached through
:func:`meteor_eval.jar.commands.run_jar`, which ``meteor-eval jar-compat``
(:mod:`meteor_eval.cli.jar_compat`) wraps. Behaviour, messages and exit statuses are described
there and in ``docs/jar-compat.md``.
"""

from __future__ import annotations

import sys
import warnings
from typing import TextIO

from meteor_eval.errors import MeteorEvalError
from meteor_eval.jar.config import JarConfigError, report_failure, resolve_settings
from meteor_eval.jar.lines import iter_text_stream_lines
from meteor_eval.jar.options import JarExitError, parse_jar_args

__all__ = ["run_meteor"]


def run_meteor(
    argv: list[str],
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the jar's scorer with ``argv`` (what follows ``java -jar meteor-1.5.jar``).

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
    try:
        options = parse_jar_args(argv)
        settings = resolve_settings(options)
    except JarExitError as exc:
        return exc.exit(err)
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
            StdioSession(meteor).run(iter_text_stream_lines(source), out)
            return 0
        if options.sgml:
            from meteor_eval.jar.sgml import run_sgml

            return run_sgml(meteor, options, out=out, err=err)
        from meteor_eval.jar.plaintext import run_plaintext

        return run_plaintext(meteor, options, out=out, err=err)
    except (JarConfigError, MeteorEvalError) as exc:
        return report_failure(exc, out, err)
    finally:
        out.flush()
