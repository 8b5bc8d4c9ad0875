"""The compiled packed synonym sets of new word types (``_ext/wordnet.c``) against their twin.

``wordnet_packed_sets`` computes S(t) of tokens from the binary METEOR WordNet table, as
``resources.wordnet.meteor._packed_sets_python`` does in Python; both must give the same bytes
for every token (keys, inflected forms the suffix rules reach, lone surrogates, non-BMP
characters) and leave the same entries in the cache.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval._ext import built_module, compiled_function
from meteor_eval.resources.wordnet import meteor as meteor_module
from meteor_eval.resources.wordnet.keytable import KeyTable
from meteor_eval.resources.wordnet.shipped import meteor_sections

KERNELS = built_module()
pytestmark = pytest.mark.skipif(
    compiled_function("wordnet_packed_sets") is None,
    reason="compiled extension not built (or METEOR_EVAL_PURE_PYTHON=1)",
)

Fill = Callable[[Sequence[str], dict[str, bytes]], list[bytes]]

_ENDINGS = ("", "s", "es", "ies", "ses", "xes", "zes", "ches", "shes", "men", "ed", "ing")
_ENDINGS += ("er", "est", "ss", "ful")


def _pool() -> tuple[object, int]:
    sections = meteor_sections()
    if sections.pool_bytes is not None:
        return sections.pool_bytes
    return array("q", sections.pool).tobytes(), 0


def _both() -> tuple[Fill, Fill]:
    """(the compiled function, the Python twin) over the shipped sections."""
    sections = meteor_sections()
    pool, base = _pool()
    args = (sections.keys, sections.starts, sections.own_ends, pool, base)
    compiled = meteor_module._compiled_packed_sets(*args)  # type: ignore[arg-type]
    assert compiled is not None
    return compiled, meteor_module._packed_sets_python(*args)  # type: ignore[arg-type]


def _same(tokens: list[str]) -> None:
    compiled, python = _both()
    cache_c: dict[str, bytes] = {}
    cache_py: dict[str, bytes] = {}
    assert compiled(tokens, cache_c) == python(tokens, cache_py)
    assert cache_c == cache_py
    # A second call answers from the cache, the same values.
    assert compiled(tokens, cache_c) == python(tokens, cache_py)


def test_the_shipped_view_uses_the_compiled_function() -> None:
    table = meteor_module.meteor_wordnet()._synsets
    assert "_compiled_packed_sets" in table.packed_sets.__qualname__  # type: ignore[attr-defined]


def test_every_key_and_its_inflections() -> None:
    keys = meteor_sections().keys
    words = [keys.key(i) for i in range(len(keys))]
    tokens = words + [w + e for w in words[::5] for e in _ENDINGS] + [w[:-1] for w in words[::9]]
    _same(tokens)


def test_edge_tokens() -> None:
    _same(
        [
            "",
            "a",
            "s",
            "ss",
            "sss",
            "class",
            "classes",
            "churches",
            "handful",
            "went",
            "geese",
            "\ud800",
            "cat\ud800s",
            "\U00010000",
            "a\U00010000",
            "\U00010000s",
            "caf\u00e9s",
            "\u00e9s",
            "na\u00efve",
            "WOMEN",
            "women",
        ]
    )


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(alphabet="abcdehilmnorstuwxyz'-_.", max_size=9),
            st.text(max_size=4),
            st.sampled_from(["go", "child", "box", "cry", "fly", "big", "wolf", "man"]),
        ).flatmap(lambda stem: st.sampled_from(_ENDINGS).map(lambda end: stem + end)),
        max_size=16,
    )
)
def test_random_tokens(tokens: list[str]) -> None:
    _same(tokens)


def test_a_damaged_table_raises_instead_of_reading_outside_it() -> None:
    sections = meteor_sections()
    keys = sections.keys
    pool, base = _pool()
    # Every slot names a key past the end.
    table = array("I", [len(keys) + 5]) * len(keys.table)
    kernel = KERNELS.wordnet_packed_sets  # type: ignore[union-attr]
    rules = meteor_module._METEOR_RULES_BYTES
    args = (keys.blob, keys.starts, table, sections.starts, sections.own_ends, pool, base)
    with pytest.raises(ValueError, match="outside"):
        kernel(["cat"], {}, *args, rules)
    # Key starts beyond the blob.
    starts = array("I", keys.starts)
    starts[-1] = len(keys.blob) + 100
    broken = KeyTable(keys.blob, starts, keys.table)
    args = (broken.blob, broken.starts, broken.table, sections.starts, sections.own_ends)
    with pytest.raises(ValueError, match="outside"):
        kernel(
            ["zzzzzz" + str(i) for i in range(2000)] + [keys.key(len(keys) - 1)],
            {},
            *args,
            pool,
            base,
            rules,
        )
    # A pool too short for the ranges it is said to hold.
    with pytest.raises(ValueError, match="outside"):
        kernel(
            ["cat"],
            {},
            keys.blob,
            keys.starts,
            keys.table,
            sections.starts,
            sections.own_ends,
            b"",
            0,
            rules,
        )


def test_wrong_arguments_raise() -> None:
    sections = meteor_sections()
    keys = sections.keys
    pool, base = _pool()
    kernel = KERNELS.wordnet_packed_sets  # type: ignore[union-attr]
    args = (keys.blob, keys.starts, keys.table, sections.starts, sections.own_ends, pool, base)
    with pytest.raises(TypeError):
        kernel([b"cat"], {}, *args, meteor_module._METEOR_RULES_BYTES)
    with pytest.raises(TypeError):
        kernel(["cat"], {}, *args, (("s", ""),))
    with pytest.raises(ValueError, match="sizes"):
        kernel(["cat"], {}, *args[:-1], -1, meteor_module._METEOR_RULES_BYTES)
