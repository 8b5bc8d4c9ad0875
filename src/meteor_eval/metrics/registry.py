"""The metric families by name, for what refers to a metric by name (statistics files, the
command line, the comparison API). Imports are lazy, so naming one metric loads only it."""

from __future__ import annotations

import importlib
from typing import Any

from meteor_eval.errors import ConfigError
from meteor_eval.metrics.protocol import Metric

__all__ = ["METRIC_NAMES", "metric_class"]

#: Metric family name -> (module, class).
_METRICS = {
    "meteor": ("meteor_eval.metrics.meteor", "Meteor"),
    "bleu": ("meteor_eval.metrics.bleu", "Bleu"),
    "rouge": ("meteor_eval.metrics.rouge", "Rouge"),
}

#: Every metric family name, in the order outputs list them.
METRIC_NAMES: tuple[str, ...] = tuple(_METRICS)


def metric_class(name: str) -> type[Metric[Any]]:
    """The metric class of a family name.

    Raises:
        ConfigError: an unknown name (the known ones are listed).
    """
    try:
        module, attribute = _METRICS[name]
    except KeyError:
        raise ConfigError(f"unknown metric {name!r}; allowed: {', '.join(METRIC_NAMES)}") from None
    cls: type[Metric[Any]] = getattr(importlib.import_module(module), attribute)
    return cls
