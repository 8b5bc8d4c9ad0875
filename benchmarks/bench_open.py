"""Opening the cached resources in a new process: the English paraphrase index and WordNet.

Each row is the median (and the fastest) of ``--repeat`` new processes, each timing one call
after its imports:

* ``paraphrase index``: ``open_index(find_paraphrase_table("en"), "en")`` on the index already
  built in the cache (header, checks, vocabulary), known unchanged since its body was checked
  (its ``.verified`` stamp matches);
* ``paraphrase, body checked``: the same with the stamp removed first, so that the CRC32 of the
  whole body is computed (the first open after a build or a change, or without a writable
  cache); a tree without stamps always does this;
* ``paraphrase index, full``: the same with ``verify="full"`` (also the structure; what
  ``meteor-eval resources verify`` does);
* ``WordNet views``: ``read_meteor_binary`` and ``read_nltk_binary`` of the shipped files, from
  their unpacked copies in the cache (stamped unchanged, as the index).

``--src DIR`` adds the same rows for another source tree (e.g. an export of an earlier commit).
The index and the copies are read from the page cache (each row runs once before timing, and
the stamp is written once the index is two seconds old);
run from the repository root::

    python benchmarks/bench_open.py
    python benchmarks/bench_open.py --src /tmp/before/src --repeat 21
    python benchmarks/bench_open.py --hashes   # zlib.crc32 against other whole-file checksums
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_PARAPHRASE = """
import sys, time
from pathlib import Path
from meteor_eval.resources.paraphrases import (
    find_paraphrase_table, index_path_for, open_index, table_key
)
table = find_paraphrase_table("en")
index = index_path_for(table_key(table))
if {unstamp}:
    index.with_name("." + index.name + ".verified").unlink(missing_ok=True)
start = time.perf_counter()
opened = open_index(table, "en"{verify})
print(time.perf_counter() - start)
"""

_WORDNET = """
import sys, time
from meteor_eval.resources.registry import data_file
from meteor_eval.resources.wordnet import shipped
start = time.perf_counter()
shipped.read_meteor_binary(data_file("wordnet", "meteor-synsets.bin.xz"))
shipped.read_nltk_binary(data_file("wordnet", "nltk-wordnet.bin.xz"))
print(time.perf_counter() - start)
"""

ROWS = {
    "paraphrase index": _PARAPHRASE.format(verify="", unstamp=False),
    "paraphrase, body checked": _PARAPHRASE.format(verify="", unstamp=True),
    "paraphrase index, full": _PARAPHRASE.format(verify=', verify="full"', unstamp=False),
    "WordNet views": _WORDNET,
}


def _time(source: Path, code: str) -> float:
    env = dict(os.environ, PYTHONPATH=str(source))
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return float(done.stdout.split()[-1])


def _hashes(repeat: int) -> None:
    """Whole-file checksums of the mapped English index, in this process (pages cached)."""
    import hashlib
    import mmap
    import time
    import zlib

    sys.path.insert(0, str(ROOT / "src"))
    from meteor_eval.resources.paraphrases import find_paraphrase_table, open_index

    index = open_index(find_paraphrase_table("en"), "en").index_path
    assert index is not None
    with index.open("rb") as handle:
        mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    candidates = {
        "zlib.crc32": zlib.crc32,
        "zlib.adler32": zlib.adler32,
        "hashlib.sha1": lambda data: hashlib.sha1(data).digest(),
        "hashlib.blake2b": lambda data: hashlib.blake2b(data).digest(),
    }
    print(f"{'checksum of ' + index.name[:16] + '...':<40} {'median ms':>10} {'fastest ms':>11}")
    for name, function in candidates.items():
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            function(mapped)
            times.append(time.perf_counter() - start)
        print(f"{name:<40} {1000 * statistics.median(times):>10.1f} {1000 * min(times):>11.1f}")


def main() -> None:
    """Print one table row per source tree and resource."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, help="another source tree to compare")
    parser.add_argument("--repeat", type=int, default=11, help="new processes per row")
    parser.add_argument(
        "--hashes", action="store_true", help="time whole-file checksums of the index instead"
    )
    args = parser.parse_args()
    if args.hashes:
        _hashes(args.repeat)
        return
    sources = [ROOT / "src"] + ([args.src.resolve()] if args.src else [])
    print(f"{'source':<28} {'what':<24} {'median ms':>10} {'fastest ms':>11}")
    for source in sources:
        for name, code in ROWS.items():
            _time(source, code)  # into the page cache
            times = [_time(source, code) for _ in range(args.repeat)]
            label = str(source.relative_to(ROOT)) if source.is_relative_to(ROOT) else str(source)
            print(
                f"{label:<28} {name:<24} {1000 * statistics.median(times):>10.1f} "
                f"{1000 * min(times):>11.1f}"
            )


if __name__ == "__main__":
    main()
