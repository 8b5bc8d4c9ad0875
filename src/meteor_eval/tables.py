"""Structured input: systems and references from one table (JSON lines, CSV, TSV, Parquet, or a
pandas DataFrame), for ``--input FILE --hyp-field NAME --ref-field NAME`` and the API.

Each record is a segment. Every ``hyp_field`` is a system (its column, in order); the
``ref_fields`` hold the segment's references: a field with a string is one reference, a field
with a list (JSON lines, Parquet, DataFrame) is several, and several fields add up. A record
with a missing field, a value that is not text, or no reference at all is an error naming the
file, the line (JSON lines, CSV, TSV: the line in the file, header included; Parquet and
DataFrames: the row from 1) and the field: nothing is dropped or re-paired.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meteor_eval.errors import InputError

__all__ = ["TABLE_SUFFIXES", "Table", "from_dataframe", "read_table", "table_records"]

#: File name endings read by :func:`read_table`.
TABLE_SUFFIXES = (".jsonl", ".ndjson", ".csv", ".tsv", ".parquet")


@dataclass(frozen=True)
class Table:
    """Systems and references read from a table.

    Attributes:
        names: The systems, named after their fields, in the order given.
        hypotheses: Per system, each segment's hypothesis.
        references: Each segment's references.
    """

    names: tuple[str, ...]
    hypotheses: dict[str, list[str]]
    references: list[list[str]]


def _check_fields(hyp_fields: Sequence[str], ref_fields: Sequence[str]) -> None:
    if not hyp_fields:
        raise InputError("at least one hypothesis field is required")
    if not ref_fields:
        raise InputError("at least one reference field is required")
    for kind, fields in (("hypothesis", hyp_fields), ("reference", ref_fields)):
        if len(set(fields)) != len(fields):
            raise InputError(f"a {kind} field is given twice: {', '.join(fields)}")
    both = sorted(set(hyp_fields) & set(ref_fields))
    if both:
        raise InputError(f"field(s) {', '.join(both)} given as hypothesis and as reference")


def _text(value: Any, where: str, field: str) -> str:
    if isinstance(value, str):
        return value
    kind = "missing (null)" if value is None else f"a {type(value).__name__}, not text"
    raise InputError(f"{where}: field {field!r} is {kind}")


def _references(value: Any, where: str, field: str) -> list[str]:
    if isinstance(value, str):
        return [value]
    if value is None:
        raise InputError(f"{where}: field {field!r} is missing (null)")
    if hasattr(value, "tolist"):  # numpy arrays from Parquet or pandas
        value = value.tolist()
    if isinstance(value, list | tuple):
        return [_text(item, where, f"{field}[{k}]") for k, item in enumerate(value)]
    raise InputError(f"{where}: field {field!r} is a {type(value).__name__}, not text or a list")


def _collect(
    records: Iterable[tuple[str, Mapping[str, Any]]],
    hyp_fields: Sequence[str],
    ref_fields: Sequence[str],
    source: str,
) -> Table:
    """A :class:`Table` from ``(where, record)`` pairs, checking every field of every record."""
    _check_fields(hyp_fields, ref_fields)
    hypotheses: dict[str, list[str]] = {name: [] for name in hyp_fields}
    references: list[list[str]] = []
    for where, record in records:
        for field in (*hyp_fields, *ref_fields):
            if field not in record:
                known = ", ".join(sorted(map(str, record))) or "none"
                raise InputError(f"{where}: no field {field!r} (fields: {known})")
        for field in hyp_fields:
            hypotheses[field].append(_text(record[field], where, field))
        refs: list[str] = []
        for field in ref_fields:
            refs.extend(_references(record[field], where, field))
        if not refs:
            raise InputError(f"{where}: no reference ({', '.join(ref_fields)} empty)")
        references.append(refs)
    if not references:
        raise InputError(f"{source}: no segment")
    return Table(tuple(hyp_fields), hypotheses, references)


#: The first bytes of a gzip stream.
GZIP_MAGIC = b"\x1f\x8b"


def _text_of(path: Path, errors: str = "strict") -> str:
    """The whole file as text: a gzip file named as such, a UTF-8 byte-order mark dropped
    (spreadsheets write one; it would otherwise become part of the first field's name), bytes
    that are not UTF-8 an error naming the line (``errors="replace"``: U+FFFD instead, as
    ``--encoding-errors replace`` does for text files).

    Raises:
        InputError: unreadable, compressed, or not UTF-8.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror})") from None
    if data.startswith(GZIP_MAGIC):
        raise InputError(f"{path}: gzip-compressed; decompress it first (gunzip)")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8", errors=errors)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(
            f"{path}: line {line}: not valid UTF-8 (byte 0x{data[exc.start]:02x})"
        ) from None


def _lines(text: str) -> list[str]:
    """Lines ending in LF or CRLF (the last one may lack its break); nothing else splits."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _unique_keys(where: str) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    """A JSON object hook that refuses a key given twice (the JSON text would otherwise keep
    the last value silently, where a CSV header with a name twice is refused)."""

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        record: dict[str, Any] = {}
        for key, value in pairs:
            if key in record:
                raise InputError(f"{where}: key {key!r} appears twice in one object")
            record[key] = value
        return record

    return hook


def _jsonl_records(path: Path, errors: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """JSON Lines: one JSON object per line, no empty line, no key twice in an object."""
    for number, line in enumerate(_lines(_text_of(path, errors)), 1):
        where = f"{path}: line {number}"
        if not line.strip():
            raise InputError(f"{where}: empty line (every line must be one JSON object)")
        try:
            record = json.loads(line, object_pairs_hook=_unique_keys(where))
        except json.JSONDecodeError as exc:
            raise InputError(f"{where}: not valid JSON ({exc.msg})") from None
        if not isinstance(record, dict):
            raise InputError(f"{where}: a JSON {type(record).__name__}, not an object")
        yield where, record


def _header(path: Path, header: list[str] | None) -> list[str]:
    if header is None:
        raise InputError(f"{path}: empty file (a header line naming the fields is needed)")
    seen: set[str] = set()
    for name in header:
        if name in seen:
            raise InputError(f"{path}: line 1: field {name!r} appears twice in the header")
        seen.add(name)
    return header


def _csv_records(path: Path, errors: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """CSV as RFC 4180 has it: comma-separated, a field in double quotes may hold commas,
    line breaks and doubled quotes; a quote left open at the end of the file is an error."""
    reader = csv.reader(io.StringIO(_text_of(path, errors), newline=""), strict=True)
    try:
        header = _header(path, next(reader, None))
        for row in reader:
            where = f"{path}: line {reader.line_num}"
            if len(row) != len(header):
                raise InputError(f"{where}: {len(row)} fields but the header has {len(header)}")
            yield where, dict(zip(header, row, strict=True))
    except csv.Error as exc:
        raise InputError(f"{path}: line {reader.line_num}: not valid CSV ({exc})") from None


def _tsv_records(path: Path, errors: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """TSV as IANA's text/tab-separated-values has it: one record per line, fields split at
    tabs, no quoting (a ``"`` is an ordinary character: CSV's quoting would drop the quotes
    of ``"Hello," he said`` and let an unclosed quote swallow the next lines)."""
    lines = _lines(_text_of(path, errors))
    header = _header(path, lines[0].split("\t") if lines else None)
    for number, line in enumerate(lines[1:], 2):
        row = line.split("\t")
        if len(row) != len(header):
            raise InputError(
                f"{path}: line {number}: {len(row)} fields but the header has {len(header)}"
            )
        yield f"{path}: line {number}", dict(zip(header, row, strict=True))


def _parquet_records(path: Path) -> Iterator[tuple[str, Mapping[str, Any]]]:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError(
            f"{path}: reading Parquet needs pyarrow (pip install 'meteor-eval[parquet]')"
        ) from None
    table = pq.read_table(path)
    for number, record in enumerate(table.to_pylist(), 1):
        yield f"{path}: row {number}", record


def table_records(path: Path, *, errors: str = "strict") -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Each record of a ``.jsonl``, ``.csv``, ``.tsv`` or ``.parquet`` file with where it is
    (``FILE: line N``), for readers of other layouts (``meteor-eval train``'s judgements).

    Raises:
        InputError: an unknown file type, a missing file or a malformed record.
    """
    suffix = path.suffix.lower()
    if suffix == ".gz":
        raise InputError(f"{path}: gzip-compressed; decompress it first (gunzip)")
    if suffix not in TABLE_SUFFIXES:
        raise InputError(f"{path}: unknown table type {suffix!r}; use {', '.join(TABLE_SUFFIXES)}")
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    if errors not in ("strict", "replace"):
        raise ValueError(f"errors: {errors!r} is invalid; allowed: strict, replace")
    if suffix in (".jsonl", ".ndjson"):
        return _jsonl_records(path, errors)
    if suffix == ".parquet":
        return _parquet_records(path)
    return _tsv_records(path, errors) if suffix == ".tsv" else _csv_records(path, errors)


def read_table(
    path: str | Path,
    *,
    hyp_fields: Sequence[str],
    ref_fields: Sequence[str],
    errors: str = "strict",
) -> Table:
    """Systems and references from a ``.jsonl``, ``.csv``, ``.tsv`` or ``.parquet`` file
    (``errors="replace"``: bytes that are not UTF-8 become U+FFFD instead of an error).

    Raises:
        InputError: an unknown file type, an unreadable file, or a bad record (file, line and
            field named).

    Example:
        >>> import tempfile, os
        >>> folder = tempfile.mkdtemp()
        >>> path = os.path.join(folder, "data.jsonl")
        >>> with open(path, "w") as f:
        ...     _ = f.write('{"mt": "a cat", "refs": ["the cat", "a cat"]}\\n')
        >>> read_table(path, hyp_fields=["mt"], ref_fields=["refs"]).references
        [['the cat', 'a cat']]
    """
    file = Path(path)
    return _collect(table_records(file, errors=errors), hyp_fields, ref_fields, str(file))


def from_dataframe(frame: Any, *, hyp_fields: Sequence[str], ref_fields: Sequence[str]) -> Table:
    """Systems and references from a pandas DataFrame (rows are segments; a reference column
    may hold lists). pandas is not imported: any object with ``columns`` and ``to_dict``
    works.

    Raises:
        InputError: a missing column or a bad value (row from 1 and column named).
    """
    columns = [str(c) for c in frame.columns]
    for field in (*hyp_fields, *ref_fields):
        if field not in columns:
            raise InputError(f"DataFrame: no column {field!r} (columns: {', '.join(columns)})")
    records = frame.to_dict(orient="records")
    return _collect(
        ((f"DataFrame: row {k}", record) for k, record in enumerate(records, 1)),
        hyp_fields,
        ref_fields,
        "DataFrame",
    )
