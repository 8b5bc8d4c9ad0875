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
from meteor_eval.jar.config import JarConfigError
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


# [document][segment] -> text, [system][document][segment] -> text, and the whole file(s):
# [set][system][document][segment] -> text
DocTable = JavaHashtable[JavaHashtable[str]]
SystemTable = JavaHashtable[DocTable]
SgmlData = JavaHashtable[SystemTable]


def _unescape(text: str) -> str:
    for pattern, replacement in _ENTITIES:
        text = pattern.sub(replacement, text)
    return text


class _SgmlReader:
    """Reads one SGML file line by line, tracking the current set, system and document."""

    def __init__(self, path: str, data: SgmlData) -> None:
        self.path = path
        self.data = data
        self.lines = read_jar_lines(path)
        self.current_set: JavaHashtable[JavaHashtable[JavaHashtable[str]]] | None = None
        self.current_sys: JavaHashtable[JavaHashtable[str]] | None = None
        self.current_doc: JavaHashtable[str] | None = None

    def set_header(self, line: str) -> None:
        """``<tstset|refset setid=... [sysid|refid=...]>``: enter (or create) the set."""
        found = _SETID.search(line)
        if found is None:
            raise JarConfigError(
                f"Error: Could not score SGML files: Set ID (setid) required in line: {line}"
            )
        set_id = found.group(1)
        current_set = self.data.get(set_id)
        if current_set is None:
            current_set = JavaHashtable()
            self.data.put(set_id, current_set)
        self.current_set = current_set
        found = _SYSID.search(line)
        if found is not None:
            self.current_sys = _child(current_set, found.group(2))

    def doc_header(self, line: str) -> None:
        """``<doc [sysid|refid=...] docid=...>``: enter (or create) the system and document."""
        found = _SYSID.search(line)
        if found is not None:
            if self.current_set is None:
                raise JarConfigError(f"Error: {self.path}: document header before any set header")
            self.current_sys = _child(self.current_set, found.group(2))
        elif self.current_sys is None:
            raise JarConfigError(
                "Error: Could not score SGML files: System ID (sysid or refid) must be"
                f" specified in either Set or Doc header: {line}"
            )
        found = _DOCID.search(line)
        if found is None:
            raise JarConfigError(
                f"Error: Could not score SGML files: Doc ID (docid) required in line: {line}"
            )
        self.current_doc = _child(self.current_sys, found.group(1))

    def segment(self, line: str, seg_id: str, k: int) -> int:
        """Store the segment opened on ``line``, joining the following lines (from index ``k``)
        up to its closing tag; returns the index of the line after it."""
        while not _SEG_END.search(line):
            if k >= len(self.lines):
                raise JarConfigError(
                    f"Error: {self.path}: segment {seg_id} has no closing </seg> tag"
                    " (the jar hangs)"
                )
            line += self.lines[k]
            k += 1
        found = _TEXT.search(_JAVA_WS.sub(" ", line))
        if found is None:
            raise JarConfigError(
                f"Error: Could not score SGML files: Couldn't read segment from line: {line}"
            )
        if self.current_doc is None:
            raise JarConfigError(f"Error: {self.path}: segment {seg_id} before any document header")
        self.current_doc.put(seg_id, _unescape(java_trim(found.group(1))))
        return k


def parse_sgml(path: str, data: SgmlData) -> None:
    """Add the sets of one SGML file to ``data`` (spec 1.3).

    A line is read as a set header, then as a document header, then as the start of a segment
    (one line may be all three, as in the jar).

    Raises:
        JarConfigError: the jar's I/O errors (missing ``setid``, ``docid`` or system id, a
            segment that cannot be read) and the cases where it crashes or hangs.
        InputError: the file cannot be read.
    """
    reader = _SgmlReader(path, data)
    lines = reader.lines
    k = 0
    while k < len(lines):
        line = lines[k]
        k += 1
        if _SET.search(line):
            reader.set_header(line)
        if _DOC.search(line):
            reader.doc_header(line)
        seg = _SEG.search(line)
        if seg is not None:
            k = reader.segment(line, seg.group(1), k)


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


class _SgmlRun:
    """One SGML scoring run: the score lines it collects and the warnings it prints."""

    def __init__(self, meteor: Meteor, options: JarOptions, *, out: TextIO, err: TextIO) -> None:
        self.meteor = meteor
        self.config = meteor.config
        self.options = options
        self.out = out
        self.err = err
        self.sys_lines: list[str] = []
        self.doc_lines: list[str] = []
        self.seg_lines: list[str] = []
        self.seg_records: dict[str, tuple[Components, Alignment]] = {}

    def value(self, stats: MeteorStats, c: Components) -> str:
        """A score-file value: the statistics line, the verbose values or the score."""
        if self.options.ss_out:
            return stats_line(stats)
        if self.options.v_out:
            return verbose_value(c)
        return java_double(c.score)

    def score_set(self, set_id: str, test_systems: SystemTable, ref_systems: SystemTable) -> None:
        """Score every test system of one set against the set's reference systems."""
        ref_docs = list(ref_systems.items())
        for sys_id, test_docs in test_systems.items():
            self.score_system(set_id, sys_id, test_docs, ref_docs)

    def score_system(
        self, set_id: str, sys_id: str, test_docs: DocTable, ref_docs: list[tuple[str, DocTable]]
    ) -> None:
        """Score one system document by document; add its line and print its block."""
        doc_keys = test_docs.keys()
        for _, docs in ref_docs:
            doc_keys += docs.keys()
        system_records: list[MeteorStats] = []
        for doc_id in hashset_order(doc_keys):
            system_records.extend(self.score_document(set_id, sys_id, doc_id, test_docs, ref_docs))
        if not system_records:
            raise JarConfigError(
                f"Error: no segment of system [{set_id}][{sys_id}] could be scored"
                " (the jar crashes here)"
            )
        config = self.config
        total = pool_stats(system_records, config)
        c = score_from_stats(total, config)
        self.sys_lines.append(f"{set_id}\t{sys_id}\t{self.value(total, c)}")
        if not self.options.ss_out:
            self.out.write(
                system_block(
                    total,
                    c,
                    n_weights=len(config.weights),
                    char_based=config.characters,
                    header=f"[{set_id}][{sys_id}] ",
                )
            )
            self.out.write("\n")

    def _document_references(
        self, set_id: str, doc_id: str, ref_docs: list[tuple[str, DocTable]]
    ) -> list[tuple[str, JavaHashtable[str]]]:
        """The segments of each reference system that has the document (warns for the rest)."""
        ref_segs: list[tuple[str, JavaHashtable[str]]] = []
        for ref_id, docs in ref_docs:
            segs = docs.get(doc_id)
            if segs is None:
                self.err.write(
                    f"Warning: no data for reference [{ref_id}] on document [{set_id}][{doc_id}]\n"
                )
                continue
            ref_segs.append((ref_id, segs))
        return ref_segs

    def score_document(
        self,
        set_id: str,
        sys_id: str,
        doc_id: str,
        test_docs: DocTable,
        ref_docs: list[tuple[str, DocTable]],
    ) -> list[MeteorStats]:
        """Score one document of a system; returns its segments' statistics (none if skipped)."""
        test_segs = test_docs.get(doc_id)
        if test_segs is None:
            self.err.write(
                f"Warning: no data for system [{sys_id}] on document [{set_id}][{doc_id}]"
                " - skipping this document\n"
            )
            return []
        ref_segs = self._document_references(set_id, doc_id, ref_docs)
        if not ref_segs:
            self.err.write(
                f"Warning: no usable references for document [{set_id}][{doc_id}]"
                " - skipping this document\n"
            )
            return []
        seg_keys = test_segs.keys()
        for _, segs in ref_segs:
            seg_keys += segs.keys()
        doc_records: list[MeteorStats] = []
        for seg_id in hashset_order(seg_keys):
            label = f"{set_id}\t{sys_id}\t{doc_id}\t{seg_id}"
            stats = self.score_segment(label, (set_id, sys_id, doc_id, seg_id), test_segs, ref_segs)
            if stats is not None:
                doc_records.append(stats)
        if not doc_records:
            raise JarConfigError(
                f"Error: no segment of document [{set_id}][{doc_id}] could be scored"
                " (the jar crashes here)"
            )
        doc_total = pool_stats(doc_records, self.config)
        self.doc_lines.append(
            f"{set_id}\t{sys_id}\t{doc_id}\t"
            f"{self.value(doc_total, score_from_stats(doc_total, self.config))}"
        )
        return doc_records

    def score_segment(
        self,
        label: str,
        ids: tuple[str, str, str, str],
        test_segs: JavaHashtable[str],
        ref_segs: list[tuple[str, JavaHashtable[str]]],
    ) -> MeteorStats | None:
        """Score one segment (``ids``: set, system, document, segment); ``None`` if skipped."""
        set_id, sys_id, doc_id, seg_id = ids
        where = f"[{set_id}][{doc_id}][{seg_id}]"
        hypothesis = test_segs.get(seg_id)
        if hypothesis is None:
            self.err.write(
                f"Warning: no data for system [{sys_id}] on segment {where}"
                " - scoring empty segment\n"
            )
            hypothesis = ""
        references: list[str] = []
        for ref_id, segs in ref_segs:
            text = segs.get(seg_id)
            if text is None:
                self.err.write(f"Warning: no data for reference [{ref_id}] on segment {where}\n")
                continue
            references.append(text)
        if not references:
            self.err.write(
                f"Warning: no usable references for segment {where} - skipping this segment\n"
            )
            return None
        stats, _, alignment = self.meteor.segment_stats(hypothesis, references)
        c = score_from_stats(stats, self.config)
        line = f"{label}\t{self.value(stats, c)}"
        self.seg_lines.append(line)
        if self.options.write_alignments:
            self.seg_records[line] = (c, alignment)
        return stats

    def write_files(self) -> None:
        """The three ``.scr`` files, sorted as the jar sorts them, and the alignments."""
        prefix = self.options.prefix
        _write(prefix + "-sys.scr", self.sys_lines, _by_prefix)
        _write(prefix + "-doc.scr", self.doc_lines, _by_prefix)
        _write(prefix + "-seg.scr", self.seg_lines, _by_segment)
        if not self.options.write_alignments:
            return
        records = []
        for line in self.seg_lines:
            c, alignment = self.seg_records[line]
            label = "\t".join(line.split("\t", 4)[:4])
            records.append(alignment_record(label, c, alignment))
        try:
            with open(prefix + "-align.out", "w", encoding="utf-8", newline="\n") as handle:
                handle.writelines(records)
        except OSError as exc:
            raise JarConfigError(
                f"Error: cannot write {prefix}-align.out ({exc.strerror or exc})"
            ) from None


def run_sgml(
    meteor: Meteor,
    options: JarOptions,
    *,
    out: TextIO,
    err: TextIO,
) -> int:
    """Score two SGML files as the jar does; returns the exit status.

    Sets are visited in ``HashSet`` order of the union of both files' set ids, systems in
    ``Hashtable`` order, documents and segments in ``HashSet`` order of the union of test and
    reference ids (module docstring).

    Raises:
        JarConfigError: the jar's SGML errors and the crashes listed in the module docstring.
        InputError: a file cannot be read.
    """
    test_data: SgmlData = JavaHashtable()
    ref_data: SgmlData = JavaHashtable()
    parse_sgml(options.test, test_data)
    parse_sgml(options.reference, ref_data)
    run = _SgmlRun(meteor, options, out=out, err=err)
    for set_id in hashset_order(test_data.keys() + ref_data.keys()):
        ref_systems = ref_data.get(set_id)
        test_systems = test_data.get(set_id)
        if ref_systems is None or test_systems is None:
            missing = "reference" if ref_systems is None else "test"
            raise JarConfigError(f"Error: set [{set_id}] is missing from the {missing} file")
        run.score_set(set_id, test_systems, ref_systems)
    run.write_files()
    return 0
