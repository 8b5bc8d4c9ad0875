"""Fuzz the paraphrase index reader with damaged index files.

A paraphrase table of 20,000 records is written to a temporary folder and its index built
through the public API (``open_index``). Each input then describes damage to the index file:
byte overwrites at chosen offsets (header fields, offsets and counts included), a truncation or
an extension; with flag 0x20 the header's body and header CRC32 are then recomputed, as a faulty
writer would leave them, so that the damage passes the checksum and reaches the readers
(otherwise opening finds it and rebuilds the index). The damaged file is opened with
``open_index`` (``verify`` "checksum" or "full") and, when that succeeds, used: lookups
(``paraphrases``) and the candidates of the compiled matcher and of the pure-Python one, which
must agree. Allowed outcomes: a result, a rebuild (the file is then whole again), or an error of
the project's own classes (``MeteorEvalError``). Anything else (an ``IndexError``, a
``struct.error``, a crash of the C kernel) is a defect.

    python scripts/fuzz/fuzz_paraphrase_index.py -atheris_runs=200000
    python scripts/fuzz/fuzz_paraphrase_index.py --no-atheris -runs=50000
"""

from __future__ import annotations

import atexit
import gzip
import itertools
import logging
import random
import shutil
import tempfile
import zlib
from pathlib import Path

import _driver

from meteor_eval.errors import MeteorEvalError
from meteor_eval.match.base import Segment
from meteor_eval.match.paraphrase import ParaphraseMatcher
from meteor_eval.resources._paraphrase_format import HEADER, HEADER_SIZE
from meteor_eval.resources.paraphrases import (
    ParaphraseTable,
    index_path_for,
    open_index,
    table_key,
)

WORDS = [f"w{k}" for k in range(3000)] + ["\u00e9t\u00e9", "x" * 40, "Aa", "BB"]
SEEDS = [
    b"\x00",
    b"\x01\x00\x00\x00\xff",  # the magic
    b"\x01\x20\x00\x00\x07",  # a header field
    b"\x00\x00\x30\x00\xff\x00\x50\x01\xc3",  # the vocabulary
    b"\x02\x41\x42\x03\x00\x77\x66\x05\x01",  # the arrays
    b"\x80\x00\x00\x00",  # truncations
    b"\x81\x00\x90\x00",
    b"\xc0\x10\x00\x00",  # an extension
    b"\x20\x00\x00\x90\xff\x10\x30\x81\x07",  # the arrays, under valid checksums
]


def _table_text() -> str:
    """20,000 records: an index of a few hundred KiB, with every section several pages long."""
    rng = random.Random(0)

    def phrase() -> str:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))

    return "".join(f"0.{rng.randint(1, 9)}\n{phrase()}\n{phrase()}\n" for _ in range(20_000))


_FOLDER = Path(tempfile.mkdtemp(prefix="meteor-eval-fuzz-"))
atexit.register(shutil.rmtree, _FOLDER, ignore_errors=True)
logging.getLogger("meteor_eval").setLevel(logging.ERROR)  # one warning per rebuild otherwise
TABLE = _FOLDER / "paraphrase-xx.gz"
TABLE.write_bytes(gzip.compress(_table_text().encode()))
CACHE = _FOLDER / "cache"
open_index(TABLE, "xx", directory=CACHE).close()
INDEX = index_path_for(table_key(TABLE), CACHE)
PRISTINE = INDEX.read_bytes()
_rng = random.Random(1)
SEGMENTS = [
    Segment(tuple(_rng.choice(WORDS[:200] + WORDS[-4:]) for _ in range(40)), ()) for _ in range(6)
]


def damage(data: bytes) -> bytes:
    """The index file as ``data`` describes it (see the module docstring)."""
    index = bytearray(PRISTINE)
    flags = data[0] if data else 0
    edits = data[1:]
    for k in range(0, len(edits) - 3, 4):
        # Offsets: the first 256 bytes (the header) or anywhere in the file.
        where = int.from_bytes(edits[k : k + 3], "little")
        where = where % 256 if where & 0x800000 == 0 else where % len(index)
        index[where] = edits[k + 3]
    if flags & 0x80:  # truncate (or extend) by an amount from the first edit
        amount = int.from_bytes(edits[:3].ljust(3, b"\0"), "little") % len(index)
        if flags & 0x40:
            index += bytes(amount % 64 + 1)
        else:
            del index[len(index) - amount - 1 :]
    if flags & 0x20 and len(index) >= HEADER_SIZE:  # valid checksums over the damage
        fields = list(HEADER.unpack_from(index, 0))
        fields[11] = zlib.crc32(index[HEADER_SIZE:])
        HEADER.pack_into(index, 0, *fields)
        crc = zlib.crc32(index[: HEADER.size])
        index[HEADER.size : HEADER.size + 4] = crc.to_bytes(4, "little")
    return bytes(index)


def _use(table: ParaphraseTable, compare: bool) -> None:
    """Look phrases up and match; both matchers must agree on an intact index."""
    matcher = ParaphraseMatcher(table)
    for hyp, ref in itertools.pairwise(SEGMENTS):
        table.paraphrases(ref.tokens[:2])
        try:
            fast = matcher.candidates(hyp, ref, 3)
        except MeteorEvalError:
            fast = None
        try:
            slow = matcher.candidates_python(hyp, ref, 3)
        except MeteorEvalError:
            slow = None
        if compare and (fast is None or fast != slow):
            raise AssertionError("compiled and pure-Python paraphrase candidates differ")


def test_one_input(data: bytes) -> None:
    damaged = damage(data)
    INDEX.write_bytes(damaged)
    verify = "full" if data[:1] and data[0] & 1 else "checksum"
    try:
        table = open_index(TABLE, "xx", directory=CACHE, verify=verify)  # type: ignore[arg-type]
    except MeteorEvalError:
        return
    try:
        _use(table, compare=damaged == PRISTINE or INDEX.read_bytes() == PRISTINE)
    finally:
        table.close()


if __name__ == "__main__":
    _driver.main(test_one_input, SEEDS)
