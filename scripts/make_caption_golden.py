"""Write the caption goldens: pycocoevalcap's tokens and scores, so tests run without Java.

Oracle: pycocoevalcap 1.2 from PyPI (its ``stanford-corenlp-3.4.1.jar`` and ``meteor-1.5.jar``)
on OpenJDK 17. Run from the repository root::

    python scripts/make_caption_corpus.py --images 400 --systems 2 --seed 24 \\
        --out tests/data/captions
    python scripts/make_caption_golden.py

It reads ``tests/data/captions/{captions.json,results-*.json}`` and
``tests/data/captions/tokenizer_cases.txt`` (hand-written, one caption a line) and writes
``tests/data/captions/golden.json``:

* ``tokenizer_cases``: each hand-written caption and pycocoevalcap's ``PTBTokenizer`` output for
  it (every case in one call, in file order, as the tokenizer reads them);
* ``tokenized``: for each results file, the tokenized references and results (``gts``/``res``
  as ``COCOEvalCap.evaluate`` builds them);
* ``scores``: for each results file, every scorer's corpus value and per-image values
  (``Bleu(4)``, ``Meteor()``, ``Rouge()``, ``Cider()``), ``repr``-exact through JSON.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "captions"


def _float_list(values: Any) -> list[float]:
    return [float(v) for v in values]


def main() -> None:
    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider
    from pycocoevalcap.meteor.meteor import Meteor
    from pycocoevalcap.rouge.rouge import Rouge
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

    tokenizer = PTBTokenizer()
    cases = (DATA / "tokenizer_cases.txt").read_text(encoding="utf-8").split("\n")
    if cases and cases[-1] == "":
        cases.pop()
    tokenized_cases = tokenizer.tokenize({i: [{"caption": c}] for i, c in enumerate(cases)})
    golden: dict[str, Any] = {
        "oracle": "pycocoevalcap 1.2 (stanford-corenlp-3.4.1.jar, meteor-1.5.jar), OpenJDK 17",
        "tokenizer_cases": [[c, tokenized_cases[i][0]] for i, c in enumerate(cases)],
        "tokenized": {},
        "scores": {},
    }
    annotations = json.loads((DATA / "captions.json").read_text(encoding="utf-8"))
    gts_raw: dict[int, list[dict[str, Any]]] = {}
    for ann in annotations["annotations"]:
        gts_raw.setdefault(ann["image_id"], []).append(ann)
    for results_file in sorted(DATA.glob("results-*.json")):
        results = json.loads(results_file.read_text(encoding="utf-8"))
        res_raw = {r["image_id"]: [r] for r in results}
        ids = [i for i in gts_raw if i in res_raw]
        gts = tokenizer.tokenize({i: gts_raw[i] for i in ids})
        res = tokenizer.tokenize({i: res_raw[i] for i in ids})
        golden["tokenized"][results_file.name] = {
            "gts": [[str(i), gts[i]] for i in ids],
            "res": [[str(i), res[i][0]] for i in ids],
        }
        scores: dict[str, Any] = {}
        bleu, bleu_images = Bleu(4).compute_score(gts, res, verbose=0)
        scores["Bleu"] = {
            "corpus": _float_list(bleu),
            "images": [_float_list(b) for b in bleu_images],
        }
        meteor, meteor_images = Meteor().compute_score(gts, res)
        scores["METEOR"] = {"corpus": float(meteor), "images": _float_list(meteor_images)}
        rouge, rouge_images = Rouge().compute_score(gts, res)
        scores["ROUGE_L"] = {"corpus": float(rouge), "images": _float_list(rouge_images)}
        cider, cider_images = Cider().compute_score(gts, res)
        scores["CIDEr"] = {"corpus": float(cider), "images": _float_list(cider_images)}
        golden["scores"][results_file.name] = scores
        print(results_file.name, {k: v["corpus"] for k, v in scores.items()}, file=sys.stderr)
    (DATA / "golden.json").write_text(
        json.dumps(golden, ensure_ascii=False, indent=0) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
