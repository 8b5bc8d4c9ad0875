"""ROUGE tokenizers and the Porter stemmer."""

import pytest

from meteor_eval.text.rouge_tokenizer import porter_stem, tokenize_rouge155, tokenize_rouge_score


def test_rouge_score_tokenizer_drops_punctuation() -> None:
    assert tokenize_rouge_score("I work on Machine-Learning.") == (
        "i", "work", "on", "machine", "learning",
    )  # fmt: skip


def test_rouge155_lowercases_ascii_only() -> None:
    assert tokenize_rouge_score("\u212a9") == ("k9",)
    assert tokenize_rouge155("\u212a9") == ("9",)


@pytest.mark.parametrize(
    ("word", "stem"),
    [("caresses", "caress"), ("ponies", "poni"), ("ties", "tie"), ("dying", "die"),
     ("hopping", "hop"), ("relational", "relat"), ("generalization", "gener"),
     ("news", "news"), ("happy", "happi"), ("cry", "cri")],
)  # fmt: skip
def test_porter_with_nltk_extensions(word: str, stem: str) -> None:
    assert porter_stem(word) == stem
