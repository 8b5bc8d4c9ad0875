"""Unit tests of meteor_eval.resources.stemmers.

Expected stems were produced by the official METEOR 1.5 jar (``meteor-1.5.jar`` from PyPI
``pycocoevalcap`` 1.2, OpenJDK 17): ``java -Dfile.encoding=UTF-8 -cp meteor-1.5.jar Stemmer LANG``
with one word per line, and, for Porter, the jar's ``org.tartarus.snowball.ext.porterStemmer``
driven by the small class in ``scripts/make_stem_golden.py``. Java ``String.hashCode`` values come
from ``"...".hashCode()`` on the same JDK.
"""

from __future__ import annotations

import gzip
import threading
from pathlib import Path

import pytest

from fakes import PORTER_PAPER_STEMS
from meteor_eval.errors import ConfigError, ResourceError
from meteor_eval.resources import stemmers
from meteor_eval.resources._snowball.v2_2_0.english_stemmer import EnglishStemmer
from meteor_eval.resources.stemmers import (
    SNOWBALL_LANGUAGES,
    arabic_table_spec,
    arabic_table_stemmer,
    get_stemmer,
    normalize_language,
    porter_spec,
    porter_stemmer,
    stemmer_spec,
)

# (language, word, stem according to the jar)
JAR_STEMS = [
    ("english", "added", "ad"),  # snowballstemmer 3.x: "add"
    ("english", "biologist", "biologist"),  # snowballstemmer 3.x: "biolog"
    ("english", "running", "run"),
    ("english", "generously", "generous"),
    ("english", "Running", "Run"),  # case-sensitive, no lower-casing
    ("english", "Added", "Added"),  # upper-case letters are not vowels for Snowball
    ("english", "s", "s"),
    ("german", "Ergebnissen", "Ergebniss"),  # the jar has no -niss → -nis rule
    ("german", "Kenntnissen", "Kenntniss"),
    ("german", "Häuser", "Haus"),
    ("german", "aufeinanderfolgenden", "aufeinanderfolg"),
    ("finnish", "huoneeseen", "huonees"),  # conditions of Among entries always fail in the jar
    ("finnish", "biviiseen", "biviis"),
    ("finnish", "taloihin", "talo"),
    ("finnish", "perheiden", "perheid"),
    ("finnish", "AJÖÖ", "AJÖ"),  # snowballstemmer >= 1.9: "AJÖÖ"
    ("french", "héroïque", "héroïqu"),
    ("french", "continuellement", "continuel"),
    ("french", "CCÈHHÂIÈRE", "CCÈHHÂiÈRE"),  # snowballstemmer >= 1.9: "CCÈÂiÈRE"
    ("russian", "ёлками", "ёлкам"),
    ("russian", "Ётённад", "Ётённад"),  # snowballstemmer >= 1.9: "Ётеннад"
    ("danish", "Bestemmelserne", "Bestem"),
    ("danish", "fyRAA", "fyRA"),  # snowballstemmer >= 1.9: "fyRAA"
    ("portuguese", "quilométricas", "quilométr"),
    ("hungarian", "almákat", "alma"),
    ("hungarian", "Aimmétütõl", "Aimmétü"),  # snowballstemmer >= 1.9: unchanged
    ("spanish", "corriendo", "corr"),
    ("italian", "abbandonata", "abbandon"),
    ("dutch", "lichamelijke", "licham"),
    ("swedish", "klokheten", "klok"),
    ("norwegian", "hustrua", "hustru"),
    ("romanian", "frumoaselor", "frumoas"),
    ("turkish", "kitaplarımızdan", "kitap"),
]

PORTER_STEMS = [
    *PORTER_PAPER_STEMS,
    ("ties", "ti"),
    ("caress", "caress"),
    ("generalizations", "gener"),
    ("oscillators", "oscil"),
    ("s", ""),
]


@pytest.mark.parametrize(("language", "word", "stem"), JAR_STEMS)
def test_stem_matches_jar(language: str, word: str, stem: str) -> None:
    assert get_stemmer(language)(word) == stem


@pytest.mark.parametrize(("word", "stem"), PORTER_STEMS)
def test_porter_classic_examples(word: str, stem: str) -> None:
    assert porter_stemmer()(word) == stem


def test_porter_differs_from_english_snowball() -> None:
    assert porter_stemmer()("generously") == "gener"
    assert get_stemmer("english")("generously") == "generous"


def test_languages_are_the_jars_fifteen() -> None:
    assert SNOWBALL_LANGUAGES == (
        "english", "french", "german", "spanish", "portuguese", "russian", "danish", "romanian",
        "hungarian", "turkish", "finnish", "dutch", "italian", "norwegian", "swedish",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("given", "long_name"),
    [("en", "english"), ("English", "english"), ("se", "swedish"), ("sv", "swedish"),
     ("DE", "german"), ("cs", "czech"), ("ar-bw-red", "arabic-buckwalter-reduced"),
     ("xx", "other")],
)  # fmt: skip
def test_normalize_language_accepts_jar_names_and_codes(given: str, long_name: str) -> None:
    assert normalize_language(given) == long_name


def test_codes_and_names_share_one_stemmer() -> None:
    assert get_stemmer("en") is get_stemmer("English")
    assert get_stemmer("de") is get_stemmer("german")


@pytest.mark.parametrize("language", ["czech", "cz", "other"])
def test_languages_without_stemmer_raise(language: str) -> None:
    expected = "czech" if language != "other" else "other"
    with pytest.raises(ConfigError, match=rf"^No stemmer for language \({expected}\)$"):
        get_stemmer(language)


def test_arabic_needs_a_table() -> None:
    with pytest.raises(ConfigError, match="arabic_table_stemmer"):
        get_stemmer("ar-bw-red")


def test_unknown_language_raises() -> None:
    with pytest.raises(ConfigError, match=r"^Unknown language \(klingon\)"):
        get_stemmer("klingon")


def test_specs_identify_release_and_edits() -> None:
    english = stemmer_spec("english")
    assert english.short_id.startswith("snowball-en-2.2.0-")
    assert english.licence == "BSD-3-Clause"
    assert len(english.sha256) == 64
    assert stemmer_spec("de").short_id.startswith("snowball-de-1.2.1-noniss-")
    assert stemmer_spec("fr").version == "1.2.1"
    assert stemmer_spec("fi").version == "1.2.1-nocond"
    assert porter_spec().short_id.startswith("snowball-porter-en-2.2.0-")
    assert stemmer_spec("fr").sha256 != stemmer_spec("es").sha256


def test_stemmers_agree_across_threads() -> None:
    words = [f"{base}{suffix}" for base in ("connect", "generous", "walk") for suffix in
             ("", "ed", "ing", "ions", "ly", "ness")] * 50  # fmt: skip
    expected = [get_stemmer("english")(w) for w in words]
    stemmers._snowball_stemmer.cache_clear()  # type: ignore[attr-defined]
    stem = get_stemmer("english")  # a fresh, empty cache shared by the threads below
    results: list[list[str]] = [[] for _ in range(8)]

    def work(slot: int) -> None:
        results[slot] = [stem(w) for w in words]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(result == expected for result in results)


def test_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stemmers, "_CACHE_MAX_WORDS", 3)
    cache = stemmers._StemCache(EnglishStemmer)
    for word in ("running", "walked", "talks", "jumping", "running"):
        cache[word]
    assert len(cache) <= 3
    assert cache["running"] == "run"


# --- Java String.hashCode and the Arabic lookup table ------------------------------------------


@pytest.mark.parametrize(
    ("text", "java_hash"),
    [("", 0), ("a", 97), ("Aa", 2112), ("BB", 2112), ("hello", 99162322),
     ("ёлками", -1691054532), ("😀", 1772899), ("x😀y", 58534910), ("a" * 100, -323643840)],
)  # fmt: skip
def test_java_string_hash(text: str, java_hash: int) -> None:
    assert stemmers._java_string_hash(text) == java_hash


def write_table(path: Path, text: str) -> Path:
    path.write_bytes(gzip.compress(text.encode("utf-8")))
    return path


def test_arabic_table_first_stem_later_line_and_hash_collisions(tmp_path: Path) -> None:
    table = write_table(
        tmp_path / "table.gz",
        "ktAb 12 ktb 3 ktAb\n"  # first stem wins over later pairs
        "Aa 5 first\n\n"  # blank lines are skipped
        "BB 1 second\n"  # same Java hash as "Aa": the later line wins for both words
        "w\xa0x 2 wx\r\n",  # U+00A0 is part of the token for Java
    )
    stem = arabic_table_stemmer(table)
    assert stem("ktAb") == "ktb"
    assert stem("Aa") == "second"
    assert stem("BB") == "second"
    assert stem("w\xa0x") == "wx"
    assert stem("unknown") == "unknown"
    assert arabic_table_stemmer(str(table)) is stem  # loaded once per path
    spec = arabic_table_spec(table)
    assert spec.language == "ar-bw-red"
    assert spec.short_id.startswith("stem-table-ar-bw-red-user-")


def test_arabic_table_rejects_malformed_line(tmp_path: Path) -> None:
    table = write_table(tmp_path / "bad.gz", "ktAb 12 ktb\nonly two\n")
    with pytest.raises(ResourceError, match=r"bad\.gz:2: expected"):
        arabic_table_stemmer(table)


def test_arabic_table_rejects_non_integer_count(tmp_path: Path) -> None:
    table = write_table(tmp_path / "bad.gz", "ktAb many ktb\n")
    with pytest.raises(ResourceError, match=r"bad\.gz:1: expected"):
        arabic_table_stemmer(table)


def test_arabic_table_missing_or_not_gzip(tmp_path: Path) -> None:
    with pytest.raises(ResourceError, match="not found"):
        arabic_table_stemmer(tmp_path / "absent.gz")
    plain = tmp_path / "plain.gz"
    plain.write_text("ktAb 1 ktb\n", encoding="utf-8")
    with pytest.raises(ResourceError, match="cannot read"):
        arabic_table_stemmer(plain)
