"""Drop-in replacement for ``pycocoevalcap.eval.COCOEvalCap``, without Java.

``COCOEvalCap(coco, cocoRes).evaluate()`` tokenizes the references and the results with
:class:`~.tokenizer.ptbtokenizer.PTBTokenizer` and fills ``eval`` (metric -> corpus score),
``imgToEval`` (image id -> {metric: score}) and ``evalImgs`` exactly as the original, printing the
same progress lines. ``coco`` and ``cocoRes`` are pycocotools ``COCO`` objects or anything with
``getImgIds()`` and ``imgToAnns`` (pycocotools itself is not needed).

Differences:

* SPICE runs only where it can (Java, ``spice-1.0.jar`` and the Stanford CoreNLP models; see
  :mod:`.spice.spice`). When it cannot, ``evaluate()`` computes every other metric, warns once
  naming what is missing, and leaves ``SPICE`` out of the results; asking for it explicitly
  (``metrics=``) raises instead.
* ``metrics=`` chooses the metrics: any of ``"BLEU"`` (``Bleu_1``..``Bleu_4``), ``"METEOR"``,
  ``"ROUGE_L"``, ``"CIDEr"``, ``"SPICE"``.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import Any

from .bleu.bleu import Bleu
from .cider.cider import Cider
from .meteor.meteor import Meteor
from .rouge.rouge import Rouge
from .spice.spice import Spice, SpiceUnavailableError, spice_problems
from .tokenizer.ptbtokenizer import PTBTokenizer

__all__ = ["METRICS", "COCOEvalCap"]

#: The metric names ``metrics=`` accepts, in the original's order.
METRICS = ("BLEU", "METEOR", "ROUGE_L", "CIDEr", "SPICE")


def _checked_metrics(metrics: Iterable[str] | None) -> tuple[str, ...] | None:
    if metrics is None:
        return None
    if isinstance(metrics, str):
        raise TypeError("metrics must be a sequence of metric names, not a string")
    chosen = tuple(metrics)
    unknown = [m for m in chosen if m not in METRICS]
    if unknown:
        raise ValueError(f"unknown metric(s) {unknown}; choose from {list(METRICS)}")
    if not chosen:
        raise ValueError(f"metrics is empty; choose from {list(METRICS)}")
    return chosen


class COCOEvalCap:
    """The COCO caption evaluation: ``COCOEvalCap(coco, cocoRes).evaluate()``.

    Args:
        coco: The references (``getImgIds()``, ``imgToAnns``).
        cocoRes: The results (``imgToAnns``), e.g. ``coco.loadRes(file)``.
        metrics: Metrics to compute (see :data:`METRICS`); default all, SPICE only where it can
            run.
    """

    def __init__(self, coco: Any, cocoRes: Any, *, metrics: Iterable[str] | None = None) -> None:  # noqa: N803
        self.evalImgs: list[dict[str, Any]] = []
        self.eval: dict[str, Any] = {}
        self.imgToEval: dict[Any, dict[str, Any]] = {}
        self.coco = coco
        self.cocoRes = cocoRes
        self.params: dict[str, Any] = {"image_id": coco.getImgIds()}
        self.metrics = _checked_metrics(metrics)

    def _scorers(self) -> list[tuple[Any, Any]]:
        chosen = self.metrics if self.metrics is not None else METRICS
        scorers: list[tuple[Any, Any]] = []
        if "BLEU" in chosen:
            scorers.append((Bleu(4), ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4"]))
        if "METEOR" in chosen:
            scorers.append((Meteor(), "METEOR"))
        if "ROUGE_L" in chosen:
            scorers.append((Rouge(), "ROUGE_L"))
        if "CIDEr" in chosen:
            scorers.append((Cider(), "CIDEr"))
        if "SPICE" in chosen:
            if self.metrics is None and spice_problems():
                warnings.warn(
                    "SPICE left out: "
                    + "; ".join(spice_problems())
                    + " (pass metrics=[...] to choose metrics)",
                    RuntimeWarning,
                    stacklevel=3,
                )
            else:
                scorers.append((Spice(), "SPICE"))
        return scorers

    def evaluate(self) -> None:
        """Tokenize, score with every chosen metric and fill ``eval``, ``imgToEval``,
        ``evalImgs``.

        Raises:
            SpiceUnavailableError: SPICE was asked for explicitly and cannot run.
            KeyError: an image of ``params["image_id"]`` has no annotation in ``cocoRes``.
        """
        img_ids = self.params["image_id"]
        gts = {}
        res = {}
        for img_id in img_ids:
            gts[img_id] = self.coco.imgToAnns[img_id]
            res[img_id] = self.cocoRes.imgToAnns[img_id]

        print("tokenization...")
        tokenizer = PTBTokenizer()
        gts = tokenizer.tokenize(gts)
        res = tokenizer.tokenize(res)

        print("setting up scorers...")
        scorers = self._scorers()

        for scorer, method in scorers:
            print(f"computing {scorer.method()} score...")
            score, scores = scorer.compute_score(gts, res)
            if isinstance(method, list):
                for sc, scs, m in zip(score, scores, method, strict=True):
                    self.setEval(sc, m)
                    self.setImgToEvalImgs(scs, gts.keys(), m)
                    print(f"{m}: {sc:0.3f}")
            else:
                self.setEval(score, method)
                self.setImgToEvalImgs(scores, gts.keys(), method)
                print(f"{method}: {score:0.3f}")
        self.setEvalImgs()

    def setEval(self, score: Any, method: str) -> None:
        """``eval[method] = score``."""
        self.eval[method] = score

    def setImgToEvalImgs(self, scores: Any, imgIds: Any, method: str) -> None:  # noqa: N803
        """Record each image's score of ``method``."""
        for img_id, score in zip(imgIds, scores, strict=False):
            if img_id not in self.imgToEval:
                self.imgToEval[img_id] = {}
                self.imgToEval[img_id]["image_id"] = img_id
            self.imgToEval[img_id][method] = score

    def setEvalImgs(self) -> None:
        """``evalImgs``: the per-image records, in image order."""
        self.evalImgs = [record for _, record in self.imgToEval.items()]


__all__ += ["SpiceUnavailableError"]
