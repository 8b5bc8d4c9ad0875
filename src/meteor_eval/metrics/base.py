"""What every metric returns: a score plus the signature that makes it reproducible.

A :class:`Signature` is an ordered list of ``key:value`` fields, always ending with the package
version, in a long form (full key names) and a short form (abbreviated keys), in the spirit of
sacrebleu's signatures. Two scores with equal signatures were computed the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Literal, TypeVar

from meteor_eval._version import __version__
from meteor_eval.errors import InputError

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = [
    "Score",
    "Signature",
    "SignatureField",
    "check_corpus",
    "check_segment",
    "config_from",
    "format_number",
]

_ConfigT = TypeVar("_ConfigT", bound="DataclassInstance")


def format_number(value: float) -> str:
    """Format a parameter for a signature: shortest round-trip text, ``1.0`` rather than ``1``."""
    text = repr(float(value))
    return text


def config_from(config_type: type[_ConfigT], options: Mapping[str, object]) -> _ConfigT:
    """A ``config_type`` built from the entries of ``options`` that name its fields.

    What a function whose keyword options are a configuration's fields (``corpus_bleu``,
    ``segment_rouge``) passes on from its ``locals()``: one place maps the options to the
    configuration, whose own checks then apply; the other entries (the hypotheses, ``jobs``)
    are not the configuration's and are left out.
    """
    names = {item.name for item in fields(config_type)}
    return config_type(**{name: value for name, value in options.items() if name in names})


@dataclass(frozen=True, slots=True)
class SignatureField:
    """One ``key:value`` entry of a signature, with its long and short key."""

    key: str
    short: str
    value: str


@dataclass(frozen=True, slots=True)
class Signature:
    """Every setting that determines a score, in a fixed order, version last.

    Attributes:
        metric: Metric name, e.g. ``"meteor"``, ``"bleu"``, ``"rouge1"``.
        fields: The settings, in the order they are printed.
        version: meteor-eval version that computed the score.
    """

    metric: str
    fields: tuple[SignatureField, ...]
    version: str = field(default=__version__)

    def format(self, *, short: bool = False) -> str:
        """Render as ``metric|key:value|...|version:X`` (short keys with ``short=True``)."""
        parts = [self.metric]
        for item in self.fields:
            parts.append(f"{item.short if short else item.key}:{item.value}")
        parts.append(f"{'v' if short else 'version'}:{self.version}")
        return "|".join(parts)

    def __str__(self) -> str:
        return self.format()

    def as_dict(self) -> dict[str, str]:
        """Long keys to values, version included, in order."""
        out = {"metric": self.metric}
        out.update((item.key, item.value) for item in self.fields)
        out["version"] = self.version
        return out

    def get(self, key: str) -> str | None:
        """Value of a long or short key, or ``None``."""
        for item in self.fields:
            if key in (item.key, item.short):
                return item.value
        return None


@dataclass(frozen=True, slots=True)
class Score:
    """A score with the signature of the settings that produced it."""

    score: float
    signature: Signature

    def __float__(self) -> float:
        return self.score

    def format(self, *, short: bool = False, width: int | None = None) -> str:
        """``<score> <signature>``, the score to ``width`` decimals or at full precision."""
        number = repr(self.score) if width is None else f"{self.score:.{width}f}"
        return f"{number} {self.signature.format(short=short)}"


Aggregate = Literal["pooled", "mean"]


def check_corpus(hypotheses: object, references: object) -> None:
    """Reject a bare string or a non-sequence, and differing numbers of segments.

    Raises:
        TypeError: ``hypotheses`` or ``references`` is a bare ``str`` or not a sequence.
        InputError: the numbers of hypotheses and reference groups differ (both are named).
    """
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
        raise TypeError(
            "hypotheses: expected a sequence of strings, got a bare string or non-sequence"
        )
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError(
            "references: expected a sequence (one per hypothesis) of sequences of strings"
        )
    if len(hypotheses) != len(references):
        raise InputError(
            f"{len(hypotheses)} hypotheses but {len(references)} reference groups; "
            "references[i] must hold the references of hypothesis i"
        )


def check_segment(index: int, hypothesis: object, references: object) -> None:
    """Reject a non-string hypothesis, a bare-string reference group, or an empty group.

    Raises:
        TypeError: wrong types (a bare ``str`` where a sequence of references is expected).
        InputError: the segment has no reference.
    """
    if not isinstance(hypothesis, str):
        raise TypeError(f"hypothesis {index}: expected a string, got {type(hypothesis).__name__}")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError(
            f"references of segment {index}: expected a sequence of strings, got "
            f"{'a bare string' if isinstance(references, str) else type(references).__name__}"
        )
    if not references:
        raise InputError(f"segment {index} has no reference")
    for ref in references:
        if not isinstance(ref, str):
            raise TypeError(
                f"references of segment {index}: expected strings, got {type(ref).__name__}"
            )
