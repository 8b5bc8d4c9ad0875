"""The shipped WordNet files: the manifest, the resource's identity, and validated loading.

``data/wordnet/`` ships the two binary views (:data:`METEOR_BINARY_FILE`,
:data:`NLTK_BINARY_FILE`), ``manifest.json`` and the licence. The resource's canonical form is
three gzip'd text files (:data:`WORDNET_FILES`) that ``scripts/build_wordnet.py`` derives from
Debian's ``wordnet-base`` and turns into the binaries; only their SHA-256 digests ship
(``manifest.json``, ``text_form``). Those digests define the resource's identity in score
signatures (:func:`wordnet_spec`), and each binary must record the source digest they imply.

A binary that cannot be read, decompressed or validated raises :class:`ResourceError` naming the
file: nothing is shipped to rebuild it from. The unpacked copy kept in the cache (see
:func:`meteor_eval.resources.registry.unpacked_file`) is checked against the shipped file's
CRC32 on every read and unpacked again when it differs; it is also unpacked again once when
parsing it fails in any way, before that error.
"""

from __future__ import annotations

import lzma
import mmap
import struct
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Final, TypeVar

from meteor_eval.errors import ResourceError
from meteor_eval.resources.registry import (
    cached_loader,
    data_file,
    sha256,
    unpacked_file,
)
from meteor_eval.resources.wordnet.binary import (
    METEOR_BINARY_FILE,
    NLTK_BINARY_FILE,
    BinaryFormatError,
    MeteorSections,
    NltkSections,
    parse_meteor_binary,
    parse_nltk_binary,
    source_digest,
)

if TYPE_CHECKING:
    from meteor_eval.resources.registry import ResourceSpec

__all__ = [
    "WORDNET_FILES",
    "meteor_sections",
    "nltk_sections",
    "read_meteor_binary",
    "read_nltk_binary",
    "text_form_digests",
    "wordnet_spec",
]

#: The canonical text form of the resource (not shipped; ``scripts/build_wordnet.py --text``
#: writes it): ``index.tsv.gz``, ``synsets.tsv.gz`` and ``exceptions.tsv.gz``, whose SHA-256
#: digests ``manifest.json`` records under ``text_form``.
WORDNET_FILES: Final = ("index.tsv.gz", "synsets.tsv.gz", "exceptions.tsv.gz")

_REINSTALL: Final = "reinstall meteor-eval"

T = TypeVar("T")


@cached_loader
def text_form_digests() -> dict[str, str]:
    """File name -> SHA-256 (hex) of each file of :data:`WORDNET_FILES`, from the manifest.

    Raises:
        ResourceError: ``manifest.json`` is missing, unreadable or lacks a digest.
    """
    import json  # only here: the rest of the package never needs it

    path = data_file("wordnet", "manifest.json")
    try:
        listed = json.loads(path.read_text(encoding="utf-8"))["text_form"]
        digests = {name: str(listed[name]) for name in WORDNET_FILES}
        for digest in digests.values():
            bytes.fromhex(digest)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ResourceError(
            f"WordNet manifest {path} is damaged ({type(error).__name__}: {error}); {_REINSTALL}"
        ) from error
    return digests


@cached_loader
def wordnet_spec() -> ResourceSpec:
    """Identity of the shipped WordNet resource, for signatures.

    The checksum is the SHA-256 of the lines ``"<file name> <sha256 of the file>\\n"`` for the
    files of :data:`WORDNET_FILES` (the canonical text form), in that order.

    Example:
        >>> wordnet_spec().short_id
        'wordnet-en-3.0-6c86e36c'
    """
    digests = text_form_digests()
    listed = "".join(f"{name} {digests[name]}\n" for name in WORDNET_FILES)
    from meteor_eval.resources.registry import ResourceSpec  # on first use: a dataclass

    return ResourceSpec(
        name="wordnet",
        language="en",
        version="3.0",
        sha256=sha256(listed.encode()).hexdigest(),
        licence="WordNet-3.0",
    )


def _read(path: Path, parse: Callable[[bytes | mmap.mmap], T]) -> T:
    """``parse`` applied to the unpacked ``path``; the cached copy is unpacked again once."""
    reason = ""
    for refresh in (False, True):
        try:
            raw = unpacked_file(path, refresh=refresh, mapped=True)
        except (OSError, EOFError, zlib.error, lzma.LZMAError) as error:
            raise ResourceError(
                f"WordNet data file {path} cannot be read or decompressed "
                f"({type(error).__name__}: {error}); {_REINSTALL}"
            ) from error
        try:
            return parse(raw)
        except BinaryFormatError as error:
            reason = str(error)
        except (ValueError, LookupError, struct.error) as error:  # damage the checks missed
            reason = f"is damaged ({type(error).__name__}: {error})"
    raise ResourceError(f"WordNet data file {path} {reason}; {_REINSTALL}")


def read_meteor_binary(path: Path) -> MeteorSections:
    """The METEOR view held by the xz-compressed file ``path``, validated against the manifest.

    Raises:
        ResourceError: the file is missing, cannot be decompressed (truncated, checksum of the
            compressed data wrong), is not a METEOR view, or was built from other data.
    """
    digests = text_form_digests()
    expected = source_digest(digests["index.tsv.gz"], digests["exceptions.tsv.gz"])
    return _read(path, lambda raw: parse_meteor_binary(raw, expected))


def read_nltk_binary(path: Path) -> NltkSections:
    """The NLTK view held by the xz-compressed file ``path``, validated against the manifest.

    Raises:
        ResourceError: as :func:`read_meteor_binary`.
    """
    digests = text_form_digests()
    expected = source_digest(*(digests[name] for name in WORDNET_FILES))
    return _read(path, lambda raw: parse_nltk_binary(raw, expected))


@cached_loader
def meteor_sections() -> MeteorSections:
    """The shipped METEOR view's sections (loaded once)."""
    return read_meteor_binary(data_file("wordnet", METEOR_BINARY_FILE))


@cached_loader
def nltk_sections() -> NltkSections:
    """The shipped NLTK view's sections (loaded once)."""
    return read_nltk_binary(data_file("wordnet", NLTK_BINARY_FILE))
