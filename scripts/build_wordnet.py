#!/usr/bin/env python3
"""Build the shipped WordNet 3.0 resource from Debian's ``wordnet-base`` data files.

Usage::

    python scripts/build_wordnet.py [--wordnet-dir /usr/share/wordnet] [--out-dir DIR] [--text]

Reproducing the shipped files byte for byte (Debian 12, ``wordnet-base`` 1:3.0-37)::

    apt-get update && apt-get install -y wordnet-base
    PYTHONPATH=src python scripts/build_wordnet.py --out-dir /tmp/wordnet
    (cd /tmp/wordnet && sha256sum *.gz manifest.json)
    (cd src/meteor_eval/resources/data/wordnet && sha256sum *.gz manifest.json)  # the same

Inputs (Debian package ``wordnet-base``, WordNet 3.0): ``index.{noun,verb,adj,adv}``,
``data.{noun,verb,adj,adv}`` and ``{noun,verb,adj,adv}.exc``.

The build first derives the canonical *text form* (``index.tsv.gz``, ``synsets.tsv.gz``,
``exceptions.tsv.gz``; ``scripts/wordnet_build/text_form.py`` documents it and
``scripts/wordnet_build/debian.py`` the offset correction that makes synset offsets equal
Princeton's), then the two binary views from it. Only the binaries ship; the text form is
written too with ``--text``. The text form is gzip'd with ``mtime=0`` and no file name, the
binaries xz-compressed with fixed settings (``wordnet_build.text_form.XZ_FILTERS``), so a rerun
on the same inputs gives the same bytes.

Outputs (under ``src/meteor_eval/resources/data/wordnet/`` by default):

``meteor-synsets.bin.xz``
    The METEOR 1.5 view: each word's synset offsets and each word's or inflected form's
    complete synonym set, as sorted int64 values behind a CRC-32 key table, so that it loads in
    milliseconds and a first lookup is a slice (``scripts/wordnet_build/meteor_binary.py``
    documents the layout).
``nltk-wordnet.bin.xz``
    The NLTK view (lemma -> part of speech -> synsets, synset -> type and lemma names, and the
    exception lists' text) read through a CRC-32 key table and decoded per lookup
    (``scripts/wordnet_build/nltk_binary.py`` documents the layout). It holds the whole text
    form, which ``text_form_from_nltk_view`` regenerates byte for byte.
``manifest.json``
    Source package and version, SHA-256 of every input, counts, the offset corrections, the
    SHA-256 of each text-form file (``text_form``: the resource's identity in score signatures;
    each binary records a digest of the ones it was built from, and the library refuses a
    binary that does not match) and of each shipped output (``outputs``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wordnet_build.debian import (
    LINE_LENGTH_CORRECTIONS,
    POS_FILES,
    princeton_offsets,
    read_wordnet_base,
)
from wordnet_build.meteor_binary import build_meteor_binary
from wordnet_build.nltk_binary import build_nltk_binary

from meteor_eval.resources.wordnet import (
    METEOR_BINARY_FILE,
    NLTK_BINARY_FILE,
)

__all__ = ["POS_FILES", "build", "main", "princeton_offsets"]

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "src/meteor_eval/resources/data/wordnet"


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


def build(wordnet_dir: Path, out_dir: Path, *, text: bool = False) -> dict[str, object]:
    """Read the WordNet files in ``wordnet_dir`` and write the resource into ``out_dir``.

    Args:
        wordnet_dir: A folder with Debian's ``wordnet-base`` files.
        out_dir: Where the binaries and ``manifest.json`` go (created if needed).
        text: Also write the three text-form files.

    Returns:
        The manifest that was written.
    """
    debian = read_wordnet_base(wordnet_dir)
    form = debian.text_form
    out_dir.mkdir(parents=True, exist_ok=True)
    if text:
        for name, data in form.files().items():
            (out_dir / name).write_bytes(data)
    outputs: dict[str, str] = {}
    for file_name, blob in (
        (METEOR_BINARY_FILE, build_meteor_binary(form.index, form.exceptions)),
        (NLTK_BINARY_FILE, build_nltk_binary(form.index, form.synsets, form.exceptions)),
    ):
        (out_dir / file_name).write_bytes(blob)
        outputs[file_name] = hashlib.sha256(blob).hexdigest()

    manifest: dict[str, object] = {
        "name": "wordnet",
        "version": "3.0",
        "licence": "WordNet-3.0 (see LICENSE)",
        "source": {
            "package": "wordnet-base",
            "package_version": _package_version("wordnet-base"),
            "files": debian.inputs,
        },
        "builder": "scripts/build_wordnet.py",
        "offset_corrections": [
            {"file": f"data.{name}", "debian_offset": off, "length_delta": delta, "line": line}
            for (name, off), (delta, line) in LINE_LENGTH_CORRECTIONS.items()
        ],
        "counts": debian.counts,
        "text_form": form.digests(),
        "outputs": outputs,
    }
    (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--wordnet-dir", type=Path, default=Path("/usr/share/wordnet"))
    parser.add_argument("--out-dir", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--text", action="store_true", help="also write the text-form files")
    args = parser.parse_args(argv)
    manifest = build(args.wordnet_dir, args.out_dir, text=args.text)
    print(json.dumps({**manifest["text_form"], **manifest["outputs"]}, indent=2))  # type: ignore[dict-item]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
