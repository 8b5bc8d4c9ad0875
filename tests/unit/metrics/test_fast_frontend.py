"""The compiled METEOR 1.5 front end (``meteor15_tokens`` of ``_ext/frontend.c``) against its
Python twin (:meth:`FastPipeline.tokens_python`): a chunk of lines normalised (``-norm`` or
``-norm -noPunct``), lower-cased as Java does, split and interned to word-type ids.

Both must give the same ids, offsets and new word types for any text: random Unicode (astral
characters, combining marks, Java's and Python's different spaces, Greek capital sigma,
Unicode 14 capitals that Java 17 leaves upper-case), punctuation, numbers, dot runs,
abbreviations and long lines, in the six languages that have a normaliser; with the token cache
kept across calls as a scorer keeps it. Then the block path with the compiled front end gives
the statistics of the block path with the Python one, and the errors of a bad line.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fakes import TokenSession
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.metrics.meteor import fast as fast_module
from meteor_eval.metrics.meteor.fast import FastPipeline
from meteor_eval.text.tokenize import java_lower

pytestmark = pytest.mark.skipif(
    fast_module._FRONT_KERNEL is None, reason="compiled extension not built"
)

DATA = Path(__file__).resolve().parents[4] / "shared" / "data" / "meteor15"
LANGUAGES = ("en", "fr", "de", "cz", "es", "ru")
BOUNDED = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Characters each normalising step and the lower-casing look at.
SPECIAL = (
    ".,'`-\u2013\u2014\u2018\u2019\u201c\u201d\"!?:;()$%&/*#@"
    " \t\x0b\f\r\x85\u00a0\u2000\u2009\u202f\u3000\x01\x7f"
    "aAsSzZ\u00c9\u00e9\u0130\u0131\u0178\u017f\u1e9e\u0411\u00df"
    "\u03a3\u03c3\u03c2\u0391\u2c2f\ua7c0"  # sigma, Unicode 14 capitals (unchanged in Java 17)
    "0123456789"
    "\u0301\u0327\u20dd\ufe0f\u200d"
    "\U0001f600\U0001d400\U00010400\U00010570\U0010ffff"
)
WORDS = [
    "Mr.", "No.", "U.S.", "p.m.", "don't", "l'homme", "...", "DOTMULTI", "1,000", "3.5",
    "e-mail", "--", "''", "Aa", "BB", "ΟΔΟΣ", "The", "THE", "the", "Σ:A",
]  # fmt: skip
CHARS = st.one_of(st.sampled_from(SPECIAL), st.characters(exclude_categories=("Cs",)))


@st.composite
def line(draw: st.DrawFn) -> str:
    """A line: known words and random runs, joined by spaces or nothing; sometimes long."""
    parts = draw(
        st.lists(st.one_of(st.sampled_from(WORDS), st.text(CHARS, max_size=10)), max_size=14)
    )
    text = draw(st.sampled_from([" ", "", ". ", "\u3000"])).join(parts)
    if draw(st.integers(0, 9)) == 0:
        text = (text + " ") * draw(st.integers(20, 80))  # a long line, many repeated tokens
    return text


def _config(language: str, level: str) -> MeteorConfig:
    modules = ("exact", "stem", "synonym", "paraphrase") if language == "en" else ("exact",)
    return MeteorConfig.preset("meteor15", normalization=level, language=language, modules=modules)


@pytest.fixture(scope="module")
def pipes() -> dict[tuple[str, str], FastPipeline]:
    return {
        (language, level): FastPipeline(_config(language, level))
        for language in LANGUAGES
        for level in ("norm", "norm_nopunct")
    }


def _compiled(
    pipe: FastPipeline, lines: list[str], known: dict[str, int], cache: Any
) -> tuple[bytes, bytes, list[str]]:
    assert pipe._front is not None
    mode, keep, prefixes = pipe._front
    result = fast_module._FRONT_KERNEL.meteor15_tokens(
        lines, mode, keep, prefixes, java_lower, known, cache
    )
    return tuple(result)  # type: ignore[return-value]


def test_a_hand_computed_chunk() -> None:
    pipe = FastPipeline(_config("en", "norm"))
    lines = ["The cat sat.", "", "THE U.S. cat's 1,000 ΟΔΟΣ", "the end"]
    known = {"the": 0}
    # Greek letters are not letters to the normaliser: each is a token (a lone sigma: small).
    expected_new = ["cat", "sat", ".", "us", "'s", "1,000", "ο", "δ", "σ", "end"]
    expected_ids = [0, 1, 2, 3, 0, 4, 1, 5, 6, 7, 8, 7, 9, 0, 10]
    for ids, offsets, new in (
        pipe.tokens_python(lines, known),
        _compiled(pipe, lines, known, fast_module._FRONT_KERNEL.meteor15_token_cache()),
    ):
        assert list(array("i", ids)) == expected_ids
        assert list(array("q", offsets)) == [0, 4, 4, 13, 15]
        assert new == expected_new
    assert known == {"the": 0}  # the caller adds the new words


_SESSIONS: dict[tuple[str, str], TokenSession] = {}


@BOUNDED
@given(
    st.lists(line(), max_size=6),
    st.sampled_from(LANGUAGES),
    st.sampled_from(["norm", "norm_nopunct"]),
)
@example(lines=["ΟΔΟΣ Σ:A İ \u2c2f", "a\u3000b\x85c\x0bd"], language="en", level="norm")
@example(lines=["DOTMULTI.. U.S.A. Mr. Smith", "l'homme d'affaires"], language="fr", level="norm")
@example(lines=["\U00010570\U0001f600 x", "", " "], language="ru", level="norm_nopunct")
def test_compiled_front_end_equals_the_python_one(
    pipes: dict[tuple[str, str], FastPipeline], lines: list[str], language: str, level: str
) -> None:
    pipe = pipes[(language, level)]
    session = _SESSIONS.setdefault((language, level), TokenSession())
    expected = pipe.tokens_python(lines, session.known)
    got = _compiled(pipe, lines, session.known, session.cache)
    assert got == expected
    # The ids are the tokens' own: each line's ids spell its tokens.
    ids, offsets = array("i", got[0]), array("q", got[1])
    words = {v: k for k, v in session.known.items()}
    words.update(enumerate(got[2], start=len(session.known)))
    for k, text in enumerate(lines):
        assert tuple(words[i] for i in ids[offsets[k] : offsets[k + 1]]) == pipe.tokenize(text)
    session.commit(got[2])


def test_bad_lines_and_arguments_raise_clear_errors() -> None:
    pipe = FastPipeline(_config("en", "norm"))
    kernel = fast_module._FRONT_KERNEL
    assert pipe._front is not None
    mode, keep, prefixes = pipe._front
    cache = kernel.meteor15_token_cache()
    with pytest.raises(TypeError, match=r"lines\[1\]: expected a str, got int"):
        kernel.meteor15_tokens(["a", 3], mode, keep, prefixes, java_lower, {}, cache)
    with pytest.raises(ValueError, match="mode"):
        kernel.meteor15_tokens(["a"], 7, keep, prefixes, java_lower, {}, cache)
    with pytest.raises(TypeError, match="lower: expected it to return a str"):
        kernel.meteor15_tokens(["É"], mode, keep, prefixes, lambda s: 1, {}, cache)
    with pytest.raises(ValueError, match="known: ids must be"):
        kernel.meteor15_tokens(["zz"], mode, keep, prefixes, java_lower, {"zz": 5}, cache)
    with pytest.raises(TypeError, match="cache: expected a meteor15_token_cache"):
        kernel.meteor15_tokens(["a"], mode, keep, prefixes, java_lower, {}, object())


def _pairs() -> list[tuple[str, list[str]]]:
    ref = (DATA / "xray-reference").read_text(encoding="utf-8").splitlines()
    hyp = (DATA / "xray-system1.hyp").read_text(encoding="utf-8").splitlines()
    pairs = [(h, [r]) for h, r in zip(hyp, ref, strict=True)]
    # Non-ASCII lines (Java's lower-casing in Python), empty and long ones.
    pairs += [("ΟΔΟΣ Σ:A İ cat", ["the ΟΔΟΣ cat"]), ("", ["a b"]), ("a b", [""])]
    pairs += [(" ".join(h for h, _ in pairs[:30]), [" ".join(r[0] for _, r in pairs[:30])])]
    return pairs


def _blocks(scorer: Meteor, pairs: list[tuple[str, list[str]]]) -> Iterator[np.ndarray[Any, Any]]:
    pipe = scorer.pipeline
    assert isinstance(pipe, FastPipeline)
    for start in range(0, len(pairs), 200):
        block = pipe.rows_block(pairs[start : start + 200])
        assert block is not None
        yield block


@pytest.mark.skipif(not DATA.is_dir(), reason="shared data not available")
def test_block_path_gives_the_same_rows_with_either_front_end() -> None:
    pairs = _pairs()
    config = MeteorConfig.preset("meteor15", normalization="norm")
    compiled, python = Meteor(config), Meteor(config)
    assert isinstance(python.pipeline, FastPipeline)
    python.pipeline._front = None
    python.pipeline.new_word_types()
    assert isinstance(compiled.pipeline, FastPipeline) and compiled.pipeline._front is not None
    for _ in range(2):  # the second round: every word type and reference cached
        a = np.concatenate(list(_blocks(compiled, pairs)))
        b = np.concatenate(list(_blocks(python, pairs)))
        assert a.tolist() == b.tolist()
    # The general path (one pair at a time, no word-type table) agrees too.
    general = [compiled.pipeline.best_stats(h, refs).to_row() for h, refs in pairs[:300]]
    assert a[:300].tolist() == [list(row) for row in general]


@pytest.mark.skipif(not DATA.is_dir(), reason="shared data not available")
def test_a_full_table_is_replaced_and_a_failed_call_drops_the_cache() -> None:
    pairs = _pairs()[:400]
    config = MeteorConfig.preset("meteor15", normalization="norm")
    reference = np.concatenate(list(_blocks(Meteor(config), pairs)))
    scorer = Meteor(config)
    pipe = scorer.pipeline
    assert isinstance(pipe, FastPipeline) and pipe.word_types is not None
    pipe.word_types.limit = 300  # fills up within the first block
    first = pipe.word_types
    assert np.concatenate(list(_blocks(scorer, pairs))).tolist() == reference.tolist()
    assert pipe.word_types is not first
    # A call that fails after numbering new word types leaves no trace in the next ones.
    cache = pipe._token_cache
    with pytest.raises(TypeError, match=r"lines\[2\]"):
        pipe.intern_lines(["brand new words", "more novel tokens", None])  # type: ignore[list-item]
    assert pipe._token_cache is not cache
    assert np.concatenate(list(_blocks(scorer, pairs))).tolist() == reference.tolist()


@pytest.mark.skipif(not DATA.is_dir(), reason="shared data not available")
def test_the_reference_walk_cache_changes_no_row() -> None:
    """``meteor15_rows`` with the scorer's walk cache (references met before: their walks from
    the cache) against the bare four-item trie, on pairs whose references repeat."""
    pairs = _pairs()[:300]
    pairs += [(h, refs) for (h, _), (_, refs) in zip(pairs[1:], pairs[:-1], strict=True)]
    scorer = Meteor(MeteorConfig.preset("meteor15", normalization="norm"))
    pipe = scorer.pipeline
    assert isinstance(pipe, FastPipeline) and pipe._trie is not None
    assert len(pipe._trie) == 5 and pipe._trie[4] is not None
    cached = np.concatenate(list(_blocks(scorer, pairs)))
    bare = Meteor(MeteorConfig.preset("meteor15", normalization="norm"))
    assert isinstance(bare.pipeline, FastPipeline) and bare.pipeline._trie is not None
    bare.pipeline._trie = bare.pipeline._trie[:4]
    assert np.concatenate(list(_blocks(bare, pairs))).tolist() == cached.tolist()
    # Every reference is in the cache now: the same rows again.
    assert np.concatenate(list(_blocks(scorer, pairs))).tolist() == cached.tolist()
    # The fifth item must be a walk cache (or None).
    bare.pipeline._trie = (*bare.pipeline._trie, object())
    with pytest.raises(TypeError, match="item 5 must be a paraphrase_walk_cache"):
        bare.pipeline.rows_block(pairs[:2])


# Code points below U+0370 (lower-cased in C through a table of java_lower's result for each),
# with the few whose lower case is not one code point (U+0130) and the first ones beyond.
LATIN = st.one_of(
    st.sampled_from(" .,'-AZaz\u00c0\u00c9\u00de\u00df\u00ff\u0100\u0130\u0131\u0178\u017f"),
    st.characters(max_codepoint=0x36F, exclude_categories=("Cs",)),
    st.sampled_from("\u0370\u0391\u03a3\u0400"),
)


@BOUNDED
@given(st.lists(st.text(LATIN, max_size=40), max_size=6), st.sampled_from(LANGUAGES))
@example(lines=["\u00c9COLE \u0130STANBUL \u0178 \u01c5 \u01c4"], language="en")
@example(lines=["\u0130", "\u00c0\u0370", "\u036f\u00c9"], language="fr")
def test_latin_lines_lowered_in_c_equal_the_python_front_end(
    pipes: dict[tuple[str, str], FastPipeline], lines: list[str], language: str
) -> None:
    """Lines of code points below U+0370 are lower-cased through the cache's table, the others
    (and those holding U+0130) by java_lower: both as the Python front end, through both
    compiled entry points."""
    pipe = pipes[(language, "norm")]
    session = TokenSession()
    expected = pipe.tokens_python(lines, session.known)
    assert _compiled(pipe, lines, session.known, session.cache) == expected
    assert pipe._front is not None
    mode, keep, prefixes = pipe._front
    got = fast_module._LINES_KERNEL.meteor15_lines(
        lines,
        mode,
        keep,
        prefixes,
        java_lower,
        {},
        fast_module._FRONT_KERNEL.meteor15_token_cache(),
        100,
    )
    assert tuple(got) == expected


def test_the_latin_table_follows_the_lower_function_passed() -> None:
    """The table is built from the `lower` of the call, and again when another one comes."""
    pipe = FastPipeline(_config("en", "norm"))
    assert pipe._front is not None
    mode, keep, prefixes = pipe._front
    kernel = fast_module._FRONT_KERNEL
    cache = kernel.meteor15_token_cache()
    first = kernel.meteor15_tokens(["\u00c9COLE"], mode, keep, prefixes, java_lower, {}, cache)
    assert first[2] == ["\u00e9cole"]
    second = kernel.meteor15_tokens(
        ["\u00c9T\u00c9"], mode, keep, prefixes, str.upper, {"\u00e9cole": 0}, cache
    )
    assert second[2] == ["\u00c9T\u00c9"]
    with pytest.raises(TypeError, match="lower: expected it to return a str"):
        kernel.meteor15_tokens(["\u00c9"], mode, keep, prefixes, lambda s: 1, {}, cache)


def test_the_latin_table_asks_lower_only_for_the_code_points_met() -> None:
    """An entry of the table is asked of `lower` when a line first needs it (a run meets a few
    dozen of the 880 code points), once; the lines come out as with a full table."""
    pipe = FastPipeline(_config("en", "norm"))
    assert pipe._front is not None
    mode, keep, prefixes = pipe._front
    kernel = fast_module._FRONT_KERNEL
    cache = kernel.meteor15_token_cache()
    asked: list[str] = []

    def lower(text: str) -> str:
        asked.append(text)
        return java_lower(text)

    lines = ["\u00c9COLE \u00c9T\u00c9", "caf\u00c9", "ASCII ONLY"]
    got = kernel.meteor15_tokens(lines, mode, keep, prefixes, lower, {}, cache)
    assert got[2] == ["\u00e9cole", "\u00e9t\u00e9", "caf\u00e9", "ascii", "only"]
    met = set(lines[0]) | set(lines[1])  # the characters of the lines that are not ASCII
    assert sorted(asked) == sorted(met)
    third = "\u00e9t\u00c9 CAF\u00c9"
    kernel.meteor15_tokens([third], mode, keep, prefixes, lower, {}, cache)
    assert sorted(asked) == sorted(met | set(third))  # each code point asked once
