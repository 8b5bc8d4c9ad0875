"""``meteor-eval resources``: which linguistic resources are available, and their cache.

* ``list``: per METEOR 1.5 language, the function words, stemmer, WordNet synonyms and
  paraphrase table: available or not, where each comes from (bundled in the package, the
  ``pycocoevalcap`` package, an environment variable or a path), its licence, its size, and
  whether a paraphrase table's index is built;
* ``build [--lang L]``: build the paraphrase indexes now (e.g. in a container image) instead of
  on first use;
* ``verify``: check every built paraphrase index completely (header, CRC32 of the whole body,
  structure of the trie and records) and the unpacked WordNet copies (CRC32 against the shipped
  file); exit status 1 names the damaged ones;
* ``path``: print the cache folder.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from meteor_eval.errors import ConfigError, ResourceError

__all__ = ["DESCRIPTION", "add_options", "run"]

#: The command's own ``--help`` description.
DESCRIPTION = (
    "Linguistic resources per language (function words, stemmers, WordNet, "
    "paraphrase tables) and the cache of paraphrase indexes."
)

#: Why the English table comes from pycocoevalcap, printed by ``list`` (and said in the README).
PARAPHRASE_NOTE = (
    "The English paraphrase table (paraphrase-en.gz, METEOR 1.5's, LGPL-2.1 data) comes from "
    "the pycocoevalcap package (a 104 MB wheel: pip install 'meteor-eval[paraphrase]'): no "
    "leaner package on the Python package index ships it. A table from the METEOR 1.5 "
    "distribution works as well: --paraphrase-table PATH or METEOR_EVAL_PARAPHRASE_EN=PATH "
    "(METEOR_EVAL_PARAPHRASE_<LANG> for the other languages)."
)


@dataclass
class Entry:
    """One resource of one language, as ``list`` reports it."""

    language: str
    resource: str
    available: bool
    source: str
    licence: str
    size: int | None = None
    path: str | None = None
    detail: str = ""
    index: str | None = None


def add_options(parser: argparse.ArgumentParser) -> None:
    """The ``resources`` options."""
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    for name, text in (
        ("list", "every resource per language: available, source, licence, size, index"),
        ("build", "build the paraphrase indexes now instead of on first use"),
        (
            "verify",
            "check every paraphrase index and unpacked WordNet copy (exit 1 if one is damaged)",
        ),
        ("path", "print the cache folder"),
    ):
        action = actions.add_parser(name, help=text, description=text)
        action.add_argument("--format", choices=("text", "json"), default="text")
        if name in ("list", "build"):
            action.add_argument(
                "--lang",
                metavar="L",
                help="only this language (METEOR 1.5 name or code, e.g. en)",
            )
            action.add_argument(
                "--paraphrase-table",
                metavar="PATH",
                help="this paraphrase table for the language of --lang (default en)",
            )


def run(args: argparse.Namespace) -> int:
    """Carry out one action; returns the exit status."""
    if args.action == "path":
        return _path(args)
    if args.action == "verify":
        return _verify(args)
    languages = _languages(args.lang)
    table = getattr(args, "paraphrase_table", None)
    if table is not None and len(languages) != 1:
        languages = _languages("en")
    if args.action == "build":
        return _build(args, languages, table)
    entries = [entry for language in languages for entry in _entries(language, table)]
    if args.format == "json":
        _print_json({"cache": str(_cache()), "resources": [asdict(e) for e in entries]})
    else:
        _print_entries(entries)
    return 0


# -- inventory ---------------------------------------------------------------------------------


def _languages(code: str | None) -> list[tuple[str, str, bool]]:
    """(long name, short name, has a paraphrase module in METEOR 1.5) of the chosen languages."""
    from meteor_eval.metrics.meteor.presets import LANGUAGES

    chosen = [
        (lang.long_name, lang.short_name, "paraphrase" in lang.default_modules)
        for lang in LANGUAGES
        if code is None or code.lower() in lang.codes
    ]
    if not chosen:
        known = ", ".join(lang.short_name for lang in LANGUAGES)
        raise ConfigError(f"--lang: unknown language {code!r}; known: {known}")
    return chosen


def _cache() -> Path:
    from meteor_eval.resources.registry import cache_dir

    return cache_dir()


def _entries(language: tuple[str, str, bool], table: str | None) -> list[Entry]:
    long_name, short, has_paraphrase = language
    entries = [_function_words(long_name, short), _stemmer(long_name, short)]
    if short == "en":
        entries.append(_wordnet())
    if has_paraphrase or table is not None:
        entries.append(_paraphrase(short, table))
    return entries


def _function_words(long_name: str, short: str) -> Entry:
    from meteor_eval.resources.registry import data_file

    try:
        path = data_file("function", f"{long_name}.words")
    except ResourceError:
        return Entry(short, "function words", False, "-", "-")
    size = path.stat().st_size
    return Entry(
        short,
        "function words",
        True,
        "bundled",
        "LGPL-2.1",
        size,
        str(path),
        "METEOR 1.5 list" if size else "METEOR 1.5 list (empty)",
    )


def _stemmer(long_name: str, short: str) -> Entry:
    from meteor_eval.resources.stemmers import SNOWBALL_LANGUAGES, stemmer_spec

    if long_name not in SNOWBALL_LANGUAGES:
        detail = "lookup table: --stem-table PATH" if short == "ar-bw-red" else "none"
        return Entry(short, "stemmer", False, "-", "-", detail=detail)
    spec = stemmer_spec(short)
    package = "v" + spec.version.split("-")[0].replace(".", "_")
    module = Path(__file__).resolve().parents[1] / "resources" / "_snowball" / package
    path = module / f"{long_name}_stemmer.py"
    size = path.stat().st_size if path.is_file() else None
    return Entry(
        short,
        "stemmer",
        True,
        "bundled",
        spec.licence,
        size,
        str(path),
        f"Snowball {spec.version}",
    )


def _wordnet() -> Entry:
    from meteor_eval.resources.registry import data_file
    from meteor_eval.resources.wordnet.binary import METEOR_BINARY_FILE

    try:
        path = data_file("wordnet", METEOR_BINARY_FILE)
    except ResourceError:
        return Entry("en", "synonyms", False, "-", "-", detail="WordNet 3.0 missing")
    folder = path.parent
    size = sum(f.stat().st_size for f in folder.iterdir() if f.is_file())
    return Entry("en", "synonyms", True, "bundled", "WordNet-3.0", size, str(folder), "WordNet 3.0")


def _paraphrase_source(short: str, table: str | None, found: Path) -> str:
    """How :func:`find_paraphrase_table` found ``found``."""
    if table is not None:
        return "path"
    variable = f"METEOR_EVAL_PARAPHRASE_{short.upper().replace('-', '_')}"
    if os.environ.get(variable):
        return f"environment variable {variable}"
    folder = os.environ.get("METEOR_EVAL_PARAPHRASE_DIR")
    if folder and found.parent == Path(folder):
        return "environment variable METEOR_EVAL_PARAPHRASE_DIR"
    return "pycocoevalcap"


def _paraphrase(short: str, table: str | None) -> Entry:
    from meteor_eval.resources.paraphrases import (
        find_paraphrase_table,
        index_path_for,
        table_key,
    )

    try:
        found = find_paraphrase_table(short, table)
        key = table_key(found)
    except ResourceError as problem:
        variable = f"METEOR_EVAL_PARAPHRASE_{short.upper().replace('-', '_')}"
        detail = (
            str(problem)
            if table is not None or os.environ.get(variable)
            else f"not found: set {variable} or pass --paraphrase-table PATH"
        )
        return Entry(short, "paraphrase table", False, "-", "LGPL-2.1", detail=detail)
    index = index_path_for(key)
    return Entry(
        short,
        "paraphrase table",
        True,
        _paraphrase_source(short, table, found),
        "LGPL-2.1",
        found.stat().st_size,
        str(found),
        "METEOR 1.5 format",
        f"built ({index})" if index.is_file() else "not built",
    )


def _size(size: int | None) -> str:
    if size is None:
        return "-"
    if size >= 1_000_000:
        return f"{size / 1e6:.1f} MB"
    return f"{size / 1e3:.1f} kB" if size >= 1000 else f"{size} B"


def _print_entries(entries: list[Entry]) -> None:
    header = ("lang", "resource", "available", "source", "licence", "size", "index / detail")
    rows = [
        (
            e.language,
            e.resource,
            "yes" if e.available else "no",
            e.source,
            e.licence,
            _size(e.size),
            e.index or e.detail,
        )
        for e in entries
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header) - 1)]
    for row in [header, *rows]:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        print("  ".join([*cells, row[-1]]).rstrip())
    print(f"\ncache folder: {_cache()}")
    print(PARAPHRASE_NOTE)


def _print_json(value: object) -> None:
    json.dump(value, sys.stdout, indent=2)
    sys.stdout.write("\n")


# -- build, verify, path -------------------------------------------------------------------------


def _build(
    args: argparse.Namespace, languages: list[tuple[str, str, bool]], table: str | None
) -> int:
    from meteor_eval.resources import paraphrases

    results = []
    for _, short, has_paraphrase in languages:
        if not has_paraphrase and table is None:
            continue
        try:
            found = paraphrases.find_paraphrase_table(short, table)
        except ResourceError:
            if args.lang is not None:
                raise
            continue  # building "everything": only the tables that are installed
        builds = paraphrases.build_count
        opened = paraphrases.open_index(found, short, verify="full")
        if opened.index_path is None:  # built, but kept in memory: the cache is not writable
            opened.close()
            raise ResourceError(
                f"{short}: the paraphrase index could not be written to the cache folder "
                f"{_cache()}; set METEOR_EVAL_CACHE to a writable folder"
            )
        state = "built" if paraphrases.build_count > builds else "already built"
        results.append(
            {
                "language": short,
                "table": str(found),
                "index": str(opened.index_path),
                "state": state,
            }
        )
        opened.close()
    if args.format == "json":
        _print_json(results)
    else:
        for result in results:
            print(f"{result['language']}: {result['state']}: {result['index']}")
        if not results:
            print("no paraphrase table installed: nothing to build")
    return 0


def _checked_files() -> list[tuple[str, Path, str | None]]:
    """(kind, file, problem or None) for every paraphrase index built in the cache folder and
    every unpacked WordNet copy of this installation."""
    from meteor_eval.resources.paraphrases import built_indexes, check_index_file
    from meteor_eval.resources.registry import check_unpacked_copy, data_file
    from meteor_eval.resources.wordnet.binary import METEOR_BINARY_FILE, NLTK_BINARY_FILE

    results = [("paraphrase index", path, check_index_file(path)) for path in built_indexes()]
    for name in (METEOR_BINARY_FILE, NLTK_BINARY_FILE):
        try:
            copy = check_unpacked_copy(data_file("wordnet", name))
        except (ResourceError, OSError):  # not shipped: `list` and scoring report that
            continue
        if copy is not None:
            results.append(("unpacked WordNet copy", *copy))
    return results


def _verify(args: argparse.Namespace) -> int:
    results = _checked_files()
    if args.format == "json":
        _print_json(
            [
                {"kind": kind, "file": str(path), "ok": problem is None, "problem": problem}
                for kind, path, problem in results
            ]
        )
    else:
        for kind, path, problem in results:
            state = f"damaged ({problem})" if problem else "ok"
            print(f"{kind}: {state}: {path}")
        if not results:
            print(f"nothing built or unpacked in {_cache()}")
    for kind, path, problem in results:
        if problem is None:
            continue
        remedy = (
            # `resources build` rebuilds only the installed tables' indexes, not those of a
            # table given by path (a new-language folder, --paraphrase-table)
            "delete it: it is built again when its table is next used"
            if kind == "paraphrase index"
            else "it is unpacked again when next used"
        )
        print(
            f"meteor-eval resources: error: damaged {kind} {path} ({problem}); {remedy}",
            file=sys.stderr,
        )
    return 1 if any(problem is not None for _, _, problem in results) else 0


def _path(args: argparse.Namespace) -> int:
    if args.format == "json":
        _print_json({"cache": str(_cache())})
    else:
        print(_cache())
    return 0
