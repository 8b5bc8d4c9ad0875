"""``jar-compat Matcher`` and ``jar-compat Stemmer`` print what the jar's classes print, exactly.

Oracle: ``meteor-1.5.jar`` from PyPI ``pycocoevalcap`` 1.2 on OpenJDK 17, through
``java -cp meteor-1.5.jar Matcher|Stemmer ...`` with UTF-8 input and output; every case, its
command and its input are in ``golden/matcher_stemmer/cases.json.gz`` (made by
``scripts/make_matcher_stemmer_golden.py``): the first 200 xray segments aligned with the default
modules (paraphrase included) and with several module lists, ``-t maxcov`` and ``-t maxacc``,
beam sizes, ``-stdio``, files of different lengths and the usage texts; word lines in every
language the Stemmer stems. Stdout, stderr and the exit status are compared byte for byte.

Cases using the paraphrase module skip when no English paraphrase table is installed.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from meteor_eval.errors import ResourceError
from meteor_eval.resources.paraphrases import find_paraphrase_table

GOLDEN = Path(__file__).resolve().parent / "golden" / "matcher_stemmer" / "cases.json.gz"


def _load() -> dict[str, Any]:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


DATA = _load()
CASES: dict[str, dict[str, Any]] = DATA["cases"]


def _uses_paraphrase(case: dict[str, Any]) -> bool:
    if case["class"] != "Matcher" or len(case["args"]) < 2:
        return False
    args = case["args"]
    if "-m" not in args:
        return True
    return "paraphrase" in args[len(args) - 1 - args[::-1].index("-m") + 1].lower()


def _has_paraphrase_table() -> bool:
    try:
        find_paraphrase_table("en")
    except ResourceError:
        return False
    return True


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("matcher-inputs")
    for name, text in DATA["inputs"].items():
        (folder / name).write_bytes(text.encode("utf-8"))
    return folder


def run_case(
    case: dict[str, Any], folder: Path, jar_cli: Callable[..., tuple[int, str, str]]
) -> tuple[int, str, str]:
    argv = [case["class"], *(a.format(**{"in": folder}) for a in case["args"])]
    stdin = b"" if case["stdin"] is None else (folder / case["stdin"]).read_bytes()
    return jar_cli(argv, folder, stdin)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_equals_the_jar(
    name: str, inputs: Path, jar_cli: Callable[..., tuple[int, str, str]]
) -> None:
    case = CASES[name]
    if _uses_paraphrase(case) and not _has_paraphrase_table():
        pytest.skip("no English paraphrase table installed")
    status, out, err = run_case(case, inputs, jar_cli)
    assert out == case["stdout"]
    assert err == case["stderr"]
    assert status == case["status"]


def test_cases_cover_both_alignment_types_and_every_stemmer_language() -> None:
    matcher = [c for c in CASES.values() if c["class"] == "Matcher"]
    assert any("maxacc" in c["args"] for c in matcher)
    assert any("-t" not in c["args"] and len(c["args"]) > 2 for c in matcher)
    languages = {c["args"][0] for c in CASES.values() if c["class"] == "Stemmer" and c["args"]}
    assert {"en", "da", "de", "es", "fi", "fr", "hu", "it", "nl", "no", "pt", "ro", "ru"} <= (
        languages
    )
    assert {"se", "tr"} <= languages


def test_maxacc_differs_from_maxcov_on_the_xray_data() -> None:
    # The golden outputs themselves show that the types choose different alignments, so a
    # reproduction that ignored -t could not pass both cases.
    assert CASES["Matcher/maxcov-default"]["stdout"] != CASES["Matcher/maxacc-default"]["stdout"]
    assert CASES["Matcher/maxcov-esn"]["stdout"] != CASES["Matcher/maxacc-esn"]["stdout"]
