"""The report's data model and figures: compact, exact, safe inside a page."""

from __future__ import annotations

import json
import re

import pytest

from meteor_eval.errors import InputError
from meteor_eval.metrics.meteor import Meteor
from meteor_eval.report.model import NUMBER_FIELDS, json_for_script, segment_model


@pytest.fixture(scope="module")
def meteor() -> Meteor:
    return Meteor()


def test_model_keeps_each_systems_kept_reference(meteor: Meteor) -> None:
    refs = ["a dog barked loudly", "the cat sat on the mat"]
    a = meteor.segment_score("the cat sat on a mat", refs, alignment=True)
    b = meteor.segment_score("a dog barked", refs, alignment=True)
    model = segment_model({"A": [a], "B": [b]}, meteor.config.modules)
    assert [s["reference"] for s in model["systems"]] == [[1], [0]]
    assert model["references"] == [
        [["a", "dog", "barked", "loudly"], ["the", "cat", "sat", "on", "the", "mat"]]
    ]
    assert model["systems"][1]["matches"] == [[0, 1, 0, 1, 0, 1, 1, 1, 1, 0, 2, 1, 2, 1, 0]]
    assert model["systems"][0]["score"] == [a.score]
    assert model["systems"][0]["ref_length"] == [6]
    assert set(NUMBER_FIELDS) <= set(model["systems"][0])


def test_reference_kept_by_no_system_is_null(meteor: Meteor) -> None:
    seg = meteor.segment_score("x y", ["p q", "x y"], alignment=True)
    model = segment_model({"A": [seg]}, meteor.config.modules)
    assert model["references"] == [[None, ["x", "y"]]]


def test_segments_without_alignment_have_empty_tokens(meteor: Meteor) -> None:
    seg = meteor.segment_score("the cat", ["the cat"])
    model = segment_model({"A": [seg]}, meteor.config.modules)
    assert model["systems"][0]["hypothesis"] == [[]]
    assert model["systems"][0]["score"] == [seg.score]


def test_systems_must_have_the_same_segments(meteor: Meteor) -> None:
    seg = meteor.segment_score("a", ["a"], alignment=True)
    with pytest.raises(InputError, match=r"A: 1, B: 2"):
        segment_model({"A": [seg], "B": [seg, seg]}, meteor.config.modules)
    with pytest.raises(InputError, match="at least one system"):
        segment_model({}, meteor.config.modules)


def test_json_for_script_cannot_close_the_element() -> None:
    text = json_for_script({"t": "</script><!-- & -->", "u": "é"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"t": "</script><!-- & -->", "u": "é"}
    with pytest.raises(ValueError, match="Out of range float"):
        json_for_script({"x": float("nan")})


def test_inline_svg_prefixes_every_id() -> None:
    pytest.importorskip("matplotlib")
    from meteor_eval.report.figures import figures, inline_svg

    model = {"systems": [{"name": n, **{f: [0.1, 0.5, 0.9] for f in NUMBER_FIELDS}} for n in "AB"]}
    figs = figures(model)
    assert list(figs) == [
        "hist-score",
        "hist-precision",
        "hist-recall",
        "hist-penalty",
        "scatter-1",
    ]
    svg = inline_svg(figs["hist-score"], "hist-score")
    assert svg.startswith("<svg")
    ids = re.findall(r'\bid="([^"]+)"', svg)
    assert ids and all(i.startswith("hist-score-") for i in ids)
    assert inline_svg(figs["hist-score"], "hist-score") == svg  # reproducible
