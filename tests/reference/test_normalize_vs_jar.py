"""Preprocessing (normaliser, lower-casing, tokenisation) against the official METEOR 1.5 jar.

Golden data: ``golden/normalize/`` (see the README there). ``inputs.txt.gz`` holds 3,500
adversarial lines (hand-made cases, 600 xray lines, seeded random mixtures of punctuation, dot
runs, apostrophes, quotes, dashes, nonbreaking prefixes, numbers, non-Latin scripts, emoji and
every kind of space); each ``<config>.txt.gz`` holds the jar's preprocessed line for each input,
recorded by ``python scripts/make_normalize_golden.py`` from ``meteor-1.5.jar`` (PyPI
``pycocoevalcap`` 1.2, OpenJDK 17.0.15, English locale) with::

    java -Xmx2G -jar meteor-1.5.jar IN IN -l LANG -m exact FLAGS -writeAlignments -f PREFIX

for LANG in en fr de es cz ru with FLAGS ``-norm`` and ``-norm -noPunct``, plus ``-l en -lower``
and ``-l en`` without flags. The alignment file prints each line after preprocessing, tokens
joined by one space and the result trimmed.

The golden comparison always runs; when java and the jar are installed the jar is also run live
on the same inputs (slow: about 30 s), which checks the golden files themselves.
"""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from meteor_eval.text.tokenize import NormalizationLevel, java_trim, preprocess

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden" / "normalize"

LEVELS: dict[tuple[str, ...], NormalizationLevel] = {
    ("-norm",): "norm",
    ("-norm", "-noPunct"): "norm_nopunct",
    ("-lower",): "lower",
    (): "none",
}


@cache
def golden_script() -> ModuleType:
    """``scripts/make_normalize_golden.py``, which defines the configurations and file format."""
    path = ROOT / "scripts" / "make_normalize_golden.py"
    spec = importlib.util.spec_from_file_location("make_normalize_golden", path)
    if spec is None or spec.loader is None:
        raise ImportError(path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


CONFIGS: dict[str, tuple[str, tuple[str, ...]]] = golden_script().CONFIGS


@cache
def inputs() -> list[str]:
    lines: list[str] = golden_script().read_lines(GOLDEN / "inputs.txt.gz")
    return lines


def ours(language: str, flags: tuple[str, ...]) -> list[str]:
    """Our preprocessing of every input, printed the way the jar's alignment file prints it."""
    level = LEVELS[flags]
    return [
        java_trim(" ".join(preprocess(line, language=language, level=level))) for line in inputs()
    ]


def differences(expected: list[str], actual: list[str]) -> list[tuple[str, str, str]]:
    assert len(expected) == len(actual) == len(inputs())
    return [
        (line, want, got)
        for line, want, got in zip(inputs(), expected, actual, strict=True)
        if want != got
    ]


def test_inputs_are_adversarial_enough() -> None:
    lines = inputs()
    assert len(lines) == 3500
    text = "".join(lines)
    for needle in ("DOTMULTI", "...", "U.S.", "No.", "'s", "\u00a0", "\x0b", "\u03a3", "😀"):
        assert needle in text


@pytest.mark.parametrize("name", list(CONFIGS))
def test_matches_golden(name: str) -> None:
    language, flags = CONFIGS[name]
    expected = golden_script().read_lines(GOLDEN / f"{name}.txt.gz")
    assert differences(expected, ours(language, flags)) == []


@pytest.mark.slow
@pytest.mark.oracle
@pytest.mark.parametrize("name", list(CONFIGS))
def test_matches_live_jar(name: str, live_jar: Path) -> None:
    language, flags = CONFIGS[name]
    expected = golden_script().jar_preprocess(live_jar, inputs(), language, flags)
    assert differences(expected, ours(language, flags)) == []
