"""The compiled front end's line cache (``meteor15_lines`` of ``_ext/frontend.c``) against its
Python twin (:meth:`FastPipeline.tokens_python`, which reads every line afresh).

``meteor15_lines`` copies the ids of a line it has met before (in the same call or an earlier
one, the same str object or an equal one) from a table in the token cache; the results must be
those of reading every line, id for id, whatever the order of repeats, the cache's limit (a call
that would pass it empties the table first) and str subclasses (never cached). Then the block
path through it gives the rows of the Python front end, the table lets go of its lines, and
the errors are clear.
"""

from __future__ import annotations

import gc
import sys
from array import array
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
    fast_module._LINES_KERNEL is None, reason="compiled extension not built"
)

DATA = Path(__file__).resolve().parents[4] / "shared" / "data" / "meteor15"
BOUNDED = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

POOL = [
    "The cat sat.",
    "the cat sat .",
    "",
    " ",
    "THE U.S. cat's 1,000 ΟΔΟΣ",
    "Mr. Smith's e-mail -- don't",
    "\U0001f600 x\u3000y",
    "a b a b a",
    "ΣΑΣ σας İstanbul",
]


class _Str(str):
    """A str subclass (its own hash, never cached)."""

    def __hash__(self) -> int:
        return 7


@st.composite
def chunk(draw: st.DrawFn) -> list[str]:
    """Lines drawn with repeats: pool lines (the same objects), equal copies made afresh,
    subclass copies and random text."""
    items: list[str] = []
    for _ in range(draw(st.integers(0, 10))):
        kind = draw(st.integers(0, 3))
        if kind == 0:
            items.append(draw(st.sampled_from(POOL)))
        elif kind == 1:
            items.append("".join(list(draw(st.sampled_from(POOL)))))  # equal, another object
        elif kind == 2:
            items.append(_Str(draw(st.sampled_from(POOL))))
        else:
            items.append(draw(st.text(max_size=12)))
    return items


def _pipe() -> FastPipeline:
    return FastPipeline(MeteorConfig.preset("meteor15", normalization="norm"))


def _lines(pipe: FastPipeline, session: TokenSession, lines: list[str], limit: int) -> Any:
    assert pipe._front is not None
    mode, keep, prefixes = pipe._front
    return tuple(
        fast_module._LINES_KERNEL.meteor15_lines(
            lines, mode, keep, prefixes, java_lower, session.known, session.cache, limit
        )
    )


@BOUNDED
@given(st.lists(chunk(), min_size=1, max_size=5), st.integers(0, 12))
@example(chunks=[["a b", "a b", "c", "a b"], ["c", "a b"]], limit=0)
@example(chunks=[["x y", "".join(["x", " y"]), "x y"]], limit=1)
@example(chunks=[[POOL[0], POOL[1]], [POOL[1], POOL[0]], [POOL[0]]], limit=2)
def test_cached_lines_equal_the_python_front_end(chunks: list[list[str]], limit: int) -> None:
    pipe = _pipe()
    session = TokenSession()
    for lines in chunks:
        expected = pipe.tokens_python(lines, session.known)
        got = _lines(pipe, session, lines, limit)
        assert got == expected
        session.commit(got[2])
    # The same lines again, every one cached now (where the limit let it stay).
    for lines in chunks:
        ids, offsets, new = pipe.tokens_python(lines, session.known)
        assert new == []
        assert _lines(pipe, session, lines, limit) == (ids, offsets, [])


def test_a_hand_computed_chunk_with_repeats() -> None:
    pipe = _pipe()
    session = TokenSession()
    session.commit(["the"])
    lines = ["The cat.", "the end", "The cat.", "".join(["The", " cat."])]
    ids, offsets, new = _lines(pipe, session, lines, 10)
    assert list(array("i", ids)) == [0, 1, 2, 0, 3, 0, 1, 2, 0, 1, 2]
    assert list(array("q", offsets)) == [0, 3, 5, 8, 11]
    assert new == ["cat", ".", "end"]


def test_the_table_lets_go_of_its_lines() -> None:
    pipe = _pipe()
    session = TokenSession()
    text = "".join(["a line ", "made here"])
    before = sys.getrefcount(text)
    session.commit(_lines(pipe, session, [text], 5)[2])
    assert sys.getrefcount(text) == before + 1  # held by the table
    # A call that would pass the limit empties the table first.
    _lines(pipe, session, ["other", "lines", "here"], 3)
    assert sys.getrefcount(text) == before
    session.commit(_lines(pipe, session, [text], 5)[2])
    assert sys.getrefcount(text) == before + 1
    del session
    gc.collect()
    assert sys.getrefcount(text) == before  # the capsule went with its table


def test_bad_arguments_raise_clear_errors() -> None:
    pipe = _pipe()
    session = TokenSession()
    with pytest.raises(ValueError, match="limit"):
        _lines(pipe, session, ["a"], -1)
    with pytest.raises(TypeError, match=r"lines\[1\]: expected a str, got int"):
        _lines(pipe, session, ["a", 3], 5)  # type: ignore[list-item]


@pytest.mark.skipif(not DATA.is_dir(), reason="shared data not available")
def test_the_block_path_gives_the_rows_of_the_dict_cache() -> None:
    """rows_block through meteor15_lines against rows_block through line_ids (the Python
    dict of lines) with the same compiled tokens, on pairs whose lines repeat, with a line
    limit small enough that the table is emptied several times."""
    ref = (DATA / "xray-reference").read_text(encoding="utf-8").splitlines()
    hyp = (DATA / "xray-system1.hyp").read_text(encoding="utf-8").splitlines()
    pairs = [(h, [r]) for h, r in zip(hyp[:600], ref[:600], strict=True)]
    pairs += [(h, refs) for (h, _), (_, refs) in zip(pairs[1:], pairs[:-1], strict=True)]
    config = MeteorConfig.preset("meteor15", normalization="norm")
    cached, plain = Meteor(config), Meteor(config)
    assert isinstance(cached.pipeline, FastPipeline) and isinstance(plain.pipeline, FastPipeline)
    saved, saved_limit = fast_module._LINES_KERNEL, fast_module.CACHE_LIMIT
    try:
        fast_module.CACHE_LIMIT = 500  # type: ignore[attr-defined]
        blocks = [cached.pipeline.rows_block(pairs[k : k + 150]) for k in range(0, len(pairs), 150)]
        fast_module._LINES_KERNEL = None
        others = [plain.pipeline.rows_block(pairs[k : k + 150]) for k in range(0, len(pairs), 150)]
    finally:
        fast_module._LINES_KERNEL = saved
        fast_module.CACHE_LIMIT = saved_limit  # type: ignore[attr-defined]
    assert plain.pipeline._line_ids and not cached.pipeline._line_ids
    a = np.concatenate([b for b in blocks if b is not None])
    b = np.concatenate([b for b in others if b is not None])
    assert len(a) == len(pairs) and a.tolist() == b.tolist()
