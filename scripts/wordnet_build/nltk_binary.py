"""Building the binary NLTK view (``nltk-wordnet.bin.xz``) from the text form."""

from __future__ import annotations

import sys
from array import array

from meteor_eval.errors import ResourceError
from meteor_eval.resources.wordnet.binary import NLTK_HEADER, NLTK_MAGIC, NLTK_VERSION

from .keytable import build_key_table
from .meteor_binary import _gunzip_text, _pad4, source_digest_of
from .text_form import nltk_tables, xz_deterministic

# File part of speech -> its rank in the synset numbering (and in the key order n v a r).
_FILE_POS = {"n": 0, "v": 1, "a": 2, "r": 3}
# Part of speech -> its bit in a lemma's mask.
_POS_BIT = {"n": 1, "v": 2, "a": 4, "r": 8}
_POS_ORDER = ("n", "v", "a", "r")


def build_nltk_binary(index_gz: bytes, synsets_gz: bytes, exceptions_gz: bytes) -> bytes:
    """The xz-compressed content of ``nltk-wordnet.bin.xz`` for the three files of the text form.

    Synsets are numbered in the order of their key (file part of speech ``n v a r``, then
    offset); the header gives the count of each part of speech. Layout after the header
    (little-endian), each section zero-padded to 4 bytes: the lemmas' UTF-8 bytes concatenated
    (sorted by code point); ``lemmas + 1`` uint32 starts into them; the key table (``2 ** bits``
    uint32 slots, see :mod:`.keytable`); one byte per lemma with a bit per part of
    speech present (``n v a r``, bit 0 first; an adjective lemma also has its ``s`` entry);
    ``lemmas + 1`` uint32 starts into the entries; the entries, uint32 synset numbers grouped by
    part of speech in ``n v a r`` order and in index order within each; the uint32 offset of
    each synset; one ASCII type byte per synset; ``synsets + 1`` uint32 starts into the names;
    the lemma names of each synset joined by spaces (UTF-8); the exception lists' text (UTF-8,
    as shipped). Deterministic: same inputs, same bytes.

    Raises:
        ResourceError: an input is corrupt or a value does not fit its field.
    """
    index, synsets = nltk_tables(
        _gunzip_text(index_gz, "index"), _gunzip_text(synsets_gz, "synset list")
    )
    exceptions_text = _gunzip_text(exceptions_gz, "exception list")
    ordered = sorted(synsets, key=lambda k: (_FILE_POS[k[0]], k[1]))
    number = {key: at for at, key in enumerate(ordered)}
    per_pos = [0, 0, 0, 0]
    synset_offsets = array("I")
    types = bytearray()
    name_starts = array("I", [0])
    names = bytearray()
    lemmas = sorted(index)
    masks = bytearray()
    entry_starts = array("I", [0])
    entries = array("I")
    try:
        for file_pos, offset in ordered:
            ss_type, lemma_names = synsets[file_pos, offset]
            per_pos[_FILE_POS[file_pos]] += 1
            synset_offsets.append(offset)
            types.extend(ss_type.encode("ascii"))
            names.extend(" ".join(lemma_names).encode("utf-8"))
            name_starts.append(len(names))
        for lemma in lemmas:
            entry = index[lemma]
            mask = 0
            for pos in _POS_ORDER:
                found = entry.get(pos)
                if found is not None:
                    mask |= _POS_BIT[pos]
                    entries.extend(number[pos, offset] for offset in found)
            entry_starts.append(len(entries))
            masks.append(mask)
    except (OverflowError, ValueError, KeyError) as error:
        raise ResourceError(f"WordNet: value out of range for the binary form ({error})") from error
    blob, lemma_starts, table, bits = build_key_table(
        [lemma.encode("utf-8") for lemma in lemmas], sparse=False
    )
    arrays = (lemma_starts, table, entry_starts, entries, synset_offsets, name_starts)
    if sys.byteorder != "little":
        for each in arrays:
            each.byteswap()
    exceptions_blob = exceptions_text.encode("utf-8")
    header = NLTK_HEADER.pack(
        NLTK_MAGIC,
        NLTK_VERSION,
        len(lemmas),
        len(entries),
        len(blob),
        bits,
        *per_pos,
        len(names),
        len(exceptions_blob),
        source_digest_of(index_gz, synsets_gz, exceptions_gz),
    )
    body = b"".join(
        (
            header,
            _pad4(blob),
            lemma_starts.tobytes(),
            table.tobytes(),
            _pad4(bytes(masks)),
            entry_starts.tobytes(),
            entries.tobytes(),
            synset_offsets.tobytes(),
            _pad4(bytes(types)),
            name_starts.tobytes(),
            _pad4(bytes(names)),
            exceptions_blob,
        )
    )
    return xz_deterministic(body)
