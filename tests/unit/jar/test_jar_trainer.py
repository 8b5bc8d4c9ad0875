"""``jar-compat Trainer``: the jar's command line, its data-directory conventions and refusals.

Alignment is replaced by canned statistics (``_segment_lines`` patched) so that each convention is
checked by itself; byte-exact output on real data is ``tests/reference/test_trainer_golden.py``.
Jar behaviour (usage on stdout with status 0, ``Unknown option``, ``Please specify a valid
task``) checked with ``meteor-1.5.jar`` (pycocoevalcap 1.2, OpenJDK 17).
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from pathlib import Path

import pytest

from meteor_eval.jar import trainer
from meteor_eval.jar.trainer import TRAINER_USAGE, _two_decimals, run_trainer
from meteor_eval.javafmt import java_double

# hyp 4 words, ref 4, all content; exact matches: 4 in 1 chunk (perfect), 4 in 2, 2 in 1.
PERFECT = "4.0 4.0 0.0 0.0 4.0 4.0 0.0 0.0" + " 0.0" * 12 + " 1.0 4.0 4.0"
TWO_CHUNKS = "4.0 4.0 0.0 0.0 4.0 4.0 0.0 0.0" + " 0.0" * 12 + " 2.0 4.0 4.0"
HALF = "4.0 4.0 0.0 0.0 2.0 2.0 0.0 0.0" + " 0.0" * 12 + " 1.0 2.0 2.0"
ONE_POINT = ["-i", "0.5 1.0 0.5 1.0 1.0 0.0 0.0 0.0", "-f", "0.5 1.0 0.5 1.0 1.0 0.0 0.0 0.0"]


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run_trainer(argv, out=out, err=err)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def meteor_calls(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Record the Meteor arguments and answer with canned segment lines per test file."""
    calls: list[list[str]] = []
    canned = {
        "a.tst": [["s", "a", "d1", "1", PERFECT], ["s", "a", "d1", "2", TWO_CHUNKS]],
        "b.tst": [["s", "b", "d1", "1", HALF]],
        "fr-en.sys1.sgm": [["s", "x", "d", "1", PERFECT], ["s", "x", "d", "2", HALF]],
        "fr-en.sys2.sgm": [["s", "y", "d", "1", TWO_CHUNKS], ["s", "y", "d", "2", HALF]],
    }

    def fake(args: list[str], err: object) -> list[list[str]]:
        calls.append(args)
        return canned[Path(args[0]).name]

    monkeypatch.setattr(trainer, "_segment_lines", fake)
    return calls


def _listing(monkeypatch: pytest.MonkeyPatch, names: list[str]) -> None:
    monkeypatch.setattr(trainer, "_list_dir", lambda path: list(names))


def test_fewer_than_two_arguments_print_the_usage_on_stdout() -> None:
    assert _run(["segcor"]) == (0, TRAINER_USAGE, "")
    assert TRAINER_USAGE.startswith("Meteor Trainer version 1.5\nUsage: java -XX:+UseCompressed")


def test_jar_messages_for_unknown_options_and_tasks() -> None:
    assert _run(["segcor", "d", "-x"]) == (1, "", 'Unknown option "-x"\n')
    assert _run(["tune", "d"]) == (1, "", "Please specify a valid task\n")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["segcor", "d", "-i"], "Error: option -i needs a value\n"),
        (["rank", "d", "-e", "small"], 'Error: -e: "small" is not a number\n'),
        (["rank", "d", "-f", "1 2 x"], 'Error: -f: "x" is not a number\n'),
        # A step list of one value leaves the other seven at 0.0: the jar loops forever.
        (["rank", "d", "-s", "0.1"], "Error: -i/-f/-s: value 2: step 0.0 never reaches"),
        (["rank", "d", "-s", "1 1 1 1 1 1 1 1 1"], "Error: -i/-f/-s: 9 steps for 8 initial"),
    ],
)
def test_bad_options_are_one_line_and_status_2(argv: list[str], message: str) -> None:
    status, out, err = _run(argv)
    assert (status, out) == (2, "")
    assert err.startswith(message) and err.count("\n") == 1


def test_missing_data_directory_is_one_line(tmp_path: Path) -> None:
    status, out, err = _run(["segcor", str(tmp_path / "nowhere")])
    assert (status, out) == (1, "")  # a data error, as jar-compat Parex; options give 2
    assert err == f"Error: data directory {tmp_path / 'nowhere'}: No such file or directory\n"


def test_segcor_reads_judgements_and_prints_the_correlation(
    tmp_path: Path, meteor_calls: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.ter").write_text("d1 1 0.0\nd1 2 0.5\n", encoding="utf-8")
    (tmp_path / "b.ter").write_text("d1\t1 1.0 extra\n", encoding="utf-8")
    _listing(monkeypatch, ["a.ter", "a.tst", "a.ref", "b.ter", "b.tst", "b.ref"])
    status, out, err = _run(["segcor", str(tmp_path), *ONE_POINT])
    assert status == 0, err
    # alpha 0.5, beta 1, gamma 0.5, delta 1, weights 1 0 0 0: scores 1.0 (perfect), 0.75
    # (penalty 0.5 * 2/4), 0.5 * (1 - 0.5 * 1/2) = 0.375; judgements 0.0, 0.5, 1.0; each
    # weighted by its reference length 4: Pearson's r of the three.
    x, y = [1.0, 0.75, 0.375], [0.0, 0.5, 1.0]
    mx, my = sum(x) / 3, sum(y) / 3
    cxy = sum((a - mx) * (b - my) for a, b in zip(x, y, strict=True))
    cxx = sum((a - mx) ** 2 for a in x)
    cyy = sum((b - my) ** 2 for b in y)
    assert math.isclose(float(out.split()[0]), cxy / math.sqrt(cxx * cyy), rel_tol=1e-12)
    assert out.split(" ", 1)[1] == "0.50 1.00 0.50 1.00 1.00 0.00 0.00 0.00\n"
    assert err.startswith("a\n") and "\nb\n" in err
    # Meteor runs as the jar's getMArgs: default English modules, weights 1.0 0.5 ..., -norm.
    assert meteor_calls[0] == [
        f"{tmp_path}/a.tst", f"{tmp_path}/a.ref", "-sgml", "-ssOut", "-l", "en",
        "-m", "exact stem synonym paraphrase", "-w", "1.0 0.5 0.5 0.5",
        "-p", "0.5 0.5 0.5 0.5", "-norm",
    ]  # fmt: skip


def test_segcor_options_reach_meteor(
    tmp_path: Path, meteor_calls: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "b.ter").write_text("d1 1 1.0\n", encoding="utf-8")
    _listing(monkeypatch, ["b.ter"])
    argv = ["spearman", str(tmp_path), "-ch", "-multi", "-a", "para.gz", "-l", "fr", *ONE_POINT]
    status, out, _ = _run(argv)
    # One segment: ranks are constant, r is NaN, printed as 0.0 like the jar.
    assert (status, out) == (0, "0.0 0.50 1.00 0.50 1.00 1.00 0.00 0.00 0.00\n")
    # French's default modules (no synonyms), -ch passed on, no -norm after -multi.
    assert meteor_calls[0][4:] == [
        "-l", "fr", "-m", "exact stem paraphrase", "-a", "para.gz",
        "-w", "1.0 0.5 0.5", "-p", "0.5 0.5 0.5 0.5", "-ch",
    ]  # fmt: skip


# Judgement files the Trainer refuses: (content, message), segcor's a.ter, then rank's fr-en.rank.
BAD_TER = [
    ("d1 1\n", "a.ter line 1: expected DOC SEG SCORE, got 'd1 1'"),
    ("d1 1 0.5\n\n", "a.ter line 2: expected DOC SEG SCORE, got ''"),
    ("d1 1 high\n", 'a.ter line 1: score "high" is not a number'),
    ("d1 1 0.5\n", "a.ter has no score for document d1 segment 2"),
]
BAD_RANK = [
    ("1\tfr-en\tsys1\tfr-en\n", "fr-en.rank line 1: expected SEG, LANGPAIR1, SYSTEM1"),
    ("1\tde-en\tsys1\tfr-en\tsys2\n", "fr-en.rank line 1: no system file for de-en"),
    ("9\tfr-en\tsys1\tfr-en\tsys2\n", "fr-en.rank line 1: fr-en.sys1 has no segment 9"),
]
# task -> the judgement file's name and the data folder's listing
BAD_FILE_TASKS = {
    "segcor": ("a.ter", ["a.ter"]),
    "rank": ("fr-en.rank", ["fr-en.sys1.sgm", "fr-en.sys2.sgm", "fr-en.rank"]),
}


@pytest.mark.parametrize(
    ("task", "content", "message"),
    [("segcor", *case) for case in BAD_TER] + [("rank", *case) for case in BAD_RANK],
)
def test_bad_judgement_files_are_one_line(
    tmp_path: Path,
    meteor_calls: list[list[str]],
    monkeypatch: pytest.MonkeyPatch,
    task: str,
    content: str,
    message: str,
) -> None:
    name, listing = BAD_FILE_TASKS[task]
    (tmp_path / name).write_text(content, encoding="utf-8")
    _listing(monkeypatch, listing)
    status, out, err = _run([task, str(tmp_path), *ONE_POINT])
    assert (status, out) == (1, "")
    assert message in err.splitlines()[-1] and err.endswith("\n")


def test_rank_counts_agreeing_pairs_and_skips_unknown_systems(
    tmp_path: Path, meteor_calls: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "fr-en.rank").write_text(
        "1\tfr-en\tsys1\tfr-en\tsys2\n"  # 1.0 > 0.75: agrees
        "2\tfr-en\tsys2\tfr-en\tsys1\n"  # 0.375 = 0.375: does not
        "1\tfr-en\tsys3\tfr-en\tsys1\n"  # no such system: skipped
        "1\tfr-en\tsys3\tde-en\tsys1\n",  # skipped before de-en is looked up, as in the jar
        encoding="utf-8",
    )
    names = ["fr-en.sys1.sgm", "fr-en.ref.sgm", "fr-en.rank", "fr-en.sys2.sgm"]
    _listing(monkeypatch, names)
    status, out, err = _run(["rank", str(tmp_path), "-l", "de", "-ch", *ONE_POINT])
    assert status == 0, err
    assert out == f"{java_double(0.0)} 0.50 1.00 0.50 1.00 1.00 0.00 0.00 0.00\n"
    # -l and -ch do not reach Meteor in rank mode: the language comes from the file name.
    assert meteor_calls[0] == [
        f"{tmp_path}/fr-en.sys1.sgm", f"{tmp_path}/fr-en.ref.sgm", "-sgml", "-ssOut",
        "-l", "en", "-m", "exact paraphrase", "-w", "1.0 0.5", "-p", "0.5 0.5 0.5 0.5",
        "-lower",
    ]  # fmt: skip
    assert err.endswith("fr-en.rank\n")
    status, out, _ = _run(["rank", str(tmp_path), "-e", "-0.5", *ONE_POINT])
    assert out.startswith("1.0 ")


def test_rank_system_file_names_need_two_dots(monkeypatch: pytest.MonkeyPatch) -> None:
    _listing(monkeypatch, ["README"])
    status, _, err = _run(["rank", "d"])
    assert status == 1
    assert err == (
        "Error: README: a system file is named LANGPAIR.SYSTEM.sgm (e.g. fr-en.sys1.sgm)\n"
    )


# new DecimalFormat("0.00").format(value) on OpenJDK 17: half-even on the binary value.
DECIMAL_FORMAT = [
    (-0.0, "-0.00"),
    (-0.001, "-0.00"),
    (0.125, "0.12"),
    (0.375, "0.38"),
    (0.005, "0.01"),
    (0.015, "0.01"),
    (2.675, "2.67"),
    (1.0000000000000002, "1.00"),
    (0.15000000000000002, "0.15"),
    (-1.5, "-1.50"),
    (1e20, "100000000000000000000.00"),
]
# Double.toString on OpenJDK 17, at the edges of the positional range the Trainer prints in.
DOUBLE_TO_STRING = [
    (0.001, "0.001"),
    (0.0009999999999999998, "9.999999999999998E-4"),
    (9999999.999999998, "9999999.999999998"),
    (1e7, "1.0E7"),
    (-0.5737942693444108, "-0.5737942693444108"),
    (0.30000000000000004, "0.30000000000000004"),
]


@pytest.mark.parametrize(
    ("java_format", "value", "text"),
    [(_two_decimals, *case) for case in DECIMAL_FORMAT]
    + [(java_double, *case) for case in DOUBLE_TO_STRING],
)
def test_numbers_print_as_java_formats_them(
    java_format: Callable[[float], str], value: float, text: str
) -> None:
    """The Trainer prints numbers as Java does: ``DecimalFormat("0.00")``, ``Double.toString``."""
    assert java_format(value) == text


def test_empty_data_directories_print_the_jars_values(tmp_path: Path) -> None:
    # No segment: the correlations are NaN, printed 0.0; no judged pair: 0 / 0 = NaN.
    point = "0.50 1.00 0.50 1.00 1.00 0.00 0.00 0.00\n"
    assert _run(["segcor", str(tmp_path), *ONE_POINT]) == (0, "0.0 " + point, "")
    assert _run(["spearman", str(tmp_path), *ONE_POINT]) == (0, "0.0 " + point, "")
    assert _run(["rank", str(tmp_path), *ONE_POINT]) == (0, "NaN " + point, "")


def test_a_scorer_failure_inside_the_trainer_is_one_line(tmp_path: Path) -> None:
    """The jar-compatible Meteor's own reason joins the files it was scoring, on one line."""
    data = Path(__file__).resolve().parents[2] / "data" / "trainer" / "segcor"
    folder = tmp_path / "d"
    folder.mkdir()
    for name in ("xray1.tst", "xray1.ter"):  # the reference is missing
        (folder / name).write_bytes((data / name).read_bytes())
    status, _, err = _run(["segcor", str(folder), *ONE_POINT])
    assert status == 1
    lines = [line for line in err.splitlines() if line.startswith("Error:")]
    assert lines == [
        f"Error: could not score {folder / 'xray1.tst'} against {folder / 'xray1.ref'}: "
        f"{folder / 'xray1.ref'} (No such file or directory)"
    ]
