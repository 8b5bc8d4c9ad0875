"""Fuzz the paraphrase index reader with damaged index files.

A tiny paraphrase table is written to a temporary folder and its index built through the public
API (``open_index``). Each input then describes damage to the index file: byte overwrites at
chosen offsets (header fields, offsets and counts included), a truncation or an extension. The
damaged file is opened with ``open_index`` (``verify`` "sample" or "full") and, when that
succeeds, used: lookups (``paraphrases``) and the candidates of the compiled matcher and of the
pure-Python one, which must agree. Allowed outcomes: a result, a rebuild (the file is then
whole again), or an error of the project's own classes (``MeteorEvalError``). Anything else
(an ``IndexError``, a ``struct.error``, a crash of the C kernel) is a defect.

    python scripts/fuzz/fuzz_paraphrase_index.py -atheris_runs=200000
    python scripts/fuzz/fuzz_paraphrase_index.py --no-atheris -runs=50000
"""

from __future__ import annotations

import atexit
import gzip
import logging
import shutil
import tempfile
from pathlib import Path

import _driver

from meteor_eval.errors import MeteorEvalError
from meteor_eval.match.base import Segment
from meteor_eval.match.paraphrase import ParaphraseMatcher
from meteor_eval.resources.paraphrases import index_path_for, open_index, table_key

WORDS = ["big", "large", "house", "home", "the", "a", "car", "auto", "\u00e9t\u00e9", "x" * 40]
PHRASES = [" ".join(WORDS[(k * 3 + i) % len(WORDS)] for i in range(1 + k % 3)) for k in range(12)]
SEEDS = [
    b"\x00",
    b"\x01\x00\x00\xff",  # the magic
    b"\x01\x20\x00\x07",  # a header field
    b"\x02\x40\x00\xff\x41\x00\x7f",
    b"\x80\x00\x00",  # truncations
    b"\x81\x00\x90",
    b"\xc0\x10\x00",  # an extension
]

_FOLDER = Path(tempfile.mkdtemp(prefix="meteor-eval-fuzz-"))
atexit.register(shutil.rmtree, _FOLDER, ignore_errors=True)
logging.getLogger("meteor_eval").setLevel(logging.ERROR)  # one warning per rebuild otherwise
TABLE = _FOLDER / "paraphrase-xx.gz"
TABLE.write_bytes(
    gzip.compress(
        "".join(
            f"0.{k % 9 + 1}\n{a}\n{b}\n" for k, a in enumerate(PHRASES) for b in PHRASES[k + 1 :]
        ).encode()
    )
)
CACHE = _FOLDER / "cache"
open_index(TABLE, "xx", directory=CACHE).close()
INDEX = index_path_for(table_key(TABLE), CACHE)
PRISTINE = INDEX.read_bytes()
HYP = Segment(tuple(WORDS + WORDS[::-1]), ())
REF = Segment(tuple(WORDS[::2] + WORDS[1::2] + ["unknown"]), ())


def damage(data: bytes) -> bytes:
    """The index file as ``data`` describes it (see the module docstring)."""
    index = bytearray(PRISTINE)
    flags = data[0] if data else 0
    edits = data[1:]
    for k in range(0, len(edits) - 2, 3):
        # Offsets: the first 256 bytes (the header) or anywhere in the file.
        where = int.from_bytes(edits[k : k + 2], "little")
        where = where % 256 if where & 0x8000 == 0 else where % len(index)
        index[where] = edits[k + 2]
    if flags & 0x80:  # truncate (or extend) by an amount from the first edit
        amount = int.from_bytes(edits[:2].ljust(2, b"\0"), "little") % len(index)
        if flags & 0x40:
            index += bytes(amount % 64 + 1)
        else:
            del index[len(index) - amount - 1 :]
    return bytes(index)


def test_one_input(data: bytes) -> None:
    INDEX.write_bytes(damage(data))
    verify = "full" if data[:1] and data[0] & 1 else "sample"
    try:
        table = open_index(TABLE, "xx", directory=CACHE, verify=verify)  # type: ignore[arg-type]
    except MeteorEvalError:
        return
    try:
        table.paraphrases(["big"])
        table.paraphrases(["the", "car"])
        matcher = ParaphraseMatcher(table)
        fast = matcher.candidates(HYP, REF, 3)
        if fast != matcher.candidates_python(HYP, REF, 3):
            raise AssertionError("compiled and pure-Python paraphrase candidates differ")
    except MeteorEvalError:
        pass
    finally:
        table.close()


if __name__ == "__main__":
    _driver.main(test_one_input, SEEDS)
