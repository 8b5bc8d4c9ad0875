"""Statistics files read back by ``--from-stats``: rows that no scoring run can write (edited or
damaged files) are refused with the file and line, never scored (a METEOR row with 12 matches
of a 9-token hypothesis scored 4.07, precision 9.16)."""

from __future__ import annotations

from pathlib import Path

import pytest

from meteor_eval.errors import InputError
from meteor_eval.metrics.bleu import Bleu
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.statsfile import read_stats, stats_header, write_row

HYPS = ["the cat sat on the mat", "a dog barked loudly at night", "nothing in common"]
REFS = [["the cat was on the mat"], ["the dog barked at night"], ["zebras graze"]]


def _write(path: Path, metric: Meteor | Bleu) -> list[list[int]]:
    rows = [list(map(int, row)) for row in metric.corpus_rows(HYPS, REFS)]
    with path.open("w", encoding="utf-8") as out:
        out.write(stats_header(metric, nrefs="1", segments=len(rows), system="s") + "\n")
        for row in rows:
            write_row(out, tuple(row))
    return rows


def _rewrite(path: Path, metric: Meteor | Bleu, rows: list[list[int]]) -> None:
    with path.open("w", encoding="utf-8") as out:
        out.write(stats_header(metric, nrefs="1", segments=len(rows), system="s") + "\n")
        for row in rows:
            write_row(out, tuple(row))


@pytest.mark.parametrize("characters", [False, True])
def test_rows_a_run_writes_are_read_back(tmp_path: Path, characters: bool) -> None:
    meteor = Meteor(MeteorConfig.preset("meteor15", normalization="norm", characters=characters))
    rows = _write(tmp_path / "m.stats", meteor)
    assert [list(r) for r in read_stats(str(tmp_path / "m.stats")).rows] == rows


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        (4, 12, "more hypothesis content matches than hypothesis content units"),  # stage 1
        (2, 99, "more hypothesis function words than hypothesis units"),
        (6, 5, "more hypothesis function-word matches than hypothesis function words"),
        (20, 50, "more chunks than matched words"),
        (21, 40, "more matched words than units"),
    ],
)
def test_impossible_meteor_rows_are_refused(
    tmp_path: Path, field: int, value: int, problem: str
) -> None:
    meteor = Meteor(MeteorConfig.preset("meteor15"))
    path = tmp_path / "m.stats"
    rows = _write(path, meteor)
    rows[1][field] = value
    _rewrite(path, meteor, rows)
    with pytest.raises(InputError, match=f"m.stats:3: impossible METEOR statistics: {problem}"):
        read_stats(str(path))


def test_negative_counts_are_refused(tmp_path: Path) -> None:
    meteor = Meteor(MeteorConfig.preset("meteor15"))
    path = tmp_path / "m.stats"
    rows = _write(path, meteor)
    rows[0][0] = -1
    _rewrite(path, meteor, rows)
    with pytest.raises(InputError, match=r"m\.stats:2: a statistics row holds no negative numbers"):
        read_stats(str(path))


def test_bleu_counts_above_totals_are_refused(tmp_path: Path) -> None:
    bleu = Bleu()
    path = tmp_path / "b.stats"
    rows = _write(path, bleu)
    assert read_stats(str(path)).rows  # as written: accepted
    rows[2][3] = rows[2][7] + 1  # counts_2 above totals_2
    _rewrite(path, bleu, rows)
    with pytest.raises(InputError, match=r"b.stats:4: impossible BLEU statistics: counts_2 \("):
        read_stats(str(path))
