"""Write ``tests/data/train_tiny.jsonl``: a small judgements table for ``meteor-eval train`` tests.

The texts are the project's own example data (``src/meteor_eval/examples``, Apache-2.0). The
human scores are made up: not judgements of people, but METEOR scores under fixed parameters
chosen here (``HIDDEN``), rounded to 4 decimals, so that the tests know which optimum a search
should reach (a segment-level Kendall tau-b of 1).

Layout: the 30 example segments as two language pairs (``xx-en``: segments 1-15, ``yy-en``:
16-30), three systems per segment, each judged against ``references.txt``:

* ``sysA``: ``hypotheses.txt``;
* ``sysB``: ``references2.txt`` (a second human translation used as a system);
* ``sysC``: ``hypotheses.txt`` with every third word dropped.

Usage::

    python scripts/make_train_fixture.py
"""

from __future__ import annotations

import json
from pathlib import Path

from meteor_eval.metrics.meteor import Meteor, MeteorConfig

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "src" / "meteor_eval" / "examples"
OUT = ROOT / "tests" / "data" / "train_tiny.jsonl"

#: The parameters that make the made-up human scores.
HIDDEN = {"alpha": 0.5, "beta": 1.0, "gamma": 0.5, "delta": 0.5, "weights": (1.0, 0.5, 0.0)}


def _lines(name: str) -> list[str]:
    return (EXAMPLES / name).read_text(encoding="utf-8").splitlines()


def main() -> None:
    """Write the fixture."""
    hyps = _lines("hypotheses.txt")
    refs = _lines("references.txt")
    systems = {
        "sysA": hyps,
        "sysB": _lines("references2.txt"),
        "sysC": [" ".join(w for k, w in enumerate(h.split()) if k % 3 != 2) for h in hyps],
    }
    config = MeteorConfig.preset(modules=("exact", "stem", "synonym"), **HIDDEN)  # type: ignore[arg-type]
    meteor = Meteor(config)
    with OUT.open("w", encoding="utf-8") as out:
        for k, ref in enumerate(refs):
            for name, texts in systems.items():
                human = round(meteor.segment_score(texts[k], [ref]).score, 4)
                record = {
                    "lp": "xx-en" if k < 15 else "yy-en",
                    "system": name,
                    "seg_id": k + 1,
                    "hyp": texts[k],
                    "ref": ref,
                    "human": human,
                }
                out.write(json.dumps(record, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
