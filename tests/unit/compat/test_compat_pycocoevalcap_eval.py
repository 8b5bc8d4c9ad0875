"""``COCOEvalCap`` and ``Spice`` of the pycocoevalcap drop-in.

Scores are checked against ``tests/data/captions/golden.json`` (pycocoevalcap 1.2, see
``scripts/make_caption_golden.py``); SPICE's availability checks and its jar call are checked
with stand-ins for Java and the jar.
"""

from __future__ import annotations

import json
import stat
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from meteor_eval.compat.pycocoevalcap import Meteor as TopLevelMeteor
from meteor_eval.compat.pycocoevalcap.eval import COCOEvalCap
from meteor_eval.compat.pycocoevalcap.meteor.meteor import Meteor
from meteor_eval.compat.pycocoevalcap.spice import spice as spice_module
from meteor_eval.compat.pycocoevalcap.spice.spice import Spice, SpiceUnavailableError
from meteor_eval.errors import ResourceError

DATA = Path(__file__).resolve().parents[2] / "data" / "captions"


class FakeCOCO:
    """The two members of pycocotools' ``COCO`` that the evaluation reads."""

    def __init__(self, anns: list[dict[str, Any]]) -> None:
        self.imgToAnns: dict[int, list[dict[str, Any]]] = {}
        for ann in anns:
            self.imgToAnns.setdefault(ann["image_id"], []).append(ann)

    def getImgIds(self) -> list[int]:
        return list(self.imgToAnns)


@pytest.fixture(scope="module")
def golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "golden.json").read_text(encoding="utf-8"))
    return data


def corpus(results_file: str) -> tuple[FakeCOCO, FakeCOCO]:
    annotations = json.loads((DATA / "captions.json").read_text(encoding="utf-8"))
    results = json.loads((DATA / results_file).read_text(encoding="utf-8"))
    return FakeCOCO(annotations["annotations"]), FakeCOCO(results)


@pytest.fixture
def no_spice(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A SPICE folder with the jar but without the CoreNLP models."""
    (tmp_path / "spice-1.0.jar").write_bytes(b"")
    monkeypatch.setenv("METEOR_EVAL_SPICE_DIR", str(tmp_path))
    return tmp_path


def test_the_old_import_still_works() -> None:
    assert TopLevelMeteor is Meteor


def test_evaluate_gives_pycocoevalcap_scores_and_leaves_spice_out_once(
    golden: dict[str, Any], no_spice: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    coco, results = corpus("results-1.json")
    evaluation = COCOEvalCap(coco, results)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluation.evaluate()
    messages = [str(w.message) for w in caught]
    assert len(messages) == 1
    assert "SPICE left out" in messages[0] and "CoreNLP 3.6.0 models" in messages[0]
    expected = golden["scores"]["results-1.json"]
    assert [evaluation.eval[f"Bleu_{k}"] for k in range(1, 5)] == expected["Bleu"]["corpus"]
    assert evaluation.eval["METEOR"] == expected["METEOR"]["corpus"]
    assert float(evaluation.eval["ROUGE_L"]) == expected["ROUGE_L"]["corpus"]
    assert float(evaluation.eval["CIDEr"]) == expected["CIDEr"]["corpus"]
    assert "SPICE" not in evaluation.eval
    ids = coco.getImgIds()
    assert [r["image_id"] for r in evaluation.evalImgs] == ids
    first = evaluation.imgToEval[ids[0]]
    assert first["METEOR"] == expected["METEOR"]["images"][0]
    assert first["Bleu_4"] == expected["Bleu"]["images"][3][0]
    assert float(first["CIDEr"]) == expected["CIDEr"]["images"][0]
    out = capsys.readouterr().out
    assert out.startswith("tokenization...\nsetting up scorers...\ncomputing Bleu score...\n")
    assert f"CIDEr: {expected['CIDEr']['corpus']:0.3f}" in out


def test_metrics_can_be_chosen(golden: dict[str, Any]) -> None:
    coco, results = corpus("results-2.json")
    evaluation = COCOEvalCap(coco, results, metrics=["CIDEr", "ROUGE_L"])
    evaluation.evaluate()
    assert sorted(evaluation.eval) == ["CIDEr", "ROUGE_L"]
    assert float(evaluation.eval["CIDEr"]) == golden["scores"]["results-2.json"]["CIDEr"]["corpus"]


def test_evaluating_a_subset_of_images(golden: dict[str, Any]) -> None:
    coco, results = corpus("results-1.json")
    evaluation = COCOEvalCap(coco, results, metrics=["BLEU"])
    evaluation.params["image_id"] = coco.getImgIds()[:10]
    evaluation.evaluate()
    assert len(evaluation.evalImgs) == 10


@pytest.mark.parametrize(
    ("metrics", "error"),
    [("BLEU", TypeError), (["BLEU", "SPIDEr"], ValueError), ([], ValueError)],
)
def test_bad_metric_choices_are_refused(metrics: Any, error: type[Exception]) -> None:
    coco, results = corpus("results-1.json")
    with pytest.raises(error, match="metric"):
        COCOEvalCap(coco, results, metrics=metrics)


def test_spice_asked_for_where_it_cannot_run_raises(no_spice: Path) -> None:
    coco, results = corpus("results-1.json")
    evaluation = COCOEvalCap(coco, results, metrics=["SPICE"])
    with pytest.raises(SpiceUnavailableError, match=r"CoreNLP 3\.6\.0 models"):
        evaluation.evaluate()


def test_spice_error_names_everything_missing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(spice_module.shutil, "which", lambda name: None)
    with pytest.raises(SpiceUnavailableError) as raised:
        Spice(tmp_path)
    message = str(raised.value)
    assert "no 'java' executable" in message and "no spice-1.0.jar in" in message
    assert isinstance(raised.value, ResourceError)


def test_spice_runs_the_jar_as_pycocoevalcap_does(tmp_path: Path) -> None:
    """A stand-in ``java`` records its arguments and writes the jar's output format."""
    (tmp_path / "spice-1.0.jar").write_bytes(b"")
    (tmp_path / "lib").mkdir()
    for name in spice_module.CORENLP_JARS:
        (tmp_path / "lib" / name).write_bytes(b"")
    java = tmp_path / "java"
    java.write_text(
        f"#!{sys.executable}\n"
        "import json, sys\n"
        "args = sys.argv[1:]\n"
        "data = json.load(open(args[3]))\n"
        "out = args[args.index('-out') + 1]\n"
        "json.dump([{'image_id': d['image_id'], 'scores': {'All': {'f': 0.5 if d['test'] else None,"
        " 'pr': 1, 'numImages': 1}}} for d in data], open(out, 'w'))\n"
        f"open({str(tmp_path / 'args')!r}, 'w').write(' '.join(args))\n",
        encoding="utf-8",
    )
    java.chmod(java.stat().st_mode | stat.S_IEXEC)
    scorer = Spice(tmp_path, java=str(java))
    score, scores = scorer.compute_score({2: ["a cat"], 1: ["a dog"]}, {2: ["a cat"], 1: [""]})
    assert score != score  # NaN: the image whose set is empty, as in the original
    assert scores[0]["All"]["f"] != scores[0]["All"]["f"] and scores[1]["All"]["f"] == 0.5
    assert scorer.method() == "SPICE"
    args = (tmp_path / "args").read_text(encoding="utf-8").split()
    assert args[:3] == ["-jar", "-Xmx8G", "spice-1.0.jar"]
    assert args[4::2] == ["-cache", "-out", "-subset"] and args[-1] == "-silent"
