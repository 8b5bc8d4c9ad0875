"""Every metric's command-line options, defined once and used by every command.

``score`` takes the METEOR options, ``bleu`` the BLEU options, ``rouge`` the ROUGE options and
``compare`` all three, with the same names, defaults and meaning, so a metric gives the same
number whichever command computed it. Two names would clash in ``compare``: ROUGE's
``--aggregate`` is also ``--rouge-aggregate`` (the only spelling in ``compare``, where
``--aggregate`` is METEOR's), and ``--seed`` is shared by ROUGE's bootstrap and the
significance tests. Each ``*_config`` function turns the parsed options into the metric's
configuration, and :func:`metrics_of` the metrics a scoring command computes; a value that the
configuration refuses is a usage error (exit status 2). Each metric's options are read and
checked first (:func:`_settings`), then the files they name read and the configuration made
(:func:`_config`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from meteor_eval.errors import ConfigError

if TYPE_CHECKING:
    from meteor_eval.metrics.bleu import BleuConfig
    from meteor_eval.metrics.meteor import MeteorConfig, Normalization
    from meteor_eval.metrics.protocol import Metric
    from meteor_eval.metrics.rouge import RougeConfig
    from meteor_eval.tuning.paramfile import ParamsFile

__all__ = [
    "METRICS",
    "add_bleu_options",
    "add_meteor_options",
    "add_rouge_options",
    "add_significance_options",
    "bleu_config",
    "meteor_config",
    "metrics_of",
    "rouge_config",
    "split_list",
]

#: The metric families, in the order ``compare`` prints them.
METRICS = ("meteor", "bleu", "rouge")


def split_list(text: str) -> Sequence[str]:
    """``"a,b c"`` -> ``["a", "b", "c"]`` (commas or spaces)."""
    return [part for part in text.replace(",", " ").split() if part]


# -- METEOR -----------------------------------------------------------------------------------


def add_meteor_options(parser: argparse.ArgumentParser) -> None:
    """Flavour, language, task, text handling, modules, weights, parameters, resources."""
    group = parser.add_argument_group("METEOR")
    group.add_argument(
        "--flavour", "--flavor", choices=("meteor15", "paper2005", "nltk"), default="meteor15"
    )
    group.add_argument("--lang", default="en", help="language code (default en)")
    group.add_argument(
        "--tokenizer",
        choices=("default", "nltk", "whitespace"),
        default="default",
        help="paper2005/nltk only: NLTK's word_tokenize or whitespace splitting",
    )
    group.add_argument(
        "--task",
        default=None,
        help="METEOR 1.5 task: rank adq hter util li tune, or da (English, tuned on WMT 2021 "
        "direct assessments; docs/tuning.md); default: rank where METEOR 1.5 has it for the "
        "language (en cz fr es de ru), li otherwise, as the jar",
    )
    group.add_argument("--norm", action="store_true", help="the jar's -norm: normalise, lower-case")
    group.add_argument("--lower", action="store_true", help="the jar's -lower: lower-case only")
    group.add_argument(
        "--no-punct",
        action="store_true",
        help="normalise, lower-case and drop punctuation (the jar's -norm -noPunct)",
    )
    from meteor_eval.match.registry import module_names

    group.add_argument(
        "--modules",
        help=f"comma-separated stages in order, any of: {', '.join(module_names())}",
    )
    group.add_argument(
        "--weights",
        help="comma-separated weight per stage, by position: one per module, each in [0, 1]",
    )
    for name in ("alpha", "beta", "gamma", "delta"):
        group.add_argument(f"--{name}", type=float, help=f"METEOR parameter {name}")
    group.add_argument(
        "--params",
        metavar="FILE",
        help="modules, weights, alpha, beta, gamma and delta from a parameter file written by "
        "'meteor-eval train' (named in the signature)",
    )
    group.add_argument("--beam", type=int, default=40, help="beam size of the aligner (40)")
    group.add_argument(
        "--characters",
        action="store_true",
        help="character-based precision and recall (the jar's -ch)",
    )
    group.add_argument("--function-words", metavar="FILE", help="function words (the jar's -s)")
    group.add_argument(
        "--synonym-dir", metavar="DIR", help="<language>.synsets/.exceptions (the jar's -d)"
    )
    group.add_argument(
        "--stem-table", metavar="FILE", help="lookup-table stemmer (needed for --lang ar-bw-red)"
    )
    group.add_argument(
        "--paraphrase-table",
        metavar="PATH",
        help="paraphrase table in METEOR 1.5's gzip format (default: found automatically)",
    )
    group.add_argument(
        "--aggregate",
        choices=("pooled", "mean"),
        default=None,
        help="METEOR's corpus score from pooled statistics or the mean of segment scores "
        "(default: pooled; mean for the nltk flavour)",
    )
    group.add_argument(
        "--resources",
        metavar="DIR",
        help="a folder made by `meteor-eval new-language` (function.words, paraphrase.gz): "
        "score with METEOR 1.5's universal settings, as the jar's -new DIR",
    )


#: Options that ``--resources`` sets itself (language, task, resources, case): refused with it.
_SET_BY_RESOURCES = {
    "flavour": "--flavour",
    "lang": "--lang",
    "task": "--task",
    "norm": "--norm",
    "no_punct": "--no-punct",
    "function_words": "--function-words",
    "paraphrase_table": "--paraphrase-table",
    "stem_table": "--stem-table",
    "synonym_dir": "--synonym-dir",
    "tokenizer": "--tokenizer",
}


#: Default values of the options in :data:`_SET_BY_RESOURCES`.
_DEFAULTS = (None, False, "en", "rank", "meteor15", "default")


def _refuse_with_resources(args: argparse.Namespace) -> None:
    """``--resources DIR``: the options it replaces are refused (the jar's ``-new`` silently
    overrides them instead).

    Raises:
        ConfigError: a clashing option.
    """
    # The options typed (main() records them); without that record, those away from their
    # defaults.
    given = getattr(args, "explicit", None)
    for dest, option in _SET_BY_RESOURCES.items():
        if given is not None:
            clashes = dest in given
        else:
            clashes = getattr(args, dest, None) not in _DEFAULTS
        if clashes:
            raise ConfigError(
                f"--resources: {option} cannot be combined with it (the folder sets the "
                "language, task, lower-casing and resources, as the jar's -new)"
            )


def _refuse_with_params(args: argparse.Namespace) -> None:
    """``--params FILE``: the options it would contradict are refused."""
    given = [
        f"--{name}"
        for name in ("modules", "weights", "alpha", "beta", "gamma", "delta")
        if getattr(args, name) is not None
    ]
    if given:
        raise ConfigError(
            f"--params: the file sets the modules, weights and parameters; {', '.join(given)} "
            "cannot be given with it"
        )


def _meteor_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The METEOR options read and checked: the keyword arguments of
    :meth:`MeteorConfig.preset <meteor_eval.metrics.meteor.MeteorConfig.preset>`, with the
    files that ``--resources`` and ``--params`` name as paths (``resources``, ``params``), read
    when the configuration is made (:func:`_config`). With ``--resources DIR``: the universal
    settings of METEOR 1.5, any parameter, module, weight or beam option applied on top."""
    normalization: Normalization | None
    settings: dict[str, Any] = {
        "flavour": args.flavour,
        "language": args.lang,
        "task": args.task,
        "function_words_file": args.function_words,
        "paraphrase_table": args.paraphrase_table,
        "resources": getattr(args, "resources", None),
        "params": getattr(args, "params", None),
    }
    if settings["resources"] is not None:
        if settings["params"] is not None:
            raise ConfigError("--params: cannot be combined with --resources")
        _refuse_with_resources(args)
        normalization = "lower"
        settings.update(flavour="meteor15", language="other", task="universal")
    else:
        if settings["params"] is not None:
            _refuse_with_params(args)
        if args.no_punct:
            normalization = "norm_nopunct"
        elif args.norm:
            normalization = "norm"
        elif args.lower:
            normalization = "lower"
        else:
            normalization = None
    settings["normalization"] = normalization
    settings["modules"] = split_list(args.modules) if args.modules else None
    settings["weights"] = _weights(args)
    settings.update(_fields_of(args, _METEOR_FIELDS))
    return settings


def meteor_config(args: argparse.Namespace) -> MeteorConfig:
    """The METEOR configuration the options describe (``--resources DIR``: the universal
    settings of METEOR 1.5 with that folder's resources, any parameter, module, weight or beam
    option applied on top)."""
    settings = _settings(args, "meteor")
    config: MeteorConfig = _config("meteor", settings)
    return config


def _weights(args: argparse.Namespace) -> list[float] | None:
    """``--weights`` as numbers, if given."""
    if not args.weights:
        return None
    try:
        return [float(w) for w in split_list(args.weights)]
    except ValueError:
        raise ConfigError(f"--weights: {args.weights!r} is not a list of numbers") from None


#: METEOR configuration fields set by the option of the same name, as parsed.
_METEOR_FIELDS = (
    "alpha beta gamma delta beam aggregate tokenizer characters synonym_dir stem_table".split()
)

#: Configuration field -> the METEOR option that sets it (for error messages).
_METEOR_OPTION_OF_FIELD = {
    "weights": "--weights",
    "modules": "--modules",
    "alpha": "--alpha",
    "beta": "--beta",
    "gamma": "--gamma",
    "delta": "--delta",
    "beam": "--beam",
    "language": "--lang",
    "task": "--task",
    "stem_table": "--stem-table",
    "params": "--params",
    "tokenizer": "--tokenizer",
    "flavour": "--flavour",
    "aggregate": "--aggregate",
    "paraphrase_table": "--paraphrase-table",
    "function_words_file": "--function-words",
    "synonym_dir": "--synonym-dir",
}

#: Per metric, configuration field -> the option that sets it.
_OPTION_OF_FIELD: dict[str, dict[str, str]] = {
    "meteor": _METEOR_OPTION_OF_FIELD,
    "bleu": {
        "tokenize": "--tokenize",
        "smooth_method": "--smooth-method",
        "smooth_value": "--smooth-value",
        "max_ngram_order": "--max-ngram-order",
    },
    "rouge": {
        "types": "--types",
        "multi_ref": "--multi-ref",
        "aggregate": "--rouge-aggregate",
        "weight": "--weight",
        "skip_distance": "--skip-distance",
        "sentence_separator": "--sentence-separator",
        "n_bootstrap": "--bootstrap",
        "seed": "--seed",
    },
}


def _with_option(message: str, metric: str = "meteor") -> str:
    """A configuration error's message led by the option that set the field it names
    (``weights[1]: inf ...`` -> ``--weights: weights[1]: inf ...``)."""
    field = message.split(":", 1)[0].split("[", 1)[0]
    option = _OPTION_OF_FIELD[metric].get(field)
    return f"{option}: {message}" if option is not None else message


# -- BLEU -------------------------------------------------------------------------------------


def add_bleu_options(parser: argparse.ArgumentParser) -> None:
    """sacrebleu's BLEU options, with its names and defaults."""
    from meteor_eval.metrics.bleu import SMOOTH_METHODS
    from meteor_eval.text.bleu_tokenizers import BLEU_TOKENIZERS

    group = parser.add_argument_group("BLEU")
    group.add_argument("--tokenize", "-tok", choices=BLEU_TOKENIZERS, default="13a")
    group.add_argument("--smooth-method", "-s", choices=SMOOTH_METHODS, default="exp")
    group.add_argument("--smooth-value", "-sv", type=float, default=None)
    group.add_argument("--lowercase", "-lc", action="store_true", help="BLEU on lower-cased text")
    group.add_argument(
        "--effective-order", action="store_true", help="BLEU: effective order for corpus scores"
    )
    group.add_argument("--max-ngram-order", type=int, default=4, help="BLEU's n-gram order")


#: BLEU configuration fields: every one is set by the option of the same name, as parsed.
_BLEU_FIELDS = (
    "tokenize smooth_method smooth_value lowercase effective_order max_ngram_order".split()
)


def bleu_config(args: argparse.Namespace) -> BleuConfig:
    """The BLEU configuration the options describe."""
    settings = _settings(args, "bleu")
    config: BleuConfig = _config("bleu", settings)
    return config


# -- ROUGE ------------------------------------------------------------------------------------


def add_rouge_options(parser: argparse.ArgumentParser, *, in_compare: bool = False) -> None:
    """ROUGE variants and settings (``in_compare``: ``--aggregate`` is METEOR's there)."""
    group = parser.add_argument_group("ROUGE")
    group.add_argument(
        "--types",
        default="rouge1,rouge2,rougeL",
        help="comma-separated ROUGE variants: rougeN, rougeL, rougeLsum, rougeW, rougeS, rougeSU",
    )
    group.add_argument("--stemmer", action="store_true", help="Porter stemming (rouge-score's)")
    group.add_argument("--multi-ref", choices=("best", "average"), default="best")
    names = ("--rouge-aggregate",) if in_compare else ("--aggregate", "--rouge-aggregate")
    group.add_argument(
        *names,
        dest="rouge_aggregate",
        choices=("mean", "pooled"),
        default="mean",
        help="ROUGE's corpus score: mean of segment scores or pooled counts",
    )
    group.add_argument("--weight", type=float, default=1.2, help="ROUGE-W weight")
    group.add_argument("--skip-distance", type=int, default=4, help="ROUGE-S/SU gap (-1: any)")
    group.add_argument(
        "--sentence-separator", default=None, help="splits a line into sentences, e.g. '<n>'"
    )
    group.add_argument(
        "--bootstrap",
        type=int,
        default=0,
        metavar="N",
        help="ROUGE: N bootstrap resamples for intervals of P, R and F (rouge-score's style)",
    )


#: ROUGE configuration fields set by the option of the same name, as parsed.
_ROUGE_FIELDS = ("multi_ref", "weight", "skip_distance", "sentence_separator", "seed")


def rouge_config(args: argparse.Namespace) -> RougeConfig:
    """The ROUGE configuration the options describe."""
    settings = _settings(args, "rouge")
    config: RougeConfig = _config("rouge", settings)
    return config


def _fields_of(args: argparse.Namespace, names: Sequence[str]) -> dict[str, Any]:
    """The options whose destination is named as the configuration field they set, by field
    (the options with another name, or whose value is converted, are passed one by one)."""
    return {name: getattr(args, name) for name in names}


def _settings(args: argparse.Namespace, metric: str) -> dict[str, Any]:
    """The options of ``metric`` (of :data:`METRICS`) read and checked, as the keyword
    arguments of its configuration (:func:`_config` makes it): every option is read before
    any file it names is opened or any configuration is made."""
    if metric == "meteor":
        return _meteor_settings(args)
    if metric == "bleu":
        return _fields_of(args, _BLEU_FIELDS)
    if metric == "rouge":
        return {
            "types": tuple(t.strip() for t in args.types.split(",") if t.strip()),
            "use_stemmer": args.stemmer,
            "aggregate": args.rouge_aggregate,
            "n_bootstrap": args.bootstrap,
            "confidence": getattr(args, "confidence", 0.95),
            **_fields_of(args, _ROUGE_FIELDS),
        }
    raise ValueError(f"not a metric: {metric!r}; allowed: {', '.join(METRICS)}")


def _config(metric: str, settings: dict[str, Any]) -> Any:
    """The configuration of ``metric`` from its :func:`_settings`: where the options' values
    meet the library's configuration classes and the files that METEOR's ``--resources`` and
    ``--params`` name are read. A value the configuration refuses is a usage error led by the
    option that gave it.

    Raises:
        ConfigError: a refused value, a ``--resources`` folder without its two files, an
            unreadable ``--params`` file.
        InputError: a ``--resources`` paraphrase table of bad content (a data error).
    """
    if metric != "meteor":  # each module imported only when its metric is asked for
        try:
            if metric == "bleu":
                from meteor_eval.metrics.bleu import BleuConfig

                return BleuConfig(**settings)
            from meteor_eval.metrics.rouge import RougeConfig

            return RougeConfig(**settings)
        except (TypeError, ValueError) as exc:
            raise ConfigError(_with_option(str(exc), metric)) from None
    from meteor_eval.metrics.meteor import MeteorConfig

    fields = dict(settings)
    folder, path = fields.pop("resources"), fields.pop("params")
    if folder is not None:
        from meteor_eval.errors import InputError
        from meteor_eval.universal import check_record_table, resource_files

        try:
            words, table = resource_files(folder)
        except InputError as exc:
            raise ConfigError(f"--resources: {exc}") from None
        try:
            check_record_table(table)
        except InputError as exc:  # bad content: a data error (exit 1)
            raise InputError(f"--resources: {exc}") from None
        fields.update(function_words_file=str(words), paraphrase_table=str(table))
    params: ParamsFile | None = None
    if path is not None:
        from meteor_eval.tuning.paramfile import read_params

        try:
            params = read_params(path)
        except ConfigError as exc:
            raise ConfigError(f"--params: {exc}") from None
    try:
        return MeteorConfig.preset(params=params, **fields)
    except ConfigError as exc:
        message = str(exc)
        if params is not None and params.source and message.startswith(f"{params.source}:"):
            raise ConfigError(f"--params: {message}") from None
        raise ConfigError(_with_option(message)) from None


# -- significance -----------------------------------------------------------------------------


def add_significance_options(parser: argparse.ArgumentParser) -> None:
    """Confidence intervals and paired tests against a baseline system."""
    group = parser.add_argument_group("significance")
    test = group.add_mutually_exclusive_group()
    test.add_argument(
        "--paired-bs",
        action="store_true",
        help="paired bootstrap resampling against the baseline (Koehn 2004), with intervals",
    )
    test.add_argument(
        "--paired-ar",
        action="store_true",
        help="paired approximate randomisation against the baseline (Riezler and Maxwell 2005)",
    )
    test.add_argument(
        "--ci",
        action="store_true",
        help="95%% confidence interval of each system's score (bootstrap), no paired test",
    )
    group.add_argument(
        "--n-samples",
        type=int,
        default=None,
        metavar="N",
        help="resamples (default 1000; 10000 for --paired-ar)",
    )
    group.add_argument("--seed", type=int, default=12345, help="random seed (default 12345)")
    group.add_argument(
        "--confidence", type=float, default=0.95, help="interval coverage (default 0.95)"
    )
    group.add_argument(
        "--baseline", metavar="NAME", help="the system the others are tested against (the first)"
    )


# -- options given on the command line, for re-scoring statistics -----------------------------

#: Per metric: option destination -> the configuration fields it sets.
_FIELDS_OF_OPTION: dict[str, dict[str, tuple[str, ...]]] = {
    "meteor": {
        "flavour": ("flavour",),
        "lang": ("language",),
        "task": ("task", "alpha", "beta", "gamma", "delta", "weights"),
        "norm": ("normalization",),
        "lower": ("normalization",),
        "no_punct": ("normalization",),
        "modules": ("modules",),
        "weights": ("weights",),
        "alpha": ("alpha",),
        "beta": ("beta",),
        "gamma": ("gamma",),
        "delta": ("delta",),
        "beam": ("beam",),
        "characters": ("characters",),
        "function_words": ("function_words_file",),
        "synonym_dir": ("synonym_dir",),
        "stem_table": ("stem_table",),
        "paraphrase_table": ("paraphrase_table",),
        "aggregate": ("aggregate",),
        "tokenizer": ("tokenizer",),
        "params": ("modules", "weights", "alpha", "beta", "gamma", "delta", "params_id"),
        "resources": (
            "language",
            "task",
            "normalization",
            "modules",
            "weights",
            "alpha",
            "beta",
            "gamma",
            "delta",
            "function_words_file",
            "paraphrase_table",
        ),
    },
    "bleu": {
        name: (name,)
        for name in (
            "tokenize",
            "smooth_method",
            "smooth_value",
            "lowercase",
            "effective_order",
            "max_ngram_order",
        )
    },
    "rouge": {
        "types": ("types",),
        "stemmer": ("use_stemmer",),
        "multi_ref": ("multi_ref",),
        "rouge_aggregate": ("aggregate",),
        "weight": ("weight",),
        "skip_distance": ("skip_distance",),
        "sentence_separator": ("sentence_separator",),
        "bootstrap": ("n_bootstrap",),
    },
}


def metrics_of(args: argparse.Namespace, names: Sequence[str]) -> list[Metric[Any]]:
    """The metrics ``names`` (of :data:`METRICS`, in that order) configured by the options:
    built here, where each metric's options are defined, so a scoring command hands its
    options over once for all its metrics. Every metric's options are read and checked
    first, then the configurations made and the metrics built. Each metric's module is
    imported only when it is asked for (a METEOR run does not load BLEU and ROUGE)."""
    settings = [_settings(args, name) for name in names]
    configs = [_config(name, read) for name, read in zip(names, settings, strict=True)]
    metrics: list[Metric[Any]] = []
    for name, config in zip(names, configs, strict=True):
        if name == "meteor":
            from meteor_eval.metrics.meteor import Meteor

            metrics.append(Meteor(config))
        elif name == "bleu":
            from meteor_eval.metrics.bleu import Bleu

            metrics.append(Bleu(config))
        else:
            from meteor_eval.metrics.rouge import Rouge

            metrics.append(Rouge(config))
    return metrics


def explicit_overrides(
    args: argparse.Namespace, explicit: set[str], metrics: Sequence[str]
) -> dict[str, dict[str, object]]:
    """Per metric, the configuration fields set by options given on the command line (not
    left at their defaults), with the values those options give."""
    out: dict[str, dict[str, object]] = {}
    for metric in metrics:
        fields = sorted(
            {
                f
                for dest, names in _FIELDS_OF_OPTION[metric].items()
                if dest in explicit
                for f in names
            }
        )
        if not fields:
            out[metric] = {}
            continue
        settings = _settings(args, metric)
        config = _config(metric, settings)
        out[metric] = {f: getattr(config, f) for f in fields}
    return out


def explicit_dests(
    parser: argparse.ArgumentParser,
    arguments: Sequence[str],
    parse: Callable[[argparse.ArgumentParser, Sequence[str]], argparse.Namespace],
) -> set[str]:
    """Destinations of the options given in ``arguments`` (parsing them again with ``parse``,
    the command line's parser call, and every default suppressed, so only what was typed
    remains)."""

    def suppress(p: argparse.ArgumentParser) -> None:
        for action in p._actions:
            action.default = argparse.SUPPRESS
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    suppress(sub)

    suppress(parser)
    return set(vars(parse(parser, arguments)))
