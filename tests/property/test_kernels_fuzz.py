"""Every compiled kernel against its pure-Python twin on adversarial, generated inputs.

One property per kernel of ``meteor_eval._ext.kernel_status()`` (normalise, hash, stem, candidates,
beam, stats, pair, greedy, index). Inputs are built to stress the C code rather than to look like
text: any Unicode except surrogates (combining marks, astral characters, control and space
characters of every kind), tokens far longer than the kernels' stack buffers, empty strings, heavy
repetition, Java-hash collisions ("Aa"/"BB") and many references. Each property checks the compiled
result equals the twin's and the kernel's documented invariants (idempotent normalisation,
statistics rows non-negative with matches within the lengths, scores in [0, 1]).

The parity tests of each kernel (``test_compiled_*``, ``test_beam_equivalence``) cover the
realistic inputs; these are bounded for CI (a few seconds each) and also run under the sanitizers
(``scripts/sanitize.py``). Skipped when the extension is not built.
"""

from __future__ import annotations

import gzip
import importlib
import math
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from fakes import assert_beams_agree, assert_stage_lists_agree
from meteor_eval import _ext
from meteor_eval.align.alignment import count_chunks
from meteor_eval.align.greedy import greedy_align_python, match_counts
from meteor_eval.align.search import beam_align_python
from meteor_eval.errors import WorkBudgetError
from meteor_eval.match import stem as stem_module
from meteor_eval.match.base import CandidateStore, Match, Segment
from meteor_eval.match.exact import exact_candidates_python
from meteor_eval.match.paraphrase import ParaphraseMatcher
from meteor_eval.match.stem import StemMatcher
from meteor_eval.match.synonym import SynonymMatcher
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.resources import nltk_porter
from meteor_eval.resources._snowball.v2_2_0.english_stemmer import EnglishStemmer
from meteor_eval.resources._snowball.v2_2_0.porter_stemmer import PorterStemmer
from meteor_eval.resources.nonbreaking import nonbreaking_prefixes
from meteor_eval.resources.paraphrases import ParaphraseTable, open_index
from meteor_eval.stats.meteor import stats_from_alignment
from meteor_eval.text.normalize import normalize_python, normalizer_language
from meteor_eval.text.tokenize import java_hash_python

KERNELS = _ext.built_module()
pytestmark = pytest.mark.skipif(KERNELS is None, reason="compiled extension not built")

BOUNDED = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Characters the C code treats specially or must carry through untouched.
SPECIAL = (
    ".,'`-\u2013\u2014\u2018\u2019\u201c\u201d\"!?:;()$%&/*"
    " \t\x0b\f\r\u00a0\u2000\u2009\u3000\x01\x7f"
    "aAsSyYeé\u0130\u0131\u0178\u017f\u1e9e\u0411ß0159"
    "\u0301\u0327\u0308\u20dd\ufe0f\u200d"  # combining marks, variation selector, joiner
    "\U0001f600\U0001d400\U00010400\U0010ffff"  # astral: emoji, maths, Deseret, the last one
)
# Any code point but surrogates (the tokeniser's input is valid text).
ANY_CHAR = st.characters(exclude_categories=("Cs",))
CHARS = st.one_of(st.sampled_from(SPECIAL), ANY_CHAR)
WORDS = ["Mr", "No", "U.S.", "p.m.", "don't", "l'homme", "...", "Aa", "BB", "running", "ies"]


@st.composite
def tokens(draw: st.DrawFn) -> str:
    """One token: empty, a known word, random characters, or a long run of one of those."""
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return ""
    if kind <= 3:
        return draw(st.sampled_from(WORDS))
    text = draw(st.text(CHARS, min_size=1, max_size=12))
    if kind == 9:  # longer than any stack buffer of the kernels
        return text * draw(st.integers(20, 120))
    return text


@st.composite
def lines(draw: st.DrawFn) -> str:
    parts = draw(st.lists(tokens(), max_size=12))
    return draw(st.sampled_from(["", " ", ".", "\u3000"])).join(parts)


def small_vocab_tokens(size: int = 16) -> st.SearchStrategy[tuple[str, ...]]:
    """Token tuples over a few generated words, so that words (and hashes) repeat a lot."""
    vocab = st.lists(tokens(), min_size=1, max_size=6, unique=True)
    return vocab.flatmap(
        lambda words: st.lists(st.sampled_from([*words, "Aa", "BB"]), max_size=size).map(tuple)
    )


def segment(words: tuple[str, ...]) -> Segment:
    return Segment(words, tuple(java_hash_python(w) for w in words))


# --- normalise -----------------------------------------------------------------------------


_JAVA_TRIMMED = "".join(map(chr, range(0x21)))


@BOUNDED
@given(lines(), st.sampled_from(["en", "fr", "de", "cz", "es", "ru"]), st.booleans())
@example(text="\x85", language="en", keep=True)  # Python's whitespace, not Java's
def test_normalise(text: str, language: str, keep: bool) -> None:
    assert KERNELS is not None
    long_name = normalizer_language(language)
    mode = {"english": 0, "french": 1}.get(long_name, 2)
    prefixes = dict(nonbreaking_prefixes(long_name))
    once = KERNELS.normalize_line(text, mode, keep, prefixes)
    assert once == normalize_python(text, long_name, keep_punctuation=keep)
    # Java's trim: no leading or trailing character up to U+0020 (U+0085, which Python's strip
    # removes, is kept, as the jar keeps it).
    assert "  " not in once and once == once.strip(_JAVA_TRIMMED)
    # Normalised text is normalised: without punctuation nothing of it changes again.
    if not keep:
        assert KERNELS.normalize_line(once, mode, keep, prefixes) == once


# --- hash and stem -------------------------------------------------------------------------


@BOUNDED
@given(st.lists(tokens(), max_size=20))
def test_hash(words: list[str]) -> None:
    assert KERNELS is not None
    for word in words:
        value = KERNELS.java_hash(word)
        assert value == java_hash_python.__wrapped__(word)  # type: ignore[attr-defined]
        assert -(2**31) <= value < 2**31


@BOUNDED
@given(st.lists(st.one_of(tokens(), st.text("aeiouyYsldgbtnmprcizwxAEIOU'*", max_size=30))))
def test_stem(words: list[str]) -> None:
    assert KERNELS is not None
    engine = EnglishStemmer()  # type: ignore[no-untyped-call]
    porter = PorterStemmer()  # type: ignore[no-untyped-call]
    for word in words:
        assert KERNELS.snowball_english(word) == engine.stemWord(word)  # type: ignore[no-untyped-call]
        assert KERNELS.snowball_porter(word) == porter.stemWord(word)  # type: ignore[no-untyped-call]
        lowered = word.lower()
        stemmed = KERNELS.nltk_porter_rules(lowered)
        assert stemmed == nltk_porter._stem_lowered(lowered)
        assert len(stemmed) <= len(lowered) + 1  # a step adds at most one letter ("e")


# --- candidates ----------------------------------------------------------------------------


def _valid(matches: list[Match], hyp: Segment, ref: Segment, stage: int) -> None:
    for m in matches:
        assert type(m) is Match and m.stage == stage
        assert m.hyp_start >= 0 and m.hyp_start + m.hyp_len <= len(hyp.tokens)
        assert m.ref_start >= 0 and m.ref_start + m.ref_len <= len(ref.tokens)


@BOUNDED
@given(small_vocab_tokens(40), small_vocab_tokens(40), st.integers(0, 3))
def test_candidates_exact_and_stem(
    hyp_words: tuple[str, ...], ref_words: tuple[str, ...], stage: int
) -> None:
    assert KERNELS is not None
    hyp, ref = segment(hyp_words), segment(ref_words)
    exact = KERNELS.equal_keys(hyp.ids, ref.ids, hyp.ids, ref.ids, stage, Match, False)
    assert exact == exact_candidates_python(hyp, ref, stage)
    _valid(exact, hyp, ref, stage)
    stemmer = StemMatcher(lambda word: word[:2], java_hash_python)
    assert stem_module._KERNELS is not None  # candidates() runs the compiled equal_keys
    stemmed = stemmer.candidates(hyp, ref, stage)
    assert stemmed == stemmer.candidates_python(hyp, ref, stage)
    _valid(stemmed, hyp, ref, stage)


@BOUNDED
@given(
    small_vocab_tokens(150),
    small_vocab_tokens(150),
    st.lists(st.frozensets(st.integers(-(2**63), 2**63 - 1), max_size=5), min_size=8, max_size=8),
)
def test_candidates_synonym(
    hyp_words: tuple[str, ...], ref_words: tuple[str, ...], sets: list[frozenset[int]]
) -> None:
    # Up to 150 hypothesis words: the compiled generator keeps one bit per position.
    matcher = SynonymMatcher(lambda word: sets[java_hash_python(word) % len(sets)])
    hyp, ref = segment(hyp_words), segment(ref_words)
    found = matcher.candidates(hyp, ref, 2)
    assert found == matcher.candidates_python(hyp, ref, 2)
    _valid(found, hyp, ref, 2)


@pytest.fixture(scope="module")
def paraphrases(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ParaphraseTable]:
    """A small table over adversarial words (phrases of up to four words), and its index."""
    words = ["Aa", "BB", "\u0301", "e\u0301", "\U0001f600", "x" * 300, "ß", "w"]
    phrases = [
        " ".join(words[(k * 7 + i) % len(words)] for i in range(1 + k % 4)) for k in range(40)
    ]
    body = "".join(
        f"0.{k % 9 + 1}\n{a}\n{b}\n" for k, a in enumerate(phrases) for b in phrases[k + 1 :: 3]
    )
    directory = tmp_path_factory.mktemp("paraphrase")
    path = directory / "paraphrase-xx.gz"
    path.write_bytes(gzip.compress(body.encode("utf-8")))
    return path, open_index(path, "xx", directory=directory / "cache")


PARAPHRASE_WORDS = ["Aa", "BB", "\u0301", "e\u0301", "\U0001f600", "x" * 300, "ß", "w", "unknown"]


def _paraphrase_case(
    paraphrases: tuple[Path, ParaphraseTable],
    hyp_words: tuple[str, ...],
    ref_words: tuple[str, ...],
) -> tuple[ParaphraseTable, Segment, Segment, list[Match], Any, Any, Any]:
    """The test table, both segments, the pure-Python matcher's candidates (the expectation),
    the table's index arrays and both sides' token ids, for one paraphrase kernel example."""
    assert KERNELS is not None
    table = paraphrases[1]
    hyp, ref = Segment(hyp_words, ()), Segment(ref_words, ())
    expected = ParaphraseMatcher(table).candidates_python(hyp, ref, 3)
    arrays = table.index_arrays()
    return table, hyp, ref, expected, arrays, table.token_ids(hyp_words), table.token_ids(ref_words)


@settings(BOUNDED, suppress_health_check=list(HealthCheck))
@given(
    st.lists(st.sampled_from(PARAPHRASE_WORDS), min_size=1, max_size=80).map(tuple),
    st.lists(st.sampled_from(PARAPHRASE_WORDS), min_size=1, max_size=80).map(tuple),
)
def test_candidates_paraphrase(
    paraphrases: tuple[Path, ParaphraseTable],
    hyp_words: tuple[str, ...],
    ref_words: tuple[str, ...],
) -> None:
    _, hyp, ref, expected, arrays, hyp_ids, ref_ids = _paraphrase_case(
        paraphrases, hyp_words, ref_words
    )
    root = KERNELS.paraphrase_root(arrays[0], arrays[1])
    assert KERNELS.paraphrase(*arrays, hyp_ids, ref_ids, 3, Match, root) == expected
    assert KERNELS.paraphrase(*arrays, hyp_ids, ref_ids, 3, Match) == expected
    _valid(expected, hyp, ref, 3)


@pytest.fixture(scope="module")
def paraphrase_walks(paraphrases: tuple[Path, ParaphraseTable]) -> object:
    """One paraphrase_walk_cache() bound to the test table for the whole module: every example
    below meets the reference walks and the trie steps cached by the examples before it."""
    assert KERNELS is not None
    return KERNELS.paraphrase_walk_cache()


@settings(BOUNDED, suppress_health_check=list(HealthCheck))
@given(
    st.lists(st.sampled_from(PARAPHRASE_WORDS), min_size=1, max_size=80).map(tuple),
    st.lists(st.sampled_from(PARAPHRASE_WORDS), min_size=1, max_size=80).map(tuple),
    st.booleans(),
)
@example(("Aa", "BB", "Aa", "BB", "Aa"), ("BB", "Aa", "BB", "Aa"), True)
@example(("w", "unknown", "w", "w"), ("w", "w", "unknown"), False)
def test_candidates_paraphrase_walk_cache(
    paraphrases: tuple[Path, ParaphraseTable],
    paraphrase_walks: object,
    hyp_words: tuple[str, ...],
    ref_words: tuple[str, ...],
    with_root: bool,
) -> None:
    """The walk cache (reference walks and the table of (node, word) steps searched before,
    with and without the root table) gives the pure-Python matcher's candidates, on first use
    and on the repeat that is answered from the cache."""
    table, hyp, ref, expected, arrays, hyp_ids, ref_ids = _paraphrase_case(
        paraphrases, hyp_words, ref_words
    )
    root = KERNELS.paraphrase_root(arrays[0], arrays[1]) if with_root else None
    for _ in range(2):
        assert KERNELS.paraphrase(*arrays, hyp_ids, ref_ids, 3, Match, root, paraphrase_walks) == (
            expected
        )
        # Each side in the other's place: the hypothesis's steps are now met as a reference.
        assert KERNELS.paraphrase(*arrays, ref_ids, hyp_ids, 3, Match, root, paraphrase_walks) == (
            ParaphraseMatcher(table).candidates_python(ref, hyp, 3)
        )


def test_paraphrase_walks_argument_refused(paraphrases: tuple[Path, ParaphraseTable]) -> None:
    """A walks argument that is not a paraphrase_walk_cache() is refused with its name."""
    assert KERNELS is not None
    table = paraphrases[1]
    arrays = table.index_arrays()
    ids = table.token_ids(("Aa", "BB"))
    with pytest.raises(TypeError, match="walks: expected a paraphrase_walk_cache"):
        KERNELS.paraphrase(*arrays, ids, ids, 3, Match, None, object())


# --- beam and stats ------------------------------------------------------------------------


@st.composite
def stores(draw: st.DrawFn) -> CandidateStore:
    """Candidate stores in reference order: spans, duplicates, every stage, up to 70 words."""
    n_hyp, n_ref = draw(st.integers(0, 70)), draw(st.integers(0, 70))
    store = CandidateStore(n_hyp, n_ref)
    if n_hyp == 0 or n_ref == 0:
        return store
    for j in sorted(draw(st.lists(st.integers(0, n_ref - 1), max_size=3 * n_ref))):
        ref_len = draw(st.integers(1, min(4, n_ref - j)))
        hyp_start = draw(st.integers(0, n_hyp - 1))
        hyp_len = draw(st.integers(1, min(4, n_hyp - hyp_start)))
        store.add(Match(j, ref_len, hyp_start, hyp_len, draw(st.integers(0, 3))))
    return store


WEIGHTS = st.sampled_from([(1.0, 0.5, 0.5, 0.5), (1.0, 1.0, 1.0, 1.0), (0.0, 0.5, 2.0, 1e-9)])


@BOUNDED
@given(stores(), WEIGHTS, st.sampled_from([1, 2, 3, 40]))
def test_beam(store: CandidateStore, weights: tuple[float, ...], beam: int) -> None:
    assert KERNELS is not None
    got = assert_beams_agree(store, weights, beam)
    assert_stage_lists_agree(store, weights, beam)
    # An alignment: reference order, no word covered twice on either side.
    hyp_used = [i for m in got for i in range(m.hyp_start, m.hyp_start + m.hyp_len)]
    ref_used = [j for m in got for j in range(m.ref_start, m.ref_start + m.ref_len)]
    assert len(set(hyp_used)) == len(hyp_used) and ref_used == sorted(set(ref_used))


@BOUNDED
@given(stores(), st.integers(1, 4), st.randoms(use_true_random=False))
def test_stats(store: CandidateStore, n_stages: int, rnd: object) -> None:
    assert KERNELS is not None
    matches = [
        m._replace(stage=m.stage % n_stages) for m in beam_align_python(store, (1.0, 0.5, 0.5, 0.5))
    ]
    hyp_function = [rnd.random() < 0.3 for _ in range(len(store.hyp_coverage))]  # type: ignore[attr-defined]
    ref_function = [rnd.random() < 0.3 for _ in range(len(store.ref_coverage))]  # type: ignore[attr-defined]
    row = KERNELS.word_stats(matches, hyp_function, ref_function, n_stages)
    chunks = count_chunks(matches, len(store.ref_coverage))
    expected = stats_from_alignment(matches, chunks, hyp_function, ref_function, n_stages)
    assert list(row[:7]) == [
        expected.hyp_length,
        expected.ref_length,
        expected.hyp_function,
        expected.ref_function,
        chunks,
        expected.hyp_matched,
        expected.ref_matched,
    ]
    assert [tuple(row[b : b + 4]) for b in range(7, 7 + 4 * n_stages, 4)] == list(expected.stages)
    assert all(value >= 0 for value in row)
    assert (
        row[5] <= len(store.hyp_coverage)
        and row[6] <= len(store.ref_coverage)
        and row[4] <= min(row[5], row[6])
    )


# --- pair ----------------------------------------------------------------------------------


def _pair_module() -> ModuleType:
    """The module that binds the METEOR 1.5 pair kernel (the metric's fast path)."""
    for name in ("meteor_eval.metrics.meteor.fast", "meteor_eval.metrics.meteor"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(module, "_PAIR_KERNEL"):
            return module
    raise AssertionError("no module binds _PAIR_KERNEL")


@pytest.fixture(scope="module")
def pair_scorers(
    paraphrases: tuple[Path, ParaphraseTable],
) -> Iterator[list[tuple[Meteor, Meteor]]]:
    """(compiled pair path, general path) for two module orders and beams."""
    module = _pair_module()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("METEOR_EVAL_CACHE", str(paraphrases[0].parent / "cache"))
        patch.setattr(module, "_PAIR_KERNEL", KERNELS)
        configs = [
            MeteorConfig.preset(
                "meteor15",
                normalization=norm,
                modules=modules,
                beam=beam,
                paraphrase_table=str(paraphrases[0]),
            )
            for norm, modules, beam in (
                ("norm", ("exact", "stem", "synonym", "paraphrase"), 40),
                ("lower", ("paraphrase", "synonym", "stem", "exact"), 2),
            )
        ]
        fused = [Meteor(config) for config in configs]
        with pytest.MonkeyPatch.context() as without:  # the general path is chosen at creation
            without.setattr(module, "_PAIR_KERNEL", None)
            general = [Meteor(config) for config in configs]
        yield list(zip(fused, general, strict=True))


@settings(BOUNDED, max_examples=60, suppress_health_check=list(HealthCheck))
@given(lines(), st.lists(lines(), min_size=1, max_size=8), st.integers(0, 1))
def test_pair(
    pair_scorers: list[tuple[Meteor, Meteor]], hyp: str, refs: list[str], which: int
) -> None:
    fused, general = pair_scorers[which]
    try:
        a = fused.segment_score(hyp, refs, alignment=True)
    except WorkBudgetError:  # a long generated line over the work budget
        with pytest.raises(WorkBudgetError):  # both paths refuse the same segment
            general.segment_score(hyp, refs, alignment=True)
        return
    b = general.segment_score(hyp, refs, alignment=True)
    assert a.stats == b.stats and a.reference_index == b.reference_index
    assert a.alignment is not None and b.alignment is not None
    assert a.alignment.matches == b.alignment.matches
    assert a.score == b.score and 0.0 <= a.score <= 1.0 and not math.isnan(a.score)
    row = a.stats.to_row()
    assert all(value >= 0 for value in row)
    assert a.stats.hyp_matched <= a.stats.hyp_length and a.stats.ref_matched <= a.stats.ref_length


# --- greedy --------------------------------------------------------------------------------


@BOUNDED
@given(small_vocab_tokens(30), small_vocab_tokens(30), st.integers(0, 2))
def test_greedy(hyp: tuple[str, ...], ref: tuple[str, ...], stages: int) -> None:
    assert KERNELS is not None

    def stem(word: str) -> str:
        return word[:-1] if len(word) > 1 else word

    def synonyms(word: str) -> frozenset[str]:
        return frozenset({word, word[:1]})

    stem_function = stem if stages >= 1 else None
    synonym_function = synonyms if stages >= 2 else None
    got = KERNELS.greedy_align(list(hyp), list(ref), stem_function, synonym_function)
    assert got == greedy_align_python(hyp, ref, stem=stem_function, synonyms=synonym_function)
    counts = KERNELS.greedy_counts(list(hyp), list(ref), stem_function, synonym_function)
    assert counts == match_counts(got)
    assert len({i for i, _, _ in got}) == len(got) == len({j for _, j, _ in got})
    assert all(0 <= i < len(hyp) and 0 <= j < len(ref) and 0 <= s <= stages for i, j, s in got)


_PHRASE_BYTES = st.lists(
    # No \r: the builder splits lines on it before tokenising.
    st.sampled_from([b"a", b"b", b"ab", b"\xc3\xa9", b" ", b"\t", b"\x0c", b"\x0b", b"x"]),
    max_size=12,
).map(b"".join)


@settings(max_examples=200, deadline=None)
@given(phrases=st.lists(_PHRASE_BYTES, max_size=12), known=st.lists(_PHRASE_BYTES, max_size=4))
def test_index_tokenizer(phrases: list[bytes], known: list[bytes]) -> None:
    # The compiled tokeniser of the index builder against its twin: same ids, same counts, the
    # same vocabulary afterwards (new tokens numbered in order of first occurrence).
    from meteor_eval.resources._paraphrase_build import _tokenize_python, _Vocabulary

    assert KERNELS is not None
    joined = b"\n".join(phrases)
    assume(joined)  # the builder's _tokenize answers an empty text itself
    compiled, python = _Vocabulary(), _Vocabulary()
    for word in known:  # a vocabulary that already holds some tokens
        compiled[word] = python[word] = len(compiled)
    ids, counts = KERNELS.paraphrase_tokenize(joined, compiled)
    want_ids, want_counts = _tokenize_python(joined, python)
    assert np.frombuffer(ids, np.uint32).tolist() == want_ids.tolist()
    assert np.frombuffer(counts, np.int64).tolist() == want_counts.tolist()
    assert list(compiled.items()) == list(python.items())


# Lines of a paraphrase table: every byte the reader treats specially (line ends \n, \r\n, \r;
# separators; a vertical tab, which is not one; valid and invalid UTF-8, cut sequences).
_TABLE_PIECES = st.sampled_from(
    [
        *(b"a", b"b", b"ab", b"\xc3\xa9", b"\xc3", b"\xed\xa0\x80", b"\xf0\x9f\x98\x80", b"\xff"),
        *(b" ", b"\t", b"\x0c", b"\x0b", b"\n", b"\r", b"\r\n", b"0.5\n"),
    ]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.one_of(
        st.lists(_TABLE_PIECES, max_size=60).map(b"".join),
        # Whole records, phrase A often repeated (the runs the pass looks up once).
        st.lists(
            st.tuples(st.sampled_from([b"a b", b"a", b"b\xc3", b"", b" a"]), _PHRASE_BYTES),
            max_size=12,
        ).map(lambda records: b"".join(b"0.1\n" + a + b"\r\n" + b + b"\n" for a, b in records)),
    ),
    block=st.integers(1, 9),
    batch=st.integers(1, 4),
)
def test_index_pass(text: bytes, block: int, batch: int) -> None:
    # The compiled single pass of the index builder against the numpy builder (its twin, with
    # the pure-Python tokeniser): the same arrays, or the same error, at any block size and
    # any batch of phrases (runs of phrase A crossing batches).
    import tempfile

    from meteor_eval.errors import ResourceError
    from meteor_eval.resources import _paraphrase_build as build

    assert build._COMPILED_PASS is not None
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "table.gz"
        path.write_bytes(gzip.compress(text, mtime=0))
        saved = (build._BLOCK, build._PASS_BATCH, build._COMPILED_PASS, build._COMPILED_TOKENIZE)
        results: list[object] = []
        try:
            build._BLOCK, build._PASS_BATCH = block, batch  # type: ignore[misc]
            for compiled in (True, False):
                if not compiled:
                    build._COMPILED_PASS = build._COMPILED_TOKENIZE = None  # type: ignore[misc]
                try:
                    built = build.build_arrays(path)
                except ResourceError as error:
                    results.append(str(error))
                else:
                    arrays = ("first_child", "token", "parent", "record_start", "record_b")
                    results.append(
                        (
                            built.vocab,
                            built.vocab_count,
                            built.skipped,
                            *(getattr(built, name).tolist() for name in arrays),
                        )
                    )
        finally:
            (  # type: ignore[misc]
                build._BLOCK,
                build._PASS_BATCH,
                build._COMPILED_PASS,
                build._COMPILED_TOKENIZE,
            ) = saved
    assert results[0] == results[1]
