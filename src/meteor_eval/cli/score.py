"""``meteor-eval score``: METEOR of a hypothesis file against one or more reference files."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO

from meteor_eval.cli._common import (
    add_input_options,
    add_output_options,
    example_path,
    split_list,
)
from meteor_eval.errors import InputError
from meteor_eval.javafmt import java_double
from meteor_eval.metrics.meteor import Meteor, MeteorConfig, MeteorScore, Normalization
from meteor_eval.metrics.protocol import Row, Total
from meteor_eval.stats.meteor import MeteorStats

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``score`` subcommand."""
    parser = subparsers.add_parser(
        "score",
        help="METEOR score (official 1.5 by default)",
        description="METEOR of hypotheses against references, one segment a line.",
    )
    add_input_options(parser)
    parser.add_argument(
        "--flavour", "--flavor", choices=("meteor15", "paper2005", "nltk"), default="meteor15"
    )
    parser.add_argument("--lang", default="en", help="language code (default en)")
    parser.add_argument(
        "--tokenizer",
        choices=("default", "nltk", "whitespace"),
        default="default",
        help="paper2005/nltk only: NLTK's word_tokenize or whitespace splitting",
    )
    parser.add_argument(
        "--task", default="rank", help="METEOR 1.5 task: rank adq hter util li tune"
    )
    norm = parser.add_argument_group("text handling")
    norm.add_argument("--norm", action="store_true", help="the jar's -norm: normalise, lower-case")
    norm.add_argument("--lower", action="store_true", help="the jar's -lower: lower-case only")
    norm.add_argument(
        "--no-punct",
        action="store_true",
        help="normalise, lower-case and drop punctuation (the jar's -norm -noPunct)",
    )
    params = parser.add_argument_group("parameters")
    params.add_argument("--modules", help="comma-separated stages, e.g. exact,stem,synonym")
    params.add_argument("--weights", help="comma-separated weight per stage, by position")
    for name in ("alpha", "beta", "gamma", "delta"):
        params.add_argument(f"--{name}", type=float)
    params.add_argument("--beam", type=int, default=40, help="beam size of the aligner (40)")
    params.add_argument(
        "--characters",
        action="store_true",
        help="character-based precision and recall (the jar's -ch)",
    )
    params.add_argument("--function-words", metavar="FILE", help="function words (the jar's -s)")
    params.add_argument(
        "--synonym-dir", metavar="DIR", help="<language>.synsets/.exceptions (the jar's -d)"
    )
    params.add_argument(
        "--stem-table", metavar="FILE", help="lookup-table stemmer (needed for --lang ar-bw-red)"
    )
    params.add_argument(
        "--paraphrase-table",
        metavar="PATH",
        help="paraphrase table in METEOR 1.5's gzip format (default: found automatically)",
    )
    params.add_argument(
        "--aggregate",
        choices=("pooled", "mean"),
        default=None,
        help="corpus score from pooled statistics or the mean of segment scores "
        "(default: pooled; mean for the nltk flavour)",
    )
    add_output_options(parser)
    parser.add_argument(
        "--alignments", metavar="FILE", help="write each segment's alignment (JSON lines)"
    )
    parser.add_argument("--stats", metavar="FILE", help="write each segment's 23 statistics")
    parser.add_argument(
        "--from-stats",
        metavar="FILE",
        help="score statistics lines (as written by --stats) instead of text",
    )
    parser.add_argument("--short-signature", action="store_true", help="abbreviated signature keys")
    parser.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=1,
        metavar="N",
        help="score in N processes (0 = one per CPU); the results are identical (default 1)",
    )
    parser.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (shown on a terminal's stderr for runs longer than a second)",
    )
    parser.set_defaults(func=run)


def config_from_args(args: argparse.Namespace) -> MeteorConfig:
    """The configuration the options describe."""
    normalization: Normalization | None
    if args.no_punct:
        normalization = "norm_nopunct"
    elif args.norm:
        normalization = "norm"
    elif args.lower:
        normalization = "lower"
    else:
        normalization = None
    modules = split_list(args.modules) if args.modules else None
    weights = None
    if args.weights:
        try:
            weights = [float(w) for w in split_list(args.weights)]
        except ValueError:
            from meteor_eval.errors import ConfigError

            raise ConfigError(f"--weights: {args.weights!r} is not a list of numbers") from None
    return MeteorConfig.preset(
        args.flavour,
        language=args.lang,
        task=args.task,
        normalization=normalization,
        modules=modules,
        weights=weights,
        alpha=args.alpha,
        beta=args.beta,
        gamma=args.gamma,
        delta=args.delta,
        beam=args.beam,
        aggregate=args.aggregate,
        paraphrase_table=args.paraphrase_table,
        tokenizer=args.tokenizer,
        characters=args.characters,
        function_words_file=args.function_words,
        synonym_dir=args.synonym_dir,
        stem_table=args.stem_table,
    )


def _read_stats(path: str) -> list[MeteorStats]:
    rows = []
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise InputError(f"{path}: file not found") from None
    for k, line in enumerate(lines):
        try:
            rows.append(MeteorStats.from_row(line.split()))
        except InputError as exc:
            raise InputError(f"{path}:{k + 1}: {exc}") from None
    return rows


def _row_text(stats: MeteorStats) -> str:
    return " ".join(java_double(float(x)) for x in stats.to_row())


def run(args: argparse.Namespace) -> int:
    """Score and print; returns the exit status."""
    config = config_from_args(args)
    from meteor_eval.parallel import resolve_jobs

    jobs = resolve_jobs(args.jobs)
    scorer = Meteor(config)
    short = args.short_signature
    if not args.from_stats:
        return _run_stream(args, scorer, jobs)
    rows = _read_stats(args.from_stats)
    segments = [scorer.score_stats(r) for r in rows]
    total = scorer.combine(segments, keep_segments=True)
    if args.stats:
        with open(args.stats, "w", encoding="utf-8") as out:
            for seg in total.segments:
                out.write(_row_text(seg.stats) + "\n")
    if args.alignments:
        with open(args.alignments, "w", encoding="utf-8") as out:
            for k, seg in enumerate(total.segments):
                out.write(_alignment_record(k, seg) + "\n")
    items = (_segment_item(args.format, k, seg) for k, seg in enumerate(total.segments, 1))
    _print(total, args.format, sentence_level=args.sentence_level, short=short, items=items)
    return 0


def _input_pairs(args: argparse.Namespace) -> tuple[Iterator[tuple[str, list[str]]], str]:
    """The segments named by the input options as a stream, and the hypothesis file name."""
    from meteor_eval.io import iter_segments

    if args.example:
        if args.hyp or args.ref:
            raise SystemExit("meteor-eval: error: --example cannot be combined with --hyp/--ref")
        hyp = str(example_path("hypotheses.txt"))
        refs = [str(example_path("references.txt")), str(example_path("references2.txt"))]
        return iter_segments(hyp, refs), hyp
    if not args.hyp or not args.ref:
        sys.stderr.write(
            f"meteor-eval {args.command}: error: --hyp FILE and at least one --ref FILE are "
            "required (or --example)\n"
        )
        raise SystemExit(2)
    return iter_segments(args.hyp, args.ref, errors=args.encoding_errors), args.hyp


class _Progress:
    """A one-line progress report on stderr, drawn only on a terminal and after a second."""

    def __init__(self, total: int | None) -> None:
        self.total = total
        self.start = time.monotonic()
        self.last = 0.0
        self.drawn = False

    def __call__(self, done: int) -> None:
        now = time.monotonic()
        elapsed = now - self.start
        if elapsed < 1.0 or now - self.last < 0.2:
            return
        self.last = now
        rate = done / elapsed if elapsed > 0 else 0.0
        if self.total:
            share = min(done / self.total, 1.0)
            bar = "#" * int(share * 30)
            text = f"[{bar:<30}] {done:,}/{self.total:,} segments {share:6.1%}"
        else:
            text = f"{done:,} segments"
        sys.stderr.write(f"\rmeteor-eval: {text}, {rate:,.0f}/s ")
        sys.stderr.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def _spool() -> IO[str]:
    import tempfile  # only when per-segment output is asked for

    return tempfile.TemporaryFile("w+", encoding="utf-8")


def _replay(spool: IO[str] | None) -> Iterator[str]:
    if spool is None:
        return
    spool.seek(0)
    for line in spool:
        yield line[:-1]


def _run_stream(args: argparse.Namespace, scorer: Meteor, jobs: int) -> int:
    """Score the input files as a stream: memory stays flat however many segments there are.

    Per-segment outputs go to temporary files first and reach their destinations only once every
    segment has been scored and the line counts checked, so a failure leaves them unwritten, as
    before.
    """
    from meteor_eval.io import count_lines

    pairs, hyp_name = _input_pairs(args)
    progress = None
    if not args.no_progress and sys.stderr.isatty():
        progress = _Progress(count_lines(hyp_name))
    with contextlib.ExitStack() as stack:
        spools = [
            stack.enter_context(_spool()) if wanted else None
            for wanted in (args.stats, args.alignments, args.sentence_level)
        ]
        _score_and_print(args, scorer, jobs, pairs, progress, spools)
    return 0


def _score_and_print(
    args: argparse.Namespace,
    scorer: Meteor,
    jobs: int,
    pairs: Iterator[tuple[str, list[str]]],
    progress: _Progress | None,
    spools: list[IO[str] | None],
) -> None:
    from meteor_eval.parallel import corpus_result, segment_results, segment_rows

    stats_spool, align_spool, items_spool = spools
    fmt = args.format

    def each(k: int, seg: MeteorScore) -> None:
        if stats_spool is not None:
            stats_spool.write(_row_text(seg.stats) + "\n")
        if align_spool is not None:
            align_spool.write(_alignment_record(k, seg) + "\n")
        if items_spool is not None:
            items_spool.write(_segment_item(fmt, k + 1, seg) + "\n")

    try:
        if align_spool is None and items_spool is None and stats_spool is None:
            # Only the corpus score: statistics pooled a chunk at a time where it is scored.
            total, _ = corpus_result(scorer, pairs, jobs=jobs, progress=progress)
        elif align_spool is None and items_spool is None and stats_spool is not None:
            # The corpus score and the statistics rows: no per-segment score objects.
            records = segment_rows(scorer, pairs, jobs=jobs, progress=progress)
            total = scorer.result(_fold_rows(scorer, records, stats_spool))
        else:
            results = segment_results(
                scorer, pairs, jobs=jobs, alignment=bool(args.alignments), progress=progress
            )
            total = scorer.result(_fold_results(scorer, results, each))
    finally:
        if progress is not None:
            progress.close()
    for path, spool in ((args.stats, stats_spool), (args.alignments, align_spool)):
        if spool is not None:
            with open(path, "w", encoding="utf-8") as out:
                for line in _replay(spool):
                    out.write(line + "\n")
    _print(
        total,
        fmt,
        sentence_level=args.sentence_level,
        short=args.short_signature,
        items=_replay(items_spool),
    )


def _fold_rows(scorer: Meteor, records: Iterator[tuple[Row, int]], spool: IO[str]) -> Total:
    """The total of streamed statistics rows, each written to ``spool`` first."""
    total = scorer.new_total()
    for row, n_refs in records:
        spool.write(" ".join(java_double(float(x)) for x in row) + "\n")
        scorer.add_rows(total, (row,))
        total.nrefs.add(n_refs)
    return total


def _fold_results(
    scorer: Meteor, results: Iterator[MeteorScore], each: Callable[[int, MeteorScore], None]
) -> Total:
    """The total of streamed segment scores, each one shown to ``each`` first."""
    total = scorer.new_total()
    for k, seg in enumerate(results):
        each(k, seg)
        scorer.add_rows(total, (seg.stats.to_row(),))
        total.nrefs.add(int(seg.signature.get("nrefs") or 1))
    return total


def _alignment_record(k: int, seg: MeteorScore) -> str:
    record: dict[str, object] = {
        "segment": k + 1,
        "score": seg.score,
        "reference": seg.reference_index,
    }
    if seg.alignment is not None:
        record.update(seg.alignment.to_dict())
    return json.dumps(record, ensure_ascii=False)


_TSV_HEADER: Sequence[str] = (
    "segment",
    "score",
    "precision",
    "recall",
    "fmean",
    "penalty",
    "chunks",
)


def _segment_item(fmt: str, k: int, seg: MeteorScore) -> str:
    """One segment's sentence-level output (no line break): a text or TSV line, or JSON."""
    if fmt == "json":
        return json.dumps({"score": seg.score, "stats": list(seg.stats.to_row())})
    if fmt == "tsv":
        values = _components(seg)
        return "\t".join([str(k)] + [repr(values[h]) for h in _TSV_HEADER[1:]])
    return f"Segment {k} score:\t{seg.score!r}"


def _components(score: MeteorScore) -> dict[str, object]:
    return {
        "score": score.score,
        "precision": score.precision,
        "recall": score.recall,
        "fmean": score.fmean,
        "fragmentation": score.fragmentation,
        "penalty": score.penalty,
        "chunks": score.chunks,
    }


def _print(
    total: MeteorScore, fmt: str, *, sentence_level: bool, short: bool, items: Iterable[str]
) -> None:
    """Print the corpus score; ``items`` are the segments' lines from :func:`_segment_item`."""
    signature = total.signature.format(short=short)
    out = sys.stdout
    if fmt == "json":
        payload: dict[str, object] = {
            "score": total.score,
            "signature": signature,
            "precision": total.precision,
            "recall": total.recall,
            "fmean": total.fmean,
            "penalty": total.penalty,
            "stats": list(total.stats.to_row()),
        }
        text = json.dumps(payload, ensure_ascii=False)
        if not sentence_level:
            out.write(text + "\n")
            return
        # The same bytes as json.dumps of the payload with its "segments" list, written piecewise.
        out.write(text[:-1] + ', "segments": [')
        for k, item in enumerate(items):
            out.write(item if k == 0 else ", " + item)
        out.write("]}\n")
        return
    if fmt == "tsv":
        header = _TSV_HEADER
        out.write("\t".join(header) + "\n")
        if sentence_level:
            for item in items:
                out.write(item + "\n")
        values = _components(total)
        out.write("\t".join(["corpus"] + [repr(values[h]) for h in header[1:]]) + "\n")
        out.write(f"# {signature}\n")
        return
    if sentence_level:
        for item in items:
            out.write(item + "\n")
    pooled = "pooled: " if total.signature.get("aggregate") == "mean" else ""
    out.write(
        f"METEOR = {total.score!r} ({pooled}P {total.precision!r}, R {total.recall!r}, "
        f"Fmean {total.fmean!r}, penalty {total.penalty!r}, chunks {total.chunks})\n"
    )
    out.write(f"{signature}\n")
