"""Function-word and nonbreaking-prefix lists (spec §2.6, Appendix A).

The data files are byte-identical copies of ``function/*.words`` and
``nonbreaking/*.prefixes`` inside meteor-1.5.jar (pycocoevalcap 1.2); when the jar is installed
the copies are compared with it.
"""

from __future__ import annotations

import hashlib
import zipfile
from collections.abc import Callable, Collection
from pathlib import Path

import pytest

from meteor_eval.errors import ResourceError
from meteor_eval.resources.function_words import (
    FUNCTION_WORD_LANGUAGES,
    function_words,
    function_words_spec,
    load_function_words_file,
    parse_function_words,
)
from meteor_eval.resources.nonbreaking import (
    NONBREAKING_LANGUAGES,
    nonbreaking_prefixes,
    nonbreaking_spec,
    parse_prefixes,
)
from meteor_eval.resources.registry import ResourceSpec, data_file

# Spec Appendix A, file order.
ENGLISH_FUNCTION_WORDS = (
    "the",
    ",",
    ".",
    "to",
    "of",
    "and",
    "a",
    "in",
    "that",
    "for",
    '"',
    "is",
    "on",
    "'s",
    "it",
    "with",
    "was",
    "as",
    "said",
    "at",
    "he",
    "by",
    "be",
    "from",
    "have",
    "has",
    "are",
    "his",
    "but",
    "an",
    "this",
    "not",
    "i",
    "will",
    "’",
    "they",
    ")",
    "-rrb-",
    "(",
    "-lrb-",
    "who",
    "their",
    "had",
    "we",
    "which",
    "were",
    "been",
    "more",
    "or",
    "s",
    "its",
    "would",
    "about",
    "new",
    "one",
    "after",
    "you",
    ":",
    "also",
    "up",
    "when",
    "there",
    "than",
    "$",
    "all",
    "out",
    "her",
    "people",
    "she",
    "year",
    "two",
    "-",
    "can",
    "if",
    "last",
    "first",
    "“",
    "over",
    "other",
    "”",
    "into",
    "some",
    "what",
    "so",
    "--",
    "no",
    "time",
    "years",
    "could",
    "?",
    "'t",
    "—",
    "'",
)


# Entries of each shipped list (the languages that have one).
FUNCTION_WORD_COUNTS = {
    "english": 93, "czech": 68, "french": 85, "german": 92, "russian": 62, "spanish": 66,
}  # fmt: skip
# Distinct prefixes; German and Russian list some prefixes twice (307 and 258 lines).
PREFIX_COUNTS = {
    "english": 93, "french": 145, "german": 298, "russian": 247, "spanish": 110, "czech": 0,
}  # fmt: skip


@pytest.mark.parametrize(
    ("load", "language", "count"),
    [(function_words, *item) for item in FUNCTION_WORD_COUNTS.items()]
    + [(nonbreaking_prefixes, *item) for item in PREFIX_COUNTS.items()],
)
def test_counts(load: Callable[[str], Collection[str]], language: str, count: int) -> None:
    assert len(load(language)) == count


class TestFunctionWords:
    def test_english_list_is_appendix_a(self) -> None:
        assert len(ENGLISH_FUNCTION_WORDS) == 93
        assert function_words("english") == frozenset(ENGLISH_FUNCTION_WORDS)

    @pytest.mark.parametrize(
        "language", [lang for lang in FUNCTION_WORD_LANGUAGES if lang not in FUNCTION_WORD_COUNTS]
    )
    def test_other_languages_are_empty(self, language: str) -> None:
        assert function_words(language) == frozenset()

    def test_loaded_once(self) -> None:
        assert function_words("english") is function_words("english")

    def test_entries_are_verbatim(self) -> None:
        data = b"\xef\xbb\xbfthe\r\n of \rand\n\nx\xff"
        assert parse_function_words(data) == frozenset({"\ufeffthe", " of ", "and", "", "x\ufffd"})

    def test_final_newline_does_not_add_an_entry(self) -> None:
        assert parse_function_words(b"a\nb\n") == frozenset({"a", "b"})
        assert parse_function_words(b"") == frozenset()

    def test_user_file(self, tmp_path: Path) -> None:
        path = tmp_path / "fw.txt"
        path.write_bytes(b"foo\nBar\n")
        assert load_function_words_file(path) == frozenset({"foo", "Bar"})
        spec = function_words_spec("english", path)
        assert spec.version == "user"
        assert spec.sha256 == hashlib.sha256(b"foo\nBar\n").hexdigest()

    def test_missing_user_file(self, tmp_path: Path) -> None:
        with pytest.raises(ResourceError, match="cannot read function-word file"):
            load_function_words_file(tmp_path / "absent.txt")


class TestNonbreakingPrefixes:
    def test_english_numeric_only(self) -> None:
        prefixes = nonbreaking_prefixes("english")
        assert sorted(p for p, numeric in prefixes.items() if numeric) == ["Art", "No", "pp"]
        assert prefixes["Mr"] is False
        assert "mr" not in prefixes

    def test_read_only(self) -> None:
        with pytest.raises(TypeError):
            nonbreaking_prefixes("english")["x"] = True  # type: ignore[index]

    def test_parsing_rules(self) -> None:
        text = (
            "# c\n\n  \t\nMr extra\nNo #NUMERIC_ONLY#\nArt\t#NUMERIC_ONLY# x\r\n"
            "#Y\nZ #numeric_only#\n"
        )
        assert parse_prefixes(text) == {"Mr": False, "No": True, "Art": True, "Z": False}


def test_data_files_are_byte_identical_to_the_jar(jar_file: Path) -> None:
    with zipfile.ZipFile(jar_file) as archive:
        for language in FUNCTION_WORD_LANGUAGES:
            name = f"function/{language}.words"
            assert data_file("function", f"{language}.words").read_bytes() == archive.read(name)
        for language in NONBREAKING_LANGUAGES:
            name = f"nonbreaking/{language}.prefixes"
            local = data_file("nonbreaking", f"{language}.prefixes").read_bytes()
            assert local == archive.read(name)


SHA256_ENGLISH_WORDS = "2ae0d5b8c29e2993a0f442b065b946d1a17fbfe8538e66bf5931c4a248cf4c3a"
SHA256_ENGLISH_PREFIXES = "bd909f364224748976f9b8b7cdeb4f9be3bf7c8e66a10f1ed268b12d904ab876"


@pytest.mark.parametrize(
    ("load", "language", "message"),
    [
        (function_words, "klingon", "no function-word list"),
        (nonbreaking_prefixes, "danish", "no nonbreaking-prefix list"),
    ],
)
def test_unknown_language(load: Callable[[str], object], language: str, message: str) -> None:
    with pytest.raises(ResourceError, match=message):
        load(language)


@pytest.mark.parametrize(
    ("spec_of", "sha256", "short_id"),
    [
        (function_words_spec, SHA256_ENGLISH_WORDS, "function-words-en-meteor-1.5-2ae0d5b8"),
        (nonbreaking_spec, SHA256_ENGLISH_PREFIXES, "nonbreaking-prefixes-en-meteor-1.5-bd909f36"),
    ],
)
def test_english_spec(spec_of: Callable[[str], ResourceSpec], sha256: str, short_id: str) -> None:
    spec = spec_of("english")
    assert spec.sha256 == sha256
    assert spec.short_id == short_id
    assert spec.licence == "LGPL-2.1"
