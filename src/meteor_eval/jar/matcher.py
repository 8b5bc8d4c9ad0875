"""The jar's standalone aligner: ``java -cp meteor-1.5.jar Matcher TEST REF [options]``.

Reproduced byte for byte (``tests/reference/test_matcher_stemmer_golden.py``):

* fewer than two arguments: the usage text on **stdout**, exit status 0;
* options ``-l -m -t -x -d -a`` (a value each; the last one given wins) and ``-stdio``; any other
  prints ``Unknown option "<opt>"`` on stderr, exit status 1;
* no normalisation at all: lines are split on blanks as given (case kept, punctuation attached);
* default modules ``exact stem synonym paraphrase`` whatever the language;
* ``-t maxcov`` (the default) is the scorer's alignment; any other value selects the accuracy
  objective (:mod:`meteor_eval.align.objective`);
* ``-x`` below 1: the search keeps no path, prints ``Warning: unexpected conditions - skipping
  matches until possible to continue`` on stderr once per reference position plus one, and
  ends with the matches fixed before searching;
* per line pair: ``Alignment <k>`` (``Alignment`` with ``-stdio``), the two token lines, the
  column header and one line per match in reference order, then a blank line;
* a test file longer than the reference file: ``Error: files not of same length.`` on stderr
  after the alignments of the common lines, exit status 1 (a longer reference file is fine);
* ``-stdio``: lines ``sentence 1 ||| sentence 2`` from stdin; a line without `` ||| `` gets
  ``Format error, use: sentence 1 ||| sentence 2`` on stderr and is skipped.

Where the jar dies with a stack trace (an unknown language or module, a malformed ``-x``, a
missing resource or input file, an option without its value) one ``Error: ...`` line is printed
on stderr instead, exit status 1.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final, TextIO

from meteor_eval.align.alignment import Alignment
from meteor_eval.align.objective import AlignmentType
from meteor_eval.alignments import TextAligner
from meteor_eval.errors import ConfigError, MeteorEvalError
from meteor_eval.jar.config import JarConfigError, parse_java_int, report_failure
from meteor_eval.jar.lines import read_jar_lines
from meteor_eval.jar.options import JarExitError, JarOptionError, UnknownOptionError, scan_options
from meteor_eval.match import registry as matchers
from meteor_eval.text.tokenize import java_split, java_trim

__all__ = ["MATCHER_USAGE", "MatcherOptions", "alignment_text", "parse_matcher_args", "run_matcher"]

#: The Matcher's usage text (printed on stdout, exit status 0).
MATCHER_USAGE: Final = """Meteor Aligner version 1.5
Usage: java -Xmx2G -cp meteor-*.jar Matcher <test> <reference> [options]

Options:
-l language                     One of: en da de es fi fr hu it nl no pt ro ru se tr
-m 'module1 module2 ...'        Specify modules (overrides default)
                                  One of: exact stem synonym paraphrase
-t type                         Alignment type (coverage vs accuracy)
                                  One of: maxcov maxacc
-x beamSize                     Keep speed reasonable
-d synonymDirectory             (if not default)
-a paraphraseFile               (if not default)
-stdio                          Read lines from stdin
                                  sentence 1 ||| sentence 2
                                  use "-" for test and reference (Matcher - - -stdio)

See README file for examples
"""

_VALUED: Final = {
    "-l": "language",
    "-x": "beam",
    "-d": "synonym_dir",
    "-a": "paraphrase_file",
    "-m": "modules",
    "-t": "kind",
}
_HEADER: Final = "Line2Start:Length\tLine1Start:Length\tModule\t\tScore"
_SEPARATOR: Final = " ||| "
_FORMAT_ERROR: Final = "Format error, use: sentence 1 ||| sentence 2\n"
_BEAM_WARNING: Final = (
    "Warning: unexpected conditions - skipping matches until possible to continue\n"
)
_DEFAULT_MODULES: Final = "exact stem synonym paraphrase"


@dataclass(slots=True)
class MatcherOptions:
    """The Matcher's raw options (``None``: not given).

    Attributes:
        test: Test file (``-`` with ``-stdio``).
        reference: Reference file.
        language: ``-l``.
        beam: ``-x``.
        synonym_dir: ``-d``.
        paraphrase_file: ``-a``.
        modules: ``-m``.
        kind: ``-t``.
        stdio: ``-stdio``.
    """

    test: str
    reference: str
    language: str | None = None
    beam: str | None = None
    synonym_dir: str | None = None
    paraphrase_file: str | None = None
    modules: str | None = None
    kind: str | None = None
    stdio: bool = False
    given: list[str] = field(default_factory=list)

    @property
    def alignment_type(self) -> AlignmentType:
        """``maxcov`` only for exactly that word; anything else is the accuracy type."""
        return "maxcov" if self.kind is None or self.kind == "maxcov" else "maxacc"


def parse_matcher_args(argv: Sequence[str]) -> MatcherOptions | None:
    """Parse ``TEST REF [options]``; ``None`` when there are fewer than two arguments.

    Raises:
        UnknownOptionError: an option the Matcher does not know.
        JarOptionError: a value-taking option given last.
    """
    if len(argv) < 2:
        return None
    options = MatcherOptions(test=argv[0], reference=argv[1])
    for arg, value in scan_options(
        argv, _VALUED, ("-stdio",), missing=JarOptionError, unknown=UnknownOptionError
    ):
        if value is None:
            options.stdio = True
        else:
            setattr(options, _VALUED[arg], value)
        options.given.append(arg)
    return options


def alignment_text(label: str, alignment: Alignment) -> str:
    """One alignment as the Matcher prints it, with its closing blank line."""
    out = [
        label,
        java_trim(" ".join(alignment.hyp_tokens)),
        java_trim(" ".join(alignment.ref_tokens)),
        _HEADER,
    ]
    for m in sorted(alignment.matches, key=lambda match: match.ref_start):
        out.append(
            f"{m.ref_start}:{m.ref_len}\t\t\t{m.hyp_start}:{m.hyp_len}\t\t\t{m.stage}\t\t1.0"
        )
    return "\n".join(out) + "\n\n"


class _Pairs:
    """Aligns raw line pairs as the Matcher does (no preprocessing but splitting on blanks)."""

    def __init__(self, options: MatcherOptions) -> None:
        from meteor_eval.metrics.meteor.presets import resolve_language

        try:
            language = resolve_language(options.language or "english")
        except ConfigError:
            raise JarConfigError(f"Error: Unknown language ({options.language})") from None
        beam = 40 if options.beam is None else parse_java_int(options.beam, option="-x")
        text = _DEFAULT_MODULES if options.modules is None else options.modules
        known = matchers.module_names()
        modules = []
        for token in java_split(text):
            if token.lower() not in known:
                raise JarConfigError(f"Error: Unknown module ({token})")
            modules.append(token.lower())
        self.modules = tuple(modules)
        self.beam = beam
        self.aligner: TextAligner | None = None
        if modules:
            self.aligner = _aligner(options, language.long_name, self.modules, beam)

    def align(self, test: str, reference: str) -> Alignment:
        hyp, ref = tuple(java_split(test)), tuple(java_split(reference))
        if self.aligner is None:  # -m "": nothing can match
            return Alignment(hyp, ref, (), (), 0)
        return self.aligner.align_tokens(hyp, ref)

    def warnings(self, alignment: Alignment) -> str:
        """What the jar prints on stderr for this alignment (only with a beam below 1)."""
        if self.beam >= 1:
            return ""
        return _BEAM_WARNING * (len(alignment.ref_tokens) + 1)


def _aligner(
    options: MatcherOptions, language: str, modules: tuple[str, ...], beam: int
) -> TextAligner:
    from meteor_eval.metrics.meteor import MeteorConfig

    if "stem" in modules and language in ("czech", "other"):
        raise JarConfigError(f"Error: No stemmer for language ({language})")
    try:
        config = MeteorConfig(
            flavour="meteor15",
            language=language,
            normalization="none",
            modules=modules,
            weights=tuple(1.0 for _ in modules),
            beam=max(beam, 1),
            synonym_dir=options.synonym_dir,
            paraphrase_table=options.paraphrase_file,
        )
        return TextAligner(config, options.alignment_type, beam=beam)
    except MeteorEvalError as exc:
        raise JarConfigError(f"Error: {exc}") from None


def _run_files(pairs: _Pairs, options: MatcherOptions, out: TextIO, err: TextIO) -> int:
    tests = read_jar_lines(options.test)
    references = read_jar_lines(options.reference)
    for k, test in enumerate(tests):
        if k >= len(references):
            out.flush()
            err.write("Error: files not of same length.\n")
            return 1
        alignment = pairs.align(test, references[k])
        err.write(pairs.warnings(alignment))
        out.write(alignment_text(f"Alignment {k + 1}", alignment))
    return 0


def _run_stdio(pairs: _Pairs, lines: Iterable[str], out: TextIO, err: TextIO) -> int:
    for line in lines:
        split = line.find(_SEPARATOR)
        if split == -1:
            err.write(_FORMAT_ERROR)
            continue
        alignment = pairs.align(line[:split], line[split + len(_SEPARATOR) :])
        err.write(pairs.warnings(alignment))
        out.write(alignment_text("Alignment", alignment))
        out.flush()
    return 0


def run_matcher(argv: Sequence[str], *, lines: Iterable[str], out: TextIO, err: TextIO) -> int:
    """Run ``Matcher`` with ``argv`` (after the class name); returns the exit status.

    Args:
        argv: ``TEST REF [options]``.
        lines: Standard input's lines (read only with ``-stdio``).
        out: Standard output.
        err: Standard error.
    """
    try:
        options = parse_matcher_args(argv)
    except JarExitError as exc:
        return exc.exit(err)
    if options is None:
        out.write(MATCHER_USAGE)
        return 0
    try:
        pairs = _Pairs(options)
        if options.stdio:
            return _run_stdio(pairs, lines, out, err)
        return _run_files(pairs, options, out, err)
    except (JarConfigError, MeteorEvalError) as exc:
        return report_failure(exc, out, err)
