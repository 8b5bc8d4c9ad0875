"""``meteor_eval.compat.evaluate``: ``load``/``compute`` as HF evaluate's meteor, offline.

Numbers: hand-checked cases and a slice of ``tests/reference/golden/nltk/evaluate.json.gz``
(NLTK 3.10.4 and NumPy 2.4.6, made by ``scripts/make_nltk_golden.py``).
"""

from __future__ import annotations

import gzip
import json
import math
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from meteor_eval.compat import evaluate
from meteor_eval.compat.evaluate import EvaluateMeteor
from meteor_eval.errors import InputError
from meteor_eval.stats.corpus import numpy_mean

GOLDEN = Path(__file__).resolve().parents[2] / "reference" / "golden" / "nltk" / "evaluate.json.gz"


@pytest.fixture(scope="module")
def golden() -> Any:
    return json.loads(gzip.decompress(GOLDEN.read_bytes()))


class TestLoad:
    @pytest.mark.parametrize("path", ["meteor", "evaluate-metric/meteor", "metrics/meteor/"])
    def test_any_path_ending_in_meteor(self, path: str) -> None:
        loaded = evaluate.load(path)
        assert isinstance(loaded, EvaluateMeteor)
        # A new object each time (its own kept segments), sharing the scorer and token cache.
        other = evaluate.load()
        assert loaded is not other
        assert loaded._scorer is other._scorer
        assert loaded._token_cache is other._token_cache

    @pytest.mark.parametrize("path", ["bleu", "meteor/bleu", "meteors"])
    def test_other_metrics_are_refused(self, path: str) -> None:
        message = f"path: only 'meteor' is available here, got {path!r}"
        with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
            evaluate.load(path)

    def test_a_sentence_splitter_gives_a_new_instance(self) -> None:
        def split(text: str) -> list[str]:
            return [text]

        loaded = evaluate.load("meteor", sentence_splitter=split)
        assert loaded._token_cache is not evaluate.load()._token_cache  # tokens differ
        assert repr(loaded) == "EvaluateMeteor(name='meteor')"
        assert loaded.name == "meteor"

    def test_splitter_must_be_callable(self) -> None:
        with pytest.raises(TypeError, match="sentence_splitter: expected a callable, got 3"):
            EvaluateMeteor(sentence_splitter=3)  # type: ignore[arg-type]


class TestCompute:
    def test_identical_text(self) -> None:
        # Tokens "the", "cat", ".": one chunk of three matches, 1 - 0.5 * (1/3)**3.
        result = evaluate.compute(predictions=["The cat."], references=["the cat."])
        assert result == {"meteor": pytest.approx(1 - 0.5 / 27, abs=1e-15)}

    def test_list_references_take_the_best(self) -> None:
        meteor = evaluate.load()
        scores = meteor.sentence_scores(
            predictions=["the cat", "the cat"], references=[["a dog", "the cat"], "a dog"]
        )
        assert scores == [0.9375, 0.0]

    def test_mean_is_numpy_mean_of_the_sentence_scores(self) -> None:
        kwargs: dict[str, Any] = {
            "predictions": ["the cat", "a dog sat", "x"],
            "references": ["the cat", "the dog sat", "y"],
        }
        scores = evaluate.load().sentence_scores(**kwargs)
        assert evaluate.compute(**kwargs) == {"meteor": numpy_mean(scores)}

    def test_parameters_reach_the_formula(self) -> None:
        result = evaluate.compute(predictions=["the cat"], references=["the cat"], gamma=0.0)
        assert result == {"meteor": 1.0}
        result = evaluate.compute(predictions=["the cat"], references=["the cat"], beta=1)
        assert result == {"meteor": 0.75}

    def test_no_prediction_gives_nan_with_numpys_warning(self) -> None:
        with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
            result = evaluate.compute(predictions=[], references=[])
        assert math.isnan(result["meteor"])

    def test_the_splitter_sees_each_text(self) -> None:
        seen: list[str] = []

        def split(text: str) -> Iterable[str]:
            seen.append(text)
            return text.split(" | ")

        meteor = evaluate.load(sentence_splitter=split)
        meteor.compute(predictions=["a b | c"], references=["a b c"])
        assert seen == ["a b | c", "a b c"]

    def test_golden_slice(self, golden: Any) -> None:
        pairs = golden["pairs"][:60]
        scores = evaluate.load().sentence_scores(
            predictions=[p["prediction"] for p in pairs], references=[p["reference"] for p in pairs]
        )
        assert scores == [p["score"] for p in pairs]
        multi = golden["multi"][:20]
        scores = evaluate.load().sentence_scores(
            predictions=[m["prediction"] for m in multi],
            references=[m["references"] for m in multi],
        )
        assert scores == [m["score"] for m in multi]


class TestAddAndCompute:
    def test_kept_segments_then_given_ones_then_cleared(self) -> None:
        meteor = evaluate.load()
        meteor.add(prediction="the cat", reference="the cat")
        meteor.add_batch(predictions=["x"], references=[["y", "z"]])
        result = meteor.compute(predictions=["a dog"], references=["a dog"])
        assert result == {"meteor": numpy_mean([0.9375, 0.0, 0.9375])}
        with pytest.raises(ValueError, match=r"^compute: no segment; call add/add_batch first"):
            meteor.compute()

    def test_compute_without_arguments_uses_the_kept_segments(self) -> None:
        meteor = evaluate.load()
        meteor.add_batch(predictions=["the cat"], references=["the cat"])
        assert meteor.compute(gamma=0.0) == {"meteor": 1.0}

    @pytest.mark.parametrize(
        "kwargs", [{"predictions": ["a"]}, {"references": ["a"]}], ids=["predictions", "references"]
    )
    def test_compute_needs_both_or_neither(self, kwargs: dict[str, Any]) -> None:
        message = "compute: give both predictions and references, or neither"
        with pytest.raises(ValueError, match=f"^{message}$"):
            evaluate.load().compute(**kwargs)

    def test_add_batch_checks_like_compute(self) -> None:
        meteor = evaluate.load()
        with pytest.raises(TypeError, match="not a str"):
            meteor.add_batch(predictions="a", references=["a"])
        with pytest.raises(InputError, match="got 1 predictions but 2 references"):
            meteor.add_batch(predictions=["a"], references=["a", "b"])
        with pytest.raises(ValueError, match="no segment"):
            meteor.compute()  # nothing was kept by the failed calls


class TestErrors:
    @pytest.mark.parametrize(
        ("predictions", "references"), [("the cat", ["the cat"]), (["the cat"], "the cat")]
    )
    def test_bare_strings(self, predictions: Any, references: Any) -> None:
        with pytest.raises(TypeError, match="predictions and references take lists, not a str"):
            evaluate.compute(predictions=predictions, references=references)

    def test_length_mismatch_names_both_counts(self) -> None:
        with pytest.raises(InputError) as caught:
            evaluate.compute(predictions=["a", "b"], references=["a"])
        assert str(caught.value) == (
            "got 2 predictions but 1 references; "
            "references[i] must hold the reference(s) of predictions[i]"
        )

    def test_segment_without_reference(self) -> None:
        with pytest.raises(InputError, match=r"references\[1\]: at least one reference"):
            evaluate.compute(predictions=["a", "b"], references=["a", []])

    def test_non_string_text(self) -> None:
        with pytest.raises(TypeError, match="expected a str to tokenise, got int"):
            evaluate.compute(predictions=[3], references=["a"])  # type: ignore[list-item]
