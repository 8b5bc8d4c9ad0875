"""``meteor-eval stem``: the stems METEOR's ``stem`` module compares, one line in, one line out.

Reads the files given (standard input when there is none, or ``-``) and writes each line's
tokens, split on blanks as METEOR 1.5 splits them, as their stems joined by single spaces. The
stemmer is the one the METEOR options select: the jar's Snowball stemmer for ``--lang``
(``meteor15``), a lookup table (``--stem-table``, needed for ``ar-bw-red``), the original Porter
algorithm (``--flavour paper2005``) or NLTK's Porter stemmer (``--flavour nltk``). Every token
is stemmed, as the matcher stems it; the jar's ``Stemmer`` tool instead leaves tokens made of
digits and ``, . -`` alone (``meteor-eval jar-compat Stemmer LANG`` reproduces that tool).
Other METEOR options have no effect on stems and are refused.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Final

from meteor_eval.cli.options import add_meteor_options, meteor_config
from meteor_eval.errors import ConfigError

if TYPE_CHECKING:
    from meteor_eval.metrics.meteor import MeteorConfig

__all__ = ["DESCRIPTION", "add_options", "run", "stemmer_for"]

#: The command's own ``--help`` description.
DESCRIPTION = (
    "Stem each token of each line with the stemmer of METEOR's stem module "
    "(--lang, --stem-table, --flavour choose it). Reads the FILEs or standard input."
)

#: METEOR options that choose the stemmer; the others are refused.
_USED: Final = frozenset({"flavour", "lang", "stem_table"})


def add_options(parser: argparse.ArgumentParser) -> None:
    """The ``stem`` options."""
    parser.add_argument("files", nargs="*", metavar="FILE", help="input files (default: stdin)")
    add_meteor_options(parser)


def stemmer_for(config: MeteorConfig) -> Callable[[str], str]:
    """The stemming function the ``stem`` module of ``config`` applies to each token.

    Raises:
        ConfigError: the language has no stemmer.
    """
    from meteor_eval.resources import stemmers

    if config.flavour == "paper2005":
        return stemmers.porter_stemmer()
    if config.flavour == "nltk":
        from meteor_eval.resources.nltk_porter import nltk_porter_stemmer

        return nltk_porter_stemmer().stem
    if config.stem_table is not None:
        return stemmers.arabic_table_stemmer(config.stem_table)
    if config.language in ("czech", "other", "arabic-buckwalter-reduced"):
        hint = " (give its table with --stem-table)" if config.language.startswith("arabic") else ""
        if config.language == "other":
            # xx is the jar's code for it: say what the typed code stands for
            hint = (
                " (xx and other select METEOR 1.5's language-independent settings, which match "
                "words exactly and stem nothing)"
            )
        raise ConfigError(f"--lang: METEOR 1.5 has no built-in stemmer for {config.language}{hint}")
    return stemmers.get_stemmer(config.language)


def _meteor_dests() -> set[str]:
    """Destinations of the METEOR options (as ``add_meteor_options`` defines them)."""
    probe = argparse.ArgumentParser(add_help=False)
    add_meteor_options(probe)
    return {action.dest for action in probe._actions}


def _lines(names: list[str]) -> Iterator[str]:
    from meteor_eval.io import iter_lines

    for name in names or ["-"]:
        yield from iter_lines(name)


def run(args: argparse.Namespace) -> int:
    """Stem and print; returns the exit status."""
    from meteor_eval.text.tokenize import java_split

    refused = sorted((getattr(args, "explicit", set()) & _meteor_dests()) - _USED)
    if refused:
        names = ", ".join("--" + name.replace("_", "-") for name in refused)
        raise ConfigError(
            f"{names}: no effect on stems (stem takes --lang, --stem-table, --flavour)"
        )
    stem = stemmer_for(meteor_config(args))
    out = sys.stdout
    for line in _lines(args.files):
        out.write(" ".join(stem(token) for token in java_split(line)) + "\n")
    return 0
