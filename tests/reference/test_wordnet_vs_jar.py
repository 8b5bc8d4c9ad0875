"""The METEOR 1.5 view of WordNet against the official jar's synonym files.

The jar (``meteor-1.5.jar`` shipped in PyPI ``pycocoevalcap`` 1.2) holds
``synonym/english.synsets`` (pairs of lines: word, then its synset offsets) and
``synonym/english.exceptions`` (pairs of lines: base form, then its inflected forms). When the jar
is installed both are read here and compared word by word with :func:`meteor_wordnet`.

The golden digests below run without the jar. They were computed from the jar's files with::

    python - <<'EOF'
    import hashlib, zipfile
    z = zipfile.ZipFile(".../pycocoevalcap/meteor/meteor-1.5.jar")
    # synsets: word -> set of ints; exceptions: inflected form -> set of bases
    ...
    print(hashlib.sha256(canonical_synsets(synsets)).hexdigest())
    print(hashlib.sha256(canonical_exceptions(exceptions)).hexdigest())
    EOF

using exactly the two ``canonical_*`` functions of this file (words sorted by Python string order,
offsets ascending in decimal, bases sorted and deduplicated, one tab-separated line each).
"""

from __future__ import annotations

import hashlib
import zipfile
from collections.abc import Mapping, Set
from pathlib import Path

import pytest

from meteor_eval.resources.synonyms import meteor_wordnet

GOLDEN_WORDS = 147_306
GOLDEN_EXCEPTION_FORMS = 5_940  # inflected forms; the jar's file lists 4,270 bases
GOLDEN_SYNSETS_SHA256 = "fe3e48510ea61552c2af9bce0f5801385aae20581773d646e5609817f9e0bd89"
GOLDEN_EXCEPTIONS_SHA256 = "b72d224855c197780d905aa0ecc5bf4209b8d5a8166f81f36d0ecc7c7ecbc9fc"


def canonical_synsets(synsets: Mapping[str, Set[int]]) -> bytes:
    return "".join(
        f"{word}\t{' '.join(map(str, sorted(synsets[word])))}\n" for word in sorted(synsets)
    ).encode("utf-8")


def canonical_exceptions(exceptions: Mapping[str, Set[str]]) -> bytes:
    return "".join(
        f"{form}\t{' '.join(sorted(exceptions[form]))}\n" for form in sorted(exceptions)
    ).encode("utf-8")


def ours() -> tuple[dict[str, frozenset[int]], dict[str, frozenset[str]]]:
    wordnet = meteor_wordnet()
    synsets = {word: wordnet.synsets(word) for word in wordnet.words()}
    exceptions = {form: frozenset(bases) for form, bases in wordnet.exceptions.items()}
    return synsets, exceptions


def read_jar(path: Path) -> tuple[dict[str, set[int]], dict[str, set[str]], int]:
    """The jar's two files, loaded as its ``SynonymDictionary`` loads them."""
    with zipfile.ZipFile(path) as jar:
        synset_lines = jar.read("synonym/english.synsets").decode("utf-8").split("\n")
        exception_lines = jar.read("synonym/english.exceptions").decode("utf-8").split("\n")
    synsets: dict[str, set[int]] = {}
    for word, offsets in zip(synset_lines[0::2], synset_lines[1::2], strict=False):
        synsets[word] = {int(offset) for offset in offsets.split()}  # a later entry replaces
    exceptions: dict[str, set[str]] = {}
    bases = exception_lines[0::2]
    for base, forms in zip(bases, exception_lines[1::2], strict=False):
        for form in forms.split():
            exceptions.setdefault(form, set()).add(base)
    return synsets, exceptions, len([base for base in bases if base])


def test_meteor_view_matches_golden_digests() -> None:
    synsets, exceptions = ours()
    assert len(synsets) == GOLDEN_WORDS
    assert len(exceptions) == GOLDEN_EXCEPTION_FORMS
    assert hashlib.sha256(canonical_synsets(synsets)).hexdigest() == GOLDEN_SYNSETS_SHA256
    assert hashlib.sha256(canonical_exceptions(exceptions)).hexdigest() == GOLDEN_EXCEPTIONS_SHA256


@pytest.mark.oracle
def test_meteor_view_equals_jar_word_by_word(jar_file: Path) -> None:
    jar_synsets, jar_exceptions, n_bases = read_jar(jar_file)
    synsets, exceptions = ours()
    assert len(jar_synsets) == GOLDEN_WORDS
    assert n_bases == 4_270
    words = jar_synsets.keys() | synsets.keys()
    differing = [word for word in words if jar_synsets.get(word) != synsets.get(word)]
    assert differing == []
    assert exceptions == {form: frozenset(bases) for form, bases in jar_exceptions.items()}
    # The golden digests are the jar's, not merely ours.
    assert hashlib.sha256(canonical_synsets(jar_synsets)).hexdigest() == GOLDEN_SYNSETS_SHA256
    assert hashlib.sha256(canonical_exceptions(jar_exceptions)).hexdigest() == (
        GOLDEN_EXCEPTIONS_SHA256
    )
