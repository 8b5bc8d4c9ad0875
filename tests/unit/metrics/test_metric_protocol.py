"""The metric protocol, exercised through a toy metric written here.

``Toy`` scores unigram precision: a segment's row is ``(matched words, hypothesis words)``, a
word matching when it occurs in any reference. Everything but those four answers (statistics,
score, values, signature) comes from :class:`meteor_eval.metrics.protocol.Metric`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meteor_eval.errors import InputError
from meteor_eval.metrics.base import Signature, SignatureField
from meteor_eval.metrics.protocol import Metric, Pair, Parts, Row, Total, nrefs_label
from meteor_eval.stats.exactsum import ExactSum


@dataclass(frozen=True)
class ToyConfig:
    lowercase: bool = False


@dataclass(frozen=True)
class ToyScore:
    value: float
    nrefs: str
    rows: tuple[Row, ...] | None


class Toy(Metric[ToyScore]):
    name: ClassVar[str] = "toy"
    config_class = ToyConfig

    def __init__(self, config: ToyConfig | None = None) -> None:
        super().__init__(config)
        self.scored: list[Row] = []

    @property
    def columns(self) -> tuple[str, ...]:
        return ("matched", "length")

    def segment_rows(self, pairs: Sequence[Pair]) -> list[Row]:
        rows: list[Row] = []
        for hypothesis, references in pairs:
            words = hypothesis.split()
            known = {w for r in references for w in r.split()}
            rows.append((sum(w in known for w in words), len(words)))
        return rows

    def score_total(
        self, total: Row, *, nrefs: str = "1", rows: Sequence[Row] | None = None
    ) -> ToyScore:
        self.scored.append(total)
        matched, length = total
        value = matched / length if length else 0.0
        return ToyScore(value, nrefs, None if rows is None else tuple(rows))

    def values(self, score: ToyScore) -> dict[str, float]:
        return {"toy": score.value}

    def signature(self, nrefs: str = "1", /) -> Signature:
        return Signature("toy", (SignatureField("nrefs", "nr", nrefs),))


class KeepingToy(Toy):
    """A toy whose corpus score needs every row (as a mean of segment scores would)."""

    def keeps_rows(self) -> bool:
        return True


class SquaringToy(Toy):
    """A toy with its own merge rule: each row adds its squares."""

    def merge(self, total: Row, row: Row) -> Row:
        return tuple(a + b * b for a, b in zip(total, row, strict=True))


HYPS = ["the cat sat", "a dog", "x"]
REFS = [["the cat"], ["a dog", "dogs"], ["y"]]
PAIRS = list(zip(HYPS, REFS, strict=True))


class TestDefaults:
    def test_class_attributes_and_zero(self) -> None:
        toy = Toy()
        assert (toy.exact, toy.score_fields, toy.keeps_rows()) == (True, frozenset(), False)
        assert toy.zero() == (0, 0)
        assert Toy.config_type() is ToyConfig
        assert toy.config == ToyConfig()
        with pytest.raises(TypeError):
            Toy(object())  # type: ignore[arg-type]

    def test_the_abstract_methods_must_be_written(self) -> None:
        class Partial(Metric[float]):  # no statistics, score, values or signature
            def __init__(self, config: Any = None) -> None:
                pass

        with pytest.raises(TypeError, match="abstract"):
            Partial()  # type: ignore[abstract]

    def test_merge_and_merge_totals_are_sums(self) -> None:
        toy = Toy()
        assert toy.merge((1, 2), (3, 4)) == (4, 6)
        assert toy.merge_totals((1, 2), (3, 4)) == (4, 6)
        with pytest.raises(ValueError, match="zip"):
            toy.merge((1, 2), (3,))


class TestScores:
    def test_corpus_score_is_the_score_of_the_merged_rows(self) -> None:
        toy = Toy()
        score = toy.corpus_score(HYPS, REFS)
        # rows (2, 3), (2, 2), (0, 1): 4 of 6 words.
        assert toy.scored == [(4, 6)]
        assert score == ToyScore(4 / 6, "var", None)

    def test_sentence_score_is_the_score_of_its_row(self) -> None:
        assert Toy().segment_score("a dog", ["a dog", "dogs"]) == ToyScore(1.0, "2", None)

    def test_sentence_scores_each_on_its_own(self) -> None:
        scores = Toy().segment_scores(HYPS, REFS)
        assert [s.value for s in scores] == [2 / 3, 1.0, 0.0]
        assert [s.nrefs for s in scores] == ["1", "2", "1"]

    def test_segment_results_per_pair(self) -> None:
        results = Toy().segment_results(list(zip(HYPS, REFS, strict=True)))
        assert [r.value for r in results] == [2 / 3, 1.0, 0.0]

    def test_segment_results_rejects_unknown_options(self) -> None:
        with pytest.raises(TypeError, match=r"^toy: unknown option\(s\) alignment, beam$"):
            Toy().segment_results([("a", ["a"])], beam=3, alignment=True)

    def test_score_rows_reads_stored_rows(self) -> None:
        assert Toy().score_rows([(1, 2), (1, 2)], [2, 2]) == ToyScore(0.5, "2", None)

    def test_keeping_metric_gets_every_row_in_order(self) -> None:
        score = KeepingToy().corpus_score(HYPS, REFS)
        assert score.rows == ((2, 3), (2, 2), (0, 1))

    def test_report_defaults_to_the_values(self) -> None:
        toy = Toy()
        assert toy.report(ToyScore(0.5, "1", None)) == {"toy": {"score": 0.5}}


class TestInputChecks:
    def test_sentence_score_checks_its_input(self) -> None:
        toy = Toy()
        with pytest.raises(TypeError, match="hypothesis 0: expected a string"):
            toy.segment_score(["a"], ["a"])  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="a bare string"):
            toy.segment_score("a", "a")
        with pytest.raises(InputError, match="segment 0 has no reference"):
            toy.segment_score("a", [])
        assert toy.scored == []

    def test_corpus_score_checks_every_segment_before_scoring(self) -> None:
        toy = Toy()
        with pytest.raises(InputError, match="2 hypotheses but 1 reference groups"):
            toy.corpus_score(["a", "b"], [["a"]])
        with pytest.raises(InputError, match="segment 1 has no reference"):
            toy.corpus_score(["a", "b"], [["a"], []])
        with pytest.raises(TypeError, match="hypotheses: expected a sequence"):
            toy.corpus_score("a", [["a"]])
        assert toy.scored == []


class TestTotals:
    def test_pooled_rows_records_counts_and_reference_numbers(self) -> None:
        total = Toy().pooled_rows(list(zip(HYPS, REFS, strict=True)))
        assert (total.row, total.count, total.nrefs, total.rows) == ((4, 6), 3, {1, 2}, None)

    def test_result_uses_the_nrefs_label(self) -> None:
        toy = Toy()
        total = toy.total_of([(1, 1), (0, 1)], [2, 2])
        assert toy.result(total) == ToyScore(0.5, "2", None)

    def test_merge_total_in_order(self) -> None:
        toy = KeepingToy()
        first = toy.total_of([(1, 1)], [1])
        second = toy.total_of([(0, 2), (1, 1)], [3])
        first.merge_total(toy, second)
        assert first.row == (2, 4)
        assert first.count == 3
        assert first.nrefs == {1, 3}
        assert first.rows == [(1, 1), (0, 2), (1, 1)]

    def test_merge_total_without_rows_into_one_that_keeps_them(self) -> None:
        keeping = Total((0, 0), keep_rows=True)
        plain = Total((1, 1), keep_rows=False)
        with pytest.raises(ValueError, match="cannot merge a total without rows"):
            keeping.merge_total(Toy(), plain)
        plain.merge_total(Toy(), Total((2, 2), keep_rows=True))  # rows dropped: fine
        assert plain.row == (3, 3)

    def test_restored_total_holds_its_parts(self) -> None:
        toy = KeepingToy()
        total = Total.restored((2, 4), count=3, nrefs={1, 3}, rows=[(1, 1), (1, 3)], sums=None)
        assert (total.row, total.count, total.nrefs, total.rows) == (
            (2, 4),
            3,
            {1, 3},
            [(1, 1), (1, 3)],
        )
        total.merge_total(toy, toy.total_of([(0, 1)], [2]))
        assert (total.row, total.count, total.nrefs) == ((2, 5), 4, {1, 2, 3})

    def test_restored_total_of_exact_sums_rounds_them(self) -> None:
        sums = ExactSum(2)
        sums.add_rows([(0.1, 1.0), (0.2, 2.0)])
        total = Total.restored((0.0, 0.0), count=2, nrefs={1}, rows=None, sums=sums)
        assert total.row == (math.fsum([0.1, 0.2]), 3.0)
        with pytest.raises(AttributeError, match="exact sums"):
            total.row = (1.0, 1.0)

    def test_add_rows_uses_the_metrics_merge(self) -> None:
        toy = SquaringToy()
        total = toy.new_total()
        toy.add_rows(total, [(1, 2), (3, 1)])
        assert (total.row, total.count) == ((10, 5), 2)

    @given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=10), st.data())
    def test_totals_of_consecutive_parts_merge_to_the_whole(
        self, rows: list[Row], data: st.DataObject
    ) -> None:
        toy = KeepingToy()
        cut = data.draw(st.integers(0, len(rows)))
        whole = toy.total_of(rows, [1] * len(rows))
        head = toy.total_of(rows[:cut], [1] * cut)
        head.merge_total(toy, toy.total_of(rows[cut:], [1] * (len(rows) - cut)))
        assert (head.row, head.count, head.rows) == (whole.row, whole.count, whole.rows)


class TestSystemRun:
    """One system's run made of what an engine computed (``Metric.system_run``)."""

    def test_chunk_totals_merge_in_order_and_score_as_the_corpus(self) -> None:
        toy = Toy()
        chunks = iter([toy.chunk_total(PAIRS[:2]), toy.chunk_total(PAIRS[2:])])
        run = toy.system_run(Parts(chunks), segment_level=True)
        assert run.result == toy.corpus_score(HYPS, REFS) == ToyScore(4 / 6, "var", None)
        assert (run.rows, run.nrefs, run.segments, run.label) == (None, None, None, "var")

    def test_float_chunks_are_folded_row_by_row(self) -> None:
        class FloatToy(SquaringToy):
            exact: ClassVar[bool] = False

        toy = FloatToy()
        chunks = [toy.chunk_total(PAIRS[:1]), toy.chunk_total(PAIRS[1:])]
        assert toy.system_run(Parts(chunks)).result == toy.corpus_score(HYPS, REFS)

    def test_segments_keep_their_rows_and_give_segment_results(self) -> None:
        toy = Toy()
        segments = [
            (row, len(refs), None)
            for row, (_, refs) in zip(toy.segment_rows(PAIRS), PAIRS, strict=True)
        ]
        run = toy.system_run(Parts(segments=iter(segments)), segment_level=True)
        assert run.result == ToyScore(4 / 6, "var", None)
        assert (run.rows, run.nrefs, run.label) == ([(2, 3), (2, 2), (0, 1)], [1, 2, 1], "var")
        assert run.segments == toy.segment_scores(HYPS, REFS)
        assert toy.system_run(Parts(segments=segments)).segments is None

    def test_results_made_by_the_engine_are_kept(self) -> None:
        made = [("first", 1), ("second", 1)]
        segments = [((1, 1), 1, made[0]), ((0, 1), 1, made[1])]
        run = Toy().system_run(Parts(segments=segments, made=True))
        assert run.segments == made
        assert Toy().system_run(Parts(segments=[], made=True)).segments == []

    def test_a_given_label_is_the_one_scored_and_recorded(self) -> None:
        run = Toy().system_run(Parts(segments=[((1, 2), 0, None)], nrefs="var"))
        assert (run.result, run.label, run.nrefs) == (ToyScore(0.5, "var", None), "var", [0])


@given(st.lists(st.integers(1, 4), max_size=6))
def test_nrefs_label(counts: list[int]) -> None:
    label = nrefs_label(counts)
    if counts and len(set(counts)) == 1:
        assert label == str(counts[0])
    else:
        assert label == "var"


@pytest.fixture
def np() -> Any:
    """NumPy (resampling needs it; it is a test dependency through the oracle group)."""
    return pytest.importorskip("numpy")


class TestResampling:
    def test_sample_matrix_defaults_to_the_rows_as_merged(self, np: Any) -> None:
        matrix = Toy().sample_matrix([(1, 2), (0, 3)])
        assert matrix.dtype == np.float64
        assert matrix.tolist() == [[1.0, 2.0], [0.0, 3.0]]
        squared = SquaringToy().sample_matrix([(1, 2), (0, 3)])
        assert squared.tolist() == [[1.0, 4.0], [0.0, 9.0]]
        assert Toy().sample_matrix([]).shape == (0, 2)

    def test_sample_values_scores_each_total(self, np: Any) -> None:
        toy = Toy()
        values = toy.sample_values(np.array([[1.0, 2.0], [3.0, 3.0]]))
        assert list(values) == ["toy"]
        assert values["toy"].tolist() == [0.5, 1.0]
        assert toy.scored == [(1, 2), (3, 3)]
        assert all(isinstance(x, int) for row in toy.scored for x in row)  # exact: ints again

    def test_sample_values_of_no_sample(self, np: Any) -> None:
        assert Toy().sample_values(np.zeros((0, 2))) == {}

    def test_inexact_metrics_keep_floats(self, np: Any) -> None:
        class Floating(Toy):
            exact: ClassVar[bool] = False

        toy = Floating()
        toy.sample_values(np.array([[1.0, 2.0]]))
        assert all(isinstance(x, float) for x in toy.scored[0])
        exact = Toy()
        exact.sample_values(np.array([[math.inf, 2.0]]))
        assert exact.scored[0][0] == math.inf  # not turned into an int


class FloatToy(Toy):
    """A toy of float statistics without exact sums: totals of parts are not its fold."""

    exact = False

    def segment_rows(self, pairs: Sequence[Pair]) -> list[Row]:
        return [(float(hypothesis), 1.0) for hypothesis, _ in pairs]


def test_mergeable_metric_of_float_rows_folds_them_in_input_order() -> None:
    from meteor_eval.mergeable import MergeableMetric

    first, second = MergeableMetric(FloatToy()), MergeableMetric(FloatToy())
    first.update(["0.1"], [["r"]])
    second.update(["0.2", "0.3"], [["r"], ["r"]])
    first.merge(second)
    assert first.count == 3
    assert first.compute().value == ((0.1 + 0.2) + 0.3) / 3  # the corpus score's fold
    assert ((0.1 + 0.2) + 0.3) / 3 != (0.1 + (0.2 + 0.3)) / 3  # not the merged parts' sum
