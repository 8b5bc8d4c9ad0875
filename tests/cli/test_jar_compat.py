"""``meteor-eval jar-compat``: option parsing, resolution and the cases where the jar crashes.

Jar behaviour checked with ``meteor-1.5.jar`` (pycocoevalcap 1.2, OpenJDK 17); byte-exact output
is covered by ``tests/reference/test_jar_compat_golden.py``.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from meteor_eval.cli import build_parser
from meteor_eval.cli.jar_compat import run_jar
from meteor_eval.jar.config import JarConfigError, parse_java_double, resolve_settings
from meteor_eval.jar.lines import iter_stream_lines, split_jar_lines
from meteor_eval.jar.options import UnknownOptionError, parse_jar_args
from meteor_eval.jar.sgml import JavaHashtable, hashset_order
from meteor_eval.jar.stdio import java_split_fields


def _run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    source = io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8")
    status = run_jar(argv, stdin=source, stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def _settings(*options: str):  # type: ignore[no-untyped-def]
    return resolve_settings(parse_jar_args(["h", "r", *options]))


def test_subcommand_takes_the_jar_arguments_verbatim() -> None:
    args = build_parser("jar_compat").parse_args(["jar-compat", "-", "-", "-stdio", "-h", "--x"])
    assert args.jar_args == ["-", "-", "-stdio", "-h", "--x"]


def test_repeated_option_keeps_the_last_value_and_unknown_option_fails() -> None:
    assert parse_jar_args(["h", "r", "-l", "fr", "-l", "de"]).language == "de"
    with pytest.raises(UnknownOptionError, match='Unknown option "-nBest"'):
        parse_jar_args(["h", "r", "-nBest"])


@pytest.mark.parametrize(
    ("options", "eval_id", "task"),
    [
        ((), "meteor-1.5-wo-en-no_norm-0.85_0.2_0.6_0.75-ex_st_sy_pa-1.0_0.6_0.8_0.6", "Ranking"),
        (("-l", "cs"), "meteor-1.5-wo-cz-no_norm-0.95_0.2_0.6_0.8-ex_pa-1.0_0.4", "Ranking"),
        (
            ("-l", "da", "-t", "rank"),
            "meteor-1.5-wo-da-no_norm-0.0_0.0_0.0_0.0-ex_st-0.0_0.0",
            "Ranking",
        ),
        (
            ("-t", "util"),
            "meteor-1.5-wo-en-no_norm-0.65_0.1_0.55_0.65-ex_st_sy_pa-1.0_0.0_0.0_0.8",
            "Translator-Utility",
        ),
        (
            ("-p", "0.85 0.2 0.6 0.75", "-t", "li"),
            "meteor-1.5-wo-en-no_norm-0.85_0.2_0.6_0.75-ex_st_sy_pa-1.0_1.0_0.6_0.8",
            "Custom",
        ),
        (
            ("-l", "fr", "-p", "0.1 0.1 0.1 0.1"),
            "meteor-1.5-wo-fr-no_norm-0.1_0.1_0.1_0.1-ex_st_pa-0.0_0.0_0.0",
            "Custom",
        ),
        (
            ("-m", "paraphrase exact"),
            "meteor-1.5-wo-en-no_norm-0.85_0.2_0.6_0.75-pa_ex-1.0_0.6",
            "Custom",
        ),
        (
            ("-norm", "-noPunct", "-ch"),
            "meteor-1.5-ch-en-norm_nopunct-0.85_0.2_0.6_0.75-ex_st_sy_pa-1.0_0.6_0.8_0.6",
            "Ranking",
        ),
        (
            ("-new", "d", "-norm", "-ch", "-p", "0.1 0.1 0.1 0.1"),
            "meteor-1.5-wo-other-lc_only-0.7_1.4_0.3_0.7-ex_pa-1.0_0.6",
            "Universal",
        ),
    ],
)
def test_resolution_order_gives_the_jar_eval_id(
    options: tuple[str, ...], eval_id: str, task: str
) -> None:
    settings = _settings(*options)
    assert settings.eval_id == eval_id
    assert settings.task_description == task


def test_function_words_are_english_whatever_the_language() -> None:
    # Jar: `-l fr -m exact -ssOut` on "le la de the of" counts 2 function words.
    status, out, _ = _run_files(
        "le la de the of", "le la de the of", "-l", "fr", "-m", "exact", "-ssOut"
    )
    assert status == 0
    assert out.split()[2] == "2.0"


def _run_files(hyp: str, ref: str, *options: str, tmp: Path | None = None) -> tuple[int, str, str]:
    import tempfile

    folder = Path(tempfile.mkdtemp()) if tmp is None else tmp
    (folder / "h").write_text(hyp + "\n", encoding="utf-8")
    (folder / "r").write_text(ref + "\n", encoding="utf-8")
    return _run([str(folder / "h"), str(folder / "r"), *options])


def test_java_number_syntax() -> None:
    assert parse_java_double("0.1f") == 0.1
    assert parse_java_double("0x1p3") == 8.0
    with pytest.raises(JarConfigError):
        parse_java_double("1_0")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (("-l", "xx", "-t", "foo"), "Error: Unknown task (foo)"),
        (("-l", "klingon"), "Error: Unknown language (klingon)"),
        (("-m", "exact fuzzy"), "Error: Unknown module (fuzzy)"),
        (("-x",), "Error: option -x needs a value"),
    ],
)
def test_fatal_option_errors_print_one_line_and_exit_1(
    options: tuple[str, ...], message: str
) -> None:
    status, out, err = _run(["h", "r", *options])
    assert (status, out, err) == (1, "", message + "\n")


@pytest.mark.parametrize(
    ("options", "start"),
    [
        (("-m", "exact", "-p", "0.1"), "Error: -p needs 4 parameters"),
        (("-w", "1 1 1 1 1"), "Error: 5 weights for 4 modules"),
        (("-l", "da", "-norm"), "Error: Pre-process the input files"),
        (("-m", "exact", "-p", "1.5 2 3 4"), "Error: alpha (-p) must be in [0, 1]"),
    ],
)
def test_jar_crashes_become_a_clear_error_after_the_header(
    options: tuple[str, ...], start: str
) -> None:
    status, out, err = _run_files("a b", "a b", *options)
    assert status == 1
    assert out.startswith("Meteor version: 1.5\n")
    assert err.startswith(start)
    assert err.count("\n") == 1


def test_empty_input_and_missing_reference_without_norm(tmp_path: Path) -> None:
    (tmp_path / "e").write_text("", encoding="utf-8")
    status, _, err = _run([str(tmp_path / "e"), str(tmp_path / "e"), "-m", "exact", "-q"])
    assert (status, err) == (1, "Error: no segments to score (the jar crashes on empty input)\n")
    (tmp_path / "h").write_text("a\nb\n", encoding="utf-8")
    (tmp_path / "r").write_text("a\na\nb\n", encoding="utf-8")
    status, _, err = _run(
        [str(tmp_path / "h"), str(tmp_path / "r"), "-r", "2", "-m", "exact", "-q"]
    )
    assert status == 1
    assert "ends inside the group of segment 2" in err


def test_sgml_without_closing_tag_is_an_error_not_a_hang(tmp_path: Path) -> None:
    sgm = '<tstset setid="s"><doc sysid="a" docid="d">\n<seg id="1">the cat\n'
    (tmp_path / "t.sgm").write_text(sgm, encoding="utf-8")
    status, _, err = _run(
        [str(tmp_path / "t.sgm"), str(tmp_path / "t.sgm"), "-sgml", "-m", "exact"]
    )
    assert status == 1
    assert "has no closing </seg> tag" in err


def test_stdio_short_statistics_block_stops_with_an_error() -> None:
    status, out, err = _run(["-", "-", "-stdio", "-m", "exact"], "SING ||| 1 2 3\nSING ||| 1\n")
    assert (status, out) == (1, "")
    assert err.startswith("Error: a statistics block needs 23 numbers")


def test_java_line_and_field_splitting() -> None:
    assert split_jar_lines("\ufeffa\rb\r\n\nc") == ["\ufeffa", "b", "", "c"]
    assert list(iter_stream_lines(io.BytesIO(b"x\ry\r\nz\xff\n"))) == ["x", "y", "z\ufffd"]
    assert java_split_fields("SCORE ||| a |||") == ["SCORE ", " a "]
    assert java_split_fields("SCORE ||| a ||| ") == ["SCORE ", " a ", " "]


def test_java_hashtable_and_hashset_iteration_order() -> None:
    # Orders printed by java.util.Hashtable / java.util.HashSet (OpenJDK 17) for these keys.
    table: JavaHashtable[int] = JavaHashtable()
    for k, key in enumerate(["ref1", "ref2", "ref3", "b", "a"]):
        table.put(key, k)
    assert table.keys() == JAVA_HASHTABLE_ORDER
    assert hashset_order(["10", "2", "1", "x", "d1", "d2"]) == JAVA_HASHSET_ORDER


JAVA_HASHTABLE_ORDER = ["b", "ref3", "a", "ref2", "ref1"]
JAVA_HASHSET_ORDER = ["1", "2", "x", "d1", "d2", "10"]


def test_weights_above_one_are_taken_as_the_jar_takes_them(tmp_path: Path) -> None:
    # The native commands refuse these weights; the jar scores with them (here above 1), and
    # `java -jar meteor-1.5.jar h r -l en -norm -w "1.0 5 5 0"` prints exactly these lines.
    status, out, err = _run_files(
        "the dogs ran fast today", "the dog runs quickly today", "-norm", "-w", "1.0 5 5 0"
    )
    assert (status, err) == (0, "")
    assert "Weights:        1.0 5.0 5.0 0.0\n" in out
    assert "Segment 1 score:\t2.615384615384615\n" in out
    assert "Final score:            2.615384615384615\n" in out


def test_fewer_weights_than_modules_warn_as_the_jar_does() -> None:
    status, out, err = _run_files("the cat", "the cat", "-w", "1.0 0.6")
    assert status == 0
    assert err == (
        "Warning: More modules than weights specified - modules with no weights will not"
        " be counted.\n"
    )
    assert "Final score:            1.0\n" in out
