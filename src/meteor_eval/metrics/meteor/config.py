"""Step: configuration. :class:`MeteorConfig`, every setting of a METEOR computation, validated.

A configuration is checked when it is built, before any scoring, by small named checks; each
refusal is a :class:`~meteor_eval.errors.ConfigError` (a ``TypeError`` for a bare string where a
sequence belongs) whose message names the field, the value received and what is allowed.
Refused are also the values the formula would accept but silently turn into meaningless
scores: non-finite or negative parameters and weights, module weights above 1 (scores above
1) and a number of weights other than the number of modules. ``jar_weights=True`` is the one
permissive path: weights above 1 and fewer weights than modules, as the METEOR 1.5 jar takes
them, for ``meteor-eval jar-compat``'s byte-identical output.

Module names, and which flavours can run each module, come from the matcher registry
(:mod:`meteor_eval.match.registry`); defaults of each flavour, language and task from
:mod:`meteor_eval.metrics.meteor.presets`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Literal, Protocol, get_args

from meteor_eval.align.search import DEFAULT_BEAM, MAX_BEAM
from meteor_eval.errors import ConfigError
from meteor_eval.javafmt import java_double
from meteor_eval.match import registry as matchers
from meteor_eval.metrics.meteor.presets import (
    NORMALIZATION_LABELS,
    NORMALIZED_LANGUAGES,
    Language,
    check_task_has_parameters,
    flavour_defaults,
    resolve_language,
)


class TunedNumbers(Protocol):
    """The numbers of a tuned parameter set: what :class:`TunedParameters` carries."""

    @property
    def alpha(self) -> float: ...
    @property
    def beta(self) -> float: ...
    @property
    def gamma(self) -> float: ...
    @property
    def delta(self) -> float: ...
    @property
    def weights(self) -> tuple[float, ...]: ...


class TunedParameters(Protocol):
    """A tuned parameter set as :meth:`MeteorConfig.preset` takes it (``params``): numbers
    already read and checked, such as a :class:`~meteor_eval.tuning.paramfile.ParamsFile`
    (``meteor_eval.tuning.read_params(path)``). The configuration takes numbers; files are
    read above it."""

    @property
    def language(self) -> str: ...
    @property
    def modules(self) -> tuple[str, ...]: ...
    @property
    def params(self) -> TunedNumbers: ...
    @property
    def id(self) -> str: ...


__all__ = ["Aggregate", "Flavour", "MeteorConfig", "Normalization", "Tokenizer"]

Flavour = Literal["meteor15", "paper2005", "nltk"]
Normalization = Literal["none", "lower", "norm", "norm_nopunct"]
Aggregate = Literal["pooled", "mean"]
Tokenizer = Literal["default", "nltk", "whitespace"]

_FLAVOURS: tuple[str, ...] = get_args(Flavour)
_NORMALIZATIONS: tuple[str, ...] = get_args(Normalization)
_AGGREGATES: tuple[str, ...] = get_args(Aggregate)
_TOKENIZERS: tuple[str, ...] = get_args(Tokenizer)
_NLTK_MODULES = ("exact", "stem", "synonym")


def _check_choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ConfigError(f"{name}: {value!r} is unknown; allowed: {', '.join(allowed)}")


def _check_number(name: str, value: object, *, upper: float | None = 1.0) -> float:
    """A finite number in ``[0, upper]`` (``upper=None``: any finite number >= 0)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{name}: expected a number, got {type(value).__name__}")
    number = float(value)
    bound = f"[0, {upper}]" if upper is not None else "a finite number >= 0"
    if not math.isfinite(number):
        raise ConfigError(f"{name}: {value!r} is not a finite number; allowed: {bound}")
    if number < 0.0 or (upper is not None and number > upper):
        raise ConfigError(f"{name}: {value!r} is out of range; allowed: {bound}")
    return number


def _check_modules(config: MeteorConfig) -> None:
    """Known module names (from the registry), at least one, each runnable by the flavour."""
    if isinstance(config.modules, str):
        raise TypeError("modules: expected a sequence of module names, got a str")
    if not config.modules:
        raise ConfigError("modules: at least one module is required")
    for name in config.modules:
        module = matchers.get(name)
        if config.flavour not in module.flavours:
            raise ConfigError(f"modules: the {config.flavour} flavour has no {name} module")
    if config.flavour == "nltk" and config.modules != _NLTK_MODULES[: len(config.modules)]:
        raise ConfigError(
            f"modules: the nltk flavour runs exact, stem, synonym in that order (or a "
            f"prefix of it), got {', '.join(config.modules)}"
        )


def _check_weights(config: MeteorConfig) -> None:
    """One finite weight in [0, 1] per module (``jar_weights``: >= 0, at most one per module)."""
    weights = config.weights
    if isinstance(weights, str):
        raise TypeError("weights: expected a sequence of numbers, got a str")
    upper = None if config.jar_weights else 1.0
    for k, weight in enumerate(weights):
        _check_number(f"weights[{k}]", weight, upper=upper)
    n_weights, n_modules = len(weights), len(config.modules)
    if n_weights > n_modules or (n_weights < n_modules and not config.jar_weights):
        raise ConfigError(
            f"weights: {n_weights} weights for {n_modules} modules "
            f"({', '.join(config.modules)}); give one weight per module"
        )


def _check_parameters(config: MeteorConfig) -> None:
    """alpha, gamma and delta in [0, 1], beta finite and >= 0, beam an integer in range."""
    _check_number("alpha", config.alpha)
    _check_number("beta", config.beta, upper=None)
    _check_number("gamma", config.gamma)
    _check_number("delta", config.delta)
    beam = config.beam
    if isinstance(beam, bool) or not isinstance(beam, int) or not 1 <= beam <= MAX_BEAM:
        raise ConfigError(f"beam: {beam!r} is invalid; allowed: an integer from 1 to {MAX_BEAM:,}")


def _check_text_handling(config: MeteorConfig) -> None:
    """Tokenizer and normalisation fit the flavour and the language."""
    if config.tokenizer != "default":
        if config.flavour == "meteor15":
            raise ConfigError(
                "tokenizer: meteor15 tokenises as the METEOR 1.5 jar does; other tokenizers "
                "are for the paper2005 and nltk flavours"
            )
        if config.normalization not in ("none", "lower"):
            raise ConfigError(
                f"normalization: {config.normalization!r} needs the default tokenizer; "
                "use 'none' or 'lower' with the whitespace or nltk tokenizer"
            )
    if config.flavour == "nltk":
        if config.normalization not in ("none", "lower"):
            raise ConfigError(
                "normalization: the nltk flavour lower-cases tokens ('lower', NLTK's "
                f"default preprocess) or keeps them ('none'), got {config.normalization!r}"
            )
        if config.characters:
            raise ConfigError("characters: the nltk flavour has no character mode")
    if config.normalization.startswith("norm") and config.language not in NORMALIZED_LANGUAGES:
        raise ConfigError(
            f"normalization: METEOR 1.5 has no normaliser for {config.language}; pre-process the "
            "input and run without --norm (normalization='none' or 'lower')"
        )


@dataclass(frozen=True, slots=True)
class MeteorConfig:
    """Every setting of a METEOR computation. Build one with :meth:`preset`.

    Attributes:
        flavour: ``"meteor15"``, ``"paper2005"`` or ``"nltk"``.
        language: METEOR 1.5 language long name (``"english"``).
        task: The task whose table gave the defaults (``"rank"``, ``"adq"``, ...).
        normalization: ``"none"``, ``"lower"`` (the jar's ``-lower``), ``"norm"`` (``-norm``) or
            ``"norm_nopunct"`` (``-norm -noPunct``).
        modules: Matching stages in order (names registered in
            :mod:`meteor_eval.match.registry`).
        weights: Scoring weight per stage, by position: one per module, each in [0, 1].
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
        jar_weights: Take weights as the METEOR 1.5 jar does: above 1 (scores can then exceed
            1) and fewer than the modules (the modules without one count nothing). Only for
            reproducing the jar's output (``meteor-eval jar-compat``).
        params_id: The id of the parameter file that set the modules, weights and parameters
            (``meteor-eval train``'s output, :meth:`preset`'s ``params``), recorded in the
            signature; None when they come from the task table or the caller.
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
    jar_weights: bool = False
    params_id: str | None = None

    def __post_init__(self) -> None:
        _check_choice("flavour", self.flavour, _FLAVOURS)
        resolve_language(self.language)
        _check_choice("normalization", self.normalization, _NORMALIZATIONS)
        _check_modules(self)
        _check_weights(self)
        _check_parameters(self)
        _check_choice("aggregate", self.aggregate, _AGGREGATES)
        _check_choice("tokenizer", self.tokenizer, _TOKENIZERS)
        _check_text_handling(self)

    @classmethod
    def preset(
        cls,
        flavour: Flavour = "meteor15",
        *,
        language: str = "en",
        task: str | None = None,
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
        params: TunedParameters | None = None,
    ) -> MeteorConfig:
        """A flavour's defaults with any settings replaced.

        For ``meteor15`` the language and task give parameters, modules and weights (spec 2.3).
        ``modules`` alone then resizes the task's weights by position, as the jar's ``-m``
        does: the first k weights stay, missing ones are 0.0 (so ``-m 'exact synonym'`` gives
        synonym the stem weight). Explicit ``weights`` are used as given: one per module.
        Individual parameters replace only themselves (unlike the jar's ``-p``, which also
        switches to the ``custom`` task table).

        ``paper2005``: English, lower-casing, exact/stem/synonym with each module's default
        weight (1 for every built-in module), alpha 0.9, beta 3, gamma 0.5, delta 1 (no
        function-word weighting).

        ``nltk``: NLTK's ``meteor_score``: English, NLTK's ``word_tokenize`` then lower-casing,
        exact/stem/synonym with weight 1 each, alpha 0.9, beta 3, gamma 0.5; the corpus score is
        the mean of segment scores (what ``evaluate`` reports) unless ``aggregate`` says otherwise.

        ``params``: a parameter set of ``meteor-eval train`` (a
        :class:`~meteor_eval.tuning.paramfile.ParamsFile`: ``read_params(path)``; the
        configuration takes numbers, not files) sets the modules, weights and the four
        parameters, and its id goes into the signature. It cannot be combined with ``modules``,
        ``weights`` or the parameters, and its language must be ``language``.

        Raises:
            ConfigError: unknown names, out-of-range or non-finite values, a number of
                weights other than the number of modules, or a parameter file that does not
                fit (its path and the field named).
            TypeError: a bare string where a sequence is expected, or a file path as
                ``params``.
        """
        if isinstance(params, (str, PurePath)):
            raise TypeError(
                "params: give the parameters read from the file "
                "(meteor_eval.tuning.read_params(path)), not its path"
            )
        if isinstance(modules, str) or isinstance(weights, str):
            raise TypeError("modules and weights take sequences, not a str")
        base = flavour_defaults(flavour, language, task)
        conflicts: list[str] = []
        if params is not None:
            # the file's numbers replace these; any given is refused by _with_params
            given = {"modules": modules, "weights": weights, "alpha": alpha, "beta": beta}
            given.update({"gamma": gamma, "delta": delta})
            conflicts = [name for name, value in given.items() if value is not None]
            modules = weights = alpha = beta = gamma = delta = None
        if flavour == "meteor15" and task is not None:
            check_task_has_parameters(base, task, (alpha, beta, gamma, delta, weights))
        final_modules = base.modules
        final_weights = base.weights
        if modules is not None:
            final_modules = matchers.parse_module_names(modules)
            k = len(final_modules)
            if flavour == "meteor15":
                final_weights = (base.weights + (0.0,) * k)[:k]
            else:
                final_weights = tuple(matchers.get(m).default_weight for m in final_modules)
        if weights is not None:
            final_weights = tuple(float(w) for w in weights)
        config = cls(
            flavour=flavour,
            language=base.language.long_name,
            task=base.task,
            normalization=normalization if normalization is not None else base.normalization,  # type: ignore[arg-type]
            modules=final_modules,
            weights=final_weights,
            alpha=base.alpha if alpha is None else alpha,
            beta=base.beta if beta is None else beta,
            gamma=base.gamma if gamma is None else gamma,
            delta=base.delta if delta is None else delta,
            beam=beam,
            aggregate=base.aggregate if aggregate is None else aggregate,  # type: ignore[arg-type]
            tokenizer=tokenizer,
            characters=characters,
            function_words_file=function_words_file,
            synonym_dir=synonym_dir,
            paraphrase_table=paraphrase_table,
            stem_table=stem_table,
        )
        return config if params is None else _with_params(params, conflicts, config)

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
        mods = "_".join(matchers.get(m).short_name for m in self.modules)
        weights = "_".join(java_double(w) for w in self.weights)
        level = NORMALIZATION_LABELS[self.normalization]
        mode = "ch" if self.characters else "wo"
        return f"meteor-1.5-{mode}-{self.lang.short_name}-{level}-{params}-{mods}-{weights}"


def _with_params(loaded: TunedParameters, conflicts: list[str], base: MeteorConfig) -> MeteorConfig:
    """``base`` with a parameter set's modules, weights and parameters (see ``preset``)."""
    # The file is named in every message (the field name "params" says nothing about which).
    where = getattr(loaded, "source", None) or "params"
    if conflicts:
        raise ConfigError(
            f"{where}: a parameter file sets {', '.join(conflicts)}; give one or the other"
        )
    if base.flavour == "nltk":
        raise ConfigError(
            f"{where}: the nltk flavour has fixed parameters; use meteor15 or paper2005"
        )
    try:
        language = resolve_language(loaded.language).long_name
    except ConfigError:
        raise ConfigError(
            f"{where}: field 'language': unknown language {loaded.language!r}"
        ) from None
    if language != base.language:
        raise ConfigError(
            f"{where}: field 'language': the parameters are for {language}, not {base.language}"
        )
    try:
        modules = matchers.parse_module_names(loaded.modules)
        return base.replace(
            modules=modules,
            weights=loaded.params.weights,
            alpha=loaded.params.alpha,
            beta=loaded.params.beta,
            gamma=loaded.params.gamma,
            delta=loaded.params.delta,
            params_id=loaded.id,
        )
    except ConfigError as exc:
        raise ConfigError(f"{where}: {exc}") from None
