"""``meteor-eval score``: outputs, exit codes and bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from meteor_eval.cli import main


def _write(path: Path, data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return str(path)


SRC = str(Path(__file__).resolve().parents[2] / "src")


def _run(args: list[str], stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run(
        [sys.executable, "-m", "meteor_eval", *args],
        input=stdin,
        capture_output=True,
        check=False,
        env=env,
    )


@pytest.fixture
def pair(tmp_path: Path) -> tuple[str, str]:
    hyp = _write(tmp_path / "hyp.txt", "the cat sat on the mat\non the mat sat the cat\n")
    ref = _write(tmp_path / "ref.txt", "the cat sat on the mat\nthe cat sat on the mat\n")
    return hyp, ref


def test_text_output_has_score_and_signature(
    pair: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, ref = pair
    assert (
        main(["score", "--hyp", hyp, "--ref", ref, "--flavour", "paper2005", "--modules", "exact"])
        == 0
    )
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("METEOR = ")
    assert out[1].startswith("meteor|flavour:paper2005|")
    assert out[1].endswith("|version:0.1.0")


def test_json_sentence_level_shape(
    pair: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, ref = pair
    args = ["score", "--hyp", hyp, "--ref", ref, "--modules", "exact,stem,synonym", "--norm"]
    assert main([*args, "--format", "json", "--sentence-level"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert set(payload) == {"signature", "systems"}
    (system,) = payload["systems"]
    corpus = system["meteor"]
    segments = [s["meteor"] for s in system["segments"]]
    assert payload["signature"]["meteor"].startswith("meteor|flavour:meteor15|")
    assert len(corpus["stats"]) == 23
    assert [len(s["stats"]) for s in segments] == [23, 23]
    assert segments[0]["score"] == 1.0
    # pooled: the perfect first segment adds no chunk; the second has 6 words in 3 chunks
    assert corpus["stats"][20] == segments[1]["stats"][20] == corpus["chunks"] == 3


def test_seed_example_through_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hyp = _write(tmp_path / "h", "Under the starry night, we danced with glee.\n")
    ref = _write(tmp_path / "r", "We danced with joy under the starry night.\n")
    args = ["score", "--hyp", hyp, "--ref", ref, "--flavour", "paper2005", "--modules", "exact"]
    assert main([*args, "--beta", "1", "--no-punct", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["systems"][0]["meteor"]["score"] == 0.75


def test_tsv_output(pair: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    hyp, ref = pair
    args = ["score", "--hyp", hyp, "--ref", ref, "--modules", "exact"]
    assert main([*args, "--format", "tsv", "--sentence-level"]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = lines[0].split("\t")
    assert header[:3] == ["system", "segment", "meteor"]
    assert [line.split("\t")[:2] for line in lines[1:]] == [[hyp, "1"], [hyp, "2"]]
    assert float(lines[1].split("\t")[2]) == 1.0


def test_line_count_mismatch_is_a_one_line_error(tmp_path: Path) -> None:
    hyp = _write(tmp_path / "hyp.txt", "a\nb\nc\n")
    ref = _write(tmp_path / "ref.txt", "a\nb\n")
    result = _run(["score", "--hyp", hyp, "--ref", ref, "--modules", "exact"])
    assert result.returncode == 1
    assert result.stdout == b""
    err = result.stderr.decode().strip().splitlines()
    assert len(err) == 1
    assert "hyp.txt has 3 lines but" in err[0] and "ref.txt has 2" in err[0]


def test_missing_file_is_a_one_line_error(tmp_path: Path) -> None:
    result = _run(
        [
            "score",
            "--hyp",
            str(tmp_path / "nope"),
            "--ref",
            str(tmp_path / "nope2"),
            "--modules",
            "exact",
        ]
    )
    assert result.returncode == 1
    assert result.stderr.decode().count("\n") == 1
    assert "nope: file not found" in result.stderr.decode()


def test_invalid_utf8_names_file_and_line(tmp_path: Path) -> None:
    hyp = _write(tmp_path / "hyp.txt", b"fine\nbad \xff byte\n")
    ref = _write(tmp_path / "ref.txt", "fine\nbad byte\n")
    result = _run(["score", "--hyp", hyp, "--ref", ref, "--modules", "exact"])
    assert result.returncode == 1
    assert "hyp.txt:2: invalid UTF-8" in result.stderr.decode()
    replaced = _run(
        ["score", "--hyp", hyp, "--ref", ref, "--modules", "exact", "--encoding-errors", "replace"]
    )
    assert replaced.returncode == 0


def test_stdin_hypotheses(pair: tuple[str, str]) -> None:
    _, ref = pair
    result = _run(
        ["score", "--hyp", "-", "--ref", ref, "--modules", "exact", "--format", "json"],
        stdin=b"the cat sat on the mat\non the mat sat the cat\n",
    )
    assert result.returncode == 0, result.stderr
    from_file = _run(
        ["score", "--hyp", pair[0], "--ref", ref, "--modules", "exact", "--format", "json"]
    )
    from_stdin = json.loads(result.stdout)
    expected = json.loads(from_file.stdout)
    assert from_stdin["systems"][0].pop("name") == "-"
    assert expected["systems"][0].pop("name") == pair[0]
    assert from_stdin == expected


def test_bom_and_lone_cr_are_warned_about(tmp_path: Path) -> None:
    hyp = _write(tmp_path / "hyp.txt", b"\xef\xbb\xbfthe cat\r\nthe\rdog\n")
    ref = _write(tmp_path / "ref.txt", "the cat\nthe dog\n")
    result = _run(
        [
            "score",
            "--hyp",
            hyp,
            "--ref",
            ref,
            "--modules",
            "exact",
            "--format",
            "json",
            "--sentence-level",
        ]
    )
    assert result.returncode == 0
    err = result.stderr.decode()
    assert "hyp.txt:1: dropped a UTF-8 byte-order mark" in err
    assert "hyp.txt:2: a carriage return inside the line is read as a space" in err
    segments = json.loads(result.stdout)["systems"][0]["segments"]
    assert [s["meteor"]["score"] for s in segments] == [1.0, 1.0]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_files_warnings_are_shown_once_for_every_metric(tmp_path: Path, jobs: str) -> None:
    """``compare`` reads a system's file once per metric (in each worker with ``--jobs``); what
    reading it says of its lines is shown once."""
    hyp = tmp_path / "hyp.txt"
    hyp.write_bytes("\ufeffthe cat\nthe\rdog\n".encode())
    ref = _write(tmp_path / "ref.txt", "the cat\nthe dog\n")
    result = _run(["compare", "--hyp", str(hyp), "--ref", ref, "--jobs", jobs])
    assert result.returncode == 0
    assert result.stderr.decode().splitlines() == [
        f"meteor-eval: warning: {hyp}:1: dropped a UTF-8 byte-order mark",
        f"meteor-eval: warning: {hyp}:2: a carriage return inside the line is read as a space",
    ]


def test_each_search_budget_warning_is_shown(tmp_path: Path) -> None:
    """Two segments whose searches are cut give the same text; each is shown (the count of
    approximated segments is what the warning tells)."""
    import random

    rng = random.Random(1)
    hyp, ref = (" ".join(rng.choice("abcd") for _ in range(200)) for _ in range(2))
    hyp_file = _write(tmp_path / "hyp.txt", f"{hyp}\nthe cat\n{hyp}\n")
    ref_file = _write(tmp_path / "ref.txt", f"{ref}\nthe cat\n{ref}\n")
    result = _run(["score", "--flavour", "paper2005", "--hyp", hyp_file, "--ref", ref_file])
    assert result.returncode == 0
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 2 and lines[0] == lines[1]
    assert "ran out of its budget" in lines[0]


def test_invalid_option_value_is_a_usage_error(pair: tuple[str, str]) -> None:
    hyp, ref = pair
    result = _run(["score", "--hyp", hyp, "--ref", ref, "--alpha", "2"])
    assert result.returncode == 2
    assert "alpha: 2.0 is out of range" in result.stderr.decode()


def test_empty_lines_score_zero_not_nan(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hyp = _write(tmp_path / "h", "\nthe cat\n\n")
    ref = _write(tmp_path / "r", "the cat\n\n\n")
    args = ["score", "--hyp", hyp, "--ref", ref, "--modules", "exact"]
    assert main([*args, "--format", "json", "--sentence-level"]) == 0
    (system,) = json.loads(capsys.readouterr().out)["systems"]
    assert [s["meteor"]["score"] for s in system["segments"]] == [0.0, 0.0, 0.0]
    assert system["meteor"]["score"] == 0.0


def test_stats_round_trip(
    pair: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, ref = pair
    stats = str(tmp_path / "stats.txt")
    base = ["score", "--modules", "exact,stem,synonym", "--format", "json"]
    assert main([*base, "--hyp", hyp, "--ref", ref, "--stats", stats]) == 0
    direct = json.loads(capsys.readouterr().out)
    lines = Path(stats).read_text().splitlines()
    assert lines[0].startswith("#meteor-eval-stats {")
    assert lines[1].split()[0] == "6.0"
    assert main([*base, "--from-stats", stats]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["systems"][0]["meteor"] == direct["systems"][0]["meteor"]
    assert again["signature"] == direct["signature"]


def test_example_data_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--example", "--norm", "--modules", "exact,stem,synonym"]) == 0
    out = capsys.readouterr().out
    assert "nrefs:2" in out


def test_character_mode(pair: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    hyp, ref = pair
    args = ["score", "--hyp", hyp, "--ref", ref, "--modules", "exact", "--format", "json"]
    assert main([*args, "--characters", "--sentence-level"]) == 0
    stats = json.loads(capsys.readouterr().out)["systems"][0]["segments"][0]["meteor"]["stats"]
    # "the cat sat on the mat": 17 characters, of which "the", "on", "the" are function words (8)
    assert stats[:4] == [17, 17, 8, 8]
    assert stats[21:] == [6, 6]  # matched words stay word counts


def test_function_word_file(
    pair: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, ref = pair
    words = _write(tmp_path / "fw.txt", "cat\nmat\n")
    args = ["score", "--hyp", hyp, "--ref", ref, "--modules", "exact", "--format", "json"]
    assert main([*args, "--function-words", words, "--sentence-level"]) == 0
    segments = json.loads(capsys.readouterr().out)["systems"][0]["segments"]
    assert segments[0]["meteor"]["stats"][2:4] == [2, 2]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--modules", "exact,stem,synonym", "--weights", "1,inf,0.8"], "weights[1]: inf is not"),
        (["--modules", "exact,stem,synonym", "--weights", "1,nan,0.8"], "weights[1]: nan is not"),
        (["--modules", "exact,stem,synonym", "--weights=1,-0.5,0.8"], "weights[1]: -0.5 is out"),
        (["--modules", "exact,stem,synonym", "--weights", "1,5,5"], "weights[1]: 5.0 is out"),
        (["--modules", "exact,stem,synonym", "--weights", "1,1e308,1"], "weights[1]: 1e+308"),
        (["--modules", "exact,stem", "--weights", "1,0.5,0.3"], "3 weights for 2 modules"),
        (["--modules", "exact,stem,synonym", "--weights", "1"], "1 weights for 3 modules"),
        (["--weights", "1,0.6"], "2 weights for 4 modules"),
    ],
)
def test_weights_that_would_change_scores_silently_are_usage_errors(
    pair: tuple[str, str], capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    hyp, ref = pair
    assert main(["score", "--hyp", hyp, "--ref", ref, *options]) == 2
    err = capsys.readouterr().err
    assert err.startswith("meteor-eval score: error: --weights: ")
    assert message in err
    assert err.count("\n") == 1


def test_non_finite_parameter_is_a_usage_error_naming_the_option(
    pair: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, ref = pair
    assert main(["score", "--hyp", hyp, "--ref", ref, "--beta", "inf"]) == 2
    assert "error: --beta: beta: inf is not a finite number" in capsys.readouterr().err


def test_score_loads_neither_bleu_nor_rouge(pair: tuple[str, str]) -> None:
    # issue 23 (small jobs pay only for what they use): `score` builds METEOR alone, so the
    # BLEU and ROUGE modules are never imported; `compare` with BLEU still loads BLEU.
    probe = (
        "import sys\n"
        "from meteor_eval.cli import main\n"
        "status = main(sys.argv[1:])\n"
        "print(sorted(m for m in sys.modules if m.startswith(('meteor_eval.metrics.bleu',"
        " 'meteor_eval.metrics.rouge'))))\n"
    )
    env = {**os.environ, "PYTHONPATH": SRC}
    hyp, ref = pair

    def loaded(command: str) -> str:
        """The BLEU/ROUGE modules loaded by one ``command`` run, as the probe prints them."""
        done = subprocess.run(
            [sys.executable, "-c", probe, command, "--hyp", hyp, "--ref", ref, "--format", "json"],
            capture_output=True,
            check=True,
            env=env,
            text=True,
        )
        return done.stdout.splitlines()[-1]

    assert loaded("score") == "[]"
    assert loaded("bleu") == "['meteor_eval.metrics.bleu']"
