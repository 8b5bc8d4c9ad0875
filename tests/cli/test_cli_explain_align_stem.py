"""``meteor-eval explain``, ``align``, ``stem`` and the jar classes' error paths, end to end."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from meteor_eval.cli import main
from meteor_eval.cli.jar_compat import run_jar


def _write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def _score_segments(capsys: pytest.CaptureFixture[str], hyp: str, ref: str, *opts: str) -> list:
    assert (
        main(["score", "--hyp", hyp, "--ref", ref, "--sentence-level", "-f", "jsonl", *opts]) == 0
    )
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return [row["meteor"]["score"] for row in rows if "segment" in row]


def _explain(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["explain", *args]) == 0
    return capsys.readouterr().out


def _final_score(text: str) -> float:
    last = text.rstrip("\n").split("\n")[-1]
    assert last.startswith("score: ")
    return float(last.removeprefix("score: "))


# -- explain ----------------------------------------------------------------------------------


def test_explain_plain_view_by_hand(capsys: pytest.CaptureFixture[str]) -> None:
    out = _explain(
        capsys,
        "--hyp-text",
        "the cats sat on the mat",
        "--ref-text",
        "the cat sat on a mat",
        "--modules",
        "exact,stem",
        "--color",
        "never",
    )
    lines = out.split("\n")
    assert lines[0] == "[words]E exact  [words]S stem  (unmarked: unmatched)"
    assert "hypothesis: [the]E [cats]S [sat]E [on]E the [mat]E" in lines
    assert "reference:  [the]E [cat]S [sat]E [on]E a [mat]E" in lines
    assert "  cats  ~  cat  stem  (hyp 1:1  ref 1:1)" in lines
    assert "  chunks: 2" in lines
    # 6 words a side; function words (English list): the, on, the / the, on, a.
    assert "  words                                         6           6" in lines
    assert "    function                                    3           3" in lines
    assert "  matched by exact (content+function)         2+2         2+2" in lines
    assert "  matched by stem (content+function)          1+0         1+0" in lines
    # Matched weight: 0.75 * (1*2 + 0.6*1) + 0.25 * (1*2) = 2.45 of 0.75*3 + 0.25*3 = 3 a side.
    assert "  P       = hyp matched / hyp length = 2.45 / 3 = 0.8166666667" in lines
    assert "  frag    = chunks / matches = 2 / ((5 + 5) / 2) = 0.4" in lines
    p = 2.45 / 3  # P = R, so Fmean = P
    assert _final_score(out) == pytest.approx(p * (1 - 0.6 * 0.4**0.2), rel=1e-15)


def test_explain_score_equals_score_command_on_xray(
    capsys: pytest.CaptureFixture[str], meteor_data: Path, tmp_path: Path
) -> None:
    # The first 12 xray segments: `explain` ends with the score `score` gives each segment.
    tmp_hyp = (meteor_data / "xray-system1.hyp").read_text(encoding="utf-8").split("\n")[:12]
    tmp_ref = (meteor_data / "xray-reference").read_text(encoding="utf-8").split("\n")[:12]
    h = _write(tmp_path / "h", "\n".join(tmp_hyp) + "\n")
    r = _write(tmp_path / "r", "\n".join(tmp_ref) + "\n")
    opts = ["--norm", "--modules", "exact,stem,synonym"]
    scores = _score_segments(capsys, h, r, *opts)
    for n in (1, 5, 12):
        text = _explain(capsys, "--hyp", h, "--ref", r, "--segment", str(n), *opts)
        assert _final_score(text) == scores[n - 1]
    text = _explain(capsys, "--hyp-text", tmp_hyp[4], "--ref-text", tmp_ref[4], *opts)
    assert _final_score(text) == scores[4]


@pytest.mark.parametrize(
    "opts",
    [
        ["--flavour", "paper2005"],
        ["--flavour", "nltk"],
        ["--characters"],
        ["--lower", "--beam", "2"],
    ],
)
def test_explain_score_equals_score_command_in_every_flavour(
    opts: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    h = _write(tmp_path / "h", "the cats were sitting on the mat .\nThe Dog barked\n")
    r = _write(tmp_path / "r", "the cat sat on the mat .\na dog was barking loudly\n")
    scores = _score_segments(capsys, h, r, *opts)
    for n in (1, 2):
        text = _explain(capsys, "--hyp", h, "--ref", r, "--segment", str(n), *opts)
        assert _final_score(text) == scores[n - 1]


def test_explain_best_reference_and_parameters(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    h = _write(tmp_path / "h", "a cat sat on the mat\n")
    r1 = _write(tmp_path / "r1", "dogs run fast\n")
    r2 = _write(tmp_path / "r2", "the cat sat on the mat\n")
    opts = ["--modules", "exact", "--alpha", "0.5", "--beta", "3", "--gamma", "0.5"]
    scores = _score_segments(capsys, h, r1, "--ref", r2, *opts)
    out = _explain(capsys, "--hyp", h, "--ref", r1, "--ref", r2, "--segment", "1", *opts)
    assert "reference 2 of 2 (best-scoring):" in out
    assert _final_score(out) == scores[0]
    assert "score (meteor15, alpha=0.5 beta=3 gamma=0.5):" in out


def test_explain_colours(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--hyp-text", "the cats", "--ref-text", "the cat", "--modules", "exact,stem"]
    coloured = _explain(capsys, *args, "--color", "always")
    assert "\033[32mthe\033[0m \033[33mcats\033[0m" in coloured
    assert "\033[" not in _explain(capsys, *args, "--color", "never")
    assert "\033[" not in _explain(capsys, *args)  # auto, and the captured stdout is no terminal


def test_explain_perfect_and_empty(capsys: pytest.CaptureFixture[str]) -> None:
    perfect = _explain(capsys, "--hyp-text", "a cat", "--ref-text", "a cat", "--color", "never")
    assert "  frag    = 0 (every word of both sides matched in one chunk: no fragmentation)" in (
        perfect
    )
    assert _final_score(perfect) == 1.0
    empty = _explain(capsys, "--hyp-text", "", "--ref-text", "a cat", "--color", "never")
    assert "hypothesis: (empty)" in empty
    assert _final_score(empty) == 0.0


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["--hyp-text", "a"], 2, "--hyp-text and --ref-text go together"),
        (["--hyp-text", "a", "--ref-text", "a", "--segment", "1"], 2, "either"),
        (["--hyp", "h", "--ref", "r"], 2, "--hyp, --ref and --segment go together"),
        (["--hyp", "h", "--ref", "r", "--segment", "0"], 2, "not a line number"),
        (["--hyp", "h", "--ref", "r", "--segment", "3"], 1, "has 1 lines"),
        (["--hyp-text", "a", "--ref-text", "a", "--aggregate", "mean"], 2, "--aggregate"),
    ],
)
def test_explain_usage_errors(
    args: list[str],
    status: int,
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "h", "a\n")
    _write(tmp_path / "r", "a\n")
    assert main(["explain", *args]) == status
    assert message in capsys.readouterr().err


# -- align ------------------------------------------------------------------------------------


@pytest.fixture
def esn_pair(tmp_path: Path) -> tuple[str, str]:
    return (
        _write(tmp_path / "h", "running dogs quickly\nthe cats sat\n"),
        _write(tmp_path / "r", "the dog ran quick\nthe cat sat\n"),
    )


def test_align_jsonl_maxcov_and_maxacc(
    esn_pair: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    h, r = esn_pair
    base = ["align", "--hyp", h, "--ref", r, "--modules", "exact,stem,synonym", "-f", "jsonl"]
    assert main(base) == 0
    cov = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert main([*base, "--type", "maxacc"]) == 0
    acc = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    # Same choices as the jar's Matcher (see tests/unit/align/test_objective.py).
    assert [(m["hyp"], m["ref"], m["module"]) for m in cov[0]["matches"]] == [
        ("running", "ran", "synonym")
    ]
    assert [(m["hyp_start"], m["ref_start"], m["module"]) for m in acc[0]["matches"]] == [
        (1, 1, "stem"),
        (0, 2, "synonym"),
        (2, 3, "stem"),
    ]
    assert acc[0]["chunks"] == 3
    assert cov[1]["segment"] == 2  # the second line: segments count from 1
    assert cov[1]["matches"] == acc[1]["matches"]
    assert cov[1]["hypothesis"] == ["the", "cats", "sat"]


def test_align_text_and_json(esn_pair: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    h, r = esn_pair
    assert main(["align", "--hyp", h, "--ref", r, "--modules", "exact,stem,synonym"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("segment 1\nhypothesis: running dogs quickly\n")
    assert "     0:1 running  ~  ran  [2:1, synonym]" in text
    assert main(["align", "--hyp", h, "--ref", r, "--modules", "exact,stem", "-f", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["type"] == "maxcov"
    assert "|modules:exact+stem|" in document["signature"]
    assert "|aligner:beam40|" in document["signature"]
    assert len(document["segments"]) == 2
    assert document["segments"][1]["matches"][1]["module"] == "stem"


@pytest.mark.parametrize(
    ("extra", "status", "message"),
    [
        (["--alpha", "0.5"], 2, "--alpha: changes scores, not alignments"),
        (["--weights", "1", "--delta", "0.5"], 2, "--delta, --weights"),
        (["--type", "maxacc", "--flavour", "paper2005"], 2, "paper2005"),
    ],
)
def test_align_refusals(
    esn_pair: tuple[str, str],
    extra: list[str],
    status: int,
    message: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    h, r = esn_pair
    assert main(["align", "--hyp", h, "--ref", r, "--modules", "exact", *extra]) == status
    assert message in capsys.readouterr().err


def test_align_unequal_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    h = _write(tmp_path / "h", "a\nb\n")
    r = _write(tmp_path / "r", "a\n")
    assert main(["align", "--hyp", h, "--ref", r, "--modules", "exact"]) == 1
    assert capsys.readouterr().err.count("\n") == 1


# -- stem -------------------------------------------------------------------------------------


def test_stem_files_and_languages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = _write(tmp_path / "a", "Running  dogs\tquickly\n\ngenerously added\n")
    b = _write(tmp_path / "b", "les chats mangeaient\n")
    assert main(["stem", "--lang", "en", a]) == 0
    # Snowball English as the jar ships it (2.2.0): case kept, "added" -> "ad".
    assert capsys.readouterr().out == "Run dog quick\n\ngenerous ad\n"
    assert main(["stem", "--lang", "fr", b, a]) == 0
    assert capsys.readouterr().out.split("\n")[0] == "le chat mang"
    assert main(["stem", "--flavour", "paper2005", a]) == 0
    assert capsys.readouterr().out.split("\n")[2] == "gener ad"  # the original Porter algorithm


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--lang", "cz"], "no built-in stemmer for czech"),
        (["--lang", "ar-bw-red"], "--stem-table"),
        (["--lang", "en", "--norm"], "--norm: no effect on stems"),
        (["--lang", "xx-unknown"], "language"),
    ],
)
def test_stem_errors(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stem", *args]) == 2
    assert message in capsys.readouterr().err


# -- the jar classes: what the jar crashes on ---------------------------------------------------


def _jar(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    source = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    status = run_jar(argv, stdin=source, stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["-m", "exact foo"], "Error: Unknown module (foo)\n"),
        (["-m", "exact", "-x", "abc"], 'Error: -x needs an integer, got "abc"\n'),
        (["-m", "exact", "-l", "ar"], "Error: Unknown language (ar)\n"),
        (["-m", "exact stem", "-l", "cz"], "Error: No stemmer for language (czech)\n"),
        (["-m", "exact", "-l"], "Error: option -l needs a value\n"),
    ],
)
def test_matcher_one_line_errors(options: list[str], message: str, tmp_path: Path) -> None:
    h = _write(tmp_path / "h", "a b\n")
    status, out, err = _jar(["Matcher", h, h, *options])
    assert (status, out, err) == (1, "", message)


def test_matcher_missing_file(tmp_path: Path) -> None:
    status, out, err = _jar(
        ["Matcher", str(tmp_path / "nope"), str(tmp_path / "nope"), "-m", "exact"]
    )
    assert status == 1
    assert out == ""
    assert err.startswith("Error: ") and err.count("\n") == 1


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("ar", "Error: Unknown language (ar)\n"),
        ("cz", "Error: No stemmer for language (czech)\n"),
        ("xx", "Error: No stemmer for language (other)\n"),
    ],
)
def test_stemmer_languages_the_jar_refuses(language: str, message: str) -> None:
    assert _jar(["Stemmer", language], "dogs\n") == (1, "", message)


def test_stemmer_keeps_number_tokens() -> None:
    # Checked with the jar: Finnish turns "--" and "a--" into "-" and "a-" except in tokens of
    # BMP decimal digits and , . - only.
    status, out, _ = _jar(["Stemmer", "fi"], "-- a-- 1-- \u0663-- \U0001d7cf-- +--\n")
    assert (status, out) == (0, "-- a- 1-- \u0663-- \U0001d7cf- +-\n")


def test_meteor_class_name_is_the_default_entry_point(tmp_path: Path) -> None:
    h = _write(tmp_path / "h", "the cat sat\n")
    r = _write(tmp_path / "r", "the cat sat on the mat\n")
    options = ["-m", "exact", "-norm"]
    assert _jar(["Meteor", h, r, *options]) == _jar([h, r, *options])
    assert "Final score:" in _jar(["Meteor", h, r, *options])[1]
