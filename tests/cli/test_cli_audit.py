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

# The six segments most cases score (Cli writes them to files).
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


def _one_error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def _lines_file(path: Path, lines: list[str]) -> str:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


class Cli:
    """The command line, run in this process with its output captured, and the inputs the
    cases share: files ``hyp`` (HYPS), ``ref`` (REFS) and ``other`` (REFS in reverse order) in
    ``folder``; ``inputs`` gives the first two as ``--hyp`` and ``--ref``."""

    def __init__(self, folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.folder = folder
        self._capsys = capsys
        self.hyp = _lines_file(folder / "hyp.txt", HYPS)
        self.ref = _lines_file(folder / "ref.txt", REFS)
        self.other = _lines_file(folder / "other.txt", REFS[::-1])
        self.inputs = ["--hyp", self.hyp, "--ref", self.ref]

    def run(self, *argv: str) -> tuple[int, str, str]:
        """The exit status, standard output and standard error of ``meteor-eval argv``."""
        status = main(list(argv))
        captured = self._capsys.readouterr()
        return status, captured.out, captured.err

    def refused(self, *argv: str, status: int = 2) -> str:
        """The one error line of a command that must end with ``status`` (2: a usage error)
        and print nothing on stdout."""
        done, out, err = self.run(*argv)
        assert (done, out) == (status, ""), err
        return _one_error_line(err)


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path, capsys)


# -- 1. train: an undefined objective never wins ----------------------------------------------


def _judgements(folder: Path, human: object = None) -> str:
    rows = [json.loads(line) for line in TINY.read_text(encoding="utf-8").splitlines()]
    path = folder / "judgements.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for row in rows:
            if human is not None:
                row["human"] = human
            out.write(json.dumps(row) + "\n")
    return str(path)


def test_train_the_wrong_way_round_writes_real_parameters_and_warns(cli: Cli) -> None:
    out = cli.folder / "p.json"
    status, stdout, err = cli.run(
        "train", "--input", str(TINY), "--human-kind", "rank",
        "--modules", "exact,stem,synonym", "--restarts", "1", "--out", str(out),
    )  # fmt: skip
    assert status == 0
    assert "nan" not in stdout
    assert "tuned objective" in " ".join(stdout.split()) and "--human-kind" in err
    doc = json.loads(out.read_text(encoding="utf-8"))
    # Not the degenerate alpha 0, beta 0, gamma 1 that scores every segment 0.
    assert (doc["beta"], doc["gamma"]) != (0.0, 1.0)
    assert doc["training"]["value"] == pytest.approx(-0.3225, abs=5e-5)


def test_train_with_every_human_number_equal_is_refused(cli: Cli) -> None:
    out = cli.folder / "p.json"
    status, _, err = cli.run(
        "train", "--input", _judgements(cli.folder, 1.0),
        "--modules", "exact,stem,synonym", "--out", str(out),
    )  # fmt: skip
    assert status == 1 and not out.exists()
    line = _one_error_line(err)
    assert "'xx-en'" in line and "every human number is the same" in line and "kendall" in line


@pytest.mark.parametrize("objective", ["pearson", "spearman", "tau-like"])
def test_train_system_and_ranking_objectives_refuse_constant_humans(
    cli: Cli, objective: str
) -> None:
    status, _, err = cli.run(
        "train", "--input", _judgements(cli.folder, 0.5), "--objective", objective,
        "--modules", "exact,stem,synonym", "--out", str(cli.folder / "p.json"),
    )  # fmt: skip
    assert status == 1
    assert objective in _one_error_line(err)


# -- 3. rouge --bootstrap: intervals printed and signed, equal to the API's --------------------


def test_rouge_bootstrap_intervals_are_printed_and_signed(cli: Cli) -> None:
    from meteor_eval import corpus_rouge

    status, out, _ = cli.run(
        "rouge", *cli.inputs, "--bootstrap", "100", "--seed", "7", "-f", "json"
    )
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
    status, text, _ = cli.run("rouge", *cli.inputs, "--bootstrap", "100", "--seed", "7")
    low, high = api["rouge1"].fmeasure_ci.low, api["rouge1"].fmeasure_ci.high  # type: ignore[union-attr]
    assert f"F = {api['rouge1'].fmeasure:.5f} [{low:.5f}, {high:.5f}]" in text
    status, tsv, _ = cli.run("rouge", *cli.inputs, "--bootstrap", "100", "-f", "tsv")
    assert "rouge1_fmeasure_ci_low\trouge1_fmeasure_ci_high" in tsv.splitlines()[0]


@pytest.mark.parametrize("value", ["1", "39", "-2"])
def test_rouge_bootstrap_too_few_resamples_is_refused(cli: Cli, value: str) -> None:
    line = cli.refused("rouge", *cli.inputs, "--bootstrap", value)
    assert line.startswith("meteor-eval rouge: error: --bootstrap: ")


# -- 5. statistics files carry their segments' identity ---------------------------------------


def _stats(cli: Cli, command: str, hyp: str, ref: str, out: str) -> None:
    status, _, err = cli.run(command, "--hyp", hyp, "--ref", ref, "--stats", out)
    assert status == 0, err


def _stats_a_and_b(cli: Cli, command: str, hyp: str, ref: str) -> tuple[str, str]:
    """Two statistics files of ``command`` in the inputs' folder: ``a.stats``, of the
    hypotheses against the references, and ``b.stats``, of ``hyp`` against ``ref``."""
    a, b = f"{cli.folder}/a.stats", f"{cli.folder}/b.stats"
    _stats(cli, command, cli.hyp, cli.ref, a)
    _stats(cli, command, hyp, ref, b)
    return a, b


@pytest.mark.parametrize("command", ["score", "bleu", "rouge"])
def test_paired_test_of_statistics_of_other_references_is_refused(cli: Cli, command: str) -> None:
    a, b = _stats_a_and_b(cli, command, cli.hyp, cli.other)
    header = json.loads(Path(a).read_text(encoding="utf-8").splitlines()[0].split(" ", 1)[1])
    assert header["references"].startswith("sha256:") and header["segments"] == len(HYPS)
    argv = [command, "--from-stats", a, b, "--names", "x,y", "--paired-bs", "--n-samples", "50"]
    line = cli.refused(*argv, status=1)
    assert "b.stats: scored against other references than" in line and "a.stats" in line


def test_statistics_of_the_same_references_still_pair(cli: Cli) -> None:
    a, b = _stats_a_and_b(cli, "bleu", cli.ref, cli.ref)
    argv = ["bleu", "--from-stats", a, b, "--names", "x,y", "--paired-bs", "--n-samples", "50"]
    status, out, _ = cli.run(*argv)
    assert status == 0 and "Baseline: x" in out


def test_statistics_of_other_segment_counts_are_refused(cli: Cli) -> None:
    short_hyp = _lines_file(cli.folder / "short_hyp.txt", HYPS[:3])
    short_ref = _lines_file(cli.folder / "short_ref.txt", REFS[:3])
    a, b = _stats_a_and_b(cli, "bleu", short_hyp, short_ref)
    status, _, err = cli.run("bleu", "--from-stats", a, b, "--names", "x,y")
    assert status == 1 and "b.stats: 3 segments but" in _one_error_line(err)


def test_statistics_without_a_digest_warn_that_they_cannot_be_checked(cli: Cli) -> None:
    a, b = _stats_a_and_b(cli, "bleu", cli.ref, cli.ref)
    lines = Path(b).read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0].split(" ", 1)[1])
    del header["references"]
    lines[0] = "#meteor-eval-stats " + json.dumps(header)
    Path(b).write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, _, err = cli.run("bleu", "--from-stats", a, b, "--names", "x,y")
    assert status == 0 and "cannot check that the files are of the same segments" in err


# -- 7. negative --seed: a usage error in every command ---------------------------------------


@pytest.mark.parametrize(
    "command", ["score", "bleu", "rouge", "compare", "report", "train"]
)  # fmt: skip
def test_negative_seed_is_a_usage_error(cli: Cli, command: str) -> None:
    extra = {
        "train": ["--input", str(TINY), "--out", f"{cli.folder}/p.json"],
        "report": [*cli.inputs, "-o", f"{cli.folder}/r.html"],
    }.get(command, [*cli.inputs, "--ci"])
    line = cli.refused(command, *extra, "--seed", "-1")
    assert line == (
        f"meteor-eval {command}: error: --seed: -1 is invalid; allowed: an integer >= 0"
    )


@pytest.mark.parametrize("n", ["0", "1", "39"])
def test_n_samples_too_few_for_an_interval_is_refused(cli: Cli, n: str) -> None:
    line = cli.refused("bleu", *cli.inputs, "--ci", "--n-samples", n)
    assert "--n-samples: " in line and "integer >= 40" in line


def test_n_samples_minimum_follows_the_confidence(cli: Cli) -> None:
    argv = ["bleu", *cli.inputs, "--ci", "--n-samples", "40"]
    assert cli.run(*argv)[0] == 0
    status, _, err = cli.run(*argv, "--confidence", "0.99")
    assert status == 2 and "integer >= 200" in err


def test_paired_ar_trials_need_only_be_positive(cli: Cli) -> None:
    argv = ["bleu", "--hyp", cli.hyp, cli.ref, "--ref", cli.ref, "--paired-ar"]
    assert cli.run(*argv, "--n-samples", "5")[0] == 0
    status, _, err = cli.run(*argv, "--n-samples", "0")
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
def test_malformed_scheduler_is_a_usage_error(cli: Cli, value: str, reason: str) -> None:
    argv = ["bleu", *cli.inputs, "--scheduler", value]
    line = cli.refused(*argv)
    assert line.startswith("meteor-eval bleu: error: --scheduler: ") and reason in line


def test_unreachable_scheduler_names_the_scheduler(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("distributed")
    import socket

    from meteor_eval import distributed

    monkeypatch.setattr(distributed, "CONNECT_TIMEOUT", 1.0)
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    argv = ["bleu", *cli.inputs, "--scheduler", address]
    line = cli.refused(*argv)
    assert f"--scheduler: cannot reach a scheduler at {address}" in line
    assert "cannot write" not in line


# -- options accepted and ignored --------------------------------------------------------------


@pytest.mark.parametrize("flavour", ["nltk", "paper2005"])
def test_task_with_a_flavour_that_has_no_tasks_is_refused(cli: Cli, flavour: str) -> None:
    argv = ["score", *cli.inputs, "--flavour", flavour]
    line = cli.refused(*argv, "--task", "adq")
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
def test_empty_option_values_are_refused(cli: Cli, command: str, option: str, value: str) -> None:
    inputs = cli.inputs
    if command == "train":
        inputs = ["--input", str(TINY), "--out", f"{cli.folder}/p.json"]
    line = cli.refused(command, *inputs, option, value)
    assert line == (
        f"meteor-eval {command}: error: {option}: an empty value; give a value or leave the "
        "option out"
    )


def test_skip_distance_below_minus_one_is_refused(cli: Cli) -> None:
    argv = ["rouge", *cli.inputs, "--types", "rougeS"]
    status, _, err = cli.run(*argv, "--skip-distance", "-5")
    assert status == 2 and "--skip-distance: -5 is invalid" in _one_error_line(err)
    assert cli.run(*argv, "--skip-distance", "-1")[0] == 0


# -- segment numbers: line N of the input is segment N in every output ------------------------


def test_every_output_numbers_segments_from_one(cli: Cli) -> None:
    import csv
    import io

    base = ["score", *cli.inputs, "--sentence-level"]
    base += ["--modules", "exact"]
    align_file = f"{cli.folder}/al.jsonl"
    status, out, _ = cli.run(*base, "-f", "json", "--alignments", align_file)
    assert status == 0
    segments = json.loads(out)["systems"][0]["segments"]
    by_number = {seg["segment"]: seg["meteor"]["score"] for seg in segments}
    assert sorted(by_number) == list(range(1, len(HYPS) + 1))
    aligned = [json.loads(line) for line in Path(align_file).read_text().splitlines()]
    assert {a["segment"]: a["score"] for a in aligned} == by_number
    jsonl = [json.loads(line) for line in cli.run(*base, "-f", "jsonl")[1].splitlines()]
    assert {r["segment"]: r["meteor"]["score"] for r in jsonl} == by_number
    rows = list(csv.DictReader(io.StringIO(cli.run(*base, "-f", "csv")[1])))
    assert {int(r["segment"]): float(r["meteor"]) for r in rows} == by_number
    text = cli.run(*base)[1]
    assert f"Segment 1 score:\t{by_number[1]!r}" in text
    two = cli.run(*base[:3], cli.ref, *base[3:], "--names", "a,b")[1]
    table = two.split("METEOR per segment\n", 1)[1].splitlines()
    assert table[0] == "segment\ta\tb" and table[1].split("\t")[:2] == ["1", repr(by_number[1])]
    explained = cli.run("explain", *cli.inputs, "--segment", "1", "--modules", "exact")[1]
    assert f"score: {by_number[1]!r}" in explained
    aligned_cmd = cli.run("align", *cli.inputs, "--format", "jsonl", "--modules", "exact")[1]
    assert [json.loads(line)["segment"] for line in aligned_cmd.splitlines()] == list(
        range(1, len(HYPS) + 1)
    )


# -- statistics of another metric, messages that name the right thing -------------------------


@pytest.mark.parametrize(
    ("made_by", "command"),
    [("bleu", "score"), ("bleu", "rouge"), ("rouge", "bleu"), ("score", "bleu")],
)
def test_a_command_refuses_statistics_of_another_metric(
    cli: Cli, made_by: str, command: str
) -> None:
    stats = f"{cli.folder}/x.stats"
    _stats(cli, made_by, cli.hyp, cli.ref, stats)
    line = cli.refused(command, "--from-stats", stats)
    assert f"--from-stats: {stats} holds" in line and f"'meteor-eval {command}' re-scores" in line
    assert cli.run("compare", "--from-stats", stats)[0] == 0


def _params(cli: Cli) -> str:
    out = cli.folder / "tuned.json"
    status, _, _ = cli.run(
        "train", "--input", str(TINY), "--modules", "exact,stem,synonym",
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
def test_params_errors_name_the_file(cli: Cli, extra: list[str], message: str) -> None:
    params = _params(cli)
    argv = ["score", *cli.inputs, "--params", params, *extra]
    line = cli.refused(*argv)
    assert f"error: --params: {params}: {message}" in line and "params: params" not in line


def test_params_with_an_unknown_module_names_the_file(cli: Cli) -> None:
    params = _params(cli)
    doc = json.loads(Path(params).read_text(encoding="utf-8"))
    doc["modules"] = ["exact", "stem", "bogus"]
    Path(params).write_text(json.dumps(doc), encoding="utf-8")
    argv = ["score", *cli.inputs, "--params", params]
    status, _, err = cli.run(*argv)
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
    cli: Cli, command: str, option: str, name: str
) -> None:
    blocker = cli.folder / "plain"
    blocker.write_text("not a folder", encoding="utf-8")
    target = f"{blocker}/{name}"
    argv = [command, *cli.inputs, option, target]
    line = cli.refused(*argv)
    assert f"cannot write {target}: " in line and "plain is a file, not a folder" in line
    assert "does not exist" not in line


def test_stem_of_the_language_independent_setting_explains_xx(
    cli: Cli,
) -> None:
    line = cli.refused("stem", "--lang", "xx", str(TINY))
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
    cli: Cli, command: str, extra: list[str], message: str
) -> None:
    line = cli.refused(command, *cli.inputs, *extra)
    assert message in line


def test_smoothing_value_with_floor_is_used(cli: Cli) -> None:
    argv = ["bleu", *cli.inputs, "--smooth-method", "floor"]
    status, out, _ = cli.run(*argv, "--smooth-value", "0.5")
    assert status == 0 and "smooth:floor[0.50]" in out


def test_report_paired_test_of_one_system_is_refused(cli: Cli) -> None:
    pytest.importorskip("jinja2")
    out = cli.folder / "r.html"
    for test in ("--paired-bs", "--paired-ar"):
        status, _, err = cli.run("report", *cli.inputs, "-o", str(out), test)
        assert status == 2 and f"{test} compares systems with a baseline" in _one_error_line(err)
        assert not out.exists()


def test_empty_input_scores_zero_with_a_warning(cli: Cli) -> None:
    empty = cli.folder / "empty.txt"
    empty.write_text("", encoding="utf-8")
    for command in ("score", "bleu", "rouge"):
        status, out, err = cli.run(command, "--hyp", str(empty), "--ref", str(empty))
        assert status == 0 and "no segments to score (empty input)" in err
        assert " 0.0" in out or "= 0.00" in out or "F = 0.00000" in out


def test_reference_file_of_another_length_is_refused(cli: Cli) -> None:
    short = cli.folder / "short.txt"
    short.write_text("one line\n", encoding="utf-8")
    for command in ("score", "bleu", "rouge", "align"):
        status, out, err = cli.run(command, "--hyp", cli.hyp, "--ref", str(short))
        assert status == 1 and out == ""
        assert f"has {len(HYPS)} lines but {short} has 1" in _one_error_line(err)


def test_options_that_have_their_effect_are_accepted(cli: Cli) -> None:
    cases = [
        ["rouge", "--types", "rougeS", "--skip-distance", "2"],
        ["rouge", "--types", "rougeW", "--weight", "1.5"],
        ["rouge", "--bootstrap", "40", "--seed", "5"],
        ["compare", "--metrics", "bleu,rouge", "--stemmer", "--tokenize", "intl"],
        ["bleu", "--ci", "--seed", "5", "--confidence", "0.9", "--n-samples", "40"],
    ]
    for argv in cases:
        status, _, err = cli.run(argv[0], *cli.inputs, *argv[1:])
        assert status == 0, (argv, err)


def test_rouge_bootstrap_uses_the_confidence(cli: Cli) -> None:
    argv = ["rouge", *cli.inputs, "--bootstrap", "40"]
    status, out, _ = cli.run(*argv, "--confidence", "0.9")
    assert status == 0 and "|ci:0.9|" in out
    status, _, err = cli.run(*argv, "--confidence", "0.99")
    assert status == 2 and "--bootstrap: 40 resample(s) cannot give a 99% interval" in err


def test_train_seed_with_the_grid_is_refused(cli: Cli) -> None:
    status, _, err = cli.run(
        "train", "--input", str(TINY), "--optimizer", "grid", "--seed", "3",
        "--out", f"{cli.folder}/p.json",
    )  # fmt: skip
    assert status == 2 and "--seed: only with --optimizer coordinate" in _one_error_line(err)
