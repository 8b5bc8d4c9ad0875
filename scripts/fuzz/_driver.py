"""The driver shared by the fuzzers: atheris when it is installed, else a seeded mutation loop.

Each fuzzer defines ``test_one_input(data: bytes) -> None`` (raises only on a real defect) and a
few seed inputs, then calls :func:`main`. With atheris (``pip install atheris``) the run is
coverage-guided over the Python code (libFuzzer's options apply: ``-atheris_runs=N``,
``-max_total_time=S``, a corpus folder). Without it, or with ``--no-atheris``, a deterministic
loop mutates the seeds (bit flips, byte insertions and deletions, splices, repeats) for
``-runs=N`` inputs or ``-max_total_time=S`` seconds, from ``-seed=K``. Either way a failing input
is written to ``crash-<sha1>`` in the current folder and the exit status is 1.
"""

from __future__ import annotations

import hashlib
import random
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "src") not in sys.path:  # fuzz this checkout, not an installed copy
    sys.path.insert(0, str(ROOT / "src"))


def _option(argv: Sequence[str], name: str, default: int) -> int:
    for arg in argv:
        if arg.startswith(f"-{name}="):
            return int(arg.split("=", 1)[1])
    return default


def mutate(data: bytes, rng: random.Random, seeds: Sequence[bytes]) -> bytes:
    """One random edit of ``data`` (the mutations libFuzzer uses most, in small)."""
    buf = bytearray(data)
    kind = rng.randrange(6)
    pos = rng.randrange(len(buf) + 1)
    if kind == 0 and buf:
        buf[min(pos, len(buf) - 1)] ^= 1 << rng.randrange(8)
    elif kind == 1:
        buf[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    elif kind == 2:
        del buf[pos : pos + rng.randint(1, 16)]
    elif kind == 3:
        other = rng.choice(seeds)
        start = rng.randrange(len(other) + 1)
        buf[pos:pos] = other[start : start + rng.randint(1, 32)]
    elif kind == 4 and buf:
        start = rng.randrange(len(buf))
        buf[pos:pos] = buf[start : start + rng.randint(1, 8)] * rng.randint(2, 40)
    else:
        interesting = (b"\x00", b"\xff", b"\x7f", b"\x80", b"\xcc\x81", b"\xf0\x9f\x98\x80", b" ")
        buf[pos:pos] = rng.choice(interesting)
    return bytes(buf[:4096])


def _crash(data: bytes) -> int:
    name = f"crash-{hashlib.sha1(data).hexdigest()}"
    Path(name).write_bytes(data)
    traceback.print_exc()
    print(f"fuzz: failing input written to {name}", file=sys.stderr)
    return 1


def mutation_loop(
    test_one_input: Callable[[bytes], None], seeds: Sequence[bytes], argv: Sequence[str]
) -> int:
    """The fallback fuzzer; returns the exit status (0 when every input passed)."""
    rng = random.Random(_option(argv, "seed", 0))
    runs = _option(argv, "runs", _option(argv, "atheris_runs", 10_000))
    stop = time.monotonic() + _option(argv, "max_total_time", 10**9)
    corpus = [bytes(seed) for seed in seeds] or [b""]
    done = 0
    for done in range(runs):
        if time.monotonic() > stop:
            break
        data = corpus[done] if done < len(corpus) else rng.choice(corpus)
        for _ in range(rng.randint(0, 4) if done >= len(corpus) else 0):
            data = mutate(data, rng, corpus)
        try:
            test_one_input(data)
        except Exception:
            return _crash(data)
        if len(corpus) < 512 and rng.random() < 0.05:
            corpus.append(data)
    print(f"fuzz: {done + 1} inputs, no failure", file=sys.stderr)
    return 0


def main(test_one_input: Callable[[bytes], None], seeds: Sequence[bytes]) -> None:
    """Run ``test_one_input`` under atheris (if installed) or the mutation loop; then exit."""
    argv = list(sys.argv)
    use_atheris = "--no-atheris" not in argv
    argv = [arg for arg in argv if arg != "--no-atheris"]
    if use_atheris:
        try:
            import atheris
        except ImportError:
            use_atheris = False
    paths = [Path(arg) for arg in argv[1:] if not arg.startswith("-")]
    if not use_atheris:  # input files (a crash to reproduce) run first, then the seeds
        inputs = [path.read_bytes() for path in paths if path.is_file()]
        sys.exit(mutation_loop(test_one_input, [*inputs, *seeds], argv[1:]))
    corpus = [path for path in paths if not path.is_file()]
    if not paths:  # start from the seeds, in a folder of this run
        corpus = [Path(tempfile.mkdtemp(prefix="meteor-eval-corpus-"))]
        argv.append(str(corpus[0]))
    for folder in corpus:  # libFuzzer starts from the corpus folders: give them the seeds
        folder.mkdir(parents=True, exist_ok=True)
        for seed in seeds:
            (folder / hashlib.sha1(seed).hexdigest()).write_bytes(seed)
    atheris.instrument_all()
    atheris.Setup(argv, test_one_input)
    atheris.Fuzz()
