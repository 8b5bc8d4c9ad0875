#!/usr/bin/env python3
"""Lay out an NLTK ``corpora/wordnet`` folder from Debian's ``wordnet-base`` files.

NLTK's ``nltk.corpus.wordnet`` needs WordNet data that the project never downloads. The test
suite (and CI) builds it from the Debian package instead::

    python scripts/make_nltk_wordnet_dir.py DEST   # then nltk.data.path.insert(0, DEST)

This copies ``index.*``, ``data.*`` and ``*.exc`` from ``/usr/share/wordnet`` into
``DEST/corpora/wordnet/`` and writes the ``lexnames`` file (absent from ``wordnet-base``) from
the table in the ``lexnames(5WN)`` manual page, plus an empty ``index.sense``. Debian's data
files differ from Princeton's release (the files NLTK's own download contains) only in the byte
offsets of some verb and adjective synsets; see ``scripts/build_wordnet.py``.
"""

from __future__ import annotations

import gzip
import re
import shutil
import sys
from pathlib import Path

WORDNET_DIR = Path("/usr/share/wordnet")
LEXNAMES_MAN = Path("/usr/share/man/man5/lexnames.5WN.gz")
_FILES = tuple(
    f"{kind}.{pos}" for kind in ("index", "data") for pos in ("noun", "verb", "adj", "adv")
) + tuple(f"{pos}.exc" for pos in ("noun", "verb", "adj", "adv"))
_CATEGORY = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}
_ROW = re.compile(r"^(\d\d)\t([a-z]+\.[A-Za-z]+)\s*\t")


def lexnames_from_man_page(man_page: Path = LEXNAMES_MAN) -> str:
    """The ``lexnames`` file text (``NN<TAB>name<TAB>category``) from the lexnames(5WN) page.

    Raises:
        ValueError: if the page does not list the 45 files numbered 00 to 44.
    """
    text = gzip.decompress(man_page.read_bytes()).decode("utf-8", errors="replace")
    rows: list[str] = []
    for line in text.splitlines():
        match = _ROW.match(line)
        if match:
            number, name = match.groups()
            if int(number) != len(rows):
                raise ValueError(f"lexnames: unexpected file number {number} for {name}")
            rows.append(f"{number}\t{name}\t{_CATEGORY[name.split('.')[0]]}\n")
    if len(rows) != 45:
        raise ValueError(f"lexnames: found {len(rows)} lexicographer files, expected 45")
    return "".join(rows)


def make_nltk_wordnet_dir(dest: Path, *, wordnet_dir: Path = WORDNET_DIR) -> Path:
    """Create ``dest/corpora/wordnet`` for NLTK and return ``dest`` (for ``nltk.data.path``).

    Raises:
        FileNotFoundError: if a WordNet file or the manual page is missing.
    """
    target = dest / "corpora" / "wordnet"
    target.mkdir(parents=True, exist_ok=True)
    for name in _FILES:
        shutil.copyfile(wordnet_dir / name, target / name)
    (target / "lexnames").write_text(lexnames_from_man_page(), encoding="ascii")
    # NLTK's reader opens index.sense at start-up only to map other WordNet versions onto this
    # one (for the multilingual data); lookups never use it, so an empty file suffices.
    (target / "index.sense").write_bytes(b"")
    return dest


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(f"usage: {sys.argv[0]} DEST")
    print(make_nltk_wordnet_dir(Path(sys.argv[1])))
