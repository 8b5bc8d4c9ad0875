"""The paraphrase vocabulary's compiled word -> id table (``paraphrase_vocab``,
``paraphrase_vocab_ids`` in ``_ext/paraphrase.c``) against its twin, the dict of the decoded
words: the same id for every word of the shipped table, for tokens it does not hold and for any
str (non-ASCII, lone surrogates, empty), with a repeated word keeping its last id."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval._ext import compiled_kernels
from meteor_eval.resources import paraphrases
from meteor_eval.resources.paraphrases import open_index, paraphrase_table

KERNEL = compiled_kernels("paraphrase_vocab", "paraphrase_vocab_ids")
needs_kernel = pytest.mark.skipif(KERNEL is None, reason="compiled extension not in use")


def _dict_ids(words: list[str], tokens: list[object]) -> list[int]:
    """The twin's answer: ``dict(zip(words, range(len(words))))`` (last id of a repeat)."""
    vocab = dict(zip(words, range(len(words)), strict=True))
    return [vocab.get(t, -1) if isinstance(t, str) else -1 for t in tokens]


def _section(words: list[str]) -> bytes:
    return "\n".join(words).encode("utf-8", "surrogatepass")


@pytest.fixture(scope="module")
def english() -> paraphrases.ParaphraseTable:
    try:
        return paraphrase_table("en")
    except Exception as exc:  # no table here: nothing to compare
        pytest.skip(f"no English paraphrase table: {exc}")


@needs_kernel
def test_every_word_of_the_english_table(english: paraphrases.ParaphraseTable) -> None:
    words = english.words()
    assert english._vocab_table is not None
    ids = english.token_ids(words)
    assert ids == english.token_ids_python(words)
    assert ids == list(range(len(words)))  # the shipped vocabulary has no repeated word
    others = [w + "s" for w in words[::7]] + [w.upper() for w in words[::11]] + ["", " "]
    assert english.token_ids(others) == english.token_ids_python(others)
    assert english.token_id(words[-1]) == len(words) - 1
    assert english.token_id("\ud800") == -1


@needs_kernel
@settings(max_examples=200, deadline=None)
@given(
    words=st.lists(st.text(st.characters(exclude_characters="\n"), max_size=6), max_size=40),
    extra=st.lists(st.text(max_size=6), max_size=20),
)
def test_random_vocabularies(words: list[str], extra: list[str]) -> None:
    """Any words (lone surrogates, non-BMP, empty, repeated) and any tokens."""
    assert KERNEL is not None
    words = words or [""]
    table, count = KERNEL.paraphrase_vocab(_section(words))
    assert count == len(words)
    tokens: list[object] = [*words, *extra, *(w + "x" for w in words), 3, None]
    assert KERNEL.paraphrase_vocab_ids(table, tokens) == _dict_ids(words, tokens)


@needs_kernel
def test_edge_sections() -> None:
    assert KERNEL is not None
    for words in ([""], ["", ""], ["a", "", "b", ""], ["a", "a", "b", "a"], ["\ud800", "é", "𝄞"]):
        table, count = KERNEL.paraphrase_vocab(_section(words))
        assert count == len(words)
        tokens: list[object] = [*words, "", "a", "é", "\udfff", "ab"]
        assert KERNEL.paraphrase_vocab_ids(table, tokens) == _dict_ids(words, tokens)
    many = [f"w{k}" for k in range(5000)]
    table, _ = KERNEL.paraphrase_vocab(memoryview(_section(many)))
    assert KERNEL.paraphrase_vocab_ids(table, many[::-1]) == list(range(4999, -1, -1))
    with pytest.raises(TypeError):
        KERNEL.paraphrase_vocab("not bytes")
    with pytest.raises(ValueError, match="PyCapsule"):
        KERNEL.paraphrase_vocab_ids(object(), ["a"])
    with pytest.raises(TypeError):
        KERNEL.paraphrase_vocab_ids(table, 5)


def _write_table(path: Path, records: list[tuple[str, str]]) -> Path:
    body = "".join(f"0.5\n{a}\n{b}\n" for a, b in records)
    path.write_bytes(gzip.compress(body.encode("utf-8"), mtime=0))
    return path


@pytest.mark.parametrize("compiled", [True, False])
def test_opened_index_both_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, compiled: bool
) -> None:
    """An index opened with the compiled table and one opened with the dict give the same ids
    and phrases (non-ASCII words included)."""
    if compiled and KERNEL is None:
        pytest.skip("compiled extension not in use")
    for name in list(os.environ):
        if name.startswith("METEOR_EVAL_PARAPHRASE"):
            monkeypatch.delenv(name)
    if not compiled:
        monkeypatch.setattr(paraphrases, "_VOCAB_KERNEL", None)
    records = [("café au lait", "coffee"), ("naïve", "simple x"), ("a", "b"), ("coffee", "café")]
    table = _write_table(tmp_path / "paraphrase-xx.gz", records)
    opened = open_index(table, "xx", directory=tmp_path / "cache")
    assert (opened._vocab_table is not None) == compiled
    words = opened.words()
    tokens = [*words, "caf", "CAFÉ", "", "\ud800"]
    assert opened.token_ids(tokens) == _dict_ids(words, list(tokens))
    assert opened.paraphrases(["café", "au", "lait"]) == [("coffee",)]
    assert opened.paraphrases(["coffee"]) == [("café",)]
