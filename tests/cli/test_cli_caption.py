"""``meteor-eval caption``: pycocoevalcap's numbers from COCO files and tables, several systems
with intervals and paired tests, the results schema in every format, one-line errors.

Expected numbers: ``tests/data/captions/golden.json`` (pycocoevalcap 1.2, written by
``scripts/make_caption_golden.py``).
"""

from __future__ import annotations

import csv
import io
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from meteor_eval.cli import main

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "captions"
SCHEMA = ROOT / "docs" / "schema" / "results.schema.json"
ANNOTATIONS = str(DATA / "captions.json")
RESULTS = [str(DATA / "results-1.json"), str(DATA / "results-2.json")]


@cache
def golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "golden.json").read_text(encoding="utf-8"))
    return data


def _out(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def _validate(document: dict[str, Any]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(document)


def _check_scores(system: dict[str, Any], results_file: str) -> None:
    expected = golden()["scores"][results_file]
    assert [system[f"bleu_{k}"]["score"] for k in range(1, 5)] == expected["Bleu"]["corpus"]
    assert system["meteor"]["score"] == expected["METEOR"]["corpus"]
    assert system["rouge_l"]["score"] == expected["ROUGE_L"]["corpus"]
    assert system["cider"]["score"] == expected["CIDEr"]["corpus"]


def test_json_has_pycocoevalcap_scores_and_the_schema(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["caption", "--annotations", ANNOTATIONS, "--results", *RESULTS, "--format", "json"]
    document = json.loads(_out(capsys, argv))
    _validate(document)
    assert [s["name"] for s in document["systems"]] == RESULTS
    for system, results_file in zip(
        document["systems"], ["results-1.json", "results-2.json"], strict=True
    ):
        _check_scores(system, results_file)
    assert list(document["signature"]) == ["coco_bleu", "meteor", "coco_rouge", "cider"]


def test_sentence_level_gives_each_image_its_pycocoevalcap_score(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["caption", "--annotations", ANNOTATIONS, "--results", RESULTS[0]]
    document = json.loads(_out(capsys, [*argv, "--format", "json", "--sentence-level"]))
    _validate(document)
    segments = document["systems"][0]["segments"]
    expected = golden()["scores"]["results-1.json"]
    assert [s["meteor"]["score"] for s in segments] == expected["METEOR"]["images"]
    assert [s["bleu_4"]["score"] for s in segments] == expected["Bleu"]["images"][3]
    assert [s["rouge_l"]["score"] for s in segments] == expected["ROUGE_L"]["images"]
    assert [s["cider"]["score"] for s in segments] == expected["CIDEr"]["images"]


def test_paired_bootstrap_in_every_format(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["caption", "--annotations", ANNOTATIONS, "--results", *RESULTS]
    argv += ["--paired-bs", "--n-samples", "100", "--metrics", "bleu,cider"]
    document = json.loads(_out(capsys, [*argv, "--format", "json"]))
    _validate(document)
    assert document["baseline"] == RESULTS[0]
    second = document["systems"][1]
    assert 0 < second["cider"]["p_value"] <= 1 and len(second["bleu_4"]["ci"]) == 2
    text = _out(capsys, argv)
    assert text.splitlines()[0].split()[:3] == ["System", "bleu_1", "(μ"]
    assert "Baseline: " in text and "test:paired-bs|n:100" in text
    rows = list(csv.DictReader(io.StringIO(_out(capsys, [*argv, "--format", "csv"]))))
    assert [r["system"] for r in rows] == RESULTS
    assert float(rows[0]["cider"]) == golden()["scores"]["results-1.json"]["CIDEr"]["corpus"]
    assert "cider_p_value" in rows[1]


def test_a_table_with_a_list_of_references(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    annotations = json.loads(Path(ANNOTATIONS).read_text(encoding="utf-8"))
    results = json.loads(Path(RESULTS[0]).read_text(encoding="utf-8"))
    refs: dict[int, list[str]] = {}
    for ann in annotations["annotations"]:
        refs.setdefault(ann["image_id"], []).append(ann["caption"])
    caption_of = {r["image_id"]: r["caption"] for r in results}
    table = tmp_path / "captions.jsonl"
    with table.open("w", encoding="utf-8") as out:
        for image in annotations["images"]:
            record = {"id": image["id"], "mt": caption_of[image["id"]], "refs": refs[image["id"]]}
            out.write(json.dumps(record) + "\n")
    argv = ["caption", "--input", str(table), "--id-field", "id", "--hyp-field", "mt"]
    document = json.loads(_out(capsys, [*argv, "--ref-field", "refs", "--format", "json"]))
    _validate(document)
    _check_scores(document["systems"][0], "results-1.json")


def test_already_tokenized_captions(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    tokenized = golden()["tokenized"]["results-1.json"]
    table = tmp_path / "tok.jsonl"
    with table.open("w", encoding="utf-8") as out:
        for (image_id, refs), (_, hyp) in zip(tokenized["gts"], tokenized["res"], strict=True):
            out.write(json.dumps({"id": image_id, "mt": hyp, "refs": refs}) + "\n")
    argv = ["caption", "--input", str(table), "--hyp-field", "mt", "--ref-field", "refs"]
    document = json.loads(_out(capsys, [*argv, "--no-tokenize", "--format", "json"]))
    _check_scores(document["systems"][0], "results-1.json")


@pytest.mark.parametrize(
    ("extra", "status", "message"),
    [
        (["--metrics", "spice"], 2, "spice is not computed"),
        (["--metrics", "bleu,bleu"], 2, "bleu is given twice"),
        (["--metrics", "cider,meteorr"], 2, "--metrics: 'cider,meteorr' is invalid"),
        (["--names", "a"], 2, "--names gives 1 names for 2 systems"),
        (["--input", "x.jsonl"], 2, "--input cannot be combined"),
        (
            ["--paired-ar", "--n-samples", "10", "--baseline", "nope"],
            2,
            "--baseline: 'nope' is not one of",
        ),
    ],
)
def test_usage_errors(
    capsys: pytest.CaptureFixture[str], extra: list[str], status: int, message: str
) -> None:
    argv = ["caption", "--annotations", ANNOTATIONS, "--results", *RESULTS, *extra]
    assert main(argv) == status
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("results", "message"),
    [
        ([{"image_id": 1, "caption": "a cat"}], "image 1 has no reference caption"),
        ([{"image_id": 5, "caption": "a"}, {"image_id": 5, "caption": "b"}], "second caption"),
        ([{"image_id": 5}], "no field 'caption'"),
        ({"image_id": 5}, "expected a JSON list"),
    ],
)
def test_bad_results_are_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, results: Any, message: str
) -> None:
    annotations = tmp_path / "a.json"
    annotations.write_text(
        json.dumps({"annotations": [{"image_id": 5, "caption": "a dog"}]}), encoding="utf-8"
    )
    bad = tmp_path / "r.json"
    bad.write_text(json.dumps(results), encoding="utf-8")
    assert main(["caption", "--annotations", str(annotations), "--results", str(bad)]) == 1
    err = capsys.readouterr().err
    assert message in err and str(bad) in err


def test_systems_must_caption_the_same_images(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    annotations = tmp_path / "a.json"
    annotations.write_text(
        json.dumps(
            {"annotations": [{"image_id": 5, "caption": "a dog"}, {"image_id": 6, "caption": "x"}]}
        ),
        encoding="utf-8",
    )
    one = tmp_path / "one.json"
    one.write_text(json.dumps([{"image_id": 5, "caption": "a dog"}]), encoding="utf-8")
    two = tmp_path / "two.json"
    two.write_text(json.dumps([{"image_id": 6, "caption": "a dog"}]), encoding="utf-8")
    assert (
        main(["caption", "--annotations", str(annotations), "--results", str(one), str(two)]) == 1
    )
    assert "every system must caption the same images" in capsys.readouterr().err


def test_report_takes_coco_captions(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The X-Ray report of captions: every image's captions are its references; with --norm
    its METEOR is pycocoevalcap's."""
    pytest.importorskip("jinja2")
    pytest.importorskip("matplotlib")
    out = tmp_path / "report.html"
    argv = ["report", "--annotations", ANNOTATIONS, "--results", *RESULTS, "--norm"]
    assert main([*argv, "--n-samples", "40", "-o", str(out)]) == 0, capsys.readouterr().err
    page = out.read_text(encoding="utf-8")
    for results_file in ("results-1.json", "results-2.json"):
        assert repr(golden()["scores"][results_file]["METEOR"]["corpus"]) in page


def test_report_refuses_captions_with_line_files(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["report", "--annotations", ANNOTATIONS, "--results", RESULTS[0], "--hyp", "h.txt"]
    assert main(argv) == 2
    assert "are alternatives" in capsys.readouterr().err
