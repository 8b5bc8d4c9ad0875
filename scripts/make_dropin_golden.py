"""Golden values from sacrebleu and rouge-score for the drop-in tests
(tests/reference/test_sacrebleu_dropin.py and test_rouge_score_dropin.py).

Scores themselves are already recorded (golden/bleu/sacrebleu.json.gz, golden/rouge/,
golden/significance/); this file adds what only the drop-ins' API shows, on the xray data of
golden/bleu/inputs.json.gz:

* ``bleu_text``: sacrebleu's ``str(score)``, ``score.format(signature=...)``, the JSON form,
  ``format(width=4, score_only=True)`` and the long and short signatures of ``BLEU(...)``
  corpus scores for a few settings (one with ``n_bootstrap=200``, seed 12345), and of
  ``sentence_bleu`` on a few segments;
* ``aggregator``: rouge-score's ``BootstrapAggregator`` (after ``numpy.random.seed(123)``) over
  the first 300 xray1 segments for rouge1, rougeL and rougeLsum, two settings;
* ``custom_tokenizer``: ``RougeScorer(types, tokenizer=WhitespaceTokenizer())`` (a tokenizer
  that splits on white space only, keeping case and punctuation) ``score`` on the first 300
  xray1 segments and ``score_multi`` on the first 300 xray1-2refs segments.

Made with sacrebleu 2.6.0, rouge-score 0.1.2, numpy 2.x. Run from the repository root::

    python scripts/make_dropin_golden.py
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
INPUTS = ROOT / "tests" / "reference" / "golden" / "bleu" / "inputs.json.gz"
OUT = ROOT / "tests" / "reference" / "golden" / "dropins" / "peers.json.gz"

#: ``(options, n_bootstrap)`` of the recorded corpus scores.
BLEU_TEXT_CASES: tuple[tuple[dict[str, Any], int], ...] = (
    ({}, 1),
    ({"tokenize": "intl", "lowercase": True}, 1),
    ({"smooth_method": "add-k", "smooth_value": 2, "effective_order": True}, 1),
    ({"smooth_method": "floor"}, 1),
    ({}, 200),
)
SENTENCE_SEGMENTS = (0, 1, 7)
AGGREGATOR_CASES = (
    {"confidence_interval": 0.95, "n_samples": 1000},
    {"confidence_interval": 0.9, "n_samples": 200},
)
ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
N_ROUGE = 300


class WhitespaceTokenizer:
    """Splits on white space only (keeps case and punctuation)."""

    def tokenize(self, text: str) -> list[str]:
        return text.split()


def inputs() -> dict[str, list[str]]:
    with gzip.open(INPUTS, "rt", encoding="utf-8") as handle:
        data: dict[str, list[str]] = json.load(handle)
    return data


def bleu_text(data: dict[str, list[str]]) -> list[dict[str, Any]]:
    from sacrebleu.metrics import BLEU

    hyps, ref = data["xray-system1"], data["xray-reference"]
    out = []
    for options, n_bootstrap in BLEU_TEXT_CASES:
        bleu = BLEU(**options)
        score = bleu.corpus_score(hyps, [ref], n_bootstrap=n_bootstrap)
        signature = bleu.get_signature()
        out.append(
            {
                "options": options,
                "n_bootstrap": n_bootstrap,
                "str": str(score),
                "with_signature": score.format(signature=str(signature)),
                "json": score.format(signature=str(signature), is_json=True),
                "score_only": score.format(width=4, score_only=True),
                "signature": signature.format(),
                "short": signature.format(short=True),
                "counts": list(score.counts),
                "totals": list(score.totals),
            }
        )
    for index in SENTENCE_SEGMENTS:
        bleu = BLEU(effective_order=True)
        score = bleu.sentence_score(hyps[index], [ref[index]])
        out.append(
            {
                "segment": index,
                "str": str(score),
                "signature": bleu.get_signature().format(),
            }
        )
    return out


def aggregator(data: dict[str, list[str]]) -> list[dict[str, Any]]:
    import numpy as np
    from rouge_score import rouge_scorer, scoring

    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL", "rougeLsum"])
    pairs = list(zip(data["xray-reference"], data["xray-system1"], strict=True))[:N_ROUGE]
    scores = [scorer.score(target, prediction) for target, prediction in pairs]
    out = []
    for options in AGGREGATOR_CASES:
        np.random.seed(123)
        agg = scoring.BootstrapAggregator(**options)
        for item in scores:
            agg.add_scores(item)
        result = agg.aggregate()
        out.append(
            {
                "options": options,
                "result": {
                    t: [[float(x) for x in bound] for bound in r] for t, r in result.items()
                },
            }
        )
    return out


def custom_tokenizer(data: dict[str, list[str]]) -> dict[str, Any]:
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(list(ROUGE_TYPES), tokenizer=WhitespaceTokenizer())
    ref, one, two = data["xray-reference"], data["xray-system1"], data["xray-system2"]
    single = [scorer.score(ref[i], one[i]) for i in range(N_ROUGE)]
    multi = [scorer.score_multi([ref[i], two[i]], one[i]) for i in range(N_ROUGE)]
    return {
        "score": [{t: list(s[t]) for t in ROUGE_TYPES} for s in single],
        "score_multi": [{t: list(s[t]) for t in ROUGE_TYPES} for s in multi],
    }


def main() -> None:
    import rouge_score  # noqa: F401 - fail early without the peers
    import sacrebleu

    data = inputs()
    payload = {
        "sacrebleu": sacrebleu.__version__,
        "bleu_text": bleu_text(data),
        "aggregator": aggregator(data),
        "custom_tokenizer": custom_tokenizer(data),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(OUT, "wb", mtime=0) as handle:
        handle.write(json.dumps(payload, separators=(",", ":")).encode("utf-8"))


if __name__ == "__main__":
    main()
