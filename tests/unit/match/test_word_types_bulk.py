"""A word-type table's properties computed a batch at a time (``functions_of``, ``stems_of``,
``paraphrases_of``: the matchers' uncached batch methods) against the per-token callables and
their caches (``function_cache``, ``stem_id``, ``token_id``), on any tokens: the same hashes,
function flags, stem ids, paraphrase ids and synonym sets, row for row.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from meteor_eval.match.word_types import WordTypes
from meteor_eval.metrics.meteor import MeteorConfig
from meteor_eval.metrics.meteor.fast import FastPipeline

WORDS = [
    "the", "The", "THE", "running", "runs", "cats", "ΟΔΟΣ", "σας", "İstanbul", "and", "of",
    "don't", "'s", ".", "1,000", "quickly", "glasses", "axes", "\U0001f600", "Aa", "BB",
]  # fmt: skip


@pytest.fixture(scope="module")
def pipe() -> FastPipeline:
    pipe = FastPipeline(MeteorConfig.preset("meteor15", normalization="norm"))
    if pipe.word_types is None:
        pytest.skip("compiled pair path not available")
    return pipe


def _per_token(pipe: FastPipeline) -> WordTypes:
    """The table as it was built before the batch callables: each property by its cached
    per-token callable."""
    bulk = pipe.word_types
    assert bulk is not None
    stem, _synonym, paraphrase = pipe.matchers[1], pipe.matchers[2], pipe.matchers[3]
    return WordTypes(
        identity=bulk._identity,
        function=pipe.function_cache.__getitem__,
        stem=stem.stem_id,  # type: ignore[attr-defined]
        paraphrase=paraphrase.token_id,  # type: ignore[attr-defined]
        synonyms=bulk._synonyms,
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=8)), max_size=30))
@example(tokens=WORDS)
def test_batch_properties_equal_the_per_token_ones(pipe: FastPipeline, tokens: list[str]) -> None:
    pipe.new_word_types()
    bulk = pipe.word_types
    assert bulk is not None and bulk._stems_of is not None and bulk._paraphrases_of is not None
    single = _per_token(pipe)
    assert single._stems_of is None
    for table in (bulk, single):
        table.add(tokens[: len(tokens) // 2])
        table.add(tokens)
    assert dict(bulk) == dict(single)
    assert bulk.hashes == single.hashes
    assert bulk.functions == single.functions
    assert bulk.stems == single.stems
    assert bulk.paraphrase_ids == single.paraphrase_ids
    assert bulk.synonym_starts == single.synonym_starts
    assert bulk.synonym_pool == single.synonym_pool


def test_a_batch_callable_of_the_wrong_length_changes_nothing() -> None:
    types = WordTypes(
        identity=len,
        function=lambda t: False,
        stem=lambda t: 0,
        stems_of=lambda tokens: [0] * (len(tokens) - 1),
    )
    with pytest.raises(ValueError, match="one value a token"):
        types.add(["a", "b"])
    assert len(types) == 0 and len(types.hashes) == 0


@pytest.mark.parametrize(
    ("flags", "stored"),
    [
        (b"\x01\x00\x00", b"\x01\x00\x00"),  # 0/1 bytes: kept as they are
        (b"\x02\x00\xff", b"\x01\x00\x01"),  # other bytes: 1 where true, as any sequence
        ([True, False, 7], b"\x01\x00\x01"),
    ],
)
def test_batch_function_flags_are_stored_as_0_or_1(flags: bytes | list[int], stored: bytes) -> None:
    types = WordTypes(identity=len, function=None, functions_of=lambda tokens: flags)
    types.intern(("the", "cat", "of"))
    assert bytes(types.functions) == stored
