"""Parameter files: what ``meteor-eval train`` writes and ``score --params FILE`` reads.

A JSON object::

    {"format": "meteor-eval-params", "version": 1, "name": "wmt21-da",
     "language": "english", "modules": ["exact", "stem", "synonym", "paraphrase"],
     "weights": [1.0, 0.6, 0.8, 0.6], "alpha": 0.85, "beta": 0.2, "gamma": 0.6, "delta": 0.75,
     "training": {...}}

``name`` through ``delta`` set the score; ``training`` (objective, optimiser, data, the
cross-validation folds) is a record for people and is not read back. A file's id is its name and
the first 8 hex digits of the SHA-256 of its scoring fields (``wmt21-da-1a2b3c4d``): two files
with the same name and different numbers get different ids, and the signature of a score names
the id, so a score says which parameters made it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from meteor_eval.errors import ConfigError
from meteor_eval.tuning.rescore import TuningParams

__all__ = ["FORMAT", "ParamsFile", "params_document", "read_params", "write_params"]

#: The ``format`` value of a parameter file.
FORMAT = "meteor-eval-params"
_VERSION = 1
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
_UNIT_FIELDS = ("alpha", "gamma", "delta")


@dataclass(frozen=True, slots=True)
class ParamsFile:
    """The scoring fields of a parameter file.

    Attributes:
        name: A short name (letters, digits, ``.``, ``_``, ``-``).
        language: METEOR language long name (``english``).
        modules: Matching stages, in order.
        params: alpha, beta, gamma, delta and one weight per module.
        source: The file it was read from (``None`` when built in memory), for messages;
            not part of the id.
    """

    name: str
    language: str
    modules: tuple[str, ...]
    params: TuningParams
    source: str | None = field(default=None, compare=False)

    @property
    def digest(self) -> str:
        """First 8 hex digits of the SHA-256 of the scoring fields, canonically written."""
        fields = _scoring_fields(self.name, self.language, self.modules, self.params)
        text = json.dumps(fields, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]

    @property
    def id(self) -> str:
        """``name-digest``: what the signature records."""
        return f"{self.name}-{self.digest}"


def _scoring_fields(
    name: str, language: str, modules: Sequence[str], params: TuningParams
) -> dict[str, Any]:
    return {
        "name": name,
        "language": language,
        "modules": list(modules),
        "weights": list(params.weights),
        "alpha": params.alpha,
        "beta": params.beta,
        "gamma": params.gamma,
        "delta": params.delta,
    }


def params_document(
    name: str,
    language: str,
    modules: Sequence[str],
    params: TuningParams,
    training: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON object of a parameter file (checked as :func:`read_params` checks it)."""
    doc = {"format": FORMAT, "version": _VERSION}
    doc.update(_scoring_fields(name, language, modules, params))
    _check_document(doc, "parameters")
    doc["training"] = dict(training or {})
    return doc


def write_params(path: str | Path, document: Mapping[str, Any]) -> None:
    """Write a parameter file (indented JSON, UTF-8, a final newline)."""
    Path(path).write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", "utf-8")


def _field(doc: Mapping[str, Any], name: str, where: str) -> Any:
    if name not in doc:
        raise ConfigError(f"{where}: field {name!r} is missing")
    return doc[name]


def _real(doc: Mapping[str, Any], name: str, where: str, upper: float | None) -> float:
    value = _field(doc, name, where)
    ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    if not ok or value < 0 or (upper is not None and value > upper):
        allowed = f"in [0, {upper:g}]" if upper is not None else ">= 0"
        raise ConfigError(f"{where}: field {name!r} must be a number {allowed}, not {value!r}")
    return float(value)


def _check_document(doc: Mapping[str, Any], where: str) -> ParamsFile:
    if _field(doc, "format", where) != FORMAT:
        raise ConfigError(f"{where}: field 'format' must be {FORMAT!r}, not {doc['format']!r}")
    if _field(doc, "version", where) != _VERSION:
        raise ConfigError(f"{where}: field 'version' must be {_VERSION}, not {doc['version']!r}")
    name = _field(doc, "name", where)
    if not isinstance(name, str) or not _NAME.match(name):
        raise ConfigError(
            f"{where}: field 'name' must be 1-64 letters, digits, '.', '_' or '-', not {name!r}"
        )
    language = _field(doc, "language", where)
    if not isinstance(language, str):
        raise ConfigError(f"{where}: field 'language' must be a language name, not {language!r}")
    modules = _field(doc, "modules", where)
    if not isinstance(modules, list) or not modules or not all(isinstance(m, str) for m in modules):
        raise ConfigError(f"{where}: field 'modules' must be a list of module names")
    weights = _field(doc, "weights", where)
    if not isinstance(weights, list) or len(weights) != len(modules):
        raise ConfigError(
            f"{where}: field 'weights' must be a list of {len(modules)} numbers (one per module)"
        )
    for k, w in enumerate(weights):
        _real({f"weights[{k}]": w}, f"weights[{k}]", where, 1.0)
    numbers = {
        n: _real(doc, n, where, 1.0 if n in _UNIT_FIELDS else None)
        for n in ("alpha", "beta", "gamma", "delta")
    }
    params = TuningParams(weights=tuple(float(w) for w in weights), **numbers)
    return ParamsFile(name, language, tuple(modules), params)


def read_params(path: str | Path) -> ParamsFile:
    """Read and check a parameter file.

    Raises:
        ConfigError: an unreadable file, invalid JSON, or a field that is missing or out of
            range; the message names the file and the field.
    """
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{file}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{file}: cannot be read ({exc})") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{file}: not valid JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(doc, dict):
        raise ConfigError(f"{file}: a JSON {type(doc).__name__}, not an object")
    return dataclasses.replace(_check_document(doc, str(file)), source=str(file))
