"""sacrebleu's ``BLEU`` class, computed by meteor-eval.

The same constructor, methods, attributes and results as ``sacrebleu.metrics.BLEU`` (2.x), on top
of :class:`meteor_eval.metrics.bleu.Bleu`: the tokenizers, n-gram statistics and formula are
meteor-eval's own, equal to sacrebleu's to the last bit (``tests/reference`` checks them, and
sacrebleu's own test files run against this module, see ``scripts/run_peer_tests.py``).

References come as sacrebleu's *streams*: ``references[k][i]`` is the ``k``-th reference of
hypothesis ``i`` (``[refs]`` for one reference per hypothesis); ``None`` in a stream leaves a
segment with fewer references. meteor-eval's own :func:`meteor_eval.metrics.bleu.corpus_bleu`
takes the references *per segment* instead (``references[i]`` lists those of hypothesis ``i``).

Where this differs from sacrebleu, on purpose:

* a reference stream whose length differs from the number of hypotheses raises ``ValueError``
  (sacrebleu silently scores the shorter common prefix), and so does a segment left with no
  reference at all;
* an unknown ``smooth_method`` raises ``ValueError`` (sacrebleu: ``AssertionError``);
* ``tokenize`` may be ``13a``, ``intl``, ``char``, ``none`` or ``zh``; sacrebleu's MeCab and
  SentencePiece tokenizers (``ja-mecab``, ``ko-mecab``, ``spm``, ``flores101``, ``flores200``,
  ``spBLEU-1K``) raise ``NotImplementedError``, and so does ``trg_lang`` ``ja`` or ``ko``
  without an explicit tokenizer;
* ``max_ngram_order`` goes from 1 to 10;
* the signature's version is :data:`~meteor_eval.compat.sacrebleu.metrics.base.SIGNATURE_VERSION`;
* the warning about tokenized input (lines ending in `` .``) is not given.

``counts`` and ``totals`` of a score carry the ``add-k`` increments, as sacrebleu's do.

Example:
    >>> from meteor_eval.compat.sacrebleu.metrics import BLEU
    >>> hyps = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
    >>> refs = [["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
    ...         ["The dog had bit the man.", "No one was surprised.",
    ...          "The man had bitten the dog."]]
    >>> bleu = BLEU()
    >>> bleu.corpus_score(hyps, refs)
    BLEU = 48.53 82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)
    >>> str(bleu.get_signature()).rsplit("|", 1)[0]
    'nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp'
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

from meteor_eval._log import get_logger
from meteor_eval.compat.sacrebleu._missing import not_provided
from meteor_eval.compat.sacrebleu.metrics.base import Score, Signature
from meteor_eval.errors import InputError
from meteor_eval.metrics.bleu import SMOOTH_DEFAULTS, SMOOTH_METHODS, Bleu, BleuConfig
from meteor_eval.metrics.bleu import score_from_stats as _score_from_stats
from meteor_eval.stats.bleu import BleuReference, BleuStats, bleu_segment_stats
from meteor_eval.text.bleu_tokenizers import BLEU_TOKENIZERS, get_bleu_tokenizer

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "BLEU",
    "MAX_NGRAM_ORDER",
    "BLEUScore",
    "BLEUSignature",
    "SacrebleuResampling",
    "SacrebleuTrials",
]

#: Default highest n-gram order.
MAX_NGRAM_ORDER = 4
#: sacrebleu's tokenizers that need MeCab or SentencePiece models: not offered here.
SACREBLEU_ONLY_TOKENIZERS = ("ja-mecab", "ko-mecab", "spm", "flores101", "flores200", "spBLEU-1K")

logger = get_logger("meteor_eval.compat.sacrebleu")


class BLEUSignature(Signature):
    """sacrebleu's BLEU signature: ``nrefs``, ``case``, ``eff``, ``tok``, ``smooth``, ``version``.

    Args:
        args: The metric's settings (:meth:`BLEU.get_signature` passes them).
    """

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"case": "c", "eff": "e", "tok": "tok", "smooth": "s"})
        method = args["smooth_method"]
        smooth = method
        default = SMOOTH_DEFAULTS[method]
        if default is not None:
            value = default if args["smooth_value"] is None else args["smooth_value"]
            smooth = f"{method}[{value:.2f}]"
        self.info.update(
            {
                "case": "lc" if args["lowercase"] else "mixed",
                "eff": "yes" if args["effective_order"] else "no",
                "tok": args["tokenizer_signature"],
                "smooth": smooth,
            }
        )


class _StatRows(list[list[int]]):
    """Statistics rows from the compiled kernel: a list of rows (sacrebleu's shape) that also
    keeps the NumPy block, so that summing them needs no Python loop."""

    def __init__(self, block: npt.NDArray[np.int64]) -> None:
        super().__init__(block.tolist())
        self.block = block


class _References:
    """Reference streams grouped per segment, with their clipping limits prepared on demand."""

    __slots__ = ("_prepared", "groups")

    def __init__(self, groups: list[Sequence[str]]) -> None:
        self.groups = groups
        self._prepared: list[BleuReference] | None = None

    def __bool__(self) -> bool:
        return bool(self.groups)

    def prepared(self, native: Bleu) -> list[BleuReference]:
        """Each segment's clipping limits and lengths (the pure-Python path's input)."""
        if self._prepared is None:
            self._prepared = [native.prepare_references(lines) for lines in self.groups]
        return self._prepared


class BLEUScore(Score):
    """A BLEU score with sacrebleu's fields.

    Attributes:
        score: BLEU (0-100).
        counts: Matched n-grams per order (with the ``add-k`` increments, as sacrebleu).
        totals: Hypothesis n-grams per order (likewise).
        precisions: n-gram precisions (0-100).
        bp: Brevity penalty.
        sys_len: Hypothesis length.
        ref_len: Effective reference length.
        ratio: ``sys_len / ref_len`` (0 without reference tokens).
        prec_str: The precisions as printed, ``p1/p2/p3/p4``.
    """

    def __init__(
        self,
        score: float,
        counts: list[Any],
        totals: list[Any],
        precisions: list[float],
        bp: float,
        sys_len: int,
        ref_len: int,
    ) -> None:
        super().__init__("BLEU", score)
        self.bp = bp
        self.counts = counts
        self.totals = totals
        self.sys_len = sys_len
        self.ref_len = ref_len
        self.precisions = precisions
        self.prec_str = "/".join(f"{p:.1f}" for p in precisions)
        self.ratio = sys_len / ref_len if ref_len else 0
        self._verbose = (
            f"{self.prec_str} (BP = {bp:.3f} ratio = {self.ratio:.3f} "
            f"hyp_len = {sys_len:d} ref_len = {ref_len:d})"
        )


class _Tokenizer:
    """A tokenizer by name, callable on a line, with sacrebleu's ``signature()``."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._fn: Callable[[str], str] = get_bleu_tokenizer(name)

    def __call__(self, line: str) -> str:
        return self._fn(line)

    def signature(self) -> str:
        return self._name


def _tokenizer_name(tokenize: str | None, trg_lang: str) -> str:
    if tokenize is None:
        tokenize = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}.get(trg_lang, "13a")
    if tokenize in SACREBLEU_ONLY_TOKENIZERS:
        raise not_provided(f"BLEU(tokenize={tokenize!r})", "tok")
    if tokenize not in BLEU_TOKENIZERS:
        raise ValueError(
            f"tokenize: got {tokenize!r}, expected one of {', '.join(BLEU_TOKENIZERS)}"
        )
    return tokenize


def _reported_counts(
    correct: list[Any], total: list[Any], smooth_method: str, value: float | None
) -> None:
    """Add sacrebleu's ``add-k`` increments to the counts it reports (in place)."""
    if smooth_method != "add-k" or value is None or not any(correct):
        return
    for n in range(1, len(total)):
        correct[n] += value
        total[n] += value
        if total[n] == 0:
            break


def _check_smooth(smooth_method: str) -> None:
    if smooth_method not in SMOOTH_METHODS:
        raise ValueError(
            f"smooth_method: got {smooth_method!r}, expected one of {', '.join(SMOOTH_METHODS)}"
        )


def sacrebleu_seed() -> int | None:
    """The random seed sacrebleu uses: ``$SACREBLEU_SEED`` (default 12345; ``none``: unseeded)."""
    text = os.environ.get("SACREBLEU_SEED", "12345")
    return None if text.lower() == "none" else int(text)


def _scalar_scores(
    totals: npt.NDArray[np.float64], config: BleuConfig, float32: bool
) -> npt.NDArray[np.float64]:
    """BLEU of each total, one at a time with the scalar formula (``float32`` counts or ints)."""
    import numpy as np

    order = config.max_ngram_order
    scores = np.empty(len(totals), dtype=np.float64)
    rows: Any = totals.astype(np.float32) if float32 else totals.astype(np.int64).tolist()
    for k, row in enumerate(rows):
        # The scalars flow through the formula as through sacrebleu's compute_bleu.
        stats = BleuStats(
            int(row[0]),
            int(row[1]),
            cast(tuple[int, ...], tuple(row[2 : 2 + order])),
            cast(tuple[int, ...], tuple(row[2 + order :])),
        )
        scores[k] = _score_from_stats(stats, config)[0]
    return scores


class SacrebleuResampling(Bleu):
    """meteor-eval's BLEU scoring bootstrap resamples as sacrebleu does: from ``float32`` sums.

    sacrebleu resamples statistics stored as ``float32``, so the precisions of each resampled
    corpus are ``float32`` quotients; scoring with this metric gives its bootstrap means,
    intervals and paired-bootstrap p-values to the last bit.
    """

    def sample_values(self, totals: npt.NDArray[np.float64]) -> dict[str, npt.NDArray[np.float64]]:
        """BLEU of each resampled total, from ``float32`` statistics."""
        return {"bleu": _scalar_scores(totals, self.config, float32=True)}


class SacrebleuTrials(Bleu):
    """meteor-eval's BLEU scoring approximate-randomisation trials as sacrebleu does: from
    integer sums with Python's scalar arithmetic (the native metric's vectorised formula agrees
    to within an ulp; this agrees to the bit, so p-values equal sacrebleu's even at a tie)."""

    def sample_values(self, totals: npt.NDArray[np.float64]) -> dict[str, npt.NDArray[np.float64]]:
        """BLEU of each trial's total, from integer statistics."""
        return {"bleu": _scalar_scores(totals, self.config, float32=False)}


class BLEU:
    """sacrebleu's ``BLEU`` metric (see the module docstring for the differences).

    Args:
        lowercase: Case-insensitive BLEU.
        force: Accepted for compatibility (the tokenized-input warning is not given).
        tokenize: Tokenizer name (``None``: ``13a``, or ``zh`` when ``trg_lang`` is ``zh``).
        smooth_method: ``exp``, ``floor``, ``add-k`` or ``none``.
        smooth_value: Value for ``floor`` and ``add-k`` (``None``: 0.1 and 1).
        max_ngram_order: Highest n-gram order.
        effective_order: Leave out the n-gram orders the hypotheses lack.
        trg_lang: Target language code (chooses the default tokenizer).
        references: Reference streams to prepare once for several systems.
    """

    SMOOTH_DEFAULTS: ClassVar[dict[str, float | None]] = dict(SMOOTH_DEFAULTS)
    TOKENIZERS: ClassVar[tuple[str, ...]] = BLEU_TOKENIZERS
    TOKENIZER_DEFAULT: ClassVar[str] = "13a"
    _SIGNATURE_TYPE = BLEUSignature

    def __init__(
        self,
        lowercase: bool = False,
        force: bool = False,
        tokenize: str | None = None,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_ngram_order: int = MAX_NGRAM_ORDER,
        effective_order: bool = False,
        trg_lang: str = "",
        references: Sequence[Sequence[str | None]] | None = None,
    ) -> None:
        _check_smooth(smooth_method)
        self._force = force
        self.trg_lang = trg_lang
        self.lowercase = lowercase
        self.smooth_value = smooth_value
        self.smooth_method = smooth_method
        self.max_ngram_order = max_ngram_order
        self.effective_order = effective_order
        self.n_bootstrap: int | None = None
        self.seed: str | None = None
        name = _tokenizer_name(tokenize, trg_lang)
        self.tokenizer = _Tokenizer(name)
        self.tokenizer_signature = name
        self._native = Bleu(
            BleuConfig(
                tokenize=cast(Any, name),
                smooth_method=cast(Any, smooth_method),
                smooth_value=smooth_value,
                lowercase=bool(lowercase),
                effective_order=bool(effective_order),
                max_ngram_order=max_ngram_order,
            )
        )
        self._ref_cache: _References | None = None
        if references is not None:
            self._ref_cache = self._cache_references(references)

    @property
    def native(self) -> Bleu:
        """The equivalent :class:`meteor_eval.metrics.bleu.Bleu` (per-segment references)."""
        return self._native

    # -- sacrebleu's statistics pipeline ---------------------------------------------------

    def _preprocess_segment(self, sent: str) -> str:
        """Lowercase (if set) and tokenize one line, as sacrebleu."""
        if self.lowercase:
            sent = sent.lower()
        return self.tokenizer(sent.rstrip())

    def _cache_references(self, references: Sequence[Sequence[str | None]]) -> _References:
        """Check reference streams and group them per segment (their clipping limits are
        prepared only when the pure-Python path needs them).

        Raises:
            TypeError: ``references`` is a bare string or a stream is one.
            ValueError: streams of different lengths, or a segment with no reference.
        """
        if isinstance(references, str) or not isinstance(references, Sequence):
            raise TypeError("BLEU: `refs` should be a sequence of sequence of strings.")
        for k, stream in enumerate(references):
            if isinstance(stream, str) or not isinstance(stream, Sequence):
                raise TypeError(
                    f"BLEU: reference stream {k} should be a sequence of strings "
                    "(references are streams: refs[k][i] is the k-th reference of segment i)"
                )
        lengths = {len(stream) for stream in references}
        if len(lengths) > 1:
            raise InputError(
                f"BLEU: reference streams have different lengths ({sorted(lengths)}); each "
                "stream holds one reference for every hypothesis (use None for a missing one)"
            )
        if references and all(None not in stream for stream in references):
            # no missing reference: the groups are the streams transposed (a C-level zip)
            self.num_refs = len(references)
            return _References(list(zip(*references, strict=True)))
        groups: list[Sequence[str]] = []
        counts = set()
        for index, group in enumerate(zip(*references, strict=True)):
            lines = [ref for ref in group if ref is not None]
            if not lines:
                raise InputError(f"BLEU: segment {index} has no reference (all are None)")
            counts.add(len(lines))
            groups.append(lines)
        self.num_refs = counts.pop() if len(counts) == 1 else -1
        return _References(groups)

    def _extract_corpus_statistics(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]] | None,
    ) -> list[list[int]]:
        """Each segment's statistics ``[sys_len, ref_len, counts..., totals...]``, from the
        compiled kernel when it is built (else, or on an item of the wrong type, from the
        pure-Python twin, which names the problem).

        Raises:
            RuntimeError: no ``references`` and none prepared at construction.
            ValueError: a reference stream's length differs from the number of hypotheses.
        """
        if references:
            cache = self._cache_references(references)
        elif self._ref_cache:
            cache = self._ref_cache
        else:
            raise RuntimeError("No references provided and the cache is empty.")
        if len(cache.groups) != len(hypotheses):
            raise InputError(
                f"BLEU: {len(hypotheses)} hypotheses but reference streams of "
                f"{len(cache.groups)} lines; references are streams: refs[k][i] is the k-th "
                "reference of hypothesis i (pass [refs] for one reference per hypothesis)"
            )
        block = self._native.segment_block(list(zip(hypotheses, cache.groups, strict=True)))
        if block is not None:
            return _StatRows(block)
        order = self.max_ngram_order
        out = []
        for hyp, ref in zip(hypotheses, cache.prepared(self._native), strict=True):
            if not isinstance(hyp, str):
                raise TypeError("BLEU: Each element of `hyps` should be a string.")
            tokens = tuple(self._preprocess_segment(hyp).split())
            out.append(list(bleu_segment_stats(tokens, ref, order).to_row()))
        return out

    def _compute_score_from_stats(self, stats: Sequence[Any]) -> BLEUScore:
        """The score of summed statistics ``[sys_len, ref_len, counts..., totals...]``."""
        order = self.max_ngram_order
        return self.compute_bleu(
            correct=list(stats[2 : 2 + order]),
            total=list(stats[2 + order :]),
            sys_len=int(stats[0]),
            ref_len=int(stats[1]),
            smooth_method=self.smooth_method,
            smooth_value=self.smooth_value,
            effective_order=self.effective_order,
            max_ngram_order=order,
        )

    def _aggregate_and_compute(self, stats: Sequence[Sequence[Any]]) -> BLEUScore:
        """The score of segment statistics, summed column by column."""
        if isinstance(stats, _StatRows):
            return self._compute_score_from_stats(stats.block.sum(axis=0).tolist())
        summed = [sum(column) for column in zip(*stats, strict=True)]
        if not summed:
            summed = [0] * (2 + 2 * self.max_ngram_order)
        return self._compute_score_from_stats(summed)

    @staticmethod
    def compute_bleu(
        correct: Sequence[Any],
        total: Sequence[Any],
        sys_len: int,
        ref_len: int,
        smooth_method: str = "none",
        smooth_value: float | None = None,
        effective_order: bool = False,
        max_ngram_order: int = MAX_NGRAM_ORDER,
    ) -> BLEUScore:
        """BLEU from its sufficient statistics, as sacrebleu's ``BLEU.compute_bleu``.

        Example:
            >>> round(BLEU.compute_bleu([9, 7, 5, 3], [10, 8, 6, 4], 11, 11).score, 8)
            83.75922397
        """
        _check_smooth(smooth_method)
        config = BleuConfig(
            tokenize="none",
            smooth_method=cast(Any, smooth_method),
            smooth_value=smooth_value,
            effective_order=bool(effective_order),
            max_ngram_order=max_ngram_order,
        )
        counts, totals = list(correct), list(total)
        stats = BleuStats(sys_len, ref_len, tuple(counts), tuple(totals))
        score, precisions, bp = _score_from_stats(stats, config)
        value = SMOOTH_DEFAULTS[smooth_method] if smooth_value is None else smooth_value
        _reported_counts(counts, totals, smooth_method, value)
        return BLEUScore(score, counts, totals, list(precisions), bp, sys_len, ref_len)

    # -- the public methods ----------------------------------------------------------------

    def corpus_score(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]] | None,
        n_bootstrap: int = 1,
    ) -> BLEUScore:
        """Corpus BLEU against reference streams (``None``: those given at construction).

        With ``n_bootstrap > 1`` the score also carries the mean and 95% half-width of a
        bootstrap (seed ``$SACREBLEU_SEED``, default 12345), as sacrebleu.

        Raises:
            TypeError: ``hypotheses`` is not a sequence of strings.
            ValueError: a reference stream's length differs from the number of hypotheses.
        """
        if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
            raise TypeError("BLEU: `hyps` should be a sequence of strings.")
        stats = self._extract_corpus_statistics(hypotheses, references)
        score = self._aggregate_and_compute(stats)
        if n_bootstrap > 1:
            from meteor_eval.significance import confidence_interval

            seed = sacrebleu_seed()
            resampling = SacrebleuResampling(self._native.config)
            rows = [tuple(row) for row in stats]
            estimate = confidence_interval(
                resampling, rows, n_samples=n_bootstrap, seed=seed, allow_few_samples=True
            )
            score._mean = estimate["bleu"].mean
            score._ci = estimate["bleu"].half_width
            self.n_bootstrap = n_bootstrap
            self.seed = str(seed).lower()
        return score

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> BLEUScore:
        """BLEU of one hypothesis against its references (a plain list of strings).

        Raises:
            TypeError: ``hypothesis`` is not a string or ``references`` is a bare string.
        """
        if not isinstance(hypothesis, str):
            raise TypeError("BLEU: The argument `hyp` should be a string.")
        if isinstance(references, str) or not isinstance(references, Sequence):
            raise TypeError("BLEU: The argument `refs` should be a sequence of strings.")
        if not self.effective_order:
            logger.warning("It is recommended to enable `effective_order` for sentence-level BLEU.")
        stats = self._extract_corpus_statistics([hypothesis], [[ref] for ref in references])
        return self._aggregate_and_compute(stats)

    def get_signature(self) -> BLEUSignature:
        """The signature of the settings (after a first score, which fixes ``nrefs``)."""
        args: dict[str, Any] = {
            "n_bootstrap": self.n_bootstrap,
            "seed": self.seed,
            "lowercase": self.lowercase,
            "effective_order": self.effective_order,
            "tokenizer_signature": self.tokenizer_signature,
            "smooth_method": self.smooth_method,
            "smooth_value": self.smooth_value,
        }
        if hasattr(self, "num_refs"):
            args["num_refs"] = self.num_refs
        return self._SIGNATURE_TYPE(args)
