"""The jar's paraphrase-table filter: ``java -cp meteor-1.5.jar FilterParaphrase ...``.

``FilterParaphrase PARAPHRASE.gz FILTERED.gz REF1 [REF2 ...]`` keeps the records of a paraphrase
table (three lines each: probability, phrase A, phrase B) whose phrase A or phrase B occurs in
some reference line, so that scoring a fixed test set loads a small table (the jar's ``-a``).

As the jar does it, reproduced: each reference line is normalised as ``-norm -noPunct`` does for
English (whatever the table's language) and lower-cased; a phrase "occurs" when the Java
``String.hashCode`` values of its tokens equal those of consecutive tokens of a line (so two
words with equal hashes count as the same word, and an empty phrase always occurs). Kept records
are written unchanged, in file order, with Java's gzip. Standard output: ``Reading reference
files...``, each reference path, ``Filtering paraphrases...`` and, every million records,
``N (KEPT)``. Fewer than three arguments print the usage text on stdout, exit status 1.

Where the jar dies with a stack trace (a missing reference or table, a table that is not gzip,
a last record with fewer than three lines), one ``Error: ...`` line is printed on stderr instead,
exit status 1, and no partly filtered file is left behind: the output is written beside its
name and renamed when complete, so a file already there stays as it was.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Final, TextIO

from meteor_eval.jar.javaio import (
    JavaGzipWriter,
    iter_file_lines,
    iter_gzip_lines,
    replaced_on_success,
)
from meteor_eval.jar.parex import NgramIndex
from meteor_eval.text.tokenize import java_hash, java_lower, java_split

__all__ = ["FILTER_USAGE", "reference_ngrams", "run_filter_paraphrase"]

FILTER_USAGE: Final = """Filter Paraphrase Table:

Filter paraphrase file to one or more references.  Make sure to select the
correct language paraphrase file (normally in data dir) and reference file.
Specify the location of the filtered file to the Meteor jar with the -a option.

Usage: java -cp meteor-*.jar FilterParaphrase <paraphrase.gz> <filtered.gz> <ref1> [ref2 ...]

See README file for examples
"""

_PROGRESS_EVERY: Final = 1_000_000


class _FilterError(Exception):
    """A one-line reason the filter stops (exit status 1)."""


def _hashes(text: str) -> list[int]:
    return [java_hash(token) for token in java_split(text)]


def reference_ngrams(lines: Iterator[str]) -> NgramIndex:
    """Every reference line, normalised and lower-cased as the jar does, as token hashes."""
    from meteor_eval.text.normalize import normalize

    return NgramIndex(
        _hashes(java_lower(normalize(line, "english", keep_punctuation=False))) for line in lines
    )


def _records(path: Path) -> Iterator[tuple[str, str, str]]:
    """The table's three-line records."""
    lines = iter_gzip_lines(path)
    for first in lines:
        second = next(lines, None)
        third = next(lines, None)
        if second is None or third is None:
            raise _FilterError(f"{path}: the last record has fewer than three lines")
        yield first, second, third


def _filter(table: Path, filtered: Path, index: NgramIndex, out: TextIO) -> None:
    """Write the kept records; progress on ``out``. The output is only put in place once
    complete (:func:`~meteor_eval.jar.javaio.replaced_on_success`), so reading the table
    failing leaves none (the table is checked to be gzip before the output is created, as the
    jar opens it first)."""
    with open(table, "rb") as handle:
        if handle.read(2) != b"\x1f\x8b":
            raise _FilterError(f"{table}: not in gzip format")
    count = used = 0
    with replaced_on_success(filtered) as temporary, JavaGzipWriter(temporary) as writer:
        out.write("Filtering paraphrases...\n")
        for record in _records(table):
            if _hashes(record[1]) in index or _hashes(record[2]) in index:
                used += 1
                for line in record:
                    writer.println(line)
            count += 1
            if count % _PROGRESS_EVERY == 0:
                out.write(f"{count} ({used})\n")


def run_filter_paraphrase(argv: Sequence[str], *, out: TextIO, err: TextIO) -> int:
    """Run ``FilterParaphrase`` with ``argv`` (after the class name); returns the exit status.

    Args:
        argv: ``PARAPHRASE.gz FILTERED.gz REF1 [REF2 ...]``.
        out: Standard output (messages, as the jar's).
        err: Standard error (errors).
    """
    if len(argv) < 3:
        out.write(FILTER_USAGE)
        return 1
    table, filtered = Path(argv[0]), Path(argv[1])
    out.write("Reading reference files...\n")
    try:
        refs: list[str] = []
        for name in argv[2:]:
            out.write(f"{name}\n")
            refs.extend(_read(Path(name)))
        index = reference_ngrams(iter(refs))
        _filter(table, filtered, index, out)
    except _FilterError as exc:
        out.flush()
        err.write(f"Error: {exc}\n")
        return 1
    except (OSError, EOFError, zlib.error) as exc:
        out.flush()
        where = getattr(exc, "filename", None) or table
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        err.write(f"Error: {where}: {reason}\n")
        return 1
    return 0


def _read(path: Path) -> list[str]:
    """A reference file's lines."""
    return list(iter_file_lines(path))
