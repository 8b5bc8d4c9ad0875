"""Options shared by the scoring commands: output format, signatures, processes, statistics."""

from __future__ import annotations

import argparse

__all__ = ["add_output_options", "add_run_options", "add_stats_options"]

#: Output formats of every scoring command (``docs/output-schema.md``).
FORMATS = ("text", "json", "jsonl", "tsv", "csv")


def add_output_options(parser: argparse.ArgumentParser) -> None:
    """``--format``, ``--sentence-level``, ``--short-signature``."""
    group = parser.add_argument_group("output")
    group.add_argument(
        "--format",
        "-f",
        choices=FORMATS,
        default="text",
        help="text table, or the results schema as json, jsonl (per segment), tsv or csv",
    )
    group.add_argument(
        "--sentence-level", action="store_true", help="also give every segment's score"
    )
    group.add_argument(
        "--short-signature",
        "--short",
        action="store_true",
        help="abbreviated signature keys",
    )


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """``--jobs``, ``--scheduler`` and ``--no-progress``."""
    parser.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=1,
        metavar="N",
        help="score in N processes (0 = one per CPU); the results are identical (default 1)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="score on a Dask cluster: a scheduler address (tcp://host:8786), 'local' or "
        "'local:N' (a local cluster of N worker processes); same results as --jobs 1 "
        "(needs meteor-eval[dask])",
    )
    parser.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (shown on a terminal's stderr for runs longer than a second)",
    )


def add_stats_options(parser: argparse.ArgumentParser, *, write: bool = True) -> None:
    """``--stats FILE`` (one per system) and ``--from-stats FILE [FILE ...]``."""
    if write:
        parser.add_argument(
            "--stats",
            metavar="FILE",
            nargs="+",
            action="extend",
            help="write each segment's statistics with a header recording how they were made "
            "(one file per system)",
        )
    parser.add_argument(
        "--from-stats",
        metavar="FILE",
        nargs="+",
        action="extend",
        help="score statistics files written by --stats instead of text (several: compare "
        "systems); the settings come from their headers",
    )
