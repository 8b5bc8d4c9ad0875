"""The compact binary NLTK view of WordNet holds exactly what the shipped text files hold.

``data/wordnet/nltk-wordnet.bin.gz`` is derived from ``index.tsv.gz``, ``synsets.tsv.gz`` and
``exceptions.tsv.gz`` by ``scripts/build_wordnet.py`` (``build_nltk_binary``). These tests rebuild
it, compare every lemma entry and synset with a parse of the text files, and check that a stale or
damaged binary file is ignored (the text files are parsed instead).
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from meteor_eval.resources import synonyms
from meteor_eval.resources.registry import data_file
from meteor_eval.resources.synonyms import (
    NLTK_BINARY_FILE,
    build_nltk_binary,
    nltk_wordnet,
)


@pytest.fixture(scope="module")
def sources() -> tuple[bytes, bytes, bytes]:
    return (
        data_file("wordnet", "index.tsv.gz").read_bytes(),
        data_file("wordnet", "synsets.tsv.gz").read_bytes(),
        data_file("wordnet", "exceptions.tsv.gz").read_bytes(),
    )


def test_shipped_binary_is_the_build_of_the_shipped_text(
    sources: tuple[bytes, bytes, bytes],
) -> None:
    assert build_nltk_binary(*sources) == data_file("wordnet", NLTK_BINARY_FILE).read_bytes()


def test_binary_view_equals_the_text_tables(sources: tuple[bytes, bytes, bytes]) -> None:
    loaded = synonyms._load_nltk_binary(*sources)
    assert loaded is not None
    index, synset_table, exceptions_text = loaded
    assert exceptions_text == gzip.decompress(sources[2]).decode()
    text_index, text_synsets = synonyms._nltk_tables(
        gzip.decompress(sources[0]).decode(), gzip.decompress(sources[1]).decode()
    )
    assert len(index) == len(text_index) == 147_306
    assert len(synset_table) == len(text_synsets) == 117_659
    assert all(index[word] == entry for word, entry in text_index.items())
    assert all(synset_table[key] == value for key, value in text_synsets.items())
    assert set(synset_table) == set(text_synsets)
    assert index.get("no such lemma") is None and "dog" in index
    assert ("n", 2084071) in synset_table and ("x", 1) not in synset_table
    assert synset_table["n", 2084071] == ("n", ("dog", "domestic_dog", "Canis_familiaris"))
    assert index.offsets("dog", "n") is not None and index.offsets("dog", "r") is None


def test_adjective_lemmas_have_a_satellite_entry(sources: tuple[bytes, bytes, bytes]) -> None:
    loaded = synonyms._load_nltk_binary(*sources)
    assert loaded is not None
    index, _, _ = loaded
    assert "s" in index["big"] and "s" in index["abaxial"]
    assert index["abaxial"]["s"] == ()  # present but empty, as NLTK 3.10 has it


def test_stale_binary_is_ignored(sources: tuple[bytes, bytes, bytes]) -> None:
    index_gz, synsets_gz, exceptions_gz = sources
    changed = gzip.compress(gzip.decompress(index_gz) + b"n\tzzzz\t1\n", mtime=0)
    assert synonyms._load_nltk_binary(changed, synsets_gz, exceptions_gz) is None
    changed = gzip.compress(gzip.decompress(exceptions_gz) + b"n\tzzzz\tz\n", mtime=0)
    assert synonyms._load_nltk_binary(index_gz, synsets_gz, changed) is None


def test_damaged_binary_is_ignored(
    sources: tuple[bytes, bytes, bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = gzip.decompress(data_file("wordnet", NLTK_BINARY_FILE).read_bytes())
    damaged = tmp_path / NLTK_BINARY_FILE
    damaged.write_bytes(gzip.compress(good[:-10]))
    real = data_file

    def fake(*parts: str) -> Path:
        return damaged if parts[-1] == NLTK_BINARY_FILE else real(*parts)

    monkeypatch.setattr(synonyms, "data_file", fake)
    monkeypatch.setenv("METEOR_EVAL_CACHE", str(tmp_path / "cache"))
    assert synonyms._load_nltk_binary(*sources) is None
    damaged.write_bytes(b"not gzip")
    assert synonyms._load_nltk_binary(*sources) is None


def test_shared_view_reads_the_binary_and_answers_like_nltk() -> None:
    wn = nltk_wordnet()
    assert isinstance(wn._index, synonyms._NltkIndex)
    assert sorted(wn.lemma_names("dogs"))[:3] == ["Canis_familiaris", "andiron", "blackguard"]
    assert wn.morphy("churches") == "church"
    assert wn.synsets("abaxial") == [("a", 2312)]  # nltk.corpus.wordnet, NLTK 3.10.4
