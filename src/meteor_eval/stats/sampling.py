"""The checks every resampling option passes, written once: the seed and the number of
resamples, for the significance tests (:mod:`meteor_eval.significance`), ROUGE's bootstrap
(:class:`~meteor_eval.metrics.rouge.RougeConfig`) and the command line's ``--seed``,
``--n-samples`` and ``--bootstrap``.

* A seed is an integer from 0 (NumPy's generators refuse a negative one with a traceback;
  Python's ``random`` would accept it: one rule for both) or ``None`` where fresh entropy is
  allowed.
* A percentile interval at confidence ``c`` from ``n`` resamples leaves
  ``floor(n * (1 - c) / 2)`` resamples outside each end. Below one, the "interval" is the
  range of a handful of resamples, and with one resample it is a single point that need not
  contain the score: at least ``ceil(2 / (1 - c))`` resamples are required (40 at 95%).
"""

from __future__ import annotations

import math

from meteor_eval.errors import ConfigError

__all__ = ["check_resamples", "check_seed", "min_resamples"]


def check_seed(name: str, seed: object, *, allow_none: bool = False) -> None:
    """Refuse a seed that is not an integer from 0 (``None`` too when ``allow_none``).

    Raises:
        ConfigError: naming ``name`` and the value.

    Example:
        >>> check_seed("seed", 7)
        >>> check_seed("--seed", -1)
        Traceback (most recent call last):
        ...
        meteor_eval.errors.ConfigError: --seed: -1 is invalid; allowed: an integer >= 0
    """
    if seed is None and allow_none:
        return
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        none = " or None" if allow_none else ""
        raise ConfigError(f"{name}: {seed!r} is invalid; allowed: an integer >= 0{none}")


def min_resamples(confidence: float) -> int:
    """The fewest resamples that leave one outside each end of a ``confidence`` interval.

    Example:
        >>> min_resamples(0.95), min_resamples(0.9), min_resamples(0.99)
        (40, 20, 200)
    """
    return math.ceil(2.0 / (1.0 - confidence) - 1e-9)


def check_resamples(name: str, n_samples: object, confidence: float) -> None:
    """Refuse a number of resamples too small for a ``confidence`` interval.

    Raises:
        ConfigError: not an integer, or below :func:`min_resamples` (both named).

    Example:
        >>> check_resamples("--n-samples", 40, 0.95)
        >>> try:
        ...     check_resamples("--n-samples", 1, 0.95)
        ... except ConfigError as exc:
        ...     print(str(exc).split(";")[0])
        --n-samples: 1 resample(s) cannot give a 95% interval
    """
    if isinstance(n_samples, bool) or not isinstance(n_samples, int):
        raise ConfigError(f"{name}: {n_samples!r} is invalid; allowed: an integer")
    least = min_resamples(confidence)
    if n_samples < least:
        raise ConfigError(
            f"{name}: {n_samples} resample(s) cannot give a {confidence * 100:g}% interval; "
            f"allowed: an integer >= {least} (one resample outside each end)"
        )
