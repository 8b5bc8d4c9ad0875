"""The report's figures, drawn by matplotlib: distributions of segment numbers and scatters.

One histogram per quantity (segment score, precision, recall, fragmentation penalty) with the
systems overlaid, and for two or more systems a scatter of each system's segment scores against
the first system's. :func:`inline_svg` turns a figure into SVG text for the HTML page (glyphs as
paths, so no font is needed to view it; element ids prefixed so that several figures can share
one page); :func:`save_figures` writes them as PNG, SVG and PDF for papers.

Only matplotlib's object interface is used (``Figure`` with the Agg canvas, never ``pyplot``), so
building a report neither opens a window nor touches global plotting state.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["FIGURE_FORMATS", "HISTOGRAMS", "figures", "inline_svg", "save_figures"]

#: Per-segment quantity -> its axis label, in the order the report shows the histograms.
HISTOGRAMS = {
    "score": "segment METEOR score",
    "precision": "precision",
    "recall": "recall",
    "penalty": "fragmentation penalty",
}

#: The formats ``--plots DIR`` writes.
FIGURE_FORMATS = ("png", "svg", "pdf")

#: Colours of the systems, in order (matplotlib's default cycle; the page's CSS uses the same).
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")

_BINS = 20


def _new_figure(width: float = 4.2, height: float = 3.0, *, top: float = 0.96) -> Figure:
    """A figure with fixed margins (a layout engine would cost more than the drawing)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    fig.subplots_adjust(left=0.16, bottom=0.16, right=0.96, top=top)
    return fig


def _histogram(label: str, values: Mapping[str, Sequence[float]]) -> Figure:
    """``values``' distributions on [0, 1] in 20 bins, one outline (and light fill) per system."""
    import numpy as np

    fig = _new_figure()
    ax = fig.add_subplot()
    edges = np.linspace(0.0, 1.0, _BINS + 1)
    for k, (name, column) in enumerate(values.items()):
        colour = COLOURS[k % len(COLOURS)]
        counts, _ = np.histogram(np.clip(np.asarray(column, dtype=float), 0.0, 1.0), edges)
        ax.stairs(counts, edges, fill=True, alpha=0.25, color=colour)
        ax.stairs(counts, edges, linewidth=1.5, color=colour, label=name)
    ax.set_xlim(0, 1)
    ax.set_xlabel(label)
    ax.set_ylabel("segments")
    if len(values) > 1:
        ax.legend(fontsize="small", frameon=False, loc="best")
    return fig


def _scatter(x_name: str, x: Sequence[float], y_name: str, y: Sequence[float]) -> Figure:
    """Segment scores of ``y_name`` against ``x_name``, with the diagonal."""
    fig = _new_figure(3.8, 3.8, top=0.92)
    ax = fig.add_subplot()
    ax.plot([0, 1], [0, 1], color="#999999", linewidth=0.8, zorder=1)
    ax.scatter(x, y, s=6, alpha=0.4, color=COLOURS[0], linewidths=0, zorder=2, rasterized=False)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel(f"{x_name}: segment score")
    ax.set_ylabel(f"{y_name}: segment score")
    above = sum(1 for a, b in zip(x, y, strict=True) if b > a)
    below = sum(1 for a, b in zip(x, y, strict=True) if b < a)
    ax.set_title(f"{y_name} higher: {above}, lower: {below}", fontsize="small")
    return fig


def figures(model: Mapping[str, Any]) -> dict[str, Figure]:
    """Every figure of the report, by file stem: ``hist-score``, ``hist-precision``,
    ``hist-recall``, ``hist-penalty`` and, per system after the first, ``scatter-<k>`` (that
    system's segment scores against the first system's).

    Args:
        model: The report's data (:func:`meteor_eval.report.model.segment_model`).
    """
    systems = model["systems"]
    out: dict[str, Figure] = {}
    for field, label in HISTOGRAMS.items():
        out[f"hist-{field}"] = _histogram(label, {s["name"]: s[field] for s in systems})
    first = systems[0]
    for k, other in enumerate(systems[1:], 1):
        out[f"scatter-{k}"] = _scatter(first["name"], first["score"], other["name"], other["score"])
    return out


_ID = re.compile(r'\bid="([^"]+)"')


def inline_svg(fig: Figure, prefix: str) -> str:
    """The figure as an ``<svg>`` element for an HTML page: no XML prolog, reproducible ids
    (no date, a fixed hash salt) and every id prefixed with ``prefix`` (and the references to it
    rewritten), so that figures that share glyphs or clip paths do not clash on one page."""
    import matplotlib

    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": prefix, "svg.fonttype": "path"}):
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    text = buffer.getvalue()
    text = text[text.index("<svg") :]
    ids = set(_ID.findall(text))

    def rename(match: re.Match[str]) -> str:
        name = match.group(2)
        return f"{match.group(1)}{prefix}-{name}" if name in ids else match.group(0)

    text = re.sub(r'(\bid="|#)([A-Za-z_][\w.:-]*)', rename, text)
    return text


def save_figures(figs: Mapping[str, Figure], folder: str | Path) -> list[Path]:
    """Write every figure as ``<stem>.png`` (150 dpi), ``.svg`` and ``.pdf`` into ``folder``
    (created if needed); returns the files written."""
    import matplotlib

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with matplotlib.rc_context({"svg.hashsalt": "meteor-eval", "svg.fonttype": "path"}):
        for stem, fig in figs.items():
            for fmt in FIGURE_FORMATS:
                path = out / f"{stem}.{fmt}"
                metadata = {"CreationDate": None} if fmt == "pdf" else None
                if fmt == "svg":
                    metadata = {"Date": None}
                fig.savefig(path, format=fmt, dpi=150, metadata=metadata)
                written.append(path)
    return written
