"""Mergeable metric objects: any split of the data into updates, merges and state round trips
gives ``corpus_score`` of all of it, bit for bit, for METEOR in its three flavours, BLEU and
ROUGE."""

from __future__ import annotations

import itertools
import json
import pickle
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval import BleuMetric, MeteorMetric, RougeMetric
from meteor_eval.errors import ConfigError, InputError
from meteor_eval.mergeable import MergeableMetric

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "meteor15"
N = 40

FACTORIES: dict[str, Any] = {
    "meteor15": lambda: MeteorMetric(normalization="norm", modules=("exact", "stem")),
    "meteor15-mean": lambda: MeteorMetric(modules=("exact",), aggregate="mean"),
    "paper2005": lambda: MeteorMetric(flavour="paper2005", modules=("exact", "stem")),
    "nltk": lambda: MeteorMetric(flavour="nltk"),
    "bleu": lambda: BleuMetric(),
    "rouge": lambda: RougeMetric(types=("rouge1", "rougeL", "rougeSU")),
    # the bootstrap keeps the rows in input order (its resamples draw segments by position)
    "rouge-bootstrap": lambda: RougeMetric(types=("rouge1", "rougeW"), n_bootstrap=40),
}


@cache
def _data() -> tuple[list[str], list[list[str]]]:
    if DATA.is_dir():
        hyps = (DATA / "xray-system1.hyp").read_text(encoding="utf-8").splitlines()[:N]
        refs = (DATA / "xray-reference").read_text(encoding="utf-8").splitlines()[:N]
        other = (DATA / "xray-system2.hyp").read_text(encoding="utf-8").splitlines()[:N]
        # a varying number of references: every third segment has two
        groups = [
            [r, o] if k % 3 == 0 else [r] for k, (r, o) in enumerate(zip(refs, other, strict=True))
        ]
        return hyps, groups
    hyps = [f"the cat number {k} sat on a mat" for k in range(N)]
    return hyps, [[f"a cat {k} sat on the mat"] for k in range(N)]


def _combine(parts: list[MergeableMetric], shape: list[int], via_state: list[bool]) -> Any:
    """Merge ``parts`` (in order) in a tree chosen by ``shape``, some through a state round
    trip (JSON or pickle)."""
    items = list(parts)
    k = 0
    while len(items) > 1:
        i = shape[k % len(shape)] % (len(items) - 1)
        left, right = items[i], items[i + 1]
        if via_state[k % len(via_state)]:
            right = type(right).from_state_dict(json.loads(json.dumps(right.state_dict())))
            left = pickle.loads(pickle.dumps(left))
        items[i : i + 2] = [left + right if k % 2 else left.merge(right)]
        k += 1
    return items[0]


@pytest.mark.parametrize("name", list(FACTORIES))
@settings(max_examples=12, deadline=None)
@given(
    cuts=st.lists(st.integers(0, N), max_size=6),
    shape=st.lists(st.integers(0, 10), min_size=1, max_size=6),
    via_state=st.lists(st.booleans(), min_size=1, max_size=4),
)
def test_any_split_equals_the_corpus_score(
    name: str, cuts: list[int], shape: list[int], via_state: list[bool]
) -> None:
    hyps, refs = _data()
    whole = FACTORIES[name]()
    expected = whole.metric.corpus_score(hyps, refs)
    bounds = [0, *sorted(cuts), N]
    parts = []
    for start, end in itertools.pairwise(bounds):
        part = FACTORIES[name]()
        if end > start:
            part.update(hyps[start:end], refs[start:end])
        parts.append(part)
    merged = _combine(parts, shape, via_state)
    assert merged.count == N
    assert merged.compute() == expected


def test_objects_of_one_configuration_share_one_scorer() -> None:
    assert MeteorMetric(modules=("exact",)).metric is MeteorMetric(modules=("exact",)).metric
    assert BleuMetric().metric is not BleuMetric(tokenize="char").metric


def test_state_is_small_and_json_ready() -> None:
    hyps, refs = _data()
    bleu = BleuMetric()
    bleu.update(hyps, refs)
    state = bleu.state_dict()
    assert "rows" not in state  # integer sums: the total is the state
    assert state["count"] == N and len(state["total"]) == 10
    assert json.loads(json.dumps(state)) == state
    # float statistics as exact sums: no rows, a few doubles per column, whatever the count
    few, many = RougeMetric(types=("rouge1", "rougeW")), RougeMetric(types=("rouge1", "rougeW"))
    few.update(hyps[:3], refs[:3])
    many.update(hyps, refs)
    for rouge in (few, many):
        rouge_state = rouge.state_dict()
        assert "rows" not in rouge_state
        assert json.loads(json.dumps(rouge_state))["sums"] == rouge_state["sums"]
        assert len(rouge_state["sums"]) == 14
        assert all(len(column) <= 3 for column in rouge_state["sums"])
    assert len(json.dumps(many.state_dict())) < 2 * len(json.dumps(few.state_dict()))
    # the bootstrap resamples segments: its rows are kept, in input order
    bootstrap = RougeMetric(types=("rouge1",), n_bootstrap=50)
    bootstrap.update(hyps[:3], refs[:3])
    assert len(bootstrap.state_dict()["rows"]) == 3


def test_reset_and_errors() -> None:
    hyps, refs = _data()
    meteor = MeteorMetric(modules=("exact",))
    meteor.update(hyps[:5], refs[:5])
    meteor.reset()
    assert meteor.count == 0
    meteor.update(hyps[:2], refs[:2])
    assert meteor.compute() == meteor.metric.corpus_score(hyps[:2], refs[:2])
    with pytest.raises(InputError):
        meteor.update(hyps[:2], refs[:1])
    assert meteor.count == 2  # a failed update adds nothing
    with pytest.raises(ConfigError, match="different metrics or settings"):
        meteor.merge(MeteorMetric(modules=("exact", "stem")))
    with pytest.raises(TypeError):
        meteor.merge(3)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="cannot become"):
        BleuMetric.from_state_dict(meteor.state_dict())
    with pytest.raises(ConfigError, match="state format"):
        BleuMetric.from_state_dict({"format": 9})
    generic = MergeableMetric.from_state_dict(meteor.state_dict())
    assert isinstance(generic, MeteorMetric) and generic.compute() == meteor.compute()


#: Every metric with float sums or mean aggregation, plus the integer ones (exact anyway).
INTERLEAVED: dict[str, Any] = {
    **{name: make for name, make in FACTORIES.items() if name != "rouge-bootstrap"},
    "paper2005-mean": lambda: MeteorMetric(flavour="paper2005", aggregate="mean"),
    "nltk-mean": lambda: MeteorMetric(flavour="nltk", aggregate="mean"),
    "rouge-mean": lambda: RougeMetric(types=("rouge2", "rougeLsum", "rougeW", "rougeS")),
    "rouge-pooled": lambda: RougeMetric(types=("rouge2", "rougeW"), aggregate="pooled"),
    "rouge-pooled-nl": lambda: RougeMetric(types=("rouge1", "rougeL"), aggregate="pooled"),
}


@pytest.mark.parametrize("name", list(INTERLEAVED))
@settings(max_examples=10, deadline=None)
@given(
    owner=st.lists(st.integers(0, 3), min_size=N, max_size=N),
    order=st.permutations(range(4)),
    via_state=st.booleans(),
)
def test_interleaved_split_merged_in_any_order_equals_the_corpus_score(
    name: str, owner: list[int], order: list[int], via_state: bool
) -> None:
    """Segments dealt to four objects in any interleaving (segment k to ``owner[k]``), merged
    in any order: the corpus score of all of them in one pass, to the last bit (the sums of
    float statistics are exactly rounded, so their order does not matter)."""
    hyps, refs = _data()
    whole = INTERLEAVED[name]()
    expected = whole.metric.corpus_score(hyps, refs)
    parts = [INTERLEAVED[name]() for _ in range(4)]
    for k in range(4):
        mine = [i for i in range(N) if owner[i] == k]
        if mine:
            parts[k].update([hyps[i] for i in mine], [refs[i] for i in mine])
    if via_state:
        parts = [type(p).from_state_dict(json.loads(json.dumps(p.state_dict()))) for p in parts]
    merged = parts[order[0]]
    for k in order[1:]:
        merged = merged + parts[k]
    assert merged.compute() == expected


def test_rouge_mean_of_interleaved_batches_is_the_one_pass_mean() -> None:
    """The reported case: ROUGE-2 (mean of segment scores) from two interleaved batches merged
    gave 0.2892494473088645 against 0.2892494473088644 in one pass before sums were exact."""
    hyps, refs = _data()
    whole = RougeMetric(types=("rouge2", "rougeL"))
    whole.update(hyps, refs)
    odd, even = RougeMetric(types=("rouge2", "rougeL")), RougeMetric(types=("rouge2", "rougeL"))
    odd.update(hyps[1::2], refs[1::2])
    even.update(hyps[0::2], refs[0::2])
    for merged in (odd + even, even + odd):
        for variant in ("rouge2", "rougeL"):
            assert merged.compute()[variant].fmeasure == whole.compute()[variant].fmeasure
