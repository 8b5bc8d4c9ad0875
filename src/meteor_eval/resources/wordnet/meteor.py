"""The METEOR 1.5 jar's view of WordNet 3.0, and the jar's ``-d`` folder variant.

:class:`MeteorWordNet` reproduces the official METEOR 1.5 jar's synonym module
(``SynonymDictionary`` over ``synonym/english.synsets`` and ``synonym/english.exceptions``): a
word maps to the set of its synset offsets as plain integers, all parts of speech mixed (a noun
and a verb synset with the same byte offset count as the same set), and
:meth:`MeteorWordNet.synonym_set` computes the spec's S(t) = synsets(t) ∪ baseSynsets(t) with
the jar's exception lookup and its 20 suffix rules. Lookups are case-sensitive, as in the jar.
The word -> offset sets equal the jar's for all 147,306 words (tested).

The shipped data is read from the binary METEOR view (:data:`METEOR_BINARY_FILE`), which holds
each key's synsets and precomputed S(t); the exception lists themselves, needed only by
:attr:`MeteorWordNet.exceptions`, come from the NLTK view, which keeps their text.
:func:`meteor_wordnet_from_dir` reads a folder in the jar's own format instead.

Where we differ from the jar: nothing in the results. The jar builds its table from
``index.sense``; we ship one derived copy (see :mod:`meteor_eval.resources.wordnet`).
"""

from __future__ import annotations

import functools
import mmap
import zlib
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Final

from meteor_eval._ext import compiled_function
from meteor_eval.errors import ResourceError
from meteor_eval.resources.packed_sets import cached_packed_sets
from meteor_eval.resources.registry import cached_loader
from meteor_eval.resources.wordnet.binary import METEOR_BINARY_FILE, MeteorSections
from meteor_eval.resources.wordnet.keytable import KeyTable
from meteor_eval.resources.wordnet.morphy import ADJ_RULES, NOUN_RULES, VERB_RULES
from meteor_eval.resources.wordnet.shipped import meteor_sections, nltk_sections

__all__ = [
    "METEOR_BINARY_FILE",
    "METEOR_MORPH_RULES",
    "MeteorWordNet",
    "meteor_exceptions",
    "meteor_wordnet",
    "meteor_wordnet_from_dir",
]

#: The jar's morphological rules (suffix, replacement), tried in this order (spec §3.3): the noun,
#: verb and adjective rules of WordNet's morphy concatenated, with ``s -> ""`` and
#: ``ies -> y`` appearing twice.
METEOR_MORPH_RULES: Final[tuple[tuple[str, str], ...]] = (
    *NOUN_RULES,
    *VERB_RULES,
    *ADJ_RULES,
)


_EMPTY_OFFSETS: Final[frozenset[int]] = frozenset()
# Per-token results are cached; the bound keeps memory flat on endless vocabularies.
_CACHE_SIZE: Final = 1 << 20


def _utf16_length_at_most_2(token: str) -> bool:
    # Java's String.length() counts UTF-16 units: a non-BMP character counts twice.
    if len(token) > 2:
        return False
    return len(token) + sum(1 for char in token if ord(char) > 0xFFFF) <= 2


def _rules_by_last_char(
    rules: Iterable[tuple[str, str]],
) -> dict[str, tuple[tuple[str, int, str], ...]]:
    """Suffix rules grouped by the suffix's last character, order kept, repeats dropped.

    A word can only match rules whose suffix ends in its own last character, so grouping skips
    the other rules without changing which rule is first to match; a repeated rule yields the
    same candidate as its first occurrence and is dropped.
    """
    grouped: dict[str, list[tuple[str, int, str]]] = {}
    seen: set[tuple[str, str]] = set()
    for suffix, replacement in rules:
        if (suffix, replacement) not in seen:
            seen.add((suffix, replacement))
            grouped.setdefault(suffix[-1], []).append((suffix, len(suffix), replacement))
    return {last: tuple(group) for last, group in grouped.items()}


_METEOR_RULES_BY_LAST: Final = _rules_by_last_char(METEOR_MORPH_RULES)


class MeteorWordNet:
    """The METEOR 1.5 jar's view of WordNet: words -> integer synset sets, plus exceptions.

    Obtain the shared instance with :func:`meteor_wordnet`. It is read-only and pickles as a
    reference to the shared instance (a worker process loads its own copy once).

    Example:
        >>> wn = meteor_wordnet()
        >>> bool(wn.synonym_set("big") & wn.synonym_set("large"))
        True
        >>> wn.morph("churches"), wn.morph("class"), wn.morph("handful")
        ('church', 'class', '')
    """

    __slots__ = ("_exception_table", "_exceptions_loader", "_packed", "_synonym_set", "_synsets")

    _synsets: Mapping[str, tuple[int, ...]]

    def __init__(
        self,
        synsets: Mapping[str, tuple[int, ...]],
        exceptions: Mapping[str, tuple[str, ...]] | Callable[[], Mapping[str, tuple[str, ...]]],
    ) -> None:
        """Wrap the two tables; use :func:`meteor_wordnet` for the shipped data.

        Args:
            synsets: Word -> its synset offsets (all parts of speech).
            exceptions: Inflected form -> its base forms, or a function returning them on
                first use (the binary table already folds the exceptions into its synonym
                sets, so the lists are parsed only if asked for).
        """
        self._synsets = synsets if isinstance(synsets, _SynsetTable) else dict(synsets)
        self._exception_table: dict[str, tuple[str, ...]] | None = None
        self._exceptions_loader: Callable[[], Mapping[str, tuple[str, ...]]] | None = None
        if callable(exceptions):
            self._exceptions_loader = exceptions
        else:
            self._exception_table = dict(exceptions)
        self._synonym_set = functools.lru_cache(maxsize=_CACHE_SIZE)(self._compute_synonym_set)
        self._packed: dict[str, bytes] = {}

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return (meteor_wordnet, ())

    def __len__(self) -> int:
        """Number of words with synsets (147,306 for the shipped data)."""
        return len(self._synsets)

    def __contains__(self, word: object) -> bool:
        return word in self._synsets

    def words(self) -> Iterable[str]:
        """Every word of the table (lower case, multiword entries joined by ``_``)."""
        return self._synsets.keys()

    @property
    def _exceptions(self) -> dict[str, tuple[str, ...]]:
        table = self._exception_table
        if table is None:
            assert self._exceptions_loader is not None
            table = self._exception_table = dict(self._exceptions_loader())
        return table

    @property
    def exceptions(self) -> Mapping[str, tuple[str, ...]]:
        """Inflected form -> base forms (sorted, deduplicated) from WordNet's ``*.exc`` lists."""
        return MappingProxyType(self._exceptions)

    def synsets(self, word: str) -> frozenset[int]:
        """Synset offsets listed for ``word`` exactly as written (empty when unlisted)."""
        return frozenset(self._synsets.get(word, ()))

    def morph(self, token: str) -> str:
        """The jar's suffix-rule base form of ``token`` (spec §3.3 morph).

        Returns ``token`` itself if it ends in ``ss`` or has at most two UTF-16 units; otherwise
        the first rule candidate that is a listed word; otherwise ``""``. Words ending in
        ``ful`` fall through every rule (no suffix matches them), as in the jar.
        """
        if token.endswith("ss") or _utf16_length_at_most_2(token):
            return token
        table = self._synsets
        for suffix, size, replacement in _METEOR_RULES_BY_LAST.get(token[-1], ()):
            if token.endswith(suffix):
                candidate = token[: len(token) - size] + replacement
                if candidate in table:
                    return candidate
        return ""

    def synonym_set(self, token: str) -> frozenset[int]:
        """S(t) = synsets(t) ∪ baseSynsets(t) of spec §3.3, cached per token.

        baseSynsets uses the exception list when ``token`` is an inflected form in it (union
        over all its bases), otherwise :meth:`morph`. Case-sensitive.

        Example:
            >>> wn = meteor_wordnet()
            >>> wn.synonym_set("went") >= wn.synsets("go")
            True
        """
        return self._synonym_set(token)

    def packed_synonym_set(self, token: str) -> bytes:
        """:meth:`synonym_set` as ascending native int64 values packed into bytes, cached.

        This is the form the compiled synonym kernel intersects. The shipped table stores each
        key's set in this form, so a first lookup is a slice of it.

        Raises:
            OverflowError: an identifier does not fit a signed 64-bit integer (custom tables).

        Example:
            >>> from array import array
            >>> wn = meteor_wordnet()
            >>> list(array("q", wn.packed_synonym_set("cats"))) == sorted(wn.synonym_set("cats"))
            True
        """
        return self.packed_synonym_sets((token,))[0]

    def packed_synonym_sets(self, tokens: Sequence[str]) -> list[bytes]:
        """:meth:`packed_synonym_set` of every token, in order (one call per segment).

        Raises:
            OverflowError: an identifier does not fit a signed 64-bit integer (custom tables).
        """
        table = self._synsets
        fill = table.packed_sets if isinstance(table, _SynsetTable) else None
        return cached_packed_sets(tokens, self._packed, _CACHE_SIZE, self._synonym_set, fill)

    def _compute_synonym_set(self, token: str) -> frozenset[int]:
        table = self._synsets
        if isinstance(table, _SynsetTable):
            values = table.synonym_values(token)
            return frozenset(values) if values else _EMPTY_OFFSETS
        offsets = list(table.get(token, ()))
        bases = self._exceptions.get(token)
        if bases is not None:
            for base in bases:
                offsets.extend(table.get(base, ()))
        else:
            offsets.extend(table.get(self.morph(token), ()))
        return frozenset(offsets) if offsets else _EMPTY_OFFSETS


def meteor_exceptions(text: str) -> dict[str, tuple[str, ...]]:
    """The jar's inflected form -> sorted distinct bases (all parts of speech).

    Args:
        text: The exception lists as ``pos<TAB>form<TAB>base base ...`` lines.

    Example:
        >>> meteor_exceptions("n\\taxes\\taxis ax\\nv\\taxes\\tax\\n")
        {'axes': ('ax', 'axis')}
    """
    bases: dict[str, set[str]] = {}
    for line in text.splitlines():
        _pos, form, listed = line.split("\t")
        bases.setdefault(form, set()).update(listed.split())
    return {form: tuple(sorted(found)) for form, found in bases.items()}


def _shifted(values: Sequence[int]) -> array[int]:
    """``[0, *values]`` as uint32 (copied in one block from an in-place section)."""
    out = array("I", [0])
    if isinstance(values, memoryview):
        out.frombytes(values.cast("B"))
    else:
        out.extend(values)
    return out


#: What the packed S(t) functions read, in the order they take it: the key table, each key's
#: pool start and end of its own synsets (``starts``, ``own_ends``: int64 values of the pool
#: buffer counted from byte ``base`` on), the pool buffer and ``base``.
_PackedSections = tuple[KeyTable, Sequence[int], Sequence[int], bytes | mmap.mmap, int]

#: ``(tokens, cache) -> packed S(t) of each token``, as :func:`_packed_sets_function` returns.
_PackedSets = Callable[[Sequence[str], dict[str, bytes]], list[bytes]]


def _packed_sets_function(*sections: *_PackedSections) -> _PackedSets:
    """The first-sight hot path: packed S(t) of many tokens, lookups inlined, results cached.

    The returned function maps ``(tokens, cache)`` to the packed S(t) of each token, taking
    what ``cache`` holds and storing there what it computes. A key's S(t) is its stored slice;
    any other token takes the own synsets of its :meth:`MeteorWordNet.morph` base, which is
    empty when the token ends in ``ss`` or is short (then the token is its own base, and it is
    not listed). ``sections`` as :data:`_PackedSections` says; the compiled function when it
    can read them, else the Python one (both take the same sections).
    """
    compiled = _compiled_packed_sets(*sections)
    if compiled is not None:
        return compiled
    return _packed_sets_python(*sections)


#: The suffix rules as the compiled kernel takes them: (suffix, replacement) UTF-8 pairs in the
#: order a token tries them (each group of :data:`_METEOR_RULES_BY_LAST` keeps its order, and a
#: token only matches the rules of its own last character, so one flat list in that order
#: tries the same rules in the same order).
_METEOR_RULES_BYTES: Final = tuple(
    (suffix.encode("ascii"), replacement.encode("ascii"))
    for group in _METEOR_RULES_BY_LAST.values()
    for suffix, _size, replacement in group
)


def _compiled_packed_sets(
    keys: KeyTable,
    starts: Sequence[int],
    own_ends: Sequence[int],
    pool_bytes: bytes | mmap.mmap,
    base: int,
) -> _PackedSets | None:
    """:func:`_packed_sets_python`'s function done by the compiled ``wordnet_packed_sets``
    (``_ext/wordnet.c``), or ``None`` when it is not in use or cannot read these sections as
    buffers (then the Python function serves)."""
    kernel = compiled_function("wordnet_packed_sets")
    if kernel is None:
        return None
    sections = (keys.blob, keys.starts, keys.table, starts, own_ends, pool_bytes)
    try:
        kernel((), {}, *sections, base, _METEOR_RULES_BYTES)  # can it read them?
    except (TypeError, ValueError, BufferError):
        return None
    rules = _METEOR_RULES_BYTES

    def packed_sets(tokens: Sequence[str], cache: dict[str, bytes]) -> list[bytes]:
        result: list[bytes] = kernel(tokens, cache, *sections, base, rules)
        return result

    return packed_sets


def _packed_sets_python(
    keys: KeyTable,
    starts: Sequence[int],
    own_ends: Sequence[int],
    pool_bytes: bytes | mmap.mmap,
    base: int = 0,
) -> _PackedSets:
    """:func:`_packed_sets_function`'s function in Python: the reference and the fallback."""
    blob = keys.blob
    table = keys.table
    mask = len(table) - 1
    crc32 = zlib.crc32
    rules = _METEOR_RULES_BY_LAST
    short = _utf16_length_at_most_2
    empty = b""
    # Indexed by slot value (key index + 1): key bytes [key_lo, key_hi); in int64 values, own
    # synsets [own_lo, own_hi), then S(t) up to full_hi when it differs from the own synsets.
    key_lo = _shifted(keys.starts)
    key_hi = keys.starts
    own_lo = _shifted(starts)
    own_hi = _shifted(own_ends)
    full_hi = starts

    def packed_sets(tokens: Sequence[str], cache: dict[str, bytes]) -> list[bytes]:
        get = cache.get
        out = []
        for token in tokens:
            found = get(token)
            if found is None:
                found = empty
                try:
                    data = token.encode("utf-8")
                except UnicodeEncodeError:  # lone surrogates: neither it nor a base is listed
                    data = empty
                slot = crc32(data) & mask
                number = table[slot]
                while number:
                    if blob[key_lo[number] : key_hi[number]] == data:
                        start = own_hi[number]
                        end = full_hi[number]
                        if start == end:
                            start = own_lo[number]
                        found = pool_bytes[base + 8 * start : base + 8 * end]
                        break
                    slot = (slot + 1) & mask
                    number = table[slot]
                else:
                    if data and not (token.endswith("ss") or short(token)):
                        for suffix, size, replacement in rules.get(token[-1], ()):
                            if not token.endswith(suffix):
                                continue
                            data = (token[: len(token) - size] + replacement).encode("utf-8")
                            slot = crc32(data) & mask
                            number = table[slot]
                            while number:
                                if blob[key_lo[number] : key_hi[number]] == data:
                                    break
                                slot = (slot + 1) & mask
                                number = table[slot]
                            if number:
                                start = own_lo[number]
                                end = own_hi[number]
                                if start < end:  # a listed word, not only an inflected form
                                    found = pool_bytes[base + 8 * start : base + 8 * end]
                                    break
                cache[token] = found
            out.append(found)
        return out

    return packed_sets


class _SynsetTable(Mapping[str, tuple[int, ...]]):
    """Word -> synset offsets over the binary form, plus each key's precomputed S(t).

    Nothing is decoded per word until it is looked up, and no dict is built, which makes
    loading cheap (the METEOR view needs a few thousand of the 147,306 words in a typical run).
    S(t) of a key (a listed word or an inflected form of the exception lists) is a stored slice;
    for any other token it is the own synsets of its :meth:`MeteorWordNet.morph` base.
    """

    __slots__ = ("_keys", "_own_ends", "_pool", "_starts", "_words", "packed_sets")

    def __init__(self, sections: MeteorSections) -> None:
        """Wrap the loaded sections of the binary view (their pool as native int64 values
        when the file holds them so, else packed here)."""
        keys, starts, own_ends = sections.keys, sections.starts, sections.own_ends
        self._keys = keys
        self._starts = starts
        self._own_ends = own_ends
        self._pool = sections.pool
        self._words = sections.words
        pool_bytes = sections.pool_bytes
        if pool_bytes is None:
            pool_bytes = (array("q", sections.pool).tobytes(), 0)
        #: (tokens, cache) -> packed S(t) of each token (see :func:`_packed_sets_function`).
        self.packed_sets = _packed_sets_function(keys, starts, own_ends, *pool_bytes)

    def _own(self, word: object) -> tuple[int, int]:
        """Pool range of the own synsets of ``word`` (empty when it is not a listed word)."""
        at = self._keys.find(word) if isinstance(word, str) else -1
        if at < 0:
            return 0, 0
        return self._starts[at], self._own_ends[at]

    def synonym_values(self, token: str) -> array[int]:
        """S(token) in ascending order."""
        values = array("q")
        values.frombytes(self.packed_sets((token,), {})[0])
        return values

    def __getitem__(self, word: str) -> tuple[int, ...]:
        start, end = self._own(word)
        if start == end:
            raise KeyError(word)
        return tuple(self._pool[start:end])

    def get(self, word: str, default: object = None) -> tuple[int, ...] | object:  # type: ignore[override]
        start, end = self._own(word)
        if start == end:
            return default
        return tuple(self._pool[start:end])

    def __contains__(self, word: object) -> bool:
        start, end = self._own(word)
        return start < end

    def __iter__(self) -> Iterator[str]:
        keys = self._keys
        starts = self._starts
        own_ends = self._own_ends
        return (keys.key(at) for at in range(len(keys)) if starts[at] < own_ends[at])

    def __len__(self) -> int:
        return self._words


def _shipped_exceptions() -> dict[str, tuple[str, ...]]:
    """The exception lists of the shipped data, read from the NLTK view, which keeps them."""
    return meteor_exceptions(nltk_sections().exceptions_text)


@cached_loader
def meteor_wordnet() -> MeteorWordNet:
    """The shared METEOR 1.5 view of the shipped WordNet 3.0 (loaded on first call).

    Reads the compact binary table (:data:`METEOR_BINARY_FILE`); the exception lists are read
    only when :attr:`MeteorWordNet.exceptions` is asked for (the table already folds them into
    its synonym sets).

    Raises:
        ResourceError: the shipped table is missing, damaged, or does not match
            ``manifest.json`` (the message names the file).
    """
    return MeteorWordNet(_SynsetTable(meteor_sections()), _shipped_exceptions)


class _DirectoryWordNet(MeteorWordNet):
    """A METEOR view read from a user folder in the jar's format (pickles by its path)."""

    __slots__ = ("_origin",)

    def __init__(
        self,
        synsets: Mapping[str, tuple[int, ...]],
        exceptions: Mapping[str, tuple[str, ...]],
        origin: tuple[str, str],
    ) -> None:
        super().__init__(synsets, exceptions)
        self._origin = origin

    def __reduce__(self) -> tuple[object, tuple[str, str]]:  # type: ignore[override]
        return (meteor_wordnet_from_dir, self._origin)


def _line_pairs(path: Path) -> list[tuple[str, str]]:
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except FileNotFoundError:
        raise ResourceError(f"synonym data: {path} not found") from None
    if lines and lines[-1] == "":
        lines.pop()
    return [(lines[k], lines[k + 1] if k + 1 < len(lines) else "") for k in range(0, len(lines), 2)]


@cached_loader
def meteor_wordnet_from_dir(directory: str, language_long_name: str = "english") -> MeteorWordNet:
    """The METEOR view from ``<directory>/<language>.synsets`` and ``.exceptions`` (jar's ``-d``).

    Both files hold pairs of lines: a word and its synset numbers separated by spaces; a base form
    and the inflected forms that map to it.

    Raises:
        ResourceError: a file is missing.
    """
    root = Path(directory)
    synsets = {
        word: tuple(int(x) for x in numbers.split())
        for word, numbers in _line_pairs(root / f"{language_long_name}.synsets")
    }
    bases: dict[str, list[str]] = {}
    for base, forms in _line_pairs(root / f"{language_long_name}.exceptions"):
        for form in forms.split():
            bases.setdefault(form, []).append(base)
    exceptions = {form: tuple(b) for form, b in bases.items()}
    return _DirectoryWordNet(synsets, exceptions, (directory, language_long_name))
