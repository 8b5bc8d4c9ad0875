"""Stand-ins and sample data that several test files share (imported as ``fakes``; ``tests/`` is
on the path).

- :data:`CAT_HYPS` and :data:`CAT_REFS`: five hypothesis/references pairs that exercise every
  METEOR stage (exact, stem, synonym), several references, an empty hypothesis and no match.
- :class:`LowercaseMatcher` and :func:`build_lowercase`: a matcher module registered at run time;
  the factory sits at the top level of a module so that it pickles by name and spawned worker
  processes rebuild it.
- :class:`Lemma`, :class:`Synset` and :class:`WordNet`: NLTK's ``wordnet`` reduced to what METEOR
  reads (``synsets(word)``, ``lemmas()``, ``name()``), with a fixed table of synonyms.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from meteor_eval.match import registry
from meteor_eval.match.base import Match, Segment

CAT_HYPS = [
    "the cat sat on the mat",
    "on the mat sat the cat",
    "the cats were sitting on a mat",
    "",
    "a completely different sentence",
]
CAT_REFS = [
    ["the cat sat on the mat"],
    ["the cat sat on the mat", "on the mat sat the cat"],
    ["the cat was sitting on the mat"],
    ["nothing here"],
    ["the dog barked"],
]


class LowercaseMatcher:
    """One-word matches of different words that are equal once lower-cased."""

    name = "lowercase"

    def candidates(self, hyp: Segment, ref: Segment, stage: int) -> list[Match]:
        return [
            Match(j, 1, i, 1, stage)
            for j, r in enumerate(ref.tokens)
            for i, h in enumerate(hyp.tokens)
            if h != r and h.lower() == r.lower()
        ]


def build_lowercase(context: registry.MatcherContext) -> LowercaseMatcher:
    """A factory at the top level of a module: it pickles by name, so spawned workers get it."""
    return LowercaseMatcher()


class Lemma:
    """A WordNet lemma: only its name."""

    def __init__(self, name: str) -> None:
        self._name = name

    def name(self) -> str:
        return self._name


class Synset:
    """A WordNet synset: only its lemmas, in order."""

    def __init__(self, *names: str) -> None:
        self._lemmas = [Lemma(n) for n in names]

    def lemmas(self) -> list[Lemma]:
        return self._lemmas


class WordNet:
    """NLTK's ``wordnet`` reduced to ``synsets``: ``table`` maps a word to one synset's names."""

    def __init__(self, table: Mapping[str, Sequence[str]]) -> None:
        self._table = dict(table)

    def synsets(self, word: str) -> list[Synset]:
        names = self._table.get(word)
        return [] if names is None else [Synset(*names)]
