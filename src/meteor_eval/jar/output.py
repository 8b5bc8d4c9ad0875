"""Text the jar prints: statistics lines, segment lines, the system block, alignment records.

Formats (spec 1.5, 6.2, 6.3): every double is Java's ``Double.toString``
(:func:`~meteor_eval.javafmt.java_double`); the counts of the system block use the jar's
``#.##########`` pattern (integers in practice).
"""

from __future__ import annotations

from collections.abc import Sequence

from meteor_eval.align.alignment import Alignment
from meteor_eval.javafmt import java_double
from meteor_eval.metrics.meteor.formula import Components
from meteor_eval.stats.meteor import MeteorStats
from meteor_eval.text.tokenize import java_trim

__all__ = [
    "alignment_record",
    "count_text",
    "stats_line",
    "system_block",
    "verbose_value",
]


def count_text(value: float) -> str:
    """A count as the jar's ``DecimalFormat("#.##########")`` prints it (``16268``, ``0``)."""
    number = float(value)
    if number.is_integer():
        return str(int(number))
    return f"{number:.10f}".rstrip("0").rstrip(".")


def stats_line(stats: MeteorStats) -> str:
    """The 23-number statistics line (``-ssOut``, stdio ``SCORE``)."""
    return " ".join(java_double(float(x)) for x in stats.to_row())


def verbose_value(c: Components) -> str:
    """``P<TAB>R<TAB>penalty<TAB>score`` (``-vOut``), raw values with ``NaN`` as in the jar."""
    return "\t".join(java_double(x) for x in (c.precision, c.recall, c.penalty, c.score))


def system_block(
    stats: MeteorStats, c: Components, *, n_weights: int, char_based: bool, header: str
) -> str:
    """The verbose statistics block printed after the segments (spec 6.2).

    Args:
        stats: Pooled statistics.
        c: Their score components.
        n_weights: Rows of the table: one per scoring weight.
        char_based: Label lengths as characters (``-ch``).
        header: First line (``\\nSystem level statistics:\\n`` or ``[set][sys] ``).
    """
    lines = [
        header,
        "",
        "           Test Matches                  Reference Matches",
        "Stage      Content  Function    Total    Content  Function    Total",
    ]
    totals = [0.0, 0.0, 0.0, 0.0]  # test content, test function, ref content, ref function
    for i in range(n_weights):
        hc, rc, hf, rf = stats.stages[i]
        lines.append(
            f"{i + 1:1d}          {count_text(hc):>7}   {count_text(hf):>7}"
            f"  {count_text(hc + hf):>7}"
            f"    {count_text(rc):>7}   {count_text(rf):>7}  {count_text(rc + rf):>7}"
        )
        totals[0] += hc
        totals[1] += hf
        totals[2] += rc
        totals[3] += rf
    tc, tf, rc_, rf_ = totals
    lines.append(
        f"Total      {count_text(tc):>7}   {count_text(tf):>7}  {count_text(tc + tf):>7}"
        f"    {count_text(rc_):>7}   {count_text(rf_):>7}  {count_text(rc_ + rf_):>7}"
    )
    unit = "char" if char_based else "word"
    lines += [
        "",
        f"Test {unit}s:             {count_text(stats.hyp_length)}",
        f"Reference {unit}s:        {count_text(stats.ref_length)}",
        f"Chunks:                 {count_text(stats.chunks)}",
        f"Precision:              {java_double(c.precision)}",
        f"Recall:                 {java_double(c.recall)}",
        f"f1:                     {java_double(c.f1)}",
        f"fMean:                  {java_double(c.fmean)}",
        f"Fragmentation penalty:  {java_double(c.penalty)}",
        "",
        f"Final score:            {java_double(c.score)}",
    ]
    return "\n".join(lines) + "\n"


def alignment_record(label: str, c: Components, alignment: Alignment) -> str:
    """One ``-writeAlignments`` record, including its closing blank line (spec 6.3).

    Args:
        label: What follows ``Alignment<TAB>``: the 1-based line number, or
            ``set<TAB>sys<TAB>doc<TAB>seg`` in SGML mode.
        c: The segment's score components.
        alignment: The kept reference's alignment.
    """
    out: list[str] = [
        f"Alignment\t{label}\t{verbose_value(c)}",
        java_trim(" ".join(alignment.hyp_tokens)),
        java_trim(" ".join(alignment.ref_tokens)),
        "Line2Start:Length\tLine1Start:Length\tModule\t\tScore",
    ]
    for m in sorted(alignment.matches, key=_ref_order):
        out.append(
            f"{m.ref_start}:{m.ref_len}\t\t\t{m.hyp_start}:{m.hyp_len}\t\t\t{m.stage}\t\t1.0"
        )
    return "\n".join(out) + "\n\n"


def _ref_order(match: Sequence[int]) -> int:
    return match[0]
