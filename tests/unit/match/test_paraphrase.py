"""Paraphrase candidates follow METEOR 1.5's order exactly (spec section 3.4), duplicates kept.

The tables are tiny gzip files written by the tests; the expected candidate lists are worked out
by hand from the two passes of section 3.4, and a naive transcription of those passes serves as
an oracle on random sentences.
"""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import pytest

from meteor_eval.match.base import CandidateStore, Match, Segment
from meteor_eval.match.paraphrase import ParaphraseMatcher
from meteor_eval.resources.paraphrases import ParaphraseTable, open_index

STAGE = 3


def write_table(path: Path, records: list[tuple[str, str]]) -> Path:
    """A table in the jar's format: probability, phrase A, phrase B per record."""
    body = "".join(f"0.5\n{a}\n{b}\n" for a, b in records)
    path.write_bytes(gzip.compress(body.encode("utf-8")))
    return path


def open_table(tmp_path: Path, records: list[tuple[str, str]]) -> ParaphraseTable:
    table = write_table(tmp_path / "paraphrase-xx.gz", records)
    return open_index(table, "xx", directory=tmp_path / "cache")


def seg(text: str) -> Segment:
    tokens = tuple(text.split())
    return Segment(tokens, tuple(range(len(tokens))))


def candidates(table: ParaphraseTable, hyp: str, ref: str) -> list[Match]:
    return ParaphraseMatcher(table).candidates(seg(hyp), seg(ref), STAGE)


RECORDS = [
    ("a", "x y"),  # 1
    ("a b", "z"),  # 2
    ("x y", "a"),  # 3: mirror of 1, so the pair (a, x y) is proposed twice
    ("a", "q"),  # 4: same A as record 1, later in the file
    ("c d e", "w"),  # 5
]


@pytest.fixture
def table(tmp_path: Path) -> ParaphraseTable:
    return open_table(tmp_path, RECORDS)


def test_order_of_both_passes_with_mirror_duplicate(table: ParaphraseTable) -> None:
    # Pass 1, j=0: depth 1 "a" -> records 1 and 4 in file order, then depth 2 "a b" -> record 2.
    # Pass 2, i=0: "x y" (record 3) finds "a" at reference 0: the same span pair as record 1.
    assert candidates(table, "x y z q", "a b") == [
        Match(0, 1, 0, 2, STAGE),
        Match(0, 1, 3, 1, STAGE),
        Match(0, 2, 2, 1, STAGE),
        Match(0, 1, 0, 2, STAGE),
    ]


def test_duplicates_raise_coverage_to_two(table: ParaphraseTable) -> None:
    store = CandidateStore(2, 1)
    store.extend(candidates(table, "x y", "a"))
    assert store.by_ref[0] == [Match(0, 1, 0, 2, STAGE), Match(0, 1, 0, 2, STAGE)]
    assert store.ref_coverage == [2]
    assert store.hyp_coverage == [2, 2]


def test_every_hypothesis_occurrence_ascending(table: ParaphraseTable) -> None:
    assert candidates(table, "q w q", "a") == [Match(0, 1, 0, 1, STAGE), Match(0, 1, 2, 1, STAGE)]


def test_reference_starts_ascending_and_pass_two_after_pass_one(table: ParaphraseTable) -> None:
    # Pass 1: j=0 "a" finds B "q" at hypothesis 1 (record 4); j=1 "x y" finds B "a" at
    # hypothesis 0 (record 3). Pass 2: i=0 "a" finds B "x y" at reference 1 (record 1).
    assert candidates(table, "a q", "a x y") == [
        Match(0, 1, 1, 1, STAGE),
        Match(1, 2, 0, 1, STAGE),
        Match(1, 2, 0, 1, STAGE),
    ]


def test_multiword_on_both_sides(tmp_path: Path) -> None:
    table = open_table(tmp_path, [("in order to", "so as to"), ("so as to", "in order to")])
    assert candidates(table, "we left so as to win", "we left in order to win") == [
        Match(2, 3, 2, 3, STAGE),
        Match(2, 3, 2, 3, STAGE),
    ]


def test_phrase_b_must_not_run_off_the_end(table: ParaphraseTable) -> None:
    # "x y" would match at hypothesis 1, but the hypothesis ends after "x".
    assert candidates(table, "z x", "a") == []


def test_phrase_a_must_not_run_off_the_end(table: ParaphraseTable) -> None:
    assert candidates(table, "w", "c d") == []


def test_walk_stops_at_first_missing_token(table: ParaphraseTable) -> None:
    ids = table.token_ids(["c", "d", "f", "e"])
    assert [depth for depth, _ in table.walk(ids, 0)] == [1, 2]
    assert candidates(table, "w", "c d f e") == []
    assert candidates(table, "w", "c d e") == [Match(0, 3, 0, 1, STAGE)]


def test_unknown_words_and_empty_segments(table: ParaphraseTable) -> None:
    assert candidates(table, "unknown words", "a") == []
    assert candidates(table, "", "a") == []
    assert candidates(table, "q", "") == []


def test_true_string_equality_not_java_hash(tmp_path: Path) -> None:
    # "Aa" and "BB" share a Java hash code (spec J1) but are different strings.
    table = open_table(tmp_path, [("Aa", "q")])
    assert candidates(table, "q", "BB") == []
    assert candidates(table, "q", "Aa") == [Match(0, 1, 0, 1, STAGE)]


def test_stage_label_is_passed_through(table: ParaphraseTable) -> None:
    matcher = ParaphraseMatcher(table)
    assert matcher.candidates(seg("q"), seg("a"), 1) == [Match(0, 1, 0, 1, 1)]
    assert matcher.name == "paraphrase"


# -- naive oracle ------------------------------------------------------------------------------


def naive_candidates(records: list[tuple[str, str]], hyp: list[str], ref: list[str]) -> list[Match]:
    """Section 3.4 transcribed literally, with a dictionary instead of a trie."""
    by_a: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    prefixes: set[tuple[str, ...]] = set()
    for a, b in records:
        key = tuple(a.split())
        by_a.setdefault(key, []).append(tuple(b.split()))
        prefixes.update(key[:n] for n in range(1, len(key) + 1))

    def paths(words: list[str], k: int) -> list[tuple[int, tuple[str, ...]]]:
        out = []
        for d in range(1, len(words) - k + 1):
            if tuple(words[k : k + d]) not in prefixes:
                break
            out.extend((d, b) for b in by_a.get(tuple(words[k : k + d]), []))
        return out

    def occurs(b: tuple[str, ...], words: list[str], i: int) -> bool:
        return tuple(words[i : i + len(b)]) == b

    result = []
    for j in range(len(ref)):
        for d, b in paths(ref, j):
            result.extend(
                Match(j, d, i, len(b), STAGE) for i in range(len(hyp)) if occurs(b, hyp, i)
            )
    for i in range(len(hyp)):
        for d, b in paths(hyp, i):
            result.extend(
                Match(j, len(b), i, d, STAGE) for j in range(len(ref)) if occurs(b, ref, j)
            )
    return result


def test_agrees_with_naive_oracle_on_random_sentences(tmp_path: Path) -> None:
    rng = random.Random(1234)
    vocab = ["a", "b", "c", "d", "e"]

    def phrase() -> str:
        return " ".join(rng.choice(vocab) for _ in range(rng.randint(1, 3)))

    pairs = {(phrase(), phrase()) for _ in range(60)}
    records = [(a, b) for a, b in sorted(pairs) if a != b]
    rng.shuffle(records)
    table = open_table(tmp_path, records)
    matcher = ParaphraseMatcher(table)
    for _ in range(300):
        hyp = [rng.choice([*vocab, "z"]) for _ in range(rng.randint(0, 8))]
        ref = [rng.choice([*vocab, "z"]) for _ in range(rng.randint(0, 8))]
        expected = naive_candidates(records, hyp, ref) if hyp and ref else []
        got = matcher.candidates(seg(" ".join(hyp)), seg(" ".join(ref)), STAGE)
        assert got == expected, (hyp, ref)
