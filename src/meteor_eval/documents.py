"""Document mode: score documents made of several segments, as document-level evaluation does.

Document-level MT and summarisation evaluate a document as one text: each document's segments
are joined, in input order, into one hypothesis, and the k-th references of its segments into
its k-th reference. The rule here is the one of document-level BLEU (Liu et al., 2020, "Multilingual
Denoising Pre-training for Neural Machine Translation", which concatenates a document's
sentences, as users of sacrebleu do) and of scoring whole documents with the METEOR 1.5 jar,
which takes one line per segment (so a document is its sentences joined on one line): the
segments are joined with a single space (``separator``; a newline keeps sentence boundaries
for ROUGE-Lsum and ROUGE-W, whose sentences are lines). Every metric then scores the documents
exactly as it scores segments: corpus statistics, confidence intervals, significance tests and
reports count documents.

Document ids come from a list (one id per segment: a file with one id a line, ``--doc-ids
FILE``, or a field of an ``--input`` table, ``--doc-field NAME``). A document's segments must
be consecutive (as in WMT's test sets): an id that comes back after another document began is
refused, naming both lines, since it is almost always a misaligned ids file. Documents keep the
order of their first segments. All segments of a document must have the same number of
references.

Example:
    >>> docs = join_documents(
    ...     ["a cat sat .", "it purred .", "dogs bark ."],
    ...     [["the cat sat ."], ["it purred ."], ["dogs are barking ."]],
    ...     ["d1", "d1", "d2"],
    ... )
    >>> docs.hypotheses
    ['a cat sat . it purred .', 'dogs bark .']
    >>> docs.references
    [['the cat sat . it purred .'], ['dogs are barking .']]
    >>> docs.ids, docs.lines
    (['d1', 'd2'], [(1, 2), (3, 3)])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meteor_eval.errors import InputError

__all__ = [
    "Documents",
    "document_pairs",
    "join_documents",
    "read_doc_field",
    "read_doc_ids",
]


@dataclass
class Documents:
    """Segments grouped into documents.

    Attributes:
        ids: Each document's id, in the order of its first segment.
        hypotheses: Each document's hypothesis: its segments' joined.
        references: Each document's references (the k-th: its segments' k-th joined).
        lines: Each document's first and last segment (1-based lines of the input).
    """

    ids: list[str]
    hypotheses: list[str]
    references: list[list[str]]
    lines: list[tuple[int, int]]

    def where(self, index: int) -> str:
        """``document N (id 'X', lines A-B)`` for the document at ``index`` (0-based)."""
        first, last = self.lines[index]
        span = f"line {first}" if first == last else f"lines {first}-{last}"
        return f"document {index + 1} (id {self.ids[index]!r}, {span})"


def read_doc_ids(path: str | Path) -> list[str]:
    """The document id of each segment: one id a line of a UTF-8 file (surrounding spaces
    removed).

    Raises:
        InputError: the file cannot be read or decoded, or a line is empty (file and line
            named).
    """
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{file}: not valid UTF-8 ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise InputError(f"{file}: cannot read the document ids ({exc.strerror})") from None
    ids = [line.strip() for line in text.splitlines()]
    for number, value in enumerate(ids, 1):
        if not value:
            raise InputError(f"{file}: line {number}: empty document id")
    return ids


def read_doc_field(path: str | Path, field: str) -> list[str]:
    """The document id of each record of an ``--input`` table: its field ``field`` (a string
    or an integer).

    Raises:
        InputError: a record without the field, or whose value is empty or not a string or a
            whole number (file, line and field named).
    """
    from meteor_eval.tables import table_records

    ids: list[str] = []
    for where, record in table_records(Path(path)):
        if field not in record:
            known = ", ".join(sorted(map(str, record))) or "none"
            raise InputError(f"{where}: no field {field!r} (fields: {known})")
        value: Any = record[field]
        if isinstance(value, bool) or not isinstance(value, str | int) or str(value).strip() == "":
            raise InputError(f"{where}: field {field!r}: a document id must be a non-empty text")
        ids.append(str(value).strip())
    return ids


def join_documents(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    doc_ids: Sequence[str],
    *,
    separator: str = " ",
    source: str = "doc_ids",
) -> Documents:
    """Join consecutive segments with the same document id into documents (module docstring).

    Args:
        hypotheses: One hypothesis per segment.
        references: The references of each segment.
        doc_ids: The document id of each segment.
        separator: What joins a document's segments (a space; ``"\\n"`` for sentence-split
            ROUGE variants).
        source: How to name the ids in errors (a file name, an option).

    Raises:
        InputError: the ids and segments differ in number, a document's segments are not
            consecutive, or its segments have different numbers of references.
    """
    if isinstance(doc_ids, str):
        raise TypeError("doc_ids: expected one id per segment, got a str")
    if len(doc_ids) != len(hypotheses) or len(references) != len(hypotheses):
        raise InputError(
            f"{source}: {len(doc_ids):,} document ids for {len(hypotheses):,} segments "
            f"({len(references):,} reference sets); give one id per segment"
        )
    out = Documents([], [], [], [])
    closed: dict[str, int] = {}
    hyp_parts: list[str] = []
    ref_parts: list[list[str]] = []
    current: str | None = None
    first = 0

    def close(last: int) -> None:
        assert current is not None
        out.ids.append(current)
        out.hypotheses.append(separator.join(hyp_parts))
        out.references.append([separator.join(column) for column in ref_parts])
        out.lines.append((first, last))
        closed[current] = last

    for number, (doc, hyp, refs) in enumerate(zip(doc_ids, hypotheses, references, strict=True), 1):
        doc = str(doc)
        if doc != current:
            if doc in closed:
                raise InputError(
                    f"{source}: line {number}: document {doc!r} comes back after other "
                    f"documents (it ended at line {closed[doc]}); a document's segments must "
                    "be consecutive"
                )
            if current is not None:
                close(number - 1)
            current, first = doc, number
            hyp_parts, ref_parts = [], [[] for _ in refs]
        elif len(refs) != len(ref_parts):
            raise InputError(
                f"{source}: line {number}: document {doc!r} has {len(ref_parts)} references at "
                f"line {first} but {len(refs)} here; its segments need the same number"
            )
        hyp_parts.append(hyp)
        for column, text in zip(ref_parts, refs, strict=True):
            column.append(text)
    if current is not None:
        close(len(hypotheses))
    return out


def document_pairs(
    pairs: Iterable[tuple[str, Sequence[str]]],
    doc_ids: Sequence[str],
    *,
    separator: str = " ",
    source: str = "doc_ids",
) -> tuple[list[tuple[str, Sequence[str]]], Documents]:
    """:func:`join_documents` of ``(hypothesis, references)`` pairs: the documents' pairs and
    the :class:`Documents` (for their ids and lines)."""
    hyps: list[str] = []
    refs: list[Sequence[str]] = []
    for hyp, group in pairs:
        hyps.append(hyp)
        refs.append(group)
    docs = join_documents(hyps, refs, doc_ids, separator=separator, source=source)
    return list(zip(docs.hypotheses, docs.references, strict=True)), docs
