"""Stand-ins and sample data that several test files share (imported as ``fakes``; ``tests/`` is
on the path).

- :data:`CAT_HYPS` and :data:`CAT_REFS`: five hypothesis/references pairs that exercise every
  METEOR stage (exact, stem, synonym), several references, an empty hypothesis and no match.
- :data:`PORTER_PAPER_STEMS`: words and stems from Porter (1980), which every Porter stemmer here
  (the classic one, NLTK's extended one) must give.
- :class:`LowercaseMatcher` and :func:`build_lowercase`: a matcher module registered at run time;
  the factory sits at the top level of a module so that it pickles by name and spawned worker
  processes rebuild it.
- :class:`Lemma`, :class:`Synset` and :class:`WordNet`: NLTK's ``wordnet`` reduced to what METEOR
  reads (``synsets(word)``, ``lemmas()``, ``name()``), with a fixed table of synonyms.
- :func:`assert_beams_agree` and :func:`assert_stage_lists_agree`: the compiled beam search
  against the pure-Python one on a candidate store (the parity and fuzz tests' one check), with
  :data:`needs_compiled_beam`, :data:`JAR_WEIGHTS` and :data:`BEAM_WEIGHT_SETS` for those tests.
- :class:`TokenSession`: a word-type table and a token cache of the compiled front end kept
  across calls, as a scorer keeps them (the front end's and the line cache's tests).
- :func:`run_fresh`: Python code run in a new interpreter that imports this tree's package (for
  what a process imports or prints from its start).
- :func:`formula_score`: the scalar formula's score of a statistics record under a configuration's
  or a tuning point's parameters (what the vectorised scorers are checked against).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from meteor_eval._ext import built_module
from meteor_eval.align import search
from meteor_eval.align.search import beam_align_compiled, beam_align_python
from meteor_eval.match import registry
from meteor_eval.match.base import CandidateStore, Match, Segment
from meteor_eval.metrics.meteor.formula import parameter_components
from meteor_eval.stats.meteor import MeteorStats

if TYPE_CHECKING:
    from meteor_eval.metrics.meteor import MeteorConfig
    from meteor_eval.tuning import TuningParams

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

# Porter, "An algorithm for suffix stripping" (1980): examples of steps 1a to 2.
PORTER_PAPER_STEMS = [
    ("caresses", "caress"),
    ("ponies", "poni"),
    ("cats", "cat"),
    ("feed", "feed"),
    ("agreed", "agre"),
    ("plastered", "plaster"),
    ("motoring", "motor"),
    ("sing", "sing"),
    ("conflated", "conflat"),
    ("happy", "happi"),
    ("relational", "relat"),
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


#: Skips a test module where the compiled beam search is not built (no C compiler at install).
needs_compiled_beam = pytest.mark.skipif(
    search._compiled_align is None or built_module() is None,
    reason="the compiled beam search is not built (no C compiler at install time)",
)

#: METEOR 1.5's English stage weights (exact, stem, synonym, paraphrase).
JAR_WEIGHTS = (1.0, 0.5, 0.5, 0.5)

#: Stage weights the beam tests draw from: the jar's, ties everywhere, negative gains, and
#: weights too wide to pack (the unpacked order) yet small enough that no path's objective
#: leaves 64 bits (1e17 on 150-word segments would: both searches refuse such weights,
#: |weight| x words must stay below 2**62).
BEAM_WEIGHT_SETS = [
    JAR_WEIGHTS,
    (1.0, 1.0, 1.0, 1.0),
    (0.0, 0.0, 0.0, 0.0),  # every path ties on the objective
    (1.0, 0.0, 0.0, 0.0),
    (-1.0, 0.5, -0.5, 1.0),  # negative gains
    (1e15, 3e15, 1.0, 0.0),
]


def assert_beams_agree(store: CandidateStore, weights: tuple[float, ...], beam: int) -> list[Match]:
    """The compiled beam search chooses the very matches (the same objects) Python chooses;
    returns them."""
    expected = beam_align_python(store, weights, beam=beam)
    got = beam_align_compiled(store, weights, beam=beam)
    assert got == expected
    assert all(a is b for a, b in zip(got, expected, strict=True))
    return got


def assert_stage_lists_agree(store: CandidateStore, weights: tuple[float, ...], beam: int) -> None:
    """The compiled ``align_stages`` on the store's candidates split by stage (in reference
    order) equals Python's search on a store rebuilt from those lists."""
    kernels = built_module()
    assert kernels is not None
    stage_lists = [[m for ms in store.by_ref for m in ms if m.stage == s] for s in range(4)]
    rebuilt = CandidateStore(len(store.hyp_coverage), len(store.ref_coverage))
    for candidates in stage_lists:
        rebuilt.extend(candidates)
    staged = kernels.align_stages(
        stage_lists, len(store.hyp_coverage), len(store.ref_coverage), weights, beam
    )
    assert staged == beam_align_python(rebuilt, weights, beam=beam)


def formula_score(
    record: MeteorStats,
    params: MeteorConfig | TuningParams,
    *,
    zero_penalty_if_perfect: bool,
    jvm_pow: bool = False,
) -> float:
    """:func:`~meteor_eval.metrics.meteor.formula.components`' score of ``record`` under the
    parameters (alpha, beta, gamma, delta, weights) of ``params``."""
    return parameter_components(
        record, params, zero_penalty_if_perfect=zero_penalty_if_perfect, jvm_pow=jvm_pow
    ).score


class TokenSession:
    """A word-type table and a token cache kept across calls of the compiled front end
    (``meteor15_tokens``, ``meteor15_lines``), as a scorer keeps them."""

    def __init__(self) -> None:
        from meteor_eval.metrics.meteor import fast

        self.known: dict[str, int] = {}
        self.cache = fast._FRONT_KERNEL.meteor15_token_cache()

    def commit(self, new: list[str]) -> None:
        """Number the new word types after the known ones, as the caller of a chunk does."""
        self.known.update(zip(new, range(len(self.known), len(self.known) + len(new)), strict=True))


def run_fresh(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` run by ``python -c`` in a new interpreter with this tree's ``src`` first on its
    path (its output captured as text; a failure raises ``CalledProcessError``)."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
