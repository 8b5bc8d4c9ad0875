"""Long natural documents (consecutive xray sentences joined on one line) score as the official
jar scores them, and are not refused at the default work budgets: goldens made by
``scripts/make_longdoc_golden.py`` with ``java -Xmx8g -jar meteor-1.5.jar HYP REF -l en -norm``
(the jar needs the larger heap: its default one runs out near 8,000 tokens)."""

from __future__ import annotations

import importlib.util
import json
from functools import cache
from pathlib import Path

import pytest

from meteor_eval import Meteor, MeteorConfig

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = json.loads((ROOT / "reference" / "golden" / "longdoc" / "meteor15.json").read_text())
DATA = ROOT.parents[1] / "shared" / "data" / "meteor15"


def document(name: str, n_lines: int) -> str:
    """As the golden script builds it: the first lines joined with single spaces."""
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()[:n_lines]
    return " ".join(line.strip() for line in lines)


@cache
def scorer() -> Meteor:
    return Meteor(MeteorConfig.preset("meteor15", normalization="norm"))


@pytest.mark.skipif(not DATA.is_dir(), reason="the shared xray data is not present")
@pytest.mark.parametrize(
    "case",
    [pytest.param(c, id=f"{c['hyp_words']}-words") for c in GOLDEN["cases"]],
)
def test_long_document_equals_the_jar(case: dict[str, object]) -> None:
    if importlib.util.find_spec("pycocoevalcap") is None:
        pytest.skip("the English paraphrase table (pycocoevalcap) is not installed")
    n = int(str(case["lines"]))
    hyp, ref = document("xray-system1.hyp", n), document("xray-reference", n)
    assert len(hyp.split()) == case["hyp_words"] and len(ref.split()) == case["ref_words"]
    assert scorer().segment_score(hyp, [ref]).score == float(str(case["segment_score"]))
