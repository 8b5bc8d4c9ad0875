"""The jar's ``Trainer`` class: ``jar-compat Trainer TASK DATADIR [options]``, byte for byte.

``java -cp meteor-1.5.jar Trainer segcor|spearman|rank DATADIR [-a -e -l -ch -noNorm -multi -i
-f -s]`` aligns every segment of a data directory once with all modules, then re-scores the
statistics over a grid of ``alpha beta gamma delta w1 w2 w3 w4`` and prints, for each parameter
set, the agreement with human judgements followed by the eight values (``DecimalFormat("0.00")``).
This module reads the data directory as the jar does, aligns through the jar-compatible SGML mode
(:mod:`meteor_eval.jar.sgml`), and scores the grid with :mod:`meteor_eval.tuning` in blocks
instead of one scorer per parameter set; stdout is the jar's, byte for byte.

Data directory conventions (``src/Trainer.java``):

``segcor`` and ``spearman``
    every ``NAME.ter`` (lines ``DOC SEG SCORE``, whitespace-separated: the human judgement of each
    segment) with ``NAME.tst`` and ``NAME.ref`` (SGML test and reference); aligned with the
    language's default modules, weights ``1.0 0.5 ...``, parameters ``0.5 0.5 0.5 0.5`` and
    ``-norm`` (unless ``-noNorm`` or ``-multi``), ``-ch`` passed on. ``segcor`` is Pearson's r
    weighted by reference length, ``spearman`` the rank correlation.
``rank``
    every file other than ``*.rank`` and ``*.ref.sgm`` is a system, ``LANGPAIR.SYSTEM.sgm``,
    scored against ``LANGPAIR.ref.sgm`` with ``exact paraphrase``, weights ``1.0 0.5``,
    ``-lower`` and the language after the first ``-`` of the name (``fr~1-en`` -> ``en``);
    ``-l``, ``-a``, ``-ch`` and ``-noNorm`` do not change this (as in the jar). Each ``*.rank``
    line is ``SEG<TAB>LANGPAIR1<TAB>SYSTEM1<TAB>LANGPAIR2<TAB>SYSTEM2``: system 1's segment was
    judged better; lines naming an unknown system are skipped. The score is
    ``(agreeing - disagreeing) / pairs`` with ``-e`` the margin a pair must exceed.

Files are visited in the directory's own order (``os.listdir``, as ``File.list()``), which
decides the order of the segcor sums and so the last digits of the correlations.

Differences from the jar, each a one-line ``Error: ...`` on stderr where the jar dies with a
stack trace or hangs. Exit status 1 for the data: a missing or unreadable data directory, a
judgement or rank line with too few fields or a bad number, a segment without a judgement, a
rank line naming an unknown language pair or segment, a file name without the expected dots.
Exit status 2 for the options: an option without its value or with a bad number, a step of 0
(the jar loops forever), more steps than values.
The jar writes its ``meteor-*.scr`` files in the working directory and deletes them; here they go
to a temporary directory. Unknown options and tasks keep the jar's messages and exit status 1;
fewer than two arguments print the jar's usage on stdout (exit 0).
"""

from __future__ import annotations

import io
import itertools
import os
import re
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Final, TextIO

import numpy as np
import numpy.typing as npt

from meteor_eval.errors import ConfigError, MeteorEvalError
from meteor_eval.jar.config import JarConfigError, parse_java_double, resolve_settings
from meteor_eval.jar.lines import read_jar_lines
from meteor_eval.jar.options import JarExitError, JarOptions, UnknownOptionError, scan_options
from meteor_eval.javafmt import java_double
from meteor_eval.stats.meteor import MeteorStats
from meteor_eval.tuning.agreement import rank_consistency, spearman, weighted_pearson
from meteor_eval.tuning.grid import ParameterGrid
from meteor_eval.tuning.rescore import PreparedStats, block_scores, prepare_stats

__all__ = ["TRAINER_USAGE", "TrainerError", "TrainerOptions", "parse_trainer_args", "run_trainer"]

#: The jar's usage text, printed on stdout (exit status 0) with fewer than two arguments.
TRAINER_USAGE: Final = (
    "Meteor Trainer version 1.5\n"
    "Usage: java -XX:+UseCompressedOops -Xmx2G -cp meteor-*.jar Trainer <task> <dataDir> "
    "[options]\n"
    "\n"
    "Tasks:\t\t\t\tOne of: segcor spearman rank\n"
    "\n"
    "Options:\n"
    "-a paraphrase\n"
    "-e epsilon\n"
    "-l language\n"
    "-ch\t\t\t\tfor character-based P and R\n"
    "-noNorm\t\t\t\tdon't normalize, sgm files are pre-tokenized\n"
    "-multi\t\t\t\tmulti-language.  Use noNorm and language-specific words/paraphrases\n"
    "-i 'p1 p2 p3 p4 w1 w2 w3 w4'\tInitial parameters and weights\n"
    "-f 'p1 p2 p3 p4 w1 w2 w3 w4'\tFinal parameters and weights\n"
    "-s 'p1 p2 p3 p4 w1 w2 w3 w4'\tSteps\n"
)

TASKS: Final = ("segcor", "spearman", "rank")

# The jar's defaults: alpha beta gamma delta w1 w2 w3 w4.
_INITIAL: Final = (0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0)
_FINAL: Final = (1.0, 2.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0)
_STEP: Final = (0.05,) * 8
_N_VALUES: Final = len(_INITIAL)
_TOKENS: Final = re.compile(r"[^ \t\n\r\f]+")  # java.util.StringTokenizer's default delimiters
_FIELDS: Final = re.compile(r"[^\t]+")  # StringTokenizer(line, "\t")
_VALUED: Final = ("-i", "-f", "-s", "-a", "-e", "-l")
_FLAGS: Final = ("-ch", "-noNorm", "-multi")

#: Parameter-set x segment cells scored at once.
_BLOCK_CELLS: Final = 1 << 21

Floats = npt.NDArray[np.float64]


class TrainerError(JarExitError):
    """An option the jar crashes or hangs on; one line for stderr (exit 2)."""

    status = 2


class TrainerDataError(TrainerError):
    """A data directory or data file the jar crashes on; one line for stderr (exit 1, as
    jar-compat's ``Parex`` and ``FilterParaphrase``)."""

    status = 1


@dataclass
class TrainerOptions:
    """The Trainer's command line, as ``Trainer.main`` reads it."""

    task: str
    data_dir: str
    initial: list[float] = field(default_factory=lambda: list(_INITIAL))
    final: list[float] = field(default_factory=lambda: list(_FINAL))
    step: list[float] = field(default_factory=lambda: list(_STEP))
    paraphrase: str | None = None
    epsilon: float = 0.0
    language: str = "en"
    char_based: bool = False
    no_norm: bool = False


def _number(text: str, option: str) -> float:
    try:
        return parse_java_double(text)
    except JarConfigError:
        raise TrainerError(f'Error: {option}: "{text}" is not a number') from None


def _padded(text: str, option: str) -> list[float]:
    """``makePaddedList``: the numbers of ``text``, padded with 0.0 to eight."""
    values = [_number(token, option) for token in _TOKENS.findall(text)]
    return values + [0.0] * (_N_VALUES - len(values))


def parse_trainer_args(argv: Sequence[str]) -> TrainerOptions:
    """Parse ``TASK DATADIR [options]`` as ``Trainer.main`` does (at least two arguments).

    Raises:
        TrainerError: an option without its value, or a value that is not a number.
    """
    options = TrainerOptions(task=argv[0], data_dir=argv[1])
    for arg, value in scan_options(
        argv, _VALUED, _FLAGS, missing=TrainerError, unknown=UnknownOptionError
    ):
        if value is None:
            if arg == "-ch":
                options.char_based = True
            else:  # -noNorm, -multi
                options.no_norm = True
        elif arg in ("-i", "-f", "-s"):
            name = {"-i": "initial", "-f": "final", "-s": "step"}[arg]
            setattr(options, name, _padded(value, arg))
        elif arg == "-a":
            options.paraphrase = value
        elif arg == "-e":
            options.epsilon = _number(value, arg)
        else:
            options.language = value
    return options


# -- aligning: the jar-compatible Meteor in SGML mode ----------------------------------------


def _segment_lines(args: list[str], err: TextIO) -> list[list[str]]:
    """Run the jar-compatible Meteor on ``args`` (SGML, -ssOut) and read its segment file.

    Returns the fields of each line of the segment score file: set, system, document, segment,
    statistics, in the file's (sorted) order.
    """
    from meteor_eval.jar.main import run_meteor

    with tempfile.TemporaryDirectory(prefix="meteor-eval-trainer-") as tmp:
        prefix = os.path.join(tmp, "meteor")
        # With -ssOut the jar's Meteor prints nothing on stdout; nothing is lost here.
        scorer_err = io.StringIO()
        status = run_meteor([*args, "-f", prefix], stdout=io.StringIO(), stderr=scorer_err)
        if status != 0:  # the jar-compatible Meteor: 2 for an option, 1 for its input files
            error = TrainerError if status == 2 else TrainerDataError
            # one line: the scorer's own reason joined to the files it was scoring
            reason = "; ".join(
                line.removeprefix("Error: ").strip()
                for line in scorer_err.getvalue().splitlines()
                if line.strip()
            )
            where = f"Error: could not score {args[0]} against {args[1]}"
            raise error(f"{where}: {reason}" if reason else where)
        err.write(scorer_err.getvalue())
        lines = read_jar_lines(prefix + "-seg.scr")
    rows = []
    for line in lines:
        fields = _FIELDS.findall(line)
        if len(fields) < 5:
            raise TrainerDataError(f"Error: unexpected segment score line from {args[0]}: {line}")
        rows.append(fields)
    return rows


def _stats_row(text: str) -> tuple[int, ...]:
    return MeteorStats.from_row(text.split()).to_row()


def _segcor_args(options: TrainerOptions, test: str, ref: str) -> list[str]:
    """``getMArgs`` without ``-multi``: the language's default modules, weights 1.0 0.5 ..."""
    try:
        modules = resolve_settings(
            JarOptions(test=test, reference=ref, language=options.language)
        ).modules
    except JarConfigError as exc:
        raise TrainerError(str(exc)) from None
    weights = " ".join(["1.0"] + ["0.5"] * (len(modules) - 1))
    args = [test, ref, "-sgml", "-ssOut", "-l", options.language, "-m", " ".join(modules)]
    if options.paraphrase is not None:
        args += ["-a", options.paraphrase]
    args += ["-w", weights, "-p", "0.5 0.5 0.5 0.5"]
    if options.char_based:
        args.append("-ch")
    if not options.no_norm:
        args.append("-norm")
    return args


def _list_dir(path: str) -> list[str]:
    try:
        return os.listdir(path)
    except OSError as exc:
        raise TrainerDataError(f"Error: data directory {path}: {exc.strerror or exc}") from None


def _read_judgements(path: str) -> dict[str, float]:
    """A ``.ter`` file: ``DOC SEG SCORE`` per line, keyed ``DOC:SEG`` (a repeated key: last)."""
    try:
        lines = read_jar_lines(path)
    except MeteorEvalError as exc:
        raise TrainerDataError(f"Error: cannot read {exc}") from None
    table: dict[str, float] = {}
    for number, line in enumerate(lines, 1):
        tokens = _TOKENS.findall(line)
        if len(tokens) < 3:
            raise TrainerDataError(
                f"Error: {path} line {number}: expected DOC SEG SCORE, got {line!r}"
            )
        try:
            table[f"{tokens[0]}:{tokens[1]}"] = parse_java_double(tokens[2])
        except JarConfigError:
            raise TrainerDataError(
                f'Error: {path} line {number}: score "{tokens[2]}" is not a number'
            ) from None
    return table


@dataclass
class _SegcorData:
    rows: list[tuple[int, ...]] = field(default_factory=list)
    judgements: list[float] = field(default_factory=list)
    lengths: list[float] = field(default_factory=list)


def _load_segcor(options: TrainerOptions, err: TextIO) -> _SegcorData:
    data = _SegcorData()
    for name in _list_dir(options.data_dir):
        if not name.endswith(".ter"):
            continue
        system = name.split(".")[0]
        err.write(system + "\n")
        judgements = _read_judgements(os.path.join(options.data_dir, name))
        test = f"{options.data_dir}/{system}.tst"
        ref = f"{options.data_dir}/{system}.ref"
        for fields in _segment_lines(_segcor_args(options, test, ref), err):
            doc, seg, stats = fields[2], fields[3], fields[4]
            judgement = judgements.get(f"{doc}:{seg}")
            if judgement is None:
                raise TrainerDataError(
                    f"Error: {options.data_dir}/{name} has no score for document {doc} "
                    f"segment {seg}"
                )
            row = _stats_row(stats)
            data.rows.append(row)
            data.judgements.append(judgement)
            data.lengths.append(float(row[1]))
    return data


# -- rank -------------------------------------------------------------------------------------


def _rank_names(name: str) -> tuple[str, str, str]:
    """``LANGPAIR.SYSTEM.sgm`` -> (language pair, system, target language)."""
    first, last, dash = name.find("."), name.rfind("."), name.find("-")
    if first < 0 or last <= first or dash + 3 > len(name):
        raise TrainerDataError(
            f"Error: {name}: a system file is named LANGPAIR.SYSTEM.sgm (e.g. fr-en.sys1.sgm)"
        )
    lang = name[dash + 1 : dash + 3] if dash >= 0 else name[:2]
    return name[:first], name[first + 1 : last], lang


@dataclass
class _RankData:
    rows: list[tuple[int, ...]] = field(default_factory=list)
    index: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    better: list[int] = field(default_factory=list)
    worse: list[int] = field(default_factory=list)


def _align_rank_systems(options: TrainerOptions, names: list[str], err: TextIO) -> _RankData:
    data = _RankData()
    for name in names:
        if name.endswith((".rank", ".ref.sgm")):
            continue
        pair, system, lang = _rank_names(name)
        test = f"{options.data_dir}/{name}"
        ref = f"{options.data_dir}/{pair}.ref.sgm"
        args = [test, ref, "-sgml", "-ssOut", "-l", lang, "-m", "exact paraphrase"]
        args += ["-w", "1.0 0.5", "-p", "0.5 0.5 0.5 0.5", "-lower"]
        err.write("[" + ", ".join(args) + "]\n")
        segments = data.index.setdefault(pair, {}).setdefault(system, {})
        for fields in _segment_lines(args, err):
            segments[fields[3]] = len(data.rows)
            data.rows.append(_stats_row(fields[4]))
    return data


def _known(data: _RankData, pair: str, system: str, path: str, number: int) -> bool:
    """Whether ``pair`` has a file for ``system``; an unknown pair is an error (the jar dies)."""
    systems = data.index.get(pair)
    if systems is None:
        raise TrainerDataError(f"Error: {path} line {number}: no system file for {pair}")
    return system in systems


def _read_rank_file(options: TrainerOptions, name: str, data: _RankData) -> None:
    path = f"{options.data_dir}/{name}"
    try:
        lines = read_jar_lines(path)
    except MeteorEvalError as exc:
        raise TrainerDataError(f"Error: cannot read {exc}") from None
    for number, line in enumerate(lines, 1):
        fields = _FIELDS.findall(line)
        if len(fields) < 5:
            raise TrainerDataError(
                f"Error: {path} line {number}: expected SEG, LANGPAIR1, SYSTEM1, LANGPAIR2, "
                f"SYSTEM2 separated by tabs, got {line!r}"
            )
        seg, pair1, sys1, pair2, sys2 = fields[:5]
        # The jar's test, evaluated in its order: an unknown system skips the line before the
        # second language pair is looked up.
        if not _known(data, pair1, sys1, path, number) or not _known(
            data, pair2, sys2, path, number
        ):
            continue
        for pair, system in ((pair1, sys1), (pair2, sys2)):
            if seg not in data.index[pair][system]:
                raise TrainerDataError(
                    f"Error: {path} line {number}: {pair}.{system} has no segment {seg}"
                )
        data.better.append(data.index[pair1][sys1][seg])
        data.worse.append(data.index[pair2][sys2][seg])


def _load_rank(options: TrainerOptions, err: TextIO) -> _RankData:
    names = _list_dir(options.data_dir)
    data = _align_rank_systems(options, names, err)
    for name in names:
        if name.endswith(".rank"):
            err.write(name + "\n")
            _read_rank_file(options, name, data)
    return data


# -- the grid ---------------------------------------------------------------------------------


def _two_decimals(value: float) -> str:
    """``new DecimalFormat("0.00").format(value)``: half-even on the exact binary value."""
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "\u221e" if value > 0 else "-\u221e"
    text = f"{Decimal(value).quantize(Decimal('0.01'), rounding=ROUND_HALF_EVEN):f}"
    negative = value < 0 or (value == 0 and str(value).startswith("-"))
    return "-" + text.lstrip("-") if negative else text


def _grid(options: TrainerOptions) -> ParameterGrid:
    try:
        return ParameterGrid.from_ranges(options.initial, options.final, options.step)
    except ValueError as exc:
        raise TrainerError(f"Error: -i/-f/-s: {exc}") from None


def _value_labels(grid: ParameterGrid) -> Iterator[str]:
    """`` v1 v2 ... v8`` of each parameter set, in the grid's order (each value formatted once)."""
    columns = [[_two_decimals(v) for v in axis] for axis in grid.axes]
    columns += [[_two_decimals(v)] for v in grid.base[len(grid.axes) :]]
    for combination in itertools.product(*columns):
        yield " " + " ".join(combination)


def _print_grid(
    grid: ParameterGrid,
    prepared: PreparedStats,
    measure: Callable[[Floats], Floats],
    out: TextIO,
) -> None:
    """Score every parameter set in blocks and print ``AGREEMENT v1 ... v8`` lines."""
    labels = _value_labels(grid)
    block = max(1, _BLOCK_CELLS // max(1, len(prepared.rows)))
    for values in grid.blocks(block):
        # Math.max(score, 0.0) in the jar turns -0.0 into 0.0.
        scores = block_scores(prepared, values[:, :8]) + 0.0
        agreement = measure(scores)
        lines = [java_double(r) + next(labels) for r in agreement.tolist()]
        out.write("\n".join(lines) + "\n")


def _run(options: TrainerOptions, out: TextIO, err: TextIO) -> None:
    grid = _grid(options)
    if options.task == "rank":
        rank = _load_rank(options, err)
        prepared = prepare_stats(np.asarray(rank.rows, dtype=np.int64).reshape(-1, 23))
        better = np.asarray(rank.better, dtype=np.int64)
        worse = np.asarray(rank.worse, dtype=np.int64)

        def measure(scores: Floats) -> Floats:
            return rank_consistency(scores, better, worse, epsilon=options.epsilon)

        _print_grid(grid, prepared, measure, out)
        return
    data = _load_segcor(options, err)
    prepared = prepare_stats(np.asarray(data.rows, dtype=np.int64).reshape(-1, 23))
    judgements = np.asarray(data.judgements, dtype=np.float64)
    lengths = np.asarray(data.lengths, dtype=np.float64)
    if options.task == "spearman":

        def measure(scores: Floats) -> Floats:
            return spearman(scores, judgements)

    else:

        def measure(scores: Floats) -> Floats:
            return weighted_pearson(scores, judgements, lengths)

    _print_grid(grid, prepared, measure, out)


def run_trainer(argv: Sequence[str], *, out: TextIO, err: TextIO) -> int:
    """Run ``Trainer`` with ``argv`` (after the class name); returns the exit status."""
    if len(argv) < 2:
        out.write(TRAINER_USAGE)
        return 0
    try:
        options = parse_trainer_args(argv)
    except JarExitError as exc:
        return exc.exit(err)
    if options.task not in TASKS:
        err.write("Please specify a valid task\n")
        return 1
    try:
        _run(options, out, err)
    except TrainerError as exc:
        out.flush()
        return exc.exit(err)
    except (MeteorEvalError, JarConfigError) as exc:
        out.flush()
        err.write(f"Error: {exc}\n")
        return 2 if isinstance(exc, ConfigError | JarConfigError) else 1
    return 0
