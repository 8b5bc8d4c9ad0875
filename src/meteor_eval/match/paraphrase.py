"""Paraphrase matching: phrase pairs listed in a METEOR 1.5 paraphrase table (spec section 3.4).

A record A -> B proposes a match wherever one side has A and the other has B. The candidates come
in METEOR 1.5's order, which matters because the aligner breaks ties by list position:

1. for each reference start j ascending, for each phrase A of the table that starts at j (shorter
   first, then the table's file order), for each hypothesis start i ascending where its phrase B
   occurs: ``Match(j, |A|, i, |B|)``;
2. for each hypothesis start i ascending, for each phrase A starting at i (same order), for each
   reference start j ascending where B occurs: ``Match(j, |B|, i, |A|)``.

When the table also holds B -> A, both passes propose the same span pair. The duplicates are
kept on purpose (spec trap 9.2.2): they raise coverage, which disables the aligner's one-to-one
shortcut, and take separate beam slots. Tokens compare by true string equality, not by the Java
hash used by the exact matcher.

The table lookups go through :class:`meteor_eval.resources.paraphrases.ParaphraseTable`: one trie
walk per start position and side gives both the phrases A that start there and the phrases B that
occur there, so "B occurs at i" is a dictionary lookup of B's trie node. With the compiled
extension the same walks and lookups run in C over the memory-mapped index arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from meteor_eval._ext import compiled_kernels
from meteor_eval.errors import ResourceError
from meteor_eval.match.base import Match
from meteor_eval.resources.paraphrases import FORMAT_VERSION, ParaphraseTable

if TYPE_CHECKING:
    from meteor_eval.match._segment import Segment

__all__ = ["ParaphraseMatcher"]

# (depth, node) steps of the trie walk from every start position of a segment.
_Walks = list[list[tuple[int, int]]]
# trie node of a phrase -> (its length, the start positions where it occurs, ascending)
_Occurrences = dict[int, tuple[int, list[int]]]

_WALK_CACHE_SIZE = 256

# The compiled generator (same candidates, same order), when the extension is built and reads
# the index layout of this version (a stale build of an older layout is not used).
_KERNELS = compiled_kernels("paraphrase", "_paraphrase_layout")
if _KERNELS is not None and getattr(_KERNELS, "_paraphrase_layout", None) != FORMAT_VERSION:
    _KERNELS = None
# Whether the extension can build the root lookup table (older builds cannot; same results).
_ROOT_TABLE = _KERNELS is not None and hasattr(_KERNELS, "paraphrase_root")


class ParaphraseMatcher:
    """Multi-word candidates from a paraphrase table, in METEOR 1.5's order, duplicates kept.

    Args:
        table: The opened paraphrase table.
    """

    name = "paraphrase"

    def __init__(self, table: ParaphraseTable) -> None:
        self._table = table
        # A hypothesis is matched against each of its references; walk it only once.
        self._walk_cache: dict[tuple[str, ...], tuple[_Walks, _Occurrences]] = {}
        # Direct table of the trie root's children for the compiled walk, built on first use:
        # it replaces a binary search over the root's vocabulary-sized child list at every start
        # position (about 15% of the generator's time on xray; same candidates).
        self._root: bytes | None = None

    @property
    def table(self) -> ParaphraseTable:
        """The paraphrase table the matcher reads (its ``spec`` names it in signatures)."""
        return self._table

    def token_id(self, token: str) -> int:
        """The table's id of ``token`` (``-1`` when the table never uses it)."""
        return self._table.token_id(token)

    def token_ids(self, tokens: Sequence[str]) -> list[int]:
        """:meth:`token_id` of every token, in one call."""
        return self._table.token_ids(tokens)

    def compiled_trie(self) -> tuple[object, object, object, bytes | None]:
        """The index arrays and root table the compiled kernels read (``_ext/paraphrase.c``).

        Raises:
            RuntimeError: the compiled extension is not available.
        """
        if _KERNELS is None:
            raise RuntimeError("the compiled extension is not available")
        arrays = self._table.index_arrays()
        if not _ROOT_TABLE:
            return (*arrays, None)
        root = self._root
        if root is None:
            root = self._root = _KERNELS.paraphrase_root(arrays[0], arrays[1])
        return (*arrays, root)

    def _walks(self, tokens: tuple[str, ...]) -> tuple[_Walks, _Occurrences]:
        cached = self._walk_cache.get(tokens)
        if cached is not None:
            return cached
        table = self._table
        ids = table.token_ids(tokens)
        walks = [table.walk(ids, start) for start in range(len(ids))]
        occurrences: _Occurrences = {}
        for start, steps in enumerate(walks):
            for depth, node in steps:
                found = occurrences.get(node)
                if found is None:
                    occurrences[node] = (depth, [start])
                else:
                    found[1].append(start)
        result = (walks, occurrences)
        cache = self._walk_cache
        if len(cache) >= _WALK_CACHE_SIZE:
            cache.pop(next(iter(cache)))
        cache[tokens] = result
        return result

    def candidates(self, hyp: Segment, ref: Segment, stage: int) -> list[Match]:
        """Paraphrase candidates between ``hyp`` and ``ref`` labelled ``stage`` (spec 3.4 order).

        Raises:
            ResourceError: the index is damaged in a way its checks on opening did not see (a
                file changed while in use, or written with valid checksums by a faulty writer;
                the compiled walk checks every offset it follows).
        """
        if not hyp.tokens or not ref.tokens:
            return []
        if _KERNELS is None:
            return self.candidates_python(hyp, ref, stage)
        try:
            return self._compiled_candidates(hyp, ref, stage)
        except ValueError as exc:  # the kernel's bounds checks: "paraphrase index: corrupt trie"
            raise _damaged(self._table, exc) from None

    def _compiled_candidates(self, hyp: Segment, ref: Segment, stage: int) -> list[Match]:
        assert _KERNELS is not None
        table = self._table
        arrays = table.index_arrays()
        hyp_ids = table.token_ids(hyp.tokens)
        ref_ids = table.token_ids(ref.tokens)
        if not _ROOT_TABLE:
            found: list[Match] = _KERNELS.paraphrase(*arrays, hyp_ids, ref_ids, stage, Match)
            return found
        root = self._root
        if root is None:
            root = self._root = _KERNELS.paraphrase_root(arrays[0], arrays[1])
        found = _KERNELS.paraphrase(*arrays, hyp_ids, ref_ids, stage, Match, root)
        return found

    def candidates_python(self, hyp: Segment, ref: Segment, stage: int) -> list[Match]:
        """:meth:`candidates` in pure Python (the reference for the compiled one)."""
        if not hyp.tokens or not ref.tokens:
            return []
        try:
            return self._python_candidates(hyp, ref, stage)
        except IndexError as exc:  # an offset of a damaged index points outside its array
            raise _damaged(self._table, exc) from None

    def _python_candidates(self, hyp: Segment, ref: Segment, stage: int) -> list[Match]:
        hyp_walks, hyp_found = self._walks(hyp.tokens)
        ref_walks, ref_found = self._walks(ref.tokens)
        out: list[Match] = []
        # Pass 1: the reference has A, the hypothesis has B; pass 2: the other way round.
        self._one_way(ref_walks, hyp_found, stage, True, out)
        self._one_way(hyp_walks, ref_found, stage, False, out)
        return out

    def _one_way(
        self, a_walks: _Walks, b_found: _Occurrences, stage: int, a_in_ref: bool, out: list[Match]
    ) -> None:
        """Append to ``out`` a match for every phrase A walked on one side (the reference when
        ``a_in_ref``) whose paraphrase B stands on the other, in the reference order."""
        record_count = self._table.record_count
        paraphrases_of = self._table.paraphrases_of
        for a_start, steps in enumerate(a_walks):
            for depth, node in steps:
                if not record_count(node):
                    continue
                for b_node in paraphrases_of(node):
                    hit = b_found.get(b_node)
                    if hit is not None:
                        b_len, b_starts = hit
                        for b in b_starts:
                            out.append(
                                Match(a_start, depth, b, b_len, stage)
                                if a_in_ref
                                else Match(b, b_len, a_start, depth, stage)
                            )


def _damaged(table: ParaphraseTable, problem: Exception) -> ResourceError:
    """The error for an index found damaged while matching, after it passed its checks."""
    return ResourceError(
        f"paraphrase index {table.index_path} is damaged ({problem}); delete it to rebuild it"
    )
