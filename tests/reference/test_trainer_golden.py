"""``meteor-eval jar-compat Trainer`` prints what the jar's ``Trainer`` prints, byte for byte.

Oracle: ``meteor-1.5.jar`` from PyPI ``pycocoevalcap`` 1.2 on OpenJDK 17. Fixtures in
``tests/data/trainer`` and goldens in ``golden/trainer`` are made by
``scripts/make_trainer_golden.py`` (commands in ``golden/trainer/README.md``): ``segcor``,
``spearman`` and ``rank`` over narrow grids, with ``-noNorm``, ``-ch``, ``-e``, two references
per segment, and exponents where the JVM's ``Math.pow`` is not correctly rounded.

The segcor sums follow the order in which the data directory is listed; the jar's order at
golden time is recorded in ``cases.json`` and replayed here, since another file system may list
the files in another order. Every case aligns with the paraphrase module, so the tests skip
without an English paraphrase table.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from meteor_eval.cli import main
from meteor_eval.errors import ResourceError
from meteor_eval.jar import trainer
from meteor_eval.resources.paraphrases import find_paraphrase_table

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden" / "trainer"
FIXTURES = HERE.parent / "data" / "trainer"
CASES = json.loads((GOLDEN / "cases.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module", autouse=True)
def _paraphrase_table() -> None:
    try:
        find_paraphrase_table("en")
    except ResourceError:
        pytest.skip("no English paraphrase table installed")


def _golden(name: str) -> str:
    return gzip.decompress((GOLDEN / f"{name}.out.gz").read_bytes()).decode("utf-8")


@pytest.mark.parametrize("name", sorted(CASES))
def test_trainer_output_equals_the_jars(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    case = CASES[name]
    data_dir = FIXTURES / case["data"]
    assert sorted(case["listing"]) == sorted(os.listdir(data_dir))
    monkeypatch.setattr(trainer, "_list_dir", lambda path: list(case["listing"]))
    status = main(["jar-compat", "Trainer", case["task"], str(data_dir), *case["args"]])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert captured.out == _golden(name)


def test_rank_from_the_command_line_equals_the_jars() -> None:
    # Rank consistency counts pairs, so the directory's order does not matter: run as a user.
    case = CASES["rank-lowbeta-eps"]
    proc = subprocess.run(
        [sys.executable, "-m", "meteor_eval", "jar-compat", "Trainer", "rank",
         str(FIXTURES / "rank"), *case["args"]],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == _golden("rank-lowbeta-eps")
    # The jar's progress lines on stderr: the Meteor arguments of each system, the rank files.
    assert "xray-en.rank\n" in proc.stderr
    assert "-m, exact paraphrase, -w, 1.0 0.5, -p, 0.5 0.5 0.5 0.5, -lower]" in proc.stderr
