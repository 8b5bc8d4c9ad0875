"""The synonym column of a word-type table's new rows: the compiled ``packed_set_ends``
(``_ext/pair.c``) against its twin ``set_ends_python``, and the table built with either."""

from __future__ import annotations

from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval._ext import compiled_function
from meteor_eval.match import word_types
from meteor_eval.match.word_types import WordTypes, set_ends_python

KERNEL = compiled_function("packed_set_ends")
needs_kernel = pytest.mark.skipif(KERNEL is None, reason="compiled kernels not built")

SETS = st.lists(
    st.lists(st.integers(-(2**63), 2**63 - 1), max_size=5).map(lambda v: array("q", v).tobytes()),
    max_size=20,
)


@needs_kernel
@settings(max_examples=200, deadline=None)
@given(SETS, st.integers(0, 2**40))
def test_the_kernel_equals_its_twin(sets: list[bytes], first: int) -> None:
    assert KERNEL is not None
    ends = KERNEL(sets, first)
    assert ends == set_ends_python(sets, first)
    sizes = [len(s) // 8 for s in sets]
    assert list(array("q", ends)) == [first + sum(sizes[: k + 1]) for k in range(len(sets))]


@needs_kernel
@pytest.mark.parametrize("sets", [[b"\0" * 4, b"\0" * 4], [b"\0" * 8, b"\0" * 9], [b"\0"]])
def test_a_partial_item_is_refused_by_both(sets: list[bytes]) -> None:
    assert KERNEL is not None
    for ends in (KERNEL, set_ends_python):
        with pytest.raises(ValueError, match="bytes length not a multiple of item size"):
            ends(sets, 0)


@needs_kernel
def test_the_kernel_takes_what_len_takes() -> None:
    assert KERNEL is not None
    assert KERNEL([bytearray(16), memoryview(b"\0" * 8)], 1) == set_ends_python(
        [bytes(16), bytes(8)], 1
    )
    with pytest.raises(TypeError):
        KERNEL([object()], 0)
    with pytest.raises(TypeError):
        KERNEL((b"",), 0)  # a list only (WordTypes passes other sequences to the twin)

    class Shrinking(bytes):
        def __len__(self) -> int:
            sets.clear()
            return 8

    sets: list[bytes] = [Shrinking(bytes(8)), bytes(8)]
    with pytest.raises(RuntimeError, match="changed size"):
        KERNEL(sets, 0)


@pytest.mark.parametrize("compiled", [True, False])
def test_the_table_is_the_same_either_way(compiled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if compiled and KERNEL is None:
        pytest.skip("compiled kernels not built")
    if not compiled:
        monkeypatch.setattr(word_types, "_SET_ENDS", None)
    packed = {"a": b"", "b": array("q", [5, 9]).tobytes(), "c": array("q", [7]).tobytes()}
    for as_list in (True, False):
        types = WordTypes(
            identity=len,
            function=lambda t: False,
            synonyms=lambda tokens, as_list=as_list: (list if as_list else tuple)(
                packed[t] for t in tokens
            ),
        )
        types.add(["a", "b"])
        types.add(["c"])
        assert list(types.synonym_starts or []) == [0, 0, 2, 3]
        assert list(types.synonym_pool or []) == [5, 9, 7]
        odd = WordTypes(
            identity=len,
            function=lambda t: False,
            synonyms=lambda tokens: [b"\0" * 4 for _ in tokens],
        )
        with pytest.raises(ValueError, match="multiple of item size"):
            odd.add(["a", "b"])
        assert len(odd) == 0 and len(odd.hashes) == 0 and list(odd.synonym_starts or []) == [0]
