"""The index builders (the compiled single pass, the numpy builder) write the same bytes as the
former per-token Python builder.

The goldens below were produced by that builder (meteor-eval before the streamed build): the
SHA-256 of the whole index (header and body) of a synthetic table covering every reading rule
(Java whitespace, \\r, \\r\\n, invalid UTF-8, empty phrases, repeated and interleaved phrase A)
and of the English table that ships in pycocoevalcap.

Format version 2 (the node table: ``first_child`` and ``record_start`` interleaved) changed the
bytes but not the arrays. Its goldens are the format-1 goldens converted: the format-1 index
of each table was built by the tree before the change (its SHA-256 equal to the former golden,
1ff9a506... and f9416362...), its two arrays interleaved and its header's version, body size
and checksums rewritten by a separate numpy script, and the result compared equal, byte for
byte, to this builder's index before its digest was taken (Python 3.11, numpy 2.4.6, 2026-11-28).
"""

from __future__ import annotations

import gzip
import hashlib
import random
from pathlib import Path

import pytest

from meteor_eval.errors import ResourceError
from meteor_eval.resources import _paraphrase_build, paraphrases
from meteor_eval.resources.paraphrases import build_index, find_paraphrase_table

#: SHA-256 of :func:`golden_table_text` (guards the generator itself).
TABLE_SHA256 = "4efa809cd943bb3302c2f375cefc0ca03113e5e29d648cee5b32cb2350358321"
#: SHA-256 of the former builder's index of that table, content key 32 zero bytes (format 2).
INDEX_SHA256 = "e3264f0b12a02d9d33eec9b8ddaedb91d00bf214a3f8de5a79936cc29155a68d"
#: Same for pycocoevalcap's paraphrase-en.gz (content key from table_key), 74,735,224 bytes.
ENGLISH_INDEX_SHA256 = "bbea80e7c3f09c75199a93c09520528f7c22cca1ab19ea098914e790fc84cb8d"


def golden_table_text() -> bytes:
    """400 records of random phrases over a small vocabulary with every awkward character."""
    rng = random.Random(20261125)
    words = ["a", "b", "c", "d\u00e9", "x\u00a0y", "v\x0bw", "q", "ww", "\u20ac", "the", "cat"]
    seps = [" ", "  ", "\t", "\f", " \t "]
    ends = ["\n", "\r\n", "\r"]

    def phrase() -> str:
        size = rng.choice([0, 1, 1, 2, 3, 4, 6])
        body = rng.choice(seps).join(rng.choice(words) for _ in range(size))
        return rng.choice(["", " "]) + body + rng.choice(["", "\t"])

    lines = []
    for _ in range(400):
        lines += [f"{rng.random():.6f}", phrase(), phrase()]
    # "\r" then an empty line would read as one "\r\n": use "\r" only before a non-empty line.
    text = "".join(
        line + (end if end != "\r" or following else "\n")
        for line, following, end in zip(
            lines, [*lines[1:], "x"], [rng.choice(ends) for _ in lines], strict=True
        )
    ).encode("utf-8")
    return text.replace(b"d\xc3\xa9", b"d\xc3", 3)  # invalid UTF-8, read as U+FFFD


@pytest.fixture
def golden_table(tmp_path: Path) -> Path:
    text = golden_table_text()
    assert hashlib.sha256(text).hexdigest() == TABLE_SHA256
    path = tmp_path / "golden.gz"
    path.write_bytes(gzip.compress(text, mtime=0))
    return path


def _digest(header: bytes, body: bytes | bytearray) -> str:
    digest = hashlib.sha256(header)
    digest.update(body)
    return digest.hexdigest()


def _use_builder(builder: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Select the compiled single pass (``pass``), the numpy builder with the compiled tokeniser
    (``tokenizer``) or the numpy builder with the pure-Python one (``python``)."""
    if builder != "python" and _paraphrase_build._COMPILED_PASS is None:
        pytest.skip("the compiled extension is not built")
    if builder != "pass":
        monkeypatch.setattr(_paraphrase_build, "_COMPILED_PASS", None)
    if builder == "python":
        monkeypatch.setattr(_paraphrase_build, "_COMPILED_TOKENIZE", None)


BUILDERS = ["pass", "tokenizer", "python"]


@pytest.mark.parametrize("builder", BUILDERS)
@pytest.mark.parametrize("block", [1, 2, 7, 64, 1000, 1 << 21])
def test_index_bytes_equal_the_former_builder(
    golden_table: Path, block: int, builder: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Any block size (down to one byte: every line end, \r\n and UTF-8 sequence is cut), with
    # the compiled single pass (paraphrase_index_pass), the numpy builder with the compiled
    # tokeniser (paraphrase_tokenize) and the numpy builder in pure Python.
    _use_builder(builder, monkeypatch)
    monkeypatch.setattr(_paraphrase_build, "_BLOCK", block)
    assert _digest(*build_index(golden_table, bytes(32))) == INDEX_SHA256


@pytest.mark.parametrize("batch", [1, 2, 3, 5, 64])
def test_index_bytes_at_every_batch_of_the_compiled_pass(
    golden_table: Path, batch: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The compiled pass looks phrases up a batch at a time: runs of phrase A that cross batches.
    _use_builder("pass", monkeypatch)
    monkeypatch.setattr(_paraphrase_build, "_PASS_BATCH", batch)
    monkeypatch.setattr(_paraphrase_build, "_BLOCK", 7)
    assert _digest(*build_index(golden_table, bytes(32))) == INDEX_SHA256


@pytest.mark.parametrize("builder", BUILDERS)
def test_progress_reports_the_compressed_bytes(
    golden_table: Path, builder: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _use_builder(builder, monkeypatch)
    seen: list[tuple[int, int]] = []
    build_index(golden_table, bytes(32), progress=lambda done, total: seen.append((done, total)))
    size = golden_table.stat().st_size
    assert seen and seen[-1] == (size, size)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


@pytest.mark.parametrize("builder", BUILDERS)
def test_empty_table(tmp_path: Path, builder: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _use_builder(builder, monkeypatch)
    path = tmp_path / "empty.gz"
    path.write_bytes(gzip.compress(b""))
    built = _paraphrase_build.build_arrays(path)
    assert (built.vocab, len(built.token), len(built.record_b)) == (b"", 1, 0)
    assert built.first_child.tolist() == [1, 1]
    with pytest.raises(ResourceError, match="has no paraphrase records"):
        paraphrases.open_index(path, "xx", directory=tmp_path / "cache")


@pytest.mark.slow
@pytest.mark.parametrize("builder", ["pass", "tokenizer"])
def test_english_index_bytes_equal_the_former_builder(
    builder: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _use_builder(builder, monkeypatch)
    try:
        table = find_paraphrase_table("en")
    except ResourceError:
        pytest.skip("no English paraphrase table installed (pip install pycocoevalcap)")
    if table.stat().st_size != 61_813_011:
        pytest.skip(f"{table} is not pycocoevalcap's paraphrase-en.gz")
    assert _digest(*build_index(table)) == ENGLISH_INDEX_SHA256
