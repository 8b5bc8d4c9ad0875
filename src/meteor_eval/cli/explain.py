"""``meteor-eval explain``: one segment's METEOR score taken apart, for reading in a terminal.

Prints the two sentences with each matched word marked by the module that matched it (colours
on a terminal, ``[words]E``-style tags otherwise), the alignment (one line per match), every
count the score is computed from (lengths, function and content words, matched words per module
and word type, chunks) and the formula filled in with those numbers, down to the score, which is
the one ``meteor-eval score`` gives the segment (the same statistics and the same arithmetic).

With several references the one METEOR keeps (the best-scoring) is shown.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, TextIO

from meteor_eval.cli.options import add_meteor_options, meteor_config
from meteor_eval.errors import ConfigError, InputError

if TYPE_CHECKING:
    from meteor_eval.align.alignment import Alignment
    from meteor_eval.metrics.meteor import MeteorConfig
    from meteor_eval.metrics.meteor.formula import Components
    from meteor_eval.stats.meteor import MeteorStats

__all__ = ["DESCRIPTION", "Explanation", "add_options", "render", "run"]

#: The command's own ``--help`` description.
DESCRIPTION = (
    "Show how METEOR scores one segment: the matched words by module, the "
    "alignment, every count and the formula with its numbers. Give the texts "
    "(--hyp-text, --ref-text) or files and a line number (--hyp, --ref, --segment)."
)

#: Per module: the tag of plain output and the ANSI colour of terminal output.
_STYLE: Final = {
    "exact": ("E", "32"),
    "stem": ("S", "33"),
    "synonym": ("Y", "36"),
    "paraphrase": ("P", "35"),
}
_OTHER_STYLE: Final = ("M", "34")


def add_options(parser: argparse.ArgumentParser) -> None:
    """The ``explain`` options."""
    source = parser.add_argument_group("input")
    source.add_argument("--hyp-text", metavar="TEXT", help="the hypothesis")
    source.add_argument(
        "--ref-text",
        metavar="TEXT",
        action="append",
        help="a reference (repeat for several; the best-scoring one is explained)",
    )
    source.add_argument("--hyp", metavar="FILE", help="hypothesis file, one segment a line")
    source.add_argument(
        "--ref", metavar="FILE", action="append", help="reference file (repeat for several)"
    )
    source.add_argument(
        "--segment", type=int, metavar="N", help="the line to explain (1 = first line)"
    )
    add_meteor_options(parser)
    parser.add_argument(
        "--color",
        "--colour",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the modules' matches (auto: when stdout is a terminal and NO_COLOR is unset)",
    )


def _segment_texts(args: argparse.Namespace) -> tuple[str, list[str]]:
    """The hypothesis and references the options name."""
    texts = args.hyp_text is not None or args.ref_text is not None
    files = args.hyp is not None or args.ref is not None or args.segment is not None
    if texts == files:
        raise ConfigError("give either --hyp-text and --ref-text, or --hyp, --ref and --segment")
    if texts:
        if args.hyp_text is None or not args.ref_text:
            raise ConfigError("--hyp-text and --ref-text go together")
        return args.hyp_text, list(args.ref_text)
    if args.hyp is None or not args.ref or args.segment is None:
        raise ConfigError("--hyp, --ref and --segment go together")
    if args.segment < 1:
        raise ConfigError(f"--segment: {args.segment} is not a line number (the first is 1)")
    from meteor_eval.io import read_segments

    hyps, refs = read_segments(args.hyp, args.ref)
    if args.segment > len(hyps):
        raise InputError(f"--segment {args.segment}: {args.hyp} has {len(hyps)} lines")
    return hyps[args.segment - 1], refs[args.segment - 1]


def _use_colour(choice: str, stream: TextIO) -> bool:
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


@dataclass(frozen=True, slots=True)
class Explanation:
    """Everything the view shows for one segment.

    Attributes:
        config: The METEOR configuration.
        stats: The kept reference's statistics.
        components: The formula's values for them.
        alignment: The kept reference's alignment.
        reference: Index of the kept reference.
        n_references: Number of references.
    """

    config: MeteorConfig
    stats: MeteorStats
    components: Components
    alignment: Alignment
    reference: int
    n_references: int


def explain(config: MeteorConfig, hypothesis: str, references: Sequence[str]) -> Explanation:
    """Score one segment and keep what :func:`render` shows."""
    import warnings

    from meteor_eval.metrics.meteor import Meteor, score_from_stats

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        meteor = Meteor(config)
    stats, k, alignment = meteor.segment_stats(hypothesis, list(references))
    return Explanation(
        config, stats, score_from_stats(stats, config), alignment, k, len(references)
    )


def _n(x: float) -> str:
    """A number for the formula lines: integers plainly, others with up to 10 digits."""
    if math.isfinite(x) and x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.10g}"


class _Painter:
    """Marks spans of words by module: ANSI colours, or ``[words]TAG``."""

    def __init__(self, colour: bool) -> None:
        self.colour = colour

    def mark(self, words: str, module: str) -> str:
        tag, code = _STYLE.get(module, _OTHER_STYLE)
        if self.colour:
            return f"\033[{code}m{words}\033[0m"
        return f"[{words}]{tag}"

    def name(self, module: str) -> str:
        """A module's name, in its colour on a terminal."""
        if self.colour:
            return self.mark(module, module)
        return module

    def legend(self, modules: Sequence[str]) -> str:
        parts = [f"{self.mark('words', m)} {m}" for m in modules]
        return "  ".join(parts) + "  (unmarked: unmatched)"


def _marked_side(tokens: Sequence[str], spans: Sequence[tuple[int, int, str]], p: _Painter) -> str:
    """The sentence with each matched span marked by its module."""
    starts = {start: (length, module) for start, length, module in spans}
    out = []
    i = 0
    while i < len(tokens):
        if i in starts:
            length, module = starts[i]
            out.append(p.mark(" ".join(tokens[i : i + length]), module))
            i += length
        else:
            out.append(tokens[i])
            i += 1
    return " ".join(out) if out else "(empty)"


def _sentences(e: Explanation, p: _Painter) -> list[str]:
    a = e.alignment
    names = a.modules
    hyp_spans = [(m.hyp_start, m.hyp_len, names[m.stage]) for m in a.matches]
    ref_spans = [(m.ref_start, m.ref_len, names[m.stage]) for m in a.matches]
    label = "reference:  "
    if e.n_references > 1:
        label = f"reference {e.reference + 1} of {e.n_references} (best-scoring):\n           "
    return [
        p.legend(names),
        "",
        f"hypothesis: {_marked_side(a.hyp_tokens, hyp_spans, p)}",
        f"{label}{_marked_side(a.ref_tokens, ref_spans, p)}",
    ]


def _alignment_lines(e: Explanation, p: _Painter) -> list[str]:
    a = e.alignment
    lines = ["", f"alignment ({len(a.matches)} matches, in reference order):"]
    pairs = a.pairs()
    width = max((len(h) for h, _, _ in pairs), default=0)
    ref_width = max((len(r) for _, r, _ in pairs), default=0)
    for m, (hyp, ref, module) in zip(a.matches, pairs, strict=True):
        spans = f"hyp {m.hyp_start}:{m.hyp_len}  ref {m.ref_start}:{m.ref_len}"
        lines.append(f"  {hyp:<{width}}  ~  {ref:<{ref_width}}  {p.name(module)}  ({spans})")
    if not a.matches:
        lines.append("  (no match)")
    return lines


def _count_lines(e: Explanation) -> list[str]:
    s = e.stats
    unit = "characters" if e.config.characters else "words"
    rows = [
        ("", "hypothesis", "reference"),
        (unit, str(s.hyp_length), str(s.ref_length)),
        ("  function", str(s.hyp_function), str(s.ref_function)),
        ("  content", str(s.hyp_length - s.hyp_function), str(s.ref_length - s.ref_function)),
    ]
    for stage, module in enumerate(e.config.modules):
        hc, rc, hf, rf = s.stages[stage]
        rows.append((f"matched by {module} (content+function)", f"{hc}+{hf}", f"{rc}+{rf}"))
    rows.append(("matched words", str(s.hyp_matched), str(s.ref_matched)))
    width = max(len(r[0]) for r in rows)
    lines = ["", "counts:"]
    lines += [f"  {a:<{width}}  {b:>10}  {c:>10}" for a, b, c in rows]
    lines.append(f"  chunks: {s.chunks}")
    return lines


def _weighted(e: Explanation, side: int) -> tuple[str, str, float, float]:
    """The weighted matches and length of one side (0 hypothesis, 1 reference), as the jar
    computes them: formulas with numbers and the two values."""
    s, cfg = e.stats, e.config
    delta = cfg.delta
    length, function = (
        (s.hyp_length, s.hyp_function) if side == 0 else (s.ref_length, s.ref_function)
    )
    content_len = length - function
    weighted_len = (delta * content_len) + ((1.0 - delta) * function)
    content_terms, function_terms = [], []
    matched = 0.0
    for stage, w in enumerate(cfg.weights):
        matched += (s.stages[stage][side] * w) * delta
        content_terms.append(f"{_n(w)}*{s.stages[stage][side]}")
    for stage, w in enumerate(cfg.weights):
        matched += (s.stages[stage][2 + side] * w) * (1.0 - delta)
        function_terms.append(f"{_n(w)}*{s.stages[stage][2 + side]}")
    one_minus = _n(1.0 - delta)
    matched_text = (
        f"{_n(delta)}*({' + '.join(content_terms) or '0'})"
        f" + {one_minus}*({' + '.join(function_terms) or '0'})"
    )
    length_text = f"{_n(delta)}*{content_len} + {one_minus}*{function}"
    return matched_text, length_text, matched, weighted_len


def _pr_lines(e: Explanation) -> list[str]:
    c = e.components
    if e.config.flavour == "nltk":
        s = e.stats
        return [
            f"  P       = matches / hypothesis words = {s.hyp_matched} / {s.hyp_length}"
            f" = {_n(c.precision)}",
            f"  R       = matches / reference words = {s.hyp_matched} / {s.ref_length}"
            f" = {_n(c.recall)}",
        ]
    hm, hl, hm_v, hl_v = _weighted(e, 0)
    rm, rl, rm_v, rl_v = _weighted(e, 1)
    return [
        "  weights w per module: "
        + ", ".join(
            f"{m} {_n(e.config.weights[k]) if k < len(e.config.weights) else '0 (none given)'}"
            for k, m in enumerate(e.config.modules)
        )
        + f"; delta = {_n(e.config.delta)} (content words count delta, function words 1-delta)",
        f"  hyp matched  = delta*(sum w*content) + (1-delta)*(sum w*function) = {hm} = {_n(hm_v)}",
        f"  hyp length   = delta*content + (1-delta)*function = {hl} = {_n(hl_v)}",
        f"  ref matched  = {rm} = {_n(rm_v)}",
        f"  ref length   = {rl} = {_n(rl_v)}",
        f"  P       = hyp matched / hyp length = {_n(hm_v)} / {_n(hl_v)} = {_n(c.precision)}",
        f"  R       = ref matched / ref length = {_n(rm_v)} / {_n(rl_v)} = {_n(c.recall)}",
    ]


def _frag_line(e: Explanation) -> str:
    s, c = e.stats, e.components
    if e.config.zero_penalty_if_perfect and s.is_perfect:
        return "  frag    = 0 (every word of both sides matched in one chunk: no fragmentation)"
    if e.config.flavour == "nltk":
        return (
            f"  frag    = chunks / matches = {s.chunks} / {s.hyp_matched} = {_n(c.fragmentation)}"
        )
    return (
        f"  frag    = chunks / matches = {s.chunks} / (({s.hyp_matched} + {s.ref_matched}) / 2)"
        f" = {_n(c.fragmentation)}"
    )


def _formula_lines(e: Explanation) -> list[str]:
    c, cfg = e.components, e.config
    alpha, beta, gamma = cfg.alpha, cfg.beta, cfg.gamma
    lines = ["", f"score ({cfg.flavour}, alpha={_n(alpha)} beta={_n(beta)} gamma={_n(gamma)}):"]
    lines += _pr_lines(e)
    lines += [
        f"  Fmean   = P*R / (alpha*P + (1-alpha)*R) = {_n(c.precision)}*{_n(c.recall)}"
        f" / ({_n(alpha)}*{_n(c.precision)} + {_n(1 - alpha)}*{_n(c.recall)}) = {_n(c.fmean)}",
        _frag_line(e),
        f"  penalty = gamma * frag^beta = {_n(gamma)} * {_n(c.fragmentation)}^{_n(beta)}"
        f" = {_n(c.penalty)}",
        f"  score   = Fmean * (1 - penalty) = {_n(c.fmean)} * (1 - {_n(c.penalty)})"
        f" = {_n(c.score)}",
    ]
    if math.isnan(c.fmean) or math.isnan(c.penalty):  # nothing to divide by
        lines.append("  (an undefined value, from an empty side or no match, gives the score 0)")
    lines += ["", f"score: {c.score!r}"]
    return lines


def render(e: Explanation, *, colour: bool) -> str:
    """The whole view, ending with a newline."""
    p = _Painter(colour)
    lines = _sentences(e, p) + _alignment_lines(e, p) + _count_lines(e) + _formula_lines(e)
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    """Explain one segment; returns the exit status."""
    if "aggregate" in getattr(args, "explicit", set()):
        raise ConfigError("--aggregate: a single segment's score does not aggregate anything")
    hypothesis, references = _segment_texts(args)
    e = explain(meteor_config(args), hypothesis, references)
    sys.stdout.write(render(e, colour=_use_colour(args.color, sys.stdout)))
    return 0
