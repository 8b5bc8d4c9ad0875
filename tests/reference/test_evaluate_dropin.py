"""HuggingFace ``evaluate``'s ``meteor`` against ``meteor_eval.compat.evaluate``.

``evaluate`` loads its meteor script from the Hugging Face hub, which is unreachable here. For
NLTK >= 3.6.5 that script computes, per segment, ``single_meteor_score(word_tokenize(ref),
word_tokenize(pred), alpha, beta, gamma)`` (or ``meteor_score`` over ``[word_tokenize(r) for r
in refs]`` when references are lists) and reports ``{"meteor": np.mean(scores)}``. For a
single-sentence text ``word_tokenize`` equals ``NLTKWordTokenizer().tokenize`` (the Punkt split
returns the text whole), so the oracle is NLTK's ``meteor_score`` on ``NLTKWordTokenizer``
tokens of 500 single-sentence xray pairs. Golden values: ``golden/nltk/evaluate.json.gz``, made
by ``python scripts/make_nltk_golden.py`` with NLTK 3.10.4 and NumPy 2.4.6 (see its README).
"""

from __future__ import annotations

import gzip
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from meteor_eval.compat import evaluate
from meteor_eval.compat.evaluate import numpy_mean
from meteor_eval.errors import InputError
from meteor_eval.text.nltk_tokenize import nltk_word_tokenize

GOLDEN = Path(__file__).resolve().parent / "golden" / "nltk" / "evaluate.json.gz"


@pytest.fixture(scope="module")
def golden() -> Any:
    return json.loads(gzip.decompress(GOLDEN.read_bytes()))


def test_tokens_equal_nltk_word_tokenizer_golden(golden: Any) -> None:
    for pair in golden["pairs"]:
        assert nltk_word_tokenize(pair["prediction"]) == pair["prediction_tokens"]
        assert nltk_word_tokenize(pair["reference"]) == pair["reference_tokens"]


def test_sentence_scores_equal_golden(golden: Any) -> None:
    pairs = golden["pairs"]
    scores = evaluate.load("meteor").sentence_scores(
        predictions=[p["prediction"] for p in pairs], references=[p["reference"] for p in pairs]
    )
    assert scores == [p["score"] for p in pairs]


def test_compute_mean_equals_numpy_mean_golden(golden: Any) -> None:
    pairs = golden["pairs"]
    result = evaluate.compute(
        predictions=[p["prediction"] for p in pairs], references=[p["reference"] for p in pairs]
    )
    assert result == {"meteor": golden["mean"]}


def test_multiple_references_per_prediction_equal_golden(golden: Any) -> None:
    multi = golden["multi"]
    assert len(multi) == 100
    meteor = evaluate.load("meteor")
    result = meteor.compute(
        predictions=[m["prediction"] for m in multi], references=[m["references"] for m in multi]
    )
    assert result == {"meteor": golden["multi_mean"]}
    scores = meteor.sentence_scores(
        predictions=[m["prediction"] for m in multi], references=[m["references"] for m in multi]
    )
    assert scores == [m["score"] for m in multi]


def test_list_of_one_reference_equals_plain_reference(golden: Any) -> None:
    pairs = golden["pairs"][:50]
    predictions = [p["prediction"] for p in pairs]
    plain = evaluate.compute(predictions=predictions, references=[p["reference"] for p in pairs])
    listed = evaluate.compute(predictions=predictions, references=[[p["reference"]] for p in pairs])
    assert plain == listed


# -- live comparison with NLTK and NumPy --------------------------------------------------------


@pytest.mark.oracle
def test_tokenizer_and_scores_equal_live_nltk(golden: Any, tmp_path: Path) -> None:
    if importlib.util.find_spec("nltk") is None or importlib.util.find_spec("numpy") is None:
        pytest.skip("nltk and numpy are needed")
    if not Path("/usr/share/wordnet/data.noun").is_file():
        pytest.skip("Debian's wordnet-base is not installed")
    import nltk
    import numpy as np
    from make_nltk_wordnet_dir import make_nltk_wordnet_dir
    from nltk.tokenize import NLTKWordTokenizer

    folder = str(make_nltk_wordnet_dir(tmp_path))
    nltk.data.path.insert(0, folder)
    try:
        from nltk.translate.meteor_score import meteor_score

        tokenizer = NLTKWordTokenizer()
        pairs = golden["pairs"]
        theirs: list[float] = []
        for pair in pairs:
            hyp = tokenizer.tokenize(pair["prediction"])
            ref = tokenizer.tokenize(pair["reference"])
            assert nltk_word_tokenize(pair["prediction"]) == hyp
            assert nltk_word_tokenize(pair["reference"]) == ref
            theirs.append(meteor_score([ref], hyp, alpha=0.85, beta=2, gamma=0.4))
        ours = evaluate.load("meteor").sentence_scores(
            predictions=[p["prediction"] for p in pairs],
            references=[p["reference"] for p in pairs],
            alpha=0.85,
            beta=2,
            gamma=0.4,
        )
        assert ours == theirs
        assert numpy_mean(ours) == float(np.mean(theirs))
    finally:
        nltk.data.path.remove(folder)


@pytest.mark.oracle
def test_numpy_mean_is_bit_identical_to_numpy() -> None:
    if importlib.util.find_spec("numpy") is None:
        pytest.skip("numpy is not installed")
    import random

    import numpy as np

    rng = random.Random(7)
    for n in [*range(1, 300), 1000, 2489, 4978, 20_001]:
        values = [rng.random() * rng.choice((1.0, 1e-3, 1e6)) for _ in range(n)]
        assert numpy_mean(values) == float(np.mean(values)), n


def test_add_and_add_batch_then_compute_without_arguments() -> None:
    """evaluate's accumulation: add / add_batch keep segments, compute() scores them all
    (with any given to compute itself after them) and clears them."""
    predictions = ["the cat sat on the mat", "a dog barked", "it is raining", "hello world"]
    references: list[str | list[str]] = [
        "the cat was on the mat",
        ["the dog barked", "a dog barks"],
        "it rains",
        "hello there world",
    ]
    whole = evaluate.load("meteor").compute(predictions=predictions, references=references)
    meteor = evaluate.load("meteor")
    meteor.add(prediction=predictions[0], reference=references[0])
    meteor.add_batch(predictions=predictions[1:3], references=references[1:3])
    assert meteor.compute(predictions=predictions[3:], references=references[3:]) == whole
    with pytest.raises(ValueError, match="no segment"):
        meteor.compute()  # cleared by the previous compute
    meteor.add_batch(predictions=predictions, references=references)
    assert meteor.compute() == whole
    other = evaluate.load("meteor")
    other.add(prediction="x", reference="y")
    assert evaluate.load("meteor")._predictions == []  # each load has its own segments
    with pytest.raises(ValueError, match="both predictions and references"):
        other.compute(predictions=["x"])
    with pytest.raises(InputError):
        other.add_batch(predictions=["a", "b"], references=["a"])
