"""A paraphrase index damaged where its checks do not look gives a rebuild or a ResourceError.

``open_index`` checks the header and a sample of the body (64 blocks of 4 KiB), so a large index
can be damaged in between and still open. Found by ``scripts/fuzz/fuzz_paraphrase_index.py``:
an invalid UTF-8 byte in the vocabulary raised ``UnicodeDecodeError`` from ``open_index`` (now a
rebuild), and a damaged trie or record offset raised a bare ``ValueError`` from the compiled
matcher and ``IndexError`` from the pure-Python one (now both ``ResourceError``).
"""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import pytest

from meteor_eval.errors import ResourceError
from meteor_eval.match.base import Segment
from meteor_eval.match.paraphrase import ParaphraseMatcher
from meteor_eval.resources.paraphrases import index_path_for, open_index, table_key

WORDS = [f"w{k}" for k in range(3000)]


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path, bytes]:
    """(table, cache folder, index file, its intact bytes) for a table of 20,000 records."""
    rng = random.Random(0)

    def phrase() -> str:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))

    folder = tmp_path_factory.mktemp("damage")
    table = folder / "paraphrase-xx.gz"
    body = "".join(f"0.5\n{phrase()}\n{phrase()}\n" for _ in range(20_000))
    table.write_bytes(gzip.compress(body.encode()))
    cache = folder / "cache"
    open_index(table, "xx", directory=cache).close()
    path = index_path_for(table_key(table), cache)
    intact = path.read_bytes()
    assert len(intact) > 64 * 4096 * 2  # the sampled checksum leaves gaps
    return table, cache, path, intact


def test_invalid_utf8_in_the_vocabulary_is_rebuilt(index: tuple[Path, Path, Path, bytes]) -> None:
    table, cache, path, intact = index
    for position in range(300, 12_000, 401):  # inside the vocabulary, sampled or not
        path.write_bytes(intact[:position] + b"\xff" + intact[position + 1 :])
        opened = open_index(table, "xx", directory=cache)
        opened.close()
        assert path.read_bytes() == intact, position


def test_damaged_offsets_give_resource_errors(index: tuple[Path, Path, Path, bytes]) -> None:
    table, cache, path, intact = index
    rng = random.Random(1)
    segments = [Segment(tuple(rng.choice(WORDS[:300]) for _ in range(60)), ()) for _ in range(8)]
    messages = []
    for position in range(20_000, len(intact) - 4096, 20_011):  # the arrays after the vocabulary
        path.write_bytes(intact[:position] + b"\xff" * 2048 + intact[position + 2048 :])
        opened = open_index(table, "xx", directory=cache)
        try:
            matcher = ParaphraseMatcher(opened)
            for hyp, ref in zip(segments[::2], segments[1::2], strict=True):
                for candidates in (matcher.candidates, matcher.candidates_python):
                    try:
                        candidates(hyp, ref, 3)
                    except ResourceError as exc:
                        messages.append(str(exc))
        finally:
            opened.close()
    # Some damage was out of the checksum's sight and met by the walks.
    assert messages
    assert all("is damaged" in message and str(path) in message for message in messages)
