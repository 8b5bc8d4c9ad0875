"""Significance and the output schema on the command line: intervals and p-values printed and
in every format, the JSON Schema of docs/schema validated against real outputs, structured
input (``--input``) equal to the same text given as files."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from meteor_eval.cli import main

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data" / "meteor15"
SCHEMA = ROOT / "docs" / "schema" / "results.schema.json"
N = 80

pytestmark = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is missing")


@pytest.fixture(scope="module")
def xray(xray_head: Callable[[int], dict[str, str]]) -> dict[str, str]:
    return xray_head(N)


@cache
def _validator() -> Any:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _record_validator() -> Any:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/record"})


def _out(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 0, capsys.readouterr().err
    return capsys.readouterr().out


FAST = ["--modules", "exact,stem"]


def test_compare_paired_bs_prints_intervals_and_p_values(
    xray: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: ``compare --bootstrap`` computed resamples and printed no interval."""
    argv = ["compare", "--hyp", xray["sys1"], xray["sys2"], "--ref", xray["ref"], *FAST]
    text = _out(capsys, [*argv, "--paired-bs", "--names", "A,B", "--n-samples", "200"])
    lines = text.splitlines()
    assert lines[0].split()[:4] == ["System", "METEOR", "(μ", "±"]
    assert lines[2].startswith("Baseline: A ")
    assert lines[3].startswith("B ") and "±" in lines[3]
    assert "test:paired-bs|n:200|seed:12345|ci:0.95" in lines
    doc = json.loads(_out(capsys, [*argv, "--paired-bs", "--n-samples", "200", "-f", "json"]))
    _validator().validate(doc)
    first, second = doc["systems"]
    for value in ("meteor", "bleu", "rouge1", "rouge2", "rougeL"):
        low, high = first[value]["ci"]
        assert low <= first[value]["mean"] <= high
        assert "p_value" not in first[value]
        assert 0 < second[value]["p_value"] <= 1
    assert doc["baseline"] == xray["sys1"]
    assert doc["test"]["name"] == "paired-bs" and doc["test"]["n_samples"] == 200


def test_same_seed_same_numbers_and_baseline_option(
    xray: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["bleu", "--hyp", xray["sys1"], xray["sys2"], "--ref", xray["ref"], "-f", "json"]
    one = json.loads(_out(capsys, [*argv, "--paired-ar", "--n-samples", "300", "--seed", "4"]))
    two = json.loads(_out(capsys, [*argv, "--paired-ar", "--n-samples", "300", "--seed", "4"]))
    assert one == two
    other = json.loads(
        _out(capsys, [*argv, "--paired-ar", "--n-samples", "300", "--baseline", xray["sys2"]])
    )
    assert other["baseline"] == xray["sys2"]
    assert "p_value" in other["systems"][0]["bleu"]
    assert "p_value" not in other["systems"][1]["bleu"]
    assert main([*argv, "--paired-bs", "--baseline", "nobody"]) == 2
    assert "--baseline: 'nobody'" in capsys.readouterr().err


def test_ci_for_one_system(xray: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(
        _out(
            capsys,
            ["score", "--hyp", xray["sys1"], "--ref", xray["ref"], *FAST, "--ci", "-f", "json"],
        )
    )
    _validator().validate(doc)
    meteor = doc["systems"][0]["meteor"]
    assert meteor["ci"][0] < meteor["score"] < meteor["ci"][1]
    assert doc["test"]["name"] == "bootstrap" and doc["baseline"] is None
    text = _out(capsys, ["score", "--hyp", xray["sys1"], "--ref", xray["ref"], *FAST, "--ci"])
    assert "±" in text.splitlines()[2] and "test:bootstrap|n:1000" in text


def test_paired_test_needs_two_systems(
    xray: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bleu", "--hyp", xray["sys1"], "--ref", xray["ref"], "--paired-bs"]) == 2
    assert "at least two --hyp" in capsys.readouterr().err


@pytest.mark.parametrize(
    "options",
    [
        ["--metrics", "meteor", *FAST],
        [
            "--metrics",
            "meteor,bleu,rouge",
            *FAST,
            "--types",
            "rouge1,rougeL,rougeW,rougeSU,rougeLsum",
        ],
        ["--metrics", "bleu", "--paired-ar", "--n-samples", "50"],
    ],
)
def test_every_format_is_the_schema(
    xray: dict[str, str], capsys: pytest.CaptureFixture[str], options: list[str]
) -> None:
    argv = ["compare", "--hyp", xray["sys1"], xray["sys2"], "--ref", xray["ref"], *options]
    doc = json.loads(_out(capsys, [*argv, "--sentence-level", "-f", "json"]))
    _validator().validate(doc)
    records = [json.loads(line) for line in _out(capsys, [*argv, "-f", "jsonl"]).splitlines()]
    validator = _record_validator()
    for record in records:
        validator.validate(record)
    assert len(records) == 2 * N
    assert [(r["system"], r["segment"]) for r in records[:2]] == [
        (xray["sys1"], 1),  # segment N is line N (docs/output-schema.md)
        (xray["sys1"], 2),
    ]
    segments = [s for system in doc["systems"] for s in system["segments"]]
    assert [{k: v for k, v in r.items() if k != "system"} for r in records] == segments
    for fmt, delimiter in (("tsv", "\t"), ("csv", ",")):
        text = _out(capsys, [*argv, "--sentence-level", "-f", fmt])
        rows = list(csv.DictReader(io.StringIO(text), delimiter=delimiter))
        assert len(rows) == 2 * N
        value = next(iter(k for k in doc["systems"][0] if k not in ("name", "segments")))
        for row, seg in zip(rows, segments, strict=True):
            assert float(row[value]) == seg[value]["score"]
        system_rows = list(
            csv.DictReader(io.StringIO(_out(capsys, [*argv, "-f", fmt])), delimiter=delimiter)
        )
        assert [r["system"] for r in system_rows] == [xray["sys1"], xray["sys2"]]
        assert float(system_rows[1][value]) == doc["systems"][1][value]["score"]


def _table_inputs(xray: dict[str, str], folder: Path) -> dict[str, Path]:
    columns = {
        name: Path(xray[name]).read_text(encoding="utf-8").splitlines()
        for name in ("sys1", "sys2", "ref")
    }
    records = [
        {"sys1": a, "sys2": b, "ref": r}
        for a, b, r in zip(columns["sys1"], columns["sys2"], columns["ref"], strict=True)
    ]
    paths = {}
    jsonl = folder / "data.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    paths["jsonl"] = jsonl
    path = folder / "data.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, ["sys1", "sys2", "ref"])
        writer.writeheader()
        writer.writerows(records)
    paths["csv"] = path
    # TSV has no quoting (IANA text/tab-separated-values): fields as they are.
    path = folder / "data.tsv"
    lines = ["sys1\tsys2\tref", *("\t".join(r.values()) for r in records)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    paths["tsv"] = path
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        return paths
    path = folder / "data.parquet"
    pq.write_table(pa.Table.from_pylist(records), path)
    paths["parquet"] = path
    return paths


def test_input_tables_equal_the_files(
    xray: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = ["--hyp", xray["sys1"], xray["sys2"], "--ref", xray["ref"], "--names", "sys1,sys2"]
    common = ["compare", *FAST, "-f", "json"]
    want = json.loads(_out(capsys, [*common, *files]))
    for fmt, path in _table_inputs(xray, tmp_path).items():
        table = ["--input", str(path), "--hyp-field", "sys1", "--hyp-field", "sys2"]
        got = json.loads(_out(capsys, [*common, *table, "--ref-field", "ref"]))
        assert got == want, fmt


def test_bad_table_rows_name_file_line_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"mt": "a b", "ref": "a b"}\n{"mt": 3, "ref": "a"}\n', encoding="utf-8")
    argv = ["bleu", "--input", str(path), "--hyp-field", "mt", "--ref-field", "ref"]
    assert main(argv) == 1
    assert f"{path}: line 2: field 'mt' is a int, not text" in capsys.readouterr().err
    path.write_text('{"mt": "a b", "ref": "a b"}\n{"mt": "a", "refs": "a"}\n', encoding="utf-8")
    assert main(argv) == 1
    assert f"{path}: line 2: no field 'ref'" in capsys.readouterr().err
    csv_path = tmp_path / "bad.csv"
    csv_path.write_text('mt,ref\n"a b",a b\n"x"\n', encoding="utf-8")
    assert main(["bleu", "--input", str(csv_path), "--hyp-field", "mt", "--ref-field", "ref"]) == 1
    assert f"{csv_path}: line 3: 1 fields but the header has 2" in capsys.readouterr().err


def test_from_stats_compares_with_significance(
    xray: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stats = [str(tmp_path / "a.stats"), str(tmp_path / "b.stats")]
    argv = ["score", "--hyp", xray["sys1"], xray["sys2"], "--ref", xray["ref"], *FAST]
    direct = json.loads(_out(capsys, [*argv, "--paired-bs", "--stats", *stats, "-f", "json"]))
    again = json.loads(
        _out(capsys, ["compare", "--from-stats", *stats, "--paired-bs", "-f", "json"])
    )
    assert again["systems"][1]["meteor"] == direct["systems"][1]["meteor"]
    assert again["signature"] == direct["signature"]


@pytest.mark.parametrize("fmt", ["jsonl", "tsv", "csv"])
@pytest.mark.parametrize(
    ("command", "options"),
    [("score", FAST), ("bleu", []), ("rouge", ["--types", "rouge1,rougeL,rougeSU"])],
)
def test_several_systems_equal_each_alone_in_every_format(
    xray: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    fmt: str,
    command: str,
    options: list[str],
) -> None:
    common = [command, "--ref", xray["ref"], *options, "--sentence-level", "-f", fmt]
    both = _out(capsys, [*common, "--hyp", xray["sys1"], xray["sys2"]]).splitlines()
    one = _out(capsys, [*common, "--hyp", xray["sys1"]]).splitlines()
    two = _out(capsys, [*common, "--hyp", xray["sys2"]]).splitlines()
    if fmt == "jsonl":
        assert both == one + two
    else:
        assert both == one + two[1:]  # one header line
    assert len(both) == 2 * N + (fmt != "jsonl")
