"""The jar's printed formats: counts, statistics lines, verbose values, system block, alignments."""

from __future__ import annotations

import gzip
import math
from pathlib import Path

import pytest

from meteor_eval.align.alignment import Alignment
from meteor_eval.jar.output import (
    alignment_record,
    count_text,
    stats_line,
    system_block,
    verbose_value,
)
from meteor_eval.match.base import Match
from meteor_eval.metrics.meteor import MeteorConfig, pool_stats, score_from_stats
from meteor_eval.stats.meteor import MeteorStats

GOLDEN = Path(__file__).resolve().parents[2] / "reference" / "golden" / "meteor15"
SEG1 = MeteorStats.from_row("6 6 3 3 2 2 3 3 0 0 0 0 0 0 0 0 0 0 0 0 1 5 5".split())


@pytest.mark.parametrize(
    ("value", "text"),
    [(0, "0"), (16268, "16268"), (3.0, "3"), (0.5, "0.5"), (1 / 3, "0.3333333333"), (2.25, "2.25")],
)
def test_count_text_is_decimal_format_with_ten_places(value: float, text: str) -> None:
    assert count_text(value) == text


def test_stats_line_prints_23_java_doubles() -> None:
    assert stats_line(SEG1) == ("6.0 6.0 3.0 3.0 2.0 2.0 3.0 3.0 " + "0.0 " * 12 + "1.0 5.0 5.0")


def test_verbose_value_keeps_nan_as_java_prints_it() -> None:
    config = MeteorConfig(modules=("exact",), weights=(1.0,))
    # An empty hypothesis against two reference words: precision 0/0 is NaN, the score 0.0
    # (the jar's -vOut line for segment 5 of golden case plain-tune-beam).
    empty = MeteorStats(0, 2, 0, 0, ((0, 0, 0, 0),), 0, 0, 0)
    assert verbose_value(score_from_stats(empty, config)) == "NaN\t0.0\tNaN\t0.0"
    perfect = score_from_stats(
        MeteorStats.from_row("2 2 1 1 1 1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 1 2 2".split()), config
    )
    assert verbose_value(perfect).split("\t") == ["1.0", "1.0", "0.0", "1.0"]


def _golden_lines(name: str) -> list[str]:
    return gzip.decompress((GOLDEN / name).read_bytes()).decode("utf-8").splitlines()


def test_system_block_equals_the_jar_golden() -> None:
    # Pool the jar's own -ssOut rows and print the block its plain run printed
    # (golden/meteor15/README.md: `-l en -norm -m exact`, with and without -ssOut).
    rows = [
        MeteorStats.from_row(line.split())
        for line in _golden_lines("xray-system1.en-norm-exact.stats.gz")
    ]
    config = MeteorConfig.preset("meteor15", normalization="norm", modules=("exact",))
    total = pool_stats(rows, config)
    block = system_block(
        total,
        score_from_stats(total, config),
        n_weights=1,
        char_based=False,
        header="\nSystem level statistics:\n",
    )
    out = "\n".join(_golden_lines("xray-system1.en-norm-exact.out.gz")) + "\n"
    assert out.endswith("\n" + block)
    assert "Test words:             61600\n" in block


def test_system_block_rows_per_weight_and_character_labels() -> None:
    config = MeteorConfig(modules=("exact", "stem"), weights=(1.0, 0.6))
    stats = MeteorStats(9, 8, 3, 2, ((2, 2, 1, 1), (1, 2, 0, 0)), 2, 4, 5)
    block = system_block(
        stats, score_from_stats(stats, config), n_weights=2, char_based=True, header="[s][x] "
    )
    lines = block.split("\n")
    assert lines[:4] == [
        "[s][x] ",
        "",
        "           Test Matches                  Reference Matches",
        "Stage      Content  Function    Total    Content  Function    Total",
    ]
    assert lines[4] == "1                2         1        3          2         1        3"
    assert lines[5] == "2                1         0        1          2         0        2"
    assert lines[6] == "Total            3         1        4          4         1        5"
    assert lines[8] == "Test chars:             9"
    assert lines[9] == "Reference chars:        8"
    assert lines[10] == "Chunks:                 2"
    assert block.endswith("\n")
    assert lines[-2].startswith("Final score:            ")


def test_alignment_record_in_reference_order() -> None:
    config = MeteorConfig(modules=("exact", "stem"), weights=(1.0, 0.6))
    alignment = Alignment(
        hyp_tokens=("cats", "the", "sat"),
        ref_tokens=("the", "cat", "sat", ""),
        matches=(Match(2, 1, 2, 1, 0), Match(0, 1, 1, 1, 0), Match(1, 1, 0, 1, 1)),
        modules=("exact", "stem"),
        chunks=2,
    )
    c = score_from_stats(MeteorStats.from_row([0] * 23), config)
    record = alignment_record("set\tsys\tdoc\t3", c, alignment)
    assert record.split("\n") == [
        "Alignment\tset\tsys\tdoc\t3\tNaN\tNaN\tNaN\t0.0",
        "cats the sat",
        "the cat sat",  # trimmed, as the jar trims the joined tokens
        "Line2Start:Length\tLine1Start:Length\tModule\t\tScore",
        "0:1\t\t\t1:1\t\t\t0\t\t1.0",
        "1:1\t\t\t0:1\t\t\t1\t\t1.0",
        "2:1\t\t\t2:1\t\t\t0\t\t1.0",
        "",
        "",
    ]
    assert not math.isnan(score_from_stats(SEG1, config).score)
