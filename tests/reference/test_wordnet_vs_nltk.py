"""The NLTK view of WordNet against ``nltk.corpus.wordnet`` (NLTK 3.10.4).

NLTK reads WordNet from ``corpora/wordnet`` on ``nltk.data.path``; the project never downloads it.
``scripts/make_nltk_wordnet_dir.py`` lays that folder out from Debian's ``wordnet-base`` files.
Debian's verb and adjective byte offsets differ from Princeton's release in two ranges (see
``scripts/build_wordnet.py``), so NLTK's offsets are mapped with the build script's
``princeton_offsets`` before comparing; synset order, synset types and lemma names are compared
as they are.

Word sample (:func:`sample_words`, step 10 for the live comparison, 40 for the golden digest):
every step-th word of the METEOR view (all lemmas, sorted), every (step/2)-th exception form,
suffixed forms (``s es ed ing er est``, ``f``/``fe`` -> ``ves``) of every (4·step)-th word, and
capitalised and upper-case variants of every (8·step)-th word.

The golden digest runs without NLTK. It was computed with NLTK 3.10.4 on the Debian-built folder
by ``nltk_digest`` below (the offsets mapped to Princeton's), i.e. the same function that
``test_nltk_view_matches_nltk`` applies to NLTK's own results.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

from meteor_eval.resources.synonyms import meteor_wordnet, nltk_wordnet

ROOT = Path(__file__).resolve().parents[2]
WORDNET_DIR = Path("/usr/share/wordnet")
GOLDEN_DIGEST_WORDS = 10_432
GOLDEN_DIGEST = "50e5d22e5e502f18a35e754f36603393ccb65cdc48f9eda178c11d43426bfb2e"

Result = tuple[list[tuple[str, int]], frozenset[str]]


def load_script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def sample_words(step: int) -> list[str]:
    """Every ``step``-th lemma, exception form and (sparser) suffixed and case variant."""
    words = sorted(meteor_wordnet().words())
    sample = set(words[::step])
    sample.update(sorted(meteor_wordnet().exceptions)[:: max(1, step // 2)])
    for word in words[:: step * 4]:
        sample.update(word + suffix for suffix in ("s", "es", "ed", "ing", "er", "est"))
        if word.endswith("f"):
            sample.add(word[:-1] + "ves")
        elif word.endswith("fe"):
            sample.add(word[:-2] + "ves")
    for word in words[:: step * 8]:
        sample.update((word.capitalize(), word.upper()))
    return sorted(sample)


def digest(words: Iterable[str], lookup: Callable[[str], Result]) -> str:
    hasher = hashlib.sha256()
    for word in words:
        synsets, names = lookup(word)
        listed = " ".join(f"{pos}{offset}" for pos, offset in synsets)
        hasher.update(f"{word}\t{listed}\t{' '.join(sorted(names))}\n".encode())
    return hasher.hexdigest()


def ours(word: str) -> Result:
    wordnet = nltk_wordnet()
    return wordnet.synsets(word), wordnet.lemma_names(word)


def test_nltk_view_matches_golden_digest() -> None:
    words = sample_words(step=40)
    assert len(words) == GOLDEN_DIGEST_WORDS
    assert digest(words, ours) == GOLDEN_DIGEST


class NltkOracle:
    """NLTK's reader on the Debian-built folder, with offsets mapped to Princeton's."""

    def __init__(self, reader: object, to_princeton: dict[str, dict[int, int]]) -> None:
        self.reader = reader
        self.to_princeton = to_princeton

    def synsets(self, word: str, pos: str | None = None) -> list[tuple[str, int]]:
        found = self.reader.synsets(word, pos)  # type: ignore[attr-defined]
        return [(s.pos(), self.to_princeton[s.pos()][s.offset()]) for s in found]

    def result(self, word: str) -> Result:
        found = self.reader.synsets(word)  # type: ignore[attr-defined]
        synsets = [(s.pos(), self.to_princeton[s.pos()][s.offset()]) for s in found]
        return synsets, frozenset(name for s in found for name in s.lemma_names())


@pytest.fixture(scope="module")
def oracle(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NltkOracle]:
    nltk = pytest.importorskip("nltk")
    if not (WORDNET_DIR / "data.noun").is_file():
        pytest.skip("Debian's wordnet-base is not installed")
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    build = load_script("build_wordnet")
    make_dir = load_script("make_nltk_wordnet_dir")
    root = str(make_dir.make_nltk_wordnet_dir(tmp_path_factory.mktemp("nltk_data")))
    # NLTK only opens files below a folder on its data path, also when reading lazily later.
    nltk.data.path.insert(0, root)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "multilingual functions are not available"
        reader = WordNetCorpusReader(nltk.data.find("corpora/wordnet"), None)
    to_princeton = {}
    for pos, name in (("n", "noun"), ("v", "verb"), ("a", "adj"), ("r", "adv")):
        data = (WORDNET_DIR / f"data.{name}").read_bytes()
        to_princeton[pos] = build.princeton_offsets(data, name)
    to_princeton["s"] = to_princeton["a"]
    yield NltkOracle(reader, to_princeton)
    nltk.data.path.remove(root)


@pytest.mark.oracle
def test_golden_digest_is_nltks(oracle: NltkOracle) -> None:
    assert digest(sample_words(step=40), oracle.result) == GOLDEN_DIGEST


@pytest.mark.oracle
def test_nltk_view_matches_nltk(oracle: NltkOracle) -> None:
    differing = [word for word in sample_words(step=10) if ours(word) != oracle.result(word)]
    assert differing == []


@pytest.mark.oracle
def test_nltk_view_matches_nltk_per_pos(oracle: NltkOracle) -> None:
    wordnet = nltk_wordnet()
    words = sorted(meteor_wordnet().words())[::15]
    differing = [
        (word, pos)
        for word in words
        for pos in ("n", "v", "a", "s", "r")
        if wordnet.synsets(word, pos) != oracle.synsets(word, pos)  # type: ignore[arg-type]
    ]
    assert differing == []
