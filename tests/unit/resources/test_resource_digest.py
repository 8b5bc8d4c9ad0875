"""Resource identities are hashed without OpenSSL (``registry.sha256``): the same digests as
``hashlib``, and a METEOR run of the command line does not load ``hashlib`` (its libcrypto is
about 3.8 MB resident that a small job does not need)."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import pytest

from meteor_eval.resources.registry import _builtin_sha256, sha256


def test_sha256_gives_hashlib_digests() -> None:
    for data in (b"", b"a", bytes(range(256)) * 4099):
        assert sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
        running = sha256(data[:7])
        running.update(data[7:])
        assert running.digest() == hashlib.sha256(data).digest()


@pytest.mark.skipif(
    _builtin_sha256() is None, reason="this interpreter has no built-in SHA-256 (_sha2/_sha256)"
)
def test_a_meteor_run_does_not_import_hashlib() -> None:
    code = (
        "import sys\n"
        "from meteor_eval.cli import main\n"
        "sys.argv = ['meteor-eval', 'score', '--example', '--norm', '--format', 'json']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in ('hashlib', '_hashlib') if m in sys.modules), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stderr.strip().splitlines()[-1] == "[]"
