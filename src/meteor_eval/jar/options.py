"""The jar's command line, parsed exactly as ``meteor-1.5.jar`` parses it (spec 1.1, 6.1).

``java -jar meteor-1.5.jar TEST REF [options]``: two positional file names, then options read left
to right. A repeated option keeps its last value; the order of different options does not matter
(they are resolved in a fixed order, see :mod:`meteor_eval.jar.config`), except that ``-p``
anywhere turns the task into ``custom``.

Behaviour kept from the jar: fewer than two arguments print the usage text on stderr and exit 2;
an unknown option prints ``Unknown option "<opt>"`` on stderr and exits 1.

Where the jar crashes (a value-taking option given as the last argument dies with an
``ArrayIndexOutOfBoundsException``), :class:`JarOptionError` carries a one-line message instead
(exit status 1).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Final, TextIO

__all__ = [
    "USAGE",
    "JarExitError",
    "JarOptionError",
    "JarOptions",
    "JarUsageError",
    "UnknownOptionError",
    "parse_jar_args",
]

#: The jar's usage text, printed on stderr (exit status 2) with fewer than two arguments.
USAGE: Final = """Meteor version 1.5

Usage: java -Xmx2G -jar meteor-*.jar <test> <reference> [options]

Options:
-l language                     Fully supported: en cz de es fr
                                Supported with language-independent parameters:
                                  da fi hu it nl no pt ro ru se tr
                                Experimental:
                                  ar-bw-red
-t task                         One of: rank util adq hter li tune
                                  util implies -ch
-p 'alpha beta gamma delta'     Custom parameters (overrides default)
-m 'module1 module2 ...'        Specify modules (overrides default)
                                  Any of: exact stem synonym paraphrase
-w 'weight1 weight2 ...'        Specify module weights (overrides default)
-r refCount                     Number of references (plaintext only)
-x beamSize                     (default 40)
-s wordListFile                 (if not default for language)
-d synonymDirectory             (if not default for language)
-a paraphraseFile               (if not default for language)
-f filePrefix                   Prefix for output files (default 'meteor')
-q                              Quiet: Segment scores to stderr, final to stdout,
                                  no additional output (plaintext only)
-new files-dir                  New language! (files-dir contains function.words and paraphrase.gz)
                                  implies -lower
-ch                             Character-based precision and recall
-norm                           Tokenize / normalize punctuation and lowercase
                                  (Recommended unless scoring raw output with
                                   pretokenized references)
-lower                          Lowercase only (not required if -norm specified)
-noPunct                        Do not consider punctuation when scoring
                                  (Not recommended unless special case)
-sgml                           Input is in SGML format
-stdio                           Input is from stdin, see README for format
                                  (Use '-' for test and reference files)
-vOut                           Output verbose scores (P / R / frag / score)
-ssOut                          Output sufficient statistics instead of scores
-writeAlignments                Output alignments annotated with Meteor scores
                                  (written to <prefix>-align.out)

Sample options for plaintext: -l <lang> -norm
Sample options for SGML: -l <lang> -norm -sgml
Sample options for raw output / pretokenized references: -l <lang> -lower
Sample options for new language (plaintext): -new meteor-files

See README file for additional information
"""

# option -> attribute of JarOptions
_VALUED: Final = {
    "-l": "language",
    "-t": "task",
    "-p": "parameters",
    "-m": "modules",
    "-w": "weights",
    "-r": "ref_count",
    "-x": "beam",
    "-s": "word_file",
    "-d": "synonym_dir",
    "-a": "paraphrase_file",
    "-f": "file_prefix",
    "-new": "new_language_dir",
}
_FLAGS: Final = {
    "-ch": "char_based",
    "-q": "quiet",
    "-writeAlignments": "write_alignments",
    "-norm": "norm",
    "-lower": "lower",
    "-sgml": "sgml",
    "-stdio": "stdio",
    "-mira": "stdio",
    "-noPunct": "no_punct",
    "-ssOut": "ss_out",
    "-vOut": "v_out",
}


class JarExitError(Exception):
    """A jar program's refusal: its message, one line for stderr, and the program's exit status
    for it (the class's :attr:`status`), so that each program ends on any of them the same way.
    """

    #: The exit status.
    status: ClassVar[int] = 1
    #: What stands before the message on its line.
    prefix: ClassVar[str] = ""

    def exit(self, err: TextIO) -> int:
        """Write the message line on ``err``; return the exit status."""
        err.write(f"{self.prefix}{self}\n")
        return self.status


class JarUsageError(JarExitError):
    """Fewer than two positional arguments: print :data:`USAGE` on stderr, exit status 2."""

    status = 2

    def exit(self, err: TextIO) -> int:
        """Write :data:`USAGE` on ``err``; return 2."""
        err.write(USAGE)
        return self.status


class UnknownOptionError(JarExitError):
    """An option the jar does not know: ``Unknown option "<opt>"`` on stderr, exit status 1."""

    def __init__(self, option: str) -> None:
        super().__init__(f'Unknown option "{option}"')
        self.option = option


class JarOptionError(JarExitError):
    """An option the jar would crash on (one line for stderr, exit status 1)."""


@dataclass(slots=True)
class JarOptions:
    """Raw option values as given (``None``: not given). Values are not interpreted here.

    Attributes:
        test: The test (hypothesis) file name (ignored with ``-stdio``).
        reference: The reference file name (ignored with ``-stdio``).
        language: ``-l``.
        task: ``-t``.
        parameters: ``-p`` (whitespace-separated numbers).
        modules: ``-m``.
        weights: ``-w``.
        ref_count: ``-r`` (an integer, read only in plaintext mode).
        beam: ``-x``.
        word_file: ``-s``.
        synonym_dir: ``-d``.
        paraphrase_file: ``-a``.
        file_prefix: ``-f``.
        new_language_dir: ``-new``.
        char_based: ``-ch``.
        quiet: ``-q``.
        write_alignments: ``-writeAlignments``.
        norm: ``-norm``.
        lower: ``-lower``.
        sgml: ``-sgml``.
        stdio: ``-stdio`` or ``-mira``.
        no_punct: ``-noPunct``.
        ss_out: ``-ssOut``.
        v_out: ``-vOut``.
    """

    test: str
    reference: str
    language: str | None = None
    task: str | None = None
    parameters: str | None = None
    modules: str | None = None
    weights: str | None = None
    ref_count: str | None = None
    beam: str | None = None
    word_file: str | None = None
    synonym_dir: str | None = None
    paraphrase_file: str | None = None
    file_prefix: str | None = None
    new_language_dir: str | None = None
    char_based: bool = False
    quiet: bool = False
    write_alignments: bool = False
    norm: bool = False
    lower: bool = False
    sgml: bool = False
    stdio: bool = False
    no_punct: bool = False
    ss_out: bool = False
    v_out: bool = False
    given: list[str] = field(default_factory=list)

    @property
    def prefix(self) -> str:
        """The output file prefix (``-f``, default ``meteor``)."""
        return "meteor" if self.file_prefix is None else self.file_prefix


def scan_options(
    argv: Sequence[str],
    valued: Collection[str],
    flags: Collection[str],
    *,
    missing: Callable[[str], Exception],
    unknown: Callable[[str], Exception],
) -> Iterator[tuple[str, str | None]]:
    """The options after the two positional arguments, as every jar program reads them.

    Yields ``(option, value)`` in order, ``value`` ``None`` for a flag; a later option is read
    only after the caller has taken the earlier one, so the first error in the line is the one
    raised, as in the jar. Names match exactly and a repeated option is yielded again (the
    caller's last assignment wins).

    Raises:
        Exception: ``missing("Error: option OPT needs a value")`` for a value-taking option given
            last; ``unknown(OPT)`` for an option in neither collection.
    """
    k = 2
    while k < len(argv):
        arg = argv[k]
        if arg in valued:
            if k + 1 >= len(argv):
                raise missing(f"Error: option {arg} needs a value")
            yield arg, argv[k + 1]
            k += 2
        elif arg in flags:
            yield arg, None
            k += 1
        else:
            raise unknown(arg)


def parse_jar_args(argv: list[str]) -> JarOptions:
    """Parse ``TEST REF [options]`` as the jar does.

    Option names are case-sensitive and must match exactly (``-norm``, not ``--norm``).

    Raises:
        JarUsageError: fewer than two arguments.
        UnknownOptionError: an option the jar does not know (the first one found).
        JarOptionError: a value-taking option without its value.

    Example:
        >>> opts = parse_jar_args(["hyp", "ref", "-l", "fr", "-norm", "-l", "de"])
        >>> (opts.language, opts.norm)
        ('de', True)
    """
    if len(argv) < 2:
        raise JarUsageError
    options = JarOptions(test=argv[0], reference=argv[1])
    for arg, value in scan_options(
        argv, _VALUED, _FLAGS, missing=JarOptionError, unknown=UnknownOptionError
    ):
        if value is None:
            setattr(options, _FLAGS[arg], True)
        else:
            setattr(options, _VALUED[arg], value)
        options.given.append(arg)
    return options
