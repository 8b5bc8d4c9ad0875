"""The compiled NLTK WordNet lookup and the uncached stemmer equal their Python references.

``nltk_wordnet_names`` (``_ext/greedy.c``) computes ``NltkWordNet.lemma_names`` over the binary
view's arrays; ``_NltkIndex.lemma_names`` is the step-by-step Python reference, itself tested
against the text form and NLTK. ``nltk_porter_stem`` is ``NltkPorterStemmer.stem`` without its
cache. The ``nltk`` flavour's scorer uses both for every new word, so every lemma, inflected
forms of many lemmas, every exception form and random text are compared here.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval._ext import built_module
from meteor_eval.resources.nltk_porter import NltkPorterStemmer, nltk_porter_stem
from meteor_eval.resources.wordnet import nltk as wordnet_nltk
from meteor_eval.resources.wordnet import nltk_wordnet
from meteor_eval.resources.wordnet.nltk import LazyExceptions, nltk_exceptions
from meteor_eval.resources.wordnet.shipped import nltk_sections

KERNELS = built_module()
needs_build = pytest.mark.skipif(
    KERNELS is None or not hasattr(KERNELS, "nltk_wordnet_names"), reason="extension not built"
)

_SUFFIXES = ("s", "es", "ed", "ing", "er", "est", "ies", "ves", "men", "ches", "shes", "xes")


def _compiled(word: str) -> frozenset[str]:
    wordnet = nltk_wordnet()
    binary = wordnet._binary
    assert binary is not None
    assert KERNELS is not None
    found: frozenset[str] = KERNELS.nltk_wordnet_names(
        word, binary.tables, wordnet._compiled_exceptions(), wordnet_nltk._NLTK_RULES_FLAT
    )
    return found


def _python(word: str) -> frozenset[str]:
    wordnet = nltk_wordnet()
    assert wordnet._binary is not None
    return wordnet._binary.lemma_names(word, wordnet._exception_forms)


@needs_build
def test_compiled_names_equal_the_python_reference_on_lemmas_forms_and_exceptions() -> None:
    wordnet = nltk_wordnet()
    keys = list(wordnet._binary or ())
    words = set(keys)
    for key in keys[::5]:
        words.update(key + suffix for suffix in _SUFFIXES)
    words.update(wordnet._exception_forms)
    words.update(["", "s", "ies", "'s", "\u00e9t\u00e9s", "caf\u00e9s", "\ud800s", "a_b"])
    different = [word for word in sorted(words) if _compiled(word) != _python(word)]
    assert different == []
    assert _compiled("dogs") == _python("dogs") and len(_compiled("dogs")) > 10


@needs_build
@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abcdeilnorstuvyz_'-\u00e9", max_size=12))
def test_compiled_names_equal_the_python_reference_on_random_words(word: str) -> None:
    assert _compiled(word) == _python(word)


@needs_build
def test_the_shared_view_uses_the_compiled_lookup_and_answers_the_same() -> None:
    wordnet = nltk_wordnet()
    assert wordnet_nltk._COMPILED_NAMES is not None
    for word in ("dogs", "Running", "geese", "better", "xyzzy", ""):
        assert wordnet.lemma_names_uncached(word) == _python(word.lower())
        assert wordnet.lemma_names(word) == wordnet.lemma_names_uncached(word)


@needs_build
def test_compiled_names_refuse_bad_tables() -> None:
    wordnet = nltk_wordnet()
    binary = wordnet._binary
    assert binary is not None and KERNELS is not None
    tables = binary.tables
    none: tuple[dict[str, str], ...] = ({}, {}, {}, {})
    with pytest.raises(TypeError):
        KERNELS.nltk_wordnet_names("dog", tables[:8], none, ())
    with pytest.raises(TypeError, match="four dicts"):
        KERNELS.nltk_wordnet_names("dog", tables, none[:3], ())
    damaged = (*tables[:6], (0, 1, 2, 3, 4), *tables[7:])  # bounds that miss the synsets
    with pytest.raises(ValueError, match="damaged"):
        KERNELS.nltk_wordnet_names("dog", damaged, none, ())
    with pytest.raises(TypeError):
        KERNELS.nltk_wordnet_names("dogs", tables, none, (("s", "", "n"),))


def test_exception_bases_read_from_the_text_equal_the_parsed_lists() -> None:
    text = nltk_sections().exceptions_text
    parsed = nltk_exceptions(text)
    lazy = LazyExceptions(text)
    assert lazy.bases() == tuple(
        {form: " ".join(bases) for form, bases in parsed[pos].items()} for pos in "nvar"
    )
    assert dict(lazy) == parsed and lazy["s"] is lazy["a"]
    # The shared view parses the lists only when a Python path asks for them.
    wordnet = nltk_wordnet()
    assert wordnet._compiled_exceptions() == lazy.bases()
    assert wordnet._exception_forms["geese"] == ((1, ("goose",)),)


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(
        st.tuples(
            st.sampled_from(["n", "v", "a", "r", "s", "x", "nn", ""]),
            st.sampled_from(["geese", "men", "a\tb", "", "x\r"]),
            st.sampled_from(["goose", "man men", "", "b\tc", "y\r"]),
        ),
        max_size=30,
    ),
    end=st.sampled_from(["", "\n", "\n\n"]),
)
def test_exception_bases_in_one_pass_equal_a_pass_per_part_of_speech(
    lines: list[tuple[str, str, str]], end: str
) -> None:
    """LazyExceptions.bases reads every part of speech in one pass over the text: the same
    tables as one regular-expression pass per part of speech (the round-11 reading), on lines
    in any order, repeated forms (the later line wins), other parts of speech and malformed
    lines (skipped by both)."""
    import re

    text = "\n".join("\t".join(parts) for parts in lines) + end
    per_pos = tuple(
        dict(re.findall(rf"^{pos}\t([^\t\n]*)\t([^\t\n]*)$", text, re.MULTILINE)) for pos in "nvar"
    )
    assert LazyExceptions(text).bases() == per_pos


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="abcdeilmnorstuyzABEIS'-\u00e9", max_size=14))
def test_uncached_stem_equals_the_stemmer(word: str) -> None:
    assert nltk_porter_stem(word) == NltkPorterStemmer().stem(word)


def test_uncached_stem_on_irregular_and_short_words() -> None:
    stemmer = NltkPorterStemmer()
    for word in ("dying", "Dying", "skies", "news", "AS", "is", "a", "", "Generously"):
        assert nltk_porter_stem(word) == stemmer.stem(word)
