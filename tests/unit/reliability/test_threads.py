"""One scorer shared by threads gives the serial scores, during and after the concurrent calls.

The compiled METEOR 1.5 path interns new words into growing per-type tables; several threads
interning unseen words at once used to corrupt them (wrong scores that stayed wrong, or the
kernel refusing the tables). Each trial uses a fresh scorer so that every word is new to it.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from meteor_eval import Meteor, MeteorConfig

THREADS = 8
PAIRS = 300


def _pairs(meteor_data: Path) -> list[tuple[str, list[str]]]:
    hyps = (meteor_data / "xray-system1.hyp").read_text(encoding="utf-8").splitlines()
    refs = (meteor_data / "xray-reference").read_text(encoding="utf-8").splitlines()
    return [(h, [r]) for h, r in zip(hyps[:PAIRS], refs[:PAIRS], strict=True)]


def _hammer(work: Callable[[int], None]) -> list[BaseException]:
    """Run ``work(k)`` in ``THREADS`` threads released together; the exceptions they raised."""
    errors: list[BaseException] = []
    barrier = threading.Barrier(THREADS)

    def run(k: int) -> None:
        barrier.wait()
        try:
            work(k)
        except BaseException as exc:  # reported by the test
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


@pytest.fixture(autouse=True)
def _switch_often() -> object:
    """Switch threads every few microseconds so that interleavings actually happen."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield None
    sys.setswitchinterval(old)


@pytest.mark.parametrize(
    ("flavour", "modules"),
    [
        ("meteor15", ("exact", "stem", "synonym")),
        ("paper2005", ("exact", "stem")),
        ("nltk", ("exact", "stem", "synonym")),
    ],
)
def test_shared_scorer_matches_serial_scores(
    meteor_data: Path, flavour: str, modules: tuple[str, ...]
) -> None:
    pairs = _pairs(meteor_data)
    norm = "lower" if flavour == "nltk" else "norm"
    config = MeteorConfig.preset(flavour, normalization=norm, modules=modules)  # type: ignore[arg-type]
    serial_scorer = Meteor(config)
    expected = [serial_scorer.segment_score(h, refs).score for h, refs in pairs]
    # The compiled path (meteor15) is where tables grow: more trials there.
    for _trial in range(4 if flavour == "meteor15" else 2):
        scorer = Meteor(config)  # fresh: every word is unseen
        got: dict[int, float] = {}

        def work(k: int, scorer: Meteor = scorer, got: dict[int, float] = got) -> None:
            # Each thread walks the pairs from a different start, so new words collide.
            for n in range(PAIRS):
                i = (n + k * PAIRS // THREADS) % PAIRS
                got[i] = scorer.segment_score(*pairs[i]).score

        assert _hammer(work) == []
        assert [got[i] for i in range(PAIRS)] == expected
        # And the scorer is still right afterwards.
        assert [scorer.segment_score(h, refs).score for h, refs in pairs[:50]] == expected[:50]


def test_shared_scorer_batches_match_serial(meteor_data: Path) -> None:
    """The batch path (``best_stats_many``) interns many words at once; threads mix both."""
    pairs = _pairs(meteor_data)
    config = MeteorConfig.preset(
        "meteor15", normalization="norm", modules=("exact", "stem", "synonym")
    )
    expected = [s.to_row() for s in Meteor(config).best_stats_many(pairs)]
    for _trial in range(3):
        scorer = Meteor(config)
        got: dict[int, tuple[int, ...]] = {}

        def work(k: int, scorer: Meteor = scorer, got: dict[int, tuple[int, ...]] = got) -> None:
            lo = (k * 37) % PAIRS
            chunk = pairs[lo:] + pairs[:lo]
            for start in range(0, PAIRS, 60):
                rows = scorer.best_stats_many(chunk[start : start + 60])
                for n, row in enumerate(rows):
                    got[(lo + start + n) % PAIRS] = row.to_row()

        assert _hammer(work) == []
        assert [got[i] for i in range(PAIRS)] == expected


@pytest.mark.parametrize(
    "config",
    [
        MeteorConfig.preset("meteor15", normalization="norm", modules=("exact", "stem", "synonym")),
        MeteorConfig.preset("paper2005"),
        MeteorConfig.preset("nltk"),
    ],
    ids=["meteor15", "paper2005", "nltk"],
)
def test_used_scorer_pickles_and_scores_the_same(config: MeteorConfig) -> None:
    """A scorer that has scored (locks, tables, caches in place) pickles as its configuration."""
    import pickle

    scorer = Meteor(config)
    hyp, refs = "the cats sat on a mat", ["the cat was sitting on the mat"]
    before = scorer.segment_score(hyp, refs)
    copy = pickle.loads(pickle.dumps(scorer))
    assert copy.config == config
    assert copy.segment_score(hyp, refs).score == before.score > 0.2


def test_shared_bleu_and_rouge_match_serial(meteor_data: Path) -> None:
    from meteor_eval.metrics.bleu import Bleu
    from meteor_eval.metrics.rouge import Rouge, RougeConfig

    pairs = _pairs(meteor_data)[:120]
    for metric in (Bleu(), Rouge(RougeConfig(types=("rouge1", "rougeL", "rougeW", "rougeSU")))):
        expected = metric.segment_rows(pairs)
        got: dict[int, object] = {}

        def work(k: int, metric: object = metric, got: dict[int, object] = got) -> None:
            for n in range(len(pairs)):
                i = (n + k * 15) % len(pairs)
                got[i] = metric.segment_rows([pairs[i]])[0]  # type: ignore[attr-defined]

        assert _hammer(work) == []
        assert [got[i] for i in range(len(pairs))] == expected
