"""Statistics files that carry their configuration: written by ``--stats``, read by
``--from-stats``.

A statistics file holds one segment's statistics row per line (for METEOR the jar's 23 numbers,
formatted as its ``-ssOut`` writes them), after one header line::

    #meteor-eval-stats {"format": 1, "metric": "meteor", "config": {...}, "signature": "...",
                        "nrefs": "2", "columns": [...], "segments": 2489, "system": "sys.txt"}

(one line of JSON in the file). The header says everything needed to re-score the rows exactly
as they were scored: the metric, its full configuration, the signature and the reference count.
It also says which segments the rows are of: ``"references"``, a SHA-256 digest of every
segment's references in order (:func:`references_digest`), with ``"segments"`` their number.
Files compared with each other (a paired test, a table of systems) must have the same digest
and count: rows of lines 1-300 paired with rows of lines 301-600 would give a p-value about
nothing, so they are refused (:func:`check_same_segments`).
Re-scoring takes the configuration from the header, so the signature printed is the original
one; options that would change the statistics themselves (another flavour, normalisation,
modules, tokeniser...) contradict the file and are refused, while options that only change the
formula (METEOR's parameters and weights, BLEU's smoothing, the aggregation) may be set and are
then part of the new signature (:data:`meteor_eval.metrics.protocol.Metric.score_fields`).

A file without the header (for example one written by the jar's ``-ssOut``) is refused: its
configuration is unknown, and guessing it silently is how wrong scores are published.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from meteor_eval.errors import ConfigError, InputError
from meteor_eval.metrics.protocol import Metric, Parts, Row
from meteor_eval.stats.meteor import row_problem as meteor_row_problem

if TYPE_CHECKING:
    from meteor_eval.results import ComparisonResult

__all__ = [
    "HEADER_PREFIX",
    "StatsFile",
    "StoredSystems",
    "check_same_segments",
    "config_fields",
    "config_from_fields",
    "input_references_digest",
    "metric_from_header",
    "read_stats",
    "read_systems",
    "references_digest",
    "row_problem",
    "stats_header",
    "stats_metric",
    "write_row",
    "write_stats",
    "write_system_stats",
]

#: How the header line starts.
HEADER_PREFIX = "#meteor-eval-stats "
_FORMAT = 1


@dataclass(frozen=True)
class StatsFile:
    """A statistics file read back: its header and its rows.

    Attributes:
        path: Where it was read from.
        metric: Metric family (``"meteor"``, ``"bleu"``, ``"rouge"``).
        config: The configuration's fields, as written.
        signature: The signature the statistics were scored with.
        nrefs: The reference-count label of that signature.
        system: Name of the system the statistics belong to.
        rows: One statistics row per segment.
        references: The digest of the segments' references (``None`` in files written
            before it was recorded).
    """

    path: str
    metric: str
    config: dict[str, Any]
    signature: str
    nrefs: str
    system: str
    rows: list[Row]
    references: str | None = None


def references_digest(pairs: Iterable[tuple[str, Sequence[str]]]) -> str:
    """``sha256:<hex>`` of every segment's references, in order: what identifies the segments
    a statistics file is of (the same reference files give the same digest; other lines,
    another order or another number of references give another).

    Each reference is its UTF-8 bytes preceded by their length, each segment its number of
    references first, so no two different inputs run together into one byte string.

    Example:
        >>> a = references_digest([("h", ["the cat"]), ("h", ["a dog"])])
        >>> a == references_digest([("other", ["the cat"]), ("x", ["a dog"])])
        True
        >>> a == references_digest([("h", ["a dog"]), ("h", ["the cat"])])
        False
    """
    import hashlib

    digest = hashlib.sha256()
    for _, refs in pairs:
        digest.update(len(refs).to_bytes(4, "big"))
        for ref in refs:
            data = ref.encode("utf-8", "surrogatepass")
            digest.update(len(data).to_bytes(8, "big"))
            digest.update(data)
    return "sha256:" + digest.hexdigest()


def config_fields(metric: Metric[Any]) -> dict[str, Any]:
    """The metric's configuration as JSON-ready fields (tuples become lists)."""
    return {
        field.name: getattr(metric.config, field.name)
        for field in dataclasses.fields(metric.config)
    }


def input_references_digest(pairs: Iterable[tuple[str, Sequence[str]]]) -> str:
    """:func:`references_digest` of input read a second time, its warnings (a byte-order
    mark, a carriage return) already given by the scoring pass and not repeated."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return references_digest(pairs)


def stats_header(
    metric: Metric[Any],
    *,
    nrefs: str,
    segments: int,
    system: str,
    references: str | None = None,
) -> str:
    """The header line (without line break) of a statistics file of ``metric``
    (``references``: :func:`references_digest` of the segments scored)."""
    header: dict[str, Any] = {
        "format": _FORMAT,
        "metric": metric.name,
        "config": config_fields(metric),
        "signature": metric.signature(nrefs).format(),
        "nrefs": nrefs,
        "columns": list(metric.columns),
        "segments": segments,
        "system": system,
    }
    if references is not None:
        header["references"] = references
    return HEADER_PREFIX + json.dumps(header, ensure_ascii=False)


def _number(value: float) -> str:
    """A row number as the jar's ``-ssOut`` prints it for integers (``3.0``), else ``repr``."""
    if float(value).is_integer() and math.isfinite(value):
        return f"{float(value)!r}"
    return repr(float(value))


def write_row(out: IO[str], row: Row) -> None:
    """Write one statistics row as a line of space-separated numbers."""
    out.write(" ".join(_number(x) for x in row) + "\n")


def write_stats(
    path: str,
    metric: Metric[Any],
    rows: Sequence[Row],
    *,
    nrefs: str,
    system: str,
    references: str | None = None,
) -> None:
    """Write a statistics file: the header (``nrefs``: the reference-count label the rows were
    scored with; ``references``: :func:`references_digest` of the segments scored), then one
    line per segment's row (a write error names the file and leaves no half-written file:
    :func:`meteor_eval.io.output_file`)."""
    from meteor_eval.io import output_file

    header = stats_header(
        metric, nrefs=nrefs, segments=len(rows), system=system, references=references
    )
    with output_file(path) as out:
        out.write(header + "\n")
        for row in rows:
            write_row(out, row)


def write_system_stats(
    paths: Sequence[str], result: ComparisonResult, pairs: Iterable[tuple[str, Sequence[str]]]
) -> None:
    """The statistics files of a comparison: ``paths[k]`` of its ``k``-th system, from the
    rows each metric kept, under the reference-count label their result was scored with.
    ``pairs`` are the segments scored, read again for their
    :func:`references_digest` (which paired tests of the files check:
    :func:`check_same_segments`) before any file is opened: that read can fail (a pipe gives
    nothing the second time), and a run writes its side files after it, so that a failure
    leaves none of them."""
    references = input_references_digest(pairs)
    for path, name in zip(paths, result.names, strict=True):
        for metric in result.metrics:
            run = result.runs[name][metric.name]
            if run.rows is not None and run.label is not None:
                write_stats(
                    path, metric, run.rows, nrefs=run.label, system=name, references=references
                )


def stats_metric(path: str) -> str | None:
    """The metric named by a statistics file's header, read from its first line only
    (``None`` when the file or its header cannot be read: :func:`read_stats` then says why)."""
    try:
        with open(path, encoding="utf-8") as handle:
            line = handle.readline()
    except (OSError, UnicodeDecodeError):
        return None
    if not line.startswith(HEADER_PREFIX):
        return None
    try:
        header = json.loads(line[len(HEADER_PREFIX) :])
    except json.JSONDecodeError:
        return None
    metric = header.get("metric") if isinstance(header, dict) else None
    return metric if isinstance(metric, str) else None


def _parse_header(path: str, line: str) -> dict[str, Any]:
    if not line.startswith(HEADER_PREFIX):
        raise InputError(
            f"{path}:1: not a meteor-eval statistics file (no '{HEADER_PREFIX.strip()}' header); "
            "write statistics with --stats to record how they were made"
        )
    try:
        header = json.loads(line[len(HEADER_PREFIX) :])
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}:1: the statistics header is not valid JSON ({exc.msg})") from None
    required = ("format", "metric", "config", "signature", "nrefs", "columns", "segments")
    missing = [key for key in required if key not in (header if isinstance(header, dict) else {})]
    if not isinstance(header, dict) or missing:
        raise InputError(f"{path}:1: the statistics header lacks {', '.join(missing) or 'fields'}")
    if header["format"] != _FORMAT:
        raise InputError(
            f"{path}:1: statistics format {header['format']!r}; this version reads {_FORMAT}"
        )
    return header


def _parse_row(path: str, number: int, line: str, width: int, integral: bool) -> Row:
    parts = line.split()
    if len(parts) != width:
        raise InputError(f"{path}:{number}: {len(parts)} numbers, the header's metric has {width}")
    try:
        values = [float(part) for part in parts]
    except ValueError:
        raise InputError(f"{path}:{number}: not a number in {line.strip()!r}") from None
    if not all(math.isfinite(v) for v in values):
        raise InputError(f"{path}:{number}: a statistics row holds only finite numbers")
    if integral:
        if not all(v.is_integer() for v in values):
            raise InputError(f"{path}:{number}: this metric's statistics are whole numbers")
        if any(v < 0 for v in values):
            raise InputError(f"{path}:{number}: a statistics row holds no negative numbers")
        return tuple(int(v) for v in values)
    return tuple(values)


def _bleu_row_problem(row: Row, order: int) -> str | None:
    """What makes a BLEU row impossible: more matching n-grams than n-grams."""
    for n in range(order):
        if row[2 + n] > row[2 + order + n]:
            return f"counts_{n + 1} ({row[2 + n]}) above totals_{n + 1} ({row[2 + order + n]})"
    return None


def row_problem(metric: str, row: Sequence[float], width: int) -> str | None:
    """What makes a statistics row (or a sum of rows) of ``metric`` impossible, or ``None``:
    the one rule of every reader of stored rows (statistics files, mergeable states).

    Example:
        >>> row_problem("bleu", (3, 3, 2, 1, 0, 0, 3, 2, 1, 0), 10)
        >>> row_problem("bleu", (3, 3, 4, 1, 0, 0, 3, 2, 1, 0), 10)
        'counts_1 (4) above totals_1 (3)'
    """
    if len(row) != width:
        return f"{len(row)} numbers, the metric has {width}"
    if metric == "meteor" and width >= 23:
        return meteor_row_problem(row)
    if metric == "bleu" and width >= 2 and width % 2 == 0:
        negative = next((v for v in row if v < 0), None)
        if negative is not None:
            return f"a negative count ({negative})"
        return _bleu_row_problem(tuple(row), (width - 2) // 2)
    return None


def _check_rows(path: str, metric: str, rows: Sequence[Row], width: int) -> None:
    """Refuse rows no scoring run can write (edited or damaged files), naming the line."""
    for k, row in enumerate(rows, start=2):
        if metric == "meteor" and width >= 23:
            problem = meteor_row_problem(row)
        elif metric == "bleu" and width >= 2 and width % 2 == 0:
            problem = _bleu_row_problem(row, (width - 2) // 2)
        else:
            return
        if problem is not None:
            raise InputError(f"{path}:{k}: impossible {metric.upper()} statistics: {problem}")


def read_stats(path: str) -> StatsFile:
    """Read a statistics file written by ``--stats``.

    Raises:
        InputError: the file is missing, has no valid header, a row has the wrong number of
            numbers or a bad number, or the row count differs from the header's (each error
            names the file and line).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: file not found") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text ({exc.reason})") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a statistics file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    lines = text.splitlines()
    if not lines:
        raise InputError(f"{path}: empty file (expected a statistics header)")
    header = _parse_header(path, lines[0])
    width = len(header["columns"])
    integral = header["metric"] in ("meteor", "bleu")
    rows = [_parse_row(path, k, line, width, integral) for k, line in enumerate(lines[1:], start=2)]
    _check_rows(path, str(header["metric"]), rows, width)
    if len(rows) != header["segments"]:
        raise InputError(
            f"{path}: {len(rows)} statistics rows, the header says {header['segments']}"
        )
    return StatsFile(
        path=path,
        metric=str(header["metric"]),
        config=dict(header["config"]),
        signature=str(header["signature"]),
        nrefs=str(header["nrefs"]),
        system=str(header.get("system") or Path(path).name),
        rows=rows,
        references=_references_of(path, header),
    )


def _references_of(path: str, header: dict[str, Any]) -> str | None:
    value = header.get("references")
    if value is None:
        return None
    if not isinstance(value, str) or not value.startswith("sha256:") or len(value) != 71:
        raise InputError(f"{path}:1: the header's references digest {value!r} is malformed")
    return value


def _as_config_value(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def metric_from_header(stats: StatsFile, overrides: dict[str, Any] | None = None) -> Metric[Any]:
    """The metric that made ``stats``, with ``overrides`` of fields that only change the score.

    A resource file given at another path than the header's (a copied or moved
    ``new-language`` folder) is accepted when its content is the same: the signature's resource
    ids (content checksums) are compared, not the paths (:data:`Metric.resource_fields
    <meteor_eval.metrics.protocol.Metric.resource_fields>`), and the new path is used, since
    the old one may be gone.

    Raises:
        InputError: an override changes a field that determines the statistics, or gives a
            resource file of other content (named, with both values: the file and the options
            contradict each other).
        ConfigError: the header's configuration is not valid for this version.
    """
    from meteor_eval.metrics.registry import metric_class

    cls = metric_class(stats.metric)
    fields = {key: _as_config_value(value) for key, value in stats.config.items()}
    moved: dict[str, Any] = {}
    for key, value in (overrides or {}).items():
        if key not in fields:
            raise ConfigError(f"{stats.path}: {stats.metric} has no setting {key!r}")
        if _as_config_value(value) == fields[key]:
            continue
        if key in cls.resource_fields:
            moved[key] = value  # compared by content below
        elif key not in cls.score_fields:
            raise InputError(
                f"{stats.path}: the statistics were made with {key}={fields[key]!r}; "
                f"{key}={value!r} would need new statistics (re-score the text instead)"
            )
        fields[key] = _as_config_value(value)
    try:
        _, config = config_from_fields(stats.metric, fields)
    except ConfigError as exc:
        raise ConfigError(f"{stats.path}: {exc}") from None
    metric = cls(config)
    if moved:
        _check_same_resources(stats, metric, moved)
    return metric


def _signature_value(signature: str, key: str) -> str | None:
    """The value of ``key`` in a formatted signature (``metric|key:value|...``), or ``None``."""
    for part in signature.split("|")[1:]:
        name, _, value = part.partition(":")
        if name == key:
            return value
    return None


def _check_same_resources(stats: StatsFile, metric: Metric[Any], moved: dict[str, Any]) -> None:
    """Refuse resource files at new paths (``moved``: field -> new path) whose content differs
    from those the statistics were made with, naming each resource that differs.

    The header's signature holds the resource ids of the original files, so the check needs
    neither them nor their old paths (a moved folder leaves none).
    """
    made = _signature_value(stats.signature, "resources")
    now = metric.signature(stats.nrefs).get("resources")
    if made is not None and made == now:
        return
    if made is None or now is None:
        key, value = next(iter(moved.items()))
        raise InputError(
            f"{stats.path}: the statistics were made with {key}={stats.config[key]!r}; "
            f"{key}={value!r} would need new statistics (re-score the text instead)"
        )
    old_ids, new_ids = made.split(","), now.split(",")
    if len(old_ids) == len(new_ids):
        pairs = [(old, new) for old, new in zip(old_ids, new_ids, strict=True) if old != new]
    else:
        pairs = [(made, now)]
    names = type(metric).resource_fields
    parts = []
    for _, new in pairs:
        given = next((k for k in moved if new.startswith(names[k] + "-")), None)
        parts.append(
            f"the resources are now {new}"
            if given is None
            else f"{given}={moved[given]!r} is {new} (other content)"
        )
    raise InputError(
        f"{stats.path}: the statistics were made with {', '.join(old for old, _ in pairs)}; "
        f"{'; '.join(parts)}: other resources need new statistics (re-score the text instead)"
    )


def config_from_fields(name: str, fields: dict[str, Any]) -> tuple[type[Metric[Any]], Any]:
    """The metric class of ``name`` and its configuration rebuilt from JSON-ready fields.

    Raises:
        ConfigError: an unknown metric or an invalid configuration for this version.
    """
    from meteor_eval.metrics.registry import metric_class

    cls = metric_class(name)
    values = {key: _as_config_value(value) for key, value in fields.items()}
    try:
        config = cls.config_type()(**values)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"invalid {name} configuration in the header ({exc})") from None
    return cls, config


def _same_settings(first: StatsFile, other: StatsFile) -> bool:
    """Whether two files were made with the same metric and configuration, resource files at
    other paths counting as the same when the signatures' resource ids (their content) are."""
    if first.metric != other.metric:
        return False
    if first.config == other.config:
        return True
    from meteor_eval.metrics.registry import metric_class

    keys = first.config.keys() | other.config.keys()
    differ = {key for key in keys if first.config.get(key) != other.config.get(key)}
    resources = _signature_value(first.signature, "resources")
    return (
        differ <= metric_class(first.metric).resource_fields.keys()
        and resources is not None
        and resources == _signature_value(other.signature, "resources")
    )


def check_same_metric(files: Sequence[StatsFile]) -> None:
    """Refuse statistics files of different metrics or configurations in one comparison
    (resource files are compared by content: a folder copied between runs is the same)."""
    first = files[0]
    for other in files[1:]:
        if not _same_settings(first, other):
            raise InputError(
                f"{other.path}: made with other settings than {first.path} "
                f"({other.signature} vs {first.signature}); compare like with like"
            )
        if len(other.rows) != len(first.rows):
            raise InputError(
                f"{other.path}: {len(other.rows)} segments but {first.path} has {len(first.rows)}"
            )


def check_same_segments(files: Sequence[StatsFile]) -> None:
    """Refuse statistics files that are not of the same segments, before they are compared
    or tested against each other: another number of segments or another references digest.

    A file written before the digest was recorded cannot be checked: a warning says so.

    Raises:
        InputError: naming both files and what differs.
    """
    import warnings

    if len(files) < 2:
        return
    first = files[0]
    for other in files[1:]:
        if len(other.rows) != len(first.rows):
            raise InputError(
                f"{other.path}: {len(other.rows)} segments but {first.path} has "
                f"{len(first.rows)}; statistics compared must be of the same segments"
            )
    known = [(f, f.references) for f in files if f.references is not None]
    for other, digest in known[1:]:
        base, base_digest = known[0]
        if digest != base_digest:
            raise InputError(
                f"{other.path}: scored against other references than {base.path} "
                f"({digest[7:19]}... vs {base_digest[7:19]}...): statistics "
                "compared must be of the same segments, in the same order"
            )
    unknown = [f.path for f in files if f.references is None]
    if unknown:
        warnings.warn(
            f"{', '.join(unknown)}: no references digest in the header (written by an older "
            "version): cannot check that the files are of the same segments",
            stacklevel=2,
        )


@dataclass(frozen=True)
class StoredSystems:
    """Statistics files read back as systems to re-score: per metric (in the order first seen)
    the metric rebuilt from the files' headers and, per system, its file, whose rows are
    already what an engine would compute (``parts``).

    Attributes:
        names: The systems, in order (every metric has the same systems in the same order).
        metrics: Per metric, the metric object and each system's statistics file.
        parts: Per system name, per metric name, the file's rows as the metric reduces them
            (``Metric.system_run``): scored with the header's reference-count label, each
            segment counted with the label's number of references (0 where it varies: a file
            does not record each segment's).
    """

    names: list[str]
    metrics: list[tuple[Metric[Any], list[StatsFile]]]
    parts: dict[str, dict[str, Parts]]


def read_systems(
    paths: Sequence[str],
    overrides: dict[str, dict[str, Any]] | None = None,
    *,
    names: Sequence[str] | None = None,
) -> StoredSystems:
    """Statistics files as systems: files of several metrics are grouped by metric; within a
    metric each file is a system, and every metric must have the same systems in order.

    Args:
        paths: The statistics files.
        overrides: Per metric name, settings that only change the score (``score_fields``).
        names: The systems' names (default: those in the headers).

    Raises:
        ConfigError: overrides of a metric no file has, or a wrong number of names.
        InputError: unreadable or inconsistent files, systems that differ between metrics,
            or two systems of one name.
    """
    overrides = overrides or {}
    groups: dict[str, list[StatsFile]] = {}
    for path in paths:
        stats = read_stats(path)
        groups.setdefault(stats.metric, []).append(stats)
    for name in sorted(set(overrides) - set(groups)):
        if overrides[name]:
            raise ConfigError(
                f"{name} options were given but no statistics file of {name} was "
                f"({', '.join(sorted(groups))} only)"
            )
    first_names: list[str] | None = None
    metrics: list[tuple[Metric[Any], list[StatsFile]]] = []
    for metric_name, group in groups.items():
        check_same_metric(group)
        check_same_segments(group)
        metric = metric_from_header(group[0], overrides.get(metric_name))
        systems = _system_names(names, [stats.system for stats in group])
        if first_names is None:
            first_names = systems
        elif systems != first_names:
            raise InputError(
                f"the {metric_name} statistics are of systems {', '.join(systems)}, the others "
                f"of {', '.join(first_names)}"
            )
        metrics.append((metric, group))
    found = first_names or []
    parts: dict[str, dict[str, Parts]] = {name: {} for name in found}
    for metric, group in metrics:
        for name, stats in zip(found, group, strict=True):
            count = int(stats.nrefs) if stats.nrefs.isdigit() else 0
            segments = [(row, count, None) for row in stats.rows]
            parts[name][metric.name] = Parts(segments=segments, nrefs=stats.nrefs)
    return StoredSystems(found, metrics, parts)


def _system_names(given: Sequence[str] | None, names: list[str]) -> list[str]:
    if given:
        if len(given) != len(names):
            raise ConfigError(
                f"--names gives {len(given)} names for {len(names)} statistics files per metric"
            )
        names = list(given)
    if len(set(names)) != len(names):
        raise InputError(
            f"two statistics files have the same system name ({', '.join(names)}); use --names"
        )
    return names
