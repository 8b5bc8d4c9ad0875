"""``meteor-eval new-language``: a METEOR resource folder for a new language (Meteor Universal).

``meteor-eval new-language --corpus TEXT --phrase-table TABLE.gz --out DIR`` writes
``DIR/function.words``, ``DIR/paraphrase.gz`` and ``DIR/manifest.json``
(:mod:`meteor_eval.universal`) and builds the paraphrase index into the cache; ``meteor-eval
score --resources DIR`` then scores with METEOR 1.5's universal settings, as ``java -jar
meteor-1.5.jar ... -new DIR`` does. ``--foreign-corpus`` gives the pivot side of the parallel
corpus (Meteor Universal always has it). Every option is checked before any work; a bad
option or a missing or unreadable file is one line on stderr with exit status 2, a
phrase-table or corpus line that cannot be used one line with exit status 1 (named with its
line number).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from meteor_eval.errors import ConfigError, InputError

__all__ = ["DESCRIPTION", "add_options", "run"]

#: The command's own ``--help`` description.
DESCRIPTION = (
    "Build a METEOR resource folder for a new language from a tokenised corpus "
    "and a Moses phrase table (Meteor Universal): function words by relative frequency, "
    "paraphrases by pivoting through the table. Score with it using "
    "`meteor-eval score --resources DIR` (or the jar's -new DIR)."
)


def add_options(parser: argparse.ArgumentParser) -> None:
    """The ``new-language`` options."""
    parser.add_argument(
        "--corpus",
        required=True,
        metavar="TEXT",
        help="text in the new language, tokenised, one segment a line (the table's target side)",
    )
    parser.add_argument(
        "--phrase-table",
        required=True,
        metavar="TABLE.gz",
        help="gzip Moses phrase table 'foreign ||| target ||| p(f|e) lex(f|e) p(e|f) ...'",
    )
    parser.add_argument("--out", required=True, metavar="DIR", help="folder to create")
    parser.add_argument(
        "--foreign-corpus",
        metavar="TEXT",
        help="the pivot language's side of the parallel corpus (its common words are not used "
        "as pivots); recommended",
    )
    parser.add_argument(
        "--target-lines",
        type=int,
        default=10_000,
        metavar="N",
        help="paraphrase the phrases of the corpus's first N lines (default 10000, as Meteor "
        "Universal)",
    )
    parser.add_argument(
        "--no-index",
        action="store_true",
        help="do not build the paraphrase index now (the first scoring builds it)",
    )


def _check(args: argparse.Namespace) -> dict[str, Path]:
    """The input files by option, each checked; the output folder checked too.

    Raises:
        ConfigError: naming the option.
    """
    files = {"--corpus": args.corpus, "--phrase-table": args.phrase_table}
    if args.foreign_corpus is not None:
        files["--foreign-corpus"] = args.foreign_corpus
    checked = {}
    for option, name in files.items():
        path = Path(name)
        if not path.exists():
            raise ConfigError(f"{option}: {name}: no such file")
        if path.is_dir():
            raise ConfigError(f"{option}: {name}: is a directory, not a file")
        if not path.is_file():  # a pipe or device: the corpus and table are read twice
            raise ConfigError(f"{option}: {name}: not a regular file (it is read more than once)")
        try:
            with open(path, "rb") as handle:
                head = handle.read(2)
        except OSError as exc:
            raise ConfigError(f"{option}: {name}: cannot read ({exc.strerror or exc})") from None
        if option == "--phrase-table" and head != b"\x1f\x8b":
            raise ConfigError(f"{option}: {name}: not a gzip file")
        checked[option] = path
    if args.target_lines < 1:
        raise ConfigError(f"--target-lines: must be at least 1, got {args.target_lines}")
    out = Path(args.out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ConfigError(f"--out: {args.out} exists and is not an empty folder")
    above = next(p for p in out.absolute().parents if p.exists())  # the root always exists
    if not above.is_dir():
        raise ConfigError(f"--out: {args.out}: {above} is not a folder")
    return checked


def run(args: argparse.Namespace) -> int:
    """Build the folder and print what was built; returns the exit status."""
    from meteor_eval.jar.new_language import build_language

    files = _check(args)
    try:
        built = build_language(
            files["--corpus"],
            files["--phrase-table"],
            args.out,
            foreign_corpus=files.get("--foreign-corpus"),
            target_lines=args.target_lines,
            build_index=not args.no_index,
        )
    except InputError as exc:
        message = str(exc)
        option = next(
            (
                o
                for o, p in files.items()
                if message.startswith(f"{p} ") or message.startswith(f"{p}:")
            ),
            None,
        )
        # bad content of a readable file is a data error (exit 1), as in every other command
        raise InputError(f"{option}: {message}" if option else message) from None
    sys.stdout.write(
        f"{built.folder}: {built.function_words} function words, "
        f"{built.paraphrases} paraphrase records\n"
        f"score with: meteor-eval score --resources {built.folder} --hyp HYP --ref REF\n"
    )
    return 0
