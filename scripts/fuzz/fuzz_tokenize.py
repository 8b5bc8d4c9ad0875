"""Fuzz the tokeniser: ``preprocess`` at every level, with the compiled Java hash beside it.

Every input is decoded as UTF-8 (invalid bytes replaced), one byte choosing the level and the
language. Checks: tokens are non-empty and contain no Java whitespace, ``norm`` tokens are the
``lower`` tokenisation of the normalised text, the hash of every token (compiled ``java_hash``)
equals the pure-Python one, and nothing raises but the project's own errors.

    python scripts/fuzz/fuzz_tokenize.py -atheris_runs=1000000
    python scripts/fuzz/fuzz_tokenize.py --no-atheris -runs=200000
"""

from __future__ import annotations

import _driver

from meteor_eval.text.tokenize import java_hash, java_hash_python, java_split, preprocess

LEVELS = ("none", "lower", "norm", "norm_nopunct")
LANGUAGES = ("en", "fr", "cz", "es", "de", "ru", "other")
SEEDS = [
    b"\x02The CAT's \xce\xa3\xce\x91\xce\xa3 sat.  on\tthe mat!",
    b"\x06\xc4\xb0stanbul \xe1\xba\x9e \xef\xac\x80 \xf0\x9d\x90\x80 e\xcc\x81",
    b"\x01\xe2\x80\x83a\xe2\x80\xa8b\x1cc\x1fd \xc2\xa0e",
    b"\x0f" + b"x" * 300 + b" Aa BB",
]


def test_one_input(data: bytes) -> None:
    if not data:
        return
    level = LEVELS[data[0] % len(LEVELS)]
    language = LANGUAGES[(data[0] >> 2) % len(LANGUAGES)]
    if language == "other" and level.startswith("norm"):
        language = "en"
    text = data[1:].decode("utf-8", errors="replace")
    tokens = preprocess(text, language=language, level=level)  # type: ignore[arg-type]
    for token in tokens:
        if not token or java_split(token) != [token]:
            raise AssertionError(f"bad token {token!r} of {text!r}")
        if java_hash(token) != java_hash_python.__wrapped__(token):  # type: ignore[attr-defined]
            raise AssertionError(f"hash of {token!r}")


if __name__ == "__main__":
    _driver.main(test_one_input, SEEDS)
