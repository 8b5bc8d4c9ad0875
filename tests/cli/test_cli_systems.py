"""Several systems per call, ``compare`` = the metric's own command, statistics files that carry
their configuration (the systems-comparison defects, each with a test that failed before)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from meteor_eval.cli import main

N = 120  # segments of the xray data used here (enough to differ, quick to score)


@pytest.fixture(scope="module")
def xray(xray_head: Callable[[int], dict[str, str]]) -> dict[str, str]:
    """The first ``N`` segments of the two xray systems, its reference and a second one."""
    out = xray_head(N)
    # A second reference: the second system's output, so that nrefs is 2 (only the first
    # system is scored against both).
    out["ref2"] = out["sys2"]
    return out


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, object]:
    assert main(argv) == 0
    payload: dict[str, object] = json.loads(capsys.readouterr().out)
    return payload


METEOR_FAST = ["--modules", "exact,stem,synonym"]


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("score", [*METEOR_FAST, "--norm"]),
        ("score", ["--flavour", "nltk"]),
        ("bleu", []),
        ("bleu", ["--tokenize", "char", "--smooth-method", "floor"]),
        ("rouge", ["--types", "rouge1,rougeL,rougeSU"]),
        ("compare", [*METEOR_FAST, "--types", "rouge2"]),
    ],
)
def test_each_system_scores_as_alone(
    xray: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    command: str,
    options: list[str],
) -> None:
    refs = ["--ref", xray["ref"]]
    both = _json(
        capsys,
        [command, "--hyp", xray["sys1"], "--hyp", xray["sys2"], *refs, *options, "-f", "json"],
    )
    one = _json(capsys, [command, "--hyp", xray["sys1"], *refs, *options, "-f", "json"])
    two = _json(capsys, [command, "--hyp", xray["sys2"], *refs, *options, "-f", "json"])
    systems = both["systems"]
    assert isinstance(systems, list)
    assert [s["name"] for s in systems] == [xray["sys1"], xray["sys2"]]
    assert systems == [*one["systems"], *two["systems"]]  # type: ignore[misc]
    assert both["signature"] == one["signature"]
    assert systems[0] != systems[1]


def test_hyp_takes_several_files_at_once_and_names(
    xray: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["bleu", "--hyp", xray["sys1"], xray["sys2"], "--ref", xray["ref"], "-f", "json"]
    payload = _json(capsys, [*argv, "--names", "A,B"])
    assert [s["name"] for s in payload["systems"]] == ["A", "B"]  # type: ignore[union-attr]


def test_names_of_another_length_and_duplicates_are_refused(
    xray: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["bleu", "--hyp", xray["sys1"], xray["sys2"], "--ref", xray["ref"]]
    assert main([*argv, "--names", "A"]) == 2
    assert "--names gives 1 names for 2 systems" in capsys.readouterr().err
    assert main(["bleu", "--hyp", xray["sys1"], xray["sys1"], "--ref", xray["ref"]]) == 2
    assert "two systems are named" in capsys.readouterr().err


def test_compare_meteor_equals_score_with_the_same_options(
    xray: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, ``compare`` scored METEOR with its own settings (three modules, no -norm) and
    refused ``--norm``."""
    for options in ([*METEOR_FAST], [*METEOR_FAST, "--norm", "--alpha", "0.8"]):
        io = ["--hyp", xray["sys1"], "--ref", xray["ref"], "--ref", xray["ref2"], "-f", "json"]
        score = _json(capsys, ["score", *io, *options])
        compare = _json(capsys, ["compare", *io, *options, "--metrics", "meteor"])
        assert compare == score
    bleu = _json(capsys, ["bleu", *io, "--tokenize", "intl"])
    compare = _json(capsys, ["compare", *io, "--tokenize", "intl", "--metrics", "bleu"])
    assert compare == bleu
    rouge = _json(capsys, ["rouge", *io, "--aggregate", "pooled", "--stemmer"])
    compare = _json(
        capsys, ["compare", *io, "--rouge-aggregate", "pooled", "--stemmer", "--metrics", "rouge"]
    )
    assert compare == rouge


def test_compare_sentence_level_gives_segments(
    xray: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, ``compare --sentence-level`` was accepted and ignored."""
    io = ["--hyp", xray["sys1"], "--ref", xray["ref"], "-f", "json", "--sentence-level"]
    payload = _json(capsys, ["compare", *io, *METEOR_FAST, "--metrics", "meteor,bleu"])
    segments = payload["systems"][0]["segments"]  # type: ignore[index]
    assert len(segments) == N
    assert set(segments[0]) == {"segment", "meteor", "bleu"} and segments[0]["segment"] == 1


def test_unknown_metric_is_a_usage_error(
    xray: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["compare", "--hyp", xray["sys1"], "--ref", xray["ref"], "--metrics", "meteor,chrf"]
    assert main(argv) == 2
    assert "chrf is not a metric; allowed: meteor, bleu, rouge" in capsys.readouterr().err


def _stats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], xray: dict[str, str], *options: str
) -> tuple[str, dict[str, object]]:
    path = str(tmp_path / "sys1.stats")
    io = ["--hyp", xray["sys1"], "--ref", xray["ref"], "--ref", xray["ref2"], "-f", "json"]
    direct = _json(capsys, ["score", *io, *options, "--stats", path])
    return path, direct


def test_from_stats_takes_the_configuration_from_the_file(
    xray: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, ``--from-stats`` rebuilt the signature from the flags (no -norm, nrefs:1)."""
    path, direct = _stats(tmp_path, capsys, xray, *METEOR_FAST, "--norm")
    again = _json(capsys, ["score", "--from-stats", path, "-f", "json"])
    assert again["signature"] == direct["signature"]
    assert "|norm:norm|" in again["signature"]["meteor"]  # type: ignore[index]
    assert "|nrefs:2|" in again["signature"]["meteor"]  # type: ignore[index]
    assert again["systems"][0]["meteor"] == direct["systems"][0]["meteor"]  # type: ignore[index]
    # A formula parameter may change: it re-scores the same statistics.
    changed = _json(capsys, ["score", "--from-stats", path, "-f", "json", "--beta", "1.0"])
    assert "|beta:1.0|" in changed["signature"]["meteor"]  # type: ignore[index]
    assert changed["systems"][0]["meteor"]["score"] != direct["systems"][0]["meteor"]["score"]  # type: ignore[index]


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--flavour", "nltk"], "flavour='meteor15'"),
        (["--lower"], "normalization='norm'"),
        (["--modules", "exact"], "modules="),
    ],
)
def test_from_stats_refuses_contradicting_options(
    xray: dict[str, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    option: list[str],
    message: str,
) -> None:
    """Before, statistics made by meteor15 were silently re-scored as nltk."""
    path, _ = _stats(tmp_path, capsys, xray, *METEOR_FAST, "--norm")
    assert main(["score", "--from-stats", path, *option]) == 1
    err = capsys.readouterr().err
    assert message in err
    assert "would need new statistics" in err


def test_from_stats_refuses_a_file_without_header(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "old.stats"
    path.write_text("6.0 6.0 2.0 2.0" + " 0.0" * 19 + "\n", encoding="utf-8")
    assert main(["score", "--from-stats", str(path)]) == 1
    assert "no '#meteor-eval-stats' header" in capsys.readouterr().err


def test_stats_of_several_systems_compare_without_the_text(
    xray: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = [str(tmp_path / "a.stats"), str(tmp_path / "b.stats")]
    io = ["--hyp", xray["sys1"], xray["sys2"], "--ref", xray["ref"], "-f", "json"]
    direct = _json(capsys, ["bleu", *io, "--stats", *paths])
    again = _json(capsys, ["compare", "--from-stats", *paths, "-f", "json"])
    assert again == direct
    wrong = _json(capsys, ["score", "--hyp", xray["sys1"], "--ref", xray["ref"], "-f", "json"])
    assert wrong  # a METEOR file and a BLEU file are not one comparison
    assert main(["bleu", *io, "--stats", paths[0]]) == 2
    assert "--stats: 1 file(s) for 2 systems" in capsys.readouterr().err
