"""The compiled per-word kernels equal their pure-Python references on every input tried.

The compiled ``stem`` and ``hash`` kernels (``stem.c`` and ``hash.c`` of ``meteor_eval._ext``) are
C transcriptions of the Snowball English and Porter stemmers (2.2.0 revision, the vendored Python
engines being the reference), of the rule steps of NLTK's Porter stemmer
(``resources.nltk_porter._stem_lowered``) and of Java's ``String.hashCode``
(``text.tokenize.java_hash_python``). They are compared on the whole WordNet vocabulary (as
listed, upper-cased and capitalised) and on random strings over the letters the rules look at,
plus apostrophes, ``*``, other scripts, astral characters and lone surrogates. The expected
values are the Python functions' own results, so the tests need no oracle; the Python code is in
turn checked against the jar and NLTK by the reference tests.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from meteor_eval._ext import PURE_PYTHON_VARIABLE, pure_python_forced
from meteor_eval.resources import nltk_porter
from meteor_eval.resources._snowball.v2_2_0.english_stemmer import EnglishStemmer
from meteor_eval.resources._snowball.v2_2_0.porter_stemmer import PorterStemmer
from meteor_eval.resources.stemmers import compiled_stem_function, get_stemmer, porter_stemmer
from meteor_eval.resources.synonyms import meteor_wordnet
from meteor_eval.text import tokenize

_kernels = pytest.importorskip("meteor_eval._ext._kernels")

_LETTERS = "aeiouyYsldgbtnmprcizwxeAEIOU'*"


def _random_words(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    words = ["", "a", "y", "Y", "'", "''", "ys", "'s'", "yy"]
    for _ in range(count):
        words.append("".join(rng.choice(_LETTERS) for _ in range(rng.randint(0, 14))))
    for _ in range(count // 10):
        words.append(
            "".join(
                chr(
                    rng.choice(
                        (
                            rng.randint(0x20, 0x2FF),
                            rng.randint(0x1F600, 0x1F64F),
                            rng.randint(0xD800, 0xDFFF),
                            ord(rng.choice(_LETTERS)),
                            ord(rng.choice(_LETTERS)),
                        )
                    )
                )
                for _ in range(rng.randint(0, 10))
            )
        )
    words.append("y" * 200 + "ing")  # longer than the kernels' stack buffers
    return words


def _vocabulary(step: int = 1) -> list[str]:
    words = list(meteor_wordnet().words())[::step]
    return words + [w.upper() for w in words[::11]] + [w.capitalize() for w in words[::7]]


def _python_english(words: list[str]) -> list[str]:
    engine = EnglishStemmer()  # type: ignore[no-untyped-call]
    return [engine.stemWord(word) for word in words]  # type: ignore[no-untyped-call]


def test_english_hand_cases() -> None:
    stem = _kernels.snowball_english
    assert [stem(w) for w in ("generously", "added", "Running", "skies", "'youth's'")] == [
        "generous",
        "ad",
        "Run",
        "sky",
        "youth",
    ]
    assert stem("consign") == "consign" and stem("consignment") == "consign"


def test_english_random_strings() -> None:
    words = _random_words(7, 40_000)
    assert [_kernels.snowball_english(w) for w in words] == _python_english(words)


def test_english_part_of_the_vocabulary() -> None:
    words = _vocabulary(step=5)
    assert [_kernels.snowball_english(w) for w in words] == _python_english(words)


@pytest.mark.slow
def test_english_whole_vocabulary() -> None:
    words = _vocabulary()
    assert [_kernels.snowball_english(w) for w in words] == _python_english(words)


def test_get_stemmer_uses_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PURE_PYTHON_VARIABLE, raising=False)
    assert compiled_stem_function("english") is _kernels.snowball_english
    assert compiled_stem_function("german") is None
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    assert compiled_stem_function("english") is None
    assert get_stemmer("en")("generously") == "generous"


def test_nltk_porter_rules_vocabulary_and_random() -> None:
    words = [w.lower() for w in meteor_wordnet().words()] + _random_words(11, 40_000)
    words = [w.lower() for w in words]
    assert [_kernels.nltk_porter_rules(w) for w in words] == [
        nltk_porter._stem_lowered(w) for w in words
    ]


def test_nltk_porter_hand_cases() -> None:
    rules = _kernels.nltk_porter_rules
    cases = {
        "caresses": "caress",
        "flies": "fli",
        "dies": "die",
        "generously": "gener",
        "running": "run",
        "happy": "happi",
        "enjoy": "enjoy",
        "a*ded": "ad",
        "hopefulli": "hope",
        "analogi": "analog",
        "controll": "control",
    }
    assert {word: rules(word) for word in cases} == cases


def test_java_hash_equals_python() -> None:
    # Bound when text.tokenize was imported: the kernel unless pure Python was forced then.
    in_use = tokenize.java_hash_python if pure_python_forced() else _kernels.java_hash
    assert tokenize.java_hash is in_use
    words = _random_words(13, 20_000) + list(meteor_wordnet().words())[::20]
    words += ["x" * 1000, "\U0001f600" * 40]
    reference = tokenize.java_hash_python.__wrapped__
    assert [_kernels.java_hash(w) for w in words] == [reference(w) for w in words]
    assert _kernels.java_hash("Aa") == _kernels.java_hash("BB") == 2112
    assert _kernels.java_hash("\U0001f600") == 1772899


def test_kernels_reject_non_strings() -> None:
    for function in (
        _kernels.snowball_english,
        _kernels.snowball_porter,
        _kernels.nltk_porter_rules,
        _kernels.java_hash,
    ):
        with pytest.raises(TypeError):
            function(b"word")


# --- Snowball Porter (the paper2005 flavour's stemmer) ----------------------------------------


def _python_porter(words: list[str]) -> list[str]:
    engine = PorterStemmer()  # type: ignore[no-untyped-call]
    return [engine.stemWord(word) for word in words]  # type: ignore[no-untyped-call]


def _shared_data_words() -> list[str]:
    """Every whitespace-separated word of the shared METEOR 1.5 data (system outputs,
    references, golden files), as written and lower-cased; empty when the folder is absent."""
    root = Path(__file__).resolve().parents[3] / ".." / "shared" / "data"
    words: set[str] = set()
    for path in sorted(root.rglob("*")) if root.is_dir() else ():
        if path.is_file() and path.stat().st_size < 20_000_000:
            text = path.read_bytes().decode("utf-8", errors="replace")
            words.update(text.split())
    words |= {w.lower() for w in words}
    return sorted(words)


# Short words, and the y rules: y at the start or after a vowel is a consonant (Y while the
# word is stemmed), y after a consonant turns into i only when a vowel comes earlier.
_PORTER_CASES = {
    "caresses": "caress",
    "ponies": "poni",
    "ties": "ti",
    "caress": "caress",
    "cats": "cat",
    "feed": "feed",
    "agreed": "agre",
    "plastered": "plaster",
    "motoring": "motor",
    "sing": "sing",
    "conflated": "conflat",
    "troubled": "troubl",
    "sized": "size",
    "hopping": "hop",
    "falling": "fall",
    "filing": "file",
    "happy": "happi",
    "sky": "sky",
    "relational": "relat",
    "generalization": "gener",
    "electrical": "electr",
    "adjustment": "adjust",
    "controll": "control",
    "generously": "gener",
    "yes": "ye",
    "youth": "youth",
    "toy": "toi",
    "toying": "toi",
    "enjoyed": "enjoi",
    "syzygy": "syzygi",
    "y": "y",
    "Y": "Y",
    "": "",
    "a": "a",
    "is": "i",  # step 1a has no length condition
    "as": "a",
    "ed": "ed",
    "ing": "ing",
    "ss": "ss",
    "s": "",
}


def test_porter_hand_cases() -> None:
    stem = _kernels.snowball_porter
    assert {word: stem(word) for word in _PORTER_CASES} == _PORTER_CASES
    words = list(_PORTER_CASES)
    assert [stem(w) for w in words] == _python_porter(words)


def test_porter_random_strings() -> None:
    words = _random_words(17, 40_000)
    assert [_kernels.snowball_porter(w) for w in words] == _python_porter(words)


def test_porter_y_rules_and_short_words() -> None:
    rng = random.Random(19)
    words = ["".join(p) for n in range(5) for p in itertools.product("ayYsei", repeat=n)]
    words += [
        "".join(rng.choice("yYaeioubcdlst") for _ in range(rng.randint(1, 12)))
        for _ in range(20_000)
    ]
    assert [_kernels.snowball_porter(w) for w in words] == _python_porter(words)


def test_porter_whole_vocabulary() -> None:
    words = _vocabulary()
    assert [_kernels.snowball_porter(w) for w in words] == _python_porter(words)


def test_porter_shared_data_words() -> None:
    words = _shared_data_words()
    if not words:
        pytest.skip("../shared/data is not here")
    assert [_kernels.snowball_porter(w) for w in words] == _python_porter(words)


def test_porter_stemmer_uses_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PURE_PYTHON_VARIABLE, raising=False)
    assert compiled_stem_function("porter") is _kernels.snowball_porter
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    assert compiled_stem_function("porter") is None
    assert porter_stemmer()("ponies") == "poni"
