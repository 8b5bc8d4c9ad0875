"""``meteor_eval.compat.pycocoevalcap.Meteor``: the Java wrapper's protocol, in process.

Numbers: the per-line scores and the system score that ``meteor-1.5.jar`` printed for the xray
data (``tests/reference/golden/meteor15/xray-system1.en-norm-exact.out.gz``, command in that
folder's README): pycocoevalcap's corpus score is the EVAL of the pooled statistics, which is
the jar's system score, and each per-image score is the jar's segment score.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from meteor_eval.compat.pycocoevalcap import Meteor
from meteor_eval.metrics.meteor import MeteorConfig

GOLDEN = Path(__file__).resolve().parents[2] / "reference" / "golden" / "meteor15"


def exact() -> Meteor:
    return Meteor(MeteorConfig.preset("meteor15", normalization="norm", modules=("exact",)))


def test_method_name() -> None:
    assert Meteor().method() == "METEOR"


def test_score_line_strips_separators_and_double_spaces_from_the_hypothesis() -> None:
    line = Meteor._score_line("a  dog ||| runs   fast", ["ref one", "ref two"])
    # Each double space becomes one, once (as the wrapper's str.replace): three spaces -> two.
    assert line == "SCORE ||| ref one ||| ref two ||| a dog runs  fast"


def test_scores_come_back_in_gts_key_order() -> None:
    gts = {"b": ["the cat"], "a": ["a dog"]}
    res = {"a": ["the cat"], "b": ["the cat"]}
    score, scores = exact().compute_score(gts, res)
    assert scores == [1.0, 0.0]  # "b" first, as gts lists it
    assert 0.0 < score < 1.0


def test_xray_scores_equal_the_jar(meteor_data: Path) -> None:
    hyps = (meteor_data / "xray-system1.hyp").read_text(encoding="utf-8").split("\n")[:2489]
    refs = (meteor_data / "xray-reference").read_text(encoding="utf-8").split("\n")[:2489]
    out = gzip.decompress((GOLDEN / "xray-system1.en-norm-exact.out.gz").read_bytes()).decode()
    segment_scores = [
        float(line.split("\t")[1]) for line in out.splitlines() if line.startswith("Segment ")
    ]
    final = float(out.rsplit("Final score:", 1)[1])
    score, scores = exact().compute_score(
        {k: [r] for k, r in enumerate(refs)}, {k: [h] for k, h in enumerate(hyps)}
    )
    assert scores == segment_scores
    assert score == final == 0.2764217579934684


@pytest.mark.parametrize(
    ("gts", "res", "message"),
    [
        ({1: ["a"]}, {2: ["a"]}, "gts and res must have the same image ids"),
        ({1: ["a"]}, {1: ["a"], 2: ["b"]}, "gts and res must have the same image ids"),
        ({}, {}, "no image to score"),
        ({"x": ["a"]}, {"x": []}, "res['x'] must hold exactly one caption, got 0"),
        ({7: ["a"]}, {7: ["a", "b"]}, "res[7] must hold exactly one caption, got 2"),
    ],
)
def test_the_wrappers_asserts_are_value_errors(
    gts: dict[object, list[str]], res: dict[object, list[str]], message: str
) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        exact().compute_score(gts, res)


def test_default_settings_are_the_wrappers_command_line() -> None:
    # java -jar meteor-1.5.jar - - -stdio -l en -norm
    default = Meteor()._config
    assert default == MeteorConfig.preset("meteor15", language="en", normalization="norm")
    assert default.modules == ("exact", "stem", "synonym", "paraphrase")
