"""Fuzz the METEOR 1.5 normaliser: the compiled kernel against the pure-Python one.

Every input is decoded as UTF-8 (invalid bytes replaced, surrogates never produced), split into
a language choice, a punctuation flag and the line, then normalised by ``normalize`` (the C
kernel of ``_ext/normalize.c`` when the extension is built) and ``normalize_python``; the two
must be equal and the result must be single-spaced without outer spaces.

    python scripts/fuzz/fuzz_normalize.py -atheris_runs=1000000      # coverage-guided
    python scripts/fuzz/fuzz_normalize.py -max_total_time=600 corpus/  # keep a corpus
    python scripts/fuzz/fuzz_normalize.py --no-atheris -runs=200000    # without atheris
"""

from __future__ import annotations

import _driver

from meteor_eval.text.normalize import normalize, normalize_python

LANGUAGES = ("en", "fr", "cz", "es", "de", "ru")
SEEDS = [
    b"\x00Mr. Smith met Dr. Who at 5 p.m. today.",
    b"\x01l'homme d'affaires... \xe2\x80\x9cquoted\xe2\x80\x9d",
    b"\x12No. 5 -- U.S. \xe2\x80\x94 e\xcc\x81t\xc3\xa9 \xf0\x9f\x98\x80 DOTMULTI ..",
    b"\x0b$5.00/hr & 100% (approx) ;: it's Art. 3",
    b"\x05\xd0\x91\xd0\xb6 \xe3\x80\x80 \xc2\xa0\t\x0b\x0c x'y' ``a'' --",
]


def test_one_input(data: bytes) -> None:
    if not data:
        return
    language = LANGUAGES[data[0] % len(LANGUAGES)]
    keep = data[0] & 0x10 == 0
    text = data[1:].decode("utf-8", errors="replace").replace("\n", " ")
    fast = normalize(text, language, keep_punctuation=keep)
    slow = normalize_python(text, language, keep_punctuation=keep)
    if fast != slow:
        raise AssertionError(f"{language} keep={keep} {text!r}: compiled {fast!r}, python {slow!r}")
    if "  " in fast or fast != fast.strip(" "):
        raise AssertionError(f"not single-spaced: {fast!r}")


if __name__ == "__main__":
    _driver.main(test_one_input, SEEDS)
