"""The canonical text form of the WordNet resource, and the plain tables parsed from it.

Three gzip'd UTF-8 files (gzip'd with :func:`gzip_deterministic`, so equal text gives equal
bytes), whose SHA-256 digests ``manifest.json`` records and the resource's identity is built on:

``index.tsv.gz``
    One line per (part of speech, lemma) of the index files, in file order (noun, verb, adj,
    adv; lemmas sorted within each): ``pos<TAB>lemma<TAB>offset offset ...``; the offsets keep
    the index file's (sense) order. ``pos`` is ``n``, ``v``, ``a`` or ``r``.
``synsets.tsv.gz``
    One line per synset of the data files, in file order (noun, verb, adj, adv; offsets
    ascending within each): ``pos<TAB>offset<TAB>lemma lemma ...``. ``pos`` is the synset type
    (``s`` for adjective satellites, which live in the adjective file).
``exceptions.tsv.gz``
    The morphological exception lists, line by line in file order (noun, verb, adj, adv):
    ``pos<TAB>inflected form<TAB>base base ...``; duplicate forms are kept.

The shipped NLTK view holds all of it, so :func:`text_form_from_nltk_view` regenerates the
three files byte for byte; the tests use that instead of a shipped copy.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import lzma
from dataclasses import dataclass

from meteor_eval.resources.wordnet.binary import NltkSections
from meteor_eval.resources.wordnet.shipped import WORDNET_FILES

_FILE_POS = ("n", "v", "a", "r")


def gzip_deterministic(body: bytes) -> bytes:
    """gzip with no file name, mtime 0 and level 9: the same input always gives the same bytes."""
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0, compresslevel=9) as gz:
        gz.write(body)
    return buffer.getvalue()


#: How the shipped binaries are compressed: xz (one block, CRC32 checks, which the reader's
#: check of its unpacked copy reads without decompressing: ``registry.content_crc32``), LZMA2 at
#: its strongest preset with 4-byte-aligned literal and position contexts for the binary tables
#: (1.67 and 2.50 MB against 2.57 and 3.39 MB as gzip -9).
XZ_FILTERS = (
    {"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME, "lc": 1, "lp": 2, "pb": 2},
)


def xz_deterministic(body: bytes) -> bytes:
    """xz as :data:`XZ_FILTERS` says: the same input always gives the same bytes."""
    return lzma.compress(
        body, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32, filters=list(XZ_FILTERS)
    )


@dataclass(frozen=True)
class TextForm:
    """The three gzip'd files of the text form."""

    index: bytes
    synsets: bytes
    exceptions: bytes

    @classmethod
    def from_text(cls, index: str, synsets: str, exceptions: str) -> TextForm:
        """The text form of the three files' text."""
        return cls(
            *(gzip_deterministic(text.encode("utf-8")) for text in (index, synsets, exceptions))
        )

    def files(self) -> dict[str, bytes]:
        """File name -> gzip'd content, in the order of ``WORDNET_FILES``."""
        return dict(zip(WORDNET_FILES, (self.index, self.synsets, self.exceptions), strict=True))

    def digests(self) -> dict[str, str]:
        """File name -> SHA-256 (hex), as ``manifest.json`` records them under ``text_form``."""
        return {name: hashlib.sha256(data).hexdigest() for name, data in self.files().items()}

    def text(self, name: str) -> str:
        """The decompressed text of one file."""
        return gzip.decompress(self.files()[name]).decode("utf-8")


def merged_synsets(index_text: str) -> dict[str, tuple[int, ...]]:
    """The jar's word -> sorted distinct synset offsets (all parts of speech) from the index."""
    merged: dict[str, list[int]] = {}
    for line in index_text.splitlines():
        _pos, lemma, offsets = line.split("\t")
        merged.setdefault(lemma, []).extend(map(int, offsets.split()))
    return {word: tuple(sorted(set(offsets))) for word, offsets in merged.items()}


def nltk_tables(
    index_text: str, synsets_text: str
) -> tuple[
    dict[str, dict[str, tuple[int, ...]]], dict[tuple[str, int], tuple[str, tuple[str, ...]]]
]:
    """NLTK's lemma index and synset table from the text of the two shipped files."""
    synsets: dict[tuple[str, int], tuple[str, tuple[str, ...]]] = {}
    satellites: set[int] = set()
    for line in synsets_text.splitlines():
        ss_type, offset_text, names = line.split("\t")
        offset = int(offset_text)
        if ss_type == "s":
            satellites.add(offset)
        synsets["a" if ss_type == "s" else ss_type, offset] = (ss_type, tuple(names.split(" ")))
    index: dict[str, dict[str, tuple[int, ...]]] = {}
    for line in index_text.splitlines():
        pos, lemma, offsets_text = line.split("\t")
        offsets = tuple(map(int, offsets_text.split()))
        entry = index.setdefault(lemma, {})
        entry[pos] = offsets
        if pos == "a":
            # NLTK 3.10 gives every adjective lemma an ``s`` entry: its satellites, index order.
            entry["s"] = tuple(offset for offset in offsets if offset in satellites)
    return index, synsets


def text_form_from_nltk_view(data: NltkSections) -> TextForm:
    """The text form regenerated from the sections of the binary NLTK view.

    The view keeps every lemma's index entries per part of speech in index order, every
    synset's type, offset and lemma names, and the exception lists' text as it was, so the
    result is byte for byte the text form it was built from (its digests then equal the
    manifest's).
    """
    keys, bounds = data.keys, data.bounds
    index_lines: list[str] = []
    for slot, pos in enumerate(_FILE_POS):
        low, high = bounds[slot], bounds[slot + 1]
        for at in range(len(keys)):
            if data.masks[at] >> slot & 1:
                found = data.entries[data.entry_starts[at] : data.entry_starts[at + 1]]
                offsets = " ".join(
                    str(data.synset_offsets[number]) for number in found if low <= number < high
                )
                index_lines.append(f"{pos}\t{keys.key(at)}\t{offsets}\n")
    synset_lines: list[str] = []
    for number in range(bounds[4]):
        names = data.names[data.name_starts[number] : data.name_starts[number + 1]]
        synset_lines.append(
            f"{chr(data.types[number])}\t{data.synset_offsets[number]}\t{names.decode('utf-8')}\n"
        )
    return TextForm.from_text("".join(index_lines), "".join(synset_lines), data.exceptions_text)
