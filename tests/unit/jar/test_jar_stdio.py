"""The jar's stdio protocol: field splitting, statistics blocks, each command and its errors."""

from __future__ import annotations

import io

import pytest

from meteor_eval.errors import InputError
from meteor_eval.jar.stdio import StdioSession, java_split_fields, parse_stats_block
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.stats.meteor import MeteorStats

SEG1 = "6 6 3 3 2 2 3 3 0 0 0 0 0 0 0 0 0 0 0 0 1 5 5"
SEG2 = "2 2 1 1 1 1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 1 2 2"
PERFECT_LINE = "2.0 2.0 1.0 1.0 1.0 1.0 1.0 1.0 " + "0.0 " * 12 + "1.0 2.0 2.0"


@pytest.fixture(scope="module")
def session() -> StdioSession:
    # English rank parameters and the weights of exact, stem, synonym (spec 5.5's example).
    return StdioSession(
        Meteor(MeteorConfig.preset("meteor15", modules=("exact", "stem", "synonym")))
    )


@pytest.mark.parametrize(
    ("line", "fields"),
    [
        ("SCORE ||| a ||| b", ["SCORE ", " a ", " b"]),
        ("SCORE ||| a ||| b |||", ["SCORE ", " a ", " b "]),
        ("SCORE ||| a ||||||", ["SCORE ", " a "]),
        ("SCORE |||| a", ["SCORE ", "| a"]),
        ("||| a", ["", " a"]),
        ("|||", []),
        ("", []),
    ],
)
def test_fields_split_as_java_string_split(line: str, fields: list[str]) -> None:
    assert java_split_fields(line) == fields


class TestParseStatsBlock:
    def test_reads_23_numbers_and_ignores_the_rest(self) -> None:
        block = parse_stats_block(" " + SEG1 + " 99 x ")
        assert block == MeteorStats.from_row(SEG1.split())

    def test_reads_java_doubles_and_thousands_separators(self) -> None:
        text = "1,000.0 " + " ".join(["0.0"] * 22)
        assert parse_stats_block(text).hyp_length == 1000

    def test_too_few_numbers(self) -> None:
        with pytest.raises(InputError, match="needs 23 numbers, got 2: '1 2'"):
            parse_stats_block(" 1 2 ")

    def test_not_a_number(self) -> None:
        with pytest.raises(InputError, match="not a number in a statistics block: 'x'"):
            parse_stats_block("x " + " ".join(["0"] * 22))

    @pytest.mark.parametrize("bad", ["-1", "0.5", "NaN"])
    def test_counts_must_be_whole_and_non_negative(self, bad: str) -> None:
        with pytest.raises(InputError, match="field 1 must be a non-negative whole number"):
            parse_stats_block(bad + " " + " ".join(["0"] * 22))


class TestAnswers:
    def test_score_gives_the_statistics_of_the_best_reference(self, session: StdioSession) -> None:
        assert session.answer("SCORE ||| the dog ||| the cat ||| the cat") == [PERFECT_LINE]

    def test_score_fields_are_trimmed(self, session: StdioSession) -> None:
        assert session.answer("score |||   the cat\t||| the cat ") == [PERFECT_LINE]

    def test_commands_are_recognised_by_their_first_letters(self, session: StdioSession) -> None:
        # As the jar answers "SCOREXYZ ||| ..." (golden case stdio-esn).
        assert session.answer("SCOREXYZ ||| the cat ||| the cat") == [PERFECT_LINE]

    def test_eval_scores_each_block_then_their_pool(self, session: StdioSession) -> None:
        assert session.answer(f"EVAL ||| {SEG1} ||| {SEG2}") == [
            "0.423849151345037",
            "1.0",
            "0.4821646797172655",
        ]

    def test_sing_scores_one_block(self, session: StdioSession) -> None:
        assert session.answer(f"SING ||| {SEG2}") == ["1.0"]
        assert session.answer(f"sing ||| {SEG1}") == ["0.423849151345037"]

    @pytest.mark.parametrize(
        ("line", "answer"),
        [
            ("SCORE ||| the cat", "Error: specify hypothesis and at least one reference"),
            ("SCORE ||| the cat |||", "Error: specify hypothesis and at least one reference"),
            ("EVAL", "Error: specify Meteor stats"),
            ("EVAL |||", "Error: specify Meteor stats"),
            ("SING", "Error: specify Meteor stats"),
            (f"SING ||| {SEG1} ||| {SEG2}", "Error: specify Meteor stats"),
            ("Score ||| a ||| a", "Error: specify SCORE or EVAL or SING"),
            ("", "Error: specify SCORE or EVAL or SING"),
        ],
    )
    def test_malformed_commands_get_the_jars_error_line(
        self, session: StdioSession, line: str, answer: str
    ) -> None:
        assert session.answer(line) == [answer]

    def test_eval_answers_the_good_blocks_before_a_bad_one(self, session: StdioSession) -> None:
        answers = session.answers(f"EVAL ||| {SEG2} ||| 1 2 3")
        assert next(answers) == "1.0"
        with pytest.raises(InputError, match="needs 23 numbers, got 3"):
            next(answers)

    def test_run_writes_and_flushes_each_answer_then_stops_at_a_bad_block(
        self, session: StdioSession
    ) -> None:
        out = io.StringIO()
        with pytest.raises(InputError):
            session.run(["SCORE ||| the cat ||| the cat", f"SING ||| {SEG2}", "SING ||| 1"], out)
        assert out.getvalue() == PERFECT_LINE + "\n1.0\n"
