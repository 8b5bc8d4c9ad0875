"""Edge cases of every command found by the audit of issue #28, one test per case: each is a
one-line error naming the option, file, line or field, or the correct result.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meteor_eval.cli import main

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "data" / "train_tiny.jsonl"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _one_error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def _refused(capsys: pytest.CaptureFixture[str], *argv: str, status: int = 2) -> str:
    """The one error line of a command that must end with ``status`` (2: a usage error) and
    print nothing on stdout."""
    done, out, err = _run(capsys, *argv)
    assert (done, out) == (status, ""), err
    return _one_error_line(err)


# -- 1. train: an undefined objective never wins ----------------------------------------------


def _judgements(tmp_path: Path, human: object = None) -> str:
    rows = [json.loads(line) for line in TINY.read_text(encoding="utf-8").splitlines()]
    path = tmp_path / "judgements.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for row in rows:
            if human is not None:
                row["human"] = human
            out.write(json.dumps(row) + "\n")
    return str(path)


def test_train_the_wrong_way_round_writes_real_parameters_and_warns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "p.json"
    status, stdout, err = _run(
        capsys, "train", "--input", str(TINY), "--human-kind", "rank",
        "--modules", "exact,stem,synonym", "--restarts", "1", "--out", str(out),
    )  # fmt: skip
    assert status == 0
    assert "nan" not in stdout
    assert "tuned objective" in " ".join(stdout.split()) and "--human-kind" in err
    doc = json.loads(out.read_text(encoding="utf-8"))
    # Not the degenerate alpha 0, beta 0, gamma 1 that scores every segment 0.
    assert (doc["beta"], doc["gamma"]) != (0.0, 1.0)
    assert doc["training"]["value"] == pytest.approx(-0.3225, abs=5e-5)


def test_train_with_every_human_number_equal_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "p.json"
    status, _, err = _run(
        capsys, "train", "--input", _judgements(tmp_path, 1.0),
        "--modules", "exact,stem,synonym", "--out", str(out),
    )  # fmt: skip
    assert status == 1 and not out.exists()
    line = _one_error_line(err)
    assert "'xx-en'" in line and "every human number is the same" in line and "kendall" in line


@pytest.mark.parametrize("objective", ["pearson", "spearman", "tau-like"])
def test_train_system_and_ranking_objectives_refuse_constant_humans(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], objective: str
) -> None:
    status, _, err = _run(
        capsys, "train", "--input", _judgements(tmp_path, 0.5), "--objective", objective,
        "--modules", "exact,stem,synonym", "--out", str(tmp_path / "p.json"),
    )  # fmt: skip
    assert status == 1
    assert objective in _one_error_line(err)


# -- inputs shared by the cases below ---------------------------------------------------------

HYPS = [
    "the cat sat on the mat",
    "a dog ran in the park today",
    "hello there my friend",
    "we will meet tomorrow at noon",
    "the weather is cold and wet",
    "she reads a book every night",
]
REFS = [
    "the cat sat on a mat",
    "a dog was running in the park",
    "hello my good friend",
    "we meet tomorrow at noon",
    "the weather is wet and cold",
    "every night she reads books",
]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    hyp = tmp_path / "hyp.txt"
    ref = tmp_path / "ref.txt"
    hyp.write_text("\n".join(HYPS) + "\n", encoding="utf-8")
    ref.write_text("\n".join(REFS) + "\n", encoding="utf-8")
    other = tmp_path / "other.txt"
    other.write_text("\n".join(reversed(REFS)) + "\n", encoding="utf-8")
    return {"hyp": str(hyp), "ref": str(ref), "other": str(other), "dir": str(tmp_path)}


# -- 3. rouge --bootstrap: intervals printed and signed, equal to the API's --------------------


def test_rouge_bootstrap_intervals_are_printed_and_signed(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    from meteor_eval import corpus_rouge

    status, out, _ = _run(
        capsys, "rouge", "--hyp", files["hyp"], "--ref", files["ref"], "--bootstrap", "100",
        "--seed", "7", "-f", "json",
    )  # fmt: skip
    assert status == 0
    doc = json.loads(out)
    assert "|bs:100|seed:7|ci:0.95|" in doc["signature"]["rouge"]
    api = corpus_rouge(HYPS, [[r] for r in REFS], n_bootstrap=100, seed=7)
    for variant, score in api.items():
        value = doc["systems"][0][variant]
        assert score.fmeasure_ci is not None and score.precision_ci is not None
        assert value["fmeasure_ci"] == [score.fmeasure_ci.low, score.fmeasure_ci.high]
        assert value["precision_ci"] == [score.precision_ci.low, score.precision_ci.high]
        assert value["fmeasure_ci"][0] < value["fmeasure_ci"][1]  # a real interval
    status, text, _ = _run(
        capsys, "rouge", "--hyp", files["hyp"], "--ref", files["ref"], "--bootstrap", "100",
        "--seed", "7",
    )  # fmt: skip
    low, high = api["rouge1"].fmeasure_ci.low, api["rouge1"].fmeasure_ci.high  # type: ignore[union-attr]
    assert f"F = {api['rouge1'].fmeasure:.5f} [{low:.5f}, {high:.5f}]" in text
    status, tsv, _ = _run(
        capsys, "rouge", "--hyp", files["hyp"], "--ref", files["ref"], "--bootstrap", "100",
        "-f", "tsv",
    )  # fmt: skip
    assert "rouge1_fmeasure_ci_low\trouge1_fmeasure_ci_high" in tsv.splitlines()[0]


@pytest.mark.parametrize("value", ["1", "39", "-2"])
def test_rouge_bootstrap_too_few_resamples_is_refused(
    files: dict[str, str], capsys: pytest.CaptureFixture[str], value: str
) -> None:
    line = _refused(
        capsys, "rouge", "--hyp", files["hyp"], "--ref", files["ref"], "--bootstrap", value
    )
    assert line.startswith("meteor-eval rouge: error: --bootstrap: ")


# -- 5. statistics files carry their segments' identity ---------------------------------------


def _stats(capsys: pytest.CaptureFixture[str], command: str, hyp: str, ref: str, out: str) -> None:
    status, _, err = _run(capsys, command, "--hyp", hyp, "--ref", ref, "--stats", out)
    assert status == 0, err


def _stats_a_and_b(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], command: str, hyp: str, ref: str
) -> tuple[str, str]:
    """Two statistics files of ``command`` in the files' folder: ``a.stats``, of the
    hypotheses against the references, and ``b.stats``, of ``hyp`` against ``ref``."""
    a, b = f"{files['dir']}/a.stats", f"{files['dir']}/b.stats"
    _stats(capsys, command, files["hyp"], files["ref"], a)
    _stats(capsys, command, hyp, ref, b)
    return a, b


@pytest.mark.parametrize("command", ["score", "bleu", "rouge"])
def test_paired_test_of_statistics_of_other_references_is_refused(
    files: dict[str, str], capsys: pytest.CaptureFixture[str], command: str
) -> None:
    a, b = _stats_a_and_b(capsys, files, command, files["hyp"], files["other"])
    header = json.loads(Path(a).read_text(encoding="utf-8").splitlines()[0].split(" ", 1)[1])
    assert header["references"].startswith("sha256:") and header["segments"] == len(HYPS)
    argv = [command, "--from-stats", a, b, "--names", "x,y", "--paired-bs", "--n-samples", "50"]
    line = _refused(capsys, *argv, status=1)
    assert "b.stats: scored against other references than" in line and "a.stats" in line


def test_statistics_of_the_same_references_still_pair(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = _stats_a_and_b(capsys, files, "bleu", files["ref"], files["ref"])
    argv = ["bleu", "--from-stats", a, b, "--names", "x,y", "--paired-bs", "--n-samples", "50"]
    status, out, _ = _run(capsys, *argv)
    assert status == 0 and "Baseline: x" in out


def test_statistics_of_other_segment_counts_are_refused(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    short_hyp = Path(files["dir"]) / "short_hyp.txt"
    short_ref = Path(files["dir"]) / "short_ref.txt"
    short_hyp.write_text("\n".join(HYPS[:3]) + "\n", encoding="utf-8")
    short_ref.write_text("\n".join(REFS[:3]) + "\n", encoding="utf-8")
    a, b = _stats_a_and_b(capsys, files, "bleu", str(short_hyp), str(short_ref))
    status, _, err = _run(capsys, "bleu", "--from-stats", a, b, "--names", "x,y")
    assert status == 1 and "b.stats: 3 segments but" in _one_error_line(err)


def test_statistics_without_a_digest_warn_that_they_cannot_be_checked(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = _stats_a_and_b(capsys, files, "bleu", files["ref"], files["ref"])
    lines = Path(b).read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0].split(" ", 1)[1])
    del header["references"]
    lines[0] = "#meteor-eval-stats " + json.dumps(header)
    Path(b).write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, _, err = _run(capsys, "bleu", "--from-stats", a, b, "--names", "x,y")
    assert status == 0 and "cannot check that the files are of the same segments" in err


# -- 7. negative --seed: a usage error in every command ---------------------------------------


@pytest.mark.parametrize(
    "command", ["score", "bleu", "rouge", "compare", "report", "train"]
)  # fmt: skip
def test_negative_seed_is_a_usage_error(
    files: dict[str, str], capsys: pytest.CaptureFixture[str], command: str
) -> None:
    inputs = ["--hyp", files["hyp"], "--ref", files["ref"]]
    extra = {
        "train": ["--input", str(TINY), "--out", f"{files['dir']}/p.json"],
        "report": [*inputs, "-o", f"{files['dir']}/r.html"],
    }.get(command, [*inputs, "--ci"])
    line = _refused(capsys, command, *extra, "--seed", "-1")
    assert line == (
        f"meteor-eval {command}: error: --seed: -1 is invalid; allowed: an integer >= 0"
    )


@pytest.mark.parametrize("n", ["0", "1", "39"])
def test_n_samples_too_few_for_an_interval_is_refused(
    files: dict[str, str], capsys: pytest.CaptureFixture[str], n: str
) -> None:
    line = _refused(
        capsys, "bleu", "--hyp", files["hyp"], "--ref", files["ref"], "--ci", "--n-samples", n
    )
    assert "--n-samples: " in line and "integer >= 40" in line


def test_n_samples_minimum_follows_the_confidence(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["bleu", "--hyp", files["hyp"], "--ref", files["ref"], "--ci", "--n-samples", "40"]
    assert _run(capsys, *argv)[0] == 0
    status, _, err = _run(capsys, *argv, "--confidence", "0.99")
    assert status == 2 and "integer >= 200" in err


def test_paired_ar_trials_need_only_be_positive(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["bleu", "--hyp", files["hyp"], files["ref"], "--ref", files["ref"], "--paired-ar"]
    assert _run(capsys, *argv, "--n-samples", "5")[0] == 0
    status, _, err = _run(capsys, *argv, "--n-samples", "0")
    assert status == 2 and "--n-samples: 0 is invalid" in err


# -- 8. --scheduler ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("foo", "no port number"),
        ("tcp://host", "no port number"),
        ("host:abc", "port 'abc' is not from 1 to 65535"),
        ("bogus://host:1", "unknown scheme 'bogus'"),
        ("local:0", "expected local or local:N with N >= 1"),
    ],
)
def test_malformed_scheduler_is_a_usage_error(
    files: dict[str, str], capsys: pytest.CaptureFixture[str], value: str, reason: str
) -> None:
    argv = ["bleu", "--hyp", files["hyp"], "--ref", files["ref"], "--scheduler", value]
    line = _refused(capsys, *argv)
    assert line.startswith("meteor-eval bleu: error: --scheduler: ") and reason in line


def test_unreachable_scheduler_names_the_scheduler(
    files: dict[str, str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("distributed")
    import socket

    from meteor_eval import distributed

    monkeypatch.setattr(distributed, "CONNECT_TIMEOUT", 1.0)
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    argv = ["bleu", "--hyp", files["hyp"], "--ref", files["ref"], "--scheduler", address]
    line = _refused(capsys, *argv)
    assert f"--scheduler: cannot reach a scheduler at {address}" in line
    assert "cannot write" not in line


# -- options accepted and ignored --------------------------------------------------------------


@pytest.mark.parametrize("flavour", ["nltk", "paper2005"])
def test_task_with_a_flavour_that_has_no_tasks_is_refused(
    files: dict[str, str], capsys: pytest.CaptureFixture[str], flavour: str
) -> None:
    argv = ["score", "--hyp", files["hyp"], "--ref", files["ref"], "--flavour", flavour]
    line = _refused(capsys, *argv, "--task", "adq")
    assert "--task" in line and "'adq' is a METEOR 1.5 task" in line and flavour in line


@pytest.mark.parametrize(
    ("command", "option", "value"),
    [
        ("score", "--modules", ""),
        ("score", "--modules", " "),
        ("score", "--weights", ""),
        ("score", "--lang", ""),
        ("score", "--params", ""),
        ("bleu", "--names", ""),
        ("rouge", "--types", ""),
        ("train", "--modules", ""),
    ],
)
def test_empty_option_values_are_refused(
    files: dict[str, str], capsys: pytest.CaptureFixture[str], command: str, option: str,
    value: str,
) -> None:  # fmt: skip
    inputs = ["--hyp", files["hyp"], "--ref", files["ref"]]
    if command == "train":
        inputs = ["--input", str(TINY), "--out", f"{files['dir']}/p.json"]
    line = _refused(capsys, command, *inputs, option, value)
    assert line == (
        f"meteor-eval {command}: error: {option}: an empty value; give a value or leave the "
        "option out"
    )


def test_skip_distance_below_minus_one_is_refused(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["rouge", "--hyp", files["hyp"], "--ref", files["ref"], "--types", "rougeS"]
    status, _, err = _run(capsys, *argv, "--skip-distance", "-5")
    assert status == 2 and "--skip-distance: -5 is invalid" in _one_error_line(err)
    assert _run(capsys, *argv, "--skip-distance", "-1")[0] == 0


# -- segment numbers: line N of the input is segment N in every output ------------------------


def test_every_output_numbers_segments_from_one(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    import csv
    import io

    base = ["score", "--hyp", files["hyp"], "--ref", files["ref"], "--sentence-level"]
    base += ["--modules", "exact"]
    align_file = f"{files['dir']}/al.jsonl"
    status, out, _ = _run(capsys, *base, "-f", "json", "--alignments", align_file)
    assert status == 0
    segments = json.loads(out)["systems"][0]["segments"]
    by_number = {seg["segment"]: seg["meteor"]["score"] for seg in segments}
    assert sorted(by_number) == list(range(1, len(HYPS) + 1))
    aligned = [json.loads(line) for line in Path(align_file).read_text().splitlines()]
    assert {a["segment"]: a["score"] for a in aligned} == by_number
    jsonl = [json.loads(line) for line in _run(capsys, *base, "-f", "jsonl")[1].splitlines()]
    assert {r["segment"]: r["meteor"]["score"] for r in jsonl} == by_number
    rows = list(csv.DictReader(io.StringIO(_run(capsys, *base, "-f", "csv")[1])))
    assert {int(r["segment"]): float(r["meteor"]) for r in rows} == by_number
    text = _run(capsys, *base)[1]
    assert f"Segment 1 score:\t{by_number[1]!r}" in text
    two = _run(capsys, *base[:3], files["ref"], *base[3:], "--names", "a,b")[1]
    table = two.split("METEOR per segment\n", 1)[1].splitlines()
    assert table[0] == "segment\ta\tb" and table[1].split("\t")[:2] == ["1", repr(by_number[1])]
    explained = _run(
        capsys, "explain", "--hyp", files["hyp"], "--ref", files["ref"], "--segment", "1",
        "--modules", "exact",
    )[1]  # fmt: skip
    assert f"score: {by_number[1]!r}" in explained
    aligned_cmd = _run(
        capsys, "align", "--hyp", files["hyp"], "--ref", files["ref"], "--format", "jsonl",
        "--modules", "exact",
    )[1]  # fmt: skip
    assert [json.loads(line)["segment"] for line in aligned_cmd.splitlines()] == list(
        range(1, len(HYPS) + 1)
    )


# -- statistics of another metric, messages that name the right thing -------------------------


@pytest.mark.parametrize(
    ("made_by", "command"),
    [("bleu", "score"), ("bleu", "rouge"), ("rouge", "bleu"), ("score", "bleu")],
)
def test_a_command_refuses_statistics_of_another_metric(
    files: dict[str, str], capsys: pytest.CaptureFixture[str], made_by: str, command: str
) -> None:
    stats = f"{files['dir']}/x.stats"
    _stats(capsys, made_by, files["hyp"], files["ref"], stats)
    line = _refused(capsys, command, "--from-stats", stats)
    assert f"--from-stats: {stats} holds" in line and f"'meteor-eval {command}' re-scores" in line
    assert _run(capsys, "compare", "--from-stats", stats)[0] == 0


def _params(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    out = tmp_path / "tuned.json"
    status, _, _ = _run(
        capsys, "train", "--input", str(TINY), "--modules", "exact,stem,synonym",
        "--restarts", "0", "--out", str(out),
    )  # fmt: skip
    assert status == 0
    return str(out)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--lang", "de"], "field 'language': the parameters are for english, not german"),
        (["--flavour", "nltk"], "the nltk flavour has fixed parameters"),
    ],
)
def test_params_errors_name_the_file(
    files: dict[str, str], capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    params = _params(Path(files["dir"]), capsys)
    argv = ["score", "--hyp", files["hyp"], "--ref", files["ref"], "--params", params, *extra]
    line = _refused(capsys, *argv)
    assert f"error: --params: {params}: {message}" in line and "params: params" not in line


def test_params_with_an_unknown_module_names_the_file(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    params = _params(Path(files["dir"]), capsys)
    doc = json.loads(Path(params).read_text(encoding="utf-8"))
    doc["modules"] = ["exact", "stem", "bogus"]
    Path(params).write_text(json.dumps(doc), encoding="utf-8")
    argv = ["score", "--hyp", files["hyp"], "--ref", files["ref"], "--params", params]
    status, _, err = _run(capsys, *argv)
    assert status == 2 and f"--params: {params}: modules: 'bogus' is unknown" in err


@pytest.mark.parametrize(
    ("command", "option", "name"),
    [
        ("report", "-o", "x.html"),
        ("score", "--stats", "x.stats"),
        ("score", "--alignments", "x.jsonl"),
    ],
)
def test_output_under_a_file_says_it_is_a_file(
    files: dict[str, str], capsys: pytest.CaptureFixture[str], command: str, option: str,
    name: str,
) -> None:  # fmt: skip
    blocker = Path(files["dir"]) / "plain"
    blocker.write_text("not a folder", encoding="utf-8")
    target = f"{blocker}/{name}"
    argv = [command, "--hyp", files["hyp"], "--ref", files["ref"], option, target]
    line = _refused(capsys, *argv)
    assert f"cannot write {target}: " in line and "plain is a file, not a folder" in line
    assert "does not exist" not in line


def test_stem_of_the_language_independent_setting_explains_xx(
    capsys: pytest.CaptureFixture[str],
) -> None:
    line = _refused(capsys, "stem", "--lang", "xx", str(TINY))
    assert "no built-in stemmer for other (xx and other select" in line


# -- further cases of the adversarial pass ------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "extra", "message"),
    [
        ("bleu", ["--smooth-value", "5"], "--smooth-value: only --smooth-method floor or add-k"),
        (
            "bleu",
            ["--smooth-method", "none", "--smooth-value", "0.1"],
            "--smooth-value: only --smooth-method floor or add-k use a value (not none)",
        ),
        ("compare", ["--metrics", "meteor,bleu,meteor"], "--metrics: meteor is given twice"),
        ("score", ["--modules", "exact,stem,exact"], "--modules: exact is given twice"),
        ("compare", ["--modules", "exact exact"], "--modules: exact is given twice"),
        ("score", ["--jobs", "-1"], "--jobs: -1 is invalid"),
        ("score", ["--confidence", "nan", "--ci"], "--confidence: nan is invalid"),
        ("bleu", ["--max-ngram-order", "0"], "--max-ngram-order: max_ngram_order: got 0"),
        ("rouge", ["--types", "rougeW", "--weight", "0.5"], "--weight: weight: got 0.5"),
        ("rouge", ["--types", "rouge1,rouge1"], "--types: types: got"),
        # options that would change nothing
        ("compare", ["--metrics", "meteor", "--types", "rouge1"], "--types: a rouge option"),
        ("compare", ["--metrics", "bleu", "--alpha", "0.5"], "--alpha: a meteor option"),
        ("compare", ["--metrics", "meteor", "--tokenize", "intl"], "--tokenize: a bleu option"),
        (
            "rouge",
            ["--types", "rouge1", "--sentence-separator", "<n>"],
            "--sentence-separator: only rougeLsum and rougeW use it",
        ),
        ("rouge", ["--types", "rouge1,rougeL", "--weight", "1.5"], "--weight: only rougeW"),
        ("rouge", ["--types", "rougeL", "--skip-distance", "2"], "--skip-distance: only rougeS"),
        ("bleu", ["--seed", "5"], "--seed: nothing is resampled"),
        ("score", ["--confidence", "0.9"], "--confidence: nothing is resampled"),
        ("rouge", ["--seed", "5"], "--seed: nothing is resampled; it needs --ci"),
    ],
)
def test_options_without_effect_or_out_of_range_are_refused(
    files: dict[str, str], capsys: pytest.CaptureFixture[str], command: str, extra: list[str],
    message: str,
) -> None:  # fmt: skip
    line = _refused(capsys, command, "--hyp", files["hyp"], "--ref", files["ref"], *extra)
    assert message in line


def test_smoothing_value_with_floor_is_used(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["bleu", "--hyp", files["hyp"], "--ref", files["ref"], "--smooth-method", "floor"]
    status, out, _ = _run(capsys, *argv, "--smooth-value", "0.5")
    assert status == 0 and "smooth:floor[0.50]" in out


def test_report_paired_test_of_one_system_is_refused(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("jinja2")
    out = Path(files["dir"]) / "r.html"
    for test in ("--paired-bs", "--paired-ar"):
        status, _, err = _run(
            capsys, "report", "--hyp", files["hyp"], "--ref", files["ref"], "-o", str(out), test
        )
        assert status == 2 and f"{test} compares systems with a baseline" in _one_error_line(err)
        assert not out.exists()


def test_empty_input_scores_zero_with_a_warning(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    empty = Path(files["dir"]) / "empty.txt"
    empty.write_text("", encoding="utf-8")
    for command in ("score", "bleu", "rouge"):
        status, out, err = _run(capsys, command, "--hyp", str(empty), "--ref", str(empty))
        assert status == 0 and "no segments to score (empty input)" in err
        assert " 0.0" in out or "= 0.00" in out or "F = 0.00000" in out


def test_reference_file_of_another_length_is_refused(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    short = Path(files["dir"]) / "short.txt"
    short.write_text("one line\n", encoding="utf-8")
    for command in ("score", "bleu", "rouge", "align"):
        status, out, err = _run(capsys, command, "--hyp", files["hyp"], "--ref", str(short))
        assert status == 1 and out == ""
        assert f"has {len(HYPS)} lines but {short} has 1" in _one_error_line(err)


def test_options_that_have_their_effect_are_accepted(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    inputs = ["--hyp", files["hyp"], "--ref", files["ref"]]
    cases = [
        ["rouge", "--types", "rougeS", "--skip-distance", "2"],
        ["rouge", "--types", "rougeW", "--weight", "1.5"],
        ["rouge", "--bootstrap", "40", "--seed", "5"],
        ["compare", "--metrics", "bleu,rouge", "--stemmer", "--tokenize", "intl"],
        ["bleu", "--ci", "--seed", "5", "--confidence", "0.9", "--n-samples", "40"],
    ]
    for argv in cases:
        status, _, err = _run(capsys, argv[0], *inputs, *argv[1:])
        assert status == 0, (argv, err)


def test_rouge_bootstrap_uses_the_confidence(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["rouge", "--hyp", files["hyp"], "--ref", files["ref"], "--bootstrap", "40"]
    status, out, _ = _run(capsys, *argv, "--confidence", "0.9")
    assert status == 0 and "|ci:0.9|" in out
    status, _, err = _run(capsys, *argv, "--confidence", "0.99")
    assert status == 2 and "--bootstrap: 40 resample(s) cannot give a 99% interval" in err


def test_train_seed_with_the_grid_is_refused(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = _run(
        capsys, "train", "--input", str(TINY), "--optimizer", "grid", "--seed", "3",
        "--out", f"{files['dir']}/p.json",
    )  # fmt: skip
    assert status == 2 and "--seed: only with --optimizer coordinate" in _one_error_line(err)
