"""Speed of the sacrebleu and rouge-score drop-ins against the packages they replace.

On the xray data of ``../shared/data/meteor15`` (2,489 segments), best of ``--repeat`` runs:

* ``corpus_bleu(system1, [reference, system2])`` (two reference streams);
* ``PairedTest([system1, system2], {"BLEU": BLEU()}, [reference], test_type)()`` for ``bs``
  (1000 resamples) and ``ar`` (10000 trials), the defaults;
* ``RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"]).score`` over every segment.

Each line prints the peer's time, the drop-in's and their ratio; a peer that is not installed is
left out. Run from the repository root::

    python scripts/bench_dropins.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

from _common import shortest_run

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "meteor15"


def report(name: str, peer: float | None, ours: float) -> None:
    """One result line."""
    if peer is None:
        print(f"{name:<28} drop-in {ours:7.3f} s (peer not installed)")
    else:
        print(f"{name:<28} peer {peer:7.3f} s  drop-in {ours:7.3f} s  x{peer / ours:.2f}")


def main() -> None:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per case (best kept)")
    repeat = parser.parse_args().repeat

    import meteor_eval.compat.sacrebleu as ours_bleu
    from meteor_eval.compat.rouge_score import rouge_scorer as ours_rouge
    from meteor_eval.compat.sacrebleu.significance import PairedTest

    ref = (DATA / "xray-reference").read_text(encoding="utf-8").splitlines()
    one = (DATA / "xray-system1.hyp").read_text(encoding="utf-8").splitlines()
    two = (DATA / "xray-system2.hyp").read_text(encoding="utf-8").splitlines()
    has_sacrebleu = importlib.util.find_spec("sacrebleu") is not None
    has_rouge = importlib.util.find_spec("rouge_score") is not None

    def peer_bleu() -> object:
        import sacrebleu

        return sacrebleu.corpus_bleu(one, [ref, two])

    report(
        "corpus_bleu, 2 streams",
        shortest_run(repeat, peer_bleu) if has_sacrebleu else None,
        shortest_run(repeat, lambda: ours_bleu.corpus_bleu(one, [ref, two])),
    )
    named = [("system1", one), ("system2", two)]
    for method in ("bs", "ar"):

        def peer_test(method: str = method) -> object:
            from sacrebleu.metrics import BLEU
            from sacrebleu.significance import PairedTest as Peer

            return Peer(named, {"BLEU": BLEU()}, [ref], method)()

        def our_test(method: str = method) -> object:
            return PairedTest(named, {"BLEU": ours_bleu.BLEU()}, [ref], method)()

        report(
            f"PairedTest {method}",
            shortest_run(1, peer_test) if has_sacrebleu else None,
            shortest_run(1, our_test),
        )
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]

    def peer_rouge() -> object:
        from rouge_score import rouge_scorer

        scorer = rouge_scorer.RougeScorer(types)
        return [scorer.score(r, h) for r, h in zip(ref, one, strict=True)]

    def our_rouge() -> object:
        scorer = ours_rouge.RougeScorer(types)
        return [scorer.score(r, h) for r, h in zip(ref, one, strict=True)]

    report(
        "RougeScorer.score, 4 types",
        shortest_run(repeat, peer_rouge) if has_rouge else None,
        shortest_run(repeat, our_rouge),
    )


if __name__ == "__main__":
    main()
