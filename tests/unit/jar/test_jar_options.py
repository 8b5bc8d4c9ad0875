"""The jar's argv parser: positional files, option values, flags and every error path."""

from __future__ import annotations

import dataclasses
import re

import pytest

from meteor_eval.jar.options import (
    USAGE,
    JarOptionError,
    JarOptions,
    JarUsageError,
    UnknownOptionError,
    parse_jar_args,
)


def _documented_options() -> dict[str, str]:
    """Each option as ``JarOptions``' docstring documents it, with the attribute it sets: the
    parser must store every option where its class says it does."""
    documented: dict[str, str] = {}
    for attribute, options in re.findall(
        r"\n +(\w+): ((?:``-\w+``(?: or )?)+)", JarOptions.__doc__ or ""
    ):
        for option in re.findall(r"``(-\w+)``", options):
            documented[option] = attribute
    return documented


_KINDS = {f.name: f.type for f in dataclasses.fields(JarOptions)}
VALUED = {o: a for o, a in _documented_options().items() if _KINDS[a] == "str | None"}
FLAGS = {o: a for o, a in _documented_options().items() if _KINDS[a] == "bool"}


def test_the_documented_options_are_the_jars() -> None:
    # 12 options with a value, 11 flags (-mira is the jar's secret alias of -stdio); every
    # attribute but the files and the record of options is set by one of them.
    assert (len(VALUED), len(FLAGS)) == (12, 11)
    assert VALUED["-l"] == "language" and VALUED["-new"] == "new_language_dir"
    assert FLAGS["-mira"] == FLAGS["-stdio"] == "stdio"
    unset = set(_KINDS) - set(VALUED.values()) - set(FLAGS.values())
    assert unset == {"test", "reference", "given"}


def test_two_positionals_and_nothing_else_gives_the_defaults() -> None:
    options = parse_jar_args(["hyp.txt", "ref.txt"])
    assert options == JarOptions(test="hyp.txt", reference="ref.txt")
    assert options.given == []
    assert options.prefix == "meteor"


@pytest.mark.parametrize("argv", [[], ["only-one"]])
def test_fewer_than_two_arguments_is_a_usage_error(argv: list[str]) -> None:
    with pytest.raises(JarUsageError):
        parse_jar_args(argv)


def test_usage_text_starts_and_ends_as_the_jar_prints_it() -> None:
    assert USAGE.startswith("Meteor version 1.5\n\nUsage: java -Xmx2G -jar meteor-*.jar")
    assert USAGE.endswith("See README file for additional information\n")
    # Every option the parser knows is documented, and only those (-mira is the jar's secret
    # alias of -stdio).
    for option in (*VALUED, *FLAGS):
        if option != "-mira":
            assert f"\n{option} " in USAGE, option


@pytest.mark.parametrize(("option", "attribute"), sorted(VALUED.items()))
def test_each_valued_option_stores_its_raw_value(option: str, attribute: str) -> None:
    options = parse_jar_args(["h", "r", option, " 1 2 "])
    assert getattr(options, attribute) == " 1 2 "  # not interpreted, not trimmed
    assert options.given == [option]


@pytest.mark.parametrize(("option", "attribute"), sorted(FLAGS.items()))
def test_each_flag_sets_its_attribute(option: str, attribute: str) -> None:
    options = parse_jar_args(["h", "r", option])
    assert getattr(options, attribute) is True
    others = {a for o, a in FLAGS.items() if a != attribute}
    assert not any(getattr(options, a) for a in others)


def test_repeated_option_keeps_the_last_value_and_records_every_occurrence() -> None:
    options = parse_jar_args(["h", "r", "-l", "fr", "-norm", "-l", "de", "-norm"])
    assert options.language == "de"
    assert options.given == ["-l", "-norm", "-l", "-norm"]


def test_an_option_value_may_look_like_an_option() -> None:
    options = parse_jar_args(["h", "r", "-f", "-norm"])
    assert options.file_prefix == "-norm"
    assert options.prefix == "-norm"
    assert not options.norm


def test_positionals_may_be_dashes_or_look_like_options() -> None:
    options = parse_jar_args(["-", "-norm", "-stdio"])
    assert (options.test, options.reference, options.stdio, options.norm) == (
        "-",
        "-norm",
        True,
        False,
    )


@pytest.mark.parametrize("option", sorted(VALUED))
def test_valued_option_as_last_argument_is_a_one_line_error(option: str) -> None:
    with pytest.raises(JarOptionError) as caught:
        parse_jar_args(["h", "r", "-norm", option])
    assert str(caught.value) == f"Error: option {option} needs a value"


@pytest.mark.parametrize("option", ["--norm", "-Norm", "-NORM", "-nBest", "x", "-", ""])
def test_unknown_option_names_it_exactly(option: str) -> None:
    with pytest.raises(UnknownOptionError) as caught:
        parse_jar_args(["h", "r", "-norm", option, "-also-unknown"])
    assert caught.value.option == option
    assert str(caught.value) == f'Unknown option "{option}"'


def test_the_first_error_from_the_left_wins() -> None:
    with pytest.raises(UnknownOptionError, match='"-bad"'):
        parse_jar_args(["h", "r", "-bad", "-l"])
    with pytest.raises(JarOptionError):
        parse_jar_args(["h", "r", "-l", "en", "-x"])
