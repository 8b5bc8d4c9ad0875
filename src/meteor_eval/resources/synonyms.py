"""WordNet 3.0 for the synonym matchers (moved to :mod:`meteor_eval.resources.wordnet`).

This module keeps the old import path working; new code imports from the package.
"""

from __future__ import annotations

from typing import Any

from meteor_eval.resources import wordnet as _wordnet

__all__ = _wordnet.__all__


def __getattr__(name: str) -> Any:
    """The package's name of the same name (every name of ``__all__``)."""
    if name in __all__:
        return getattr(_wordnet, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
