"""Meteor Universal resource folders: what ``meteor-eval score --resources DIR`` (and the jar's
``-new DIR``) reads: a function-word list and a paraphrase table of three-line records.

The folder is built by :func:`meteor_eval.jar.new_language.build_language` (``meteor-eval
new-language``), which follows the jar's own steps (``new_language.py`` and ``Parex``); this
module only names and checks the files, so scoring does not depend on the jar's emulation.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path
from typing import Final

from meteor_eval.errors import InputError

__all__ = [
    "FUNCTION_WORDS",
    "MANIFEST",
    "PARAPHRASES",
    "TARGET_LINES",
    "check_record_table",
    "resource_files",
]

#: File names inside a resource folder (those two are what the jar's ``-new`` reads).
FUNCTION_WORDS: Final = "function.words"
PARAPHRASES: Final = "paraphrase.gz"
MANIFEST: Final = "manifest.json"
#: Lines of the corpus whose phrases are paraphrased (``new_language.py``'s limit).
TARGET_LINES: Final = 10_000


def resource_files(folder: str | os.PathLike[str]) -> tuple[Path, Path]:
    """The function-word list and paraphrase table of a resource folder.

    Raises:
        InputError: the folder or one of the two files is missing.
    """
    base = Path(folder)
    if not base.is_dir():
        raise InputError(f"{base}: not a folder")
    paths = (base / FUNCTION_WORDS, base / PARAPHRASES)
    for path in paths:
        if not path.is_file():
            raise InputError(
                f"{base} has no {path.name} (build a resource folder with meteor-eval new-language)"
            )
    return paths


def check_record_table(table: Path) -> None:
    """Refuse a paraphrase table of ``phrase ||| phrase ||| p`` lines (what ``Parex`` writes as
    ``paraphrase.gz``): METEOR reads three-line records and ignores their probability line, so
    such a table would be read as records of wrong phrases without any error.

    Raises:
        InputError: the first line has ``|||`` in it, or the file cannot be read.
    """
    try:
        with gzip.open(table, "rb") as handle:
            first = handle.readline()
    except (OSError, EOFError) as exc:
        raise InputError(f"{table}: cannot read ({exc})") from None
    if b"|||" in first:
        raise InputError(
            f"{table} line 1: a 'phrase ||| phrase ||| p' line (Parex's output), but METEOR "
            "reads records of three lines (probability, phrase, phrase); build the folder with "
            "meteor-eval new-language"
        )
