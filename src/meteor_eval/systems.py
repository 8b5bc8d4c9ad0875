"""The systems of a request, :class:`Systems`, and the progress callback its run reports to.

They live below :mod:`meteor_eval.comparison`, which makes and runs a request, so that the
engines it hands the systems to (:mod:`meteor_eval.parallel`, :mod:`meteor_eval.distributed`)
name them without importing it; ``meteor_eval.comparison`` gives both under their old names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from meteor_eval.errors import InputError, WorkBudgetError
from meteor_eval.io import EncodingErrors
from meteor_eval.metrics.protocol import Pair

if TYPE_CHECKING:
    from meteor_eval.documents import Documents

__all__ = ["ProgressCallback", "Systems"]

#: ``progress(system, metric, done, total)``: segments scored so far of one system and metric
#: (``total``: the number of segments when known beforehand, else ``None``).
ProgressCallback = Callable[[str, str, int, "int | None"], None]


@dataclass
class Systems:
    """The systems of a request and how to read each one's segments.

    Attributes:
        names: One name per system, in order.
        sources: Per system, the hypothesis file (``None`` for in-memory systems): named in
            errors, counted for progress totals.
        pairs: ``pairs(k)`` streams system ``k``'s ``(hypothesis, references)`` pairs; it may be
            called once per metric (for files: a :class:`~meteor_eval.parallel.Files`, whose
            worker processes read their own byte ranges).
        ref_sources: The reference files, which Dask workers may read themselves (empty for
            in-memory systems or standard input).
        errors: How invalid UTF-8 is read (``"strict"`` or ``"replace"``).
        documents: In document mode, the documents (ids and lines; the same for every
            system, whose pairs are then the documents').
    """

    names: list[str]
    sources: list[str | None]
    pairs: Callable[[int], Iterable[Pair]]
    ref_sources: list[str] = field(default_factory=list)
    errors: EncodingErrors = "strict"
    documents: Documents | None = None

    def locate(self, k: int, error: WorkBudgetError) -> str:
        """A work budget's error of system ``k`` with its file and line, or in document mode
        its file and document (id and lines)."""
        source = self.sources[k] or self.names[k]
        if self.documents is None or error.line is None:
            return f"{source}, {error}"
        bare = WorkBudgetError(error.metric, error.kind, error.units, error.budget)
        return f"{source}, {self.documents.where(error.line - 1)}: {bare}"

    def in_documents(self, ids: list[str], *, source: str, separator: str = " ") -> Systems:
        """These systems in document mode: each system's segments joined into the documents of
        ``ids`` (one id per segment; errors name them as ``source``), read and joined once per
        system, since every metric scores the same documents. The ids are checked against the
        first system before anything is scored.
        """
        from meteor_eval.documents import document_pairs

        joined: dict[int, list[Pair]] = {}
        found: list[Documents] = []
        segment_pairs = self.pairs

        def pairs(k: int) -> Iterable[Pair]:
            if k not in joined:
                joined[k], docs = document_pairs(
                    segment_pairs(k), ids, separator=separator, source=source
                )
                found.append(docs)
            return iter(joined[k])

        pairs(0)  # the ids checked against the first system before anything is scored
        from meteor_eval._log import get_logger

        joiner = "a space" if separator == " " else "a newline"
        get_logger("meteor_eval.documents").info(
            "document mode: %s documents of %s segments (ids from %s), each document's "
            "segments joined with %s; every score below is per document",
            f"{len(ids and found[0].ids):,}",
            f"{len(ids):,}",
            source,
            joiner,
        )
        return replace(self, pairs=pairs, documents=found[0])

    @classmethod
    def from_lists(
        cls, systems: Mapping[str, Sequence[str]], references: Sequence[Sequence[str]]
    ) -> Systems:
        """In-memory systems: per name, each segment's hypothesis; ``references[i]`` the
        references of segment ``i`` (every segment is checked, as by ``corpus_score``).

        Raises:
            TypeError: a bare string where a sequence is expected.
            InputError: no system, a system of another length, a segment without reference.
        """
        from meteor_eval.metrics.base import check_corpus, check_segment

        if isinstance(systems, str) or not isinstance(systems, Mapping):
            raise TypeError("systems: expected a mapping of system name -> hypotheses")
        if not systems:
            raise InputError("systems: no system")
        checked: list[list[Pair]] = []
        for name, hypotheses in systems.items():
            try:
                check_corpus(hypotheses, references)
                pairs: list[Pair] = []
                for index, (hyp, refs) in enumerate(zip(hypotheses, references, strict=True)):
                    check_segment(index, hyp, refs)
                    pairs.append((hyp, refs))
            except InputError as exc:
                raise InputError(f"system {name!r}: {exc}") from None
            checked.append(pairs)
        return cls(list(systems), [None] * len(checked), lambda k: iter(checked[k]))
