"""METEOR: configuration presets, the scorer class and the ``corpus_*``/``sentence_*`` functions.

Flavours:

``meteor15`` (default)
    The official METEOR 1.5 (Denkowski and Lavie, 2014) as its ``meteor-1.5.jar`` computes it:
    the jar's normaliser and tokeniser, Java string-hash word identity, function-word weighting
    (``delta``), positional module weights, the beam-search aligner with its quirks, and the
    23-number statistics. Reproduced bit for bit (see ``tests/reference``).
``paper2005``
    Banerjee and Lavie (2005): exact, then Porter stem, then WordNet synonym matching, each stage
    choosing, among the still-unmatched words, the one-to-one mapping with the most matches and
    then the fewest crossings; ``Fmean = P*R / (alpha*P + (1-alpha)*R)`` with alpha 0.9 and
    ``penalty = gamma * (chunks / matches) ** beta`` with beta 3, gamma 0.5; every match counts 1
    and there is no function-word weighting. Unlike METEOR 1.5, an identical pair still has one
    chunk and so a small penalty (0.9977 for six words).

Several references: each reference is scored and the first one with the strictly highest score
keeps its statistics (spec 5.4). Corpus score: the segments' statistics are pooled and scored once
(spec 5.5); ``aggregate="mean"`` averages segment scores instead and says so in the signature.

References:
    S. Banerjee and A. Lavie. METEOR: An Automatic Metric for MT Evaluation with Improved
    Correlation with Human Judgments. ACL Workshop on Intrinsic and Extrinsic Evaluation
    Measures, 2005.
    M. Denkowski and A. Lavie. Meteor Universal: Language Specific Translation Evaluation for
    Any Target Language. WMT 2014.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import operator
import warnings
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast, get_args

from meteor_eval.align import exhaustive
from meteor_eval.align import search as _search
from meteor_eval.align.alignment import Alignment, count_chunks
from meteor_eval.align.greedy import greedy_align
from meteor_eval.align.search import DEFAULT_BEAM, MAX_BEAM, beam_align, beam_align_stages
from meteor_eval.errors import (
    ConfigError,
    InputError,
    SearchBudgetWarning,
    SegmentTooLongError,
    warn_empty,
)
from meteor_eval.javafmt import java_double
from meteor_eval.limits import MAX_TOKENS, check_tokens
from meteor_eval.match.base import (
    MODULE_NAMES,
    MODULE_SHORT_NAMES,
    CandidateStore,
    Match,
    Matcher,
    Segment,
)
from meteor_eval.match.exact import ExactMatcher
from meteor_eval.match.stem import StemMatcher
from meteor_eval.match.synonym import SynonymMatcher
from meteor_eval.match.word_types import WordTypes
from meteor_eval.metrics.base import Score, Signature, SignatureField, format_number
from meteor_eval.metrics.meteor_formula import Components, components
from meteor_eval.metrics.meteor_presets import (
    NORMALIZATION_LABELS,
    NORMALIZED_LANGUAGES,
    Language,
    resolve_language,
    task_settings,
)
from meteor_eval.metrics.nltk_meteor import NltkMeteor, nltk_score_from_stats, stats_from_matches
from meteor_eval.metrics.protocol import Metric, Pair, Row, Total
from meteor_eval.stats.meteor import ROW_COLUMNS, MeteorStats, stats_from_alignment
from meteor_eval.text.tokenize import java_hash, java_lower, preprocess, utf16_len

if TYPE_CHECKING:
    from meteor_eval.match.paraphrase import ParaphraseMatcher
__all__ = [
    "Flavour",
    "Meteor",
    "MeteorConfig",
    "MeteorScore",
    "Normalization",
    "corpus_meteor",
    "score_from_stats",
    "sentence_meteor",
]

Flavour = Literal["meteor15", "paper2005", "nltk"]
Normalization = Literal["none", "lower", "norm", "norm_nopunct"]
Aggregate = Literal["pooled", "mean"]
Tokenizer = Literal["default", "nltk", "whitespace"]

_FLAVOURS: tuple[str, ...] = get_args(Flavour)
_NORMALIZATIONS: tuple[str, ...] = get_args(Normalization)
_AGGREGATES: tuple[str, ...] = get_args(Aggregate)
_TOKENIZERS: tuple[str, ...] = get_args(Tokenizer)


def _check_unit(name: str, value: float, *, upper: float | None = 1.0) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{name}: expected a number, got {type(value).__name__}")
    number = float(value)
    if math.isnan(number) or number < 0.0 or (upper is not None and number > upper):
        bound = f"[0, {upper}]" if upper is not None else ">= 0"
        raise ConfigError(f"{name}: {value!r} is out of range; allowed: {bound}")
    return number


@dataclass(frozen=True, slots=True)
class MeteorConfig:
    """Every setting of a METEOR computation. Build one with :meth:`preset`.

    Attributes:
        flavour: ``"meteor15"`` or ``"paper2005"``.
        language: METEOR 1.5 language long name (``"english"``).
        task: The task whose table gave the defaults (``"rank"``, ``"adq"``, ...).
        normalization: ``"none"``, ``"lower"`` (the jar's ``-lower``), ``"norm"`` (``-norm``) or
            ``"norm_nopunct"`` (``-norm -noPunct``).
        modules: Matching stages in order.
        weights: Scoring weight per stage, by position (may be shorter than ``modules``).
        alpha: Precision/recall balance of Fmean.
        beta: Exponent of the fragmentation penalty.
        gamma: Maximum fragmentation penalty.
        delta: Weight of content words (function words get ``1 - delta``).
        beam: Beam size of the METEOR 1.5 aligner (ignored by ``paper2005``).
        aggregate: Corpus score from ``"pooled"`` statistics or the ``"mean"`` of segment scores.
        tokenizer: ``"default"`` (the flavour's own: METEOR 1.5's Java tokenisation for
            ``meteor15``/``paper2005``, NLTK's ``word_tokenize`` for ``nltk``), or
            ``"whitespace"`` (split on whitespace; for ``nltk``, what papers that called
            ``meteor_score`` on ``str.split()`` tokens did), or ``"nltk"``.
        characters: Character-based precision and recall (the jar's ``-ch``): lengths and
            matches count UTF-16 code units; chunks and matched words stay word counts.
        function_words_file: A function-word list to use instead of the language's (``-s``).
        synonym_dir: A folder with ``<language>.synsets``/``.exceptions`` in the jar's format
            to use instead of the shipped WordNet (``-d``).
        paraphrase_table: Path of a paraphrase table in the jar's gzip format (``-a``).
        stem_table: Lookup-table stemmer file (required for ``arabic-buckwalter-reduced``).
    """

    flavour: Flavour = "meteor15"
    language: str = "english"
    task: str = "rank"
    normalization: Normalization = "none"
    modules: tuple[str, ...] = ("exact", "stem", "synonym", "paraphrase")
    weights: tuple[float, ...] = (1.0, 0.6, 0.8, 0.6)
    alpha: float = 0.85
    beta: float = 0.2
    gamma: float = 0.6
    delta: float = 0.75
    beam: int = DEFAULT_BEAM
    aggregate: Aggregate = "pooled"
    tokenizer: Tokenizer = "default"
    characters: bool = False
    function_words_file: str | None = None
    synonym_dir: str | None = None
    paraphrase_table: str | None = None
    stem_table: str | None = None

    def __post_init__(self) -> None:
        if self.flavour not in _FLAVOURS:
            raise ConfigError(
                f"flavour: {self.flavour!r} is unknown; allowed: {', '.join(_FLAVOURS)}"
            )
        resolve_language(self.language)
        if self.normalization not in _NORMALIZATIONS:
            raise ConfigError(
                f"normalization: {self.normalization!r} is unknown; "
                f"allowed: {', '.join(_NORMALIZATIONS)}"
            )
        if isinstance(self.modules, str):
            raise TypeError("modules: expected a sequence of module names, got a str")
        if not self.modules:
            raise ConfigError("modules: at least one module is required")
        for module in self.modules:
            if module not in MODULE_NAMES:
                raise ConfigError(
                    f"modules: {module!r} is unknown; allowed: {', '.join(MODULE_NAMES)}"
                )
        if isinstance(self.weights, str):
            raise TypeError("weights: expected a sequence of numbers, got a str")
        for k, w in enumerate(self.weights):
            _check_unit(f"weights[{k}]", w, upper=None)
        if len(self.weights) > len(self.modules):
            raise ConfigError(
                f"weights: {len(self.weights)} weights for {len(self.modules)} modules; "
                "give at most one weight per module"
            )
        _check_unit("alpha", self.alpha)
        _check_unit("beta", self.beta, upper=None)
        _check_unit("gamma", self.gamma)
        _check_unit("delta", self.delta)
        if (
            isinstance(self.beam, bool)
            or not isinstance(self.beam, int)
            or not 1 <= self.beam <= MAX_BEAM
        ):
            raise ConfigError(
                f"beam: {self.beam!r} is invalid; allowed: an integer from 1 to {MAX_BEAM:,}"
            )
        if self.aggregate not in _AGGREGATES:
            raise ConfigError(
                f"aggregate: {self.aggregate!r} is unknown; allowed: {', '.join(_AGGREGATES)}"
            )
        if self.tokenizer not in _TOKENIZERS:
            raise ConfigError(
                f"tokenizer: {self.tokenizer!r} is unknown; allowed: {', '.join(_TOKENIZERS)}"
            )
        if self.tokenizer != "default":
            if self.flavour == "meteor15":
                raise ConfigError(
                    "tokenizer: meteor15 tokenises as the METEOR 1.5 jar does; other tokenizers "
                    "are for the paper2005 and nltk flavours"
                )
            if self.normalization not in ("none", "lower"):
                raise ConfigError(
                    f"normalization: {self.normalization!r} needs the default tokenizer; "
                    "use 'none' or 'lower' with the whitespace or nltk tokenizer"
                )
        if self.flavour == "nltk":
            if self.modules != ("exact", "stem", "synonym")[: len(self.modules)]:
                raise ConfigError(
                    f"modules: the nltk flavour runs exact, stem, synonym in that order (or a "
                    f"prefix of it), got {', '.join(self.modules)}"
                )
            if self.normalization not in ("none", "lower"):
                raise ConfigError(
                    "normalization: the nltk flavour lower-cases tokens ('lower', NLTK's "
                    f"default preprocess) or keeps them ('none'), got {self.normalization!r}"
                )
            if self.characters:
                raise ConfigError("characters: the nltk flavour has no character mode")
        if self.flavour == "paper2005" and "paraphrase" in self.modules:
            raise ConfigError("modules: the paper2005 flavour has no paraphrase module")
        if self.normalization.startswith("norm") and self.language not in NORMALIZED_LANGUAGES:
            raise ConfigError(
                f"normalization: METEOR 1.5 has no normaliser for {self.language}; pre-process the "
                "input and run without --norm (normalization='none' or 'lower')"
            )

    @classmethod
    def preset(
        cls,
        flavour: Flavour = "meteor15",
        *,
        language: str = "en",
        task: str = "rank",
        normalization: Normalization | None = None,
        modules: Sequence[str] | None = None,
        weights: Sequence[float] | None = None,
        alpha: float | None = None,
        beta: float | None = None,
        gamma: float | None = None,
        delta: float | None = None,
        beam: int = DEFAULT_BEAM,
        aggregate: Aggregate | None = None,
        tokenizer: Tokenizer = "default",
        characters: bool = False,
        function_words_file: str | None = None,
        synonym_dir: str | None = None,
        paraphrase_table: str | None = None,
        stem_table: str | None = None,
    ) -> MeteorConfig:
        """A flavour's defaults with any settings replaced.

        For ``meteor15`` the language and task give parameters, modules and weights (spec 2.3).
        ``modules`` then resizes the weights by position, as the jar's ``-m`` does: the first k
        weights stay, missing ones are 0.0 (so ``-m 'exact synonym'`` gives synonym the stem
        weight); explicit ``weights`` are applied before that resize. Individual parameters replace
        only themselves (unlike the jar's ``-p``, which also switches to the ``custom`` task table).

        ``paper2005``: English, lower-casing, exact/stem/synonym with weight 1 each, alpha 0.9,
        beta 3, gamma 0.5, delta 1 (no function-word weighting).

        ``nltk``: NLTK's ``meteor_score``: English, NLTK's ``word_tokenize`` then lower-casing,
        exact/stem/synonym with weight 1 each, alpha 0.9, beta 3, gamma 0.5; the corpus score is
        the mean of segment scores (what ``evaluate`` reports) unless ``aggregate`` says otherwise.

        Raises:
            ConfigError: unknown names or out-of-range values.
            TypeError: a bare string where a sequence is expected.
        """
        if isinstance(modules, str) or isinstance(weights, str):
            raise TypeError("modules and weights take sequences, not a str")
        default_aggregate: Aggregate = "pooled"
        if flavour in ("paper2005", "nltk"):
            lang = resolve_language(language)
            if lang.long_name != "english":
                raise ConfigError(f"language: the {flavour} flavour is defined for English only")
            base_modules: tuple[str, ...] = ("exact", "stem", "synonym")
            base_task: str = flavour
            if flavour == "nltk":
                default_aggregate = "mean"
            base_params = (0.9, 3.0, 0.5, 1.0)
            base_weights: tuple[float, ...] = (1.0, 1.0, 1.0)
            default_norm: Normalization = "lower"
        elif flavour == "meteor15":
            lang = resolve_language(language)
            settings = task_settings(lang, task)
            base_modules = settings.modules
            base_task = settings.task
            base_params = (settings.alpha, settings.beta, settings.gamma, settings.delta)
            base_weights = settings.weights
            default_norm = "none"
        else:
            raise ConfigError(f"flavour: {flavour!r} is unknown; allowed: {', '.join(_FLAVOURS)}")
        final_weights = tuple(float(w) for w in weights) if weights is not None else base_weights
        final_modules = base_modules
        if modules is not None:
            final_modules = tuple(m.strip().lower() for m in modules)
            k = len(final_modules)
            final_weights = (
                (final_weights + (0.0,) * k)[:k] if flavour == "meteor15" else (1.0,) * k
            )
            if weights is not None and flavour != "meteor15":
                final_weights = tuple(float(w) for w in weights)
        return cls(
            flavour=flavour,
            language=lang.long_name,
            task=base_task,
            normalization=normalization if normalization is not None else default_norm,
            modules=final_modules,
            weights=final_weights,
            alpha=base_params[0] if alpha is None else alpha,
            beta=base_params[1] if beta is None else beta,
            gamma=base_params[2] if gamma is None else gamma,
            delta=base_params[3] if delta is None else delta,
            beam=beam,
            aggregate=default_aggregate if aggregate is None else aggregate,
            tokenizer=tokenizer,
            characters=characters,
            function_words_file=function_words_file,
            synonym_dir=synonym_dir,
            paraphrase_table=paraphrase_table,
            stem_table=stem_table,
        )

    def replace(self, **changes: object) -> MeteorConfig:
        """A copy with some fields changed (validated again)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    @property
    def lang(self) -> Language:
        """The language record."""
        return resolve_language(self.language)

    @property
    def zero_penalty_if_perfect(self) -> bool:
        """METEOR 1.5's rule: no fragmentation when everything is matched in one chunk."""
        return self.flavour == "meteor15"

    @property
    def eval_id(self) -> str:
        """The jar's Eval ID for these settings, e.g. ``meteor-1.5-wo-en-norm-...``."""
        params = "_".join(java_double(x) for x in (self.alpha, self.beta, self.gamma, self.delta))
        mods = "_".join(MODULE_SHORT_NAMES[m] for m in self.modules)
        weights = "_".join(java_double(w) for w in self.weights)
        level = NORMALIZATION_LABELS[self.normalization]
        mode = "ch" if self.characters else "wo"
        return f"meteor-1.5-{mode}-{self.lang.short_name}-{level}-{params}-{mods}-{weights}"


@dataclass(frozen=True, slots=True)
class MeteorScore(Score):
    """A METEOR score with everything that explains it.

    Where the jar's formula gives NaN (an empty side: 0/0), ``precision``, ``recall``, ``fmean``,
    ``fragmentation`` and ``penalty`` are reported as 0.0; the score is 0.0 as in the jar.

    Attributes:
        precision: Weighted precision.
        recall: Weighted recall.
        fmean: Parameterised harmonic mean of precision and recall.
        fragmentation: ``chunks / mean matched words`` (0 for a perfect METEOR 1.5 match).
        penalty: ``gamma * fragmentation ** beta``.
        chunks: Number of chunks.
        matches: Matched words (hypothesis side, reference side).
        stats: The statistics record the score was computed from.
        alignment: The chosen alignment (sentence scores, on request).
        reference_index: Index of the reference that was kept (sentence scores).
        segments: Per-segment scores (corpus scores, on request).
    """

    precision: float = 0.0
    recall: float = 0.0
    fmean: float = 0.0
    fragmentation: float = 0.0
    penalty: float = 0.0
    chunks: int = 0
    matches: tuple[int, int] = (0, 0)
    stats: MeteorStats = field(default_factory=MeteorStats.zero)
    alignment: Alignment | None = None
    reference_index: int | None = None
    segments: tuple[MeteorScore, ...] = ()


class _FunctionFlags(dict[str, bool]):
    """Token -> whether it is a function word (compared lower-cased, as the jar does),
    computed on first lookup so that known tokens cost one C-level lookup each."""

    __slots__ = ("_words",)

    def __init__(self, words: frozenset[str]) -> None:
        super().__init__()
        self._words = words

    def __missing__(self, token: str) -> bool:
        flag = java_lower(token) in self._words
        if len(self) >= 200_000:
            self.clear()
        self[token] = flag
        return flag


#: Pairs scored together by :meth:`Meteor.corpus_score` (their new word types are interned in
#: one batch).
_BATCH = 256

_STATS_KERNEL = _search.compiled_kernels("word_stats")
# The whole METEOR 1.5 pair (candidates, beam search, statistics) in one compiled call.
_PAIR_KERNEL: Any = _search.compiled_kernels("meteor15_pair", "paraphrase_root")
# Module kind codes of ``meteor15_pair`` by matcher class (see _beam.c).
_PAIR_KINDS: dict[type, int] = {ExactMatcher: 0, StemMatcher: 1, SynonymMatcher: 2}


def _word_stats(
    matches: Sequence[Match],
    hyp_function: Sequence[bool],
    ref_function: Sequence[bool],
    n_stages: int,
) -> tuple[MeteorStats, int]:
    """:func:`_word_stats_python` through the compiled kernel when it is built."""
    if _STATS_KERNEL is None:
        return _word_stats_python(matches, hyp_function, ref_function, n_stages)
    row = _STATS_KERNEL.word_stats(matches, hyp_function, ref_function, n_stages)
    stages = tuple(row[b : b + 4] for b in range(7, 7 + 4 * n_stages, 4))
    stats = MeteorStats(row[0], row[1], row[2], row[3], stages, row[4], row[5], row[6])
    return stats, row[4]


def _word_stats_python(
    matches: Sequence[Match],
    hyp_function: Sequence[bool],
    ref_function: Sequence[bool],
    n_stages: int,
) -> tuple[MeteorStats, int]:
    """:func:`stats_from_alignment` and :func:`count_chunks` in one pass, for word units.

    ``matches`` must be an aligner's output: sorted by reference position and non-overlapping,
    so a match continues the open chunk exactly when it starts in the reference where the
    previous one ended and in the hypothesis where the previous one ended.
    """
    counts = [0] * (4 * n_stages)
    hyp_matched = 0
    ref_matched = 0
    chunks = 0
    ref_end = -1
    hyp_end = -1
    for ref_start, ref_len, hyp_start, hyp_len, stage in matches:
        if ref_start != ref_end or hyp_start != hyp_end:
            chunks += 1
        ref_end = ref_start + ref_len
        hyp_end = hyp_start + hyp_len
        hyp_matched += hyp_len
        ref_matched += ref_len
        base = 4 * stage
        if hyp_len == 1:
            counts[base + 2 if hyp_function[hyp_start] else base] += 1
        else:
            for i in range(hyp_start, hyp_end):
                counts[base + 2 if hyp_function[i] else base] += 1
        if ref_len == 1:
            counts[base + 3 if ref_function[ref_start] else base + 1] += 1
        else:
            for j in range(ref_start, ref_end):
                counts[base + 3 if ref_function[j] else base + 1] += 1
    stages = tuple(
        (counts[b], counts[b + 1], counts[b + 2], counts[b + 3]) for b in range(0, 4 * n_stages, 4)
    )
    stats = MeteorStats(
        len(hyp_function),
        len(ref_function),
        sum(hyp_function),
        sum(ref_function),
        stages,
        chunks,
        hyp_matched,
        ref_matched,
    )
    return stats, chunks


def _finite(value: float) -> float:
    return 0.0 if math.isnan(value) or math.isinf(value) else value


def score_from_stats(stats: MeteorStats, config: MeteorConfig) -> Components:
    """The formula's raw components for a statistics record under a configuration."""
    if config.flavour == "nltk":
        return _nltk_components(stats, config)
    return components(
        stats,
        alpha=config.alpha,
        beta=config.beta,
        gamma=config.gamma,
        delta=config.delta,
        weights=config.weights,
        zero_penalty_if_perfect=config.zero_penalty_if_perfect,
        jvm_pow=config.flavour == "meteor15",
    )


def _nltk_components(stats: MeteorStats, config: MeteorConfig) -> Components:
    """NLTK's formula, with its own operation order (the score is NLTK's, bit for bit)."""
    score = nltk_score_from_stats(stats, alpha=config.alpha, beta=config.beta, gamma=config.gamma)
    matched = stats.hyp_matched
    if matched == 0 or stats.hyp_length == 0 or stats.ref_length == 0:
        return Components(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, score)
    precision = float(matched) / stats.hyp_length
    recall = float(matched) / stats.ref_length
    f1 = 2 * precision * recall / (precision + recall)
    fmean = (precision * recall) / (config.alpha * precision + (1 - config.alpha) * recall)
    fragmentation = float(stats.chunks) / matched
    penalty = config.gamma * fragmentation**config.beta
    return Components(precision, recall, f1, fmean, fragmentation, penalty, score)


def _keep(token: str) -> str:
    """NLTK ``preprocess`` that keeps tokens as they are."""
    return token


class Meteor(Metric["MeteorScore"]):
    """A METEOR scorer: holds the configuration, the loaded resources and caches.

    A :class:`~meteor_eval.metrics.protocol.Metric`: a segment's statistics row is the jar's
    23 numbers (:meth:`MeteorStats.to_row`); rows merge by sums, except that with METEOR 1.5's
    rule a perfect segment adds no chunks (spec 5.5).

    One instance can score any number of systems; preprocessed references and per-word results
    (stems, synonym sets, function-word flags) are cached. Resources load on first use.

    Args:
        config: The settings; defaults to ``MeteorConfig.preset("meteor15")``.

    Example:
        >>> scorer = Meteor(MeteorConfig.preset("meteor15", modules=("exact", "stem", "synonym"),
        ...                                     normalization="norm"))
        >>> scorer.sentence_score("The cat sat on the mat.", ["The cat sat on the mat."]).score
        1.0
    """

    def __init__(self, config: MeteorConfig | None = None) -> None:
        self.config = config if config is not None else MeteorConfig.preset("meteor15")
        if len(self.config.weights) < len(self.config.modules):
            warnings.warn(
                "More modules than weights specified - "
                "modules with no weights will not be counted.",
                stacklevel=2,
            )
        self._jar = self.config.flavour == "meteor15"
        self._nltk: NltkMeteor | None = None
        if self.config.flavour == "nltk":
            self._nltk = NltkMeteor(
                preprocess=str.lower if self.config.normalization == "lower" else _keep,
                alpha=self.config.alpha,
                beta=self.config.beta,
                gamma=self.config.gamma,
            )
        self._intern: dict[str, int] = {}
        self._intern_ids = itertools.count()
        self._identity: Callable[[str], int] = java_hash if self._jar else self._intern_id
        # The paraphrase matcher built for this configuration (see _paraphrase_matcher).
        self._paraphrase: ParaphraseMatcher | None = None
        self._matchers: list[Matcher] = (
            [] if self._nltk is not None else [self._make_matcher(m) for m in self.config.modules]
        )
        self._aligner_weights = tuple(1.0 if m == "exact" else 0.5 for m in self.config.modules)
        self._function_words: frozenset[str] = self._load_function_words()
        self._function_cache = _FunctionFlags(self._function_words)
        self._ref_cache: dict[str, Segment] = {}
        self._nltk_ref_cache: dict[str, tuple[str, ...]] = {}
        self._signature_cache: dict[str, Signature] = {}
        self._pair_kinds = self._compiled_pair_kinds()
        self._word_types: WordTypes | None = None
        self._trie: tuple[object, ...] | None = None
        if self._pair_kinds is not None:
            self._new_word_types()

    def __reduce__(self) -> tuple[type[Meteor], tuple[MeteorConfig]]:
        """Pickle a scorer as its configuration; the copy builds its own resources and caches.

        The live state holds locks, memory-mapped tables and per-process caches that cannot
        travel (the paraphrase index, the Porter stemmer's per-thread state, the word-type
        tables); the resources themselves are loaded once per process and shared, so the
        rebuilt scorer gives the same scores.
        """
        return (type(self), (self.config,))

    # -- the compiled pair path --------------------------------------------------------------

    def _compiled_pair_kinds(self) -> bytes | None:
        """The module kinds of ``_beam.meteor15_pair`` for this configuration, or ``None`` when
        the compiled pair path does not apply (another flavour, character mode, custom or
        unknown matchers, or no extension)."""
        if _PAIR_KERNEL is None or not self._jar or self.config.characters:
            return None
        kinds = []
        for matcher in self._matchers:
            kind = 3 if matcher is self._paraphrase else _PAIR_KINDS.get(type(matcher))
            if kind is None:
                return None
            kinds.append(kind)
        return bytes(kinds)

    def _new_word_types(self) -> None:
        """Start an empty word-type table (and forget the references interned with the old)."""
        stem = paraphrase = synonyms = None
        for matcher in self._matchers:
            if isinstance(matcher, StemMatcher):
                stem = matcher.stem_id
            elif isinstance(matcher, SynonymMatcher):
                synonyms = matcher.packed_sets
            elif matcher is self._paraphrase:
                paraphrase = self._paraphrase.token_id
                self._trie = self._paraphrase.compiled_trie()
        self._word_types = WordTypes(
            identity=java_hash,
            function=self._function_cache.__getitem__,
            stem=stem,
            paraphrase=paraphrase,
            synonyms=synonyms,
        )
        self._ref_cache.clear()

    def _compiled_pair(
        self, hyp: Segment, ref: Segment, want_matches: bool
    ) -> tuple[MeteorStats, list[Match], int] | None:
        """:meth:`pair_stats` through ``_beam.meteor15_pair``, or ``None`` when the segments
        were not interned with the current word-type table (or an aligner is substituted)."""
        types = self._word_types
        if (
            types is None
            or hyp.interned is None
            or ref.interned is None
            or hyp.interned[0] is not types
            or ref.interned[0] is not types
            or beam_align is not _search.beam_align
        ):
            return None
        kinds = self._pair_kinds
        assert kinds is not None
        with types.lock:  # no other thread grows the tables while the kernel reads them
            row, matches = _PAIR_KERNEL.meteor15_pair(
                kinds,
                hyp.interned[1],
                ref.interned[1],
                types.hashes,
                types.stems,
                types.paraphrase_ids,
                types.functions,
                types.synonym_starts,
                types.synonym_pool,
                self._trie,
                self._aligner_weights,
                self.config.beam,
                Match if want_matches else None,
            )
        stages = tuple(row[b : b + 4] for b in range(7, len(row), 4))
        stats = MeteorStats(row[0], row[1], row[2], row[3], stages, row[4], row[5], row[6])
        return stats, matches if matches is not None else [], row[4]

    # -- resources ---------------------------------------------------------------------------

    def _intern_id(self, token: str) -> int:
        """A dense id per token for the non-jar flavours. ``setdefault`` and ``next`` are each
        one atomic step, so threads interning new words at once never share an id."""
        ids = self._intern
        found = ids.get(token)
        if found is None:
            found = ids.setdefault(token, next(self._intern_ids))
        return found

    def _make_matcher(self, module: str) -> Matcher:
        if module == "exact":
            return ExactMatcher()
        if module == "stem":
            from meteor_eval.resources import stemmers

            if self.config.flavour == "paper2005":
                stem = stemmers.porter_stemmer()
            elif self.config.stem_table is not None:
                stem = stemmers.arabic_table_stemmer(self.config.stem_table)
            elif self.config.language == "arabic-buckwalter-reduced":
                raise ConfigError(
                    "stem_table: the Arabic (ar-bw-red) stemmer is a lookup table; give its path "
                    "(the jar's stem/arabic-buckwalter-reduced.gz)"
                )
            else:
                stem = stemmers.get_stemmer(self.config.language)
            return StemMatcher(stem, self._identity)
        if module == "synonym":
            from meteor_eval.resources.synonyms import meteor_wordnet, meteor_wordnet_from_dir

            if self.config.synonym_dir is not None:
                wordnet = meteor_wordnet_from_dir(self.config.synonym_dir, self.config.language)
                return SynonymMatcher(wordnet.synonym_set)
            if self.config.language != "english":
                raise ConfigError(f"modules: no synonym data for {self.config.language}")
            return SynonymMatcher(meteor_wordnet().synonym_set)
        if module == "paraphrase":
            return self._paraphrase_matcher()
        raise ConfigError(f"modules: {module!r} is not available")

    def _paraphrase_matcher(self) -> Matcher:
        try:
            from meteor_eval.match.paraphrase import (  # type: ignore[import-not-found, unused-ignore]
                ParaphraseMatcher,
            )
            from meteor_eval.resources.paraphrases import (  # type: ignore[import-not-found, unused-ignore]
                paraphrase_table,
            )
        except ModuleNotFoundError:
            raise ConfigError(
                "modules: the paraphrase module is not available in this version of meteor-eval; "
                "choose the other modules explicitly: --modules exact,stem,synonym "
                "(API: MeteorConfig.preset(..., modules=('exact', 'stem', 'synonym')))"
            ) from None
        table = paraphrase_table(self.config.lang.short_name, self.config.paraphrase_table)
        self._paraphrase_spec = table.spec
        self._paraphrase = ParaphraseMatcher(table)
        return self._paraphrase

    def _load_function_words(self) -> frozenset[str]:
        if self.config.flavour != "meteor15":
            return frozenset()
        from meteor_eval.resources.function_words import function_words, load_function_words_file

        if self.config.function_words_file is not None:
            return frozenset(load_function_words_file(Path(self.config.function_words_file)))
        # The jar loads english.words whatever the language (only -s changes it), so every
        # language scores with the English list; verified with `-l fr -ssOut`.
        return frozenset(function_words("english"))

    def _function_flags(self, tokens: tuple[str, ...]) -> tuple[bool, ...]:
        """Function-word flag of every token (cached per word type)."""
        return tuple(map(self._function_cache.__getitem__, tokens))

    # -- pipeline ----------------------------------------------------------------------------

    def tokenize(self, text: str) -> tuple[str, ...]:
        """Preprocess one text as configured: normalise, lower-case, split (spec 1.6).

        The ``nltk`` flavour returns NLTK's tokens unchanged (its ``preprocess`` lower-cases
        each token while matching, as NLTK does).
        """
        name = self.config.tokenizer
        if name == "default" and self._nltk is not None:
            name = "nltk"
        if name != "default":
            if name == "nltk":
                from meteor_eval.text.nltk_tokenize import nltk_word_tokenize

                tokens = nltk_word_tokenize(text)
            else:
                tokens = text.split()
            if self._nltk is None and self.config.normalization == "lower":
                return tuple(token.lower() for token in tokens)
            return tuple(tokens)
        return tuple(
            preprocess(text, language=self.config.language, level=self.config.normalization)
        )

    def segment(self, text: str, side: str = "hypothesis") -> Segment:
        """Preprocessed tokens of a text with their word identities.

        Raises:
            SegmentTooLongError: more tokens than :data:`meteor_eval.limits.MAX_TOKENS` allows
                for the flavour (``side`` names the text in the message).
        """
        tokens = self.tokenize(text)
        check_tokens(self.config.flavour, side, len(tokens))
        return self._segment_of(tokens)

    def _segment_of(self, tokens: tuple[str, ...]) -> Segment:
        """The segment of preprocessed tokens (interned when the compiled pair path is on)."""
        types = self._word_types
        if types is None:
            return Segment(tokens, tuple(map(self._identity, tokens)))
        if types.full:  # bound memory: segments interned with the old table use the general path
            self._new_word_types()
            types = self._word_types
            assert types is not None
        try:
            interned = types.intern(tokens)
        except OverflowError:
            # A synonym identifier beyond 64 bits (a custom table): the general path handles it.
            self._word_types = None
            self._ref_cache.clear()
            return Segment(tokens, tuple(map(self._identity, tokens)))
        return Segment(tokens, types.identities(interned), (types, interned))

    def _reference(self, text: str) -> Segment:
        cache = self._ref_cache
        seg = cache.get(text)
        if seg is None:
            if len(cache) >= 200_000:
                cache.clear()
            seg = self.segment(text, "reference")
            cache[text] = seg
        return seg

    def align(self, hyp: Segment, ref: Segment) -> list[Match]:
        """The chosen matches between two preprocessed segments, in reference order."""
        if self._jar:
            return self._align_meteor15(hyp, ref)
        return self._align_paper2005(hyp, ref)

    def _align_meteor15(self, hyp: Segment, ref: Segment) -> list[Match]:
        identical = hyp.ids == ref.ids
        stage_lists = []
        for stage, matcher in enumerate(self._matchers):
            stage_lists.append(matcher.candidates(hyp, ref, stage))
            if identical:  # spec 3.5: only the first module runs for identical sentences
                break
        if beam_align is _search.beam_align:
            # The library's aligner: the compiled one builds the candidate store itself.
            return beam_align_stages(
                stage_lists, len(hyp), len(ref), self._aligner_weights, beam=self.config.beam
            )
        # An aligner substituted for ``beam_align`` (tests compare implementations this way).
        store = CandidateStore(len(hyp), len(ref))
        for candidates in stage_lists:
            store.extend(candidates)
        return beam_align(store, self._aligner_weights, beam=self.config.beam)

    def _align_paper2005(self, hyp: Segment, ref: Segment) -> list[Match]:
        stages = [
            [(m.hyp_start, m.ref_start) for m in matcher.candidates(hyp, ref, stage)]
            for stage, matcher in enumerate(self._matchers)
        ]
        chosen, spent = exhaustive.align_stages_bounded(stages, budget=exhaustive.SEARCH_BUDGET)
        if spent:
            _warn_budget(hyp, ref, spent)
        matches = [Match(j, 1, i, 1, stage) for stage, pairs in enumerate(chosen) for i, j in pairs]
        matches.sort()
        return matches

    def pair_stats(
        self, hyp: Segment, ref: Segment, *, want_matches: bool = True
    ) -> tuple[MeteorStats, list[Match], int]:
        """Statistics, matches and chunks of one hypothesis against one reference.

        With ``want_matches=False`` the returned match list may be empty (only the statistics
        and chunks are needed).
        """
        if self._pair_kinds is not None:
            done = self._compiled_pair(hyp, ref, want_matches)
            if done is not None:
                return done
        matches = self.align(hyp, ref)
        if not self.config.characters:
            stats, chunks = _word_stats(
                matches,
                self._function_flags(hyp.tokens),
                self._function_flags(ref.tokens),
                len(self.config.modules),
            )
            return stats, matches, chunks
        # Character mode: lengths and matches count UTF-16 code units.
        chunks = count_chunks(matches, len(ref))
        stats = stats_from_alignment(
            matches,
            chunks,
            self._function_flags(hyp.tokens),
            self._function_flags(ref.tokens),
            len(self.config.modules),
            hyp_sizes=[utf16_len(t) for t in hyp.tokens],
            ref_sizes=[utf16_len(t) for t in ref.tokens],
        )
        return stats, matches, chunks

    def segment_stats(
        self, hypothesis: str, references: Sequence[str]
    ) -> tuple[MeteorStats, int, Alignment]:
        """Statistics of the best reference (spec 5.4), its index and its alignment.

        Raises:
            TypeError: ``references`` is a bare string.
            InputError: there is no reference.
        """
        _check_segment(hypothesis, references)
        if self._nltk is not None:
            return self._nltk_segment_stats(self._nltk, hypothesis, references)
        hyp = self.segment(hypothesis)
        stats, k, ref, matches, chunks = self._best_reference(hyp, references)
        alignment = Alignment(hyp.tokens, ref.tokens, tuple(matches), self.config.modules, chunks)
        return stats, k, alignment

    def best_stats(self, hypothesis: str, references: Sequence[str]) -> MeteorStats:
        """Statistics of the best reference: :meth:`segment_stats`'s first item, built without
        the alignment (what pooled corpus scoring needs).

        Raises:
            TypeError: ``references`` is a bare string.
            InputError: there is no reference.
        """
        _check_segment(hypothesis, references)
        if self._nltk is not None:
            return self._nltk_segment_stats(self._nltk, hypothesis, references)[0]
        return self._best_reference(self.segment(hypothesis), references, want_matches=False)[0]

    def best_stats_many(self, pairs: Sequence[tuple[str, Sequence[str]]]) -> list[MeteorStats]:
        """:meth:`best_stats` of each ``(hypothesis, references)`` pair, in order.

        The same statistics and errors (the first faulty pair raises, before any is scored).
        With the compiled pair path, the new word types of all the pairs are interned in one
        batch, which is cheaper than one batch per segment when many words are new.
        """
        hyps = self._interned_batch(pairs) if len(pairs) >= 2 else None
        if hyps is None:
            return _each_placed(pairs, self.best_stats)
        best = self._best_reference
        return [
            best(hyp, refs, want_matches=False)[0]
            for hyp, (_, refs) in zip(hyps, pairs, strict=True)
        ]

    def pooled_stats_many(self, pairs: Sequence[tuple[str, Sequence[str]]]) -> MeteorStats:
        """``pool_stats(best_stats_many(pairs))``: the pairs' statistics pooled in order.

        When every pair has one reference and the compiled pair path applies, the kernel's rows
        are summed directly (no statistics record or Python call per stage for each pair).
        """
        config = self.config
        hyps = None
        if (
            _PAIR_KERNEL is not None
            and beam_align is _search.beam_align
            and all(len(refs) == 1 for _, refs in pairs)
        ):
            hyps = self._interned_batch(pairs)
        if hyps is None:
            return pool_stats(self.best_stats_many(pairs), config)
        types = self._word_types
        if types is None:  # dropped meanwhile by another thread (see segment())
            return pool_stats(self.best_stats_many(pairs), config)
        assert self._pair_kinds is not None
        kernel = _PAIR_KERNEL.meteor15_pair
        lock = types.lock
        fixed = (
            types.hashes,
            types.stems,
            types.paraphrase_ids,
            types.functions,
            types.synonym_starts,
            types.synonym_pool,
            self._trie,
            self._aligner_weights,
            config.beam,
            None,
        )
        kinds = self._pair_kinds
        reference = self._reference
        skip = config.zero_penalty_if_perfect
        total: list[int] = [0] * (7 + 4 * len(config.modules))
        for hyp, (_, refs) in zip(hyps, pairs, strict=True):
            ref = reference(refs[0])
            if (
                hyp.interned is None
                or ref.interned is None
                or hyp.interned[0] is not types
                or ref.interned[0] is not types
            ):  # interned with another table (it filled up): the general path
                stats = self.pair_stats(hyp, ref, want_matches=False)[0]
                row = (
                    stats.hyp_length,
                    stats.ref_length,
                    stats.hyp_function,
                    stats.ref_function,
                    stats.chunks,
                    stats.hyp_matched,
                    stats.ref_matched,
                    *itertools.chain.from_iterable(stats.stages),
                )
            else:
                with lock:  # the tables do not grow while the kernel reads them
                    row = kernel(kinds, hyp.interned[1], ref.interned[1], *fixed)[0]
            if skip and row[4] == 1 and row[5] == row[0] and row[6] == row[1]:
                # A perfect segment adds no chunks (word mode: matched words = stage sums).
                row = (*row[:4], 0, *row[5:])
            total = list(map(operator.add, total, row))
        stages = cast(
            "tuple[tuple[int, int, int, int], ...]",
            tuple(tuple(total[b : b + 4]) for b in range(7, len(total), 4)),
        )
        return MeteorStats(
            total[0], total[1], total[2], total[3], stages, total[4], total[5], total[6]
        )

    def _interned_batch(self, pairs: Sequence[tuple[str, Sequence[str]]]) -> list[Segment] | None:
        """The hypotheses' segments, after checking every pair (errors as in :meth:`best_stats`)
        and interning the new word types of all hypotheses and references in one batch; the
        references are put in the reference cache. ``None`` when the compiled pair path is
        off (or turns off here: a synonym identifier beyond 64 bits)."""
        types = self._word_types
        if types is None:
            return None
        for hypothesis, references in pairs:
            _check_segment(hypothesis, references)
            for k, text in enumerate(references):
                if not isinstance(text, str):
                    raise TypeError(f"references[{k}]: expected a str, got {type(text).__name__}")
        tokenize = self.tokenize
        hyp_tokens = [tokenize(h) for h, _ in pairs]
        cache = self._ref_cache
        new_refs = {t: tokenize(t) for _, refs in pairs for t in refs if t not in cache}
        self._check_batch_lengths(pairs, hyp_tokens, new_refs)
        if types.full:
            self._new_word_types()
            types = self._word_types
            assert types is not None
        words = dict.fromkeys(
            itertools.chain.from_iterable(itertools.chain(hyp_tokens, new_refs.values()))
        )
        try:
            types.add([w for w in words if w not in types])
        except OverflowError:  # see segment(): the general path from now on
            self._word_types = None
            self._ref_cache.clear()
            return None
        if len(cache) + len(new_refs) > 200_000:
            cache.clear()
        # Every word is known now: the segments are built without segment()'s checks.
        known = types.__getitem__
        identities = types.identities

        def segment_of(tokens: tuple[str, ...]) -> Segment:
            interned = array("i", map(known, tokens))
            return Segment(tokens, identities(interned), (types, interned))

        for text, tokens in new_refs.items():
            cache[text] = segment_of(tokens)
        return [segment_of(tokens) for tokens in hyp_tokens]

    def _check_batch_lengths(
        self,
        pairs: Sequence[tuple[str, Sequence[str]]],
        hyp_tokens: list[tuple[str, ...]],
        new_refs: dict[str, tuple[str, ...]],
    ) -> None:
        """:func:`check_tokens` for a batch, the error placed at its pair."""
        limit = MAX_TOKENS[self.config.flavour]
        if all(len(t) <= limit for t in hyp_tokens) and all(
            len(t) <= limit for t in new_refs.values()
        ):
            return
        for index, ((_, refs), tokens) in enumerate(zip(pairs, hyp_tokens, strict=True)):
            try:
                check_tokens(self.config.flavour, "hypothesis", len(tokens))
                for text in refs:
                    if text in new_refs:
                        check_tokens(self.config.flavour, "reference", len(new_refs[text]))
            except SegmentTooLongError as exc:
                raise exc.at_index(index) from None

    def _best_reference(
        self, hyp: Segment, references: Sequence[str], *, want_matches: bool = True
    ) -> tuple[MeteorStats, int, Segment, list[Match], int]:
        """Statistics, index, segment, matches and chunks of the best reference (spec 5.4).

        ``references`` holds at least one entry (checked by the callers). Without
        ``want_matches`` the match list may be empty.
        """
        best_score = -1.0
        best: tuple[MeteorStats, int, Segment, list[Match], int] | None = None
        several = len(references) > 1
        for k, text in enumerate(references):
            if not isinstance(text, str):
                raise TypeError(f"references[{k}]: expected a str, got {type(text).__name__}")
            ref = self._reference(text)
            stats, matches, chunks = self.pair_stats(hyp, ref, want_matches=want_matches)
            # With one reference there is nothing to compare: skip the formula.
            score = score_from_stats(stats, self.config).score if several else 0.0
            if score > best_score:
                best_score = score
                best = (stats, k, ref, matches, chunks)
        assert best is not None  # at least one reference, and every score is >= 0 > -1
        return best

    def _corpus_stats(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
    ) -> tuple[list[MeteorStats], set[str]]:
        """Each segment's statistics and the set of reference counts, without building a
        :class:`MeteorScore` per segment (the corpus score needs only the statistics).

        Checks and errors are those of :meth:`segment_stats`.
        """
        pairs = list(zip(hypotheses, references, strict=True))
        records: list[MeteorStats] = []
        for start in range(0, len(pairs), _BATCH):
            records.extend(self.best_stats_many(pairs[start : start + _BATCH]))
        return records, {str(len(refs)) for refs in references}

    def _nltk_segment_stats(
        self, scorer: NltkMeteor, hypothesis: str, references: Sequence[str]
    ) -> tuple[MeteorStats, int, Alignment]:
        """NLTK's staged greedy matching; the first reference with the highest score is kept."""
        preprocess = scorer.preprocess
        n_modules = len(self.config.modules)
        stem = scorer.stem if n_modules >= 2 else None
        synonyms = scorer.synonyms if n_modules >= 3 else None
        hyp_tokens = self.tokenize(hypothesis)
        check_tokens("nltk", "hypothesis", len(hyp_tokens))
        hyp = [preprocess(t) for t in hyp_tokens]
        best: tuple[float, MeteorStats, int, list[str], list[tuple[int, int, int]]] | None = None
        for k, text in enumerate(references):
            if not isinstance(text, str):
                raise TypeError(f"references[{k}]: expected a str, got {type(text).__name__}")
            tokens = self._nltk_ref_cache.get(text)
            if tokens is None:
                if len(self._nltk_ref_cache) >= 200_000:
                    self._nltk_ref_cache.clear()
                tokens = self.tokenize(text)
                check_tokens("nltk", "reference", len(tokens))
                self._nltk_ref_cache[text] = tokens
            ref = [preprocess(t) for t in tokens]
            pairs = greedy_align(hyp, ref, stem=stem, synonyms=synonyms)
            stats = stats_from_matches(pairs, len(hyp), len(ref))
            value = scorer.score(stats)
            if best is None or value > best[0]:
                best = (value, stats, k, ref, pairs)
        assert best is not None
        _, stats, k, ref, pairs = best
        matches = tuple(sorted(Match(j, 1, i, 1, stage) for i, j, stage in pairs))
        alignment = Alignment(tuple(hyp), tuple(ref), matches, self.config.modules, stats.chunks)
        return stats, k, alignment

    # -- scores ------------------------------------------------------------------------------

    def signature(self, n_refs: int | str = 1) -> Signature:
        """The signature of this configuration for a given number of references."""
        key = str(n_refs)
        cached = self._signature_cache.get(key)
        if cached is None:
            cached = _build_signature(self.config, key, self._resource_ids())
            self._signature_cache[key] = cached
        return cached

    def _resource_ids(self) -> str:
        ids: list[str] = []
        if self._nltk is not None:
            from meteor_eval.resources.nltk_porter import nltk_porter_spec
            from meteor_eval.resources.synonyms import wordnet_spec

            if len(self.config.modules) >= 2:
                ids.append(nltk_porter_spec().short_id)
            if len(self.config.modules) >= 3:
                ids.append(wordnet_spec().short_id)
            return ",".join(ids) if ids else "none"
        if self._function_words:
            from meteor_eval.resources.function_words import function_words_spec

            path = self.config.function_words_file
            ids.append(
                function_words_spec("english", None if path is None else Path(path)).short_id
            )
        for module in self.config.modules:
            if module == "stem":
                from meteor_eval.resources import stemmers

                if not self._jar:
                    spec = stemmers.porter_spec()
                elif self.config.stem_table is not None:
                    spec = stemmers.arabic_table_spec(self.config.stem_table)
                else:
                    spec = stemmers.stemmer_spec(self.config.language)
                ids.append(spec.short_id)
            elif module == "synonym":
                from meteor_eval.resources.synonyms import wordnet_spec

                if self.config.synonym_dir is not None:
                    ids.append(f"synonyms-dir:{self.config.synonym_dir}")
                else:
                    ids.append(wordnet_spec().short_id)
            elif module == "paraphrase":
                ids.append(self._paraphrase_spec.short_id)
        return ",".join(ids) if ids else "none"

    def score_stats(self, stats: MeteorStats, *, n_refs: int | str = 1) -> MeteorScore:
        """Score a statistics record (one segment or a pooled sum)."""
        return self._make_score(stats, n_refs, None, None)

    def _make_score(
        self,
        stats: MeteorStats,
        n_refs: int | str,
        alignment: Alignment | None,
        reference_index: int | None,
    ) -> MeteorScore:
        """:meth:`score_stats` with the sentence fields set at once (no copy per segment)."""
        c = score_from_stats(stats, self.config)
        return MeteorScore(
            c.score,
            self.signature(n_refs),
            precision=_finite(c.precision),
            recall=_finite(c.recall),
            fmean=_finite(c.fmean),
            fragmentation=_finite(c.fragmentation),
            penalty=_finite(c.penalty),
            chunks=stats.chunks,
            matches=(stats.hyp_matched, stats.ref_matched),
            stats=stats,
            alignment=alignment,
            reference_index=reference_index,
        )

    def sentence_score(
        self, hypothesis: str, references: Sequence[str], *, alignment: bool = False
    ) -> MeteorScore:
        """METEOR of one hypothesis against its references.

        Args:
            hypothesis: The system output.
            references: One or more references for it.
            alignment: Attach the chosen alignment to the result.
        """
        if alignment or self._nltk is not None:
            stats, k, align = self.segment_stats(hypothesis, references)
            return self._make_score(stats, len(references), align if alignment else None, k)
        # No alignment requested: the same statistics without building an Alignment.
        _check_segment(hypothesis, references)
        stats, k = self._best_reference(self.segment(hypothesis), references, want_matches=False)[
            :2
        ]
        return self._make_score(stats, len(references), None, k)

    def corpus_score(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]],
        *,
        segments: bool = False,
        alignments: bool = False,
    ) -> MeteorScore:
        """METEOR of a corpus: pooled statistics scored once (or the mean, if configured).

        Args:
            hypotheses: One string per segment.
            references: ``references[i]`` lists the references of ``hypotheses[i]``.
            segments: Attach per-segment scores.
            alignments: Attach each segment's alignment (implies ``segments``).

        Raises:
            TypeError: a bare string where a sequence is expected.
            InputError: the numbers of hypotheses and reference groups differ.
        """
        _check_corpus(hypotheses, references)
        if not hypotheses:
            warn_empty()
        if segments or alignments:
            seg_scores = [
                self.sentence_score(h, refs, alignment=alignments)
                for h, refs in zip(hypotheses, references, strict=True)
            ]
            return self.combine(seg_scores, keep_segments=True)
        # Only the statistics are needed: no per-segment score objects or alignments.
        records, n_refs_set = self._corpus_stats(hypotheses, references)
        n_refs = next(iter(n_refs_set)) if len(n_refs_set) == 1 else "var"
        result = self.score_stats(pool_stats(records, self.config), n_refs=n_refs)
        if self.config.aggregate == "mean":
            config = self.config
            mean = (
                math.fsum(score_from_stats(r, config).score for r in records) / len(records)
                if records
                else 0.0
            )
            result = dataclasses.replace(result, score=mean)
        return result

    def combine(
        self, seg_scores: Iterable[MeteorScore], *, keep_segments: bool = False
    ) -> MeteorScore:
        """Corpus score from segment scores: pooled statistics, or their mean if configured."""
        scores = list(seg_scores)
        n_refs_set = {s.signature.get("nrefs") for s in scores}
        n_refs = (next(iter(n_refs_set)) or "1") if len(n_refs_set) == 1 else "var"
        total = pool_stats((s.stats for s in scores), self.config)
        result = self.score_stats(total, n_refs=n_refs)
        if self.config.aggregate == "mean":
            mean = math.fsum(s.score for s in scores) / len(scores) if scores else 0.0
            result = dataclasses.replace(result, score=mean)
        if keep_segments:
            result = dataclasses.replace(result, segments=tuple(scores))
        return result

    # -- the metric protocol -------------------------------------------------------------

    name = "meteor"
    config: MeteorConfig
    score_fields = frozenset({"alpha", "beta", "gamma", "delta", "weights", "aggregate"})

    @classmethod
    def config_type(cls) -> type[MeteorConfig]:
        """:class:`MeteorConfig`."""
        return MeteorConfig

    @property
    def columns(self) -> tuple[str, ...]:
        """The 23 numbers of the jar's statistics line (see :mod:`meteor_eval.stats.meteor`)."""
        return ROW_COLUMNS

    def segment_rows(self, pairs: Sequence[Pair]) -> list[Row]:
        """The best reference's statistics row of each pair (:meth:`best_stats_many`)."""
        return [stats.to_row() for stats in self.best_stats_many(pairs)]

    def keeps_rows(self) -> bool:
        """``aggregate="mean"`` averages the segments' scores, so it needs every row."""
        return self.config.aggregate == "mean"

    def merge(self, total: Row, row: Row) -> Row:
        """Sum, except that a perfect segment's chunks are not added (METEOR 1.5's rule)."""
        if self.config.zero_penalty_if_perfect and _perfect_row(row):
            row = (*row[:20], 0, *row[21:])
        return tuple(map(operator.add, total, row))

    def pooled_rows(self, pairs: Sequence[Pair]) -> Total:
        """The pooled total of a batch, from :meth:`pooled_stats_many` where the rows are not
        needed (no statistics record per pair on the compiled path)."""
        if self.keeps_rows():
            return super().pooled_rows(pairs)
        total = self.new_total()
        total.row = self.pooled_stats_many(pairs).to_row()
        total.count = len(pairs)
        total.nrefs = {len(refs) for _, refs in pairs}
        return total

    def stats_of_row(self, row: Row) -> MeteorStats:
        """A statistics row as a record with this configuration's number of stages."""
        stats = MeteorStats.from_row(row)
        n = len(self.config.modules)
        if n < len(stats.stages):
            stats = dataclasses.replace(stats, stages=stats.stages[:n])
        return stats

    def score_total(
        self, total: Row, *, nrefs: str = "1", rows: Sequence[Row] | None = None
    ) -> MeteorScore:
        """The score of merged statistics; with ``aggregate="mean"`` and ``rows``, the score is
        the exact mean of the segments' scores (the other fields stay those of the total)."""
        result = self.score_stats(self.stats_of_row(total), n_refs=nrefs)
        if rows is not None and self.config.aggregate == "mean":
            config = self.config
            stats_of = self.stats_of_row
            mean = (
                math.fsum(score_from_stats(stats_of(r), config).score for r in rows) / len(rows)
                if rows
                else 0.0
            )
            result = dataclasses.replace(result, score=mean)
        return result

    def segment_results(
        self, pairs: Sequence[Pair], *, alignment: bool = False, **options: Any
    ) -> list[MeteorScore]:
        """:meth:`sentence_score` of each pair (``alignment``: attach each one's alignment)."""
        if options:
            return super().segment_results(pairs, **options)

        def score(hypothesis: str, references: Sequence[str]) -> MeteorScore:
            return self.sentence_score(hypothesis, references, alignment=alignment)

        return _each_placed(pairs, score)

    def values(self, score: MeteorScore) -> dict[str, float]:
        """``{"meteor": score}``."""
        return {"meteor": score.score}

    def report(self, score: MeteorScore) -> dict[str, dict[str, Any]]:
        """METEOR with precision, recall, Fmean, fragmentation, penalty, chunks, the matches
        of each module (hypothesis and reference side) and the lengths."""
        stats = score.stats
        matches = {
            module: [counts[0] + counts[2], counts[1] + counts[3]]
            for module, counts in zip(self.config.modules, stats.stages, strict=False)
        }
        return {
            "meteor": {
                "score": score.score,
                "precision": score.precision,
                "recall": score.recall,
                "fmean": score.fmean,
                "fragmentation": score.fragmentation,
                "penalty": score.penalty,
                "chunks": score.chunks,
                "matches": matches,
                "hyp_length": stats.hyp_length,
                "ref_length": stats.ref_length,
                "stats": list(stats.to_row()),
            }
        }

    def sample_matrix(self, rows: Sequence[Row]) -> Any:
        """Merged rows, or with ``aggregate="mean"`` each segment's score and a count of 1, so
        that a resampled total is scored as its corpus score is made."""
        if self.config.aggregate != "mean":
            return super().sample_matrix(rows)
        import numpy as np

        config = self.config
        scores = [score_from_stats(self.stats_of_row(r), config).score for r in rows]
        return np.column_stack([np.asarray(scores, dtype=np.float64), np.ones(len(rows))])

    def sample_values(self, totals: Any) -> Any:
        """Headline score of each resampled total (see :meth:`sample_matrix`): the exact
        formula of the corpus score on each pooled total, or the mean of segment scores."""
        import numpy as np

        if self.config.aggregate != "mean":
            config = self.config
            if config.flavour != "nltk":
                return {"meteor": meteor_of_totals(totals, config)}
            stats_of = self.stats_of_row
            scores = [
                score_from_stats(stats_of(tuple(int(x) for x in total)), config).score
                for total in totals.tolist()
            ]
            return {"meteor": np.asarray(scores, dtype=np.float64)}

        with np.errstate(invalid="ignore", divide="ignore"):
            means = np.where(totals[:, 1] > 0, totals[:, 0] / totals[:, 1], 0.0)
        return {"meteor": means}


def meteor_of_totals(totals: Any, config: MeteorConfig) -> Any:
    """METEOR 1.5 / 2005 scores of many pooled statistics rows at once (one row of the 23
    numbers per sample): :func:`~meteor_eval.metrics.meteor_formula.components`' operations in
    its order on whole columns (NumPy), so within an ulp of the scalar formula (which
    reproduces the JVM's ``Math.pow`` bits for segment-sized counts; pooled totals are beyond
    that table)."""
    import numpy as np

    data = np.asarray(totals, dtype=np.float64)
    delta = config.delta
    rest = 1.0 - delta
    hyp_len, ref_len, hyp_fn, ref_fn = data[:, 0], data[:, 1], data[:, 2], data[:, 3]
    hyp_lw = (delta * (hyp_len - hyp_fn)) + (rest * hyp_fn)
    ref_lw = (delta * (ref_len - ref_fn)) + (rest * ref_fn)
    n = min(len(config.weights), 4)
    stage = [data[:, 4 + 4 * k : 8 + 4 * k] for k in range(n)]
    hyp_mw = np.zeros(len(data))
    ref_mw = np.zeros(len(data))
    for k, w in enumerate(config.weights[:n]):
        hyp_mw = hyp_mw + (stage[k][:, 0] * w) * delta
        ref_mw = ref_mw + (stage[k][:, 1] * w) * delta
    for k, w in enumerate(config.weights[:n]):
        hyp_mw = hyp_mw + (stage[k][:, 2] * w) * rest
        ref_mw = ref_mw + (stage[k][:, 3] * w) * rest
    chunks, matched = data[:, 20], data[:, 21] + data[:, 22]
    hyp_total = sum((stage[k][:, 0] + stage[k][:, 2] for k in range(n)), np.zeros(len(data)))
    ref_total = sum((stage[k][:, 1] + stage[k][:, 3] for k in range(n)), np.zeros(len(data)))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        precision = hyp_mw / hyp_lw
        recall = ref_mw / ref_lw
        fmean = 1.0 / ((1.0 - config.alpha) / precision + config.alpha / recall)
        perfect = (chunks == 1) & (hyp_total == hyp_len) & (ref_total == ref_len)
        frag = chunks / (matched / 2.0)
        if config.zero_penalty_if_perfect:
            frag = np.where(perfect, 0.0, frag)
        penalty = config.gamma * np.power(frag, config.beta)
        score = fmean * (1.0 - penalty)
    return np.where(np.isnan(score), 0.0, np.maximum(score, 0.0))


def _perfect_row(row: Row) -> bool:
    """A statistics row with one chunk and every unit of both sides matched (spec 5.2)."""
    if row[20] != 1:
        return False
    hyp = row[4] + row[6] + row[8] + row[10] + row[12] + row[14] + row[16] + row[18]
    ref = row[5] + row[7] + row[9] + row[11] + row[13] + row[15] + row[17] + row[19]
    return hyp == row[0] and ref == row[1]


def pool_stats(records: Iterable[MeteorStats], config: MeteorConfig) -> MeteorStats:
    """Sum statistics as the configuration's flavour pools them (spec 5.5 for METEOR 1.5)."""
    total = MeteorStats.zero(len(config.modules))
    skip = config.zero_penalty_if_perfect
    for record in records:
        total = total.merge(record, skip_perfect_chunks=skip)
    return total


_R = TypeVar("_R")


def _each_placed(
    pairs: Sequence[tuple[str, Sequence[str]]], fn: Callable[[str, Sequence[str]], _R]
) -> list[_R]:
    """``fn(hypothesis, references)`` of each pair; a too-long segment's error is placed at
    its pair's index."""
    out: list[_R] = []
    for index, (hypothesis, references) in enumerate(pairs):
        try:
            out.append(fn(hypothesis, references))
        except SegmentTooLongError as exc:
            raise exc.at_index(index) from None
    return out


def _warn_budget(hyp: Segment, ref: Segment, stages: tuple[int, ...]) -> None:
    """One :class:`SearchBudgetWarning` naming the segment whose exact search ran out."""
    start = " ".join(hyp.tokens[:8])
    more = " ..." if len(hyp.tokens) > 8 else ""
    warnings.warn(
        f"paper2005: the exact alignment search ran out of its budget "
        f'({exhaustive.SEARCH_BUDGET:,} units) on the segment "{start}{more}" '
        f"({len(hyp.tokens)} hypothesis and {len(ref.tokens)} reference tokens; stage "
        f"{', '.join(str(k) for k in stages)}); kept the best alignment found so far "
        "(most matches, possibly more chunks than the optimum)",
        SearchBudgetWarning,
        stacklevel=2,
    )


def _check_segment(hypothesis: str, references: Sequence[str]) -> None:
    """The argument checks of :meth:`Meteor.segment_stats` (same errors, same order)."""
    if isinstance(references, str):
        raise TypeError("references: expected a sequence of reference strings, got a str")
    if not isinstance(hypothesis, str):
        raise TypeError(f"hypothesis: expected a str, got {type(hypothesis).__name__}")
    if len(references) == 0:
        raise InputError("references: at least one reference is required")


def _check_corpus(hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> None:
    if isinstance(hypotheses, str):
        raise TypeError("hypotheses: expected a sequence of strings, got a str")
    if isinstance(references, str):
        raise TypeError("references: expected a sequence of reference lists, got a str")
    if len(hypotheses) != len(references):
        raise InputError(
            f"got {len(hypotheses)} hypotheses but {len(references)} reference groups; "
            "references[i] must hold the references of hypotheses[i]"
        )
    for k, refs in enumerate(references):
        if isinstance(refs, str):
            raise TypeError(
                f"references[{k}]: expected a sequence of reference strings, got a str "
                "(wrap a single reference in a list)"
            )


_ALIGNER_LABELS = {"paper2005": "exhaustive", "nltk": "greedy"}


def _tokenizer_label(config: MeteorConfig) -> str:
    if config.tokenizer != "default":
        return config.tokenizer
    return "nltk" if config.flavour == "nltk" else "meteor15"


def _build_signature(config: MeteorConfig, n_refs: str, resources: str) -> Signature:
    fields = [
        SignatureField("flavour", "f", config.flavour),
        SignatureField("lang", "l", config.lang.short_name),
        SignatureField("task", "t", config.task),
        SignatureField("norm", "n", NORMALIZATION_LABELS[config.normalization]),
        SignatureField("tok", "tok", _tokenizer_label(config)),
        SignatureField("case", "c", "mixed" if config.normalization == "none" else "lc"),
        SignatureField("modules", "m", "+".join(config.modules)),
        SignatureField("weights", "w", "+".join(format_number(w) for w in config.weights)),
        SignatureField("alpha", "a", format_number(config.alpha)),
        SignatureField("beta", "b", format_number(config.beta)),
        SignatureField("gamma", "g", format_number(config.gamma)),
        SignatureField("delta", "d", format_number(config.delta)),
        SignatureField("aligner", "al", _ALIGNER_LABELS.get(config.flavour, f"beam{config.beam}")),
        SignatureField("resources", "r", resources),
        SignatureField("nrefs", "nr", n_refs),
        SignatureField("multiref", "mr", "best"),
        SignatureField("aggregate", "agg", config.aggregate),
    ]
    return Signature("meteor", tuple(fields))


_DEFAULT_SCORERS: dict[MeteorConfig, Meteor] = {}


def _scorer(config: MeteorConfig | None, options: dict[str, object]) -> Meteor:
    if config is not None and options:
        raise TypeError("pass either config= or individual options, not both")
    if config is None:
        config = MeteorConfig.preset(**options)  # type: ignore[arg-type]
    scorer = _DEFAULT_SCORERS.get(config)
    if scorer is None:
        if len(_DEFAULT_SCORERS) > 16:
            _DEFAULT_SCORERS.clear()
        scorer = Meteor(config)
        _DEFAULT_SCORERS[config] = scorer
    return scorer


def corpus_meteor(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    *,
    config: MeteorConfig | None = None,
    segments: bool = False,
    **options: object,
) -> MeteorScore:
    """Corpus METEOR; ``options`` are those of :meth:`MeteorConfig.preset`.

    Example:
        >>> s = corpus_meteor(["the cat sat on the mat"], [["the cat sat on the mat"]],
        ...                   flavour="paper2005", modules=("exact",))
        >>> round(s.score, 4)
        0.9977
    """
    return _scorer(config, options).corpus_score(hypotheses, references, segments=segments)


def sentence_meteor(
    hypothesis: str,
    references: Sequence[str],
    *,
    config: MeteorConfig | None = None,
    alignment: bool = False,
    **options: object,
) -> MeteorScore:
    """METEOR of one hypothesis; ``options`` are those of :meth:`MeteorConfig.preset`.

    Example:
        >>> s = sentence_meteor("on the mat sat the cat", ["the cat sat on the mat"],
        ...                     flavour="paper2005", modules=("exact",))
        >>> (s.chunks, s.penalty, s.score)
        (6, 0.5, 0.5)
    """
    return _scorer(config, options).sentence_score(hypothesis, references, alignment=alignment)
