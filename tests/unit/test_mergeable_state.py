"""``MergeableMetric.from_state_dict`` refuses damaged states (issue #28): one validator, each
damage named by its key, never a number computed from it."""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from meteor_eval import BleuMetric, MeteorMetric, RougeMetric
from meteor_eval.errors import ConfigError, InputError
from meteor_eval.mergeable import MergeableMetric

HYPS = ["the cat sat on the mat", "a dog ran", "hello world", "one two three four"]
REFS = [["the cat sat on a mat"], ["the dog ran off"], ["hello there world"], ["one two four"]]


def _state(cls: type[MergeableMetric], **options: Any) -> dict[str, Any]:
    metric = cls(**options)
    metric.update(HYPS, REFS)
    return json.loads(json.dumps(metric.state_dict()))  # as stored


def _refused(cls: type[MergeableMetric], state: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError, match=message):
        cls.from_state_dict(state)


def test_round_trip_of_every_family_is_exact() -> None:
    for cls, options in (
        (BleuMetric, {}),
        (RougeMetric, {}),
        (RougeMetric, {"types": ("rougeW", "rougeLsum"), "aggregate": "pooled"}),
        (RougeMetric, {"n_bootstrap": 50}),
        (MeteorMetric, {"modules": ("exact",)}),
        (MeteorMetric, {"modules": ("exact",), "aggregate": "mean"}),
    ):
        original = cls(**options)
        original.update(HYPS, REFS)
        again = cls.from_state_dict(json.loads(json.dumps(original.state_dict())))
        assert again.compute() == original.compute() and again.count == len(HYPS)


def test_rows_missing_for_the_count_are_refused() -> None:
    # the example: ROUGE with no rows computed 0.0 while reporting the segments (the
    # rows are kept for a bootstrap interval; otherwise the exact sums are the state)
    state = _state(RougeMetric, n_bootstrap=50)
    state["rows"] = []
    _refused(RougeMetric, state, r"state\['rows'\]: 0 rows for a count of 4")
    del state["rows"]
    _refused(RougeMetric, state, r"missing key\(s\) 'rows'")


def test_rouge_state_without_sums_or_rows_is_refused() -> None:
    state = _state(RougeMetric)
    assert "rows" not in state
    del state["sums"]
    _refused(RougeMetric, state, r"missing key\(s\) 'sums'")


def test_rouge_state_of_rows_without_sums_is_read_as_their_exact_sums() -> None:
    # states of ROUGE's mean written before its sums were exact kept every row
    metric = RougeMetric(types=("rouge1", "rougeW"))
    metric.update(HYPS, REFS)
    state = json.loads(json.dumps(metric.state_dict()))
    del state["sums"]
    state["rows"] = [
        list(row) for row in metric.metric.segment_rows(list(zip(HYPS, REFS, strict=True)))
    ]
    again = RougeMetric.from_state_dict(state)
    assert again.compute() == metric.compute()
    assert again.state_dict() == metric.state_dict()  # no rows kept: the sums are the state


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda s: s["total"].__setitem__(3, s["total"][3] * (1 + 2**-52)), r"not the rounded"),
        (lambda s: s["sums"][3].append(0.5), r"not the rounded sums of state\['sums'\]"),
        (lambda s: s["sums"][3].__setitem__(0, "x"), r"state\['sums'\]\[3\]\[0\]: 'x'"),
        (lambda s: s["sums"][3].append(float("inf")), r"\[3\]\[\d\]: inf is not a finite"),
        (lambda s: s.update(sums=s["sums"][:-1]), r"state\['sums'\]: 6 columns"),
        (lambda s: s.update(sums=3), r"state\['sums'\]: expected a list of lists"),
        (lambda s: s["sums"].__setitem__(0, [1.0] * 65), r"at most 64 numbers"),
        (lambda s: s.update(sums=[[1e308] * 2] * 7), r"state\['sums'\]: column 0: .*range"),
    ],
)
def test_damaged_rouge_sums_are_refused(
    damage: Callable[[dict[str, Any]], None], message: str
) -> None:
    state = _state(RougeMetric, types=("rouge1",))
    damage(state)
    _refused(RougeMetric, state, message)


def test_sums_that_are_not_those_of_the_rows_are_refused() -> None:
    state = _state(RougeMetric, types=("rouge1",), n_bootstrap=50)
    state["sums"][3].append(2**-60)  # below the rounding of the total: only the sums see it
    _refused(RougeMetric, state, r"state\['sums'\]: not the exact sums of state\['rows'\]")


def test_sums_of_a_metric_without_exact_sums_are_refused() -> None:
    state = _state(BleuMetric)
    state["sums"] = [[0.0]] * 10
    _refused(BleuMetric, state, r"state\['sums'\]: bleu totals are not exact sums")


def test_fractional_bleu_counts_are_refused_not_truncated() -> None:
    state = _state(BleuMetric)
    state["total"][2] += 0.5
    _refused(BleuMetric, state, r"state\['total'\]\[2\]: .* is not a whole number")


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda s: s.update(count=-1), r"state\['count'\]: -1"),
        (lambda s: s.update(count=True), r"state\['count'\]: True"),
        (lambda s: s.update(count=2.0), r"state\['count'\]: 2.0"),
        (lambda s: s.update(nrefs=[]), r"state\['nrefs'\]: \[\] for 4 segment"),
        (lambda s: s.update(nrefs=[0]), r"state\['nrefs'\]"),
        (lambda s: s.update(total=s["total"][:-1]), r"state\['total'\]: 9 numbers"),
        (lambda s: s.update(total="12"), r"state\['total'\]: expected a list"),
        (lambda s: s["total"].__setitem__(0, float("nan")), r"not a finite number"),
        (lambda s: s["total"].__setitem__(0, -5), r"impossible statistics: a negative count"),
        (lambda s: s["total"].__setitem__(2, 999), r"counts_1 \(999\) above totals_1"),
        (lambda s: s.update(extra=1), r"unknown key\(s\) 'extra'"),
        (lambda s: s.update(count=0), r"nrefs"),
    ],
)
def test_damaged_bleu_states_are_refused(
    damage: Callable[[dict[str, Any]], None], message: str
) -> None:
    state = _state(BleuMetric)
    damage(state)
    _refused(BleuMetric, state, message)


def test_rouge_total_that_is_not_the_sum_of_its_rows_is_refused() -> None:
    state = _state(RougeMetric, n_bootstrap=50)
    state["total"][0] += 1.0
    _refused(RougeMetric, state, r"state\['total'\]: not the sum of state\['rows'\]")


def test_rouge_row_of_the_wrong_width_is_refused() -> None:
    state = _state(RougeMetric, n_bootstrap=50)
    state["rows"][1] = state["rows"][1][:3]
    _refused(RougeMetric, state, r"state\['rows'\]\[1\]: 3 numbers")


def test_impossible_meteor_total_is_refused() -> None:
    state = _state(MeteorMetric, modules=("exact",))
    state["total"][20] = state["total"][21] + 5  # more chunks than matched words
    _refused(MeteorMetric, state, "more chunks than matched words")


def test_meteor_mean_state_with_fractional_row_is_refused() -> None:
    state = _state(MeteorMetric, modules=("exact",), aggregate="mean")
    bad = copy.deepcopy(state)
    bad["rows"][0][0] = 6.5
    _refused(MeteorMetric, bad, r"state\['rows'\]\[0\]\[0\]: 6.5 is not a whole number")


def test_wrong_metric_and_format_are_configuration_errors() -> None:
    state = _state(BleuMetric)
    with pytest.raises(ConfigError, match="a bleu state cannot become a RougeMetric"):
        RougeMetric.from_state_dict(state)
    with pytest.raises(ConfigError, match="unknown metric 'chrf'"):
        MergeableMetric.from_state_dict({**state, "metric": "chrf"})
    with pytest.raises(ConfigError, match="state format 2"):
        BleuMetric.from_state_dict({**state, "format": 2})
    with pytest.raises(TypeError, match="expected a mapping"):
        BleuMetric.from_state_dict([1, 2])  # type: ignore[arg-type]


def test_empty_state_round_trips() -> None:
    empty = BleuMetric()
    again = BleuMetric.from_state_dict(empty.state_dict())
    assert again.count == 0 and again.compute() == empty.compute()


@pytest.mark.parametrize(
    ("cls", "options"),
    [
        (BleuMetric, {}),
        (RougeMetric, {"types": ("rouge1", "rougeW")}),
        (RougeMetric, {"n_bootstrap": 50}),
        (MeteorMetric, {"modules": ("exact",)}),
        (MeteorMetric, {"modules": ("exact",), "aggregate": "mean"}),
    ],
)
def test_state_is_the_protocols_running_total(
    cls: type[MergeableMetric], options: dict[str, Any]
) -> None:
    # one model of a metric: the object accumulates the protocol's own Total, so its merged
    # halves (and their pickled copy) hold what the protocol's total of every row holds
    first, second = cls(**options), cls(**options)
    first.update(HYPS[:1], REFS[:1])
    second.update(HYPS[1:], REFS[1:])
    merged = pickle.loads(pickle.dumps(first + second))
    metric = merged.metric
    whole = metric.total_of(metric.segment_rows(list(zip(HYPS, REFS, strict=True))), [1])
    state = merged.state_dict()
    assert (state["total"], state["count"], state["nrefs"]) == (list(whole.row), 4, [1])
    assert state.get("rows") == (None if whole.rows is None else [list(r) for r in whole.rows])
    if whole.sums is not None:
        assert state["sums"] == [whole.sums.partials(k) for k in range(whole.sums.width)]
    assert merged.compute() == metric.result(whole)
    merged.reset()
    assert merged.count == 0 and merged.state_dict() == cls(**options).state_dict()
