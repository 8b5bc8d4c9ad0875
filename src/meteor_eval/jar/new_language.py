"""Meteor Universal: METEOR resources for a new language, built from a corpus and a phrase table.

Denkowski and Lavie (2014) score any target language with METEOR 1.5's *universal* settings
(exact and paraphrase modules, weights 1.0 and 0.6, alpha 0.70, beta 1.40, gamma 0.30, delta
0.70, lower-casing: the jar's ``-new DIR``) and two resources learnt from data. Their script
(``scripts/new_language.py`` of the METEOR source) lower-cases its inputs, runs the jar's
``Parex`` and copies two of its outputs into a folder; :func:`build_language` does the same
without Java:

* ``function.words``: the words of the new-language corpus whose relative frequency exceeds
  0.001 (``Parex``'s ``parex.e``), in the jar's order;
* ``paraphrase.gz``: ``Parex``'s final table (pivot paraphrases through the phrase table,
  merged and filtered) rewritten as METEOR's three-line records (probability, phrase, phrase);
* ``manifest.json``: what was built from what (paths, sizes, SHA-256 of inputs and outputs,
  thresholds, the universal parameters) and the paraphrase index's file.

The target corpus whose phrases get paraphrased is the first 10,000 lines of the corpus, as in
``new_language.py``. The folder is what ``meteor-eval score --resources DIR`` and the jar's
``-new DIR`` (``meteor-eval jar-compat ... -new DIR``) read; ``tests/cli/test_new_language.py``
checks that the files equal those the jar's own steps produce and that both commands give the
same scores.

Differences from ``new_language.py``: input that is not UTF-8 and phrase-table lines the jar
would skip (missing fields or scores, a score that is not a number in [0, 1]) are refused,
naming the file and line, instead of crashing or being dropped silently; the folder is written
atomically (built beside its final name, then renamed), and its paraphrase index is built into
the cache right away so the first scoring starts at once.

References:
    M. Denkowski and A. Lavie. Meteor Universal: Language Specific Translation Evaluation for
    Any Target Language. WMT 2014.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import secrets
import shutil
import warnings
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Final

from meteor_eval._log import get_logger
from meteor_eval._version import __version__
from meteor_eval.errors import InputError
from meteor_eval.jar.javaio import JavaGzipWriter
from meteor_eval.jar.parex import ParexInputs, ParexSettings, parse_table_line, write_parex
from meteor_eval.universal import (
    FUNCTION_WORDS,
    MANIFEST,
    PARAPHRASES,
    TARGET_LINES,
)

__all__ = ["LanguageBuild", "build_language"]

logger = get_logger(__name__)

_HASH_CHUNK: Final = 1 << 20
#: A progress line every this many phrase-table lines (each of the two passes).
_PROGRESS_EVERY: Final = 5_000_000


@dataclass(frozen=True, slots=True)
class LanguageBuild:
    """What :func:`build_language` made.

    Attributes:
        folder: The resource folder.
        function_words: Number of function words.
        paraphrases: Number of paraphrase records.
        manifest: The manifest written as ``manifest.json``.
    """

    folder: Path
    function_words: int
    paraphrases: int
    manifest: dict[str, Any] = field(repr=False)


def _byte_lines(handle: BinaryIO) -> Iterator[bytes]:
    """Lines split as the jar's ``readLine`` splits them (``\\n``, ``\\r``, ``\\r\\n``); those
    bytes never occur inside a UTF-8 sequence, so splitting before decoding is safe."""
    for raw in handle:
        if raw.endswith(b"\r\n"):
            body = raw[:-2]
        elif raw.endswith((b"\n", b"\r")):
            body = raw[:-1]
        else:
            body = raw
        yield from body.split(b"\r")


def _strict_lines(path: Path, *, gz: bool = False, lower: bool = True) -> Iterator[str]:
    """Lines of a UTF-8 file as the jar splits them, lower-cased (``lower``) as
    ``new_language.py`` does; malformed UTF-8 is an :class:`InputError` naming the line."""
    try:
        with gzip.open(path, "rb") if gz else open(path, "rb") as handle:
            for number, raw in enumerate(_byte_lines(handle), 1):  # type: ignore[arg-type]
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise InputError(
                        f"{path} line {number}: not UTF-8 (byte {exc.start + 1} of the line)"
                    ) from None
                yield line.lower() if lower else line
    except (OSError, EOFError, zlib.error) as exc:
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        raise InputError(f"{path}: cannot read ({reason})") from None


def _checked_table(path: Path) -> Iterator[str]:
    """The phrase table's lines, each checked: ``f ||| e ||| p(f|e) x p(e|f) ...``."""
    for number, line in enumerate(_strict_lines(path, gz=True), 1):
        if number % _PROGRESS_EVERY == 0:
            logger.info("%s: %d lines read", path.name, number)
        entry = parse_table_line(line)
        if entry is None:
            raise InputError(
                f"{path} line {number}: expected 'foreign ||| target ||| p(f|e) lex(f|e) "
                f"p(e|f) ...' (at least three numbers), got {line[:80]!r}"
            )
        for name, value in (("p(f|e)", entry.p_f_given_e), ("p(e|f)", entry.p_e_given_f)):
            if not 0.0 <= value <= 1.0:
                raise InputError(
                    f"{path} line {number}: {name} is {value}, not a probability in [0, 1]"
                )
        yield line


def _limited(lines: Iterator[str], limit: int) -> Iterator[str]:
    for number, line in enumerate(lines):
        if number == limit:
            return
        yield line


def _file_record(path: Path) -> dict[str, Any]:
    """Path, size and SHA-256 of a file."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(_HASH_CHUNK):
            digest.update(chunk)
    return {"path": str(path), "size": path.stat().st_size, "sha256": digest.hexdigest()}


def _three_line_records(source: Path, target: Path) -> int:
    """``a ||| b ||| p`` lines rewritten as METEOR's records (``new_language.py``'s
    ``par_fmt``); returns the number of records."""
    count = 0
    with JavaGzipWriter(target) as out:
        for line in _strict_lines(source, gz=True, lower=False):
            # As par_fmt: the line stripped of ASCII blanks, the fields kept as they are.
            a, b, prob = line.strip(" \t\n\r\x0b\x0c").split(" ||| ")
            out.println(prob)
            out.println(a)
            out.println(b)
            count += 1
    return count


def _universal_settings() -> dict[str, Any]:
    """The settings the folder is scored with (the jar's ``-new``)."""
    from meteor_eval.metrics.meteor.presets import resolve_language, task_settings

    universal = task_settings(resolve_language("other"), "universal")
    return {
        "language": "other",
        "task": "universal",
        "normalization": "lower",
        "modules": list(universal.modules),
        "weights": list(universal.weights),
        "alpha": universal.alpha,
        "beta": universal.beta,
        "gamma": universal.gamma,
        "delta": universal.delta,
    }


def build_language(
    corpus: str | os.PathLike[str],
    phrase_table: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    foreign_corpus: str | os.PathLike[str] | None = None,
    target_lines: int = TARGET_LINES,
    build_index: bool = True,
    step: Callable[[str], None] | None = None,
) -> LanguageBuild:
    """Build a Meteor Universal resource folder (module docstring).

    Args:
        corpus: Text in the new language, one segment a line, tokenised (tokens are separated
            by blanks); the phrase table's target side.
        phrase_table: A gzip Moses phrase table ``foreign ||| target ||| p(f|e) lex(f|e)
            p(e|f) ...`` (Parex reads the first and third numbers).
        out: The folder to create; it must not exist, or be empty.
        foreign_corpus: The pivot side of the parallel corpus, for the pivot language's common
            words (phrases of only common words are not used as pivots). Without it no pivot
            phrase is excluded for that reason, which Meteor Universal always does.
        target_lines: Lines of ``corpus`` whose phrases get paraphrased.
        build_index: Also build the paraphrase index into the cache.
        step: Receives a short description of each step (the command line logs them).

    Returns:
        What was built.

    Raises:
        InputError: an input is missing, not UTF-8 or malformed (named with its line),
            ``out`` exists and is not empty, or no paraphrase came out.
        ValueError: ``target_lines`` is below 1.
    """
    if target_lines < 1:
        raise ValueError(f"target_lines must be at least 1, got {target_lines}")
    paths = {"corpus": Path(corpus), "phrase_table": Path(phrase_table)}
    if foreign_corpus is not None:
        paths["foreign_corpus"] = Path(foreign_corpus)
    for name, path in paths.items():
        if not path.is_file():
            raise InputError(f"{path}: no such file ({name})")
    folder = Path(out)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise InputError(f"{folder} exists and is not an empty folder")
    report = step if step is not None else logger.info
    folder.parent.mkdir(parents=True, exist_ok=True)
    if foreign_corpus is None:
        warnings.warn(
            "no foreign corpus: the pivot language's common words are not known, so pivot "
            "phrases made only of such words are kept (Meteor Universal drops them)",
            stacklevel=2,
        )
    work = folder.parent / f".{folder.name}.{secrets.token_hex(4)}.tmp"
    work.mkdir()
    try:
        counts = _build_into(work, paths, target_lines, report)
        if counts[1] == 0:
            # METEOR refuses an empty table (it would silently turn the paraphrase module off).
            raise InputError(
                f"no paraphrases came out of {paths['phrase_table']}: are its target phrases "
                f"in the language of {paths['corpus']}, lower-cased and tokenised the same way?"
            )
        manifest = _manifest(paths, work, counts, target_lines)
        (work / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
        if folder.exists():
            folder.rmdir()
        os.replace(work, folder)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    if build_index:
        index = _index(folder / PARAPHRASES)
        manifest["files"][PARAPHRASES]["index"] = index
        (folder / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return LanguageBuild(folder, counts[0], counts[1], manifest)


def _build_into(
    work: Path, paths: dict[str, Path], target_lines: int, report: Callable[[str], None]
) -> tuple[int, int]:
    """Run Parex in ``work/parex`` and write the two resources; (words, records)."""
    parex_dir = work / "parex"
    parex_dir.mkdir()
    empty = work / "empty.f"
    empty.write_bytes(b"")
    corpus = paths["corpus"]
    target = work / "target"  # a distinct path, read with the line limit

    def lines(path: Path) -> Iterator[str]:
        if path == paths["phrase_table"]:
            return _checked_table(path)
        if path == target:
            return _limited(_strict_lines(corpus), target_lines)
        return _strict_lines(path)

    inputs = ParexInputs(paths.get("foreign_corpus", empty), corpus, paths["phrase_table"], target)
    messages = {
        "+ foreign": "counting the pivot corpus's common words"
        if "foreign_corpus" in paths
        else "",
        "+ english": "counting the corpus's function words",
        "Loading phrases": "reading the phrase table (first pass)",
        "Finding paraphrases": "pivoting through the phrase table (second pass)",
        "Step 3: grouping paraphrases": "sorting the paraphrases",
        "Step 4: combining and filtering paraphrases": "merging and filtering the paraphrases",
    }

    def log(message: str) -> None:
        if messages.get(message):
            report(messages[message])

    write_parex(inputs, parex_dir, ParexSettings(), log, lines=lines)
    shutil.copyfile(parex_dir / "parex.e", work / FUNCTION_WORDS)
    words = sum(1 for _ in _strict_lines(work / FUNCTION_WORDS, lower=False))
    records = _three_line_records(parex_dir / "paraphrase.gz", work / PARAPHRASES)
    shutil.rmtree(parex_dir)
    empty.unlink()
    return words, records


def _manifest(
    paths: dict[str, Path], work: Path, counts: tuple[int, int], target_lines: int
) -> dict[str, Any]:
    """What was built from what."""
    settings = ParexSettings()
    inputs = {name: _file_record(path) for name, path in paths.items()}
    for record in inputs.values():
        record["path"] = str(Path(record["path"]).resolve())
    files = {
        FUNCTION_WORDS: {**_file_record(work / FUNCTION_WORDS), "entries": counts[0]},
        PARAPHRASES: {**_file_record(work / PARAPHRASES), "records": counts[1]},
    }
    for record in files.values():
        record["path"] = Path(record["path"]).name
    return {
        "format": "meteor-eval new-language 1",
        "built_by": f"meteor-eval {__version__}",
        "inputs": inputs,
        "target_lines": target_lines,
        "lowercased": True,
        "parex": {
            "min_trans_prob": settings.min_trans_prob,
            "min_rel_freq": settings.min_rel_freq,
            "min_final_prob": settings.min_final_prob,
            "symbols": "".join(sorted(settings.symbols)),
            "foreign_common_words": "foreign_corpus" in paths,
        },
        "files": files,
        "scoring": _universal_settings(),
    }


def _index(table: Path) -> str | None:
    """Build (or find) the table's index in the cache; its path, or ``None`` if kept in memory."""
    from meteor_eval.resources.paraphrases import open_index

    opened = open_index(table, "other")
    try:
        return None if opened.index_path is None else str(opened.index_path)
    finally:
        opened.close()
