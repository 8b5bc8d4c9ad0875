"""The matcher modules, declared once each: what the rest of the package knows about a module.

A declaration (:class:`MatcherModule`) gives a module's name and Eval ID short name, how it
matches (``build``: a factory that loads the resources it needs for a language and returns the
:class:`~meteor_eval.match.base.Matcher`), which resources it records in the signature, the
flavours that can run it, its default weight and whether the compiled pair kernel implements it.
Configuration validation, module-name parsing (API, command line, the jar's ``-m``), resource
loading, the Eval ID and signature, and the command line's list of modules all read this table,
so adding a module is one file in ``match/`` plus one :func:`register` call (an entry in
:data:`_BUILTIN` for a module the package ships)::

    register(MatcherModule("lowercase", "lc", build=lambda context: LowercaseMatcher()))

Factories import their matcher and resource modules when called, so reading the table loads
no resource.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from meteor_eval.errors import ConfigError
from meteor_eval.match.base import Matcher

__all__ = [
    "ALL_FLAVOURS",
    "MatcherContext",
    "MatcherModule",
    "get",
    "module_names",
    "parse_module_names",
    "register",
    "unregister",
]

#: The flavours a module may declare (``nltk`` runs NLTK's own three stages, never a matcher).
ALL_FLAVOURS = frozenset({"meteor15", "paper2005", "nltk"})


@dataclass(frozen=True, slots=True)
class MatcherContext:
    """The settings a module's factory and resource description may read.

    Attributes:
        flavour: ``"meteor15"`` or ``"paper2005"``.
        language: METEOR 1.5 long language name (``"english"``).
        language_code: Its short name (``"en"``).
        identity: Word identity used by the segments (Java's ``String.hashCode`` for
            ``meteor15``), for matchers that compare derived strings such as stems.
        stem_table: Lookup-table stemmer file, if configured.
        synonym_dir: Folder of synonym files in the jar's format, if configured.
        paraphrase_table: Paraphrase table path, if configured.
    """

    flavour: str
    language: str
    language_code: str
    identity: Callable[[str], int]
    stem_table: str | None = None
    synonym_dir: str | None = None
    paraphrase_table: str | None = None


def _no_resources(context: MatcherContext, matcher: Matcher) -> tuple[str, ...]:
    return ()


@dataclass(frozen=True, slots=True)
class MatcherModule:
    """One matcher module's declaration.

    Attributes:
        name: The module name used everywhere (``"stem"``), lower-case.
        short_name: Its abbreviation in the METEOR 1.5 Eval ID (``"st"``).
        build: Loads the module's resources for ``context`` and returns its matcher.
            Raises :class:`~meteor_eval.errors.ConfigError` when the language has no such
            resource (naming the option that would supply one).
        resources: Resource ids of a built matcher, recorded in the signature.
        default_weight: The module's weight where no task table gives one (the ``paper2005``
            preset, where every built-in match counts 1).
        flavours: The flavours that can run the module.
        compiled_kind: The module's code in the compiled METEOR 1.5 pair kernel, or ``None``
            when the kernel does not implement it (configurations using it then take the
            general path, with the same results).
    """

    name: str
    short_name: str
    build: Callable[[MatcherContext], Matcher]
    resources: Callable[[MatcherContext, Matcher], tuple[str, ...]] = _no_resources
    default_weight: float = 1.0
    flavours: frozenset[str] = frozenset({"meteor15", "paper2005"})
    compiled_kind: int | None = None


# -- the modules METEOR 1.5 ships -------------------------------------------------------------


def _build_exact(context: MatcherContext) -> Matcher:
    from meteor_eval.match.exact import ExactMatcher

    return ExactMatcher()


def _build_stem(context: MatcherContext) -> Matcher:
    from meteor_eval.match.stem import StemMatcher
    from meteor_eval.resources import stemmers

    if context.flavour == "paper2005":
        stem = stemmers.porter_stemmer()
    elif context.stem_table is not None:
        stem = stemmers.arabic_table_stemmer(context.stem_table)
    elif context.language == "arabic-buckwalter-reduced":
        raise ConfigError(
            "stem_table: the Arabic (ar-bw-red) stemmer is a lookup table; give its path "
            "(the jar's stem/arabic-buckwalter-reduced.gz)"
        )
    else:
        stem = stemmers.get_stemmer(context.language)
    return StemMatcher(stem, context.identity)


def _stem_resources(context: MatcherContext, matcher: Matcher) -> tuple[str, ...]:
    from meteor_eval.resources import stemmers

    if context.flavour != "meteor15":
        return (stemmers.porter_spec().short_id,)
    if context.stem_table is not None:
        return (stemmers.arabic_table_spec(context.stem_table).short_id,)
    return (stemmers.stemmer_spec(context.language).short_id,)


def _build_synonym(context: MatcherContext) -> Matcher:
    from meteor_eval.match.synonym import SynonymMatcher
    from meteor_eval.resources.wordnet import meteor_wordnet, meteor_wordnet_from_dir

    if context.synonym_dir is not None:
        wordnet = meteor_wordnet_from_dir(context.synonym_dir, context.language)
        return SynonymMatcher(wordnet.synonym_set)
    if context.language != "english":
        raise ConfigError(f"modules: no synonym data for {context.language}")
    return SynonymMatcher(meteor_wordnet().synonym_set)


def _synonym_resources(context: MatcherContext, matcher: Matcher) -> tuple[str, ...]:
    from meteor_eval.resources.wordnet import wordnet_spec

    if context.synonym_dir is not None:
        return (f"synonyms-dir:{context.synonym_dir}",)
    return (wordnet_spec().short_id,)


def _build_paraphrase(context: MatcherContext) -> Matcher:
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
    return ParaphraseMatcher(paraphrase_table(context.language_code, context.paraphrase_table))


def _paraphrase_resources(context: MatcherContext, matcher: Matcher) -> tuple[str, ...]:
    return (matcher.table.spec.short_id,)  # type: ignore[attr-defined]


_BUILTIN = (
    MatcherModule("exact", "ex", _build_exact, flavours=ALL_FLAVOURS, compiled_kind=0),
    MatcherModule(
        "stem", "st", _build_stem, _stem_resources, flavours=ALL_FLAVOURS, compiled_kind=1
    ),
    MatcherModule(
        "synonym",
        "sy",
        _build_synonym,
        _synonym_resources,
        flavours=ALL_FLAVOURS,
        compiled_kind=2,
    ),
    MatcherModule(
        "paraphrase",
        "pa",
        _build_paraphrase,
        _paraphrase_resources,
        flavours=frozenset({"meteor15"}),
        compiled_kind=3,
    ),
)

_MODULES: dict[str, MatcherModule] = {module.name: module for module in _BUILTIN}

#: The declarations of the modules METEOR 1.5 ships (any other was registered at run time).
BUILTIN_MODULES: tuple[MatcherModule, ...] = _BUILTIN


# -- the table --------------------------------------------------------------------------------


def register(module: MatcherModule, *, replace: bool = False) -> None:
    """Add a module (``replace``: also overwrite one of the same name).

    Raises:
        ConfigError: the name is taken, not lower-case or empty, or a flavour is unknown.
    """
    name = module.name
    if not name or name != name.strip().lower() or any(c in name for c in ", \t"):
        raise ConfigError(f"name: {name!r} is invalid; use a lower-case word")
    if name in _MODULES and not replace:
        raise ConfigError(f"name: a module {name!r} is already registered")
    unknown = module.flavours - ALL_FLAVOURS
    if unknown:
        raise ConfigError(f"flavours: {', '.join(sorted(unknown))} unknown")
    _MODULES[name] = module


def unregister(name: str) -> MatcherModule:
    """Remove a module and return its declaration.

    Raises:
        ConfigError: no module has that name.
    """
    module = get(name)
    del _MODULES[name]
    return module


def get(name: str) -> MatcherModule:
    """The declaration of a module.

    Raises:
        ConfigError: no module has that name (the known ones are listed).
    """
    module = _MODULES.get(name)
    if module is None:
        raise ConfigError(f"modules: {name!r} is unknown; allowed: {', '.join(_MODULES)}")
    return module


def module_names() -> tuple[str, ...]:
    """Every registered module name: METEOR 1.5's four first, in its order, then the others."""
    return tuple(_MODULES)


def parse_module_names(names: Iterable[str]) -> tuple[str, ...]:
    """Module names as typed (any case, surrounding spaces) -> registered names, in order.

    Raises:
        ConfigError: an unknown name (the known ones are listed).
    """
    parsed = tuple(name.strip().lower() for name in names)
    for name in parsed:
        get(name)
    return parsed
