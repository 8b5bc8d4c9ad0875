"""``meteor-eval train`` end to end on a small committed table, ``score --params`` and
``--task da``.

``tests/data/train_tiny.jsonl`` (``scripts/make_train_fixture.py``) holds the example texts with
made-up human scores: METEOR scores under alpha 0.5, beta 1, gamma 0.5, delta 0.5, weights
1 0.5 0 (exact, stem, synonym), so the best parameters are known.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meteor_eval.cli import main
from meteor_eval.metrics.meteor import Meteor, MeteorConfig

ROOT = Path(__file__).resolve().parents[2]
TINY = str(ROOT / "tests" / "data" / "train_tiny.jsonl")
MODULES = ["--modules", "exact,stem,synonym"]
# A 3 x 3 x 3 x 3 x 3 grid around the made-up optimum.
GRID = [
    "--optimizer", "grid",
    "--initial", "0.4 0.9 0.4 0.4 1 0.4 0",
    "--final", "0.6 1.1 0.6 0.6 1 0.6 0",
    "--step", "0.1 0.1 0.1 0.1 0 0.1 0",
]  # fmt: skip


def _train(tmp_path: Path, *extra: str) -> tuple[int, dict[str, object]]:
    out = tmp_path / "p.json"
    status = main(["train", "--input", TINY, *MODULES, "--out", str(out), *extra])
    return status, json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}


def test_grid_search_finds_the_parameters_behind_the_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, doc = _train(tmp_path, *GRID, "--name", "tiny")
    assert status == 0
    assert (doc["alpha"], doc["beta"], doc["gamma"], doc["delta"]) == (0.5, 1.0, 0.5, 0.5)
    assert doc["weights"] == [1.0, 0.5, 0.0] and doc["modules"] == MODULES[1].split(",")
    training = doc["training"]
    assert isinstance(training, dict)
    # Below 1 only because the made-up scores are rounded to 4 decimals (a few tie).
    assert training["evaluations"] == 3**5 and training["value"] == pytest.approx(0.9977, abs=5e-5)
    assert training["data"] == {"judgements": 90, "pairs": ["xx-en", "yy-en"], "systems": 6}
    out = capsys.readouterr().out
    assert (
        "judgements 90, pairs 2, systems 6; objective kendall; grid search, 243 evaluations" in out
    )
    assert "tuned    objective 0.9977" in out
    assert "alpha 0.5  beta 1  gamma 0.5  delta 0.5  weights 1 0.5 0" in out


def test_coordinate_search_with_cross_validation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    narrow = [
        "--initial",
        "0 0 0 0 1 0 0",
        "--final",
        "1 2 1 1 1 1 0",
        "--step",
        "0.25 0.5 0.25 0.25 0 0.25 0",
    ]
    status, doc = _train(tmp_path, "--cv", "lp", "--restarts", "1", "--seed", "3", *narrow)
    assert status == 0
    training = doc["training"]
    assert isinstance(training, dict)
    folds = training["cv"]
    assert [f["held_out"] for f in folds] == ["xx-en", "yy-en"]
    assert training["value"] > training["default_value"]
    for fold in folds:  # tuned on one pair, better on the other than the defaults
        assert fold["tuned"]["kendall"] > fold["default"]["kendall"]
    assert "held-out pair, tuned: kendall" in capsys.readouterr().out
    again_status, again = _train(tmp_path, "--cv", "lp", "--restarts", "1", "--seed", "3", *narrow)
    assert again_status == 0 and again == doc  # deterministic


def test_score_params_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _ = _train(tmp_path, *GRID, "--name", "tiny")
    assert status == 0
    capsys.readouterr()
    hyp = tmp_path / "h.txt"
    ref = tmp_path / "r.txt"
    hyp.write_text("the cats sat on a mat\n", encoding="utf-8")
    ref.write_text("the cat sat on the mat\n", encoding="utf-8")
    params = str(tmp_path / "p.json")
    assert (
        main(["score", "--hyp", str(hyp), "--ref", str(ref), "--params", params, "-f", "json"]) == 0
    )
    result = json.loads(capsys.readouterr().out)
    config = MeteorConfig.preset(
        modules=MODULES[1].split(","),
        weights=(1.0, 0.5, 0.0),
        alpha=0.5,
        beta=1.0,
        gamma=0.5,
        delta=0.5,
    )
    expected = Meteor(config).segment_score("the cats sat on a mat", ["the cat sat on the mat"])
    assert result["systems"][0]["meteor"]["score"] == expected.score
    assert "|params:tiny-" in result["signature"]["meteor"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--objective", "bleu"], "--objective: unknown measure 'bleu'"),
        (["--restarts", "-1"], "--restarts: -1 is negative"),
        (["--jobs", "-2"], "--jobs: "),
        (["--margin", "-1"], "--margin: "),
        (["--step", "0.1 0.1"], "--step: 2 numbers; give 7"),
        (["--optimizer", "grid"], "--optimizer grid: the grid has 167,448,141 points"),
        (["--optimizer", "grid", "--restarts", "2", *GRID[2:]], "--restarts: only with"),
        (["--hyp", "x.txt"], "--input: cannot be combined with --hyp"),
        (["--name", "a b"], "--name: 'a b'"),
        (["--lang", "de"], "--modules: "),
    ],
)
def test_options_are_checked_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    out = tmp_path / "p.json"
    assert main(["train", "--input", TINY, *MODULES, "--out", str(out), *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err
    assert not out.exists()


def test_a_language_pair_field_no_judgement_has_is_a_data_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found only once the table is read: exit status 1, not a usage error."""
    out = tmp_path / "p.json"
    argv = ["train", "--input", TINY, *MODULES, "--out", str(out), "--cv", "lp"]
    assert main([*argv, "--lp-field", "nothing"]) == 1
    assert "no field 'nothing'" in capsys.readouterr().err


def test_file_inputs_and_their_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "h").write_text("a cat\nthe dog barked\nred\n", encoding="utf-8")
    (tmp_path / "r").write_text("the cat\nthe dog barked\nblue\n", encoding="utf-8")
    (tmp_path / "s").write_text("0.2\n1.5\n-1\n", encoding="utf-8")
    base = ["train", "--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r"), *MODULES]
    out = str(tmp_path / "p.json")
    assert main([*base, "--human", str(tmp_path / "s"), "--out", out, *GRID]) == 0
    assert "judgements 3, pairs 1, systems 1" in capsys.readouterr().out
    (tmp_path / "h2").write_text("the cat\ndogs barked\nblue\n", encoding="utf-8")
    (tmp_path / "s2").write_text("1.0\n0.3\n0.9\n", encoding="utf-8")
    two = [*base, "--hyp", str(tmp_path / "h2"), "--human", str(tmp_path / "s")]
    assert main([*two, "--human", str(tmp_path / "s2"), "--out", out, *GRID]) == 0
    assert "judgements 6, pairs 1, systems 2" in capsys.readouterr().out
    assert main([*base, "--out", out]) == 2
    assert "--hyp, --ref and --human (or --input) are required" in capsys.readouterr().err
    assert main([*base, "--human", str(tmp_path / "s"), "--hyp-field", "x", "--out", out]) == 2
    assert "--hyp-field: only with --input" in capsys.readouterr().err
    (tmp_path / "s").write_text("0.2\nn/a\n-1\n", encoding="utf-8")
    assert main([*base, "--human", str(tmp_path / "s"), "--out", out, *GRID]) == 1
    assert "s: line 2: field 'human score' is 'n/a', not a number" in capsys.readouterr().err


def test_score_params_refuses_bad_files_and_clashing_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp = tmp_path / "h.txt"
    hyp.write_text("a\n", encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "meteor-eval-params", "version": 1}), encoding="utf-8")
    argv = ["score", "--hyp", str(hyp), "--ref", str(hyp), "--params", str(bad)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == f"meteor-eval score: error: --params: {bad}: field 'name' is missing\n"
    assert _train(tmp_path, *GRID)[0] == 0
    capsys.readouterr()
    good = str(tmp_path / "p.json")
    assert (
        main(["score", "--hyp", str(hyp), "--ref", str(hyp), "--params", good, "--alpha", "0.2"])
        == 2
    )
    assert (
        "--params: the file sets the modules, weights and parameters; --alpha"
        in capsys.readouterr().err
    )
    assert (
        main(["score", "--hyp", str(hyp), "--ref", str(hyp), "--params", good, "--lang", "de"]) == 2
    )
    assert "the parameters are for english, not german" in capsys.readouterr().err
    folder = str(tmp_path / "resources")
    assert (
        main(
            ["score", "--hyp", str(hyp), "--ref", str(hyp), "--params", good, "--resources", folder]
        )
        == 2
    )
    assert "--params: cannot be combined with --resources" in capsys.readouterr().err


def test_from_stats_rescored_with_params_equals_scoring_the_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _train(tmp_path, *GRID, "--name", "tiny")[0] == 0
    hyp = tmp_path / "h.txt"
    ref = tmp_path / "r.txt"
    hyp.write_text("the cats sat on a mat\nbig dogs bark\n", encoding="utf-8")
    ref.write_text("the cat sat on the mat\nlarge dogs barked\n", encoding="utf-8")
    stats = str(tmp_path / "s.stats")
    text = ["--hyp", str(hyp), "--ref", str(ref), *MODULES]
    assert main(["score", *text, "--stats", stats]) == 0
    params = ["--params", str(tmp_path / "p.json"), "-f", "json"]
    capsys.readouterr()
    assert main(["score", *text[:4], *params]) == 0
    direct = json.loads(capsys.readouterr().out)
    assert main(["score", "--from-stats", stats, *params]) == 0
    rescored = json.loads(capsys.readouterr().out)
    assert rescored["systems"][0]["meteor"]["score"] == direct["systems"][0]["meteor"]["score"]
    assert rescored["signature"] == direct["signature"]
