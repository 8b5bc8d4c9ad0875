"""BLEU (Papineni et al., 2002) on sacrebleu's 0-100 scale, equal to sacrebleu 2.x.

BLEU is the geometric mean of modified (clipped) n-gram precisions, n = 1..4, times a brevity
penalty ``exp(1 - r/c)`` when the hypothesis length ``c`` is below the reference length ``r``.
Defaults are sacrebleu's: tokenizer ``13a``, ``exp`` smoothing, case-sensitive, no effective order
for corpus scores. :func:`segment_bleu` turns effective order on, like sacrebleu's
``sentence_bleu``.

Reference implementation: sacrebleu 2.x (``sacrebleu.metrics.bleu.BLEU``), checked to 1e-9 on
the xray and newstest2009 data for every tokenizer, smoothing method, case setting and effective
order. Smoothing methods are those of Chen and Cherry (2014): ``none``, ``floor`` (method 1,
default value 0.1), ``add-k`` (method 2, default 1), ``exp`` (method 3, mteval's NIST smoothing).

Several references: each hypothesis n-gram is clipped by its highest count in any one reference;
the reference length is the closest to the hypothesis length (the shorter on a tie).

Where we differ from sacrebleu: ``BleuScore.counts`` and ``totals`` are the raw counts
(sacrebleu's carry the ``add-k`` increments); references are grouped per segment; inputs are
validated up front. The signature has sacrebleu's fields, prefixed with the metric name and
ending with meteor-eval's version: ``bleu|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:X``.

Edge cases: an empty hypothesis, an empty reference, both, or no matching unigram give 0.0,
never NaN.

References:
    Kishore Papineni, Salim Roukos, Todd Ward, Wei-Jing Zhu. 2002. BLEU: a Method for Automatic
    Evaluation of Machine Translation. ACL.
    Matt Post. 2018. A Call for Clarity in Reporting BLEU Scores. WMT.
    Boxing Chen, Colin Cherry. 2014. A Systematic Comparison of Smoothing Techniques for
    Sentence-Level BLEU. WMT.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, get_args

from meteor_eval._ext import compiled_function
from meteor_eval.errors import warn_renamed
from meteor_eval.metrics.base import (
    Score,
    Signature,
    SignatureField,
    check_segment,
    config_from,
)
from meteor_eval.metrics.protocol import Metric, Pair, Row, Total
from meteor_eval.stats.bleu import BleuReference, BleuStats, bleu_segment_stats, prepare_reference
from meteor_eval.text.bleu_tokenizers import (
    BLEU_TOKENIZERS,
    COMPILED_TOKENIZERS,
    BleuTokenizerName,
    get_bleu_tokenizer,
)

__all__ = [
    "Bleu",
    "BleuConfig",
    "BleuScore",
    "SmoothMethod",
    "corpus_bleu",
    "score_from_stats",
    "segment_bleu",
    "sentence_bleu",
]

SmoothMethod = Literal["exp", "floor", "add-k", "none"]
SMOOTH_METHODS: tuple[str, ...] = get_args(SmoothMethod)
#: Default smoothing values (Chen and Cherry, 2014); ``None`` = the method takes no value.
SMOOTH_DEFAULTS: dict[str, float | None] = {"exp": None, "floor": 0.1, "add-k": 1, "none": None}

# sacrebleu floors log(0) to this value rather than -inf.
_LOG_ZERO = -9999999999.0

#: The compiled statistics kernel (``_ext/bleu.c``): tokenizer, n-gram counts and clipping of a
#: chunk of lines in one call; ``None`` when the extension is not in use (the pure-Python twin,
#: :func:`~meteor_eval.stats.bleu.bleu_segment_stats` over :meth:`Bleu.tokenize`, runs then).
_BLEU_ROWS = compiled_function("bleu_rows")
#: Pairs per call of the compiled kernel: its interned vocabulary lives for one call, so memory
#: stays flat however long the input.
CHUNK = 8192


@dataclass(frozen=True, slots=True)
class BleuConfig:
    """Settings of BLEU; defaults are sacrebleu's.

    Attributes:
        tokenize: ``13a`` (default), ``intl``, ``char``, ``none`` or ``zh``.
        smooth_method: ``exp`` (default), ``floor``, ``add-k`` or ``none``.
        smooth_value: Value for ``floor``/``add-k``; ``None`` = default (0.1 / 1).
        lowercase: Lowercase hypotheses and references before tokenizing.
        effective_order: Leave out n-gram orders the hypothesis does not have.
        max_ngram_order: Highest n-gram order (4).
    """

    tokenize: BleuTokenizerName = "13a"
    smooth_method: SmoothMethod = "exp"
    smooth_value: float | None = None
    lowercase: bool = False
    effective_order: bool = False
    max_ngram_order: int = 4

    def __post_init__(self) -> None:
        if self.tokenize not in BLEU_TOKENIZERS:
            raise ValueError(
                f"tokenize: got {self.tokenize!r}, expected one of {', '.join(BLEU_TOKENIZERS)}"
            )
        if self.smooth_method not in SMOOTH_METHODS:
            raise ValueError(
                f"smooth_method: got {self.smooth_method!r}, "
                f"expected one of {', '.join(SMOOTH_METHODS)}"
            )
        if self.smooth_value is not None:
            if isinstance(self.smooth_value, bool) or not isinstance(
                self.smooth_value, int | float
            ):
                raise TypeError(
                    f"smooth_value: got {self.smooth_value!r}, expected a number or None"
                )
            if not self.smooth_value >= 0:
                raise ValueError(f"smooth_value: got {self.smooth_value!r}, expected >= 0")
        for name in ("lowercase", "effective_order"):
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise TypeError(f"{name}: got {value!r}, expected True or False")
        if isinstance(self.max_ngram_order, bool) or not isinstance(self.max_ngram_order, int):
            raise TypeError(
                f"max_ngram_order: got {self.max_ngram_order!r}, expected an int from 1 to 10"
            )
        if not 1 <= self.max_ngram_order <= 10:
            raise ValueError(
                f"max_ngram_order: got {self.max_ngram_order!r}, expected an int from 1 to 10"
            )

    def smooth_string(self) -> str:
        """Smoothing as in sacrebleu's signature: ``exp``, ``floor[0.10]``, ``add-k[1.00]``."""
        default = SMOOTH_DEFAULTS[self.smooth_method]
        if default is None:
            return self.smooth_method
        value = default if self.smooth_value is None else self.smooth_value
        return f"{self.smooth_method}[{value:.2f}]"


@dataclass(frozen=True, slots=True)
class BleuScore(Score):
    """A BLEU score (0-100) with its statistics.

    Attributes:
        counts: Clipped n-gram matches per order.
        totals: Hypothesis n-grams per order.
        precisions: Smoothed n-gram precisions (0-100) per order.
        bp: Brevity penalty.
        sys_len: Hypothesis length in tokens.
        ref_len: Effective reference length in tokens.
    """

    counts: tuple[int, ...]
    totals: tuple[int, ...]
    precisions: tuple[float, ...]
    bp: float
    sys_len: int
    ref_len: int

    @property
    def ratio(self) -> float:
        """Hypothesis length over reference length (0 when there is no reference token)."""
        return self.sys_len / self.ref_len if self.ref_len else 0.0

    def verbose(self) -> str:
        """sacrebleu's verbose part: ``p1/p2/p3/p4 (BP = ... ratio = ... hyp_len = ... ...)``."""
        precisions = "/".join(f"{p:.1f}" for p in self.precisions)
        return (
            f"{precisions} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} "
            f"hyp_len = {self.sys_len:d} ref_len = {self.ref_len:d})"
        )


def _brevity_penalty(sys_len: int, ref_len: int) -> float:
    if sys_len >= ref_len:
        return 1.0
    return math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0


def _log(value: float) -> float:
    return _LOG_ZERO if value == 0.0 else math.log(value)


def score_from_stats(
    stats: BleuStats, config: BleuConfig
) -> tuple[float, tuple[float, ...], float]:
    """BLEU from summed statistics: ``(score, precisions, brevity penalty)``.

    The arithmetic follows sacrebleu's ``compute_bleu`` operation by operation, so results are
    bit-identical: ``add-k`` adds k to matches and totals of orders 2 and up; an order with no
    hypothesis n-gram stops the loop; ``exp`` halves the pseudo-count for each further order with
    no match; ``log(0)`` is floored.

    Example:
        >>> s = BleuStats(5, 5, (5, 4, 3, 2), (5, 4, 3, 2))
        >>> score_from_stats(s, BleuConfig())[0]
        100.00000000000004
    """
    order = config.max_ngram_order
    if len(stats.counts) != order:
        raise ValueError(f"stats have n-gram order {len(stats.counts)}, the config expects {order}")
    bp = _brevity_penalty(stats.sys_len, stats.ref_len)
    precisions = [0.0] * order
    if not any(stats.counts):
        return 0.0, tuple(precisions), bp
    method = config.smooth_method
    value = SMOOTH_DEFAULTS[method] if config.smooth_value is None else config.smooth_value
    correct: list[float] = list(stats.counts)
    total: list[float] = list(stats.totals)
    smooth_mteval = 1.0
    eff_order = order
    for n in range(1, order + 1):
        if method == "add-k" and n > 1 and value is not None:
            correct[n - 1] += value
            total[n - 1] += value
        if total[n - 1] == 0:
            break
        if config.effective_order:
            eff_order = n
        if correct[n - 1] == 0:
            if method == "exp":
                smooth_mteval *= 2
                precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1])
            elif method == "floor" and value is not None:
                precisions[n - 1] = 100.0 * value / total[n - 1]
        else:
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]
    score = bp * math.exp(sum([_log(p) for p in precisions[:eff_order]]) / eff_order)
    return score, tuple(precisions), bp


def bleu_of_totals(totals: Any, config: BleuConfig) -> Any:
    """BLEU of many summed statistics rows at once (``totals``: one row per sample, columns as
    :attr:`Bleu.columns`): :func:`score_from_stats` vectorised, smoothing and effective order
    included."""
    import numpy as np

    order = config.max_ngram_order
    data = np.asarray(totals, dtype=np.float64)
    sys_len, ref_len = data[:, 0], data[:, 1]
    correct = data[:, 2 : 2 + order].copy()
    total = data[:, 2 + order : 2 + 2 * order].copy()
    method = config.smooth_method
    value = SMOOTH_DEFAULTS[method] if config.smooth_value is None else config.smooth_value
    samples = len(data)
    precisions = np.zeros((samples, order))
    active = np.ones(samples, dtype=bool)
    smooth = np.ones(samples)
    eff = np.full(samples, order)
    with np.errstate(divide="ignore", invalid="ignore"):
        bp = np.where(
            sys_len >= ref_len, 1.0, np.where(sys_len > 0, np.exp(1 - ref_len / sys_len), 0.0)
        )
        for n in range(order):
            if method == "add-k" and n > 0 and value is not None:
                correct[:, n] += value
                total[:, n] += value
            active &= total[:, n] != 0
            if config.effective_order:
                eff = np.where(active, n + 1, eff)
            zero = active & (correct[:, n] == 0)
            if method == "exp":
                smooth = np.where(zero, smooth * 2, smooth)
                precisions[:, n] = np.where(zero, 100.0 / (smooth * total[:, n]), 0.0)
            elif method == "floor" and value is not None:
                precisions[:, n] = np.where(zero, 100.0 * value / total[:, n], 0.0)
            matched = active & (correct[:, n] != 0)
            precisions[:, n] = np.where(
                matched, 100.0 * correct[:, n] / total[:, n], precisions[:, n]
            )
        logs = np.where(precisions == 0.0, _LOG_ZERO, np.log(precisions))
        acc = np.zeros(samples)
        for n in range(order):
            acc = np.where(n < eff, acc + logs[:, n], acc)
        score = bp * np.exp(acc / eff)
    any_match = (data[:, 2 : 2 + order] != 0).any(axis=1)
    return np.where(any_match, score, 0.0)


def check_reference_layout(hypotheses: object, references: object) -> None:
    """Refuse references whose layout is ambiguous: ``n`` segments (``n >= 2``) with ``n``
    references each read the same as sacrebleu's ``n`` streams of ``n`` lines, and reading
    streams per segment pairs every hypothesis with the wrong references, silently
    (mjpost/sacrebleu#220 is the same trap the other way round). References wrapped in
    :class:`~meteor_eval.types.PerSegment` are taken per segment.

    Raises:
        InputError: the ambiguous shape, naming both layouts and both ways out.

    Example:
        >>> from meteor_eval.errors import InputError
        >>> try:
        ...     check_reference_layout(["a", "b"], [["a", "x"], ["b", "y"]])
        ... except InputError as exc:
        ...     print(str(exc).split(":")[1])
         2 segments with 2 references each
        >>> from meteor_eval.types import PerSegment
        >>> check_reference_layout(["a", "b"], PerSegment([["a", "x"], ["b", "y"]]))
    """
    from meteor_eval.errors import InputError
    from meteor_eval.types import PerSegment

    if isinstance(references, PerSegment) or not isinstance(hypotheses, Sequence):
        return
    if isinstance(references, str) or not isinstance(references, Sequence):
        return  # the general checks say what is wrong
    n = len(hypotheses)
    if n < 2 or len(references) != n:
        return
    if all(
        isinstance(refs, Sequence) and not isinstance(refs, str) and len(refs) == n
        for refs in references
    ):
        raise InputError(
            f"references: {n} segments with {n} references each: per segment (references[i] "
            "= the references of hypotheses[i]) or sacrebleu's streams (references[k][i] = "
            "reference k of hypotheses[i])? Wrap per-segment lists in "
            "meteor_eval.PerSegment(...), or transpose streams with "
            "meteor_eval.io.streams_to_segments(...)"
        )


class Bleu(Metric[BleuScore]):
    """BLEU with a fixed configuration; the functions :func:`corpus_bleu` and
    :func:`segment_bleu` wrap it.

    A :class:`~meteor_eval.metrics.protocol.Metric`: a segment's statistics row is
    ``sys_len, ref_len, counts[1..N], totals[1..N]`` (sacrebleu's order); rows merge by sums.

    Args:
        config: The settings (default: sacrebleu's defaults).

    Example:
        >>> bleu = Bleu(BleuConfig())
        >>> text = "the cat sat on the mat"
        >>> round(bleu.corpus_score([text], [[text]]).score, 6)
        100.0
    """

    name = "bleu"
    config: BleuConfig
    score_fields = frozenset({"smooth_method", "smooth_value", "effective_order"})

    config_class = BleuConfig

    def __init__(self, config: BleuConfig | None = None) -> None:
        super().__init__(config)
        self._tokenizer = get_bleu_tokenizer(self.config.tokenize)

    def tokenize(self, text: str) -> tuple[str, ...]:
        """Lowercase (if configured), strip trailing whitespace, tokenize, split."""
        if self.config.lowercase:
            text = text.lower()
        return tuple(self._tokenizer(text.rstrip()).split())

    def prepare_references(self, references: Sequence[str]) -> BleuReference:
        """Tokenize and merge the references of one segment (reusable across systems)."""
        return prepare_reference(
            [self.tokenize(ref) for ref in references], self.config.max_ngram_order
        )

    def segment_stats(self, hypothesis: str, references: Sequence[str]) -> BleuStats:
        """Statistics of one hypothesis against its references."""
        check_segment(0, hypothesis, references)
        return bleu_segment_stats(
            self.tokenize(hypothesis),
            self.prepare_references(references),
            self.config.max_ngram_order,
        )

    def _checked_pairs(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
    ) -> list[Pair]:
        """The pairs of a corpus, after refusing a layout that could be sacrebleu's streams."""
        check_reference_layout(hypotheses, references)
        return super()._checked_pairs(hypotheses, references)

    def corpus_stats(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
    ) -> list[BleuStats]:
        """One statistics record per segment."""
        return [BleuStats.from_row(row) for row in self.corpus_rows(hypotheses, references)]

    @property
    def columns(self) -> tuple[str, ...]:
        """``sys_len, ref_len, counts_1..N, totals_1..N``."""
        order = range(1, self.config.max_ngram_order + 1)
        return (
            "sys_len",
            "ref_len",
            *(f"counts_{n}" for n in order),
            *(f"totals_{n}" for n in order),
        )

    def segment_rows(self, pairs: Sequence[Pair]) -> list[Row]:
        """Statistics rows of ``(hypothesis, references)`` pairs (sacrebleu's order).

        The compiled kernel computes them a chunk at a time when it is built and the tokenizer
        is one of ``13a``, ``intl``, ``char``, ``none``; otherwise (or when an item is not a
        string, which the Python path then names) the pure-Python twin does, with equal rows.
        """
        block = self.segment_block(pairs)
        if block is not None:
            return [tuple(row) for row in block.tolist()]
        return self._segment_rows_python(pairs)

    def segment_block(self, pairs: Sequence[Pair]) -> Any:
        """The rows of :meth:`segment_rows` as one ``int64`` NumPy array (segments x columns)
        from the compiled kernel, or ``None`` when it cannot compute them (not built, another
        tokenizer, an item of the wrong type)."""
        kind = COMPILED_TOKENIZERS.get(self.config.tokenize)
        if _BLEU_ROWS is None or kind is None:
            return None
        import numpy as np

        order = self.config.max_ngram_order
        width = 2 + 2 * order
        lower = self.config.lowercase
        parts = []
        for start in range(0, len(pairs), CHUNK):
            chunk = pairs[start : start + CHUNK]
            try:
                # the groups go as they are: the kernel refuses a bare string or another type
                refs: list[Sequence[str]]
                if lower:
                    hyps = [hyp.lower() for hyp, _ in chunk]
                    refs = [
                        group if isinstance(group, str) else [ref.lower() for ref in group]
                        for _, group in chunk
                    ]
                else:
                    hyps = [hyp for hyp, _ in chunk]
                    refs = [group for _, group in chunk]
            except AttributeError:
                return None
            data = _BLEU_ROWS(hyps, refs, kind, order)
            if data is None:
                return None
            parts.append(np.frombuffer(data, dtype=np.int64).reshape(-1, width))
        if not parts:
            return np.zeros((0, width), dtype=np.int64)
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    def pooled_rows(self, pairs: Sequence[Pair]) -> Total:
        """The total of a batch: summed in NumPy from the compiled block (integer sums, equal
        to the row-by-row merge), else row by row."""
        total = self.new_total()
        block = self.segment_block(pairs) if total.rows is None else None
        if block is None:
            self.add_rows(total, self.segment_rows(self._checked(pairs)))
        else:
            total.row = self.merge_totals(total.row, tuple(block.sum(axis=0).tolist()))
            total.count += len(block)
        total.nrefs.update(len(refs) for _, refs in pairs)
        return total

    def compiled_corpus_total(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
    ) -> Total | None:
        """With the compiled kernel, the statistics of the whole corpus summed as NumPy blocks,
        chunk by chunk (see :meth:`Metric.compiled_corpus_total`)."""
        if _BLEU_ROWS is None:
            return None
        check_reference_layout(hypotheses, references)
        total = self.pooled_rows(list(zip(hypotheses, references, strict=True)))
        return total if total.count == len(hypotheses) else None

    @staticmethod
    def _checked(pairs: Sequence[Pair]) -> Sequence[Pair]:
        for index, (hyp, refs) in enumerate(pairs):
            check_segment(index, hyp, refs)
        return pairs

    def _segment_rows_python(self, pairs: Sequence[Pair]) -> list[Row]:
        order = self.config.max_ngram_order
        out: list[Row] = []
        for index, (hyp, refs) in enumerate(pairs):
            check_segment(index, hyp, refs)
            stats = bleu_segment_stats(self.tokenize(hyp), self.prepare_references(refs), order)
            out.append(stats.to_row())
        return out

    def score_total(
        self, total: Row, *, nrefs: str = "1", rows: Sequence[Row] | None = None
    ) -> BleuScore:
        """BLEU of merged statistics."""
        return self.score_stats(BleuStats.from_row(total), nrefs=nrefs)

    def values(self, score: BleuScore) -> dict[str, float]:
        """``{"bleu": score}`` (0-100)."""
        return {"bleu": score.score}

    def report(self, score: BleuScore) -> dict[str, dict[str, Any]]:
        """BLEU with its precisions, brevity penalty, length ratio and lengths."""
        return {
            "bleu": {
                "score": score.score,
                "precisions": list(score.precisions),
                "bp": score.bp,
                "ratio": score.ratio,
                "sys_len": score.sys_len,
                "ref_len": score.ref_len,
            }
        }

    def sample_values(self, totals: Any) -> dict[str, Any]:
        """BLEU of each resampled total (rows of integral sums): :func:`score_from_stats`'s
        steps on whole columns of totals at once (NumPy; the same operations in the same order,
        so within an ulp of the scalar formula)."""
        return {"bleu": bleu_of_totals(totals, self.config)}

    def signature(self, nrefs: str = "1") -> Signature:
        """The reproducibility signature, in sacrebleu's field order."""
        config = self.config
        fields = [
            SignatureField("nrefs", "#", nrefs),
            SignatureField("case", "c", "lc" if config.lowercase else "mixed"),
            SignatureField("eff", "e", "yes" if config.effective_order else "no"),
            SignatureField("tok", "tok", config.tokenize),
            SignatureField("smooth", "s", config.smooth_string()),
        ]
        if config.max_ngram_order != 4:
            fields.append(SignatureField("order", "o", str(config.max_ngram_order)))
        return Signature("bleu", tuple(fields))

    def score_stats(self, stats: BleuStats, *, nrefs: str = "1") -> BleuScore:
        """Score summed statistics."""
        score, precisions, bp = score_from_stats(stats, self.config)
        return BleuScore(
            score,
            self.signature(nrefs),
            stats.counts,
            stats.totals,
            precisions,
            bp,
            stats.sys_len,
            stats.ref_len,
        )

    def segment_metric(self) -> Bleu:
        """This BLEU with effective order: sacrebleu scores single segments so
        (``sentence_bleu``, ``--sentence-level``), else a segment lacking 4-grams scores 0."""
        return self if self.config.effective_order else self.with_options(effective_order=True)

    def with_options(self, **changes: object) -> Bleu:
        """A copy with some settings changed (e.g. ``effective_order=True``)."""
        return Bleu(replace(self.config, **changes))  # type: ignore[arg-type]


def corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    *,
    tokenize: BleuTokenizerName = "13a",
    smooth_method: SmoothMethod = "exp",
    smooth_value: float | None = None,
    lowercase: bool = False,
    effective_order: bool = False,
    max_ngram_order: int = 4,
    jobs: int = 1,
    start_method: str | None = None,
) -> BleuScore:
    """Corpus BLEU, equal to sacrebleu's ``corpus_bleu`` with the same options.

    Args:
        hypotheses: One string per segment.
        references: ``references[i]`` lists the references of ``hypotheses[i]``.
        tokenize: Tokenizer name.
        smooth_method: Smoothing method.
        smooth_value: Smoothing value for ``floor`` and ``add-k``.
        lowercase: Case-insensitive BLEU.
        effective_order: Leave out orders the hypotheses lack.
        max_ngram_order: Highest n-gram order.
        jobs: Processes to score in (0: one per CPU); the result is identical.
        start_method: How worker processes start (:mod:`meteor_eval.processes`).

    Returns:
        The score (0-100) with counts, precisions, brevity penalty and signature.

    Example:
        >>> corpus_bleu(["I work."], [["I work."]]).score
        0.0
    """
    config = config_from(BleuConfig, locals())
    return Bleu(config).corpus_score(hypotheses, references, jobs=jobs, start_method=start_method)


def segment_bleu(
    hypothesis: str,
    references: Sequence[str],
    *,
    tokenize: BleuTokenizerName = "13a",
    smooth_method: SmoothMethod = "exp",
    smooth_value: float | None = None,
    lowercase: bool = False,
    effective_order: bool = True,
    max_ngram_order: int = 4,
) -> BleuScore:
    """BLEU of one segment, equal to sacrebleu's ``sentence_bleu`` (effective order on by
    default).

    Example:
        >>> round(segment_bleu("I work.", ["I work."]).score, 6)
        100.0
    """
    if isinstance(references, str):
        raise TypeError("references: expected a sequence of strings, got a bare string")
    config = config_from(BleuConfig, locals())
    return Bleu(config).segment_score(hypothesis, references)


def sentence_bleu(hypothesis: str, references: Sequence[str], **options: Any) -> BleuScore:
    """Deprecated name of :func:`segment_bleu` (removed in 0.3; the sacrebleu drop-in,
    :mod:`meteor_eval.compat.sacrebleu`, keeps sacrebleu's ``sentence_bleu``)."""
    warn_renamed("sentence_bleu", "segment_bleu")
    return segment_bleu(hypothesis, references, **options)
