"""What ``score``, ``bleu``, ``rouge`` and ``compare`` share: their options turned into one
:class:`~meteor_eval.comparison.Request` (:mod:`meteor_eval.cli._request`), carried out by
:func:`meteor_eval.comparison.run` (the library's one path, also behind
``meteor_eval.compare``), and the result rendered.

Nothing is scored here: the command hands its options over once, for the request, runs it
and prints the result.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Sequence

from meteor_eval.comparison import ComparisonResult, run

__all__ = ["add_metric_options", "run_command"]


def _print(result: ComparisonResult, format: str, *, short_signature: bool) -> None:
    """Print the result as ``format`` (``--format``), with the short signature if asked (a
    closed pipe ends the output quietly)."""
    from meteor_eval.cli._render import render

    payload = result.to_dict(short_signature=short_signature)
    with contextlib.suppress(BrokenPipeError):
        sys.stdout.write(render(payload, format))


def run_command(args: argparse.Namespace, metrics: Sequence[str], names: Sequence[str]) -> int:
    """A scoring command: the request of its options (the configured ``metrics``, names of
    :data:`~meteor_eval.cli.options.METRICS`; ``names`` are the metrics whose options
    ``--from-stats`` may override), run, rendered; the exit status.

    The options go out of this module once, to :mod:`meteor_eval.cli._request`, which reads
    them all into the request; the output format is read here.
    """
    from meteor_eval.cli._feedback import ProgressBars
    from meteor_eval.cli._request import request_from_args

    format: str = args.format
    short_signature = bool(getattr(args, "short_signature", False))
    request = request_from_args(args, metrics, names=names)
    try:
        result = run(request)
    finally:
        if isinstance(request.progress, ProgressBars):
            request.progress.close()
    _print(result, format, short_signature=short_signature)
    return 0


def add_metric_options(
    parser: argparse.ArgumentParser,
    *options: Callable[[argparse.ArgumentParser], None],
    write_stats: bool = True,
) -> None:
    """A scoring command's options: the input options, ``options`` (the metric's own), then
    the output, significance, statistics and run options every scoring command shares."""
    from meteor_eval.cli._common import add_output_options, add_run_options, add_stats_options
    from meteor_eval.cli._systems import add_input_options
    from meteor_eval.cli.options import add_significance_options

    add_input_options(parser)
    for add in options:
        add(parser)
    add_output_options(parser)
    add_significance_options(parser)
    add_stats_options(parser, write=write_stats)
    add_run_options(parser)
