"""``meteor_eval.compat.pycocoevalcap.Meteor`` returns what pycocoevalcap's Java wrapper returns.

Golden values: pycocoevalcap 1.2 ``Meteor().compute_score(GTS, RES)`` (``meteor-1.5.jar``,
``-stdio -l en -norm``, OpenJDK 17), printed with ``repr``. The English defaults use the
paraphrase module, so the test is skipped until it is installed.
"""

from __future__ import annotations

import importlib.util
import threading

import pytest

from meteor_eval.compat.pycocoevalcap import Meteor
from meteor_eval.metrics.meteor import MeteorConfig

GTS: dict[object, list[str]] = {
    1: ["a cat sits on the mat", "the cat is sitting"],
    2: ["dogs run"],
    "x": ["A man riding a horse.", "Someone on horseback, riding.", "a person rides a brown horse"],
    4: ["empty"],
    5: ["the boy's toys ||| are here"],
}
RES: dict[object, list[str]] = {
    1: ["the cat sat on the mat"],
    2: ["a dog runs  fast |||"],
    "x": ["A man is riding a horse"],
    4: [""],
    5: ["the boys toys   are here"],
}
JAR_SCORE = 0.3446654083448713
JAR_SCORES = [0.48978124155426495, 0.0, 0.45876240259563655, 0.0, 0.3783522075424361]

needs_paraphrase = pytest.mark.skipif(
    importlib.util.find_spec("meteor_eval.match.paraphrase") is None,
    reason="the paraphrase module is absent",
)


@needs_paraphrase
def test_compute_score_equals_the_java_wrapper() -> None:
    assert Meteor().compute_score(GTS, RES) == (JAR_SCORE, JAR_SCORES)


def _exact() -> Meteor:
    return Meteor(MeteorConfig(normalization="norm", modules=("exact",), weights=(1.0,)))


def test_pooled_score_and_per_image_scores_exact_module() -> None:
    # Hand-checked: image 1 identical (1.0); image 2 "the dog" vs "the cat": one function-word
    # match of 2+2 words, 1 chunk.
    score, scores = _exact().compute_score(
        {1: ["the cat sat"], 2: ["the cat"]}, {1: ["the cat sat"], 2: ["the dog"]}
    )
    assert scores[0] == 1.0
    assert len(scores) == 2
    assert 0.0 < score < 1.0


def test_rejects_mismatched_ids_and_several_captions() -> None:
    meteor = _exact()
    with pytest.raises(ValueError, match="same image ids"):
        meteor.compute_score({1: ["a"]}, {2: ["a"]})
    with pytest.raises(ValueError, match="exactly one caption"):
        meteor.compute_score({1: ["a"]}, {1: ["a", "b"]})
    with pytest.raises(ValueError, match="no image"):
        meteor.compute_score({}, {})


def test_threads_share_one_scorer_safely() -> None:
    meteor = _exact()
    gts = {k: ["the cat sat on the mat"] for k in range(50)}
    res = {k: ["the cat sat on a mat" if k % 2 else "a cat"] for k in range(50)}
    expected = meteor.compute_score(gts, res)
    results: list[tuple[float, list[float]]] = []

    def work() -> None:
        results.append(meteor.compute_score(gts, res))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected] * 4
