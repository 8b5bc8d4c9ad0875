"""``jar-compat Parex``, ``jar-compat FilterParaphrase`` and ``jar-compat ... -new DIR`` write
what the jar writes.

Oracle: ``meteor-1.5.jar`` from PyPI ``pycocoevalcap`` 1.2 on OpenJDK 17; inputs and outputs in
``tests/data/parex`` (``scripts/make_parex_fixture.py``, ``scripts/make_parex_golden.py``, whose
exact commands are in ``golden/commands.json``). Text files and the decompressed content of gzip
files are compared byte for byte; the gzip files themselves too when this Python's zlib is the
version the golden files were made with (the jar uses the system zlib; the header is always
equal: no name, time stamp 0, OS 255).
"""

from __future__ import annotations

import gzip
import io
import json
import zlib
from pathlib import Path

import pytest

from meteor_eval.cli.jar_compat import run_jar

DATA = Path(__file__).resolve().parents[1] / "data" / "parex"
GOLDEN = DATA / "golden"
RECORD = json.loads((GOLDEN / "commands.json").read_text(encoding="utf-8"))
PAREX_FILES = ("parex.f", "parex.e", "parex.raw.gz", "parex.group.gz", "paraphrase.gz")


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Paraphrase indexes of the test tables go to a temporary cache."""
    monkeypatch.setenv("METEOR_EVAL_CACHE", str(tmp_path / "cache"))


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run_jar(argv, stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def _same_file(ours: Path, theirs: Path) -> None:
    if theirs.suffix == ".gz":
        assert gzip.decompress(ours.read_bytes()) == gzip.decompress(theirs.read_bytes()), ours
        assert ours.read_bytes()[:10] == theirs.read_bytes()[:10]
        if RECORD["zlib"] == zlib.ZLIB_RUNTIME_VERSION:
            assert ours.read_bytes() == theirs.read_bytes(), ours
    else:
        assert ours.read_bytes() == theirs.read_bytes(), ours


@pytest.mark.parametrize("name", ["parex", "edge", "edge-args"])
def test_parex_writes_the_jars_files(name: str, tmp_path: Path) -> None:
    command = RECORD["commands"][name]
    args = command[command.index("Parex") + 1 :]
    out_dir = tmp_path / "out"
    argv = [
        str(out_dir) if a == "OUT" else str(DATA / a) if k < 4 else a for k, a in enumerate(args)
    ]
    status, stdout, stderr = _run(["Parex", *argv])
    assert (status, stdout) == (0, "")
    assert stderr == (GOLDEN / name / "stderr.txt").read_text(encoding="utf-8")
    assert sorted(p.name for p in out_dir.iterdir()) == sorted(PAREX_FILES)
    for file in PAREX_FILES:
        _same_file(out_dir / file, GOLDEN / name / file)


def test_parex_golden_is_not_trivial() -> None:
    """The real fixture's final table has paraphrases, and the edge run skipped lines."""
    final = gzip.decompress((GOLDEN / "parex" / "paraphrase.gz").read_bytes()).decode()
    assert len(final.splitlines()) == 194
    assert "Skipping problematic line: bad number ||| cat ||| zero 0.1 0.5 0.1" in (
        GOLDEN / "edge" / "stderr.txt"
    ).read_text(encoding="utf-8")


def test_filter_paraphrase_keeps_the_jars_records(tmp_path: Path) -> None:
    command = RECORD["commands"]["filter"]
    table, _, *refs = command[command.index("FilterParaphrase") + 1 :]
    filtered = tmp_path / "filtered.gz"
    status, stdout, stderr = _run(
        ["FilterParaphrase", str(DATA / table), str(filtered), *(str(DATA / r) for r in refs)]
    )
    assert status == 0 and stderr == ""
    golden_stdout = (GOLDEN / "filter" / "stdout.txt").read_text(encoding="utf-8")
    assert stdout == golden_stdout.replace("filter-ref.txt", str(DATA / "filter-ref.txt")).replace(
        "score.ref", str(DATA / "score.ref")
    )
    _same_file(filtered, GOLDEN / "filter" / "filtered.gz")
    assert len(gzip.decompress(filtered.read_bytes()).splitlines()) == 258


@pytest.mark.parametrize(
    ("name", "extra"),
    [("universal-score", []), ("universal-score-norm", ["-norm", "-l", "fr", "-m", "exact"])],
)
def test_new_language_folder_scores_as_the_jar(name: str, extra: list[str]) -> None:
    """``-new DIR`` on the folder the jar's own Meteor Universal steps built: same stdout."""
    status, stdout, _ = _run(
        [
            str(DATA / "score.hyp"),
            str(DATA / "score.ref"),
            "-new",
            str(GOLDEN / "universal"),
            *extra,
        ]
    )
    assert status == 0
    assert stdout == (GOLDEN / f"{name}.out").read_text(encoding="utf-8")


USAGE = json.loads((GOLDEN / "usage.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(USAGE))
def test_usage_and_refusals_are_the_jars(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(DATA)
    case = USAGE[name]
    assert _run(case["args"]) == (case["status"], case["stdout"], case["stderr"])
