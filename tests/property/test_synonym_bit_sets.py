"""The synonym stage's bit sets (``sets_bits`` in ``_ext/candidates.c``) against the twins.

For a hypothesis of at most 256 words the compiled synonym generator keeps, for every value of
the hypothesis's synonym sets, the bit set of the positions having it (one 64-bit word up to 64
words, several above), and ORs a reference word's bit sets; longer hypotheses take the chains of
positions. Both must give the pure-Python matcher's candidates in its order, around each size
boundary, and the table reused from pair to pair by the pair kernel must leave no value of one
pair behind for the next (the batch's rows against the general path's, pair by pair).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meteor_eval import _ext
from meteor_eval.match import synonym as synonym_module
from meteor_eval.match.base import Segment
from meteor_eval.match.synonym import SynonymMatcher
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.metrics.meteor import fast as fast_module
from meteor_eval.text.tokenize import java_hash_python

KERNELS = _ext.built_module()
pytestmark = pytest.mark.skipif(KERNELS is None, reason="compiled extension not built")

# Hypothesis lengths on either side of the generator's boundaries (one word of bits, several,
# the chains of positions).
BOUNDARIES = [0, 1, 2, 63, 64, 65, 127, 128, 129, 255, 256, 257, 300]
VALUES = st.one_of(st.integers(0, 12), st.integers(-(2**63), 2**63 - 1))


def _segment(words: list[str]) -> Segment:
    return Segment(tuple(words), tuple(java_hash_python(w) for w in words))


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.one_of(st.sampled_from(BOUNDARIES), st.integers(0, 300)),
    st.integers(0, 80),
    st.lists(st.frozensets(VALUES, max_size=6), min_size=1, max_size=12),
    st.randoms(use_true_random=False),
)
def test_sets_intersect_around_the_bit_set_sizes(
    n_hyp: int, n_ref: int, sets: list[frozenset[int]], rnd: random.Random
) -> None:
    """Candidates of hypotheses of every length up to 300 words equal the Python matcher's."""
    vocab = [f"w{k}" for k in range(len(sets) + 2)]  # two words without a set of their own
    table = {word: sets[k % len(sets)] for k, word in enumerate(vocab[: len(sets)])}
    matcher = SynonymMatcher(lambda word: table.get(word, frozenset()))
    hyp = _segment([rnd.choice(vocab) for _ in range(n_hyp)])
    ref = _segment([rnd.choice(vocab) for _ in range(n_ref)])
    found = matcher.candidates(hyp, ref, 2)
    assert found == matcher.candidates_python(hyp, ref, 2)


WORDS = (
    "big large great huge vast car auto automobile machine motor house home dwelling run go "
    "move travel walk quick fast rapid swift speedy small little tiny minor child kid youngster "
    "begin start commence initiate end finish close stop cease buy purchase get obtain acquire "
    "say tell state speak talk the a of and to in on at city town government state nation"
).split()


@pytest.fixture(scope="module")
def synonym_scorers() -> tuple[Meteor, Meteor]:
    """(batch path through the pair kernel, general path) with the synonym stage alone; the
    general path's synonym candidates come from the pure-Python matcher (see the test)."""
    config = MeteorConfig.preset("meteor15", normalization="lower", modules=("synonym",))
    with pytest.MonkeyPatch.context() as patch:
        fused = Meteor(config)
        patch.setattr(fast_module, "_PAIR_KERNEL", None)
        general = Meteor(config)
    return fused, general


def test_one_batch_of_many_lengths_equals_the_general_path(
    synonym_scorers: tuple[Meteor, Meteor], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pairs of 1 to 300 words, long and short in turn, scored in one batch (one table for
    all of them) give the rows of the general path with the pure-Python synonym matcher, pair
    by pair."""
    fused, general = synonym_scorers
    rnd = random.Random(12)
    lengths = [1, 300, 3, 64, 65, 2, 257, 256, 5, 129, 40, 1, 200, 63, 8, 128, 20]
    lengths += [rnd.randint(1, 300) for _ in range(40)]
    hyps = [" ".join(rnd.choice(WORDS) for _ in range(n)) for n in lengths]
    refs = [[" ".join(rnd.choice(WORDS) for _ in range(rnd.randint(1, 90)))] for _ in lengths]
    rows = fused.corpus_rows(hyps, refs)
    monkeypatch.setattr(synonym_module, "_KERNELS", None)
    expected = [general.segment_score(h, r).stats.to_row() for h, r in zip(hyps, refs, strict=True)]
    assert [tuple(row) for row in rows] == [tuple(row) for row in expected]
    assert sum(row[0] for row in rows) > 0  # the synonyms matched something
