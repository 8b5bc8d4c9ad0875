"""``meteor-eval new-language`` and ``score --resources``, end to end.

The folder built from ``tests/data/parex`` must hold the files Meteor Universal's own steps
make with the jar (``golden/universal``, see ``tests/data/parex/README.md``), and scoring with
it must give the jar's ``-new`` numbers through both ``score --resources`` and ``jar-compat
-new``.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from meteor_eval.cli import main
from meteor_eval.cli.jar_compat import run_jar

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "parex"
GOLDEN = DATA / "golden"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("METEOR_EVAL_CACHE", str(tmp_path / "cache"))


def _argv(out: Path, corpus: Path, table: Path, *extra: str) -> list[str]:
    """The ``new-language`` command line building ``out``."""
    return [
        "new-language",
        "--corpus",
        str(corpus),
        "--phrase-table",
        str(table),
        "--out",
        str(out),
        *extra,
    ]


def _build(out: Path, *extra: str) -> int:
    return main(_argv(out, DATA / "corpus.e", DATA / "phrase-table.gz", *extra))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder built once from the fixture (with its pivot corpus)."""
    out = tmp_path_factory.mktemp("universal") / "xx"
    cache = tmp_path_factory.mktemp("cache")
    old = os.environ.get("METEOR_EVAL_CACHE")
    os.environ["METEOR_EVAL_CACHE"] = str(cache)
    try:
        assert _build(out, "--foreign-corpus", str(DATA / "corpus.f")) == 0
    finally:
        if old is None:
            del os.environ["METEOR_EVAL_CACHE"]
        else:
            os.environ["METEOR_EVAL_CACHE"] = old
    return out


def test_folder_holds_what_the_jars_steps_make(folder: Path) -> None:
    assert sorted(p.name for p in folder.iterdir()) == [
        "function.words",
        "manifest.json",
        "paraphrase.gz",
    ]
    golden = GOLDEN / "universal"
    assert (folder / "function.words").read_bytes() == (golden / "function.words").read_bytes()
    ours = gzip.decompress((folder / "paraphrase.gz").read_bytes())
    assert ours == gzip.decompress((golden / "paraphrase.gz").read_bytes())
    assert len(ours.splitlines()) == 3 * 194


def test_manifest_records_inputs_and_outputs(folder: Path) -> None:
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    table = DATA / "phrase-table.gz"
    assert manifest["inputs"]["phrase_table"] == {
        "path": str(table.resolve()),
        "size": table.stat().st_size,
        "sha256": hashlib.sha256(table.read_bytes()).hexdigest(),
    }
    words = manifest["files"]["function.words"]
    assert words["entries"] == 247
    assert words["sha256"] == hashlib.sha256((folder / "function.words").read_bytes()).hexdigest()
    assert manifest["files"]["paraphrase.gz"]["records"] == 194
    assert manifest["scoring"]["modules"] == ["exact", "paraphrase"]
    assert (manifest["scoring"]["alpha"], manifest["scoring"]["weights"]) == (0.7, [1.0, 0.6])
    assert manifest["parex"]["foreign_common_words"] is True


def _golden_final() -> float:
    last = (GOLDEN / "universal-score.out").read_text(encoding="utf-8").splitlines()[-1]
    return float(last.split()[-1])


def test_score_resources_gives_the_jars_new_score(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, ref = str(DATA / "score.hyp"), str(DATA / "score.ref")
    argv = ["score", "--resources", str(folder), "--hyp", hyp, "--ref", ref, "--format", "json"]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)["systems"][0]["meteor"]
    assert result["score"] == _golden_final() == 0.4409516416364013
    assert result["matches"]["paraphrase"] == [2, 3]


def test_jar_compat_new_on_the_built_folder_is_the_jars_output(folder: Path) -> None:
    out = io.StringIO()
    argv = [str(DATA / "score.hyp"), str(DATA / "score.ref"), "-new", str(folder)]
    assert run_jar(argv, stdout=out, stderr=io.StringIO()) == 0
    assert out.getvalue() == (GOLDEN / "universal-score.out").read_text(encoding="utf-8")


def test_explicit_options_apply_on_top_of_the_folder(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--modules exact`` drops the paraphrase stage: the jar with ``-p``-free ``-m exact``
    would ignore it under ``-new``; here it takes effect and says so in the signature."""
    hyp, ref = str(DATA / "score.hyp"), str(DATA / "score.ref")
    argv = ["score", "--resources", str(folder), "--hyp", hyp, "--ref", ref, "--modules", "exact"]
    assert main([*argv, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "|modules:exact|weights:1.0|" in data["signature"]["meteor"]
    assert data["systems"][0]["meteor"]["matches"] == {"exact": [668, 668]}


def test_target_lines_limit_the_paraphrased_phrases(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "one"
    assert _build(out, "--target-lines", "1") == 0
    assert "meteor-eval: warning: no foreign corpus: " in capsys.readouterr().err
    first = " " + (DATA / "corpus.e").read_text(encoding="utf-8").splitlines()[0] + " "
    lines = gzip.decompress((out / "paraphrase.gz").read_bytes()).decode("utf-8").splitlines()
    phrases = lines[1::3]
    assert phrases and all(f" {p} " in first for p in phrases)
    assert json.loads((out / "manifest.json").read_text())["target_lines"] == 1


# -- refusals ---------------------------------------------------------------------------------


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str], status: int = 2) -> str:
    """The one stderr line of a refusal (``-q``: without the progress lines before it): exit 2
    for a usage error (an option's value), 1 for bad content in a readable file."""
    assert main(["-q", *argv]) == status
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


def test_missing_corpus_is_refused_naming_the_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = _refused(capsys, _argv(tmp_path / "o", tmp_path / "none.txt", DATA / "phrase-table.gz"))
    assert (
        line == f"meteor-eval new-language: error: --corpus: {tmp_path / 'none.txt'}: no such file"
    )
    assert not (tmp_path / "o").exists()


@pytest.mark.skipif(not Path(os.devnull).exists(), reason="needs a device file")
def test_folder_or_device_as_input_is_refused_as_such(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, both were called 'no such file'."""
    line = _refused(capsys, _argv(tmp_path / "o", tmp_path, DATA / "phrase-table.gz"))
    assert (
        line == f"meteor-eval new-language: error: --corpus: {tmp_path}: is a directory, not a file"
    )
    line = _refused(capsys, _argv(tmp_path / "o", DATA / "corpus.e", Path(os.devnull)))
    assert line == (
        f"meteor-eval new-language: error: --phrase-table: {os.devnull}: "
        "not a regular file (it is read more than once)"
    )
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    ("content", "number", "ending"),
    [
        pytest.param(
            b"a b ||| x y ||| 0.5 0.5 0.5 0.5\nc ||| z ||| 0.5 0.5\n", 2,
            "got 'c ||| z ||| 0.5 0.5'", id="malformed-line",
        ),
        pytest.param(
            b"a ||| x ||| 0.5 0.5 1.5 0.5\n", 1, "p(e|f) is 1.5, not a probability in [0, 1]",
            id="probability-above-one",
        ),
    ],
)  # fmt: skip
def test_bad_table_line_is_refused_with_its_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, number: int, ending: str
) -> None:
    table = tmp_path / "pt.gz"
    table.write_bytes(gzip.compress(content))
    line = _refused(
        capsys,
        _argv(tmp_path / "o", DATA / "corpus.e", table, "--foreign-corpus", str(DATA / "corpus.f")),
        status=1,
    )
    prefix = f"meteor-eval new-language: error: --phrase-table: {table} line {number}: "
    assert line.startswith(prefix) and line.endswith(ending)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pt.gz"]  # no folder, no leftovers


def test_a_table_giving_no_paraphrase_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Target phrases absent from the corpus: nothing to pivot, and METEOR refuses an empty
    table, so no folder is written."""
    table = tmp_path / "pt.gz"
    table.write_bytes(gzip.compress(b"a ||| zzz ||| 0.5 0.5 0.5 0.5\na ||| yyy ||| 0.5 1 0.5 1\n"))
    foreign = ("--foreign-corpus", str(DATA / "corpus.f"))
    line = _refused(capsys, _argv(tmp_path / "o", DATA / "corpus.e", table, *foreign), status=1)
    assert line.startswith(f"meteor-eval new-language: error: no paraphrases came out of {table}:")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pt.gz"]


def test_corpus_not_utf8_is_refused_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = tmp_path / "c.txt"
    corpus.write_bytes(b"one line\r\ntwo\rthree \xff\n")
    foreign = ("--foreign-corpus", str(DATA / "corpus.f"))
    argv = _argv(tmp_path / "o", corpus, DATA / "phrase-table.gz", *foreign)
    line = _refused(capsys, argv, status=1)
    assert line == (
        f"meteor-eval new-language: error: --corpus: {corpus} line 3: "
        "not UTF-8 (byte 7 of the line)"
    )


@pytest.mark.parametrize(
    ("table", "extra", "message"),
    [
        ("phrase-table.gz", ["--target-lines", "0"], "--target-lines: must be at least 1, got 0"),
        ("corpus.e", [], f"--phrase-table: {DATA / 'corpus.e'}: not a gzip file"),
    ],
)
def test_bad_options_are_refused(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    table: str,
    extra: list[str],
    message: str,
) -> None:
    line = _refused(capsys, _argv(tmp_path / "o", DATA / "corpus.e", DATA / table, *extra))
    assert line == f"meteor-eval new-language: error: {message}"


def test_out_below_a_file_is_refused_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, the build ran, then failed with 'cannot write ...: File exists' (exit 1)."""
    (tmp_path / "f").write_text("mine")
    out = tmp_path / "f" / "sub" / "o"
    line = _refused(capsys, _argv(out, DATA / "corpus.e", DATA / "phrase-table.gz"))
    assert (
        line == f"meteor-eval new-language: error: --out: {out}: {tmp_path / 'f'} is not a folder"
    )


def test_existing_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "o").mkdir()
    (tmp_path / "o" / "keep.txt").write_text("mine")
    line = _refused(capsys, _argv(tmp_path / "o", DATA / "corpus.e", DATA / "phrase-table.gz"))
    assert line.endswith(f"--out: {tmp_path / 'o'} exists and is not an empty folder")
    assert (tmp_path / "o" / "keep.txt").read_text() == "mine"


@pytest.mark.parametrize(
    "extra", [["--lang", "fr"], ["--norm"], ["--paraphrase-table", "x.gz"]], ids=" ".join
)
def test_score_resources_refuses_options_it_replaces(
    folder: Path, capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    hyp, ref = str(DATA / "score.hyp"), str(DATA / "score.ref")
    line = _refused(
        capsys, ["score", "--resources", str(folder), "--hyp", hyp, "--ref", ref, *extra]
    )
    message = f"--resources: {extra[0]} cannot be combined with it"
    assert line.startswith(f"meteor-eval score: error: {message}")


def test_score_resources_without_the_files_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, ref = str(DATA / "score.hyp"), str(DATA / "score.ref")
    line = _refused(capsys, ["score", "--resources", str(tmp_path), "--hyp", hyp, "--ref", ref])
    assert line == (
        f"meteor-eval score: error: --resources: {tmp_path} has no function.words (build a "
        "resource folder with meteor-eval new-language)"
    )


def test_score_resources_refuses_parex_lines(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Parex's own paraphrase.gz ('e1 ||| e2 ||| p' lines) in a folder was read as three-line
    records of wrong phrases, without an error, and gave another score."""
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "function.words").write_bytes((folder / "function.words").read_bytes())
    lines = b"24 million ||| million czech ||| 0.04\na b ||| c d ||| 0.5\nx ||| y ||| 0.2\n"
    (bad / "paraphrase.gz").write_bytes(gzip.compress(lines))
    hyp, ref = str(DATA / "score.hyp"), str(DATA / "score.ref")
    argv = ["score", "--resources", str(bad), "--hyp", hyp, "--ref", ref]
    line = _refused(capsys, argv, status=1)
    assert line.startswith(
        f"meteor-eval score: error: --resources: {bad / 'paraphrase.gz'} line 1: a 'phrase ||| "
        "phrase ||| p' line (Parex's output)"
    )


def test_as_a_user_runs_it(tmp_path: Path) -> None:
    """The two commands in a shell: build, then score; the score is the jar's."""
    env = {
        **os.environ,
        "METEOR_EVAL_CACHE": str(tmp_path / "cache"),
        "PYTHONPATH": str(ROOT / "src"),
    }
    command = [sys.executable, "-m", "meteor_eval"]
    out = tmp_path / "xx"

    def run(argv: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*command, *argv], cwd=DATA, env=env, capture_output=True, text=True, check=False
        )

    built = run(
        _argv(out, Path("corpus.e"), Path("phrase-table.gz"), "--foreign-corpus", "corpus.f")
    )
    assert built.returncode == 0, built.stderr
    assert built.stdout.startswith(f"{out}: 247 function words, 194 paraphrase records\n")
    scored = run(["score", "--resources", str(out), "--hyp", "score.hyp", "--ref", "score.ref"])
    assert scored.returncode == 0, scored.stderr
    assert scored.stdout.startswith(f"METEOR = {_golden_final()!r} ")


def test_no_index_leaves_the_cache_empty(tmp_path: Path) -> None:
    assert _build(tmp_path / "o", "--foreign-corpus", str(DATA / "corpus.f"), "--no-index") == 0
    manifest = json.loads((tmp_path / "o" / "manifest.json").read_text(encoding="utf-8"))
    assert "index" not in manifest["files"]["paraphrase.gz"]
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").iterdir())


def test_the_index_is_built_into_the_cache(folder: Path) -> None:
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    index = Path(manifest["files"]["paraphrase.gz"]["index"])
    assert index.is_file() and index.name.startswith("paraphrase-") and index.suffix == ".idx"


def _stats_of(folder: Path, stats: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    """Score the fixture's test set with ``folder``, writing ``stats``; the JSON result."""
    hyp, ref = str(DATA / "score.hyp"), str(DATA / "score.ref")
    argv = ["score", "--resources", str(folder), "--hyp", hyp, "--ref", ref, "--format", "json"]
    assert main([*argv, "--stats", str(stats)]) == 0
    data = json.loads(capsys.readouterr().out)
    return {"signature": data["signature"]["meteor"], **data["systems"][0]["meteor"]}


def _from_stats(stats: Path, folder: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    argv = ["score", "--from-stats", str(stats), "--resources", str(folder), "--format", "json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    return {"signature": data["signature"]["meteor"], **data["systems"][0]["meteor"]}


def test_statistics_rescore_with_a_copy_of_the_folder(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The resources are the same content at another path: the statistics still fit them."""
    made = _stats_of(folder, tmp_path / "s.stats", capsys)
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    again = _from_stats(tmp_path / "s.stats", copy, capsys)
    assert again["score"] == made["score"] == 0.4409516416364013
    assert again["signature"] == made["signature"]
    assert "|resources:function-words-en-user-" in made["signature"]


def test_statistics_rescore_with_the_folder_moved(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Scored with a folder that was then moved: its old path is gone, its content the same."""
    before, after = tmp_path / "before", tmp_path / "after"
    shutil.copytree(folder, before)
    made = _stats_of(before, tmp_path / "s.stats", capsys)
    before.rename(after)
    again = _from_stats(tmp_path / "s.stats", after, capsys)
    assert (again["score"], again["signature"]) == (made["score"], made["signature"])


def test_statistics_are_refused_with_other_function_words(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Other function words give other statistics: refused, naming the two word lists."""
    stats = tmp_path / "s.stats"
    made = _stats_of(folder, stats, capsys)
    other = tmp_path / "other"
    shutil.copytree(folder, other)
    words = other / "function.words"
    words.write_text(words.read_text(encoding="utf-8") + "zyzzyva\n", encoding="utf-8")
    old_id = next(r for r in made["signature"].split("|") if r.startswith("resources:"))
    old_words = old_id.removeprefix("resources:").split(",")[0]
    new_words = "function-words-en-user-" + hashlib.sha256(words.read_bytes()).hexdigest()[:8]
    argv = ["score", "--from-stats", str(stats), "--resources", str(other)]
    assert _refused(capsys, argv, status=1) == (
        f"meteor-eval score: error: {stats}: the statistics were made with {old_words}; "
        f"function_words_file={str(words)!r} is {new_words} (other content): other resources "
        "need new statistics (re-score the text instead)"
    )


def test_statistics_are_refused_with_another_paraphrase_table(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A table with one record fewer: refused, naming the table (the function words, the
    same content at another path, are not blamed)."""
    stats = tmp_path / "s.stats"
    made = _stats_of(folder, stats, capsys)
    other = tmp_path / "other"
    shutil.copytree(folder, other)
    table = other / "paraphrase.gz"
    lines = gzip.decompress(table.read_bytes()).decode("utf-8").splitlines(keepends=True)
    table.write_bytes(gzip.compress("".join(lines[:-3]).encode("utf-8")))
    resources = next(r for r in made["signature"].split("|") if r.startswith("resources:"))
    old_table = resources.removeprefix("resources:").split(",")[1]
    assert old_table.startswith("paraphrase-other-1.5-")
    argv = ["score", "--from-stats", str(stats), "--resources", str(other)]
    line = _refused(capsys, argv, status=1)
    assert line.startswith(
        f"meteor-eval score: error: {stats}: the statistics were made with {old_table}; "
        f"paraphrase_table={str(table)!r} is paraphrase-other-1.5-"
    )
    assert line.endswith(
        " (other content): other resources need new statistics (re-score the text instead)"
    )
    assert line.count("other content") == 1


def test_statistics_of_two_copies_of_the_folder_compare(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two systems scored with the same folder at two paths are compared, not refused as
    made with other settings."""
    one, two = tmp_path / "one", tmp_path / "two"
    shutil.copytree(folder, one)
    shutil.copytree(folder, two)
    made = _stats_of(one, tmp_path / "a.stats", capsys)
    ref = str(DATA / "score.ref")
    argv = ["score", "--resources", str(two), "--hyp", ref, "--ref", ref, "--format", "json"]
    assert main([*argv, "--stats", str(tmp_path / "b.stats")]) == 0
    capsys.readouterr()
    files = [str(tmp_path / "a.stats"), str(tmp_path / "b.stats")]
    assert main(["score", "--from-stats", *files, "--names", "a,b", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    scores = {system["name"]: system["meteor"]["score"] for system in data["systems"]}
    assert scores == {"a": made["score"], "b": 1.0}
    assert made["score"] == 0.4409516416364013
    assert data["signature"]["meteor"] == made["signature"]
