"""SGML mode of the jar (spec 1.3, 6.4): ``<tstset>``/``<refset>`` files, three score files.

Parsing follows the jar line by line: set and doc headers set the current set, system and
document; a ``<seg id=...>`` line starts a segment that continues, **without a separator**, over
the following lines until a ``</seg>`` tag; the six Java ``\\s`` characters become spaces; the
text between the first seg tag and the last closing tag is trimmed and unescaped (``&quot;``,
``&apos;``, ``&lt;``, ``&gt;``, ``&amp;``, case-insensitively, in that order).

Iteration order matters for stdout (one block per system), for the warnings and for reference
ties, so the jar's containers are emulated: ``java.util.Hashtable`` for the parsed data and
``java.util.HashSet`` for the union of set, document and segment ids. The score files are sorted
with the jar's comparators (including their quirk with ``-vOut``, whose tab-separated values
take part in the sort key).

Differences from the jar (where it crashes or hangs), each reported as a one-line error (exit 1):

* a file ends inside a segment (no closing tag): the jar appends ``null`` forever and hangs;
* a set id present in only one of the two files, a doc header before any set header, a segment
  before any doc header: the jar dies with a NullPointerException;
* a document or system in which no segment could be scored: the jar dies with an
  IndexOutOfBoundsException while scoring the empty aggregate.

Malformed headers (no ``setid``, no ``docid``, no system id) give the jar's own messages.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from typing import Final, Generic, TextIO, TypeVar

from meteor_eval.align.alignment import Alignment
from meteor_eval.jar.config import JarConfigError, JarSettings
from meteor_eval.jar.lines import read_jar_lines
from meteor_eval.jar.options import JarOptions
from meteor_eval.jar.output import alignment_record, stats_line, system_block, verbose_value
from meteor_eval.javafmt import java_double
from meteor_eval.metrics.meteor import Meteor, pool_stats, score_from_stats
from meteor_eval.metrics.meteor.formula import Components
from meteor_eval.stats.meteor import MeteorStats
from meteor_eval.text.tokenize import java_hash, java_trim

__all__ = ["JavaHashtable", "SgmlData", "hashset_order", "parse_sgml", "run_sgml"]

V = TypeVar("V")

_WS: Final = r"[ \t\n\x0b\f\r]"
_NOT_EOL: Final = r"[^\n\r\x85\u2028\u2029]"  # Java's "." without DOTALL
_FLAGS: Final = re.IGNORECASE | re.ASCII
_SET: Final = re.compile(rf"<{_WS}*(tst|ref)set", _FLAGS)
_SETID: Final = re.compile(rf'setid{_WS}*={_WS}*"([^"]+)"', _FLAGS)
_SYSID: Final = re.compile(rf'(sys|ref)id{_WS}*={_WS}*"([^"]+)"', _FLAGS)
_DOC: Final = re.compile(rf"<{_WS}*doc", _FLAGS)
_DOCID: Final = re.compile(rf'docid{_WS}*={_WS}*"([^"]+)"', _FLAGS)
_SEG: Final = re.compile(rf'<{_WS}*seg{_WS}*id{_WS}*={_WS}*"?([^">]+?)"?{_WS}*>', _FLAGS)
_SEG_END: Final = re.compile(rf"<{_WS}*/seg{_WS}*>", _FLAGS)
_TEXT: Final = re.compile(rf"<{_WS}*seg{_NOT_EOL}*?>({_NOT_EOL}*)<{_WS}*/seg{_WS}*>", _FLAGS)
_JAVA_WS: Final = re.compile(_WS)
_ENTITIES: Final = tuple(
    (re.compile(re.escape(entity), _FLAGS), text)
    for entity, text in (
        ("&quot;", '"'),
        ("&apos;", "'"),
        ("&lt;", "<"),
        ("&gt;", ">"),
        ("&amp;", "&"),
    )
)
_JAVA_INT: Final = re.compile(r"[+-]?[0-9]+")


class JavaHashtable(Generic[V]):
    """A string-keyed map that iterates like ``java.util.Hashtable`` (spec 5.4).

    11 initial buckets, rehash to ``2n + 1`` when the count reaches 0.75 of the capacity,
    bucket ``(hash & 0x7FFFFFFF) % capacity``, new entries at the head of their bucket, iteration
    from the last bucket down, and the relinking order of a rehash.
    """

    __slots__ = ("_buckets", "_count", "_threshold", "_values")

    def __init__(self) -> None:
        self._buckets: list[list[str]] = [[] for _ in range(11)]
        self._threshold = int(11 * 0.75)
        self._count = 0
        self._values: dict[str, V] = {}

    def get(self, key: str) -> V | None:
        """The value of ``key``, or ``None``."""
        return self._values.get(key)

    def put(self, key: str, value: V) -> None:
        """Insert or replace (a replaced key keeps its position)."""
        if key not in self._values:
            if self._count >= self._threshold:
                self._rehash()
            cap = len(self._buckets)
            self._buckets[(java_hash(key) & 0x7FFFFFFF) % cap].insert(0, key)
            self._count += 1
        self._values[key] = value

    def _rehash(self) -> None:
        old = self._buckets
        cap = len(old) * 2 + 1
        self._threshold = int(cap * 0.75)
        new: list[list[str]] = [[] for _ in range(cap)]
        for bucket in reversed(old):
            for key in bucket:
                new[(java_hash(key) & 0x7FFFFFFF) % cap].insert(0, key)
        self._buckets = new

    def keys(self) -> list[str]:
        """Keys in the jar's iteration order."""
        return [key for bucket in reversed(self._buckets) for key in bucket]

    def items(self) -> Iterator[tuple[str, V]]:
        """``(key, value)`` pairs in iteration order."""
        for key in self.keys():
            yield key, self._values[key]

    def __len__(self) -> int:
        return self._count


def hashset_order(keys: list[str]) -> list[str]:
    """Iteration order of a ``java.util.HashSet`` filled by adding ``keys`` in order.

    Buckets ``(h ^ (h >>> 16)) & (capacity - 1)`` over a power-of-two capacity (16, doubled while
    the size exceeds 0.75 of it), insertion order within a bucket.
    """
    unique = list(dict.fromkeys(keys))
    cap = 16
    while len(unique) > cap * 3 // 4:
        cap *= 2

    def bucket(key: str) -> int:
        h = java_hash(key) & 0xFFFFFFFF
        return (h ^ (h >> 16)) & (cap - 1)

    return sorted(unique, key=bucket)


# [set][system][document][segment] -> text
SgmlData = JavaHashtable[JavaHashtable[JavaHashtable[JavaHashtable[str]]]]


def _unescape(text: str) -> str:
    for pattern, replacement in _ENTITIES:
        text = pattern.sub(replacement, text)
    return text


def parse_sgml(path: str, data: SgmlData) -> None:
    """Add the sets of one SGML file to ``data`` (spec 1.3).

    Raises:
        JarConfigError: the jar's I/O errors (missing ``setid``, ``docid`` or system id, a
            segment that cannot be read) and the cases where it crashes or hangs.
        InputError: the file cannot be read.
    """
    lines = read_jar_lines(path)
    current_set: JavaHashtable[JavaHashtable[JavaHashtable[str]]] | None = None
    current_sys: JavaHashtable[JavaHashtable[str]] | None = None
    current_doc: JavaHashtable[str] | None = None
    k = 0
    while k < len(lines):
        line = lines[k]
        k += 1
        if _SET.search(line):
            found = _SETID.search(line)
            if found is None:
                raise JarConfigError(
                    f"Error: Could not score SGML files: Set ID (setid) required in line: {line}"
                )
            set_id = found.group(1)
            current_set = data.get(set_id)
            if current_set is None:
                current_set = JavaHashtable()
                data.put(set_id, current_set)
            found = _SYSID.search(line)
            if found is not None:
                current_sys = _child(current_set, found.group(2))
        if _DOC.search(line):
            found = _SYSID.search(line)
            if found is not None:
                if current_set is None:
                    raise JarConfigError(f"Error: {path}: document header before any set header")
                current_sys = _child(current_set, found.group(2))
            elif current_sys is None:
                raise JarConfigError(
                    "Error: Could not score SGML files: System ID (sysid or refid) must be"
                    f" specified in either Set or Doc header: {line}"
                )
            found = _DOCID.search(line)
            if found is None:
                raise JarConfigError(
                    f"Error: Could not score SGML files: Doc ID (docid) required in line: {line}"
                )
            current_doc = _child(current_sys, found.group(1))
        seg = _SEG.search(line)
        if seg is None:
            continue
        seg_id = seg.group(1)
        while not _SEG_END.search(line):
            if k >= len(lines):
                raise JarConfigError(
                    f"Error: {path}: segment {seg_id} has no closing </seg> tag (the jar hangs)"
                )
            line += lines[k]
            k += 1
        found = _TEXT.search(_JAVA_WS.sub(" ", line))
        if found is None:
            raise JarConfigError(
                f"Error: Could not score SGML files: Couldn't read segment from line: {line}"
            )
        if current_doc is None:
            raise JarConfigError(f"Error: {path}: segment {seg_id} before any document header")
        current_doc.put(seg_id, _unescape(java_trim(found.group(1))))


def _child(table: JavaHashtable[JavaHashtable[V]], key: str) -> JavaHashtable[V]:
    child = table.get(key)
    if child is None:
        child = JavaHashtable()
        table.put(key, child)
    return child


def _utf16(text: str) -> bytes:
    return text.encode("utf-16-be", errors="surrogatepass")


def _compare(a: str, b: str) -> int:
    # String.compareTo: UTF-16 code unit order; only the sign matters to the sort.
    x, y = _utf16(a), _utf16(b)
    return (x > y) - (x < y)


def _by_prefix(s1: str, s2: str) -> int:
    return _compare(s1[: s1.rfind("\t")], s2[: s2.rfind("\t")])


def _int32(value: int) -> int:
    return (value + 2**31) % 2**32 - 2**31


def _by_segment(s1: str, s2: str) -> int:
    score1 = s1.rfind("\t")
    seg1 = s1.rfind("\t", 0, score1)
    score2 = s2.rfind("\t")
    seg2 = s2.rfind("\t", 0, score2)
    diff = _compare(s1[:seg1], s2[:seg2])
    if diff != 0:
        return diff
    id1, id2 = s1[seg1 + 1 : score1], s2[seg2 + 1 : score2]
    if _JAVA_INT.fullmatch(id1) and _JAVA_INT.fullmatch(id2):
        n1, n2 = int(id1), int(id2)
        if -(2**31) <= n1 < 2**31 and -(2**31) <= n2 < 2**31:
            return _int32(n1 - n2)
    return _compare(id1, id2)


def _write(path: str, lines: list[str], order: Callable[[str, str], int]) -> None:
    lines.sort(key=functools.cmp_to_key(order))
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.writelines(line + "\n" for line in lines)
    except OSError as exc:
        raise JarConfigError(f"Error: cannot write {path} ({exc.strerror or exc})") from None


def run_sgml(
    meteor: Meteor,
    settings: JarSettings,
    options: JarOptions,
    *,
    out: TextIO,
    err: TextIO,
) -> int:
    """Score two SGML files as the jar does; returns the exit status.

    Raises:
        JarConfigError: the jar's SGML errors and the crashes listed in the module docstring.
        InputError: a file cannot be read.
    """
    config = meteor.config
    test_data: SgmlData = JavaHashtable()
    ref_data: SgmlData = JavaHashtable()
    parse_sgml(options.test, test_data)
    parse_sgml(options.reference, ref_data)

    def value(stats: MeteorStats, c: Components) -> str:
        if options.ss_out:
            return stats_line(stats)
        if options.v_out:
            return verbose_value(c)
        return java_double(c.score)

    sys_lines: list[str] = []
    doc_lines: list[str] = []
    seg_lines: list[str] = []
    seg_records: dict[str, tuple[Components, Alignment]] = {}
    for set_id in hashset_order(test_data.keys() + ref_data.keys()):
        ref_systems = ref_data.get(set_id)
        test_systems = test_data.get(set_id)
        if ref_systems is None or test_systems is None:
            missing = "reference" if ref_systems is None else "test"
            raise JarConfigError(f"Error: set [{set_id}] is missing from the {missing} file")
        for sys_id, test_docs in test_systems.items():
            system_records: list[MeteorStats] = []
            ref_docs = list(ref_systems.items())
            doc_keys = test_docs.keys()
            for _, docs in ref_docs:
                doc_keys += docs.keys()
            for doc_id in hashset_order(doc_keys):
                test_segs = test_docs.get(doc_id)
                if test_segs is None:
                    err.write(
                        f"Warning: no data for system [{sys_id}] on document [{set_id}][{doc_id}]"
                        " - skipping this document\n"
                    )
                    continue
                ref_segs: list[tuple[str, JavaHashtable[str]]] = []
                for ref_id, docs in ref_docs:
                    segs = docs.get(doc_id)
                    if segs is None:
                        err.write(
                            f"Warning: no data for reference [{ref_id}] on document"
                            f" [{set_id}][{doc_id}]\n"
                        )
                        continue
                    ref_segs.append((ref_id, segs))
                if not ref_segs:
                    err.write(
                        f"Warning: no usable references for document [{set_id}][{doc_id}]"
                        " - skipping this document\n"
                    )
                    continue
                seg_keys = test_segs.keys()
                for _, segs in ref_segs:
                    seg_keys += segs.keys()
                doc_records: list[MeteorStats] = []
                for seg_id in hashset_order(seg_keys):
                    hypothesis = test_segs.get(seg_id)
                    if hypothesis is None:
                        err.write(
                            f"Warning: no data for system [{sys_id}] on segment"
                            f" [{set_id}][{doc_id}][{seg_id}] - scoring empty segment\n"
                        )
                        hypothesis = ""
                    references: list[str] = []
                    for ref_id, segs in ref_segs:
                        text = segs.get(seg_id)
                        if text is None:
                            err.write(
                                f"Warning: no data for reference [{ref_id}] on segment"
                                f" [{set_id}][{doc_id}][{seg_id}]\n"
                            )
                            continue
                        references.append(text)
                    if not references:
                        err.write(
                            f"Warning: no usable references for segment"
                            f" [{set_id}][{doc_id}][{seg_id}] - skipping this segment\n"
                        )
                        continue
                    stats, _, alignment = meteor.segment_stats(hypothesis, references)
                    c = score_from_stats(stats, config)
                    doc_records.append(stats)
                    line = f"{set_id}\t{sys_id}\t{doc_id}\t{seg_id}\t{value(stats, c)}"
                    seg_lines.append(line)
                    if options.write_alignments:
                        seg_records[line] = (c, alignment)
                if not doc_records:
                    raise JarConfigError(
                        f"Error: no segment of document [{set_id}][{doc_id}] could be scored"
                        " (the jar crashes here)"
                    )
                doc_total = pool_stats(doc_records, config)
                doc_lines.append(
                    f"{set_id}\t{sys_id}\t{doc_id}\t"
                    f"{value(doc_total, score_from_stats(doc_total, config))}"
                )
                system_records.extend(doc_records)
            if not system_records:
                raise JarConfigError(
                    f"Error: no segment of system [{set_id}][{sys_id}] could be scored"
                    " (the jar crashes here)"
                )
            total = pool_stats(system_records, config)
            c = score_from_stats(total, config)
            sys_lines.append(f"{set_id}\t{sys_id}\t{value(total, c)}")
            if not options.ss_out:
                out.write(
                    system_block(
                        total,
                        c,
                        n_weights=len(config.weights),
                        char_based=config.characters,
                        header=f"[{set_id}][{sys_id}] ",
                    )
                )
                out.write("\n")
    prefix = options.prefix
    _write(prefix + "-sys.scr", sys_lines, _by_prefix)
    _write(prefix + "-doc.scr", doc_lines, _by_prefix)
    _write(prefix + "-seg.scr", seg_lines, _by_segment)
    if options.write_alignments:
        records = []
        for line in seg_lines:
            c, alignment = seg_records[line]
            label = "\t".join(line.split("\t", 4)[:4])
            records.append(alignment_record(label, c, alignment))
        try:
            with open(prefix + "-align.out", "w", encoding="utf-8", newline="\n") as handle:
                handle.writelines(records)
        except OSError as exc:
            raise JarConfigError(f"Error: cannot write {prefix}-align.out ({exc})") from None
    return 0
