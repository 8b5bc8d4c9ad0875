"""sacrebleu's tokenizers, hand-checked cases (the full comparison is in tests/reference)."""

import pytest

from meteor_eval.text.bleu_tokenizers import get_bleu_tokenizer


@pytest.mark.parametrize(
    ("name", "line", "expected"),
    [
        ("13a", "Hello, world. 3.14 and 1,000!", "Hello , world . 3.14 and 1,000 !"),
        ("13a", "&quot;x&quot; 1990-2000", '" x " 1990 - 2000'),
        ("intl", "Price: €5.", "Price : € 5."),
        ("char", "ab c", "a b   c"),
        ("none", "a,b", "a,b"),
        ("zh", "我爱NLP。", "我 爱 NLP 。"),
        ("zh", "a’b", "a ’ b"),
    ],
)
def test_tokenizers(name: str, line: str, expected: str) -> None:
    assert get_bleu_tokenizer(name)(line) == expected


def test_unknown_tokenizer_names_choices() -> None:
    with pytest.raises(ValueError, match="expected one of 13a, intl, char, none, zh"):
        get_bleu_tokenizer("spm")
