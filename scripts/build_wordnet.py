#!/usr/bin/env python3
"""Build the shipped WordNet 3.0 resource from Debian's ``wordnet-base`` data files.

Usage::

    python scripts/build_wordnet.py [--wordnet-dir /usr/share/wordnet] [--out-dir DIR]

Inputs (Debian package ``wordnet-base``, WordNet 3.0): ``index.{noun,verb,adj,adv}``,
``data.{noun,verb,adj,adv}`` and ``{noun,verb,adj,adv}.exc``.

Outputs (under ``src/meteor_eval/resources/data/wordnet/`` by default), all gzip'd UTF-8 text
written with ``mtime=0`` and no file name, so a rerun on the same inputs gives the same bytes:

``index.tsv.gz``
    One line per (part of speech, lemma) of the index files, in file order (noun, verb, adj,
    adv): ``pos<TAB>lemma<TAB>offset offset ...``; the offsets keep the index file's order
    (sense order). ``pos`` is ``n``, ``v``, ``a`` or ``r``.
``synsets.tsv.gz``
    One line per synset of the data files, in file order (noun, verb, adj, adv):
    ``pos<TAB>offset<TAB>lemma lemma ...``. ``pos`` is the synset type (``s`` for adjective
    satellites, which live in the adjective file); lemma names keep their case and lose the
    adjective syntactic marker (``galore(ip)`` -> ``galore``), as NLTK's reader does.
``exceptions.tsv.gz``
    The morphological exception lists, line by line in file order (noun, verb, adj, adv):
    ``pos<TAB>inflected form<TAB>base base ...``. Duplicate forms are kept (the official
    METEOR build unions them, NLTK keeps the last line).
``meteor-synsets.bin.gz``
    The METEOR 1.5 view derived from ``index.tsv.gz`` and ``exceptions.tsv.gz``: each word's
    synset offsets and each word's or inflected form's complete synonym set, as sorted int64
    values behind a CRC-32 key table, so that it loads in milliseconds and a first lookup is a
    slice (``meteor_eval.resources.synonyms.build_meteor_binary`` documents the layout); gzip'd
    deterministically like the others. It records a checksum of both sources; the library
    ignores it if that no longer matches.
``nltk-wordnet.bin.gz``
    The NLTK view (lemma -> part of speech -> synsets, synset -> type and lemma names, and the
    exception lists) derived from ``index.tsv.gz``, ``synsets.tsv.gz`` and ``exceptions.tsv.gz``
    in a compact binary form read through a CRC-32 key table and decoded per lookup
    (``meteor_eval.resources.synonyms.build_nltk_binary`` documents the layout). It records a
    checksum of the three sources and is ignored when they no longer match.
``manifest.json``
    Source package and version, SHA-256 of every input and output, counts, and the offset
    correction described below.

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

import argparse
import gzip
import hashlib
import io
import json
import re
import subprocess
from pathlib import Path

from meteor_eval.resources.synonyms import (
    METEOR_BINARY_FILE,
    NLTK_BINARY_FILE,
    build_meteor_binary,
    build_nltk_binary,
)

POS_FILES: tuple[tuple[str, str], ...] = (("n", "noun"), ("v", "verb"), ("a", "adj"), ("r", "adv"))

#: (file, Debian offset of the line) -> (Princeton line length - Debian line length,
#: lemma text that identifies the line, so that another Debian revision fails loudly).
LINE_LENGTH_CORRECTIONS: dict[tuple[str, int], tuple[int, str]] = {
    ("verb", 612841): (-18, "suppress 0 repress 0"),
    ("verb", 2422681): (18, "restrain 1 keep 0 keep_back 0 hold_back 0"),
    ("adj", 1681307): (-1, "laid 0 set 0"),
}

_MARKER = re.compile(r"\([^()]*\)$")

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "src/meteor_eval/resources/data/wordnet"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


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


def _parse_synsets(data: bytes, pos_letter: str, mapping: dict[int, int]) -> list[str]:
    rows: list[str] = []
    for raw in data.decode("ascii").splitlines():
        if raw.startswith("  "):
            continue
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
    for raw in data.decode("ascii").splitlines():
        if raw.startswith("  "):
            continue
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


def gzip_bytes(text: str) -> bytes:
    """Deterministic gzip of UTF-8 text (no file name, mtime 0, level 9)."""
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0, compresslevel=9) as gz:
        gz.write(text.encode("utf-8"))
    return buffer.getvalue()


def _package_version(package: str) -> str:
    try:
        result = subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", package],
            check=True,
            capture_output=True,
            text=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return result.stdout.strip()


def build(wordnet_dir: Path, out_dir: Path) -> dict[str, object]:
    """Read the WordNet files in ``wordnet_dir`` and write the resource into ``out_dir``.

    Returns:
        The manifest that was written.
    """
    inputs: dict[str, str] = {}
    index_rows: list[str] = []
    synset_rows: list[str] = []
    exception_rows: list[str] = []
    for letter, name in POS_FILES:
        data = (wordnet_dir / f"data.{name}").read_bytes()
        index = (wordnet_dir / f"index.{name}").read_bytes()
        exc = (wordnet_dir / f"{name}.exc").read_bytes()
        inputs[f"data.{name}"] = _sha256(data)
        inputs[f"index.{name}"] = _sha256(index)
        inputs[f"{name}.exc"] = _sha256(exc)
        mapping = princeton_offsets(data, name)
        synset_rows += _parse_synsets(data, letter, mapping)
        index_rows += _parse_index(index, letter, mapping)
        exception_rows += _parse_exceptions(exc, letter)

    out_dir.mkdir(parents=True, exist_ok=True)
    outputs: dict[str, str] = {}
    for file_name, rows in (
        ("index.tsv.gz", index_rows),
        ("synsets.tsv.gz", synset_rows),
        ("exceptions.tsv.gz", exception_rows),
    ):
        blob = gzip_bytes("".join(rows))
        (out_dir / file_name).write_bytes(blob)
        outputs[file_name] = _sha256(blob)
    sources = {
        name: (out_dir / name).read_bytes()
        for name in ("index.tsv.gz", "synsets.tsv.gz", "exceptions.tsv.gz")
    }
    meteor_view = build_meteor_binary(sources["index.tsv.gz"], sources["exceptions.tsv.gz"])
    (out_dir / METEOR_BINARY_FILE).write_bytes(meteor_view)
    outputs[METEOR_BINARY_FILE] = _sha256(meteor_view)
    nltk_view = build_nltk_binary(
        sources["index.tsv.gz"], sources["synsets.tsv.gz"], sources["exceptions.tsv.gz"]
    )
    (out_dir / NLTK_BINARY_FILE).write_bytes(nltk_view)
    outputs[NLTK_BINARY_FILE] = _sha256(nltk_view)

    manifest: dict[str, object] = {
        "name": "wordnet",
        "version": "3.0",
        "licence": "WordNet-3.0 (see LICENSE)",
        "source": {
            "package": "wordnet-base",
            "package_version": _package_version("wordnet-base"),
            "files": dict(sorted(inputs.items())),
        },
        "builder": "scripts/build_wordnet.py",
        "offset_corrections": [
            {"file": f"data.{name}", "debian_offset": off, "length_delta": delta, "line": text}
            for (name, off), (delta, text) in LINE_LENGTH_CORRECTIONS.items()
        ],
        "counts": {
            "index_lines": len(index_rows),
            "synsets": len(synset_rows),
            "exception_lines": len(exception_rows),
        },
        "outputs": outputs,
    }
    text = json.dumps(manifest, indent=2, sort_keys=False) + "\n"
    (out_dir / "manifest.json").write_text(text, encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--wordnet-dir", type=Path, default=Path("/usr/share/wordnet"))
    parser.add_argument("--out-dir", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    manifest = build(args.wordnet_dir, args.out_dir)
    print(json.dumps(manifest["outputs"], indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
