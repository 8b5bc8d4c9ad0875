"""Where shipped data lives, how it is identified, and how it is loaded once.

Every linguistic resource is described by a :class:`ResourceSpec` (name, language, version,
checksum, licence); the spec's short id goes into score signatures so that a number can be traced
to the exact data that produced it. Loaders are wrapped with :func:`cached_loader`, which loads on
first use and then shares the same read-only object with every scorer in the process.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ParamSpec, TypeVar

from meteor_eval.errors import ResourceError

__all__ = ["ResourceSpec", "cached_loader", "data_file", "file_sha256"]

P = ParamSpec("P")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class ResourceSpec:
    """Identity of one linguistic resource.

    Attributes:
        name: Short name, e.g. ``"function-words"`` or ``"wordnet"``.
        language: Language code (``"en"``) or ``"*"`` for language-independent data.
        version: Version of the upstream data, e.g. ``"3.0"`` for WordNet.
        sha256: Hex digest of the file(s) as loaded.
        licence: SPDX-like licence name of the data.
    """

    name: str
    language: str
    version: str
    sha256: str
    licence: str

    @property
    def short_id(self) -> str:
        """``name-language-version-<first 8 hex digits of the checksum>``, used in signatures."""
        return f"{self.name}-{self.language}-{self.version}-{self.sha256[:8]}"


_DATA_ROOT = Path(__file__).resolve().parent / "data"


def data_file(*parts: str) -> Path:
    """Path of a file shipped in ``meteor_eval/resources/data``.

    Raises:
        ResourceError: if the file is not part of the installed package.
    """
    # The package is installed as files (the data is memory-mapped and read by path), so the
    # directory next to this module is the data root; importlib.resources would add ~5 ms of
    # imports to every start-up for the same answer.
    path = _DATA_ROOT.joinpath(*parts)
    if not path.is_file():
        raise ResourceError(
            f"shipped data file {'/'.join(parts)!r} is missing from the installed package "
            f"(looked in {path.parent}); reinstall meteor-eval"
        )
    return path


def file_sha256(path: Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def cached_loader(func: Callable[P, R]) -> Callable[P, R]:
    """Load a resource on first call and share the result afterwards (per argument tuple)."""
    return functools.cache(func)  # type: ignore[return-value]
