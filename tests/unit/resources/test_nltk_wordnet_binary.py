"""The compact binary NLTK view of WordNet holds exactly what the text form holds.

``data/wordnet/nltk-wordnet.bin.xz`` is derived from ``index.tsv.gz``, ``synsets.tsv.gz`` and
``exceptions.tsv.gz`` by ``scripts/build_wordnet.py`` (``build_nltk_binary``). The text form is
not shipped: ``conftest.py`` regenerates it from the binary and checks its digests against the
manifest. These tests rebuild the binary from it, compare every lemma entry and synset with a
parse of the text, and check that a stale or damaged binary file is refused with a
:class:`ResourceError` naming it (there is no text copy to fall back on).
"""

from __future__ import annotations

import gzip
import lzma
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from wordnet_build.nltk_binary import build_nltk_binary
from wordnet_build.text_form import nltk_tables

from meteor_eval.errors import ResourceError
from meteor_eval.resources.registry import data_file
from meteor_eval.resources.wordnet import NLTK_BINARY_FILE, nltk_wordnet
from meteor_eval.resources.wordnet.nltk import _NltkIndex, _NltkSynsets
from meteor_eval.resources.wordnet.shipped import nltk_sections, read_nltk_binary

if TYPE_CHECKING:
    from wordnet_build.text_form import TextForm


def test_shipped_binary_is_the_build_of_the_text_form(wordnet_text_form: TextForm) -> None:
    form = wordnet_text_form
    built = build_nltk_binary(form.index, form.synsets, form.exceptions)
    assert built == data_file("wordnet", NLTK_BINARY_FILE).read_bytes()


def test_binary_view_equals_the_text_tables(wordnet_text_form: TextForm) -> None:
    data = nltk_sections()
    index, synset_table = _NltkIndex(data), _NltkSynsets(data)
    assert data.exceptions_text == wordnet_text_form.text("exceptions.tsv.gz")
    text_index, text_synsets = nltk_tables(
        wordnet_text_form.text("index.tsv.gz"), wordnet_text_form.text("synsets.tsv.gz")
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


def test_adjective_lemmas_have_a_satellite_entry() -> None:
    index = _NltkIndex(nltk_sections())
    assert "s" in index["big"] and "s" in index["abaxial"]
    assert index["abaxial"]["s"] == ()  # present but empty, as NLTK 3.10 has it


def test_stale_binary_is_refused(
    wordnet_text_form: TextForm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A binary built from other text than manifest.json describes: another index, or other
    # exception lists.
    monkeypatch.setenv("METEOR_EVAL_CACHE", str(tmp_path / "cache"))
    form = wordnet_text_form
    index_text = form.text("index.tsv.gz") + "n\tzzzz\t1740\n"
    exceptions_text = form.text("exceptions.tsv.gz") + "n\tzzzz\tz\n"
    for index_gz, exceptions_gz in (
        (gzip.compress(index_text.encode(), mtime=0), form.exceptions),
        (form.index, gzip.compress(exceptions_text.encode(), mtime=0)),
    ):
        stale = tmp_path / NLTK_BINARY_FILE
        stale.write_bytes(build_nltk_binary(index_gz, form.synsets, exceptions_gz))
        with pytest.raises(ResourceError, match="checksum mismatch") as error:
            read_nltk_binary(stale)
        assert str(stale) in str(error.value)


def test_damaged_binary_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("METEOR_EVAL_CACHE", str(tmp_path / "cache"))
    good = lzma.decompress(data_file("wordnet", NLTK_BINARY_FILE).read_bytes())
    damaged = tmp_path / NLTK_BINARY_FILE
    damaged.write_bytes(lzma.compress(good[:-10], check=lzma.CHECK_CRC32, preset=0))
    with pytest.raises(ResourceError, match="truncated or damaged") as error:
        read_nltk_binary(damaged)
    assert str(damaged) in str(error.value)
    damaged.write_bytes(b"not xz")
    with pytest.raises(ResourceError, match="cannot be read or decompressed"):
        read_nltk_binary(damaged)


def test_a_good_copy_reads_like_the_shipped_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("METEOR_EVAL_CACHE", str(tmp_path / "cache"))
    copy = tmp_path / NLTK_BINARY_FILE
    shutil.copyfile(data_file("wordnet", NLTK_BINARY_FILE), copy)
    data = read_nltk_binary(copy)
    assert data.exceptions_text == nltk_sections().exceptions_text
    assert _NltkIndex(data)["dog"] == _NltkIndex(nltk_sections())["dog"]


def test_shared_view_reads_the_binary_and_answers_like_nltk() -> None:
    wn = nltk_wordnet()
    assert isinstance(wn._index, _NltkIndex)
    assert sorted(wn.lemma_names("dogs"))[:3] == ["Canis_familiaris", "andiron", "blackguard"]
    assert wn.morphy("churches") == "church"
    assert wn.synsets("abaxial") == [("a", 2312)]  # nltk.corpus.wordnet, NLTK 3.10.4
