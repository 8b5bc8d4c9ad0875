"""Meteor Universal's paraphrase extraction: ``java -cp meteor-1.5.jar Parex ...``.

``Parex FCORPUS ECORPUS TABLE.gz ETARGET OUTDIR [minTP] [minRF] [minFinalP] [symbols]`` builds
a paraphrase table for a new language ("English" here stands for that language, "foreign" for
the pivot language of the phrase table), by pivoting (Bannard and Callison-Burch 2005) as
Denkowski and Lavie (2014) describe, in four steps that each write a file into ``OUTDIR`` (which
must not exist):

1. ``parex.f``, ``parex.e``: the common words of each corpus, those whose relative frequency
   (count over all blank-separated tokens) exceeds ``minRF`` (default 0.001), listed in the
   iteration order of the jar's ``java.util.Hashtable`` (reproduced, so the files are equal);
2. ``parex.raw.gz``: read the phrase table twice. Each line is ``f ||| e ||| s1 s2 s3 ...``
   (Moses: ``s1`` = p(f|e), ``s3`` = p(e|f); other columns are ignored). A phrase pair is kept if
   its probability is at least ``minTP`` (default 0.001), neither phrase contains a character
   of ``symbols`` (default ``~`!@#$%^&*()-_=+[{]}\\|;:'",<.>/?``; anywhere, not only as a
   token), each phrase has a word outside its side's common words, and (first reading, with
   ``s1``) the
   English phrase occurs in ``ETARGET``. The second reading (with ``s3``) pairs every kept
   English phrase e1 of a pivot f with each other English phrase e2 of f:
   ``e1 ||| e2 ||| f ||| p(f|e1) * p(e2|f)``, if that product is at least ``minTP``;
3. ``parex.group.gz``: those lines sorted (stably) by e1 then e2 (Java string order: UTF-16 code
   units), as ``e1 ||| e2 ||| p``;
4. ``paraphrase.gz``: the probabilities of equal (e1, e2) lines summed, and a pair written as
   ``e1 ||| e2 ||| p`` if ``p >= minFinalP`` (default 0.01) and neither phrase is contained in
   the other (as whole words).

Numbers are printed with Java's ``Double.toString``. A phrase-table line that cannot be parsed
(fewer than three ``|||`` fields, fewer than three scores, a score that ``Double.parseDouble``
refuses) is skipped with the jar's ``Skipping problematic line: LINE`` on stderr, as are the
jar's progress lines (every ten million table lines). The usage text (fewer than five
arguments, exit status 0) and ``Directory exists, exiting: DIR`` (exit status 1) are the jar's.
Tested against the jar's files on ``tests/data/parex`` (``tests/reference/test_parex_golden.py``).

This is the extraction of ``meteor-1.5.jar`` as released (checked against its class files and
its output), which differs from later revisions of the METEOR source in two ways that are kept
here: the symbol filter looks at the characters of a phrase (a later revision compares whole
tokens and adds ``&amp;``-style entities), and the eighth argument (``minFinalP``) sets
``minRF`` instead, so the final threshold stays 0.01 whatever is given.

Differences from the jar, where it dies with a stack trace: a missing or unreadable input, a
phrase table that is not gzip, an output folder that cannot be created and an unparsable
number argument give one ``Error: ...`` line on stderr and exit status 1, and a run that fails
midway leaves no partly written file (the jar leaves the one it was writing).

References:
    M. Denkowski and A. Lavie. Meteor Universal: Language Specific Translation Evaluation for
    Any Target Language. WMT 2014.
"""

from __future__ import annotations

import os
import re
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, TextIO

from meteor_eval.jar.config import JarConfigError, parse_java_double
from meteor_eval.jar.javaio import (
    JavaGzipWriter,
    iter_file_lines,
    iter_gzip_lines,
    replaced_on_success,
)
from meteor_eval.jar.options import JarExitError
from meteor_eval.javafmt import java_double
from meteor_eval.text.tokenize import java_split, java_trim

__all__ = [
    "PAREX_USAGE",
    "SYMBOLS",
    "NgramIndex",
    "ParexError",
    "ParexSettings",
    "combine_paraphrases",
    "common_words",
    "extract_paraphrases",
    "group_paraphrases",
    "is_subphrase",
    "parse_table_line",
    "run_parex",
    "write_parex",
]

#: The jar's default thresholds: translation probability, word relative frequency, final.
MIN_TRANS_PROB: Final = 0.001
MIN_REL_FREQ: Final = 0.001
MIN_FINAL_PROB: Final = 0.01
#: Symbol characters: a phrase containing any of these is dropped.
SYMBOLS: Final = "~`!@#$%^&*()-_=+[{]}\\|;:'\",<.>/?"
#: Progress line every this many phrase-table lines (stderr, as the jar).
_PROGRESS_EVERY: Final = 10_000_000

PAREX_USAGE: Final = """Paraphrase Extractor

Usage: java -XX:+UseCompressedOops -Xmx12G -cp meteor-*.jar Parex <fCorpus> <eCorpus> \
<phrase-table.gz> <eTgtCorpus> <outDir> [minTP] [minRF] [minFinalP] [symbols]

Args:
<fCorpus> foreign corpus
<eCorpus> english corpus
<phrase-table.gz> phrasetable built from corpora (gzipped)
<eTgtCorpus> english target corpus to paraphrase (paraphrases will be extracted that match \
phrases in this text)
<outDir> directory for output files
[minTP] (default 0.001) minimum paraphrase translation probability
[minRF] (default 0.001) minimum word relative frequency for common word list
[minFinalP] (default 0.01) minimum final (merged) paraphrase probability
[symbols] string of symbols to filter
"""

Words = tuple[str, ...]
Log = Callable[[str], None]


class ParexError(JarExitError):
    """An input the extraction cannot use; the message is one line (``Error: ...`` on stderr,
    exit status 1)."""

    prefix = "Error: "


@dataclass(frozen=True, slots=True)
class ParexSettings:
    """Thresholds and symbols of one extraction (the jar's optional arguments).

    Attributes:
        min_trans_prob: ``minTP``: least p(f|e), p(e|f) and pivot product kept.
        min_rel_freq: ``minRF``: a word is common if its relative frequency exceeds this.
        min_final_prob: ``minFinalP``: least summed probability of a paraphrase pair.
        symbols: UTF-16 code units that disqualify a phrase containing them (as one-character
            strings; a character outside the BMP given as a symbol is its two surrogate halves,
            as Java's ``charAt`` sees it).
    """

    min_trans_prob: float = MIN_TRANS_PROB
    min_rel_freq: float = MIN_REL_FREQ
    min_final_prob: float = MIN_FINAL_PROB
    symbols: frozenset[str] = frozenset(SYMBOLS)

    @staticmethod
    def symbol_set(text: str) -> frozenset[str]:
        """The symbols of a ``symbols`` argument: each UTF-16 code unit of ``text``."""
        return frozenset(_code_units(text))


def _code_units(text: str) -> str:
    """``text`` as UTF-16 code units, each a one-character string (surrogates for characters
    outside the BMP)."""
    if not text or max(text) < "\U00010000":
        return text
    units = memoryview(text.encode("utf-16-le", errors="surrogatepass")).cast("H")
    return "".join(chr(unit) for unit in units)


class NgramIndex:
    """Which token sequences occur contiguously in a corpus (the jar's trie of every suffix of
    every line), kept as one set per length, each built the first time it is asked for."""

    def __init__(self, lines: Iterable[Sequence[object]]) -> None:
        self._lines = [tuple(line) for line in lines]
        self._sets: dict[int, set[tuple[object, ...]]] = {}

    def __contains__(self, phrase: Sequence[object]) -> bool:
        n = len(phrase)
        if n == 0:
            return True
        grams = self._sets.get(n)
        if grams is None:
            grams = self._sets[n] = {
                line[i : i + n] for line in self._lines for i in range(len(line) - n + 1)
            }
        return tuple(phrase) in grams


# -- step 1 ------------------------------------------------------------------------------------


def common_words(lines: Iterable[str], min_rel_freq: float) -> list[str]:
    """Words whose share of all tokens exceeds ``min_rel_freq``, in the jar's output order.

    Example:
        >>> common_words(["a b a", "a c"], 0.3)
        ['a']
    """
    from meteor_eval.jar.sgml import JavaHashtable

    counts: dict[str, int] = {}
    total = 0
    for line in lines:
        for word in java_split(line):
            counts[word] = counts.get(word, 0) + 1
            total += 1
    order: JavaHashtable[int] = JavaHashtable()
    for word, count in counts.items():  # first-seen order: a count update never moves a key
        order.put(word, count)
    return [word for word, count in order.items() if count / total > min_rel_freq]


# -- step 2 ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableLine:
    """The fields of one phrase-table line that extraction reads."""

    foreign: str
    english: str
    p_f_given_e: float
    p_e_given_f: float


def parse_table_line(line: str) -> TableLine | None:
    """``f ||| e ||| s1 s2 s3 ...`` as the jar reads it, or ``None`` where the jar skips it.

    Example:
        >>> parse_table_line("le chat ||| the  cat ||| 0.5 0.1 2.5e-1 0.3")
        TableLine(foreign='le chat', english='the  cat', p_f_given_e=0.5, p_e_given_f=0.25)
        >>> parse_table_line("le chat ||| the cat ||| 0.5 0.1") is None
        True
    """
    parts = line.split("|||")
    while len(parts) > 1 and parts[-1] == "":  # String.split drops trailing empty fields
        parts.pop()
    if len(parts) < 3:
        return None
    scores = java_split(parts[2])
    if len(scores) < 3:
        return None
    try:
        first = parse_java_double(scores[0])
        third = parse_java_double(scores[2])
    except JarConfigError:
        return None
    return TableLine(java_trim(parts[0]), java_trim(parts[1]), first, third)


def _clean(phrase: str, symbols: frozenset[str]) -> bool:
    """No symbol character anywhere in the phrase."""
    return symbols.isdisjoint(_code_units(phrase))


def _usable(words: Words, common: frozenset[str]) -> bool:
    """At least one word that is not common."""
    return any(w not in common for w in words)


def _parsed(lines: Iterable[str], kept: list[int], log: Log) -> Iterator[TableLine]:
    """Parsed lines of the table; skipped ones and progress reported as the jar reports them
    (``kept[0]`` is the count the progress line shows)."""
    for count, line in enumerate(lines, 1):
        if count % _PROGRESS_EVERY == 0:
            log(f"{count} ({kept[0]})")
        parsed = parse_table_line(line)
        if parsed is None:
            log(f"Skipping problematic line: {line}")
            continue
        yield parsed


def _phrases(
    entry: TableLine, f_common: frozenset[str], e_common: frozenset[str], symbols: frozenset[str]
) -> tuple[Words, Words] | None:
    """The English and foreign tokens of a line, or ``None`` if either phrase is unusable."""
    if not (_clean(entry.english, symbols) and _clean(entry.foreign, symbols)):
        return None
    english = tuple(java_split(entry.english))
    pivot = tuple(java_split(entry.foreign))
    if _usable(english, e_common) and _usable(pivot, f_common):
        return english, pivot
    return None


def extract_paraphrases(
    table: Callable[[], Iterable[str]],
    target: NgramIndex,
    f_common: frozenset[str],
    e_common: frozenset[str],
    settings: ParexSettings,
    log: Log,
) -> Iterator[str]:
    """Step 2: the raw ``e1 ||| e2 ||| f ||| p`` lines, in the jar's order.

    Args:
        table: Returns a fresh iterator over the phrase table's lines (it is read twice).
        target: The n-grams of the target corpus (an English phrase must occur there).
        f_common: Common foreign words.
        e_common: Common English words.
        settings: Thresholds and symbols.
        log: Receives the jar's stderr messages.
    """
    min_prob = settings.min_trans_prob
    symbols = settings.symbols
    by_pivot: dict[Words, list[tuple[Words, float]]] = {}
    log("Loading phrases")
    kept = [0]
    for entry in _parsed(table(), kept, log):
        if entry.p_f_given_e < min_prob:
            continue
        phrases = _phrases(entry, f_common, e_common, symbols)
        if phrases is None or phrases[0] not in target:
            continue
        by_pivot.setdefault(phrases[1], []).append((phrases[0], entry.p_f_given_e))
        kept[0] += 1
    log("Finding paraphrases")
    kept[0] = 0
    for entry in _parsed(table(), kept, log):
        prob = entry.p_e_given_f
        if prob < min_prob:
            continue
        phrases = _phrases(entry, f_common, e_common, symbols)
        if phrases is None:
            continue
        for other, other_prob in by_pivot.get(phrases[1], ()):
            if other == phrases[0]:
                continue
            product = other_prob * prob
            if product < min_prob:
                continue
            kept[0] += 1
            phrase = java_trim(" ".join(other))
            yield f"{phrase} ||| {entry.english} ||| {entry.foreign} ||| {java_double(product)}"


# -- steps 3 and 4 ------------------------------------------------------------------------------


def _java_order(text: str) -> bytes:
    """A sort key giving ``String.compareTo``'s order (UTF-16 code units)."""
    return text.encode("utf-16-be", errors="surrogatepass")


def _normalized(phrase: str) -> str:
    """A phrase as the jar re-reads it: tokens joined by single spaces."""
    return java_trim(" ".join(java_split(phrase)))


def group_paraphrases(raw: Iterable[str]) -> list[str]:
    """Step 3: raw lines as ``e1 ||| e2 ||| p``, sorted by e1 then e2 (stable).

    Raises:
        ParexError: a line that is not a raw paraphrase line.
    """
    entries = []
    for line in raw:
        fields = line.split("|||")
        if len(fields) < 4:
            raise ParexError(f"not a raw paraphrase line: {line}")
        try:
            prob = parse_java_double(fields[3])
        except JarConfigError:
            raise ParexError(f"not a raw paraphrase line: {line}") from None
        entries.append((_normalized(java_trim(fields[0])), _normalized(java_trim(fields[1])), prob))
    entries.sort(key=lambda e: (_java_order(e[0]), _java_order(e[1])))
    return [f"{ref} ||| {par} ||| {java_double(prob)}" for ref, par, prob in entries]


def is_subphrase(a: str, b: str) -> bool:
    """Whether one phrase is contained in the other, as whole words.

    Example:
        >>> is_subphrase("the cat", "the cat sat"), is_subphrase("cat", "cats")
        (True, False)
    """
    a, b = f" {a} ", f" {b} "
    return a in b or b in a


def combine_paraphrases(grouped: Iterable[str], min_final_prob: float) -> Iterator[str]:
    """Step 4: equal pairs merged (probabilities summed in file order) and filtered.

    Raises:
        ParexError: a line that is not a grouped paraphrase line.
    """
    current_ref, current_par, current = "", "", 0.0
    for line in grouped:
        fields = line.split("|||")
        if len(fields) < 3:
            raise ParexError(f"not a grouped paraphrase line: {line}")
        ref, par = java_trim(fields[0]), java_trim(fields[1])
        try:
            prob = parse_java_double(fields[2])
        except JarConfigError:
            raise ParexError(f"not a grouped paraphrase line: {line}") from None
        if ref != current_ref or par != current_par:
            if _kept(current_ref, current_par, current, min_final_prob):
                yield f"{current_ref} ||| {current_par} ||| {java_double(current)}"
            current_ref, current_par, current = ref, par, 0.0
        current += prob
    if _kept(current_ref, current_par, current, min_final_prob):
        yield f"{current_ref} ||| {current_par} ||| {java_double(current)}"


def _kept(ref: str, par: str, prob: float, min_final_prob: float) -> bool:
    return ref != "" and prob >= min_final_prob and not is_subphrase(ref, par)


# -- the whole run -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ParexInputs:
    """The files of one extraction.

    Attributes:
        f_corpus: Foreign (pivot) side of the parallel corpus.
        e_corpus: English (new language) side.
        table: The gzip phrase table, foreign ||| English.
        e_target: Text whose phrases are paraphrased.
    """

    f_corpus: Path
    e_corpus: Path
    table: Path
    e_target: Path


def _lines_of(path: Path, *, gz: bool = False) -> Iterator[str]:
    """Lines of an input, with unreadable files reported as :class:`ParexError`."""
    try:
        yield from (iter_gzip_lines(path) if gz else iter_file_lines(path))
    except (OSError, EOFError, zlib.error) as exc:
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        raise ParexError(f"cannot read {path}: {reason}") from None


def write_parex(
    inputs: ParexInputs,
    out_dir: Path,
    settings: ParexSettings,
    log: Log,
    *,
    lines: Callable[[Path], Iterable[str]] | None = None,
) -> Path:
    """Run the four steps into ``out_dir`` (which must exist) and return ``paraphrase.gz``.

    Each file is written beside its name and renamed when complete
    (:func:`~meteor_eval.jar.javaio.replaced_on_success`): a run that fails midway leaves the
    files of the steps it finished and no partly written one.

    Args:
        inputs: The input files.
        out_dir: Folder receiving ``parex.f``, ``parex.e``, ``parex.raw.gz``,
            ``parex.group.gz`` and ``paraphrase.gz``.
        settings: Thresholds and symbols.
        log: Receives the jar's stderr messages.
        lines: Reads a text input's lines (default: as the jar does); lets callers transform
            the text, e.g. lower-case it.

    Raises:
        ParexError: an input cannot be read.
        OSError: an output cannot be written.
    """
    read = lines if lines is not None else _lines_of
    prefix = out_dir / "parex"
    log("Step 1: building common word lists")
    commons = []
    for side, corpus in (("foreign", inputs.f_corpus), ("english", inputs.e_corpus)):
        log(f"+ {side}")
        words = common_words(read(corpus), settings.min_rel_freq)
        with replaced_on_success(Path(f"{prefix}.{side[0]}")) as target:
            text = "".join(w + "\n" for w in words)
            target.write_text(text, encoding="utf-8", errors="replace")
        commons.append(frozenset(words))
    log("Step 2: extracting paraphrases")
    log("Loading corpus")
    index = NgramIndex(java_split(line) for line in read(inputs.e_target))
    log("Loading common words (foreign)")
    log("Loading common words (english)")
    raw_path = Path(f"{prefix}.raw.gz")
    with replaced_on_success(raw_path) as temporary, JavaGzipWriter(temporary) as raw:
        for record in extract_paraphrases(
            lambda: _table_lines(inputs.table, read),
            index,
            commons[0],
            commons[1],
            settings,
            log,
        ):
            raw.println(record)
    log("Step 3: grouping paraphrases")
    group_path = Path(f"{prefix}.group.gz")
    with replaced_on_success(group_path) as temporary, JavaGzipWriter(temporary) as group:
        for record in group_paraphrases(_lines_of(raw_path, gz=True)):
            group.println(record)
    log("Step 4: combining and filtering paraphrases")
    final = out_dir / "paraphrase.gz"
    with replaced_on_success(final) as temporary, JavaGzipWriter(temporary) as out:
        for record in combine_paraphrases(_lines_of(group_path, gz=True), settings.min_final_prob):
            out.println(record)
    return final


def _table_lines(path: Path, read: Callable[[Path], Iterable[str]]) -> Iterator[str]:
    """The phrase table's lines through ``read`` when it transforms text, else straight."""
    if read is _lines_of:
        yield from _lines_of(path, gz=True)
    else:
        yield from read(path)


def _settings_from_args(extra: Sequence[str]) -> ParexSettings:
    """``[minTP] [minRF] [minFinalP] [symbols]``, as the released jar reads them: the third
    number replaces ``minRF`` (module docstring)."""
    values = [MIN_TRANS_PROB, MIN_REL_FREQ, MIN_FINAL_PROB]
    for k, text in enumerate(extra[:3]):
        try:
            values[min(k, 1)] = parse_java_double(text)
        except JarConfigError as exc:
            raise ParexError(str(exc).removeprefix("Error: ")) from None
    symbols = ParexSettings.symbol_set(extra[3]) if len(extra) > 3 else ParexSettings().symbols
    return ParexSettings(values[0], values[1], values[2], symbols)


def _java_path(text: str) -> str:
    """A path as ``java.io.File.getPath`` prints it on Unix: repeated and trailing slashes
    removed.

    Example:
        >>> _java_path("out//dir/"), _java_path("/")
        ('out/dir', '/')
    """
    collapsed = re.sub("/+", "/", text)
    return collapsed[:-1] if len(collapsed) > 1 and collapsed.endswith("/") else collapsed


def run_parex(argv: Sequence[str], *, out: TextIO, err: TextIO) -> int:
    """Run ``Parex`` with ``argv`` (after the class name); returns the exit status.

    Args:
        argv: ``FCORPUS ECORPUS TABLE.gz ETARGET OUTDIR [minTP] [minRF] [minFinalP] [symbols]``.
        out: Standard output (the jar prints nothing there).
        err: Standard error: the jar's step messages, skipped lines and errors.
    """
    del out
    if len(argv) < 5:
        err.write(PAREX_USAGE)
        return 0

    def log(message: str) -> None:
        err.write(message + "\n")

    try:
        settings = _settings_from_args(argv[5:])
    except ParexError as exc:
        return exc.exit(err)
    out_dir = Path(argv[4])
    if out_dir.exists():
        err.write(f"Directory exists, exiting: {_java_path(argv[4])}\n")
        return 1
    try:
        os.mkdir(out_dir)
    except OSError as exc:
        err.write(f"Error: cannot create {argv[4]}: {exc.strerror or exc}\n")
        return 1
    inputs = ParexInputs(Path(argv[0]), Path(argv[1]), Path(argv[2]), Path(argv[3]))
    try:
        write_parex(inputs, out_dir, settings, log)
    except ParexError as exc:
        return exc.exit(err)
    except OSError as exc:
        err.write(f"Error: cannot write {exc.filename or out_dir}: {exc.strerror or exc}\n")
        return 1
    return 0
