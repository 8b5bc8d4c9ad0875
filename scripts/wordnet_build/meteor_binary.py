"""Building the binary METEOR view (``meteor-synsets.bin.xz``) from the text form."""

from __future__ import annotations

import gzip
import hashlib
import sys
from array import array

from meteor_eval.errors import ResourceError
from meteor_eval.resources.wordnet.binary import (
    METEOR_HEADER,
    METEOR_MAGIC,
    METEOR_VERSION,
)
from meteor_eval.resources.wordnet.meteor import MeteorWordNet, meteor_exceptions

from .keytable import build_key_table
from .text_form import merged_synsets, xz_deterministic


def _gunzip_text(data: bytes, what: str) -> str:
    try:
        return gzip.decompress(data).decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as error:
        raise ResourceError(f"WordNet {what} is corrupt ({error})") from error


def _pad4(data: bytes) -> bytes:
    return data + bytes(-len(data) % 4)


def source_digest_of(*files: bytes) -> bytes:
    """SHA-256 over the SHA-256 digests of ``files``: what a header records of its sources."""
    return hashlib.sha256(b"".join(hashlib.sha256(data).digest() for data in files)).digest()


def build_meteor_binary(index_gz: bytes, exceptions_gz: bytes) -> bytes:
    """The xz-compressed content of ``meteor-synsets.bin.xz`` for the text form's index and
    exceptions.

    Keys are the listed words and the inflected forms of the exception lists, sorted by code
    point. Layout after the header (little-endian), sections zero-padded to 4 bytes (the last
    uint32 section to 8): the keys' UTF-8 bytes concatenated; ``keys + 1`` uint32 starts into
    them; the key table (``2 ** bits`` uint32 slots, see :mod:`.keytable`); ``keys + 1``
    uint32 starts into the value pool; ``keys`` uint32 ends of each key's own synsets; the pool
    of int64 synset offsets. A key's segment of the pool holds its own synsets (ascending), then,
    when S(key) differs from them, S(key) itself (ascending). Deterministic: same inputs, same
    bytes.

    Raises:
        ResourceError: an input is corrupt or a value does not fit its field.
    """
    synsets = merged_synsets(_gunzip_text(index_gz, "index"))
    exceptions = meteor_exceptions(_gunzip_text(exceptions_gz, "exception list"))
    reference = MeteorWordNet(synsets, exceptions)
    keys = sorted(synsets.keys() | exceptions.keys())
    starts = array("I", [0])
    own_ends = array("I")
    pool = array("q")
    try:
        for key in keys:
            own = synsets.get(key, ())
            pool.extend(own)
            own_ends.append(len(pool))
            full = sorted(reference.synonym_set(key))
            if full != list(own):
                pool.extend(full)
            starts.append(len(pool))
    except OverflowError as error:
        raise ResourceError(f"WordNet: value out of range for the binary form ({error})") from error
    blob, key_starts, table, bits = build_key_table(
        [key.encode("utf-8") for key in keys], sparse=True
    )
    if sys.byteorder != "little":
        for each in (key_starts, table, starts, own_ends, pool):
            each.byteswap()
    header = METEOR_HEADER.pack(
        METEOR_MAGIC,
        METEOR_VERSION,
        len(keys),
        len(synsets),
        len(pool),
        len(blob),
        bits,
        source_digest_of(index_gz, exceptions_gz),
    )
    body = bytearray(header)
    body += _pad4(blob)
    for each in (key_starts, table, starts, own_ends):
        body += each.tobytes()
    body += bytes(-len(body) % 8)
    body += pool.tobytes()
    return xz_deterministic(bytes(body))
