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
from typing import Any

from meteor_eval.jar.commands import CLASSES, run_jar

__all__ = ["CLASSES", "DESCRIPTION", "add_options", "run", "run_jar"]

#: The command's own ``--help`` description.
DESCRIPTION = (
    "Run METEOR 1.5 with the jar's own command line and output, byte for byte. "
    "Arguments are those of the jar: TEST REF [-l lang] [-norm] [-sgml] [-stdio] ...; "
    "`jar-compat Matcher TEST REF [options]` and `jar-compat Stemmer LANG` run the "
    "jar's aligner and stemmer; `jar-compat Parex ...` and `jar-compat "
    "FilterParaphrase ...` its paraphrase extraction and table filter; `jar-compat "
    "Trainer segcor|spearman|rank DATADIR [options]` its parameter search."
)
#: Settings of the command's parser other than the shared ones.
PARSER_OPTIONS: dict[str, Any] = {"add_help": False, "prefix_chars": "\x00"}


def add_options(parser: argparse.ArgumentParser) -> None:
    """The ``jar-compat`` options."""
    parser.add_argument("jar_args", nargs=argparse.REMAINDER, metavar="TEST REF [options]")


def run(args: argparse.Namespace) -> int:
    """Entry point of the subcommand: the exit status."""
    return run_jar(list(args.jar_args))
