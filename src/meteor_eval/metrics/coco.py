"""The COCO caption metrics as :class:`~meteor_eval.metrics.protocol.Metric` objects.

For comparing systems (``meteor-eval caption``): each image is a segment, each metric keeps
per-image statistics rows, so corpus scores, per-image scores, bootstrap intervals and paired
tests come from the shared machinery (:mod:`meteor_eval.comparison`). The numbers are
pycocoevalcap's (:mod:`meteor_eval.metrics.caption`); hypotheses and references are expected
tokenized as pycocoevalcap's ``PTBTokenizer`` does (:func:`meteor_eval.text.ptb.caption_tokens`).

* :class:`CocoBleu` (``coco_bleu``; values ``bleu_1`` .. ``bleu_4``, 0-1): rows are the
  candidate length, the closest reference length, and the candidate and clipped n-gram counts;
  the corpus score is the formula on their sums (pycocoevalcap's ``Bleu(4)``).
* :class:`CocoMeteor` (``meteor``): METEOR 1.5 ``-l en -norm`` on the fields pycocoevalcap sends
  the jar; the corpus score pools the statistics (pycocoevalcap's ``Meteor()``).
* :class:`CocoRougeL` (``coco_rouge``; value ``rouge_l``) and :class:`CiderD` (``cider``;
  value ``cider``): rows are each image's score and 1; the corpus score is the mean (NumPy's,
  as the original). CIDEr-D's document frequencies are those of the references given to
  :meth:`CiderD.for_references` (all images evaluated, as in pycocoevalcap); resampling keeps
  them fixed and resamples the per-image scores.
"""

from __future__ import annotations

import math
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from meteor_eval.metrics.base import Score, Signature, SignatureField
from meteor_eval.metrics.caption import (
    CiderModel,
    _bleu_stats_compiled,
    _bleu_values,
    _cider_d_compiled,
    bleu_image_stats,
    meteor_best_rows,
    meteor_fields,
    rouge_l_images,
)
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.metrics.protocol import Metric, Pair, Row, Total

__all__ = [
    "CiderConfig",
    "CiderD",
    "CocoBleu",
    "CocoBleuConfig",
    "CocoBleuScore",
    "CocoMeteor",
    "CocoRougeConfig",
    "CocoRougeL",
    "MeanScore",
    "coco_metrics",
]

_TOKENIZER = SignatureField("tok", "tok", "ptb-coco")


@dataclass(frozen=True, slots=True)
class CocoBleuConfig:
    """Settings of pycocoevalcap's BLEU.

    Attributes:
        max_ngram_order: Highest n-gram order (4: BLEU-1 .. BLEU-4).
    """

    max_ngram_order: int = 4

    def __post_init__(self) -> None:
        order = self.max_ngram_order
        if not isinstance(order, int) or isinstance(order, bool) or order < 1:
            raise ValueError(f"max_ngram_order: {order!r} is invalid; allowed: an integer >= 1")


@dataclass(frozen=True, slots=True)
class CocoBleuScore(Score):
    """pycocoevalcap's BLEU-1..n (``score``: the highest order).

    Attributes:
        values: BLEU-1 .. BLEU-n.
        bp: The brevity penalty (1.0 when the candidates are not shorter).
        sys_len: Candidate tokens.
        ref_len: Closest reference lengths, summed.
    """

    values: tuple[float, ...] = ()
    bp: float = 1.0
    sys_len: int = 0
    ref_len: int = 0


class CocoBleu(Metric[CocoBleuScore]):
    """pycocoevalcap's ``Bleu(n)`` as a metric (module docstring).

    Example:
        >>> metric = CocoBleu()
        >>> score = metric.corpus_score(["a cat sat on the mat"], [["a cat sat on the mat"]])
        >>> round(score.values[0], 6), round(score.score, 6)
        (1.0, 1.0)
    """

    name: ClassVar[str] = "coco_bleu"

    config: CocoBleuConfig

    config_class = CocoBleuConfig

    @property
    def columns(self) -> tuple[str, ...]:
        """``testlen, reflen, guess_1..n, correct_1..n``."""
        n = self.config.max_ngram_order
        return (
            "testlen",
            "reflen",
            *(f"guess_{k}" for k in range(1, n + 1)),
            *(f"correct_{k}" for k in range(1, n + 1)),
        )

    def segment_rows(self, pairs: Sequence[Pair]) -> list[Row]:
        """Each image's counts (whitespace-split tokens)."""
        n = self.config.max_ngram_order
        batch = _bleu_stats_compiled(
            [hypothesis for hypothesis, _ in pairs], [references for _, references in pairs], n
        )
        if batch is None:
            batch = [
                bleu_image_stats(hypothesis, references, n) for hypothesis, references in pairs
            ]
        return [(s.testlen, s.reflen, *s.guess, *s.correct) for s in batch]

    def score_total(
        self, total: Row, *, nrefs: str = "1", rows: Sequence[Row] | None = None
    ) -> CocoBleuScore:
        """BLEU-1..n of summed counts."""
        del rows
        n = self.config.max_ngram_order
        testlen, reflen = int(total[0]), int(total[1])
        guess = [int(x) for x in total[2 : 2 + n]]
        correct = [int(x) for x in total[2 + n : 2 + 2 * n]]
        values = _bleu_values(correct, guess, testlen, reflen)
        ratio = (testlen + 1e-15) / (reflen + 1e-9)
        bp = math.exp(1 - 1 / ratio) if ratio < 1 else 1.0
        return CocoBleuScore(values[-1], self.signature(nrefs), tuple(values), bp, testlen, reflen)

    def values(self, score: CocoBleuScore) -> dict[str, float]:
        """``bleu_1`` .. ``bleu_n``."""
        return {f"bleu_{k}": value for k, value in enumerate(score.values, start=1)}

    def report(self, score: CocoBleuScore) -> dict[str, dict[str, Any]]:
        """Each BLEU-k with the brevity penalty, length ratio and lengths."""
        ratio = score.sys_len / score.ref_len if score.ref_len else 0.0
        return {
            name: {
                "score": value,
                "bp": score.bp,
                "ratio": ratio,
                "sys_len": score.sys_len,
                "ref_len": score.ref_len,
            }
            for name, value in self.values(score).items()
        }

    def signature(self, nrefs: str = "1", /) -> Signature:
        """``coco_bleu|nrefs:..|reflen:closest|tok:ptb-coco|order:4|version:..``."""
        return Signature(
            "coco_bleu",
            (
                SignatureField("nrefs", "#", nrefs),
                SignatureField("reflen", "r", "closest"),
                _TOKENIZER,
                SignatureField("order", "o", str(self.config.max_ngram_order)),
            ),
        )


@dataclass(frozen=True, slots=True)
class MeanScore(Score):
    """A corpus score that is the mean of per-image scores.

    Attributes:
        images: Number of images averaged.
    """

    images: int = 0


class _MeanMetric(Metric[MeanScore]):
    """Rows ``(image score, 1)``; the corpus score is NumPy's mean of the image scores."""

    exact: ClassVar[bool] = False
    value_name: ClassVar[str]
    #: The ``variant`` field of the signature.
    variant: ClassVar[str]

    @property
    def columns(self) -> tuple[str, ...]:
        """``score, images``."""
        return (self.value_name, "images")

    def keeps_rows(self) -> bool:
        """The mean is NumPy's (pairwise) mean of every image's score, as in pycocoevalcap."""
        return True

    def zero(self) -> Row:
        """No image."""
        return (0.0, 0)

    def score_total(
        self, total: Row, *, nrefs: str = "1", rows: Sequence[Row] | None = None
    ) -> MeanScore:
        """The mean score (``rows`` given: NumPy's mean of the rows' scores, bit for bit the
        original's; else the sum over the count, e.g. for a resampled total)."""
        count = round(float(total[1]))
        if rows is not None and len(rows) > 0:
            mean = float(np.mean(np.array([row[0] for row in rows], dtype=float)))
        else:
            mean = float(total[0]) / count if count else 0.0
        return MeanScore(mean, self.signature(nrefs), count)

    def segment_result(self, row: Row, n_refs: int) -> MeanScore:
        """One image's score."""
        return MeanScore(float(row[0]), self.signature(str(n_refs)), 1)

    def values(self, score: MeanScore) -> dict[str, float]:
        """The one headline number."""
        return {self.value_name: score.score}

    def signature(self, nrefs: str = "1", /) -> Signature:
        """``NAME|nrefs:..|variant:..|SETTINGS|tok:ptb-coco|version:..``: the layout both mean
        metrics share (the number of references, the variant, the metric's own settings from
        :meth:`_signature_settings`, then the PTB tokenization), written once here."""
        return Signature(
            self.name,
            (
                SignatureField("nrefs", "#", nrefs),
                SignatureField("variant", "v", self.variant),
                *self._signature_settings(),
                _TOKENIZER,
            ),
        )

    @abstractmethod
    def _signature_settings(self) -> tuple[SignatureField, ...]:
        """The fields of :meth:`signature` between the variant and the tokenization."""


@dataclass(frozen=True, slots=True)
class CocoRougeConfig:
    """Settings of pycocoevalcap's ROUGE-L.

    Attributes:
        beta: Weight of recall in the F-measure (1.2).
    """

    beta: float = 1.2

    def __post_init__(self) -> None:
        if not isinstance(self.beta, (int, float)) or not self.beta > 0:
            raise ValueError(f"beta: {self.beta!r} is invalid; allowed: a number > 0")


class CocoRougeL(_MeanMetric):
    """pycocoevalcap's ``Rouge()`` as a metric: per image the best LCS precision and recall over
    the references, one F-measure with ``beta = 1.2``; the corpus score is the mean.

    Example:
        >>> CocoRougeL().corpus_score(["a c d"], [["a b c d"]]).score
        0.8356164383561644
    """

    name: ClassVar[str] = "coco_rouge"
    value_name: ClassVar[str] = "rouge_l"
    variant: ClassVar[str] = "L"

    config: CocoRougeConfig

    config_class = CocoRougeConfig

    def segment_rows(self, pairs: Sequence[Pair]) -> list[Row]:
        """Each image's ROUGE-L and 1."""
        scores = rouge_l_images(
            [hyp for hyp, _ in pairs], [refs for _, refs in pairs], self.config.beta
        )
        return [(score, 1) for score in scores.tolist()]

    def _signature_settings(self) -> tuple[SignatureField, ...]:
        """``beta:1.2|multi:best-p-best-r``, so the signature reads
        ``coco_rouge|nrefs:..|variant:L|beta:1.2|multi:best-p-best-r|tok:ptb-coco|...``."""
        return (
            SignatureField("beta", "b", repr(self.config.beta)),
            SignatureField("multi", "m", "best-p-best-r"),
        )


@dataclass(frozen=True, slots=True)
class CiderConfig:
    """Settings of CIDEr-D.

    Attributes:
        n: Highest n-gram order (4).
        sigma: Standard deviation of the length penalty (6).
        references: Every image's references, for the document frequencies (``None``: those
            of the pairs scored in one :meth:`CiderD.segment_rows` call).
    """

    n: int = 4
    sigma: float = 6.0
    references: tuple[tuple[str, ...], ...] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.n, int) or isinstance(self.n, bool) or self.n < 1:
            raise ValueError(f"n: {self.n!r} is invalid; allowed: an integer >= 1")
        if not isinstance(self.sigma, (int, float)) or not self.sigma > 0:
            raise ValueError(f"sigma: {self.sigma!r} is invalid; allowed: a number > 0")


class CiderD(_MeanMetric):
    """pycocoevalcap's ``Cider()`` (CIDEr-D) as a metric.

    Example:
        >>> refs = [["a cat"], ["a dog"]]
        >>> CiderD.for_references(refs).corpus_score(["a cat", "a cow"], refs).score
        2.5
    """

    name: ClassVar[str] = "cider"
    value_name: ClassVar[str] = "cider"
    variant: ClassVar[str] = "D"

    def __init__(self, config: CiderConfig | None = None) -> None:
        super().__init__(config)
        self._model: CiderModel | None = None
        if self.config.references is not None:
            self._model = CiderModel(
                self.config.references, n=self.config.n, sigma=self.config.sigma
            )

    @classmethod
    def for_references(
        cls, references: Sequence[Sequence[str]], *, n: int = 4, sigma: float = 6.0
    ) -> CiderD:
        """CIDEr-D with the document frequencies of ``references`` (every image evaluated)."""
        return cls(CiderConfig(n, sigma, tuple(tuple(refs) for refs in references)))

    config_class = CiderConfig

    def segment_rows(self, pairs: Sequence[Pair]) -> list[Row]:
        """Each image's CIDEr-D and 1: from one compiled ``cider_d_scores`` call when the
        document frequencies are those of the pairs' own references (no references in the
        settings, or the same references image by image, as the ``caption`` command scores a
        system), else from :class:`CiderModel` (the same floats)."""
        reference_sets = [refs for _, refs in pairs]
        own = self.config.references
        if own is None or (
            len(own) == len(pairs)
            and all(
                isinstance(refs, (list, tuple)) and tuple(refs) == known
                for refs, known in zip(reference_sets, own, strict=True)
            )
        ):
            scores = _cider_d_compiled(
                [hyp for hyp, _ in pairs], reference_sets, self.config.n, self.config.sigma
            )
            if scores is not None:
                return [(value, 1) for value in scores.tolist()]
        model = self._model
        if model is None:
            model = CiderModel(
                [refs for _, refs in pairs], n=self.config.n, sigma=self.config.sigma
            )
        return [(float(model.score(hyp, refs)), 1) for hyp, refs in pairs]

    def _signature_settings(self) -> tuple[SignatureField, ...]:
        """``n:4|sigma:6.0|df:refs``, so the signature reads
        ``cider|nrefs:..|variant:D|n:4|sigma:6.0|df:refs|tok:ptb-coco|version:..``."""
        return (
            SignatureField("n", "n", str(self.config.n)),
            SignatureField("sigma", "s", repr(float(self.config.sigma))),
            SignatureField("df", "df", "refs"),
        )


class CocoMeteor(Meteor):
    """METEOR 1.5 on the fields pycocoevalcap sends the jar (``|||`` removed from the
    hypothesis, double spaces halved, fields trimmed); default ``-l en -norm``."""

    def __init__(self, config: MeteorConfig | None = None) -> None:
        super().__init__(
            config
            if config is not None
            else MeteorConfig.preset("meteor15", language="en", normalization="norm")
        )

    @staticmethod
    def _fields(pairs: Sequence[Pair]) -> list[Pair]:
        out: list[Pair] = []
        for index, (hypothesis, references) in enumerate(pairs):
            fields = meteor_fields(hypothesis, references)
            if fields is None:
                raise ValueError(f"segment {index + 1}: no reference the METEOR jar can read")
            out.append(fields)
        return out

    def segment_rows(self, pairs: Sequence[Pair]) -> list[Row]:
        """The best reference's statistics of each pair, on the jar's fields (every pair and
        reference in one compiled batch where it applies: :func:`meteor_best_rows`)."""
        fields = self._fields(pairs)
        best = meteor_best_rows(self, fields)
        if best is not None:
            return list(map(tuple, best[0].tolist()))
        return super().segment_rows(fields)

    def pooled_rows(self, pairs: Sequence[Pair]) -> Total:
        """The pooled statistics of a batch, on the jar's fields."""
        fields = self._fields(pairs)
        best = meteor_best_rows(self, fields) if not self.keeps_rows() else None
        if best is None:
            return super().pooled_rows(fields)
        total = self.new_total()
        total.row = tuple(self.pipeline.pooled_block(best[0]).tolist())
        total.count = len(fields)
        total.nrefs = {len(refs) for _, refs in fields}
        return total


#: The metric names of :func:`coco_metrics`, in output order.
COCO_METRICS = ("bleu", "meteor", "rouge", "cider")


def coco_metrics(names: Sequence[str], references: Sequence[Sequence[str]]) -> list[Metric[Any]]:
    """The caption metrics named (``bleu``, ``meteor``, ``rouge``, ``cider``), CIDEr-D with the
    document frequencies of ``references`` (tokenized)."""
    out: list[Metric[Any]] = []
    for name in names:
        if name == "bleu":
            out.append(CocoBleu())
        elif name == "meteor":
            out.append(CocoMeteor())
        elif name == "rouge":
            out.append(CocoRougeL())
        elif name == "cider":
            out.append(CiderD.for_references(references))
        else:
            raise ValueError(f"unknown caption metric {name!r}; allowed: {', '.join(COCO_METRICS)}")
    return out
