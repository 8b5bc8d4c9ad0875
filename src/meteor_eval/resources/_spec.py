"""The identity record of a linguistic resource, :class:`ResourceSpec`.

It is a dataclass, and making one runs :mod:`dataclasses` (whose import, with :mod:`inspect`,
costs about as much as the rest of a small run's imports), so it lives apart from
:mod:`meteor_eval.resources.registry`, which gives it as ``registry.ResourceSpec`` on first use:
a run that never asks for a resource's identity (the NLTK flavour's scores) does not load it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ResourceSpec"]


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
