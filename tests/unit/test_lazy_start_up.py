"""What short runs no longer load: the dataclass machinery for the NLTK flavour's scores, a
second argument parser for the command line, the Java lower-casing's range pattern.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fakes import run_fresh
from meteor_eval.cli import build_parser, parse_arguments
from meteor_eval.cli.options import explicit_dests

SRC = str(Path(__file__).resolve().parents[2] / "src")


def _run(code: str) -> list[str]:
    return run_fresh(code).stdout.split()


def test_nltk_flavour_scores_without_dataclasses_or_the_statistics_module() -> None:
    out = _run(
        "import sys\n"
        "before = 'dataclasses' in sys.modules\n"  # a site hook of the machine may load it
        "from meteor_eval.compat.nltk import meteor_score\n"
        "score = meteor_score([['the', 'cats', 'sat', 'Dying']], ['a', 'cat', 'sits', 'dies'])\n"
        "print(score > 0, before or 'dataclasses' not in sys.modules,\n"
        "      'meteor_eval.stats.meteor' in sys.modules,\n"
        "      'meteor_eval.resources._spec' in sys.modules)\n"
    )
    assert out == ["True", "True", "False", "False"]


def test_resource_spec_is_the_dataclass_from_its_own_module() -> None:
    import dataclasses

    from meteor_eval.resources import _spec, registry
    from meteor_eval.resources.nltk_porter import nltk_porter_spec
    from meteor_eval.resources.registry import ResourceSpec
    from meteor_eval.resources.wordnet.shipped import wordnet_spec

    assert ResourceSpec is _spec.ResourceSpec is registry.ResourceSpec
    assert dataclasses.is_dataclass(ResourceSpec)
    assert type(nltk_porter_spec()) is ResourceSpec and type(wordnet_spec()) is ResourceSpec
    assert wordnet_spec().short_id == "wordnet-en-3.0-6c86e36c"
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        registry.Nothing  # noqa: B018


def test_resource_spec_first_looked_up_through_the_registry() -> None:
    out = _run(
        "import sys\n"
        "from meteor_eval.resources import registry\n"
        "loaded = 'meteor_eval.resources._spec' in sys.modules\n"
        "spec = registry.ResourceSpec('n', 'en', '1', 'ab' * 32, 'MIT')\n"
        "print(loaded, spec.short_id, 'ResourceSpec' in vars(registry))\n"
    )
    assert out == ["False", "n-en-1-abababab", "True"]


@pytest.mark.parametrize(
    "arguments",
    [
        ["score", "--hyp", "h", "--ref", "r", "--lang", "en", "--norm", "--jobs", "1"],
        ["score", "--hyp", "h", "--ref", "r", "--format", "json", "--no-progress"],
        ["bleu", "--hyp", "h", "--ref", "r"],
        ["rouge", "--hyp", "h", "--ref", "r", "--jobs", "2"],
    ],
)
def test_explicit_options_from_the_parser_already_used(arguments: list[str]) -> None:
    """The command line suppresses the defaults of the parser it parsed with, instead of
    building a second one: the same options come out, and the values parsed first stay."""
    command = arguments[0]
    fresh = explicit_dests(build_parser(command), arguments, parse_arguments)
    parser = build_parser(command)
    args = parse_arguments(parser, arguments)
    kept = dict(vars(args))
    assert explicit_dests(parser, arguments, parse_arguments) == fresh
    assert vars(args) == kept
    assert {"hyp", "ref"} <= fresh and "alpha" not in fresh


def test_lower_casing_compiles_no_pattern() -> None:
    # Neither an ASCII text nor a non-ASCII one compiles a pattern: the shortcut's test is
    # ``max(text)`` against the first Unicode 14 capital, not a range pattern.
    out = _run(
        "import re\n"
        "from meteor_eval.text import tokenize\n"
        "compiled = []\n"
        "original = re._compile\n"
        "re._compile = lambda *a: compiled.append(a) or original(*a)\n"
        "a = tokenize.java_lower('ABC def')\n"
        "b = tokenize.java_lower('\\u039f\\u0394\\u039f\\u03a3 \\u03a3:A \\u00c9')\n"
        "print(a, len(compiled), ascii(b))\n"
    )
    assert out == ["abc", "def", "0", "'\\u03bf\\u03b4\\u03bf\\u03c2", "\\u03c3:a", "\\xe9'"]
