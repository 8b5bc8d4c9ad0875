"""Reading judgements (tables and plain files) and parameter files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meteor_eval.errors import ConfigError, InputError
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.tuning.data import read_judgements_files, read_judgements_table, statistics
from meteor_eval.tuning.paramfile import params_document, read_params, write_params
from meteor_eval.tuning.rescore import TuningParams, segment_scores

PARAMS = TuningParams(0.5, 1.0, 0.4, 0.7, (1.0, 0.5, 0.25))
MODULES = ["exact", "stem", "synonym"]


def _jsonl(path: Path, records: list[dict[str, object]]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def _judgement(
    hyp: str, ref: str | list[str], human: object, seg_id: int, *, system: str = "s", lp: str = "x"
) -> dict[str, object]:
    """One record of a judgements table, in the default field names."""
    return {"hyp": hyp, "ref": ref, "human": human, "system": system, "lp": lp, "seg_id": seg_id}


def test_table_reads_default_fields_and_negates_ranks(tmp_path: Path) -> None:
    records = [
        _judgement("a b", ["a b", "b a"], 1, 4, lp="de-en"),
        _judgement("c", "d", 3, 4, system="t", lp="de-en"),
    ]
    path = _jsonl(tmp_path / "j.jsonl", records)
    data = read_judgements_table(path, kind="rank")
    assert data.references == [["a b", "b a"], ["d"]]
    assert data.human == [-1.0, -3.0]
    assert (data.systems, data.pairs, data.segments) == (["s", "t"], ["de-en"] * 2, ["4", "4"])


def test_table_with_renamed_fields_and_no_pair_or_segment(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "j.jsonl", [{"mt": "a", "gold": "a", "z": -0.5, "sys": "x"}] * 2)
    fields = {"hyp": "mt", "ref": "gold", "human": "z", "system": "sys", "lp": None}
    data = read_judgements_table(path, fields={**fields, "segment": None})
    assert data.pairs == ["all", "all"] and data.segments == ["1", "2"]
    assert data.human == [-0.5, -0.5]


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (
            {"hyp": "a", "ref": "a", "system": "s", "lp": "x", "seg_id": 1},
            "line 1: no field 'human'",
        ),
        (
            {"hyp": "a", "ref": "a", "human": "high", "system": "s", "lp": "x", "seg_id": 1},
            "'high', not a number",
        ),
        (
            {"hyp": "a", "ref": "a", "human": float("nan"), "system": "s", "lp": "x", "seg_id": 1},
            "not a finite number",
        ),
        (
            {"hyp": 3, "ref": "a", "human": 1, "system": "s", "lp": "x", "seg_id": 1},
            "field 'hyp' is 3, not text",
        ),
        (
            {"hyp": "a", "ref": [], "human": 1, "system": "s", "lp": "x", "seg_id": 1},
            "field 'ref' is not text",
        ),
    ],
)
def test_table_errors_name_file_line_and_field(
    tmp_path: Path, record: dict[str, object], message: str
) -> None:
    path = _jsonl(tmp_path / "j.jsonl", [record])
    with pytest.raises(InputError, match=message) as info:
        read_judgements_table(path)
    assert str(info.value).startswith(f"{path}: line 1: ")


def test_plain_files_one_pair_segments_by_line(tmp_path: Path) -> None:
    (tmp_path / "h").write_text("a b\nc\n", encoding="utf-8")
    (tmp_path / "r").write_text("a b\nd\n", encoding="utf-8")
    (tmp_path / "s").write_text("0.5\n-1\n", encoding="utf-8")
    data = read_judgements_files([tmp_path / "h"], [tmp_path / "r"], [tmp_path / "s"], pair="xx")
    assert data.human == [0.5, -1.0] and data.segments == ["1", "2"] and data.pairs == ["xx"] * 2
    (tmp_path / "s").write_text("0.5\nbad\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"s: line 2: field 'human score' is 'bad'"):
        read_judgements_files([tmp_path / "h"], [tmp_path / "r"], [tmp_path / "s"])
    (tmp_path / "s").write_text("0.5\n", encoding="utf-8")
    with pytest.raises(InputError, match="1 lines, but the references have 2"):
        read_judgements_files([tmp_path / "h"], [tmp_path / "r"], [tmp_path / "s"])


def test_statistics_keep_one_row_per_reference_and_rescore_like_the_scorer(tmp_path: Path) -> None:
    records = [
        _judgement("the cat sat", ["a cat sat", "the cat sat down"], 1, 1),
        _judgement("dogs bark loudly", "the dog barked", 0, 2),
    ]
    data = read_judgements_table(_jsonl(tmp_path / "j.jsonl", records))
    config = MeteorConfig.preset(modules=MODULES)
    rows, segments = statistics(data, config)
    assert rows.shape == (3, 23) and segments.tolist() == [0, 0, 1]
    tuned = PARAMS.apply(config)
    expected = [
        Meteor(tuned)
        .segment_score(r["hyp"], r["ref"] if isinstance(r["ref"], list) else [r["ref"]])
        .score
        for r in records
    ]  # type: ignore[arg-type]
    assert segment_scores(rows, PARAMS, segments=segments).tolist() == expected


def test_params_file_round_trip_and_id(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    write_params(
        path, params_document("my-da", "english", MODULES, PARAMS, {"objective": "kendall"})
    )
    loaded = read_params(path)
    assert (loaded.name, loaded.language, loaded.modules, loaded.params) == (
        "my-da",
        "english",
        tuple(MODULES),
        PARAMS,
    )
    assert loaded.id.startswith("my-da-") and len(loaded.id) == len("my-da-") + 8
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["alpha"] = 0.25
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert read_params(path).id != loaded.id  # other numbers, other id


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"alpha": 1.5}, "field 'alpha' must be a number in \\[0, 1\\]"),
        ({"beta": "x"}, "field 'beta' must be a number >= 0"),
        ({"weights": [1.0, 0.5]}, "field 'weights' must be a list of 3 numbers"),
        ({"weights": [1.0, 0.5, 2.0]}, "field 'weights\\[2\\]'"),
        ({"format": "other"}, "field 'format'"),
        ({"name": "a b"}, "field 'name'"),
        ({"gamma": None}, "field 'gamma'"),
    ],
)
def test_params_file_errors_name_the_field(
    tmp_path: Path, change: dict[str, object], message: str
) -> None:
    doc = params_document("p", "english", MODULES, PARAMS)
    doc.update(change)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ConfigError, match=message):
        read_params(path)


def test_params_file_missing_field_and_bad_json(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    doc = params_document("p", "english", MODULES, PARAMS)
    del doc["delta"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ConfigError, match="field 'delta' is missing"):
        read_params(path)
    path.write_text("{", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid JSON"):
        read_params(path)


def test_preset_takes_a_params_file_and_names_it_in_the_signature(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    write_params(path, params_document("my-da", "english", MODULES, PARAMS))
    config = MeteorConfig.preset(params=read_params(path))
    assert config.modules == tuple(MODULES) and config.weights == PARAMS.weights
    assert (config.alpha, config.beta, config.gamma, config.delta) == (0.5, 1.0, 0.4, 0.7)
    assert f"|params:{read_params(path).id}|" in Meteor(config).signature().format()
    with pytest.raises(ConfigError, match="sets alpha"):
        MeteorConfig.preset(params=read_params(path), alpha=0.3)
    with pytest.raises(ConfigError, match="for english, not german"):
        MeteorConfig.preset(params=read_params(path), language="de")
    # The configuration takes numbers: a path is read above it (no import of the tuning layer).
    with pytest.raises(TypeError, match=r"read_params\(path\)"):
        MeteorConfig.preset(params=path)  # type: ignore[arg-type]
