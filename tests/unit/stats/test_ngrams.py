"""n-gram, clipping and skip-bigram counts."""

from meteor_eval.stats.ngrams import (
    all_ngram_counts,
    clipped_matches,
    max_counts,
    ngram_counts,
    skip_bigram_counts,
)


def test_ngram_counts_and_all_orders() -> None:
    assert ngram_counts(("a", "b", "a", "b"), 2) == {("a", "b"): 2, ("b", "a"): 1}
    assert sum(all_ngram_counts(("a", "b", "c"), 4).values()) == 3 + 2 + 1


def test_clipping_against_maximum_reference_count() -> None:
    limits = max_counts([{("on",): 1}, {("on",): 2}])
    assert clipped_matches({("on",): 3, ("x",): 1}, limits) == 2


def test_skip_bigrams_with_distance_and_unigrams() -> None:
    tokens = ("a", "b", "c", "d")
    assert sum(skip_bigram_counts(tokens, 0).values()) == 3
    assert sum(skip_bigram_counts(tokens, 1).values()) == 5
    assert sum(skip_bigram_counts(tokens, -1).values()) == 6
    su = skip_bigram_counts(tokens, -1, unigrams=True)
    assert ("d",) not in su  # ROUGE-1.5.5 never counts the last token as a unigram
    assert su[("a",)] == 1
