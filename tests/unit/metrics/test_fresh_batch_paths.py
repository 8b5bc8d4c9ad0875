"""The batch shortcuts a fresh scorer takes on its way to the pair kernel, against the
step-by-step code they stand for.

* ``Pipeline.function_flags_uncached`` lower-cases the tokens with ``str.lower``: the flags
  are ``java_lower(token) in function_words`` for every token, non-ASCII ones included
  (through ``java_lower`` again when a function word holds a sigma or a Unicode 14 letter).
* ``StemMatcher.stem_ids_uncached`` calls the compiled stemmer without its word cache: the
  same ids as the cached ``stem_ids``.
* ``WordTypes`` packs its int columns with ``struct``: an identifier out of range raises
  ``OverflowError`` with nothing appended, as ``array.extend`` did.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from meteor_eval.match.word_types import WordTypes
from meteor_eval.metrics.meteor import MeteorConfig
from meteor_eval.metrics.meteor.fast import FastPipeline
from meteor_eval.text.tokenize import java_lower, lower_sensitive


@pytest.fixture(scope="module")
def pipe() -> FastPipeline:
    return FastPipeline(MeteorConfig.preset("meteor15", normalization="norm"))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(["the", "THE", "The", "\u212a", "\u0130", "of", "OF", "\u00c9t\u00e9"]),
            st.text(max_size=6),
        ),
        max_size=12,
    )
)
def test_function_flags_uncached_equal_java_lower_membership(
    pipe: FastPipeline, tokens: list[str]
) -> None:
    words = pipe.function_words
    assert pipe.function_flags_uncached(tokens) == bytes(java_lower(t) in words for t in tokens)


@pytest.fixture(scope="module")
def pipe_with_greek_words(tmp_path_factory: pytest.TempPathFactory) -> FastPipeline:
    """A pipeline whose function words hold sigmas (where java_lower and str.lower differ)."""
    path = tmp_path_factory.mktemp("words") / "words.txt"
    words = ["the", "\u00e9t\u00e9", "\u03bf\u03b4\u03bf\u03c2", "\u03c3\u03b1\u03c3", "a\u2c2fb"]
    path.write_text("\n".join(words) + "\n", encoding="utf-8")
    config = MeteorConfig.preset("meteor15", normalization="norm", function_words_file=str(path))
    return FastPipeline(config)


GREEK = ["\u039f\u0394\u039f\u03a3", "\u03a3\u0391\u03a3", "A\u2c2fB", "\u00c9T\u00c9", "THE"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(GREEK), st.text(max_size=6)), max_size=12))
@example(tokens=GREEK)
def test_function_flags_uncached_with_sigmas_in_the_words(
    pipe_with_greek_words: FastPipeline, tokens: list[str]
) -> None:
    pipe = pipe_with_greek_words
    words = pipe.function_words
    assert pipe._lower_sensitive_words is True
    assert pipe.function_flags_uncached(tokens) == bytes(java_lower(t) in words for t in tokens)


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.sampled_from(GREEK), st.text(max_size=8)))
@example(text="\u03a3:A")
@example(text="A\U00010570")
def test_where_the_two_lowerings_differ_both_are_sensitive(text: str) -> None:
    """What the shortcut of ``function_flags_uncached`` rests on."""
    java, python = java_lower(text), text.lower()
    assert java == python or (lower_sensitive(java) and lower_sensitive(python))


def test_the_shipped_function_words_are_not_sensitive(pipe: FastPipeline) -> None:
    assert not any(map(lower_sensitive, pipe.function_words))
    assert pipe._lower_sensitive_words is False


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(max_size=12), max_size=12))
def test_stem_ids_uncached_equal_the_cached_ones(pipe: FastPipeline, tokens: list[str]) -> None:
    stem = next(m for m in pipe.matchers if m.name == "stem")
    assert stem.stem_ids_uncached(tokens) == list(stem.stem_ids(tuple(tokens)))  # type: ignore[attr-defined]


def test_word_types_refuse_an_identity_out_of_range_with_nothing_appended() -> None:
    types = WordTypes(identity=len, function=lambda t: False, stem=len)
    types.add(["ab", "c"])
    with pytest.raises(OverflowError):
        WordTypes(identity=lambda t: 1 << 40, function=lambda t: False).add(["x"])
    bad = WordTypes(identity=len, function=lambda t: False, stem=lambda t: 1 << 40)
    with pytest.raises(OverflowError):
        bad.add(["x"])
    assert len(bad) == 0 and len(bad.hashes) == 0 and len(bad.functions) == 0
    assert dict(types) == {"ab": 0, "c": 1}
    assert list(types.hashes) == [2, 1] and list(types.stems or []) == [2, 1]


def test_word_types_synonym_columns_from_one_batch() -> None:
    packed = {
        "a": b"",
        "b": (5).to_bytes(8, "little") + (9).to_bytes(8, "little"),
        "c": (7).to_bytes(8, "little"),
    }
    types = WordTypes(
        identity=len,
        function=lambda t: False,
        synonyms=lambda tokens: [packed[t] for t in tokens],
    )
    types.add(["a", "b"])
    types.add(["c"])
    assert list(types.synonym_starts or []) == [0, 0, 2, 3]
    assert list(types.synonym_pool or []) == [5, 9, 7]
    odd = WordTypes(
        identity=len, function=lambda t: False, synonyms=lambda tokens: [b"\0" * 4 for _ in tokens]
    )
    with pytest.raises(ValueError, match="multiple of item size"):
        odd.add(["a", "b"])
