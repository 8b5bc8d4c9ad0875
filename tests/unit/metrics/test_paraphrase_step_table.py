"""The paraphrase stage's table of trie steps searched before grows with use.

A scorer's walk cache starts with a small table of (node, word) -> child steps and moves to the
large one (4 MiB) after ``HOP_GROW_AFTER`` (4,096) pairs, taking the small table's steps along
(``_ext/paraphrase.c``), so that a job of a few thousand segments does not carry the large
table. The table only remembers what the search found, so every row must be the same on either
side of the move: the rows of pairs scored after it (answered in part by the steps carried over
from the small table) equal those of a fresh scorer, whose table is still the small one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.metrics.meteor import fast as fast_module

GROW_AFTER = 4_096

pytestmark = pytest.mark.skipif(
    fast_module._WALK_CACHE is None, reason="the compiled paraphrase stage is not built"
)


def test_rows_are_the_same_after_the_step_table_grows(meteor_data: Path) -> None:
    ref = (meteor_data / "xray-reference").read_text(encoding="utf-8").splitlines()
    hyps: list[str] = []
    refs: list[list[str]] = []
    for system in ("xray-system1.hyp", "xray-system2.hyp"):
        lines = (meteor_data / system).read_text(encoding="utf-8").splitlines()
        hyps += lines
        refs += [[r] for r in ref[: len(lines)]]
    rounds = GROW_AFTER // len(hyps) + 2  # the last two copies are scored after the move
    config = MeteorConfig.preset("meteor15", normalization="norm")
    fresh = Meteor(config).corpus_rows(hyps, refs)
    rows = Meteor(config).corpus_rows(hyps * rounds, refs * rounds)
    assert len(rows) == len(hyps) * rounds > GROW_AFTER + len(hyps)
    for k in range(rounds):
        assert rows[k * len(hyps) : (k + 1) * len(hyps)] == fresh, f"copy {k}"
    assert any(row[0] for row in fresh)  # real statistics, not empty rows
