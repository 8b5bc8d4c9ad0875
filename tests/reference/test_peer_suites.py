"""sacrebleu's and rouge-score's own tests, unmodified, against the drop-ins.

Runs scripts/run_peer_tests.py's runner on the peers' source distributions when they are already
in its cache (``~/.cache/meteor-eval/peer-tests`` or ``$METEOR_EVAL_PEER_CACHE``; CI puts them
there, and ``python scripts/run_peer_tests.py`` does locally); skips otherwise, as nothing is
downloaded during the tests. The runner itself is checked on a small fabricated archive.
"""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest
import run_peer_tests
from run_peer_tests import PEERS, Peer, archive_path, run_suite, unpack

#: Tests each peer's files hold (pytest's count: parametrised cases one by one).
EXPECTED = {"sacrebleu": 87, "rouge_score": 3}


@pytest.mark.slow
@pytest.mark.parametrize("peer", PEERS, ids=[p.name for p in PEERS])
def test_peer_suite_passes_against_the_dropin(peer: Peer, tmp_path: Path) -> None:
    if peer.missing():
        pytest.skip(f"{', '.join(peer.missing())} not installed (the test files import it)")
    archive = archive_path(peer)
    if not archive.is_file():
        pytest.skip(f"{archive} is not cached (python scripts/run_peer_tests.py fetches it)")
    outcome = run_suite(peer, unpack(peer, archive, tmp_path))
    assert (outcome.passed, outcome.failed, outcome.errors) == (EXPECTED[peer.name], 0, 0), (
        outcome.output[-3000:]
    )
    assert outcome.ok


def _fake(tmp_path: Path, body: str) -> tuple[Peer, Path]:
    """A sacrebleu-named peer whose one test file is ``body``, packed as an sdist."""
    peer = Peer(
        "sacrebleu", "fake-peer", "1.0", "meteor_eval.compat.sacrebleu", ("test/test_x.py",)
    )
    archive = tmp_path / peer.archive
    with tarfile.open(archive, "w:gz") as tar:
        data = body.encode("utf-8")
        info = tarfile.TarInfo(f"fake_peer-1.0/{peer.tests[0]}")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return peer, archive


def test_runner_imports_the_dropin_under_the_peers_name(tmp_path: Path) -> None:
    peer, archive = _fake(
        tmp_path,
        "import sacrebleu\n"
        "from sacrebleu.metrics import BLEU\n"
        "def test_alias():\n"
        "    assert sacrebleu.__name__ == 'meteor_eval.compat.sacrebleu'\n"
        "    assert BLEU.__module__ == 'meteor_eval.compat.sacrebleu.metrics.bleu'\n"
        "def test_fails():\n"
        "    assert sacrebleu.corpus_bleu(['a'], [['b']]).score == 1\n",
    )
    outcome = run_suite(peer, unpack(peer, archive, tmp_path))
    assert (outcome.passed, outcome.failed) == (1, 1), outcome.output
    assert not outcome.ok


def test_runner_offline_skips_what_is_not_cached(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_peer_tests.main(["--offline", "--cache", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "sacrebleu tests skipped" in err and "rouge-score tests skipped" in err
