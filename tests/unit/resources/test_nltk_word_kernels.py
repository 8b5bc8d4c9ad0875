"""The NLTK flavour's compiled functions of one new word equal their Python twins.

``nltk_porter_word`` (``_ext/stem.c``) is the whole of NLTK's Porter stem of one word (lower-
casing, the irregular forms of the dict it is given, the length rule, the rule steps), of which
``NltkPorterStemmer._stem(word, word.lower())`` is the Python twin; ``nltk_wordnet_word``
(``_ext/greedy.c``) is ``nltk_wordnet_names(word.lower(), ...)`` with the word last, so that
``functools.partial`` binds it to its tables. Both are what the flavour's per-word caches call
on a miss. The names' frozensets hold str objects only and are left untracked by the cyclic
collector.
"""

from __future__ import annotations

import functools
import gc
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval._ext import built_module
from meteor_eval.resources import nltk_porter
from meteor_eval.resources.nltk_porter import (
    IRREGULAR_FORMS,
    NltkPorterStemmer,
    nltk_porter_stem,
    nltk_porter_stem_function,
)
from meteor_eval.resources.wordnet import nltk as wordnet_nltk
from meteor_eval.resources.wordnet import nltk_wordnet

KERNELS = built_module()
needs_build = pytest.mark.skipif(
    KERNELS is None or not hasattr(KERNELS, "nltk_porter_word"), reason="extension not built"
)


def _twin(word: str) -> str:
    return NltkPorterStemmer._stem(word, word.lower())


def _word(word: str) -> str:
    assert KERNELS is not None
    found: str = KERNELS.nltk_porter_word(IRREGULAR_FORMS, word)
    return found


class _Shouting(str):
    """A str whose lower() is its own (upper-cases): the kernel must call it, not assume."""

    def lower(self) -> str:
        return str.upper(self)


def _words() -> list[str]:
    wordnet = nltk_wordnet()
    keys = list(wordnet._binary or ())
    words = keys + [w.upper() for w in keys[::9]] + [w.capitalize() for w in keys[::5]]
    words += list(IRREGULAR_FORMS) + [w.upper() for w in IRREGULAR_FORMS]
    words += [w.capitalize() for w in IRREGULAR_FORMS]
    rng = random.Random(23)
    letters = "aeiouyYsldgbtnAEIOUS'*-\u00e9\u00c9\u0130\u1e9e\u03a3"
    for _ in range(20_000):
        words.append("".join(rng.choice(letters) for _ in range(rng.randint(0, 12))))
    # Capitals whose lower case is longer (the length rule reads the word as given), and
    # two-character words around the length rule.
    words += ["\u0130", "\u0130s", "\u0130ss", "\u0130ies", "AS", "As", "is", "IS", "a", ""]
    words += ["y" * 300 + "ING", "\ud800", "\ud800S", "\U0001f600\U0001f600\U0001f600S"]
    return words


@needs_build
def test_compiled_stem_equals_the_python_twin_on_the_vocabulary_and_random_words() -> None:
    words = _words()
    different = [word for word in words if _word(word) != _twin(word)]
    assert different == []


@needs_build
@settings(max_examples=500, deadline=None)
@given(st.text(max_size=16))
def test_compiled_stem_equals_the_python_twin_on_any_text(word: str) -> None:
    assert _word(word) == _twin(word)


@needs_build
def test_compiled_stem_reads_the_table_it_is_given() -> None:
    assert KERNELS is not None
    table = {"cats": "dog", "running": "walk"}
    assert KERNELS.nltk_porter_word(table, "CATS") == "dog"
    assert KERNELS.nltk_porter_word(table, "Running") == "walk"
    assert KERNELS.nltk_porter_word({}, "skies") == "ski"
    assert KERNELS.nltk_porter_word(IRREGULAR_FORMS, "skies") == "sky"
    # A value is returned as the table holds it (the object itself).
    value = "".join(["wa", "lk"])
    assert KERNELS.nltk_porter_word({"x": value}, "X") is value


@needs_build
def test_compiled_stem_calls_a_subclass_lower() -> None:
    word = _Shouting("Running")
    assert _word(word) == _twin(word) == "RUNNING"


@needs_build
def test_compiled_stem_refuses_bad_arguments() -> None:
    assert KERNELS is not None
    with pytest.raises(TypeError):
        KERNELS.nltk_porter_word(IRREGULAR_FORMS, b"word")
    with pytest.raises(TypeError, match="dict"):
        KERNELS.nltk_porter_word(list(IRREGULAR_FORMS.items()), "word")
    with pytest.raises(TypeError, match="2 arguments"):
        KERNELS.nltk_porter_word("word")


@needs_build
def test_the_stem_function_is_the_bound_kernel_and_the_stemmer_uses_it() -> None:
    function = nltk_porter_stem_function()
    assert isinstance(function, functools.partial)
    assert KERNELS is not None
    assert function.func is KERNELS.nltk_porter_word and function.args == (IRREGULAR_FORMS,)
    for word in ("Generously", "dies", "Dying", "AS", "skies", "\u0130ss"):
        assert function(word) == nltk_porter_stem(word) == _twin(word)
        assert NltkPorterStemmer().stem(word) == _twin(word)


def test_without_the_kernel_the_python_twin_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nltk_porter, "_WORD", None)
    assert nltk_porter_stem_function() is nltk_porter_stem
    for word in ("Generously", "dies", "Dying", "AS", "skies"):
        assert nltk_porter_stem(word) == _twin(word)
        assert NltkPorterStemmer().stem(word) == _twin(word)


# --- WordNet names ---------------------------------------------------------------------------


def _tables() -> tuple[object, object, object]:
    wordnet = nltk_wordnet()
    binary = wordnet._binary
    assert binary is not None
    return binary.tables, wordnet._compiled_exceptions(), wordnet_nltk._NLTK_RULES_FLAT


@needs_build
def test_compiled_names_of_a_word_equal_the_lookup_of_its_lower_case() -> None:
    assert KERNELS is not None
    tables, exceptions, rules = _tables()
    wordnet = nltk_wordnet()
    words = list(wordnet._binary or ())[::7]
    words += [w.upper() for w in words[::5]] + [w.capitalize() for w in words[::3]]
    words += ["Geese", "MEN", "Running", "\u0130s", "caf\u00c9s", "\ud800S", "", _Shouting("dog")]
    different = [
        word
        for word in words
        if KERNELS.nltk_wordnet_word(tables, exceptions, rules, word)
        != KERNELS.nltk_wordnet_names(word.lower(), tables, exceptions, rules)
    ]
    assert different == []
    function = wordnet.lemma_names_function()
    assert isinstance(function, functools.partial)
    for word in ("dogs", "Running", "geese", "xyzzy", ""):
        assert function(word) == wordnet.lemma_names_uncached(word)


@needs_build
def test_compiled_names_are_untracked_by_the_collector() -> None:
    assert KERNELS is not None
    tables, exceptions, rules = _tables()
    for word in ("dogs", "xyzzy", "", "\ud800"):
        names = KERNELS.nltk_wordnet_word(tables, exceptions, rules, word)
        assert type(names) is frozenset and all(type(name) is str for name in names)
        assert not gc.is_tracked(names)
        assert not gc.is_tracked(KERNELS.nltk_wordnet_names(word, tables, exceptions, rules))
    assert len(KERNELS.nltk_wordnet_word(tables, exceptions, rules, "dogs")) > 10


@needs_build
def test_compiled_names_of_a_word_refuse_bad_arguments() -> None:
    assert KERNELS is not None
    tables, exceptions, rules = _tables()
    with pytest.raises(TypeError, match="4 arguments"):
        KERNELS.nltk_wordnet_word(tables, exceptions, "dog")
    with pytest.raises(TypeError, match="tuples"):
        KERNELS.nltk_wordnet_word([tables], exceptions, rules, "dog")
    with pytest.raises(TypeError):
        KERNELS.nltk_wordnet_word(tables, exceptions, rules, b"dog")
    with pytest.raises(TypeError, match="four dicts"):
        KERNELS.nltk_wordnet_word(tables, ({}, {}), rules, "dog")
