"""Plaintext mode of the jar (spec 1.2, 6.2, 6.3): one segment per line, scores on stdout.

Per test line ``k`` the jar prints ``Segment k score:<TAB>score`` (``-vOut``:
``P<TAB>R<TAB>penalty<TAB>score``; ``-ssOut``: the statistics line; ``-q``: the bare score on
stderr), then the system block (``-q``: the bare system score). ``-r N`` reads the reference file
in groups of ``N`` consecutive lines. ``-writeAlignments`` writes ``<prefix>-align.out``.

Differences from the jar (where it crashes):

* the reference file ends inside an ``-r N`` group without ``-norm``: the jar dies with a
  NullPointerException at that segment; we print a one-line error there (exit 1). With ``-norm``
  the missing reference is the text ``null``, as in the jar.
* no segments at all (and no ``-ssOut``): the jar dies while printing the system block; we print a
  one-line error (exit 1).
* ``-r`` is 0 or negative: the jar silently pairs line ``k`` with reference line ``k`` without
  checking the line counts and dies if there are fewer references; we do the same and print a
  one-line error in that last case.
"""

from __future__ import annotations

from typing import TextIO

from meteor_eval.jar.config import JarConfigError, parse_java_int
from meteor_eval.jar.lines import read_jar_lines
from meteor_eval.jar.options import JarOptions
from meteor_eval.jar.output import (
    alignment_record,
    stats_line,
    system_block,
    verbose_value,
)
from meteor_eval.javafmt import java_double
from meteor_eval.metrics.meteor import Meteor, MeteorConfig, pool_stats, score_from_stats
from meteor_eval.metrics.meteor.formula import Components
from meteor_eval.stats.meteor import MeteorStats

__all__ = ["run_plaintext"]


def _reference_groups(lines: list[str], ref_count: int) -> list[list[str | None]]:
    groups: list[list[str | None]] = []
    k = 0
    while k < len(lines):
        group: list[str | None] = [lines[k]]
        for offset in range(1, ref_count):
            index = k + offset
            group.append(lines[index] if index < len(lines) else None)
        groups.append(group)
        k += max(ref_count, 1)
    return groups


def _references(group: list[str | None], k: int, ref_count: int, *, keeps_null: bool) -> list[str]:
    """The references of segment ``k`` (0-based); a missing one reads ``null`` under ``-norm``.

    Raises:
        JarConfigError: a missing reference without ``-norm`` (the jar crashes there).
    """
    references: list[str] = []
    for text in group:
        if text is None:
            if not keeps_null:
                raise JarConfigError(
                    f"Error: the reference file ends inside the group of segment {k + 1}"
                    f" (-r {ref_count}); the jar crashes here without -norm"
                )
            text = "null"
        references.append(text)
    return references


def _write_segment(
    options: JarOptions, k: int, stats: MeteorStats, c: Components, *, out: TextIO, err: TextIO
) -> None:
    """The line of segment ``k`` (0-based) in the format the options ask for."""
    if options.ss_out:
        out.write(stats_line(stats) + "\n")
    elif options.v_out:
        out.write(f"Segment {k + 1} score:\t{verbose_value(c)}\n")
    elif options.quiet:
        err.write(java_double(c.score) + "\n")
    else:
        out.write(f"Segment {k + 1} score:\t{java_double(c.score)}\n")


def _open_alignments(options: JarOptions) -> TextIO | None:
    """``<prefix>-align.out`` opened for writing with ``-writeAlignments``, else ``None``.

    Raises:
        JarConfigError: the file cannot be created.
    """
    if not options.write_alignments:
        return None
    path = options.prefix + "-align.out"
    try:
        return open(path, "w", encoding="utf-8", newline="\n")
    except OSError as exc:
        raise JarConfigError(f"Error: cannot write {path} ({exc.strerror or exc})") from None


def _write_system(
    records: list[MeteorStats], config: MeteorConfig, options: JarOptions, *, out: TextIO
) -> None:
    """The system block (``-q``: the bare system score) of the pooled ``records``.

    Raises:
        JarConfigError: no segment at all (the jar crashes printing the block).
    """
    if not records:
        raise JarConfigError("Error: no segments to score (the jar crashes on empty input)")
    total = pool_stats(records, config)
    c = score_from_stats(total, config)
    if options.quiet:
        out.write(java_double(c.score) + "\n")
        return
    out.write(
        system_block(
            total,
            c,
            n_weights=len(config.weights),
            char_based=config.characters,
            header="\nSystem level statistics:\n",
        )
    )


def run_plaintext(
    meteor: Meteor,
    options: JarOptions,
    *,
    out: TextIO,
    err: TextIO,
) -> int:
    """Score two plaintext files as the jar does; returns the exit status.

    Raises:
        JarConfigError: a condition the jar crashes on (module docstring).
        InputError: a file cannot be read.
    """
    tests = read_jar_lines(options.test)
    ref_count = 1 if options.ref_count is None else parse_java_int(options.ref_count, option="-r")
    ref_lines = read_jar_lines(options.reference)
    groups = _reference_groups(ref_lines, ref_count)
    if ref_count >= 1 and len(tests) != len(groups):
        err.write("Error: test and reference not same length\n")
        return 0
    if len(groups) < len(tests):
        raise JarConfigError(
            f"Error: {len(tests)} test lines but only {len(groups)} references (-r {ref_count})"
        )
    config = meteor.config
    keeps_null = config.normalization.startswith("norm")
    align_file = _open_alignments(options)
    records: list[MeteorStats] = []
    try:
        for k, hypothesis in enumerate(tests):
            references = _references(groups[k], k, ref_count, keeps_null=keeps_null)
            stats, _, alignment = meteor.segment_stats(hypothesis, references)
            c = score_from_stats(stats, config)
            _write_segment(options, k, stats, c, out=out, err=err)
            if align_file is not None:
                align_file.write(alignment_record(str(k + 1), c, alignment))
            records.append(stats)
    finally:
        if align_file is not None:
            align_file.close()
    if not options.ss_out:
        _write_system(records, config, options, out=out)
    return 0
