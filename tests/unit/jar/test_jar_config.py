"""The jar's option resolution: Java number parsing, the fixed order, header, Eval ID, checks."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import pytest

from meteor_eval.jar.config import (
    JarConfigError,
    JarSettings,
    parse_java_double,
    parse_java_int,
    resolve_settings,
)
from meteor_eval.jar.options import parse_jar_args
from meteor_eval.metrics.meteor import MeteorConfig

CASES = Path(__file__).resolve().parents[2] / "reference" / "golden" / "jar" / "cases.json.gz"


def settings(*options: str) -> JarSettings:
    return resolve_settings(parse_jar_args(["hyp", "ref", *options]))


class TestParseJavaDouble:
    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("1", 1.0),
            ("-2.5", -2.5),
            ("+.5", 0.5),
            ("5.", 5.0),
            ("1e2", 100.0),
            ("1.5E-1", 0.15),
            ("0.5f", 0.5),
            ("2D", 2.0),
            ("  0.25\t", 0.25),  # String.trim, as Double.parseDouble does
            ("Infinity", math.inf),
            ("-Infinity", -math.inf),
            ("0x1p4", 16.0),
            ("-0X.8P1d", -1.0),
            ("0x1.8p0", 1.5),
        ],
    )
    def test_accepts_java_syntax(self, text: str, expected: float) -> None:
        assert parse_java_double(text) == expected

    def test_nan(self) -> None:
        assert math.isnan(parse_java_double("NaN"))
        assert math.isnan(parse_java_double("-NaN"))

    @pytest.mark.parametrize("text", ["", "abc", "1,5", "inf", "nan", "1e", "0x10", "1.2.3", "--1"])
    def test_rejects_what_java_rejects(self, text: str) -> None:
        with pytest.raises(JarConfigError) as caught:
            parse_java_double(text)
        assert str(caught.value) == f'Error: not a number: "{text}"'


class TestParseJavaInt:
    @pytest.mark.parametrize(
        ("text", "expected"), [("40", 40), ("+3", 3), ("-7", -7), ("2147483647", 2**31 - 1)]
    )
    def test_accepts_32_bit_decimal_integers(self, text: str, expected: int) -> None:
        assert parse_java_int(text, option="-x") == expected

    @pytest.mark.parametrize("text", ["2147483648", "-2147483649", "1.0", " 4", "4 ", "", "0x10"])
    def test_rejects_the_rest_naming_the_option(self, text: str) -> None:
        with pytest.raises(JarConfigError) as caught:
            parse_java_int(text, option="-r")
        assert str(caught.value) == f'Error: -r needs an integer, got "{text}"'


class TestResolveSettings:
    def test_defaults_are_english_rank_with_four_modules(self) -> None:
        s = settings()
        assert (s.language.long_name, s.task) == ("english", "rank")
        assert s.parameters == (0.85, 0.2, 0.6, 0.75)
        assert s.modules == ("exact", "stem", "synonym", "paraphrase")
        assert s.weights == (1.0, 0.6, 0.8, 0.6)
        assert (s.beam, s.normalization, s.char_based) == (40, "none", False)
        assert s.function_words_file is not None
        assert s.function_words_file.endswith("english.words")
        assert (s.synonym_dir, s.paraphrase_file) == (None, None)

    def test_language_without_normaliser_defaults_to_task_li(self) -> None:
        s = settings("-l", "da")
        assert (s.language.long_name, s.task) == ("danish", "li")
        assert s.parameters == (0.75, 1.4, 0.7, 0.5)

    def test_function_words_stay_english_whatever_the_language(self) -> None:
        # The jar sets the list before reading -l and never updates it.
        assert settings("-l", "fr").function_words_file == settings().function_words_file
        assert settings("-l", "fr", "-s", "mine.words").function_words_file == "mine.words"

    @pytest.mark.parametrize(
        ("task", "expected"),
        [("DEFAULT", "rank"), ("Adq", "adq"), ("util", "util"), ("customized", "custom")],
    )
    def test_task_names_follow_the_jar(self, task: str, expected: str) -> None:
        assert settings("-t", task).task == expected

    def test_task_util_alone_stays_word_based(self) -> None:
        assert settings("-t", "util").char_based is False
        assert settings("-t", "util", "-ch").char_based is True

    def test_parameters_anywhere_make_the_task_custom(self) -> None:
        s = settings("-p", "0.5 1 0.5 0.5 9", "-t", "hter")
        assert s.task == "custom"
        assert s.parameters == (0.5, 1.0, 0.5, 0.5, 9.0)
        assert s.task_description == "Custom"

    def test_weights_alone_make_the_task_custom_and_keep_their_length(self) -> None:
        s = settings("-w", "1 0.5")
        assert (s.task, s.weights) == ("custom", (1.0, 0.5))
        assert len(s.modules) == 4

    def test_modules_resize_the_weights_by_position(self) -> None:
        s = settings("-m", "exact SYNONYM", "-w", "1 0.25 0.5")
        assert s.modules == ("exact", "synonym")
        assert s.weights == (1.0, 0.25)
        padded = settings("-m", "exact stem synonym", "-w", "1")
        assert padded.weights == (1.0, 0.0, 0.0)
        assert padded.task == "custom"

    def test_normalisation_flags(self) -> None:
        assert settings("-norm").normalization == "norm"
        assert settings("-norm", "-noPunct").normalization == "norm_nopunct"
        assert settings("-lower").normalization == "lower"
        assert settings("-norm", "-lower").normalization == "norm"
        assert settings("-noPunct").normalization == "none"  # -noPunct needs -norm

    def test_resources_and_beam(self) -> None:
        s = settings("-x", "3", "-d", "syn", "-a", "para.gz")
        assert (s.beam, s.synonym_dir, s.paraphrase_file) == (3, "syn", "para.gz")

    def test_new_language_overrides_everything(self) -> None:
        s = settings("-new", "dir", "-l", "fr", "-t", "adq", "-m", "exact", "-ch", "-norm")
        assert (s.language.long_name, s.task, s.normalization) == ("other", "universal", "lower")
        assert s.char_based is False
        assert s.function_words_file == str(Path("dir") / "function.words")
        assert s.paraphrase_file == str(Path("dir") / "paraphrase.gz")
        assert s.task_description == "Universal"

    @pytest.mark.parametrize(
        ("options", "message"),
        [
            (("-l", "klingon"), "Error: Unknown language (klingon)"),
            (("-t", "fast"), "Error: Unknown task (fast)"),
            (("-m", "exact fuzzy"), "Error: Unknown module (fuzzy)"),
            (("-p", "0.5 x"), 'Error: not a number: "x"'),
            (("-w", "1,0"), 'Error: not a number: "1,0"'),
            (("-x", "forty"), 'Error: -x needs an integer, got "forty"'),
        ],
    )
    def test_errors_before_scoring(self, options: tuple[str, ...], message: str) -> None:
        with pytest.raises(JarConfigError) as caught:
            settings(*options)
        assert str(caught.value) == message


class TestHeaderAndEvalId:
    def test_eval_id_hand_built(self) -> None:
        s = settings("-l", "en", "-norm", "-m", "exact stem synonym", "-ch")
        assert s.eval_id == "meteor-1.5-ch-en-norm-0.85_0.2_0.6_0.75-ex_st_sy-1.0_0.6_0.8"

    def test_header_lines(self) -> None:
        header = settings("-l", "da").header(sgml=True)
        assert header.splitlines() == [
            "Meteor version: 1.5",
            "",
            "Eval ID:        meteor-1.5-wo-da-no_norm-0.75_1.4_0.7_0.5-ex_st-1.0_0.5",
            "",
            "Language:       Danish",
            "Format:         SGML",
            "Task:           Language-Independent",
            "Modules:        exact stem",
            "Weights:        1.0 0.5",
            "Parameters:     0.75 1.4 0.7 0.5",
            "",
        ]
        assert header.endswith("\n\n")

    def test_headers_equal_the_jar_goldens(self) -> None:
        # Every golden run of the jar that prints a header (made by scripts/make_jar_golden.py).
        with gzip.open(CASES, "rt", encoding="utf-8") as handle:
            cases = json.load(handle)
        checked = 0
        for name, case in cases.items():
            if not case["stdout"].startswith("Meteor version: 1.5\n"):
                continue
            args = [a.format(inputs="in", data="data", out="out") for a in case["args"]]
            options = parse_jar_args(args)
            header = resolve_settings(options).header(sgml=options.sgml)
            assert case["stdout"].startswith(header), name
            checked += 1
        assert checked >= 20


class TestMeteorConfig:
    def test_settings_become_the_scorer_config(self) -> None:
        config = settings("-l", "en", "-norm", "-m", "exact stem", "-x", "5").meteor_config()
        assert isinstance(config, MeteorConfig)
        assert (config.flavour, config.language, config.normalization) == (
            "meteor15",
            "english",
            "norm",
        )
        assert (config.modules, config.weights, config.beam) == (
            ("exact", "stem"),
            (1.0, 0.6),
            5,
        )
        assert (config.alpha, config.beta, config.gamma, config.delta) == (0.85, 0.2, 0.6, 0.75)

    def test_only_the_first_four_parameters_are_used(self) -> None:
        config = settings("-p", "0.5 1 0.5 0.25 9 9", "-m", "exact").meteor_config()
        assert (config.alpha, config.beta, config.gamma, config.delta) == (0.5, 1.0, 0.5, 0.25)

    @pytest.mark.parametrize(
        ("options", "message"),
        [
            (("-p", "0.5 1 0.5"), "Error: -p needs 4 parameters (alpha beta gamma delta), got 3"),
            (
                ("-l", "da", "-norm"),
                "Error: Pre-process the input files and run Meteor without the -norm option."
                " (No normalizer for language (danish))",
            ),
            (
                ("-w", "1 1 1 1 1"),
                "Error: 5 weights for 4 modules; give at most one weight per module (-w)",
            ),
            (("-x", "0"), "Error: beam size (-x) must be at least 1, got 0"),
            (("-p", "1.5 1 0.5 0.5"), "Error: alpha (-p) must be in [0, 1], got 1.5"),
            (("-p", "0.5 1 -0.1 0.5"), "Error: gamma (-p) must be in [0, 1], got -0.1"),
            (("-p", "0.5 1 0.5 NaN"), "Error: delta (-p) must be in [0, 1], got nan"),
            (("-p", "0.5 -1 0.5 0.5"), "Error: beta (-p) must be a finite number >= 0, got -1.0"),
            (
                ("-p", "0.5 Infinity 0.5 0.5"),
                "Error: beta (-p) must be a finite number >= 0, got inf",
            ),
            (
                ("-m", "exact stem", "-w", "1 -0.5"),
                "Error: weight 2 (-w) must be a finite number >= 0, got -0.5",
            ),
        ],
    )
    def test_rejects_what_the_jar_crashes_on(self, options: tuple[str, ...], message: str) -> None:
        s = settings(*options)  # resolving succeeds: the jar prints its header first
        with pytest.raises(JarConfigError) as caught:
            s.meteor_config()
        assert str(caught.value) == message
