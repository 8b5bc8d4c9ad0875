"""Step: configuration defaults. Languages, default modules, task tables and flavour presets.

METEOR 1.5's languages, default modules and task parameter tables (spec sections 2.1 to 2.3),
and what each flavour starts from before a user's settings replace some of it
(:func:`flavour_defaults`, used by :meth:`MeteorConfig.preset
<meteor_eval.metrics.meteor.config.MeteorConfig.preset>`). Pure data plus lookups; no resources
are loaded here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

from meteor_eval.errors import ConfigError

__all__ = [
    "JAR_TASKS",
    "LANGUAGES",
    "NORMALIZATION_LABELS",
    "NORMALIZED_LANGUAGES",
    "TASKS",
    "TASK_DESCRIPTIONS",
    "FlavourDefaults",
    "Language",
    "Task",
    "TaskSettings",
    "check_task_has_parameters",
    "default_task",
    "flavour_defaults",
    "has_parameters",
    "resolve_language",
    "task_settings",
]

Task = Literal["rank", "adq", "hter", "util", "li", "tune", "universal", "custom", "da"]

#: Every task name accepted (``default`` is the jar's synonym of ``rank``). ``da`` is not the
#: jar's: English parameters tuned on WMT direct assessments (``docs/tuning.md``).
TASKS: tuple[Task, ...] = (
    "rank",
    "adq",
    "hter",
    "util",
    "li",
    "tune",
    "universal",
    "custom",
    "da",
)

#: The tasks of METEOR 1.5 itself (what ``jar-compat -t`` accepts).
JAR_TASKS: tuple[Task, ...] = TASKS[:-1]

#: The ``Task:`` line of the jar's header for each task.
TASK_DESCRIPTIONS: dict[str, str] = {
    "rank": "Ranking",
    "adq": "Adequacy",
    "hter": "HTER",
    "util": "Translator-Utility",
    "li": "Language-Independent",
    "tune": "Tune",
    "universal": "Universal",
    "custom": "Custom",
    "da": "Direct-Assessment",
}


@dataclass(frozen=True, slots=True)
class Language:
    """A METEOR 1.5 language: its long name (resource files) and short name (Eval ID)."""

    long_name: str
    short_name: str
    codes: tuple[str, ...]
    default_modules: tuple[str, ...]


LANGUAGES: tuple[Language, ...] = (
    Language("english", "en", ("en", "english"), ("exact", "stem", "synonym", "paraphrase")),
    Language("czech", "cz", ("cz", "cs", "czech"), ("exact", "paraphrase")),
    Language("french", "fr", ("fr", "french"), ("exact", "stem", "paraphrase")),
    Language("spanish", "es", ("es", "spanish"), ("exact", "stem", "paraphrase")),
    Language("german", "de", ("de", "german"), ("exact", "stem", "paraphrase")),
    Language(
        "arabic-buckwalter-reduced",
        "ar-bw-red",
        ("ar-bw-red", "arabic-buckwalter-reduced"),
        ("exact", "stem"),
    ),
    Language("portuguese", "pt", ("pt", "portuguese"), ("exact", "stem")),
    Language("russian", "ru", ("ru", "russian"), ("exact", "stem", "paraphrase")),
    Language("danish", "da", ("da", "danish"), ("exact", "stem")),
    Language("romanian", "ro", ("ro", "romanian"), ("exact", "stem")),
    Language("hungarian", "hu", ("hu", "hungarian"), ("exact", "stem")),
    Language("turkish", "tr", ("tr", "turkish"), ("exact", "stem")),
    Language("finnish", "fi", ("fi", "finnish"), ("exact", "stem")),
    Language("dutch", "nl", ("nl", "dutch"), ("exact", "stem")),
    Language("italian", "it", ("it", "italian"), ("exact", "stem")),
    Language("norwegian", "no", ("no", "norwegian"), ("exact", "stem")),
    Language("swedish", "se", ("se", "sv", "swedish"), ("exact", "stem")),
    Language("other", "other", ("other", "xx"), ("exact",)),
)

#: Eval ID names of the normalisation levels (spec 2.5).
NORMALIZATION_LABELS = {
    "none": "no_norm",
    "lower": "lc_only",
    "norm": "norm",
    "norm_nopunct": "norm_nopunct",
}

#: Long names of the languages that have a normaliser (``-norm``) in METEOR 1.5.
NORMALIZED_LANGUAGES = frozenset({"english", "czech", "french", "spanish", "german", "russian"})

_BY_CODE = {code: lang for lang in LANGUAGES for code in lang.codes}

Params = tuple[float, float, float, float]
Weights = tuple[float, float, float, float]

_LI: tuple[Params, Weights] = ((0.75, 1.40, 0.70, 0.50), (1.0, 0.5, 0.5, 0.5))
_ZERO: tuple[Params, Weights] = ((0.0, 0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 0.0))

_RANK: dict[str, tuple[Params, Weights]] = {
    "english": ((0.85, 0.20, 0.60, 0.75), (1.0, 0.6, 0.8, 0.6)),
    "czech": ((0.95, 0.20, 0.60, 0.80), (1.0, 0.4, 0.0, 0.0)),
    "french": ((0.90, 1.40, 0.60, 0.65), (1.0, 0.2, 0.4, 0.0)),
    "spanish": ((0.65, 1.30, 0.50, 0.80), (1.0, 0.8, 0.6, 0.0)),
    "german": ((0.95, 1.00, 0.55, 0.55), (1.0, 0.8, 0.2, 0.0)),
    "russian": ((0.75, 1.40, 0.70, 0.50), (1.0, 0.5, 0.5, 0.0)),
}
_ENGLISH_ONLY: dict[Task, tuple[Params, Weights]] = {
    "adq": ((0.75, 1.40, 0.45, 0.70), (1.0, 1.0, 0.6, 0.8)),
    "hter": ((0.40, 1.50, 0.35, 0.55), (1.0, 0.2, 0.6, 0.8)),
    "util": ((0.65, 0.10, 0.55, 0.65), (1.0, 0.0, 0.0, 0.8)),
    # Tuned by ``meteor-eval train`` on WMT 2021 to-English DA only (is-en, ja-en, ru-en, each
    # score paired with the line it scores: docs/tuning.md); held out, on 2022, segment-level
    # Kendall 0.2103 against 0.2063 for "rank".
    "da": ((0.90, 0.05, 0.55, 0.70), (1.0, 0.7, 0.15, 0.6)),
}
_TUNE: tuple[Params, Weights] = ((0.5, 1.0, 0.5, 0.5), (1.0, 0.5, 0.5, 0.5))
_UNIVERSAL: tuple[Params, Weights] = ((0.70, 1.40, 0.30, 0.70), (1.0, 0.6, 0.0, 0.0))


class TaskSettings(NamedTuple):
    """What a task sets: parameters, module list, weights (truncated to the modules), labels.

    A named tuple, not a dataclass (internal, only read): a dataclass's methods are compiled
    when its class is made, about 3 M instructions in every run that configures METEOR."""

    task: Task
    description: str
    alpha: float
    beta: float
    gamma: float
    delta: float
    modules: tuple[str, ...]
    weights: tuple[float, ...]


def resolve_language(code: str) -> Language:
    """The language for a code or name, case-insensitively (spec 2.1).

    Raises:
        ConfigError: for an unknown code, listing the accepted ones.
    """
    lang = _BY_CODE.get(code.strip().lower())
    if lang is None:
        allowed = ", ".join(sorted(_BY_CODE))
        raise ConfigError(f"language: unknown language {code!r}; allowed: {allowed}")
    return lang


def task_settings(language: Language, task: str) -> TaskSettings:
    """Parameters, modules and weights of a task for a language (spec 2.3).

    Raises:
        ConfigError: for an unknown task.
    """
    name = task.strip().lower()
    if name == "default":
        name = "rank"
    if name.startswith("custom"):
        name = "custom"
    if name not in TASKS:
        raise ConfigError(f"task: unknown task {task!r}; allowed: {', '.join(TASKS)}")
    t: Task = name  # type: ignore[assignment, unused-ignore]
    long_name = language.long_name
    if t == "da" and long_name != "english":
        raise ConfigError(f"task: da is defined for English only, not {long_name}")
    modules = language.default_modules
    if t == "universal":
        table = _UNIVERSAL
        modules = ("exact", "paraphrase")
    elif long_name == "other" or t == "li":
        table = _LI
    elif t == "rank":
        table = _RANK.get(long_name, _ZERO)
    elif t == "tune":
        table = _TUNE
    else:
        key: Task = "adq" if t == "custom" else t
        table = _ENGLISH_ONLY[key] if long_name == "english" else _ZERO
    params, weights = table
    return TaskSettings(
        t,
        TASK_DESCRIPTIONS[t],
        *params,
        modules=modules,
        weights=weights[: len(modules)],
    )


class FlavourDefaults(NamedTuple):
    """A flavour's settings before any user setting replaces them (a named tuple, as
    :class:`TaskSettings`)."""

    language: Language
    task: str
    modules: tuple[str, ...]
    weights: tuple[float, ...]
    alpha: float
    beta: float
    gamma: float
    delta: float
    normalization: str
    aggregate: str


def default_task(language: Language) -> str:
    """The jar's task when none is given: ``rank`` where METEOR 1.5 has a ranking table for the
    language (English, Czech, French, Spanish, German, Russian), ``li`` (language-independent)
    otherwise, so that, e.g., Danish is scored with the parameters the jar uses for it."""
    return "rank" if language.long_name in _RANK else "li"


def has_parameters(language: Language, task: str) -> bool:
    """Whether METEOR 1.5 defines parameters for ``task`` in ``language``.

    The jar has no table for, e.g., ``rank`` in Danish or ``adq`` outside English: it then scores
    with alpha = beta = gamma = delta = 0 and zero weights, i.e. 0 for every segment.
    """
    settings = task_settings(language, task)
    numbers = (settings.alpha, settings.beta, settings.gamma, settings.delta, *settings.weights)
    return any(numbers)


def check_task_has_parameters(
    base: FlavourDefaults, task: str, overrides: tuple[object, ...]
) -> None:
    """Refuse a task METEOR 1.5 has no table for in the language of ``base``, unless every
    number it would give is set explicitly (``overrides``: the parameters and the weights
    given): the jar scores such a task 0 for every segment (all parameters and weights 0), a
    silent wrong answer.

    Raises:
        ConfigError: naming the task and the language's default task.
    """
    if all(value is not None for value in overrides) or has_parameters(base.language, task):
        return
    name = base.language.long_name
    raise ConfigError(
        f"task: {task} has no parameters for {name} in METEOR 1.5 (the jar would score every "
        f"segment 0); use task {default_task(base.language)}, the default for {name}, or give "
        "alpha, beta, gamma, delta and the weights"
    )


def flavour_defaults(flavour: str, language: str, task: str | None) -> FlavourDefaults:
    """What a flavour starts from (see :meth:`MeteorConfig.preset
    <meteor_eval.metrics.meteor.config.MeteorConfig.preset>`).

    ``meteor15``: the language's task table (spec 2.3), no normalisation. ``paper2005`` and
    ``nltk``: English, exact/stem/synonym with weight 1 each, alpha 0.9, beta 3, gamma 0.5,
    delta 1 (no function-word weighting), lower-casing; ``nltk`` averages segment scores.

    Raises:
        ConfigError: an unknown flavour, language or task, a language other than English
            for ``paper2005``/``nltk``, or a METEOR 1.5 task with those flavours.
    """
    lang = resolve_language(language)
    if flavour == "meteor15":
        settings = task_settings(lang, default_task(lang) if task is None else task)
        return FlavourDefaults(
            lang,
            settings.task,
            settings.modules,
            settings.weights,
            settings.alpha,
            settings.beta,
            settings.gamma,
            settings.delta,
            "none",
            "pooled",
        )
    if flavour in ("paper2005", "nltk"):
        if task is not None and task != flavour:
            # METEOR 1.5's task tables do not apply: refused rather than silently ignored.
            raise ConfigError(
                f"task: {task!r} is a METEOR 1.5 task; the {flavour} flavour has fixed "
                "parameters (set alpha, beta, gamma, delta instead, or use flavour meteor15)"
            )
        if lang.long_name != "english":
            raise ConfigError(f"language: the {flavour} flavour is defined for English only")
        aggregate = "mean" if flavour == "nltk" else "pooled"
        modules = ("exact", "stem", "synonym")
        return FlavourDefaults(
            lang, flavour, modules, (1.0, 1.0, 1.0), 0.9, 3.0, 0.5, 1.0, "lower", aggregate
        )
    raise ConfigError(f"flavour: {flavour!r} is unknown; allowed: meteor15, paper2005, nltk")
