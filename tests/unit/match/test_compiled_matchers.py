"""The compiled candidate generators (``_ext/candidates.c``, ``_ext/paraphrase.c``) against the
pure-Python ones.

Every matcher keeps its pure-Python code as the reference (``candidates_python`` /
``exact_candidates_python``); the compiled path must return the same ``Match`` objects in the same
order, duplicates included, on random ambiguous sentences (small vocabularies, so that words,
stems, synonym sets and paraphrase phrases repeat) and on real data. Skipped when the extension
is not built.
"""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import pytest

from meteor_eval._ext import compiled_kernels
from meteor_eval.match.base import Match, Segment
from meteor_eval.match.exact import ExactMatcher, exact_candidates_python
from meteor_eval.match.paraphrase import ParaphraseMatcher
from meteor_eval.match.stem import StemMatcher
from meteor_eval.match.synonym import SynonymMatcher
from meteor_eval.resources.paraphrases import ParaphraseTable, open_index
from meteor_eval.text.tokenize import java_hash

pytestmark = pytest.mark.skipif(
    compiled_kernels("equal_keys", "sets_intersect", "paraphrase") is None,
    reason="compiled extension not built (or METEOR_EVAL_PURE_PYTHON=1)",
)

VOCAB = [f"w{k}" for k in range(12)] + ["Aa", "BB"]  # "Aa" and "BB" share a Java hash


def segment(rng: random.Random, length: int) -> Segment:
    tokens = tuple(rng.choice(VOCAB) for _ in range(length))
    return Segment(tokens, tuple(java_hash(t) for t in tokens))


def pairs(seed: int, count: int) -> list[tuple[Segment, Segment]]:
    rng = random.Random(seed)
    return [
        (segment(rng, rng.randint(0, 30)), segment(rng, rng.randint(0, 30))) for _ in range(count)
    ]


def same(fast: list[Match], slow: list[Match]) -> None:
    assert fast == slow
    assert all(type(m) is Match for m in fast)


def test_exact_matches_python() -> None:
    matcher = ExactMatcher()
    for hyp, ref in pairs(1, 400):
        same(matcher.candidates(hyp, ref, 0), exact_candidates_python(hyp, ref, 0))


def test_stem_matches_python() -> None:
    # Stems collide across words (w1 and w11 both stem to "w1"), plus equal-hash words.
    matcher = StemMatcher(lambda word: word[:2], java_hash)
    for hyp, ref in pairs(2, 400):
        same(matcher.candidates(hyp, ref, 1), matcher.candidates_python(hyp, ref, 1))


def test_synonym_matches_python() -> None:
    rng = random.Random(3)
    sets = {word: frozenset(rng.sample(range(-5, 40), rng.randint(0, 4))) for word in VOCAB}
    sets["w0"] = frozenset({2**62, -(2**62)})  # extremes of the packed 64-bit form
    matcher = SynonymMatcher(sets.__getitem__)
    for hyp, ref in pairs(4, 400):
        same(matcher.candidates(hyp, ref, 2), matcher.candidates_python(hyp, ref, 2))


def test_synonym_matches_python_on_long_segments() -> None:
    # Hypotheses longer than 64 and 128 words (the compiled generator keeps one bit per
    # hypothesis position), dense sets, hash-colliding identities and empty sets.
    rng = random.Random(5)
    vocab = [f"v{k}" for k in range(60)] + ["Aa", "BB"]
    sets = {word: frozenset(rng.sample(range(500), rng.randint(0, 6))) for word in vocab}
    sets["Aa"] = sets["BB"] = frozenset({7, 8})
    matcher = SynonymMatcher(sets.__getitem__)
    for length in (1, 63, 64, 65, 127, 128, 129, 200):
        for _ in range(5):
            hyp_tokens = tuple(rng.choice(vocab) for _ in range(length))
            ref_tokens = tuple(rng.choice(vocab) for _ in range(rng.randint(0, 90)))
            hyp = Segment(hyp_tokens, tuple(java_hash(t) for t in hyp_tokens))
            ref = Segment(ref_tokens, tuple(java_hash(t) for t in ref_tokens))
            same(matcher.candidates(hyp, ref, 2), matcher.candidates_python(hyp, ref, 2))


def test_synonym_identifiers_beyond_64_bits_fall_back_to_python() -> None:
    sets = {"a": frozenset({2**70}), "b": frozenset({2**70, 1})}
    matcher = SynonymMatcher(sets.__getitem__)
    hyp = Segment(("a",), (java_hash("a"),))
    ref = Segment(("b",), (java_hash("b"),))
    assert matcher.candidates(hyp, ref, 2) == [Match(0, 1, 0, 1, 2)]


def _random_table(
    tmp_path: Path, language: str, rng: random.Random, words: list[str], longest: int, records: int
) -> ParaphraseTable:
    """An indexed paraphrase table of ``records`` random pairs of phrases of 1 to ``longest``
    of ``words``, drawn from ``rng``."""

    def phrase() -> str:
        return " ".join(rng.choice(words) for _ in range(rng.randint(1, longest)))

    phrase_pairs = [(phrase(), phrase()) for _ in range(records)]
    body = "".join(f"0.1\n{a}\n{b}\n" for a, b in phrase_pairs)
    path = tmp_path / f"paraphrase-{language}.gz"
    path.write_bytes(gzip.compress(body.encode("utf-8")))
    return open_index(path, language, directory=tmp_path / "cache")


def test_paraphrase_matches_python(tmp_path: Path) -> None:
    table = _random_table(tmp_path, "xx", random.Random(5), VOCAB[:8], longest=3, records=120)
    matcher = ParaphraseMatcher(table)
    total = 0
    for hyp, ref in pairs(6, 300):
        fast = matcher.candidates(hyp, ref, 3)
        same(fast, matcher.candidates_python(hyp, ref, 3))
        total += len(fast)
    assert total > 1000  # the sentences really are ambiguous


def test_real_sentences_all_stages() -> None:
    from meteor_eval.resources.stemmers import get_stemmer
    from meteor_eval.resources.synonyms import meteor_wordnet
    from meteor_eval.text.tokenize import preprocess

    data = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "meteor15"
    if not (data / "xray-system1.hyp").is_file():
        pytest.skip("example data not available")
    hyps = (data / "xray-system1.hyp").read_text(encoding="utf-8").splitlines()[::5]
    refs = (data / "xray-reference").read_text(encoding="utf-8").splitlines()[::5]
    stem = StemMatcher(get_stemmer("english"), java_hash)
    synonym = SynonymMatcher(meteor_wordnet().synonym_set)

    def seg(text: str) -> Segment:
        tokens = tuple(preprocess(text, language="en", level="norm"))
        return Segment(tokens, tuple(java_hash(t) for t in tokens))

    for h, r in zip(hyps, refs, strict=True):
        hyp, ref = seg(h), seg(r)
        same(ExactMatcher().candidates(hyp, ref, 0), exact_candidates_python(hyp, ref, 0))
        same(stem.candidates(hyp, ref, 1), stem.candidates_python(hyp, ref, 1))
        same(synonym.candidates(hyp, ref, 2), synonym.candidates_python(hyp, ref, 2))


def test_paraphrase_long_sentences_with_and_without_root_table(tmp_path: Path) -> None:
    """Long walks (phrases of up to five words), unknown words and shared prefixes.

    The compiled walk advances every start position together and searches child lists in
    lockstep; the order of its candidates must still be the reference's, with or without the
    root lookup table.
    """
    rng = random.Random(8)
    words = VOCAB[:6]
    table = _random_table(tmp_path, "yy", rng, words, longest=5, records=400)
    matcher = ParaphraseMatcher(table)
    kernels = compiled_kernels("paraphrase", "paraphrase_root")
    assert kernels is not None
    arrays = table.index_arrays()
    root = kernels.paraphrase_root(arrays[0], arrays[1])
    vocab = [*words, "unknown"]  # not in the table: id -1 stops the walks
    total = 0
    for _ in range(150):
        hyp = Segment(tuple(rng.choice(vocab) for _ in range(rng.randint(1, 70))), ())
        ref = Segment(tuple(rng.choice(vocab) for _ in range(rng.randint(1, 70))), ())
        expected = matcher.candidates_python(hyp, ref, 3)
        hyp_ids, ref_ids = table.token_ids(hyp.tokens), table.token_ids(ref.tokens)
        same(kernels.paraphrase(*arrays, hyp_ids, ref_ids, 3, Match, root), expected)
        same(kernels.paraphrase(*arrays, hyp_ids, ref_ids, 3, Match), expected)
        total += len(expected)
    assert total > 10_000
