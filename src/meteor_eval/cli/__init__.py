"""The ``meteor-eval`` command line: one subcommand per metric.

Exit codes: 0 success, 1 data errors (unreadable files, mismatched line counts, missing
resources), 2 usage errors (unknown options, invalid settings). Errors are one line on stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import signal
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import Any, TextIO

from meteor_eval._version import __version__
from meteor_eval.errors import ConfigError, MeteorEvalError, SearchBudgetWarning

__all__ = ["build_parser", "main"]

#: Every subcommand (its module's name), in the order ``--help`` lists them, with the line
#: shown there. The module ``meteor_eval.cli.<name>`` gives the rest: ``DESCRIPTION`` (its own
#: ``--help``), ``add_options(parser)``, ``run(args)`` (the exit status) and, where its parser
#: needs other settings, ``PARSER_OPTIONS``.
_COMMANDS = {
    "score": "METEOR score (official 1.5 by default)",
    "bleu": "BLEU, equal to sacrebleu 2.x",
    "rouge": "ROUGE-N/L/Lsum/W/S/SU",
    "compare": "METEOR, BLEU and ROUGE side by side, with significance",
    "caption": "COCO caption metrics (BLEU-1..4, METEOR, ROUGE-L, CIDEr-D) as pycocoevalcap",
    "report": "HTML report: scores, distributions, segment table and alignments",
    "explain": "one segment's alignment, counts and score formula, for reading",
    "align": "METEOR's word alignment of each segment (maxcov or maxacc)",
    "stem": "stem text with METEOR's stemmer for a language (one line in, one line out)",
    "train": "tune METEOR's parameters against human judgements",
    "jar_compat": (
        "behave exactly like `java -jar meteor-1.5.jar TEST REF [options]` (and like its "
        "Matcher, Stemmer, Parex, FilterParaphrase and Trainer classes: `jar-compat Matcher "
        "...`, `jar-compat Stemmer LANG`, `jar-compat Parex ...`, `jar-compat Trainer TASK "
        "DATADIR ...`)"
    ),
    "resources": "list, build and check the linguistic resources and their cache",
    "new_language": (
        "build function words and a paraphrase table for a new language (Meteor Universal)"
    ),
}


def _command_modules(names: Sequence[str]) -> list[ModuleType]:
    modules = []
    for name in names:
        try:
            modules.append(importlib.import_module(f"meteor_eval.cli.{name}"))
        except ModuleNotFoundError as exc:
            if exc.name != f"meteor_eval.cli.{name}":
                raise
    return modules


def _version_text() -> str:
    """What ``--version`` prints: the version, then which kernels run compiled (two lines)."""
    from meteor_eval._ext import kernels_summary

    return f"meteor-eval {__version__}\n{kernels_summary()}\n"


class _VersionAction(argparse.Action):
    """``--version``: argparse's own action would join the two lines of :func:`_version_text`."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS) -> None:
        super().__init__(
            option_strings,
            dest=dest,
            default=argparse.SUPPRESS,
            nargs=0,
            help="show the version and which kernels are compiled, then exit",
        )

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        sys.stdout.write(_version_text())
        parser.exit()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every available subcommand, or only ``command``'s.

    Building one subcommand imports only its module: ``meteor-eval score`` does not load BLEU,
    ROUGE or the jar emulation (a shorter start-up for every run).
    """
    parser = argparse.ArgumentParser(
        prog="meteor-eval",
        description="METEOR (official 1.5, the 2005 paper) with BLEU and ROUGE, without Java.",
    )
    parser.add_argument("--version", action=_VersionAction)
    chatter = parser.add_mutually_exclusive_group()
    chatter.add_argument(
        "-v", "--verbose", action="store_true", help="also print debug messages on stderr"
    )
    chatter.add_argument(
        "-q", "--quiet", action="store_true", help="print only warnings and errors on stderr"
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for module in _command_modules(list(_COMMANDS) if command is None else [command]):
        name = module.__name__.rsplit(".", 1)[-1]
        sub = subparsers.add_parser(
            name.replace("_", "-"),
            help=_COMMANDS[name],
            description=module.DESCRIPTION,
            **getattr(module, "PARSER_OPTIONS", {}),
        )
        module.add_options(sub)
        sub.set_defaults(func=module.run)
    _refuse_repeats(parser)
    return parser


_SEEN = "_options_seen"


class _StoreOnce(argparse._StoreAction):
    """An option taking one value: given a second time it is refused (exit status 2), rather
    than the last value silently replacing the first."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        seen = namespace.__dict__.setdefault(_SEEN, set())
        if self.dest in seen:
            raise argparse.ArgumentError(self, "given more than once; give it once")
        seen.add(self.dest)
        super().__call__(parser, namespace, values, option_string)


def _refuse_repeats(parser: argparse.ArgumentParser) -> None:
    """Make every single-valued option of ``parser`` and its subcommands a :class:`_StoreOnce`
    (options meant to be repeated append or extend, and are left as they are)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in set(action.choices.values()):
                _refuse_repeats(sub)
        elif type(action) is argparse._StoreAction and action.option_strings:
            action.__class__ = _StoreOnce


def parse_arguments(
    parser: argparse.ArgumentParser, arguments: Sequence[str]
) -> argparse.Namespace:
    """``parser.parse_args(arguments)`` without the record of the options seen."""
    args = parser.parse_args(list(arguments))
    args.__dict__.pop(_SEEN, None)
    return args


class _WarningLines:
    """Shows a run's warnings as ``meteor-eval: warning: ...`` lines, each text once: a file
    read once per metric says of its lines what it said before, and a repeated line tells
    nothing new. (Python's ``"once"`` filter still repeats a text raised from another place.)
    A search budget's warning is shown every time: each is a segment whose alignment was cut,
    and two segments can give the same text. At most :data:`_REMEMBERED` texts are kept (a
    file with a repair on each of millions of lines); later ones are shown, not kept."""

    def __init__(self) -> None:
        self.shown: set[str] = set()

    def __call__(
        self,
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        text = str(message)
        if text in self.shown:
            return
        if len(self.shown) < _REMEMBERED and not issubclass(category, SearchBudgetWarning):
            self.shown.add(text)
        print(f"meteor-eval: warning: {text}", file=sys.stderr)


#: How many warning texts a run remembers, to show each once (about 10 MB at most).
_REMEMBERED = 65_536


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    Called without ``argv`` (the ``meteor-eval`` program, ``python -m meteor_eval``) the run
    owns its interpreter, and the cyclic garbage collector is kept off what the run will never
    free (:func:`_collector_for_program`); called with ``argv`` (from Python) it is left alone.
    """
    if argv is not None:
        return _main(argv)
    with _collector_for_program() as ready:
        return _main(None, ready)


@contextlib.contextmanager
def _collector_for_program() -> Iterator[Callable[[], None]]:
    """The cyclic garbage collector of a process that is the command itself (not a caller's).

    Every collection walks all the objects that the collector tracks, and a run's are mostly
    its modules, classes and functions (tens of thousands, alive until the process ends): the
    collections while the command's modules are imported, and the one at the interpreter's
    exit, spend their time walking those. So the collector is off while the parser and the
    command's modules are built; the function given to the ``with`` block, called when the
    command is about to run, moves every object then alive to the collector's permanent
    generation (``gc.freeze``: never walked, never freed) and turns the collector on for the
    run's own objects; on the way out everything left is frozen too, so the collection at
    exit walks nothing. What a run's collections free is unchanged (the frozen objects are
    the run's code and settings, and any cycle among them would only be freed at exit). Forked
    worker processes inherit the frozen generation, so they do not walk (or copy) the main
    process's objects either.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    started = False

    def ready() -> None:
        nonlocal started
        if not started:
            started = True
            gc.freeze()
            if was_enabled:
                gc.enable()

    try:
        yield ready
    finally:
        ready()
        gc.freeze()


def _main(argv: Sequence[str] | None, ready: Callable[[], None] | None = None) -> int:
    """:func:`main`'s run; ``ready`` is called just before the command itself runs."""
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    arguments = list(sys.argv[1:] if argv is None else argv)
    # The top-level parser has no option taking a value, so a command, if any, is the first
    # argument that is not an option.
    first = next((argument for argument in arguments if not argument.startswith("-")), None)
    command = first.replace("-", "_") if first else None
    parser = build_parser(command if command in _COMMANDS else None)
    args = parse_arguments(parser, arguments)
    if getattr(args, "jobs", 1) != 1:
        from meteor_eval.processes import watch_numpy_import

        # If the run imports numpy, its BLAS's threads, seen starting, do not stop workers
        # from forking (a plain METEOR run does not import it).
        watch_numpy_import()
    if command in _COMMANDS and command != "jar_compat":
        from meteor_eval.cli.options import explicit_dests

        # The parser above is this command's alone and its defaults are not read again (the
        # checks below read option names only), so it is reused, its defaults suppressed,
        # rather than built a second time.
        args.explicit = explicit_dests(parser, arguments, parse_arguments)
    warnings.showwarning = _WarningLines()
    warnings.simplefilter("always")
    from meteor_eval.cli._feedback import configure

    configure(args.verbose - args.quiet, progress=not getattr(args, "no_progress", False))
    try:
        from meteor_eval.cli.validate import check_options

        check_options(parser, args)
        with _work_budget(args):
            if ready is not None:
                ready()
            status: int = args.func(args)
        sys.stdout.flush()  # a full disk shows here, not as a traceback at exit
    except ConfigError as exc:
        print(f"meteor-eval {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except MeteorEvalError as exc:
        print(f"meteor-eval {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except OSError as exc:  # writing an output file or stdout: disk full, I/O error
        target = exc.filename or "the results"
        print(
            f"meteor-eval {args.command}: error: cannot write {target}: {exc.strerror or exc}",
            file=sys.stderr,
        )
        _quiet_stdout()
        return 1
    return status


def _work_budget(args: argparse.Namespace) -> contextlib.AbstractContextManager[object]:
    """The work budgets of ``--work-budget`` for the command's run (restored after it, for
    callers of :func:`main` in one process).

    Raises:
        ConfigError: a bad ``--work-budget`` or ``METEOR_EVAL_WORK_BUDGET``.
    """
    if not hasattr(args, "work_budget"):  # a command that scores nothing
        return contextlib.nullcontext()
    from meteor_eval import limits

    problem = limits.environment_error()
    if problem is not None:
        raise ConfigError(problem)
    if args.work_budget is None:
        return contextlib.nullcontext()
    return limits.work_budget(**limits.parse_work_budget(args.work_budget, "--work-budget"))


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that the flush at exit does not fail again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real stdout (captured in tests): nothing to silence
        pass
