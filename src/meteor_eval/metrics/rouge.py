"""ROUGE (Lin, 2004): ROUGE-N, ROUGE-L, ROUGE-Lsum, ROUGE-W, ROUGE-S and ROUGE-SU.

Reference implementations:

* ROUGE-N (any N), ROUGE-L and ROUGE-Lsum equal Google's ``rouge-score`` 0.1.2 with its default
  tokenizer (``use_stemmer`` = our ``use_stemmer``, Porter with NLTK's extensions); several
  references keep the one with the best F-measure (``score_multi``).
* ROUGE-W, ROUGE-S and ROUGE-SU, which rouge-score lacks, equal the original ``ROUGE-1.5.5.pl``
  per segment, run as ``ROUGE-1.5.5.pl -a -n 1 -w W -2 D -u -f A|B -d`` (``-U`` for ROUGE-SU,
  ``-2 -1`` for unlimited skips), input format SPL (one sentence a line). We reproduce ``-w``
  (weight, 1.2 by default), ``-2`` (skip distance, 4 by default), ``-u``/``-U``, ``-f A|B`` (several
  references: pooled counts or best), ``-t 0|1`` (mean of segment scores or pooled counts) and
  ``-p 0.5`` (F weight). With ``-f B``, ROUGE-1.5.5 keeps the reference with the best *recall*
  (for ROUGE-S rounded to 5 digits, the first on a tie), and so do we for W, S and SU.

Several sentences per segment matter for ROUGE-Lsum and ROUGE-W: ``sentence_separator`` splits a
segment (default: ``"\\n"``, so a line read from a file is one sentence); ROUGE-N, L, S and SU see
the tokens of all sentences in order.

Like ROUGE-1.5.5, the F-measure of one segment for ROUGE-W/S/SU is computed from its precision and
recall rounded to 5 digits (so segment values print exactly as the tool prints them); pooled
scores use unrounded values, as ``-t 1`` does.

Where we differ: ROUGE-1.5.5 rounds segment scores to 5 digits before averaging them and prints
the mean of its (seeded, Perl-specific) bootstrap resamples as the corpus score; we average the
unrounded scores and compute our own seeded bootstrap (:mod:`meteor_eval.stats.corpus`). With
``-t 1`` it pools ROUGE-W's weighted counts without the inverse weighting; we apply it, so a
one-segment corpus scores the same both ways. ROUGE-1.5.5's ``-m`` stemmer, stop-word removal
(``-s``), length limits (``-l``, ``-b``) and Basic Elements are not reproduced. ``--stemmer``
applies the rouge-score Porter stemmer to every variant.

Edge cases: an empty hypothesis or reference, or no match, gives 0.0 for precision, recall and F,
never NaN.

References:
    Chin-Yew Lin. 2004. ROUGE: A Package for Automatic Evaluation of Summaries. ACL Workshop.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, get_args

from meteor_eval._ext import compiled_function
from meteor_eval.errors import WorkBudgetError, warn_renamed
from meteor_eval.limits import WORK_BUDGET, check_work
from meteor_eval.metrics.base import (
    Score,
    Signature,
    SignatureField,
    check_corpus,
    check_segment,
    config_from,
)
from meteor_eval.metrics.protocol import Metric, Pair, Row, Total
from meteor_eval.stats.corpus import bootstrap_interval
from meteor_eval.stats.rouge import (
    RougeStats,
    lcs_pair,
    ngram_pair,
    skip_bigram_pair,
    summary_lcs_pair,
    wlcs_pair,
)
from meteor_eval.text.rouge_tokenizer import porter_stem, tokenize_rouge155, tokenize_rouge_score

__all__ = [
    "Interval",
    "Rouge",
    "RougeConfig",
    "RougeResult",
    "RougeScore",
    "corpus_rouge",
    "score_from_stats",
    "segment_rouge",
    "sentence_rouge",
]

MultiRef = Literal["best", "average"]
Aggregate = Literal["mean", "pooled"]
MULTI_REF: tuple[str, ...] = get_args(MultiRef)
AGGREGATES: tuple[str, ...] = get_args(Aggregate)
_TYPE_RE = re.compile(r"rouge(?:[1-9][0-9]*|L|Lsum|W|S|SU)")
#: Variant names the CLI offers by default.
DEFAULT_TYPES = ("rouge1", "rouge2", "rougeL")
#: Variants computed as in ROUGE-1.5.5 (the others follow rouge-score).
ROUGE155_TYPES = frozenset({"rougeW", "rougeS", "rougeSU"})

#: The compiled statistics kernel (``_ext/rouge.c``) of the rouge-score variants (ROUGE-N, L,
#: Lsum): tokenizer, stemmer calls, n-gram clipping, LCS and union LCS of a chunk of lines in one
#: call. ``None`` when the extension is not in use: the pure-Python twin
#: (:meth:`Rouge._variant_stats`) runs then, with equal rows.
_ROUGE_ROWS = compiled_function("rouge_rows")
#: Pairs per call of the compiled kernel (its interned vocabulary lives for one call).
CHUNK = 8192


def _kernel_code(variant: str) -> int:
    """The compiled kernel's code of a rouge-score variant: N, 0 (L) or -1 (Lsum)."""
    if variant == "rougeL":
        return 0
    if variant == "rougeLsum":
        return -1
    return int(variant[5:])


@dataclass(frozen=True, slots=True)
class RougeConfig:
    """Settings of ROUGE.

    Attributes:
        types: Variants: ``rougeN`` (N >= 1), ``rougeL``, ``rougeLsum``, ``rougeW``, ``rougeS``,
            ``rougeSU``.
        use_stemmer: Porter-stem tokens longer than three characters.
        multi_ref: ``best`` (rouge-score, ROUGE-1.5.5 ``-f B``) or ``average`` (``-f A``: counts
            pooled over the references).
        aggregate: ``mean`` of segment scores (ROUGE-1.5.5's default) or ``pooled`` counts
            (``-t 1``).
        weight: ROUGE-W weight (``-w``), > 1 rewards consecutive matches.
        skip_distance: ROUGE-S/SU maximum gap (``-2``); negative means unlimited.
        sentence_separator: Splits a segment into sentences (``None``: newline).
        n_bootstrap: Bootstrap resamples for a confidence interval (0: none).
        seed: Seed of the bootstrap.
        confidence: Coverage of the interval.
    """

    types: tuple[str, ...] = DEFAULT_TYPES
    use_stemmer: bool = False
    multi_ref: MultiRef = "best"
    aggregate: Aggregate = "mean"
    weight: float = 1.2
    skip_distance: int = 4
    sentence_separator: str | None = None
    n_bootstrap: int = 0
    seed: int = 12345
    confidence: float = 0.95

    def __post_init__(self) -> None:
        object.__setattr__(self, "types", _checked_types(self.types))
        if not isinstance(self.use_stemmer, bool):
            raise TypeError(f"use_stemmer: got {self.use_stemmer!r}, expected True or False")
        _check_choice("multi_ref", self.multi_ref, MULTI_REF)
        _check_choice("aggregate", self.aggregate, AGGREGATES)
        _check_weight(self.weight)
        _check_int("skip_distance", self.skip_distance)
        if self.sentence_separator is not None and (
            not isinstance(self.sentence_separator, str) or not self.sentence_separator
        ):
            raise ValueError(
                f"sentence_separator: got {self.sentence_separator!r}, "
                "expected a non-empty string or None"
            )
        _check_int("n_bootstrap", self.n_bootstrap, minimum=0)
        _check_int("seed", self.seed, minimum=0)
        if not 0 < self.confidence < 1:
            raise ValueError(f"confidence: got {self.confidence!r}, expected a number in (0, 1)")
        if self.n_bootstrap:
            from meteor_eval.stats.sampling import check_resamples

            check_resamples("n_bootstrap", self.n_bootstrap, self.confidence)


def _checked_types(types: object) -> tuple[str, ...]:
    """The variant names as a tuple: at least one, each valid, no duplicates."""
    if isinstance(types, str) or not isinstance(types, Sequence):
        raise TypeError(f"types: got {types!r}, expected a sequence of variant names")
    names = tuple(types)
    if not names:
        raise ValueError("types: got an empty sequence, expected at least one variant")
    for name in names:
        if not isinstance(name, str) or not _TYPE_RE.fullmatch(name):
            raise ValueError(
                f"types: got {name!r}, expected rougeN (N >= 1), rougeL, rougeLsum, "
                "rougeW, rougeS or rougeSU"
            )
    if len(set(names)) != len(names):
        raise ValueError(f"types: got {names!r}, expected no duplicates")
    return names


def _check_choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{name}: got {value!r}, expected one of {', '.join(allowed)}")


def _check_weight(weight: object) -> None:
    """The ROUGE-W weight: a finite number > 1 (infinity would give NaN scores)."""
    if isinstance(weight, bool) or not isinstance(weight, int | float):
        raise TypeError(f"weight: got {weight!r}, expected a number > 1")
    if not 1 < weight < math.inf:
        raise ValueError(f"weight: got {weight!r}, expected a finite number > 1")


def _check_int(name: str, value: object, *, minimum: int | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        expected = "an int" if minimum is None else f"an int >= {minimum}"
        raise TypeError(f"{name}: got {value!r}, expected {expected}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name}: got {value!r}, expected an int >= {minimum}")


@dataclass(frozen=True, slots=True)
class Interval:
    """A confidence interval."""

    low: float
    high: float


@dataclass(frozen=True, slots=True)
class RougeScore(Score):
    """One ROUGE variant's score (``score`` is the F-measure, 0-1).

    Attributes:
        variant: e.g. ``rouge1``.
        precision: Precision.
        recall: Recall.
        fmeasure: F-measure (equals ``score``).
        precision_ci / recall_ci / fmeasure_ci: Bootstrap intervals when requested.
    """

    variant: str
    precision: float
    recall: float
    fmeasure: float
    precision_ci: Interval | None = None
    recall_ci: Interval | None = None
    fmeasure_ci: Interval | None = None


@dataclass(frozen=True, slots=True, eq=False)
class RougeResult(Score, Mapping[str, RougeScore]):
    """ROUGE's result: a score object like BLEU's and METEOR's, and a read-only mapping of each
    configured variant to its :class:`RougeScore`, in the configured order (so
    ``result["rougeL"]``, ``dict(result)``, ``result.items()`` and ``result == {...}`` work as
    with the plain dict that ROUGE returned before 0.2).

    Attributes:
        score: The F-measure of the first configured variant (the headline, as
            ``float(result)``).
        signature: The whole configuration's signature (every variant; each variant's own
            score carries its own).
        variants: Per variant name, its score.

    Example:
        >>> r = Rouge(RougeConfig(types=("rouge1", "rougeL")))
        >>> result = r.segment_score("the cat sat", ["the cat sat down"])
        >>> list(result), round(result["rouge1"].recall, 2)
        (['rouge1', 'rougeL'], 0.75)
        >>> result.score == result["rouge1"].fmeasure, result == dict(result)
        (True, True)
    """

    variants: dict[str, RougeScore]

    def __getitem__(self, variant: str) -> RougeScore:
        return self.variants[variant]

    def __iter__(self) -> Iterator[str]:
        return iter(self.variants)

    def __len__(self) -> int:
        return len(self.variants)

    def __eq__(self, other: object) -> bool:
        """Equal to any mapping of the same variants to equal scores (a dict, as before)."""
        if isinstance(other, Mapping):
            return self.variants == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        return f"RougeResult({self.variants!r})"


def _ratio(hits: float, count: float) -> float:
    return hits / count if count > 0 else 0.0


def _f_rouge_score(precision: float, recall: float) -> float:
    # rouge-score's scoring.fmeasure
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def _f_rouge155(precision: float, recall: float, alpha: float = 0.5) -> float:
    # ROUGE-1.5.5: P*R / ((1 - alpha) * P + alpha * R)
    denominator = (1 - alpha) * precision + alpha * recall
    return precision * recall / denominator if denominator > 0 else 0.0


def _prf(
    variant: str, hits: float, hyp_count: float, ref_count: float, weight: float
) -> tuple[float, float, float]:
    precision = _ratio(hits, hyp_count)
    recall = _ratio(hits, ref_count)
    if variant == "rougeW":
        precision **= 1 / weight
        recall **= 1 / weight
    if variant in ROUGE155_TYPES:
        return precision, recall, _f_rouge155(precision, recall)
    return precision, recall, _f_rouge_score(precision, recall)


def score_from_stats(
    variant: str, stats: RougeStats, config: RougeConfig
) -> tuple[float, float, float]:
    """``(precision, recall, fmeasure)`` of summed statistics under ``config.aggregate``.

    Example:
        >>> s = RougeStats(3.0, 5.0, 5.0, 0.6, 0.6, 0.6, 1)
        >>> score_from_stats("rouge1", s, RougeConfig())
        (0.6, 0.6, 0.6)
    """
    if config.aggregate == "mean":
        if stats.segments == 0:
            return 0.0, 0.0, 0.0
        n = stats.segments
        return stats.precision / n, stats.recall / n, stats.fmeasure / n
    return _prf(variant, stats.hits, stats.hyp_count, stats.ref_count, config.weight)


class RougeTokens(Protocol):
    """One text's tokens as the variants read them: ``tokens`` and ``sentences`` by
    rouge-score's tokenizer (ROUGE-N, L, Lsum), ``tokens155`` and ``sentences155`` by
    ROUGE-1.5.5's (W, S, SU)."""

    @property
    def tokens(self) -> Sequence[str]: ...

    @property
    def sentences(self) -> Sequence[Sequence[str]]: ...

    @property
    def tokens155(self) -> Sequence[str]: ...

    @property
    def sentences155(self) -> Sequence[Sequence[str]]: ...


def variant_counts(
    variant: str, hyp: RougeTokens, ref: RougeTokens, *, weight: float, skip_distance: int
) -> tuple[float, float, float]:
    """``(hits, hypothesis count, reference count)`` of one variant for a hypothesis and one
    reference: the one table of which counting function and which tokens each variant uses
    (:class:`Rouge` and the rouge-score drop-in's custom tokenizers both score through it).

    Example:
        >>> text = _Text(sentences=(("a", "b", "c"),), sentences155=(("a", "b", "c"),))
        >>> variant_counts("rouge2", text, text, weight=1.2, skip_distance=4)
        (2.0, 2.0, 2.0)
    """
    if variant == "rougeL":
        return lcs_pair(hyp.tokens, ref.tokens)
    if variant == "rougeLsum":
        return summary_lcs_pair(hyp.sentences, ref.sentences)
    if variant == "rougeW":
        return wlcs_pair(hyp.sentences155, ref.sentences155, weight)
    if variant == "rougeS":
        return skip_bigram_pair(hyp.tokens155, ref.tokens155, skip_distance, unigrams=False)
    if variant == "rougeSU":
        return skip_bigram_pair(hyp.tokens155, ref.tokens155, skip_distance, unigrams=True)
    return ngram_pair(hyp.tokens, ref.tokens, int(variant[5:]))


@dataclass(frozen=True, slots=True)
class _Text:
    """One segment split into sentences of tokens, for both tokenizers."""

    sentences: tuple[tuple[str, ...], ...]
    sentences155: tuple[tuple[str, ...], ...]

    @property
    def tokens(self) -> tuple[str, ...]:
        return tuple(t for s in self.sentences for t in s)

    @property
    def tokens155(self) -> tuple[str, ...]:
        return tuple(t for s in self.sentences155 for t in s)


#: Numbers of one variant's statistics (:meth:`RougeStats.to_row`).
_VARIANT_COLUMNS = ("hits", "hyp_count", "ref_count", "precision", "recall", "fmeasure", "segments")
_WIDTH = len(_VARIANT_COLUMNS)


class Rouge(Metric[RougeResult]):
    """ROUGE with a fixed configuration; :func:`corpus_rouge` and :func:`segment_rouge` wrap it.

    A :class:`~meteor_eval.metrics.protocol.Metric` whose row holds, for each variant in
    ``config.types``, the seven numbers of :class:`~meteor_eval.stats.rouge.RougeStats`. Rows
    hold floats; totals hold their exact column sums (:meth:`exact_sums`), so a corpus score is
    the same whatever the grouping, and no segment's row is kept unless a bootstrap asks.

    Example:
        >>> r = Rouge(RougeConfig(types=("rouge1",)))
        >>> r.segment_score("He works on machine learning", ["I work on machine learning"])[
        ...     "rouge1"].precision
        0.6
    """

    name = "rouge"
    exact = False
    config: RougeConfig
    score_fields = frozenset({"aggregate", "n_bootstrap", "seed", "confidence"})

    config_class = RougeConfig

    def __init__(self, config: RougeConfig | None = None) -> None:
        super().__init__(config)
        config = self.config
        # The compiled kernel's arguments when every variant is a rouge-score one, else None.
        self._kernel_args: tuple[list[int], str, Any, bool] | None = None
        if _ROUGE_ROWS is not None and not ROUGE155_TYPES & set(config.types):
            self._kernel_args = (
                [_kernel_code(v) for v in config.types],
                config.sentence_separator or "\n",
                porter_stem if config.use_stemmer else None,
                config.multi_ref == "average",
            )

    def _split(self, text: str) -> _Text:
        separator = self.config.sentence_separator or "\n"
        parts = [part for part in text.split(separator) if part]
        stem = self.config.use_stemmer
        return _Text(
            tuple(tokenize_rouge_score(part, stem) for part in parts),
            tuple(tokenize_rouge155(part, stem) for part in parts),
        )

    def _check_work(self, variant: str, hyp: _Text, refs: Sequence[_Text]) -> None:
        """Refuse a segment whose work exceeds its budget (:mod:`meteor_eval.limits`) for the
        variants whose cost grows with the product of the lengths: LCS table cells (ROUGE-L,
        ROUGE-Lsum, ROUGE-W: hypothesis tokens times reference tokens, summed over the
        references) and skip bigrams (ROUGE-S/SU without a skip limit). Other variants are
        linear and never refused."""
        if variant in ("rougeL", "rougeLsum"):
            n = len(hyp.tokens)
            cells = sum(n * len(ref.tokens) for ref in refs)
            kind = "rouge"
        elif variant == "rougeW":
            n = len(hyp.tokens155)
            cells = sum(n * len(ref.tokens155) for ref in refs)
            kind = "rouge"
        elif variant in ("rougeS", "rougeSU") and self.config.skip_distance < 0:
            n = len(hyp.tokens155)
            cells = n * (n - 1) // 2 + sum(
                len(ref.tokens155) * (len(ref.tokens155) - 1) // 2 for ref in refs
            )
            kind = "rouge_skip"
        else:
            return
        label = {"rougeL": "ROUGE-L", "rougeLsum": "ROUGE-Lsum", "rougeW": "ROUGE-W"}.get(
            variant, f"{'ROUGE-S' if variant == 'rougeS' else 'ROUGE-SU'} without a skip limit"
        )
        check_work(kind, cells, label)

    def _variant_stats(self, variant: str, hyp: _Text, refs: Sequence[_Text]) -> RougeStats:
        self._check_work(variant, hyp, refs)
        weight = self.config.weight
        skip_distance = self.config.skip_distance
        triples = [
            variant_counts(variant, hyp, ref, weight=weight, skip_distance=skip_distance)
            for ref in refs
        ]
        if self.config.multi_ref == "average":
            hits = sum(t[0] for t in triples)
            hyp_count = sum(t[1] for t in triples)
            ref_count = sum(t[2] for t in triples)
        elif variant in ROUGE155_TYPES:
            # ROUGE-1.5.5 -f B: best recall, first on a tie; ROUGE-S compares 5-digit recalls.
            best_key = -1.0
            hits = hyp_count = ref_count = 0.0
            for triple in triples:
                recall = _prf(variant, *triple, weight)[1]
                key = float(f"{recall:.5f}") if variant != "rougeW" else recall
                if key > best_key:
                    best_key = key
                    hits, hyp_count, ref_count = triple
        else:
            # rouge-score score_multi: best F-measure, first on a tie.
            best_f = -1.0
            hits = hyp_count = ref_count = 0.0
            for triple in triples:
                f = _prf(variant, *triple, weight)[2]
                if f > best_f:
                    best_f = f
                    hits, hyp_count, ref_count = triple
        precision, recall, fmeasure = _prf(variant, hits, hyp_count, ref_count, weight)
        if variant in ROUGE155_TYPES:
            # ROUGE-1.5.5 computes a segment's F from its P and R already rounded to 5 digits.
            fmeasure = _f_rouge155(float(f"{precision:.5f}"), float(f"{recall:.5f}"))
        return RougeStats(hits, hyp_count, ref_count, precision, recall, fmeasure, 1)

    def segment_stats(self, hypothesis: str, references: Sequence[str]) -> dict[str, RougeStats]:
        """Per variant, the statistics of one hypothesis against its references (one call of
        the compiled kernel when every variant is a rouge-score one)."""
        check_segment(0, hypothesis, references)
        kernel = _ROUGE_ROWS
        if kernel is not None and self._kernel_args is not None:
            codes, separator, stem, average = self._kernel_args
            data = kernel([hypothesis], [references], codes, separator, stem, average)
            if data is not None:
                v = memoryview(data).cast("d").tolist()
                return {
                    variant: RougeStats(v[k], v[k + 1], v[k + 2], v[k + 3], v[k + 4], v[k + 5], 1)
                    for variant, k in zip(self.config.types, range(0, len(v), 7), strict=True)
                }
        hyp = self._split(hypothesis)
        refs = [self._split(ref) for ref in references]
        return {v: self._variant_stats(v, hyp, refs) for v in self.config.types}

    def corpus_stats(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
    ) -> list[dict[str, RougeStats]]:
        """One ``{variant: stats}`` per segment."""
        check_corpus(hypotheses, references)
        out = []
        for index, (hyp, refs) in enumerate(zip(hypotheses, references, strict=True)):
            check_segment(index, hyp, refs)
            out.append(self.segment_stats(hyp, refs))
        return out

    @property
    def columns(self) -> tuple[str, ...]:
        """``<variant>_<number>`` for each variant and each of the seven numbers."""
        return tuple(f"{v}_{c}" for v in self.config.types for c in _VARIANT_COLUMNS)

    def segment_rows(self, pairs: Sequence[Pair]) -> list[Row]:
        """Each pair's statistics, the variants' rows joined in ``config.types`` order.

        The rouge-score variants (ROUGE-N, L, Lsum) come from the compiled kernel a chunk at a
        time when it is built; ROUGE-W/S/SU, and every variant without the kernel (or when an
        item is not a string, which this path then names), from the pure-Python twin.
        """
        types = self.config.types
        fast = [v for v in types if v not in ROUGE155_TYPES]
        block = self._compiled_block(pairs, fast) if fast else None
        if block is not None and len(fast) == len(types):
            rows: list[Row] = []
            seg = range(6, 7 * len(types), 7)
            for values in block.tolist():
                for k in seg:
                    values[k] = 1
                rows.append(tuple(values))
            return rows
        compiled = (
            {v: block[:, 7 * k : 7 * k + 7] for k, v in enumerate(fast)}
            if block is not None
            else {}
        )
        out: list[Row] = []
        for index, (hypothesis, references) in enumerate(pairs):
            check_segment(index, hypothesis, references)
            hyp = self._split(hypothesis)
            refs = [self._split(ref) for ref in references]
            row: tuple[float, ...] = ()
            try:
                for variant in types:
                    if variant in compiled:
                        values = compiled[variant][index].tolist()
                        values[6] = 1
                        row += tuple(values)
                    else:
                        row += self._variant_stats(variant, hyp, refs).to_row()
            except WorkBudgetError as exc:
                raise exc.at_index(index) from None
            out.append(row)
        return out

    def _check_kernel_work(
        self, pairs: Sequence[Pair], variants: Sequence[str], offset: int
    ) -> None:
        """The work budget of the LCS variants for pairs the compiled kernel scores (it
        tokenizes inside C): a pair whose characters bound its table cells within the budget
        passes at the cost of a ``len``; only a longer one is tokenized here and counted
        exactly, as the Python path counts it (:meth:`_check_work`).

        A rouge-score token is at least one character of the lowercased text, and lowercasing
        at most doubles a character, so ``2 * len(text)`` bounds a text's tokens.

        Raises:
            WorkBudgetError: at the pair's index in the batch (``offset`` + its position).
        """
        budget = WORK_BUDGET["rouge"]
        for index, (hypothesis, references) in enumerate(pairs):
            if not isinstance(hypothesis, str) or not all(isinstance(r, str) for r in references):
                continue  # the kernel refuses them, and the Python path names them
            bound = 2 * len(hypothesis) * sum(2 * len(ref) for ref in references)
            if bound <= budget:
                continue
            hyp = self._split(hypothesis)
            refs = [self._split(ref) for ref in references]
            try:
                for variant in variants:
                    self._check_work(variant, hyp, refs)
            except WorkBudgetError as exc:
                raise exc.at_index(offset + index) from None

    def _compiled_block(
        self, pairs: Sequence[Pair], variants: Sequence[str], offset: int = 0
    ) -> Any:
        """The compiled kernel's float64 block (segments x 7 numbers per variant) of the
        rouge-score ``variants``, or ``None`` when it cannot compute them (``offset``: the
        index of the first pair in its corpus, for error messages)."""
        if _ROUGE_ROWS is None:
            return None
        import numpy as np

        config = self.config
        codes = [_kernel_code(v) for v in variants]
        separator = config.sentence_separator or "\n"
        stem = porter_stem if config.use_stemmer else None
        average = config.multi_ref == "average"
        width = 7 * len(codes)
        lcs = [v for v in variants if v in ("rougeL", "rougeLsum")]
        parts = []
        for start in range(0, len(pairs), CHUNK):
            chunk = pairs[start : start + CHUNK]
            if lcs:
                self._check_kernel_work(chunk, lcs, offset + start)
            data = _ROUGE_ROWS(
                [hyp for hyp, _ in chunk],
                [group for _, group in chunk],
                codes,
                separator,
                stem,
                average,
            )
            if data is None:
                return None
            parts.append(np.frombuffer(data, dtype=np.float64).reshape(-1, width))
        if not parts:
            return np.zeros((0, width))
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    def _block_total(self, pairs: Sequence[Pair]) -> Total | None:
        """The total of ``pairs`` from the compiled kernel, each chunk's float64 block added
        straight to the total's exact column sums (:meth:`exact_sums`; the block's segment
        column holds the 1.0 of each row), so the same bits as the rows' path in constant
        memory; ``None`` unless the kernel computes every variant (rouge-score ones) and no row
        is kept (no bootstrap)."""
        types = self.config.types
        if self.keeps_rows() or _ROUGE_ROWS is None or ROUGE155_TYPES & set(types):
            return None
        total = self.new_total()
        assert total.sums is not None
        for start in range(0, len(pairs), CHUNK):
            block = self._compiled_block(pairs[start : start + CHUNK], types, start)
            if block is None:
                return None
            total.sums.add_block(block)
        total.count = len(pairs)
        total.nrefs.update(len(refs) for _, refs in pairs)
        return total

    def compiled_corpus_total(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
    ) -> Total | None:
        """In one process, the compiled kernel's total of the whole corpus (:meth:`_block_total`;
        see :meth:`Metric.compiled_corpus_total`)."""
        return self._block_total(list(zip(hypotheses, references, strict=True)))

    def pooled_rows(self, pairs: Sequence[Pair]) -> Total:
        """The total of a batch (what a ``jobs`` or Dask worker returns for a chunk): the
        compiled kernel's (:meth:`_block_total`), else from :meth:`segment_rows`."""
        total = self._block_total(pairs)
        return total if total is not None else super().pooled_rows(pairs)

    def zero(self) -> Row:
        """Zero counts and sums (floats) and no segment, for each variant."""
        return RougeStats.zero().to_row() * len(self.config.types)

    def keeps_rows(self) -> bool:
        """Every segment's row is kept only for the bootstrap interval: the total's sums are
        exact (:meth:`exact_sums`), so neither the mean of segment scores nor ROUGE-W's
        weighted hits need the rows."""
        return self.config.n_bootstrap > 0

    def exact_sums(self) -> bool:
        """Always: every column of a ROUGE total (counts, ROUGE-W's weighted hits, the sums of
        segment scores of the mean) is its exactly rounded sum (``math.fsum``'s bits), the
        same to the last bit whatever the order or grouping in which rows were merged
        (batches, ``jobs`` chunks, Dask partitions, mergeable objects), in constant memory.
        Pooled counts of ROUGE-N/L/Lsum/S/SU are whole numbers, so their exact sums are the
        plain ones."""
        return True

    @staticmethod
    def exact_total(rows: Sequence[Row]) -> Row:
        """The column sums of ``rows``, each exactly rounded (independent of the rows' order)."""
        if not rows:
            return ()
        return tuple(math.fsum(column) for column in zip(*rows, strict=True))

    def _variant_records(self, row: Row) -> dict[str, RougeStats]:
        return {
            variant: RougeStats.from_row(row[k * _WIDTH : (k + 1) * _WIDTH])
            for k, variant in enumerate(self.config.types)
        }

    def score_total(
        self, total: Row, *, nrefs: str = "1", rows: Sequence[Row] | None = None
    ) -> RougeResult:
        """Per variant, the score of merged statistics (``rows`` enable the bootstrap, and
        replace ``total`` by their exactly rounded sums: see :meth:`keeps_rows`), as one
        :class:`RougeResult`."""
        if rows:
            total = self.exact_total(rows)
        per_row = [self._variant_records(row) for row in rows] if rows else None
        variants = {
            variant: self.score_stats(
                variant,
                stats,
                nrefs=nrefs,
                rows=[records[variant] for records in per_row] if per_row else None,
            )
            for variant, stats in self._variant_records(total).items()
        }
        headline = variants[self.config.types[0]].fmeasure
        return RougeResult(headline, self.signature(nrefs), variants)

    def values(self, score: RougeResult) -> dict[str, float]:
        """The F-measure of each variant, by variant name."""
        return {variant: result.fmeasure for variant, result in score.items()}

    def report(self, score: RougeResult) -> dict[str, dict[str, Any]]:
        """Per variant, its F-measure as the score, with precision, recall and F-measure, and
        their bootstrap intervals (``precision_ci``, ``recall_ci``, ``fmeasure_ci``: ``[low,
        high]``) when ``n_bootstrap`` asked for them."""
        out: dict[str, dict[str, Any]] = {}
        for variant, result in score.items():
            entry: dict[str, Any] = {
                "score": result.fmeasure,
                "precision": result.precision,
                "recall": result.recall,
                "fmeasure": result.fmeasure,
            }
            for name in ("precision_ci", "recall_ci", "fmeasure_ci"):
                interval = getattr(result, name)
                if interval is not None:
                    entry[name] = [interval.low, interval.high]
            out[variant] = entry
        return out

    def signature(self, nrefs: str = "1", /) -> Signature:
        """The signature of the whole configuration: every variant's settings in one line
        (each variant's own score carries :meth:`variant_signature`)."""
        config = self.config
        types = config.types
        fields = [
            SignatureField("types", "ty", "+".join(types)),
            SignatureField("nrefs", "#", nrefs),
            SignatureField("stem", "st", "porter" if config.use_stemmer else "no"),
            SignatureField("refs", "r", config.multi_ref),
            SignatureField("agg", "a", config.aggregate),
        ]
        if {"rougeLsum", "rougeW"} & set(types):
            sep = config.sentence_separator
            fields.append(SignatureField("sent", "sn", "newline" if sep is None else sep))
        if "rougeW" in types:
            fields.append(SignatureField("weight", "w", repr(float(config.weight))))
        if {"rougeS", "rougeSU"} & set(types):
            fields.append(SignatureField("skip", "sk", str(config.skip_distance)))
        if config.n_bootstrap:
            # the intervals are part of the result: their settings are part of its signature
            fields.append(SignatureField("bs", "bs", str(config.n_bootstrap)))
            fields.append(SignatureField("seed", "rs", str(config.seed)))
            fields.append(SignatureField("ci", "ci", repr(config.confidence)))
        return Signature("rouge", tuple(fields))

    def variant_signature(
        self, variant: str, nrefs: str = "1", *, bootstrap: bool = False
    ) -> Signature:
        """The reproducibility signature of one variant's score."""
        config = self.config
        fields = [
            SignatureField("nrefs", "#", nrefs),
            SignatureField(
                "tok", "tok", "rouge155" if variant in ROUGE155_TYPES else "rouge-score"
            ),
            SignatureField("stem", "st", "porter" if config.use_stemmer else "no"),
            SignatureField("refs", "r", config.multi_ref),
            SignatureField("agg", "a", config.aggregate),
        ]
        if variant in ("rougeLsum", "rougeW"):
            sep = config.sentence_separator
            fields.append(SignatureField("sent", "sn", "newline" if sep is None else sep))
        if variant == "rougeW":
            fields.append(SignatureField("weight", "w", repr(float(config.weight))))
        if variant in ("rougeS", "rougeSU"):
            fields.append(SignatureField("skip", "sk", str(config.skip_distance)))
        if bootstrap:
            fields.append(SignatureField("bs", "bs", str(config.n_bootstrap)))
            fields.append(SignatureField("seed", "rs", str(config.seed)))
            fields.append(SignatureField("ci", "ci", repr(config.confidence)))
        return Signature(variant, tuple(fields))

    def score_stats(
        self,
        variant: str,
        stats: RougeStats,
        *,
        nrefs: str = "1",
        rows: Sequence[RougeStats] | None = None,
    ) -> RougeScore:
        """Score summed statistics; ``rows`` (the per-segment records) enable the bootstrap."""
        config = self.config
        precision, recall, fmeasure = score_from_stats(variant, stats, config)
        intervals: list[Interval | None] = [None, None, None]
        use_bootstrap = bool(config.n_bootstrap and rows)
        if use_bootstrap and rows is not None:

            def statistic(summed: tuple[float, ...], _size: int) -> tuple[float, float, float]:
                return score_from_stats(variant, RougeStats.from_row(summed), config)

            found = bootstrap_interval(
                [row.to_row() for row in rows],
                statistic,
                n_samples=config.n_bootstrap,
                seed=config.seed,
                confidence=config.confidence,
            )
            intervals = [Interval(low, high) for low, high in found]
        return RougeScore(
            fmeasure,
            self.variant_signature(variant, nrefs, bootstrap=use_bootstrap),
            variant,
            precision,
            recall,
            fmeasure,
            *intervals,
        )


def corpus_rouge(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    *,
    types: Sequence[str] = DEFAULT_TYPES,
    use_stemmer: bool = False,
    multi_ref: MultiRef = "best",
    aggregate: Aggregate = "mean",
    weight: float = 1.2,
    skip_distance: int = 4,
    sentence_separator: str | None = None,
    n_bootstrap: int = 0,
    seed: int = 12345,
    confidence: float = 0.95,
    jobs: int = 1,
    start_method: str | None = None,
) -> RougeResult:
    """Corpus ROUGE for each variant in ``types`` (see :class:`RougeConfig` for the options);
    ``jobs`` processes (0: one per CPU) started by ``start_method``
    (:mod:`meteor_eval.processes`) give the same result as one.

    Example:
        >>> s = corpus_rouge(["I work."], [["He works on machine learning."]], types=["rouge1"])
        >>> round(s["rouge1"].recall, 6)
        0.0
    """
    types = tuple(types)
    config = config_from(RougeConfig, locals())
    return Rouge(config).corpus_score(hypotheses, references, jobs=jobs, start_method=start_method)


def segment_rouge(
    hypothesis: str,
    references: Sequence[str],
    *,
    types: Sequence[str] = DEFAULT_TYPES,
    use_stemmer: bool = False,
    multi_ref: MultiRef = "best",
    weight: float = 1.2,
    skip_distance: int = 4,
    sentence_separator: str | None = None,
) -> RougeResult:
    """ROUGE of one hypothesis against its references, for each variant in ``types``.

    Example:
        >>> s = segment_rouge("He works on machine learning.", ["I work on machine learning."])
        >>> s["rouge1"].precision
        0.6
    """
    if isinstance(references, str):
        raise TypeError("references: expected a sequence of strings, got a bare string")
    types = tuple(types)
    config = config_from(RougeConfig, locals())
    return Rouge(config).segment_score(hypothesis, references)


def sentence_rouge(hypothesis: str, references: Sequence[str], **options: Any) -> RougeResult:
    """Deprecated name of :func:`segment_rouge` (removed in 0.3)."""
    warn_renamed("sentence_rouge", "segment_rouge")
    return segment_rouge(hypothesis, references, **options)
