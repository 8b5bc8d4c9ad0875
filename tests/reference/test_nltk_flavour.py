"""The ``nltk`` flavour of ``Meteor``/``MeteorConfig`` gives NLTK 3.10's numbers.

Golden values: ``golden/nltk`` (see its README: ``nltk.translate.meteor_score`` on the xray
pairs with whitespace tokens, and ``evaluate``-style single-sentence pairs tokenised by NLTK).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from meteor_eval.io import read_lines
from meteor_eval.metrics.meteor import Meteor, MeteorConfig


def test_xray_with_whitespace_tokens_equals_nltk(meteor_data: Path, golden_dir: Path) -> None:
    golden = json.loads(gzip.decompress((golden_dir / "nltk" / "xray.json.gz").read_bytes()))
    scorer = Meteor(MeteorConfig.preset("nltk", tokenizer="whitespace"))
    refs = read_lines(str(meteor_data / "xray-reference"))
    hyps = read_lines(str(meteor_data / "xray-system1.hyp"))
    result = scorer.corpus_score(hyps, [[r] for r in refs], segments=True)
    assert [s.score for s in result.segments] == golden["system1"]
    assert result.signature.get("aggregate") == "mean"


def test_nltk_tokenizer_equals_evaluate_pairs(golden_dir: Path) -> None:
    golden = json.loads(gzip.decompress((golden_dir / "nltk" / "evaluate.json.gz").read_bytes()))
    pairs = golden["pairs"]
    scorer = Meteor(MeteorConfig.preset("nltk"))
    for pair in pairs[:200]:
        score = scorer.segment_score(pair["prediction"], [pair["reference"]]).score
        assert score == pair["score"]
