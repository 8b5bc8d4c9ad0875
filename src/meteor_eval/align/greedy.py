"""NLTK's staged greedy word alignment (``nltk.translate.meteor_score._enum_align_words``).

NLTK's METEOR does not search for the alignment with the fewest crossings that the METEOR papers
describe. It runs three stages, each on the words the earlier stages left unmatched:

1. **exact**: the words themselves are compared;
2. **stem**: both sides are replaced by their stems and compared;
3. **synonym**: a hypothesis word matches a reference word that is one of its WordNet synonyms
   (the lemma names, without multi-word names, of every synset of the word, plus the word).
   This stage sees the *stems* left over from stage 2, not the original words, as NLTK passes
   the stemmed lists on.

Within a stage, hypothesis words are visited from the last to the first, and each takes the
matching reference word with the highest position that is still free. Every match pairs one
word with one word. The result is the list of matched index pairs ordered by hypothesis
position, from which NLTK counts chunks.

The functions here reproduce that order exactly (tested against NLTK 3.10 in
``tests/reference/test_nltk_differential.py``); NLTK 3.9's nested scans choose the same pairs.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

from meteor_eval._ext import compiled_kernels

__all__ = [
    "EXACT",
    "STEM",
    "SYNONYM",
    "GreedyMatch",
    "count_chunks",
    "greedy_align",
    "greedy_align_python",
    "greedy_counts",
    "greedy_counts_function",
    "match_counts",
]

#: Per-stage match counts and NLTK's chunks: ``(exact, stem, synonym, chunks)``.
GreedyCounts = tuple[int, int, int, int]

#: What ``stem`` and ``synonyms`` may be: a function, a mapping that holds (or, as a dict
#: subclass with ``__missing__``, computes on first use) the value of every word it is asked
#: for, or a cached function ``(cache, compute, limit)``: ``cache[word]`` when the dict holds
#: the word, else ``compute(word)``, stored in ``cache`` after clearing it if it already holds
#: ``limit`` words (a ``__missing__`` cache's rule, without a Python frame per new word when the
#: kernel runs).
WordFunction = (
    Callable[[str], str] | Mapping[str, str] | tuple[dict[str, str], Callable[[str], str], int]
)
SynonymFunction = (
    Callable[[str], Collection[str]]
    | Mapping[str, Collection[str]]
    | tuple[dict[str, Collection[str]], Callable[[str], Collection[str]], int]
)


#: Stage numbers of :data:`GreedyMatch`.
EXACT, STEM, SYNONYM = 0, 1, 2

#: One match: (hypothesis index, reference index, stage).
GreedyMatch = tuple[int, int, int]

# The compiled alignment (same matches), when the extension is built and not disabled.
_KERNEL = compiled_kernels("greedy_align", "greedy_counts")


def _positions(
    words: Sequence[str] | Mapping[int, str], free: Sequence[int]
) -> dict[str, list[int]]:
    """Word -> the free reference positions holding it, ascending."""
    table: dict[str, list[int]] = {}
    for j in free:
        found = table.get(words[j])
        if found is None:
            table[words[j]] = [j]
        else:
            found.append(j)
    return table


def _match_stage(
    hyp_words: Sequence[str] | Mapping[int, str],
    hyp_free: list[int],
    ref_words: Sequence[str] | Mapping[int, str],
    ref_free: list[int],
    stage: int,
    matches: list[GreedyMatch],
) -> tuple[list[int], list[int]]:
    """Match equal words; ``hyp_free`` is descending, ``ref_free`` ascending; returns the rest."""
    table = _positions(ref_words, ref_free)
    left: list[int] = []
    taken: set[int] = set()
    for i in hyp_free:
        found = table.get(hyp_words[i])
        if found:
            j = found.pop()
            taken.add(j)
            matches.append((i, j, stage))
        else:
            left.append(i)
    if taken:
        ref_free = [j for j in ref_free if j not in taken]
    return left, ref_free


def greedy_align(
    hyp_words: Sequence[str],
    ref_words: Sequence[str],
    *,
    stem: WordFunction | None = None,
    synonyms: SynonymFunction | None = None,
    raw_names: bool = False,
) -> list[GreedyMatch]:
    """NLTK's alignment of two preprocessed token lists.

    Runs the compiled kernel when the extension is built (same matches; it calls ``stem`` and
    ``synonyms`` for the same words), else :func:`greedy_align_python`.

    Args:
        hyp_words: Hypothesis tokens after NLTK's ``preprocess`` (lower-cased by default).
        ref_words: Reference tokens, likewise.
        stem: The stemmer of stage 2 (``None`` skips stages 2 and 3), or a mapping word ->
            stem (a per-word cache: indexed once per word, as the function would be called).
        synonyms: Word -> its synonym names *including the word itself* (``None`` skips
            stage 3), a function or a mapping like ``stem``. It receives stems, as in NLTK.
        raw_names: ``synonyms`` gives a stem's raw WordNet lemma names, and NLTK's filter is
            applied here: the names without ``_``, plus the stem itself (the same matches as
            the filtered sets, without building one per word type).

    Returns:
        ``(hypothesis index, reference index, stage)`` triples ordered by hypothesis index.

    Example:
        >>> def strip_s(word: str) -> str:
        ...     return word.rstrip("s")
        >>> greedy_align(["the", "cats", "sat"], ["a", "cat", "sat", "the"], stem=strip_s)
        [(0, 3, 0), (1, 1, 1), (2, 2, 0)]
    """
    return _ALIGN(hyp_words, ref_words, stem, synonyms, raw_names)


def greedy_counts_function(
    stem: WordFunction | None = None,
    synonyms: SynonymFunction | None = None,
    raw_names: bool = False,
) -> Callable[[Sequence[str], Sequence[str]], GreedyCounts]:
    """:func:`match_counts` of :func:`greedy_align` with ``stem``, ``synonyms`` and
    ``raw_names`` bound: a function of the two token lists that calls the compiled kernel
    directly when it runs, without building the matches (all that NLTK's score needs of an
    alignment, one Python call a pair).

    Example:
        >>> counts = greedy_counts_function(lambda word: word.rstrip("s"))
        >>> counts(["the", "cats", "sat"], ["a", "cat", "sat", "the"])
        (2, 1, 0, 2)
    """
    counts = _COUNTS

    def bound(hyp_words: Sequence[str], ref_words: Sequence[str]) -> GreedyCounts:
        return counts(hyp_words, ref_words, stem, synonyms, raw_names)

    return bound


def greedy_counts(
    hyp_words: Sequence[str], ref_words: Sequence[str], **options: Any
) -> GreedyCounts:
    """Deprecated (removed in 0.3): ``greedy_counts_function(**options)(hyp_words, ref_words)``,
    which binds the resources once for many pairs."""
    from meteor_eval.errors import warn_renamed

    warn_renamed(
        "greedy_counts(hyp, ref, **options)", "greedy_counts_function(**options)(hyp, ref)"
    )
    return greedy_counts_function(**options)(hyp_words, ref_words)


def match_counts(matches: Sequence[GreedyMatch]) -> GreedyCounts:
    """Matches per stage (exact, stem, synonym) and :func:`count_chunks` of ``matches``.

    Example:
        >>> match_counts([(0, 3, 0), (1, 1, 1), (2, 2, 0)])
        (2, 1, 0, 2)
    """
    per_stage = [0, 0, 0]
    for _i, _j, stage in matches:
        per_stage[stage] += 1
    return per_stage[0], per_stage[1], per_stage[2], count_chunks(matches)


def _word_function(fn: object) -> Callable[[str], Any] | None:
    """A ``stem`` or ``synonyms`` argument as a function of one word (the kernel's rules)."""
    if type(fn) is tuple and len(fn) == 3:  # the kernel's test: a plain tuple of three
        cache, compute, limit = fn

        def cached(word: str) -> Any:
            found = cache.get(word)
            if found is None and word not in cache:
                if len(cache) >= limit:
                    cache.clear()
                found = cache[word] = compute(word)
            return found

        return cached
    if isinstance(fn, Mapping):
        return fn.__getitem__
    return fn  # type: ignore[return-value]


def greedy_align_python(
    hyp_words: Sequence[str],
    ref_words: Sequence[str],
    stem: WordFunction | None = None,
    synonyms: SynonymFunction | None = None,
    raw_names: bool = False,
) -> list[GreedyMatch]:
    """:func:`greedy_align` in pure Python, the reference for the compiled kernel: the same
    result from the same arguments, which it also takes by position (as :func:`greedy_align`
    passes them to either one).

    Example:
        >>> greedy_align_python(["a", "b", "a"], ["a", "c", "b"])
        [(1, 2, 0), (2, 0, 0)]
        >>> greedy_align_python(["cats"], ["a", "cat"], stem=lambda word: word.rstrip("s"))
        [(0, 1, 1)]
    """
    stem_of = _word_function(stem)
    synonyms_of = _word_function(synonyms)
    matches: list[GreedyMatch] = []
    hyp_free = list(range(len(hyp_words) - 1, -1, -1))
    ref_free = list(range(len(ref_words)))
    hyp_free, ref_free = _match_stage(hyp_words, hyp_free, ref_words, ref_free, EXACT, matches)
    if stem_of is not None and hyp_free and ref_free:
        hyp_stems = {i: stem_of(hyp_words[i]) for i in hyp_free}
        ref_stems = {j: stem_of(ref_words[j]) for j in ref_free}
        hyp_free, ref_free = _match_stage(hyp_stems, hyp_free, ref_stems, ref_free, STEM, matches)
        if synonyms_of is not None and hyp_free and ref_free:
            table = _positions(ref_stems, ref_free)
            for i in hyp_free:
                best = -1
                best_list: list[int] | None = None
                names: Iterable[str] = synonyms_of(hyp_stems[i])
                if raw_names:
                    names = [name for name in names if "_" not in name] + [hyp_stems[i]]
                for name in names:
                    found = table.get(name)
                    if found and found[-1] > best:
                        best = found[-1]
                        best_list = found
                if best_list is not None:
                    best_list.pop()
                    matches.append((i, best, SYNONYM))
    matches.sort()
    return matches


def _counts_python(
    hyp_words: Sequence[str],
    ref_words: Sequence[str],
    stem: WordFunction | None,
    synonyms: SynonymFunction | None,
    raw_names: bool = False,
) -> GreedyCounts:
    """The compiled ``greedy_counts``'s pure-Python twin: :func:`match_counts` of
    :func:`greedy_align_python`."""
    return match_counts(greedy_align_python(hyp_words, ref_words, stem, synonyms, raw_names))


# What greedy_align and greedy_counts_function call: the kernels, or their twins above.
_ALIGN: Callable[..., list[GreedyMatch]] = (
    greedy_align_python if _KERNEL is None else _KERNEL.greedy_align
)
_COUNTS: Callable[..., GreedyCounts] = _counts_python if _KERNEL is None else _KERNEL.greedy_counts


def count_chunks(matches: Sequence[GreedyMatch]) -> int:
    """NLTK's ``_count_chunks``: runs of matches adjacent on both sides (0 when none).

    NLTK itself returns 1 for no matches, but then divides by zero matches and scores 0, so the
    value never reaches a score; 0 keeps statistics records meaningful.
    """
    if not matches:
        return 0
    chunks = 1
    for (i, j, _), (k, m, _) in itertools.pairwise(matches):
        if not (k == i + 1 and m == j + 1):
            chunks += 1
    return chunks
