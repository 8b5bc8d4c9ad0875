"""The jar's option resolution (spec 2.3 to 2.5): options -> settings, header and Eval ID.

``meteor-1.5.jar`` collects every option first and then applies them in a fixed order, whatever
their order on the command line:

1. English, task ``rank``;
2. ``-l``: the language and its default task (parameters, modules, weights; character mode off);
3. ``-t``: the task's parameters, default modules and weight table (cut to the number of modules);
   character mode := task is ``util``. If ``-p`` occurs anywhere, the task is ``custom``;
4. ``-p``: the parameters (all numbers given; the scorer uses the first four);
5. ``-w``: the weight list (any length);
6. ``-m``: the module list, then the weights are resized to it (kept by position, padded with 0);
7. ``-x``: beam size; 8. ``-s``, ``-d``, ``-a``: resources; 9. normalisation from
   ``-norm``/``-lower``/``-noPunct``;
10. character mode := ``-ch`` given (so ``-t util`` alone is word-based);
    the function-word list is English's unless ``-s`` is given, whatever ``-l`` says (the jar
    sets it before reading ``-l`` and never updates it);
11. ``-new dir``: language ``other``, task ``universal``, ``dir/function.words``,
    ``dir/paraphrase.gz`` and lower-casing, overriding everything above.

``-p``, ``-w`` and ``-m`` make the task ``custom`` (``Task: Custom``).

Differences from the jar (it would crash, or compute with values METEOR cannot mean):

* fewer than four parameters, more weights than modules, an empty module list, a beam below 1:
  the jar prints its header and then dies with an index or argument exception; we print the
  header and a one-line error (exit status 1).
* ``alpha``, ``gamma`` or ``delta`` outside [0, 1], a negative ``beta`` or weight, or NaN: the
  jar computes meaningless scores; we print the header and a one-line error (exit status 1).

Like the jar, and unlike the native commands and API, weights above 1 (scores can then exceed
1) and fewer weights than modules (the others count nothing, with the jar's warning) are taken:
the configuration is built with ``jar_weights=True`` so that output stays byte-identical.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from typing import Final, TextIO

from meteor_eval.errors import ConfigError
from meteor_eval.jar.options import JarExitError, JarOptions
from meteor_eval.javafmt import java_double
from meteor_eval.match import registry as matchers
from meteor_eval.metrics.meteor import MeteorConfig, Normalization
from meteor_eval.metrics.meteor.presets import (
    JAR_TASKS,
    NORMALIZATION_LABELS,
    NORMALIZED_LANGUAGES,
    TASK_DESCRIPTIONS,
    Language,
    resolve_language,
    task_settings,
)
from meteor_eval.resources.registry import data_file
from meteor_eval.text.tokenize import java_split, java_trim

__all__ = [
    "JarConfigError",
    "JarSettings",
    "parse_java_double",
    "parse_java_int",
    "resolve_settings",
]

_JAVA_DECIMAL: Final = re.compile(
    r"[+-]?(?:NaN|Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[fFdD]?)"
)
_JAVA_HEX: Final = re.compile(
    r"([+-]?)0[xX]((?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+)[fFdD]?"
)
_JAVA_INT: Final = re.compile(r"[+-]?[0-9]+")

_SUPPORTED: Final = NORMALIZED_LANGUAGES  # languages whose default task is rank


class JarConfigError(JarExitError):
    """A setting the jar rejects or crashes on; the message is one line for stderr (exit 1)."""


def report_failure(exc: Exception, out: TextIO, err: TextIO) -> int:
    """Write a run's failure as the jar-compatible commands do and return their status, 1: a
    :class:`JarConfigError` is the jar's own message, any other error one ``Error: ...`` line
    (after what was already written to ``out``)."""
    out.flush()
    err.write(f"{exc}\n" if isinstance(exc, JarConfigError) else f"Error: {exc}\n")
    return 1


def parse_java_double(text: str) -> float:
    """``Double.parseDouble``: decimal, ``NaN``, ``Infinity``, hex, optional ``f``/``d`` suffix.

    Raises:
        JarConfigError: not a number in Java's syntax.

    Example:
        >>> parse_java_double("0.5f"), parse_java_double(".5"), parse_java_double("1e1")
        (0.5, 0.5, 10.0)
    """
    s = java_trim(text)
    if _JAVA_DECIMAL.fullmatch(s):
        body = s.rstrip("fFdD") if not s.endswith("Infinity") else s
        return float(body.replace("Infinity", "inf"))
    hexa = _JAVA_HEX.fullmatch(s)
    if hexa:
        value = float.fromhex("0x" + hexa.group(2))
        return -value if hexa.group(1) == "-" else value
    raise JarConfigError(f'Error: not a number: "{text}"')


def parse_java_int(text: str, *, option: str) -> int:
    """``Integer.parseInt``: optional sign, decimal digits, 32-bit range.

    Raises:
        JarConfigError: not an integer (the jar dies with a NumberFormatException).
    """
    if _JAVA_INT.fullmatch(text):
        value = int(text)
        if -(2**31) <= value < 2**31:
            return value
    raise JarConfigError(f'Error: {option} needs an integer, got "{text}"')


@dataclass(frozen=True, slots=True)
class JarSettings:
    """Everything the jar derives from its options before scoring.

    Attributes:
        language: The language record.
        task: Task name (``rank``, ..., ``custom``).
        parameters: Every ``-p`` number (or the task's four).
        modules: Module names, in stage order.
        weights: Weights by stage position (any length).
        beam: Beam size.
        normalization: ``none``, ``lower``, ``norm`` or ``norm_nopunct``.
        char_based: Character-based precision and recall.
        function_words_file: ``-s`` (or ``-new``'s ``function.words``).
        synonym_dir: ``-d``.
        paraphrase_file: ``-a`` (or ``-new``'s ``paraphrase.gz``).
    """

    language: Language
    task: str
    parameters: tuple[float, ...]
    modules: tuple[str, ...]
    weights: tuple[float, ...]
    beam: int
    normalization: Normalization
    char_based: bool
    function_words_file: str | None
    synonym_dir: str | None
    paraphrase_file: str | None

    @property
    def task_description(self) -> str:
        """The ``Task:`` header value."""
        return TASK_DESCRIPTIONS[self.task]

    @property
    def eval_id(self) -> str:
        """The jar's Eval ID (spec 2.5)."""
        return "-".join(
            (
                "meteor-1.5",
                "ch" if self.char_based else "wo",
                self.language.short_name,
                NORMALIZATION_LABELS[self.normalization],
                "_".join(java_double(p) for p in self.parameters),
                "_".join(matchers.get(m).short_name for m in self.modules),
                "_".join(java_double(w) for w in self.weights),
            )
        )

    def header(self, *, sgml: bool) -> str:
        """The header printed before scoring (spec 1.1), ending with its blank line."""
        name = self.language.long_name
        lines = [
            "Meteor version: 1.5",
            "",
            f"Eval ID:        {self.eval_id}",
            "",
            f"Language:       {name[:1].upper()}{name[1:]}",
            f"Format:         {'SGML' if sgml else 'plaintext'}",
            f"Task:           {self.task_description}",
            f"Modules:        {' '.join(self.modules)}",
            f"Weights:        {' '.join(java_double(w) for w in self.weights)}",
            f"Parameters:     {' '.join(java_double(p) for p in self.parameters)}",
            "",
        ]
        return "\n".join(lines) + "\n"

    def meteor_config(self) -> MeteorConfig:
        """The scorer's configuration.

        Raises:
            JarConfigError: settings the jar crashes on or that METEOR cannot mean (see module
                docstring); the message is one line.
        """
        if len(self.parameters) < 4:
            raise JarConfigError(
                f"Error: -p needs 4 parameters (alpha beta gamma delta), got {len(self.parameters)}"
            )
        if self.normalization.startswith("norm") and self.language.long_name not in _SUPPORTED:
            raise JarConfigError(
                "Error: Pre-process the input files and run Meteor without the -norm option."
                f" (No normalizer for language ({self.language.long_name}))"
            )
        if len(self.weights) > len(self.modules):
            raise JarConfigError(
                f"Error: {len(self.weights)} weights for {len(self.modules)} modules; give at most"
                " one weight per module (-w)"
            )
        if self.beam < 1:
            raise JarConfigError(f"Error: beam size (-x) must be at least 1, got {self.beam}")
        alpha, beta, gamma, delta = self.parameters[:4]
        for name, value in (("alpha", alpha), ("gamma", gamma), ("delta", delta)):
            if not 0.0 <= value <= 1.0:
                raise JarConfigError(f"Error: {name} (-p) must be in [0, 1], got {value}")
        if not beta >= 0.0 or math.isinf(beta):
            raise JarConfigError(f"Error: beta (-p) must be a finite number >= 0, got {beta}")
        for k, weight in enumerate(self.weights):
            if not 0.0 <= weight < math.inf:
                raise JarConfigError(
                    f"Error: weight {k + 1} (-w) must be a finite number >= 0, got {weight}"
                )
        try:
            return MeteorConfig(
                flavour="meteor15",
                language=self.language.long_name,
                task=self.task,
                normalization=self.normalization,
                modules=self.modules,
                weights=self.weights,
                alpha=alpha,
                beta=beta,
                gamma=gamma,
                delta=delta,
                beam=self.beam,
                characters=self.char_based,
                function_words_file=self.function_words_file,
                synonym_dir=self.synonym_dir,
                paraphrase_table=self.paraphrase_file,
                jar_weights=True,
            )
        except (ConfigError, TypeError) as exc:
            raise JarConfigError(f"Error: {exc}") from None


def _language(code: str) -> Language:
    try:
        return resolve_language(code)
    except ConfigError:
        raise JarConfigError(f"Error: Unknown language ({code})") from None


def _task_id(name: str) -> str:
    # Constants.getTaskID: lower-cased, exact names, or any name starting with "custom".
    lowered = name.lower()
    if lowered == "default":
        return "rank"
    if lowered in JAR_TASKS and lowered != "custom":  # not meteor-eval's own "da"
        return lowered
    if lowered.startswith("custom"):
        return "custom"
    raise JarConfigError(f"Error: Unknown task ({name})")


def _numbers(text: str) -> tuple[float, ...]:
    return tuple(parse_java_double(token) for token in java_split(text))


def resolve_settings(options: JarOptions) -> JarSettings:
    """Apply the options in the jar's fixed order (module docstring).

    Raises:
        JarConfigError: an unknown language, task or module, or a malformed number (the jar
            dies with a RuntimeException or NumberFormatException before printing anything).
    """
    language = resolve_language("english")
    if options.language is not None:
        language = _language(options.language)
    task = "rank" if language.long_name in _SUPPORTED else "li"
    if options.parameters is not None:
        task = "custom"
    elif options.task is not None:
        task = _task_id(options.task)
    settings = task_settings(language, task)
    parameters: tuple[float, ...] = (
        settings.alpha,
        settings.beta,
        settings.gamma,
        settings.delta,
    )
    modules = settings.modules
    weights = settings.weights
    if options.parameters is not None:
        parameters = _numbers(options.parameters)
        task = "custom"
    if options.weights is not None:
        weights = _numbers(options.weights)
        task = "custom"
    if options.modules is not None:
        known = matchers.module_names()
        names = []
        for token in java_split(options.modules):
            name = token.lower()  # the jar lower-cases, and only that (no trimming)
            if name not in known:
                raise JarConfigError(f"Error: Unknown module ({token})")
            names.append(name)
        modules = tuple(names)
        weights = tuple(weights[k] if k < len(weights) else 0.0 for k in range(len(modules)))
        task = "custom"
    beam = 40 if options.beam is None else parse_java_int(options.beam, option="-x")
    # The jar sets its function-word file once, for English, and -l never changes it: every
    # language without -s (or -new) uses english.words (checked with the jar: `-l fr -ssOut` on
    # "le la de the of" counts 2 function words, "the" and "of").
    function_words_file = options.word_file
    if function_words_file is None:
        function_words_file = str(data_file("function", "english.words"))
    paraphrase_file = options.paraphrase_file
    normalization: Normalization = "none"
    if options.norm:
        normalization = "norm_nopunct" if options.no_punct else "norm"
    elif options.lower:
        normalization = "lower"
    char_based = options.char_based
    if options.new_language_dir is not None:
        language = resolve_language("other")
        universal = task_settings(language, "universal")
        task = "universal"
        parameters = (universal.alpha, universal.beta, universal.gamma, universal.delta)
        modules = universal.modules
        weights = universal.weights
        char_based = False
        function_words_file = os.path.join(options.new_language_dir, "function.words")
        paraphrase_file = os.path.join(options.new_language_dir, "paraphrase.gz")
        normalization = "lower"
    return JarSettings(
        language=language,
        task=task,
        parameters=parameters,
        modules=modules,
        weights=weights,
        beam=beam,
        normalization=normalization,
        char_based=char_based,
        function_words_file=function_words_file,
        synonym_dir=options.synonym_dir,
        paraphrase_file=paraphrase_file,
    )
