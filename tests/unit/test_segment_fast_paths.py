"""The per-segment fast paths against the code they replace.

Each fast path must give exactly what the general (reference) code gives:

* ``beam_align_stages`` (the compiled aligner building its own candidate store) against
  ``beam_align_python`` on a :class:`CandidateStore` filled stage by stage;
* the paraphrase generator with the direct root table against the same generator without it;
* the one-pass word statistics of ``Meteor.pair_stats`` against ``stats_from_alignment`` plus
  ``count_chunks``;
* ``Meteor.corpus_score`` (statistics only) against pooling per-segment ``sentence_score``
  results with ``Meteor.combine``, including its errors;
* the split-and-join substitutions of the normaliser against ``re.sub`` with the templates.
"""

from __future__ import annotations

import dataclasses
import gzip
import random
from array import array
from pathlib import Path

import pytest

from meteor_eval._ext import compiled_kernels
from meteor_eval.align.alignment import count_chunks
from meteor_eval.align.search import beam_align_python, beam_align_stages
from meteor_eval.errors import InputError
from meteor_eval.match.base import CandidateStore, Match, Segment
from meteor_eval.match.paraphrase import ParaphraseMatcher
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.metrics.meteor import pipeline as pipeline_module
from meteor_eval.resources.paraphrases import open_index
from meteor_eval.stats.meteor import stats_from_alignment
from meteor_eval.text import normalize as norm
from meteor_eval.text.tokenize import java_hash

JAR_WEIGHTS = (1.0, 0.5, 0.5, 0.5)
KERNELS = compiled_kernels("align_stages", "paraphrase_root")
needs_kernels = pytest.mark.skipif(
    KERNELS is None, reason="compiled extension not built (or METEOR_EVAL_PURE_PYTHON=1)"
)


def random_stage_lists(rng: random.Random, n_hyp: int, n_ref: int) -> list[list[Match]]:
    """Candidates of four stages, each in reference order, with multi-word spans and repeats."""
    lists: list[list[Match]] = []
    for stage in range(4):
        found = []
        for _ in range(rng.randint(0, 2 * max(n_hyp, n_ref))):
            ref_len = 1 if stage < 3 else rng.randint(1, 3)
            hyp_len = 1 if stage < 3 else rng.randint(1, 3)
            if ref_len > n_ref or hyp_len > n_hyp:
                continue
            found.append(
                Match(
                    rng.randrange(n_ref - ref_len + 1),
                    ref_len,
                    rng.randrange(n_hyp - hyp_len + 1),
                    hyp_len,
                    stage,
                )
            )
        found.sort(key=lambda m: m.ref_start)  # stable: a stage's own order within a position
        lists.append(found)
    return lists


def store_of(lists: list[list[Match]], n_hyp: int, n_ref: int) -> CandidateStore:
    store = CandidateStore(n_hyp, n_ref)
    for found in lists:
        store.extend(found)
    return store


@needs_kernels
@pytest.mark.parametrize("beam", [1, 3, 40])
def test_stage_aligner_matches_python(beam: int) -> None:
    rng = random.Random(beam)
    for _ in range(400):
        n_hyp, n_ref = rng.randint(0, 18), rng.randint(0, 18)
        lists = random_stage_lists(rng, n_hyp, n_ref)
        expected = beam_align_python(store_of(lists, n_hyp, n_ref), JAR_WEIGHTS, beam=beam)
        assert beam_align_stages(lists, n_hyp, n_ref, JAR_WEIGHTS, beam=beam) == expected


@needs_kernels
def test_stage_aligner_rejects_spans_outside_the_segments() -> None:
    with pytest.raises(ValueError, match="outside"):
        beam_align_stages([[Match(0, 1, 5, 1, 0)]], 2, 2, JAR_WEIGHTS)
    with pytest.raises(ValueError, match="outside"):
        beam_align_stages([[Match(1, 2, 0, 1, 0)]], 2, 2, JAR_WEIGHTS)
    with pytest.raises(TypeError, match="Match tuples"):
        beam_align_stages([[(0, 1, 0)]], 2, 2, JAR_WEIGHTS)  # type: ignore[list-item]
    with pytest.raises(ValueError, match="beam"):
        beam_align_stages([[Match(0, 1, 0, 1, 0)]], 2, 2, JAR_WEIGHTS, beam=0)


@needs_kernels
def test_paraphrase_root_table_changes_nothing(tmp_path: Path) -> None:
    rng = random.Random(11)
    words = [f"w{k}" for k in range(9)]

    def phrase() -> str:
        return " ".join(rng.choice(words) for _ in range(rng.randint(1, 3)))

    body = "".join(f"0.1\n{phrase()}\n{phrase()}\n" for _ in range(150))
    path = tmp_path / "paraphrase-xx.gz"
    path.write_bytes(gzip.compress(body.encode("utf-8")))
    table = open_index(path, "xx", directory=tmp_path / "cache")
    arrays = table.index_arrays()
    assert KERNELS is not None
    root = KERNELS.paraphrase_root(arrays[0], arrays[1])
    lookup = array("I", root)  # native uint32, as the extension writes it
    # The node table holds (first_child, record_start) pairs: the root's children end where
    # node 1's begin, entry 2.
    children = range(arrays[0][0], arrays[0][2])
    # Every root child is found at its token; every other entry is empty.
    assert {lookup[arrays[1][node]] for node in children} == set(children)
    assert sum(1 for v in lookup if v != 0xFFFFFFFF) == len(children)
    matcher = ParaphraseMatcher(table)
    total = 0
    for _ in range(300):
        hyp = tuple(rng.choice([*words, "zz"]) for _ in range(rng.randint(0, 25)))
        ref = tuple(rng.choice([*words, "zz"]) for _ in range(rng.randint(0, 25)))
        hyp_ids, ref_ids = table.token_ids(hyp), table.token_ids(ref)
        plain = KERNELS.paraphrase(*arrays, hyp_ids, ref_ids, 3, Match)
        assert KERNELS.paraphrase(*arrays, hyp_ids, ref_ids, 3, Match, root) == plain
        hyp_seg = Segment(hyp, tuple(map(java_hash, hyp)))
        ref_seg = Segment(ref, tuple(map(java_hash, ref)))
        assert matcher.candidates(hyp_seg, ref_seg, 3) == plain
        total += len(plain)
    assert total > 1000
    with pytest.raises(ValueError, match="stale root"):
        KERNELS.paraphrase(*arrays, [0], [0], 3, Match, b"\x00\x00\x00\x00")


def test_word_statistics_match_the_reference_functions() -> None:
    rng = random.Random(7)
    for _ in range(500):
        n_hyp, n_ref = rng.randint(0, 20), rng.randint(0, 20)
        lists = random_stage_lists(rng, n_hyp, n_ref)
        chosen = beam_align_python(store_of(lists, n_hyp, n_ref), JAR_WEIGHTS, beam=5)
        hyp_fn = tuple(rng.random() < 0.4 for _ in range(n_hyp))
        ref_fn = tuple(rng.random() < 0.4 for _ in range(n_ref))
        stats, chunks = pipeline_module.word_stats(chosen, hyp_fn, ref_fn, 4)
        assert chunks == count_chunks(chosen, n_ref)
        assert stats == stats_from_alignment(chosen, chunks, hyp_fn, ref_fn, 4)
        assert pipeline_module.word_stats_python(chosen, hyp_fn, ref_fn, 4) == (stats, chunks)


@pytest.mark.skipif(compiled_kernels("word_stats") is None, reason="compiled extension not built")
def test_compiled_word_statistics_check_their_input() -> None:
    kernel = compiled_kernels("word_stats")
    assert kernel.word_stats([], (), (), 0) == (0, 0, 0, 0, 0, 0, 0)
    # Stage 2 (index 1): hyp 1 is a function word; ref 0 a function word, ref 1 content.
    head = (2, 2, 1, 1, 1, 1, 2)
    got = kernel.word_stats([Match(0, 2, 1, 1, 1)], [0, 1], (True, False), 2)
    assert got == (*head, 0, 0, 0, 0, 0, 1, 1, 1)
    with pytest.raises(ValueError, match="outside"):
        kernel.word_stats([Match(0, 1, 2, 1, 0)], (False, False), (False,), 1)
    with pytest.raises(IndexError, match="stage"):
        kernel.word_stats([Match(0, 1, 0, 1, 1)], (False,), (False,), 1)
    with pytest.raises(TypeError, match="Match"):
        kernel.word_stats([(0, 1, 0)], (False,), (False,), 1)


HYPS = [
    "The cat sat on the mat.",
    "a quick brown fox jumps over the lazy dog",
    "",
    "It's 5 p.m. -- time to go, isn't it?",
    "the the the cat",
]
REFS = [
    ["The cat is sitting on the mat."],
    ["The quick brown fox jumped over a lazy dog.", "a fast brown fox leaps over the dog"],
    ["nothing here"],
    ["It is five o'clock, time to leave."],
    ["the cat", "a cat", "the cats"],
]


@pytest.mark.parametrize(
    "config",
    [
        MeteorConfig.preset("meteor15", normalization="norm", modules=("exact", "stem", "synonym")),
        MeteorConfig.preset("meteor15", normalization="lower", modules=("exact",), beam=2),
        MeteorConfig.preset("meteor15", modules=("exact", "stem"), characters=True),
        MeteorConfig.preset("meteor15", modules=("exact",), aggregate="mean"),
        MeteorConfig.preset("paper2005"),
        MeteorConfig.preset("nltk", modules=("exact", "stem")),
    ],
    ids=["norm", "lower-beam2", "characters", "mean", "paper2005", "nltk"],
)
def test_corpus_score_equals_pooled_sentence_scores(config: MeteorConfig) -> None:
    scorer = Meteor(config)
    for hyps, refs in ((HYPS, REFS), (HYPS[:1], REFS[:1]), ([], [])):
        fast = scorer.corpus_score(hyps, refs)
        slow = scorer.combine([scorer.segment_score(h, r) for h, r in zip(hyps, refs, strict=True)])
        assert fast == slow
        assert str(fast.signature) == str(slow.signature)
        assert fast.score == slow.score  # bit for bit (== on floats, not approx)


def test_corpus_score_reports_the_same_errors() -> None:
    scorer = Meteor(MeteorConfig.preset("meteor15", modules=("exact",)))
    with pytest.raises(InputError, match="at least one reference"):
        scorer.corpus_score(["a"], [[]])
    with pytest.raises(TypeError, match=r"references\[1\]: expected a str, got int"):
        scorer.corpus_score(["a"], [["b", 3]])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="hypothesis: expected a str, got int"):
        scorer.corpus_score([1], [["b"]])  # type: ignore[list-item]


@pytest.mark.parametrize("seed", range(4))
def test_split_join_substitutions_equal_re_sub(seed: int) -> None:
    rng = random.Random(seed)
    alphabet = "ab1,'-. \u00e9\u03a3x9`"
    two_groups = [
        (norm._COMMA_RES[0], " , "),
        (norm._COMMA_RES[1], " , "),
        (norm._COMMA_RES[2], " , "),
        (norm._INTRA_WORD_DASH_RE, " "),
        *norm._EN_APOSTROPHE_RULES,
        *norm._FR_APOSTROPHE_RULES,
    ]
    for _ in range(2000):
        line = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        assert norm._sub_spaced(norm._SEP_OTHER_RE, line) == norm._SEP_OTHER_RE.sub(r" \1 ", line)
        for pattern, middle in two_groups:
            expected = pattern.sub(rf"\1{middle}\2", line)  # the jar's template form
            assert norm._sub_pair(pattern, middle, line) == expected


def test_sentence_score_without_alignment_equals_the_aligned_one() -> None:
    scorer = Meteor(MeteorConfig.preset("meteor15", normalization="norm", modules=("exact",)))
    for hyp, refs in zip(HYPS, REFS, strict=True):
        plain = scorer.segment_score(hyp, refs)
        aligned = scorer.segment_score(hyp, refs, alignment=True)
        assert plain.alignment is None
        assert aligned.alignment is not None
        assert plain == dataclasses.replace(aligned, alignment=None)
        stats, k, _ = scorer.segment_stats(hyp, refs)
        assert (plain.stats, plain.reference_index) == (stats, k)
    with pytest.raises(TypeError, match="got a str"):
        scorer.segment_score("a", "b")
    with pytest.raises(InputError, match="at least one reference"):
        scorer.segment_score("a", [])
