"""NLTK's view of WordNet 3.0: what ``nltk.corpus.wordnet`` returns, without NLTK or its data.

:class:`NltkWordNet` reproduces what ``nltk.corpus.wordnet`` (NLTK 3.10, Princeton WordNet 3.0
data) returns from ``wordnet.synsets(word)``: the input is lower-cased, ``_morphy`` runs per part
of speech (exception list, else one pass of NLTK's suffix substitutions, keeping the word itself
when it is a lemma), and synsets come in NLTK's order with their lemma names in data-file order
and case. NLTK's METEOR (``nltk.translate.meteor_score``) uses only the lemma names:
:meth:`NltkWordNet.lemma_names`.

The shipped data is read from the binary NLTK view (:data:`NLTK_BINARY_FILE`) and decoded per
lookup. :class:`NltkWordNet` also accepts plain mappings, the step-by-step reference the tests
compare the binary fast path with.

Where we differ from NLTK: nothing in the results. NLTK reads the dictionary files at run time;
we ship one derived copy (see :mod:`meteor_eval.resources.wordnet`).
"""

from __future__ import annotations

import bisect
import functools
from array import array
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Final, Literal

from meteor_eval._ext import compiled_function
from meteor_eval.resources.registry import cached_loader
from meteor_eval.resources.wordnet.binary import NLTK_BINARY_FILE, NltkSections
from meteor_eval.resources.wordnet.morphy import ADJ_RULES, NLTK_NOUN_RULES, VERB_RULES
from meteor_eval.resources.wordnet.shipped import nltk_sections

__all__ = [
    "NLTK_BINARY_FILE",
    "NLTK_SUBSTITUTIONS",
    "NltkWordNet",
    "WordNetPos",
    "nltk_exceptions",
    "nltk_wordnet",
]

#: A WordNet part of speech as NLTK spells it (``s`` = adjective satellite).
WordNetPos = Literal["n", "v", "a", "s", "r"]

# Parts of speech of a lemma's index entry, as the Mapping view reports them.
_NLTK_SLOTS: Final = ("n", "v", "a", "s", "r")
# File part of speech -> its rank in the synset numbering (and in the key order n v a r).
_NLTK_FILE_POS: Final = {"n": 0, "v": 1, "a": 2, "r": 3}
# Part of speech -> its bit in a lemma's mask (a satellite entry rides on the adjective one).
_NLTK_POS_BIT: Final = {"n": 1, "v": 2, "a": 4, "s": 4, "r": 8}
_ALL_POS_BITS: Final = 15
_SATELLITE: Final = ord("s")

#: NLTK 3.10's ``WordNetCorpusReader.MORPHOLOGICAL_SUBSTITUTIONS`` (note ``ves -> f``).
NLTK_SUBSTITUTIONS: Final[Mapping[str, tuple[tuple[str, str], ...]]] = MappingProxyType(
    {
        "n": NLTK_NOUN_RULES,
        "v": VERB_RULES,
        "a": ADJ_RULES,
        "s": ADJ_RULES,
        "r": (),
    }
)


def _nltk_rules_by_last_char() -> dict[str, tuple[tuple[str, int, str, int], ...]]:
    """NLTK's substitutions of n, v and a merged: (suffix, length, replacement, pos bits)."""
    bits: dict[tuple[str, str], int] = {}
    for pos in ("n", "v", "a"):
        for suffix, replacement in NLTK_SUBSTITUTIONS[pos]:
            bits[suffix, replacement] = bits.get((suffix, replacement), 0) | _NLTK_POS_BIT[pos]
    grouped: dict[str, list[tuple[str, int, str, int]]] = {}
    for (suffix, replacement), found in bits.items():
        grouped.setdefault(suffix[-1], []).append((suffix, len(suffix), replacement, found))
    return {last: tuple(group) for last, group in grouped.items()}


_NLTK_RULES_BY_LAST: Final = _nltk_rules_by_last_char()
# The same substitutions as one flat tuple of (suffix, replacement, pos bits), for the compiled
# lookup (which tests every suffix against the word's UTF-8 bytes).
_NLTK_RULES_FLAT: Final = tuple(
    (suffix, replacement, bits)
    for group in _NLTK_RULES_BY_LAST.values()
    for suffix, _size, replacement, bits in group
)
# The compiled NltkWordNet.lemma_names over the binary view (same sets), when built and allowed.
_COMPILED_NAMES: Final = compiled_function("nltk_wordnet_names")
# The same lookup with the word last and lower-cased in C (bound to the tables by a partial).
_COMPILED_WORD: Final = compiled_function("nltk_wordnet_word")

# NLTK's POS_LIST: the parts of speech ``synsets(word)`` walks when no pos is given.
_NLTK_POS_ORDER: Final = ("n", "v", "a", "r")
_EMPTY_NAMES: Final[frozenset[str]] = frozenset()
# Per-token results are cached; the bound keeps memory flat on endless vocabularies.
_CACHE_SIZE: Final = 1 << 20


class NltkWordNet:
    """NLTK 3.10's ``wordnet`` reader, reduced to what synonym matching needs.

    Obtain the shared instance with :func:`nltk_wordnet`. Synsets are identified by
    ``(pos, offset)`` where pos is the synset's own type (``s`` for satellites) and offset is
    Princeton's byte offset in the data file, as NLTK's ``Synset.pos()``/``offset()`` report.

    Example:
        >>> wn = nltk_wordnet()
        >>> sorted(wn.lemma_names("dogs"))[:3]
        ['Canis_familiaris', 'andiron', 'blackguard']
    """

    __slots__ = (
        "_binary",
        "_exception_bases",
        "_exceptions",
        "_forms",
        "_index",
        "_lemma_names",
        "_offsets",
        "_synsets",
    )

    def __init__(
        self,
        index: Mapping[str, Mapping[str, tuple[int, ...]]],
        synsets: Mapping[tuple[str, int], tuple[str, tuple[str, ...]]],
        exceptions: Mapping[str, Mapping[str, tuple[str, ...]]],
    ) -> None:
        """Wrap the tables; use :func:`nltk_wordnet` for the shipped data.

        Args:
            index: Lemma -> pos (``n``, ``v``, ``a``, ``s``, ``r``) -> offsets in index order.
            synsets: (file pos ``n``/``v``/``a``/``r``, offset) -> (synset type, lemma names).
            exceptions: pos -> inflected form -> bases (one entry per form, NLTK's last line).
        """
        self._index = index
        self._synsets = synsets
        self._exceptions = exceptions
        self._offsets: Callable[[str, str], Sequence[int] | None]
        self._binary = index if isinstance(index, _NltkIndex) else None
        if isinstance(index, _NltkIndex):
            self._offsets = index.offsets
        else:

            def offsets(word: str, pos: str) -> Sequence[int] | None:
                entry = index.get(word)
                return None if entry is None else entry.get(pos)

            self._offsets = offsets
        # Both views of the exception lists that lemma_names reads are made on first use (the
        # shipped lists are then parsed only as far as the lookup in use needs).
        self._forms: dict[str, tuple[tuple[int, tuple[str, ...]], ...]] | None = None
        self._exception_bases: tuple[dict[str, str], ...] | None = None
        self._lemma_names = functools.lru_cache(maxsize=_CACHE_SIZE)(self._compute_lemma_names)

    @property
    def _exception_forms(self) -> dict[str, tuple[tuple[int, tuple[str, ...]], ...]]:
        """Inflected form -> ((part-of-speech bit, bases), ...) over the parts of speech that
        lemma_names walks (n, v, a, r), for the Python path over the binary form."""
        if self._forms is None:
            forms: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
            for pos in _NLTK_POS_ORDER:
                for form, bases in self._exceptions.get(pos, {}).items():
                    forms.setdefault(form, []).append((_NLTK_POS_BIT[pos], bases))
            self._forms = {form: tuple(found) for form, found in forms.items()}
        return self._forms

    def _compiled_exceptions(self) -> tuple[dict[str, str], ...]:
        """Per part of speech (n, v, a, r): inflected form -> its bases joined by spaces, what
        the compiled lookup reads (straight from the shipped text when it is one)."""
        if self._exception_bases is None:
            exceptions = self._exceptions
            if isinstance(exceptions, LazyExceptions):
                self._exception_bases = exceptions.bases()
            else:
                self._exception_bases = tuple(
                    {form: " ".join(bases) for form, bases in exceptions.get(pos, {}).items()}
                    for pos in _NLTK_POS_ORDER
                )
        return self._exception_bases

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return (nltk_wordnet, ())

    def morphy_forms(
        self, form: str, pos: WordNetPos, *, check_exceptions: bool = True
    ) -> list[str]:
        """NLTK's ``_morphy(form, pos)``: candidate lemmas of ``form`` that exist for ``pos``.

        ``form`` itself comes first when it is a lemma; then the exception list's bases, or
        else one pass of the suffix substitutions; duplicates removed, order kept.
        """
        exceptions = self._exceptions[pos]
        if check_exceptions and form in exceptions:
            candidates = [form, *exceptions[form]]
        else:
            candidates = [form]
            candidates.extend(
                form[: len(form) - len(old)] + new
                for old, new in NLTK_SUBSTITUTIONS[pos]
                if form.endswith(old)
            )
        offsets = self._offsets
        result: list[str] = []
        for candidate in candidates:
            if offsets(candidate, pos) is not None and candidate not in result:
                result.append(candidate)
        return result

    def morphy(self, form: str, pos: WordNetPos | None = None) -> str | None:
        """NLTK's public ``morphy``: the first base form found, trying n, v, a, r if no pos."""
        for each in (pos,) if pos else _NLTK_POS_ORDER:
            forms = self.morphy_forms(form, each)
            if forms:
                return forms[0]
        return None

    def synsets(
        self, word: str, pos: WordNetPos | None = None, *, check_exceptions: bool = True
    ) -> list[tuple[str, int]]:
        """``wordnet.synsets(word, pos)`` as ``(synset pos, offset)`` pairs in NLTK's order.

        The word is lower-cased (``str.lower``), then for each part of speech (n, v, a, r when
        ``pos`` is None) each morphy form contributes its index offsets in sense order.
        Duplicates are kept, as NLTK keeps them.
        """
        lemma = word.lower()
        result: list[tuple[str, int]] = []
        for each in (pos,) if pos else _NLTK_POS_ORDER:
            file_pos = "a" if each == "s" else each
            for form in self.morphy_forms(lemma, each, check_exceptions=check_exceptions):
                for offset in self._index[form].get(each, ()):
                    result.append((self._synsets[file_pos, offset][0], offset))
        return result

    def lemma_names(self, word: str) -> frozenset[str]:
        """``set(chain.from_iterable(s.lemma_names() for s in wordnet.synsets(word)))``, cached.

        NLTK's METEOR keeps the names without ``_`` and adds the word itself.
        """
        return self._lemma_names(word)

    def lemma_names_uncached(self, word: str) -> frozenset[str]:
        """:meth:`lemma_names` without this object's cache: for callers that keep their own
        per-word cache (the ``nltk`` flavour's scorer), so that a new word costs one call."""
        return self._compute_lemma_names(word)

    def lemma_names_function(self) -> Callable[[str], frozenset[str]]:
        """:meth:`lemma_names_uncached` as the cheapest function of one word: with the binary
        tables and the compiled lookup, ``nltk_wordnet_word`` (which lower-cases the word
        itself) bound to the tables by :func:`functools.partial`, so that a new word costs no
        Python frame (what the ``nltk`` flavour's cache calls on a miss)."""
        binary = self._binary
        if binary is None or _COMPILED_WORD is None:
            return self._compute_lemma_names
        bound: Callable[[str], frozenset[str]] = functools.partial(
            _COMPILED_WORD, binary.tables, self._compiled_exceptions(), _NLTK_RULES_FLAT
        )
        return bound

    def _compute_lemma_names(self, word: str) -> frozenset[str]:
        if self._binary is not None:
            if _COMPILED_NAMES is not None:
                found: frozenset[str] = _COMPILED_NAMES(
                    word.lower(), self._binary.tables, self._compiled_exceptions(), _NLTK_RULES_FLAT
                )
                return found
            return self._binary.lemma_names(word.lower(), self._exception_forms)
        # What synsets(word) finds, without building its list: the parts of speech walked are
        # n, v, a, r, each the file of its own synsets.
        names: set[str] = set()
        synsets = self._synsets
        offsets = self._offsets
        lemma = word.lower()
        for pos in _NLTK_POS_ORDER:
            for form in self.morphy_forms(lemma, pos):
                for offset in offsets(form, pos) or ():
                    names.update(synsets[pos, offset][1])
        return frozenset(names) if names else _EMPTY_NAMES


def nltk_exceptions(text: str) -> dict[str, dict[str, tuple[str, ...]]]:
    """pos -> inflected form -> bases, NLTK's way (a later line for a form replaces it)."""
    exceptions: dict[str, dict[str, tuple[str, ...]]] = {pos: {} for pos in _NLTK_POS_ORDER}
    for line in text.splitlines():
        pos, form, bases = line.split("\t")
        exceptions[pos][form] = tuple(bases.split())
    exceptions["s"] = exceptions["a"]
    return exceptions


class LazyExceptions(Mapping[str, Mapping[str, tuple[str, ...]]]):
    """:func:`nltk_exceptions` of a text, parsed on first use.

    The compiled lookup of :meth:`NltkWordNet.lemma_names` reads :meth:`bases` instead (one
    regular-expression pass, no tuple per form), so a run of the ``nltk`` flavour does not
    parse the lists into tuples at all.
    """

    __slots__ = ("_parsed", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._parsed: dict[str, dict[str, tuple[str, ...]]] | None = None

    def _table(self) -> dict[str, dict[str, tuple[str, ...]]]:
        if self._parsed is None:
            self._parsed = nltk_exceptions(self._text)
        return self._parsed

    def __getitem__(self, pos: str) -> Mapping[str, tuple[str, ...]]:
        return self._table()[pos]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())

    def bases(self) -> tuple[dict[str, str], ...]:
        """Per part of speech (n, v, a, r): form -> its bases joined by spaces, a later line
        for a form replacing it (what :func:`nltk_exceptions` holds, bases not split), from
        one pass over the text (a pass per part of speech cost four times as much: the search
        for a line's start runs over every line).

        The lines are split with ``str.split`` rather than matched by the multi-line pattern
        ``^([nvar])\\t([^\\t\\n]*)\\t([^\\t\\n]*)$`` of earlier versions: a line counts
        when it has exactly three tab-separated fields and the first is one of the four parts
        of speech, which is what that pattern accepts (a line is what lies between two
        ``\\n``), for a fraction of its cost (19 million instructions of a short NLTK run)."""
        tables: dict[str, dict[str, str]] = {pos: {} for pos in _NLTK_POS_ORDER}
        for line in self._text.split("\n"):
            fields = line.split("\t")
            if len(fields) == 3:
                table = tables.get(fields[0])
                if table is not None:
                    table[fields[1]] = fields[2]
        return tuple(tables.values())


class _NltkIndex(Mapping[str, Mapping[str, tuple[int, ...]]]):
    """Lemma -> part of speech -> offsets over the binary form, decoded per lookup."""

    __slots__ = ("_data", "_name_cache", "tables")

    def __init__(self, data: NltkSections) -> None:
        self._data = data
        self._name_cache: dict[int, list[str]] = {}
        keys = data.keys
        #: The sections that the compiled ``nltk_wordnet_names`` reads, in its order.
        self.tables = (
            keys.blob,
            keys.starts,
            keys.table,
            data.masks,
            data.entry_starts,
            data.entries,
            data.bounds,
            data.name_starts,
            data.names,
        )

    def _numbers(self, at: int, pos: str) -> Sequence[int] | None:
        """Synset numbers of lemma ``at`` as ``pos`` in index order, ``None`` if absent."""
        data = self._data
        bit = _NLTK_POS_BIT[pos]
        if not data.masks[at] & bit:
            return None
        found = data.entries[data.entry_starts[at] : data.entry_starts[at + 1]]
        if data.masks[at] == bit:
            return found
        slot = _NLTK_FILE_POS["a" if pos == "s" else pos]
        low, high = data.bounds[slot], data.bounds[slot + 1]
        return array("I", [number for number in found if low <= number < high])

    def _offsets_at(self, at: int, pos: str) -> tuple[int, ...] | None:
        numbers = self._numbers(at, pos)
        if numbers is None:
            return None
        data = self._data
        offsets = data.synset_offsets
        if pos == "s":
            types = data.types
            return tuple(offsets[number] for number in numbers if types[number] == _SATELLITE)
        return tuple(offsets[number] for number in numbers)

    def _entry(self, at: int) -> dict[str, tuple[int, ...]]:
        entry: dict[str, tuple[int, ...]] = {}
        for pos in _NLTK_SLOTS:
            found = self._offsets_at(at, pos)
            if found is not None:
                entry[pos] = found
        return entry

    def __getitem__(self, word: str) -> dict[str, tuple[int, ...]]:
        at = self._data.keys.find(word) if isinstance(word, str) else -1
        if at < 0:
            raise KeyError(word)
        return self._entry(at)

    def offsets(self, word: str, pos: str) -> Sequence[int] | None:
        """The offsets listed for ``word`` as ``pos``, ``None`` when it has no such entry."""
        at = self._data.keys.find(word)
        return None if at < 0 else self._offsets_at(at, pos)

    def get(self, word: str, default: object = None) -> dict[str, tuple[int, ...]] | object:  # type: ignore[override]
        at = self._data.keys.find(word) if isinstance(word, str) else -1
        return default if at < 0 else self._entry(at)

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self._data.keys.find(word) >= 0

    def __iter__(self) -> Iterator[str]:
        keys = self._data.keys
        return (keys.key(at) for at in range(len(keys)))

    def __len__(self) -> int:
        return len(self._data.keys)

    def lemma_names(
        self, lemma: str, exception_forms: Mapping[str, tuple[tuple[int, tuple[str, ...]], ...]]
    ) -> frozenset[str]:
        """NltkWordNet.lemma_names of a lower-cased word, computed over the binary arrays.

        Collects the synset numbers of every (morphy form, part of speech) pair that NLTK's
        ``synsets(lemma)`` walks (n, v, a, r), then the names of those synsets. The lemma itself
        is a form for every part of speech it has; the other forms come from the exception
        lists or else from the suffix substitutions, each valid only for its own parts of speech.
        """
        data = self._data
        find = data.keys.find
        entry_starts = data.entry_starts
        entries = data.entries
        at = find(lemma)
        numbers: list[int] = (
            [] if at < 0 else list(entries[entry_starts[at] : entry_starts[at + 1]])
        )
        listed = exception_forms.get(lemma)
        if listed is None:
            rules = _NLTK_RULES_BY_LAST.get(lemma[-1:])
            if rules is not None:
                # Candidate form -> parts of speech (bits) it is a morphy candidate for.
                candidates: dict[str, int] = {}
                for suffix, size, replacement, bits in rules:
                    if lemma.endswith(suffix):
                        form = lemma[: len(lemma) - size] + replacement
                        candidates[form] = candidates.get(form, 0) | bits
                self._add_numbers(candidates, numbers)
        else:
            candidates = {}
            substituted = _ALL_POS_BITS
            for bit, bases in listed:
                substituted &= ~bit
                for base in bases:
                    candidates[base] = candidates.get(base, 0) | bit
            for suffix, size, replacement, bits in _NLTK_RULES_BY_LAST.get(lemma[-1:], ()):
                bits &= substituted
                if bits and lemma.endswith(suffix):
                    form = lemma[: len(lemma) - size] + replacement
                    candidates[form] = candidates.get(form, 0) | bits
            self._add_numbers(candidates, numbers)
        if not numbers:
            return _EMPTY_NAMES
        names: set[str] = set()
        cache = self._name_cache
        name_starts = data.name_starts
        blob = data.names
        for number in numbers:
            listed_names = cache.get(number)
            if listed_names is None:
                text = blob[name_starts[number] : name_starts[number + 1]].decode("utf-8")
                listed_names = cache[number] = text.split(" ")
            names.update(listed_names)
        return frozenset(names)

    def _add_numbers(self, candidates: Mapping[str, int], numbers: list[int]) -> None:
        """Append the synset numbers of each listed candidate form for its parts of speech."""
        data = self._data
        find = data.keys.find
        masks = data.masks
        entry_starts = data.entry_starts
        entries = data.entries
        for form, bits in candidates.items():
            at = find(form)
            if at < 0:
                continue
            mask = masks[at]
            wanted = mask & bits
            if not wanted:
                continue
            found = entries[entry_starts[at] : entry_starts[at + 1]]
            if wanted == mask:
                numbers.extend(found)
            else:
                bounds = data.bounds
                for slot in range(4):
                    if wanted >> slot & 1:
                        low, high = bounds[slot], bounds[slot + 1]
                        numbers.extend(number for number in found if low <= number < high)


class _NltkSynsets(Mapping[tuple[str, int], tuple[str, tuple[str, ...]]]):
    """(file pos, offset) -> (synset type, lemma names) over the binary form, by bisection."""

    __slots__ = ("_data",)

    def __init__(self, data: NltkSections) -> None:
        self._data = data

    def _at(self, key: object) -> int:
        if not isinstance(key, tuple) or len(key) != 2:
            return -1
        pos, offset = key
        slot = _NLTK_FILE_POS.get(pos) if isinstance(pos, str) else None
        if slot is None or not isinstance(offset, int):
            return -1
        data = self._data
        low, high = data.bounds[slot], data.bounds[slot + 1]
        at = bisect.bisect_left(data.synset_offsets, offset, low, high)
        return at if at < high and data.synset_offsets[at] == offset else -1

    def __getitem__(self, key: tuple[str, int]) -> tuple[str, tuple[str, ...]]:
        at = self._at(key)
        if at < 0:
            raise KeyError(key)
        data = self._data
        text = data.names[data.name_starts[at] : data.name_starts[at + 1]].decode("utf-8")
        return chr(data.types[at]), tuple(text.split(" "))

    def __contains__(self, key: object) -> bool:
        return self._at(key) >= 0

    def __iter__(self) -> Iterator[tuple[str, int]]:
        data = self._data
        for slot, pos in enumerate(_NLTK_POS_ORDER):
            for at in range(data.bounds[slot], data.bounds[slot + 1]):
                yield pos, data.synset_offsets[at]

    def __len__(self) -> int:
        return self._data.bounds[4]


@cached_loader
def nltk_wordnet() -> NltkWordNet:
    """The shared NLTK view of the shipped WordNet 3.0 (loaded on first call).

    Reads the compact binary form (:data:`NLTK_BINARY_FILE`).

    Raises:
        ResourceError: the shipped file is missing, damaged, or does not match
            ``manifest.json`` (the message names the file).
    """
    data = nltk_sections()
    return NltkWordNet(_NltkIndex(data), _NltkSynsets(data), LazyExceptions(data.exceptions_text))
