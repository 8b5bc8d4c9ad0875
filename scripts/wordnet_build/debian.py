"""Debian's ``wordnet-base`` files -> the canonical text form, with Princeton's synset offsets.

Offsets are those of Princeton's WordNet 3.0 release, not Debian's. Debian regenerates the data
files from the lexicographer sources with ``grind`` and patches them, and three synset lines come
out with a different length than in Princeton's release (the one the official METEOR 1.5 jar and
NLTK's ``wordnet`` corpus were built from), shifting the byte offsets of the synsets after them:

* ``data.verb`` 00612841 (suppress, repress) is 18 bytes longer in Debian: it carries the
  hyponym pointer ``~ 02423762 v 0000`` that Princeton's release lists under 02422663
  (restrain, keep, keep_back, hold_back), which in turn is 18 bytes shorter in Debian. Verb
  synsets between the two lines therefore sit 18 bytes later in Debian.
* ``data.adj`` 01681307 (laid, set) gains a space after ``plan:`` in its gloss (Debian patch
  ``20_adj.all_fix``, bug #544866), so every later adjective synset sits 1 byte later.

The correction restores Princeton's line lengths before offsets are assigned; nouns and adverbs
are unchanged. Pointers inside the data lines are not used and are not rewritten. After the
correction the word -> offset sets equal the jar's ``synonym/english.synsets`` for all 147,306
words, and the exception lists equal ``synonym/english.exceptions``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .text_form import TextForm

POS_FILES: tuple[tuple[str, str], ...] = (("n", "noun"), ("v", "verb"), ("a", "adj"), ("r", "adv"))

#: (file, Debian offset of the line) -> (Princeton line length - Debian line length,
#: lemma text that identifies the line, so that another Debian revision fails loudly).
LINE_LENGTH_CORRECTIONS: dict[tuple[str, int], tuple[int, str]] = {
    ("verb", 612841): (-18, "suppress 0 repress 0"),
    ("verb", 2422681): (18, "restrain 1 keep 0 keep_back 0 hold_back 0"),
    ("adj", 1681307): (-1, "laid 0 set 0"),
}

_MARKER = re.compile(r"\([^()]*\)$")


def princeton_offsets(data: bytes, file_name: str) -> dict[int, int]:
    """Map every synset's Debian offset in one data file to Princeton's offset.

    Args:
        data: Bytes of ``data.<file_name>``.
        file_name: ``noun``, ``verb``, ``adj`` or ``adv``.

    Returns:
        Debian offset -> Princeton offset, for every synset line.

    Raises:
        ValueError: if a line's own offset field disagrees with its position, or a corrected
            line no longer holds the expected synset.
    """
    mapping: dict[int, int] = {}
    shift = 0
    position = 0
    seen: set[int] = set()
    for line in data.splitlines(keepends=True):
        if not line.startswith(b"  "):
            if int(line[:8]) != position:
                raise ValueError(f"data.{file_name}: offset field {line[:8]!r} at byte {position}")
            mapping[position] = position + shift
            correction = LINE_LENGTH_CORRECTIONS.get((file_name, position))
            if correction is not None:
                delta, expected = correction
                if expected.encode() not in line:
                    raise ValueError(f"data.{file_name} {position}: expected {expected!r}")
                shift += delta
                seen.add(position)
        position += len(line)
    missing = {off for (name, off) in LINE_LENGTH_CORRECTIONS if name == file_name} - seen
    if missing:
        raise ValueError(f"data.{file_name}: corrected lines not found: {sorted(missing)}")
    return mapping


def _entries(data: bytes) -> Iterator[str]:
    """The lines of a WordNet ``data.*`` or ``index.*`` file after its licence header (the
    header's lines start with two spaces)."""
    return (line for line in data.decode("ascii").splitlines() if not line.startswith("  "))


def _parse_synsets(data: bytes, pos_letter: str, mapping: dict[int, int]) -> list[str]:
    rows: list[str] = []
    for raw in _entries(data):
        fields = raw.split(" | ", 1)[0].split()
        ss_type = fields[2]
        if pos_letter != "a" and ss_type != pos_letter:
            raise ValueError(f"synset type {ss_type!r} in the {pos_letter!r} file")
        count = int(fields[3], 16)
        names = [_MARKER.sub("", fields[4 + 2 * k]) for k in range(count)]
        rows.append(f"{ss_type}\t{mapping[int(fields[0])]}\t{' '.join(names)}\n")
    return rows


def _parse_index(data: bytes, pos_letter: str, mapping: dict[int, int]) -> list[str]:
    rows: list[str] = []
    for raw in _entries(data):
        fields = raw.split()
        if fields[1] != pos_letter:
            raise ValueError(f"index line for {fields[0]!r} has pos {fields[1]!r}")
        n_synsets = int(fields[2])
        n_pointers = int(fields[3])
        offsets = fields[6 + n_pointers :]
        if len(offsets) != n_synsets or int(fields[4 + n_pointers]) != n_synsets:
            raise ValueError(f"index line for {fields[0]!r}: synset count mismatch")
        rows.append(
            f"{pos_letter}\t{fields[0]}\t{' '.join(str(mapping[int(o)]) for o in offsets)}\n"
        )
    return rows


def _parse_exceptions(data: bytes, pos_letter: str) -> list[str]:
    rows: list[str] = []
    for raw in data.decode("ascii").splitlines():
        fields = raw.split()
        if len(fields) < 2:
            raise ValueError(f"exception line {raw!r} has no base form")
        rows.append(f"{pos_letter}\t{fields[0]}\t{' '.join(fields[1:])}\n")
    return rows


@dataclass(frozen=True)
class DebianText:
    """The text form read from a ``wordnet-base`` folder, with what the manifest records.

    Attributes:
        text_form: The three gzip'd files.
        inputs: Input file name -> SHA-256 (hex), sorted by name.
        counts: Index lines, synsets and exception lines.
    """

    text_form: TextForm
    inputs: dict[str, str]
    counts: dict[str, int]


def read_wordnet_base(wordnet_dir: Path) -> DebianText:
    """Read the index, data and exception files in ``wordnet_dir`` into the text form.

    Raises:
        ValueError: a file does not have the expected structure (see :func:`princeton_offsets`).
    """
    inputs: dict[str, str] = {}
    index_rows: list[str] = []
    synset_rows: list[str] = []
    exception_rows: list[str] = []
    for letter, name in POS_FILES:
        data = (wordnet_dir / f"data.{name}").read_bytes()
        index = (wordnet_dir / f"index.{name}").read_bytes()
        exc = (wordnet_dir / f"{name}.exc").read_bytes()
        inputs[f"data.{name}"] = hashlib.sha256(data).hexdigest()
        inputs[f"index.{name}"] = hashlib.sha256(index).hexdigest()
        inputs[f"{name}.exc"] = hashlib.sha256(exc).hexdigest()
        mapping = princeton_offsets(data, name)
        synset_rows += _parse_synsets(data, letter, mapping)
        index_rows += _parse_index(index, letter, mapping)
        exception_rows += _parse_exceptions(exc, letter)
    text_form = TextForm.from_text(
        "".join(index_rows), "".join(synset_rows), "".join(exception_rows)
    )
    counts = {
        "index_lines": len(index_rows),
        "synsets": len(synset_rows),
        "exception_lines": len(exception_rows),
    }
    return DebianText(text_form, dict(sorted(inputs.items())), counts)
