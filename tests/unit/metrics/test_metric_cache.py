"""One cache policy for built metrics (``metrics.cache.LruCache``): a bound that holds, least
recently used out first, one object per key under threads; and the four caches that use it
(``corpus_meteor``'s scorers, the mergeable metrics, the NLTK and evaluate drop-ins)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_eval import mergeable
from meteor_eval.compat import evaluate
from meteor_eval.compat import nltk as compat_nltk
from meteor_eval.metrics.cache import LruCache
from meteor_eval.metrics.meteor import MeteorConfig, corpus_meteor, scorer


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 5), st.lists(st.integers(0, 9), max_size=60))
def test_the_bound_holds_and_the_least_recently_used_goes(maxsize: int, keys: list[int]) -> None:
    cache: LruCache[int, object] = LruCache(maxsize)
    recent: list[int] = []  # a naive model: keys by last use
    built: list[int] = []
    for key in keys:
        value = cache.get(key, lambda k=key: built.append(k) or object())  # type: ignore[func-returns-value]
        assert cache.get(key, object) is value  # kept: not built again
        if key in recent:
            recent.remove(key)
        else:
            assert built[-1] == key
        recent.append(key)
        del recent[:-maxsize]
        assert len(cache) <= maxsize
        assert cache.keys() == recent


def test_built_once_under_threads() -> None:
    cache: LruCache[str, object] = LruCache(4)
    calls: list[int] = []
    gate = threading.Barrier(8)

    def build() -> object:
        calls.append(1)
        return object()

    def ask(_: int) -> object:
        gate.wait()
        return cache.get("same", build)

    with ThreadPoolExecutor(8) as pool:
        values = list(pool.map(ask, range(8)))
    assert len(calls) == 1
    assert all(v is values[0] for v in values)


@pytest.mark.parametrize("bad", [0, -1, 1.5, True])
def test_a_bound_below_one_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="maxsize: expected an integer >= 1"):
        LruCache(bad)  # type: ignore[arg-type]


def test_the_four_caches_share_the_policy() -> None:
    caches = [scorer._DEFAULT_SCORERS, mergeable._SHARED, compat_nltk._SCORERS, evaluate._CORES]
    assert all(isinstance(c, LruCache) for c in caches)
    assert [c.maxsize for c in caches] == [16, 16, compat_nltk._MAX_CUSTOM, 1]


def test_corpus_meteor_keeps_at_most_16_scorers() -> None:
    scorer._DEFAULT_SCORERS.clear()
    # 20 configurations (alpha changes the formula only: cheap scorers)
    for k in range(20):
        corpus_meteor(["a cat"], [["a cat"]], alpha=0.5 + k / 100, modules=("exact",))
    assert len(scorer._DEFAULT_SCORERS) == 16
    # the most recent is kept and reused
    last = MeteorConfig.preset(alpha=0.69, modules=("exact",))
    assert last in scorer._DEFAULT_SCORERS
    assert MeteorConfig.preset(alpha=0.5, modules=("exact",)) not in scorer._DEFAULT_SCORERS


def test_mergeable_metrics_share_one_metric_per_configuration_boundedly() -> None:
    mergeable._SHARED.clear()
    first = mergeable.BleuMetric()
    assert mergeable.BleuMetric().metric is first.metric
    for k in range(20):
        mergeable.BleuMetric(smooth_value=0.01 * (k + 1))
    assert len(mergeable._SHARED) == 16
