#!/usr/bin/env python
"""Run sacrebleu's and rouge-score's own tests, unmodified, against meteor-eval's drop-ins.

The test files come from the peers' source distributions (pinned versions below), downloaded
with ``pip download`` into a cache directory (default ``~/.cache/meteor-eval/peer-tests``, or
``$METEOR_EVAL_PEER_CACHE``); nothing is fetched when the archive is already there. Each suite
runs with pytest in a subprocess in which ``import sacrebleu`` (``rouge_score``) imports
:mod:`meteor_eval.compat.sacrebleu` (:mod:`meteor_eval.compat.rouge_score`) instead; the real
packages are never imported, even when installed.

* sacrebleu 2.6.0: ``test/test_bleu.py``, ``test/test_sentence_bleu.py``,
  ``test/test_significance.py`` (with its ``wmt17_en_de_systems.pkl.bz2``).
* rouge-score 0.1.2: ``rouge_score/tokenize_test.py`` and ``tokenizers_test.py``. Its
  ``rouge_scorer_test.py``, ``scoring_test.py`` and ``io_test.py`` read ``testdata/`` files in
  every ``setUp``, which the source distribution does not ship, so they cannot run from it.
  They import ``absl`` (absl-py, a dependency of rouge-score); without it they are skipped.

Usage::

    python scripts/run_peer_tests.py            # download if needed, run, print the counts
    python scripts/run_peer_tests.py --offline  # only what is cached (skips the rest)

Exit status: 0 when every suite that ran passed (a suite whose download failed is skipped
with a warning), 1 when a test failed, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Peer:
    """A peer package whose own tests run against a drop-in."""

    name: str  # the name the tests import
    dist: str  # the distribution on the package index
    version: str
    dropin: str  # the module that replaces ``name``
    tests: tuple[str, ...]  # paths inside the source distribution
    data: tuple[str, ...] = ()  # other files the tests read, same layout
    pattern: str = "test_*.py"
    requires: tuple[str, ...] = ()  # modules the test files import besides the peer

    def missing(self) -> list[str]:
        """The required modules that are not installed."""
        return [name for name in self.requires if importlib.util.find_spec(name) is None]

    @property
    def archive(self) -> str:
        return f"{self.dist.replace('-', '_')}-{self.version}.tar.gz"


PEERS = (
    Peer(
        "sacrebleu",
        "sacrebleu",
        "2.6.0",
        "meteor_eval.compat.sacrebleu",
        ("test/test_bleu.py", "test/test_sentence_bleu.py", "test/test_significance.py"),
        ("test/wmt17_en_de_systems.pkl.bz2",),
    ),
    Peer(
        "rouge_score",
        "rouge-score",
        "0.1.2",
        "meteor_eval.compat.rouge_score",
        ("rouge_score/tokenize_test.py", "rouge_score/tokenizers_test.py"),
        pattern="*_test.py",
        requires=("absl",),
    ),
)

# Run inside the test subprocess: make ``import <peer>`` (and its submodules) import the drop-in.
_ALIAS = """
import importlib, importlib.abc, importlib.util, sys

class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, name, target):
        self.name, self.target = name, target

    def find_spec(self, fullname, path=None, target=None):
        if fullname == self.name or fullname.startswith(self.name + "."):
            real = self.target + fullname[len(self.name):]
            if importlib.util.find_spec(real) is None:
                return None
            return importlib.util.spec_from_loader(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        return importlib.import_module(self.target + spec.name[len(self.name):])

    def exec_module(self, module):
        pass

sys.meta_path.insert(0, _Alias({name!r}, {target!r}))
import {name}
assert {name}.__name__ == {target!r}, {name}.__name__
import pytest
sys.exit(pytest.main({args!r}))
"""


def cache_dir() -> Path:
    """Where archives and unpacked tests live."""
    env = os.environ.get("METEOR_EVAL_PEER_CACHE")
    if env:
        return Path(env)
    return Path.home() / ".cache" / "meteor-eval" / "peer-tests"


def archive_path(peer: Peer, cache: Path | None = None) -> Path:
    """The cached source distribution of ``peer``."""
    return (cache or cache_dir()) / peer.archive


def download(peer: Peer, cache: Path) -> Path | None:
    """``pip download`` the pinned sdist into ``cache`` unless it is there; ``None`` on failure."""
    target = archive_path(peer, cache)
    if target.is_file():
        return target
    cache.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--no-binary",
        ":all:",
        "-q",
        "-d",
        str(cache),
        f"{peer.dist}=={peer.version}",
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not target.is_file():
        print(
            f"warning: could not download {peer.dist} {peer.version} "
            f"({done.stderr.strip().splitlines()[-1] if done.stderr.strip() else 'no archive'})",
            file=sys.stderr,
        )
        return None
    return target


def unpack(peer: Peer, archive: Path, cache: Path) -> Path:
    """Copy the test files (and their data) out of the archive into a fresh work directory.

    The package's own source is left out, so that only the drop-in can be imported.
    """
    work = cache / f"run-{peer.dist}-{peer.version}"
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    prefix = archive.name[: -len(".tar.gz")] + "/"
    wanted = {prefix + path: path for path in (*peer.tests, *peer.data)}
    with tarfile.open(archive, "r:gz") as tar:
        for member in tar.getmembers():
            local = wanted.get(member.name)
            if local is None or not member.isfile():
                continue
            # Tests live in a plain directory named after their own folder ("test", "tests").
            dest = (
                work / Path(local).parent.name.replace(peer.name, "peer_tests") / Path(local).name
            )
            dest.parent.mkdir(parents=True, exist_ok=True)
            source = tar.extractfile(member)
            assert source is not None
            dest.write_bytes(source.read())
    missing = [p for p in wanted.values() if not (work / _local(peer, p)).is_file()]
    if missing:
        raise SystemExit(f"error: {archive.name} lacks {', '.join(missing)}")
    (work / "pytest.ini").write_text(f"[pytest]\npython_files = {peer.pattern}\n", encoding="utf-8")
    return work


def _local(peer: Peer, path: str) -> Path:
    return Path(Path(path).parent.name.replace(peer.name, "peer_tests")) / Path(path).name


@dataclass
class Outcome:
    """Counts of one suite's run."""

    peer: Peer
    passed: int = 0
    failed: int = 0
    errors: int = 0
    skipped: int = 0
    returncode: int = 0
    output: str = ""

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and self.failed == 0 and self.errors == 0 and self.passed > 0


def run_suite(peer: Peer, work: Path, extra: list[str] | None = None) -> Outcome:
    """Run the peer's test files in ``work`` against the drop-in, in a subprocess."""
    tests = [str(_local(peer, path)) for path in peer.tests]
    args = [*tests, "-q", "-p", "no:cacheprovider", "-p", "no:randomly", *(extra or [])]
    code = _ALIAS.format(name=peer.name, target=peer.dropin, args=args)
    # A clean pytest environment (not, e.g., the variables of an xdist worker running us).
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "SACREBLEU"))}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), *filter(None, [env.get("PYTHONPATH")])])
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    output = done.stdout + done.stderr
    outcome = Outcome(peer, returncode=done.returncode, output=output)
    # pytest's last summary line: "3 passed, 1 failed in 2.00s" (warnings may follow it).
    summaries = re.findall(
        r"^=*\s*(\d+ (?:passed|failed|errors?|skipped).* in [\d.]+s.*)$", output, re.M
    )
    summary = summaries[-1] if summaries else ""
    for count, word in re.findall(r"(\d+) (passed|failed|errors?|skipped)", summary):
        key = {"error": "errors"}.get(word, word)
        setattr(outcome, key, int(count))
    return outcome


def main(argv: list[str] | None = None) -> int:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--offline", action="store_true", help="use cached archives only")
    parser.add_argument("--cache", type=Path, default=None, help="archive cache directory")
    parser.add_argument(
        "--peer",
        choices=[p.name for p in PEERS],
        action="append",
        help="run only this peer's tests (repeatable)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="print pytest's output")
    options = parser.parse_args(argv)
    cache = options.cache or cache_dir()
    status = 0
    for peer in PEERS:
        if options.peer and peer.name not in options.peer:
            continue
        if peer.missing():
            print(
                f"warning: {peer.dist} tests skipped: {', '.join(peer.missing())} not installed",
                file=sys.stderr,
            )
            continue
        archive = archive_path(peer, cache)
        if not archive.is_file():
            if options.offline:
                print(f"warning: {archive} not cached; {peer.dist} tests skipped", file=sys.stderr)
                continue
            found = download(peer, cache)
            if found is None:
                print(f"warning: {peer.dist} tests skipped", file=sys.stderr)
                continue
            archive = found
        outcome = run_suite(peer, unpack(peer, archive, cache))
        if options.verbose or not outcome.ok:
            print(outcome.output)
        verdict = "ok" if outcome.ok else "FAILED"
        print(
            f"{peer.dist} {peer.version} own tests against {peer.dropin}: "
            f"{outcome.passed} passed, {outcome.failed} failed, {outcome.errors} errors, "
            f"{outcome.skipped} skipped [{verdict}]"
        )
        if not outcome.ok:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
