"""``meteor-eval jar-compat`` prints what ``java -jar meteor-1.5.jar`` prints, byte for byte.

Oracle: ``meteor-1.5.jar`` from PyPI ``pycocoevalcap`` 1.2 on OpenJDK 17.

* ``golden/jar/cases.json.gz`` (made by ``scripts/make_jar_golden.py``, which records each exact
  command): small inputs covering every option of the jar without the paraphrase module:
  stdout, exit status, stderr where the jar's messages are sane, and the files written
  (``-writeAlignments``, SGML score files).
* ``../shared/data/meteor15/golden`` (commands in its README): the xray system outputs, the
  newstest2009 SGML run with its three score files, the alignment file and the stdio session.
  Those that use the default English modules need the paraphrase module and are skipped until it
  is installed.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
JAR_GOLDEN = HERE / "golden" / "jar"
INPUTS = JAR_GOLDEN / "inputs"
HAS_PARAPHRASE = importlib.util.find_spec("meteor_eval.match.paraphrase") is not None
needs_paraphrase = pytest.mark.skipif(
    not HAS_PARAPHRASE, reason="the paraphrase module (meteor_eval.match.paraphrase) is absent"
)

# Cases whose whole stderr must match (the others print nothing or only sane warnings).
_STDERR_CASES = {
    "usage",
    "usage-one-arg",
    "unknown-option",
    "plain-length-mismatch",
    "plain-w-fewer",
    "plain-quiet",
    "stdio-mira-ch-hter",
}
_SLOW = {"newstest2009-sgml-esn"}


def _cases() -> dict[str, dict[str, Any]]:
    with gzip.open(JAR_GOLDEN / "cases.json.gz", "rt", encoding="utf-8") as handle:
        cases: dict[str, dict[str, Any]] = json.load(handle)
    return cases


CASES = _cases()


@pytest.mark.parametrize(
    "name",
    [pytest.param(n, marks=pytest.mark.slow) if n in _SLOW else n for n in sorted(CASES)],
)
def test_generated_case_equals_the_jar(
    name: str, tmp_path: Path, meteor_data: Path, jar_cli: Callable[..., tuple[int, str, str]]
) -> None:
    case = CASES[name]
    argv = [a.format(inputs=INPUTS, data=meteor_data, out=tmp_path) for a in case["args"]]
    stdin = (INPUTS / case["stdin"]).read_bytes() if case["stdin"] else b""
    status, out, err = jar_cli(argv, tmp_path, stdin)
    assert out == case["stdout"]
    assert status == case["status"]
    if name in _STDERR_CASES:
        assert err == case["stderr"]
    prefix = next((a for a in argv if a.startswith(str(tmp_path))), None)
    for suffix, expected in case["files"].items():
        path = tmp_path / suffix if suffix.startswith("meteor") else Path(f"{prefix}{suffix}")
        assert path.read_text(encoding="utf-8") == expected, suffix


# Shared golden files: name -> (hypothesis, reference, options); README of the shared data.
_SHARED: dict[str, tuple[str, str, str, bool]] = {
    "xray-system1.en-norm-esn": (
        "xray-system1.hyp",
        "xray-reference",
        '-l en -norm -m "exact stem synonym"',
        False,
    ),
    "xray-system2.en-norm-esn": (
        "xray-system2.hyp",
        "xray-reference",
        '-l en -norm -m "exact stem synonym"',
        False,
    ),
    "xray-system1.en-norm-exact": (
        "xray-system1.hyp",
        "xray-reference",
        "-l en -norm -m exact",
        False,
    ),
    "xray-system1.other": ("xray-system1.hyp", "xray-reference", "-l other", False),
    "xray-system1.en-norm": ("xray-system1.hyp", "xray-reference", "-l en -norm", True),
    "xray-system2.en-norm": ("xray-system2.hyp", "xray-reference", "-l en -norm", True),
    "xray-system1.en": ("xray-system1.hyp", "xray-reference", "-l en", True),
    "xray-system1.en-lower": ("xray-system1.hyp", "xray-reference", "-l en -lower", True),
    "xray-system1.en-norm-nopunct": (
        "xray-system1.hyp",
        "xray-reference",
        "-l en -norm -noPunct",
        True,
    ),
    "xray-system1.en-norm-adq": ("xray-system1.hyp", "xray-reference", "-l en -norm -t adq", True),
    "xray-system1.en-norm-hter": (
        "xray-system1.hyp",
        "xray-reference",
        "-l en -norm -t hter",
        True,
    ),
    "xray-system1.en-norm-li": ("xray-system1.hyp", "xray-reference", "-l en -norm -t li", True),
}
_FAST_SHARED = {"xray-system1.en-norm-exact", "xray-system1.other"}


def _shared_param(name: str) -> Any:
    marks = []
    if _SHARED[name][3]:
        marks.append(needs_paraphrase)
    if name not in _FAST_SHARED:
        marks.append(pytest.mark.slow)
    return pytest.param(name, marks=marks)


@pytest.mark.parametrize("name", [_shared_param(n) for n in _SHARED])
def test_shared_plaintext_golden(
    name: str, meteor_data: Path, tmp_path: Path, jar_cli: Callable[..., tuple[int, str, str]]
) -> None:
    hyp, ref, options, _ = _SHARED[name]
    argv = [str(meteor_data / hyp), str(meteor_data / ref), *shlex.split(options)]
    status, out, _ = jar_cli(argv, tmp_path)
    assert status == 0
    assert out == (meteor_data / "golden" / f"{name}.out").read_text(encoding="utf-8")


@pytest.mark.slow
@needs_paraphrase
def test_shared_sgml_golden_with_score_files(
    meteor_data: Path, tmp_path: Path, jar_cli: Callable[..., tuple[int, str, str]]
) -> None:
    name = "newstest2009.en-norm-sgml"
    argv = [
        str(meteor_data / "newstest2009-test.sgm"),
        str(meteor_data / "newstest2009-ref.sgm"),
        *shlex.split(f"-l en -norm -sgml -f {tmp_path}/{name}"),
    ]
    status, out, _ = jar_cli(argv, tmp_path)
    golden = meteor_data / "golden"
    assert status == 0
    assert out == (golden / f"{name}.out").read_text(encoding="utf-8")
    for kind in ("seg", "doc", "sys"):
        produced = (tmp_path / f"{name}-{kind}.scr").read_text(encoding="utf-8")
        assert produced == (golden / f"{name}.{kind}.scr").read_text(encoding="utf-8"), kind


@pytest.mark.slow
@needs_paraphrase
def test_shared_alignment_file(
    meteor_data: Path, tmp_path: Path, jar_cli: Callable[..., tuple[int, str, str]]
) -> None:
    argv = [
        str(meteor_data / "xray-system1.hyp"),
        str(meteor_data / "xray-reference"),
        *shlex.split("-l en -norm -writeAlignments -f xray-system1.en-norm"),
    ]
    status, out, _ = jar_cli(argv, tmp_path)
    assert status == 0
    produced = (tmp_path / "xray-system1.en-norm-align.out").read_text(encoding="utf-8")
    expected = (meteor_data / "golden" / "xray-system1.en-norm-align.out").read_text(
        encoding="utf-8"
    )
    assert produced == expected
    assert out == (meteor_data / "golden" / "xray-system1.en-norm.out").read_text(encoding="utf-8")


@pytest.mark.slow
@needs_paraphrase
def test_shared_stdio_session(
    meteor_data: Path, tmp_path: Path, jar_cli: Callable[..., tuple[int, str, str]]
) -> None:
    stdin = (meteor_data / "stdio-session.in").read_bytes()
    status, out, _ = jar_cli(["-", "-", "-stdio", "-l", "en", "-norm"], tmp_path, stdin)
    assert status == 0
    assert out == (meteor_data / "golden" / "stdio-session.en-norm.out").read_text(encoding="utf-8")
