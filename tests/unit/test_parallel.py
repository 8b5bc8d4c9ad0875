"""Ordered multi-process scoring and streamed pooling (``meteor_eval.parallel``), METEOR."""

from __future__ import annotations

import pytest

from fakes import CAT_HYPS, CAT_REFS
from meteor_eval.errors import ConfigError, InputError
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.parallel import (
    corpus_result,
    local_parts,
    resolve_jobs,
    segment_results,
    segment_rows,
)

CONFIG = MeteorConfig.preset("meteor15", modules=("exact", "stem", "synonym"), normalization="norm")

HYPS = [*CAT_HYPS, "the cat the dog"] * 7
REFS = [*CAT_REFS, ["the dog the cat"]] * 7


@pytest.fixture(scope="module")
def expected() -> list[tuple[float, tuple[int, ...], int | None]]:
    scorer = Meteor(CONFIG)
    return [
        (s.score, s.stats.to_row(), s.reference_index)
        for s in (scorer.segment_score(h, r) for h, r in zip(HYPS, REFS, strict=True))
    ]


@pytest.mark.parametrize(("jobs", "chunk_size"), [(1, 5), (2, 1), (2, 4), (3, 256)])
def test_results_in_input_order(
    expected: list[tuple[float, tuple[int, ...], int | None]], jobs: int, chunk_size: int
) -> None:
    pairs = iter(list(zip(HYPS, REFS, strict=True)))  # a one-shot iterator, as a stream is
    got = [
        (s.score, s.stats.to_row(), s.reference_index)
        for s in segment_results(Meteor(CONFIG), pairs, jobs=jobs, chunk_size=chunk_size)
    ]
    assert got == expected


def test_alignments_come_back_from_workers() -> None:
    pairs = [("the cat the dog", ["the dog the cat"])] * 3
    scores = list(segment_results(Meteor(CONFIG), pairs, jobs=2, chunk_size=1, alignment=True))
    for score in scores:
        assert score.alignment is not None
        assert [(m.ref_start, m.hyp_start) for m in score.alignment.matches] == [
            (0, 2),
            (1, 3),
            (2, 0),
            (3, 1),
        ]


def test_progress_reports_finished_counts() -> None:
    seen: list[int] = []
    pairs = list(zip(HYPS, REFS, strict=True))
    scorer = Meteor(CONFIG)
    list(segment_results(scorer, pairs, jobs=2, chunk_size=10, progress=seen.append))
    assert seen == [10, 20, 30, 40, 42]
    seen.clear()
    list(segment_results(scorer, pairs, jobs=1, chunk_size=20, progress=seen.append))
    assert seen == [20, 40, 42]


@pytest.mark.parametrize("aggregate", ["pooled", "mean"])
def test_segment_results_pool_to_combine(aggregate: str) -> None:
    scorer = Meteor(CONFIG.replace(aggregate=aggregate))
    direct = scorer.corpus_score(HYPS, REFS)
    segments = list(segment_results(scorer, zip(HYPS, REFS, strict=True)))
    assert len(segments) == len(HYPS)
    combined = scorer.combine(segments)
    rows = scorer.score_rows([s.stats.to_row() for s in segments], (len(r) for r in REFS))
    for streamed in (combined, rows):
        assert streamed.score == direct.score
        assert streamed.stats == direct.stats
        assert streamed.signature == direct.signature  # nrefs: var, as combine says


def test_empty_stream() -> None:
    scorer = Meteor(CONFIG)
    streamed, count = corpus_result(scorer, [], jobs=2)
    assert count == 0
    assert streamed.score == scorer.combine([]).score == 0.0
    assert list(segment_results(scorer, [], jobs=2)) == []


def test_invalid_options() -> None:
    with pytest.raises(ConfigError, match="jobs"):
        resolve_jobs(-1)
    with pytest.raises(ConfigError, match="chunk_size"):
        list(segment_results(Meteor(CONFIG), [], chunk_size=0))
    with pytest.raises(TypeError, match="unknown option"):
        list(segment_results(Meteor(CONFIG), [("a", ["a"])], colour=True))
    assert resolve_jobs(0) >= 1
    assert resolve_jobs(3) == 3


@pytest.mark.parametrize("aggregate", ["pooled", "mean"])
@pytest.mark.parametrize(("jobs", "chunk_size"), [(1, 256), (2, 4)])
def test_stats_stream_equals_corpus_score(aggregate: str, jobs: int, chunk_size: int) -> None:
    scorer = Meteor(CONFIG.replace(aggregate=aggregate))
    direct = scorer.corpus_score(HYPS, REFS)
    records = list(
        segment_rows(
            scorer,
            iter(list(zip(HYPS, REFS, strict=True))),
            jobs=jobs,
            chunk_size=chunk_size,
        )
    )
    assert [n for _, n in records] == [len(r) for r in REFS]
    assert [row for row, _ in records] == [
        scorer.segment_score(h, r).stats.to_row() for h, r in zip(HYPS, REFS, strict=True)
    ]
    streamed = scorer.score_rows([row for row, _ in records], (n for _, n in records))
    assert streamed.score == direct.score
    assert streamed.stats == direct.stats
    assert streamed.signature == direct.signature  # nrefs: var (one or two references)
    if aggregate == "mean":  # the mean of the segment scores, not the pooled score
        assert streamed.score != scorer.score_stats(direct.stats).score


def test_stats_stream_progress_and_empty() -> None:
    scorer = Meteor(CONFIG)
    seen: list[int] = []
    pairs = list(zip(HYPS, REFS, strict=True))
    list(segment_rows(scorer, pairs, chunk_size=20, progress=seen.append))
    assert seen == [20, 40, 42]
    assert list(segment_rows(scorer, [])) == []
    total = scorer.score_rows([], [])
    assert total.score == scorer.corpus_score([], []).score
    assert total.signature == scorer.corpus_score([], []).signature


def test_best_stats_checks_like_segment_stats() -> None:
    scorer = Meteor(CONFIG)
    with pytest.raises(TypeError, match="sequence"):
        scorer.best_stats("a b", "a b")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="at least one"):
        scorer.best_stats("a b", [])
    assert (
        scorer.best_stats("the cat", ["a dog", "the cat"])
        == scorer.segment_stats("the cat", ["a dog", "the cat"])[0]
    )


@pytest.mark.parametrize("aggregate", ["pooled", "mean"])
@pytest.mark.parametrize(("jobs", "chunk_size"), [(1, 256), (1, 3), (2, 4)])
def test_pooled_corpus_score_equals_corpus_score(
    aggregate: str, jobs: int, chunk_size: int
) -> None:
    scorer = Meteor(CONFIG.replace(aggregate=aggregate))
    # Perfect segments (their chunks are left out), empty ones and imperfect ones, mixed.
    hyps = [*HYPS, "the cat sat", "", "the cat sat"]
    refs = [*REFS, ["the cat sat"], [""], ["the cat sat"]]
    direct = scorer.corpus_score(hyps, refs)
    seen: list[int] = []
    pooled, count = corpus_result(
        scorer,
        iter(list(zip(hyps, refs, strict=True))),
        jobs=jobs,
        chunk_size=chunk_size,
        progress=seen.append,
    )
    assert count == len(hyps)
    assert pooled.score == direct.score
    assert pooled.stats == direct.stats
    assert pooled.signature == direct.signature
    assert seen[-1] == len(hyps) and seen == sorted(seen)


def test_pooled_corpus_score_of_nothing() -> None:
    scorer = Meteor(CONFIG)
    pooled, count = corpus_result(scorer, [])
    assert count == 0
    assert pooled.score == scorer.corpus_score([], []).score == 0.0
    assert pooled.signature == scorer.corpus_score([], []).signature


def test_a_comparisons_parts_are_scored_as_the_metric_reads_them() -> None:
    """``local_parts`` scores nothing itself: each system's chunks are scored as its metric
    reduces them (``Metric.system_run``), one system after the other, so memory does not grow
    with the systems; the runs equal the corpus scores."""
    from meteor_eval.systems import Systems

    seen: list[tuple[str, int]] = []
    systems = Systems.from_lists({"a": HYPS, "b": HYPS[::-1]}, REFS[:1] * len(HYPS))
    scorer = Meteor(CONFIG)
    parts = local_parts(
        systems, [scorer], progress=lambda name, _, done, __: seen.append((name, done))
    )
    assert seen == []
    first = scorer.system_run(parts["a"]["meteor"])
    assert {name for name, _ in seen} == {"a"}
    assert first.result == scorer.corpus_score(HYPS, REFS[:1] * len(HYPS))
    assert (first.rows, first.label) == (None, "1")
    scorer.system_run(parts["b"]["meteor"])
    assert seen[-1] == ("b", len(HYPS))


def test_an_empty_corpus_score_is_warned_of_at_the_callers_line() -> None:
    """However deep in the engines the empty total is found, the warning names the line that
    asked for the score (once), in one process, in workers and through ``compare``; rows and
    segment results of no segment are an empty list, without a warning."""
    import warnings

    from meteor_eval import compare
    from meteor_eval.errors import EmptyInputWarning
    from meteor_eval.metrics.bleu import Bleu
    from meteor_eval.metrics.meteor import Meteor

    bleu, meteor = Bleu(), Meteor()
    calls = {
        "one process": lambda: bleu.corpus_score([], []),
        "workers": lambda: bleu.corpus_score([], [], jobs=2, start_method="fork"),
        "segments": lambda: meteor.corpus_score([], [], segments=True),
        "segments in workers": lambda: meteor.corpus_score(
            [], [], segments=True, jobs=2, start_method="fork"
        ),
        "alignments in workers": lambda: meteor.corpus_score(
            [], [], alignments=True, jobs=2, start_method="fork"
        ),
        "compare": lambda: compare({"a": []}, [], metrics=["bleu"]),
        "segment level": lambda: compare({"a": []}, [], metrics=["bleu"], segment_level=True),
    }
    for how, call in calls.items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
        assert [(w.category, w.filename) for w in caught] == [(EmptyInputWarning, __file__)], how
    for call in (
        lambda: bleu.corpus_rows([], [], jobs=2, start_method="fork"),
        lambda: bleu.segment_scores([], [], jobs=2, start_method="fork"),
    ):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert call() == []
        assert caught == []
