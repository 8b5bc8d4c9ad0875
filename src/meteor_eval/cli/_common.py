"""Options shared by the scoring commands: output format, signatures, processes, statistics."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

from meteor_eval.errors import ConfigError
from meteor_eval.processes import START_METHODS

__all__ = [
    "add_output_options",
    "add_run_options",
    "add_stats_options",
    "check_output_paths",
    "start_method_of",
]

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
    """``--jobs``, ``--start-method``, ``--scheduler``, ``--work-budget`` and ``--no-progress``."""
    parser.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=1,
        metavar="N",
        help="score in N processes (0 = one per CPU); the results are identical (default 1)",
    )
    parser.add_argument(
        "--start-method",
        choices=START_METHODS,
        default=None,
        help="how --jobs workers start (default: $METEOR_EVAL_START_METHOD, else auto: fork on "
        "Linux when single-threaded, else forkserver, else spawn); the results are identical",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="score on a Dask cluster: a scheduler address (tcp://host:8786), 'local' or "
        "'local:N' (a local cluster of N worker processes); same results as --jobs 1 "
        "(needs meteor-eval[dask])",
    )
    parser.add_argument(
        "--work-budget",
        metavar="SPEC",
        help="most work one segment may cost before it is refused: KIND=N items (kinds: "
        "meteor15, paper2005, nltk, rouge, rouge_skip; e.g. 'meteor15=1e9 rouge=5e10') or one "
        "N for all (default: $METEOR_EVAL_WORK_BUDGET, else the budgets of docs/limits.md)",
    )
    parser.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (shown on a terminal's stderr for runs longer than a second)",
    )


def start_method_of(method: str | None, *, jobs: int, scheduler: str | None) -> str | None:
    """``--start-method`` (``method``), refused where no worker process starts (``--jobs``
    ``jobs``, ``--scheduler`` ``scheduler``); checked with the environment variable by
    :func:`meteor_eval.processes.resolve_start_method`. Plain values, so the options are read
    once, by the command.

    Raises:
        ConfigError: given with ``--jobs 1`` or ``--scheduler``, or a bad environment value.
    """
    from meteor_eval.processes import resolve_start_method

    if method is not None:
        if scheduler is not None:
            raise ConfigError("--start-method is for --jobs workers, not --scheduler")
        if jobs == 1:
            raise ConfigError(
                "--start-method: no worker process starts with --jobs 1; give --jobs N (N > 1, "
                "or 0 for one per CPU)"
            )
    resolve_start_method(method)
    return method


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


def folder_problem(folder: str) -> str | None:
    """Why files cannot be created in ``folder`` (a missing folder, or a file where a folder
    should be: named as what it is, not as missing), or ``None``."""
    if os.path.isdir(folder):
        return None
    # The nearest existing ancestor says whether a path component is a file.
    part = folder
    while part and not os.path.exists(part):
        parent = os.path.dirname(part)
        if parent == part:
            break
        part = parent
    if part and os.path.exists(part) and not os.path.isdir(part):
        return f"{part} is a file, not a folder"
    return f"folder {folder} does not exist"


def check_output_paths(option: str, paths: Sequence[str]) -> None:
    """Refuse, before anything is scored, output files that could not be written.

    A run writes its ``--stats``/``--alignments`` files only after scoring every system, so
    a typo in a folder name would otherwise surface after the whole run.

    Raises:
        ConfigError: a path is a directory, its folder does not exist or cannot be written,
            the file exists and cannot be written, or the same file is named twice (usage
            errors: exit status 2, naming ``option``).
    """
    seen: set[str] = set()
    for path in paths:
        real = os.path.realpath(path)
        if real in seen:
            raise ConfigError(f"{option}: {path} is given twice; give one file per system")
        seen.add(real)
        folder = os.path.dirname(real) or "."
        if os.path.isdir(real):
            raise ConfigError(f"{option}: {path} is a directory; give a file name")
        problem = folder_problem(folder)
        if problem is not None:
            raise ConfigError(f"{option}: cannot write {path}: {problem}")
        if os.path.exists(real):
            if not os.access(real, os.W_OK):
                raise ConfigError(f"{option}: cannot write {path}: permission denied")
        elif not os.access(folder, os.W_OK | os.X_OK):
            raise ConfigError(f"{option}: cannot write {path}: folder {folder} is not writable")
