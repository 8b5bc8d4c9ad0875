"""Public names of a package imported from their modules when first used (PEP 562).

A package whose ``__init__`` re-exports names from several modules would otherwise import all
of them, and what they import, on its own import: a run that needs one of them (the NLTK
flavour needs the NLTK WordNet view only) would pay for every other. With :func:`lazy_names`
the package lists which module defines each name; the module is imported, and the name kept in
the package's namespace, on the first access. A module serves itself the same way where one of
its records is made only by some runs (``Segment``, ``Alignment``, ``Significance``,
``ResourceSpec``: a dataclass compiles its methods when its class is made).

:func:`lazy_pattern` does the same for a regular expression that only some runs use: the
pure-Python normaliser's large character classes and the stem tables' Java patterns take
milliseconds to compile, which every start-up would otherwise pay.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from typing import Any, cast

__all__ = ["lazy_names", "lazy_pattern"]


def lazy_names(
    package: str, namespace: dict[str, Any], modules: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` of ``package`` (whose ``globals()`` is
    ``namespace``) for the names of ``modules`` (public name -> the module defining it)."""

    def attribute(name: str) -> Any:
        module = modules.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def names() -> list[str]:
        return sorted(set(namespace) | set(modules))

    return attribute, names


class _LazyPattern:
    """A regular expression compiled on its first use; attribute access is the pattern's."""

    __slots__ = ("_args", "_pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._args = (pattern, flags)
        self._pattern: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        compiled = self._pattern
        if compiled is None:
            compiled = self._pattern = re.compile(*self._args)
        return getattr(compiled, name)


def lazy_pattern(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)`` deferred to the first use, typed as the pattern it stands
    for."""
    return cast("re.Pattern[str]", _LazyPattern(pattern, flags))
