"""An X-Ray style HTML report of METEOR for one or more systems, in one self-contained file.

For each system: the corpus score with its signature and bootstrap interval (and, for two or
more systems, paired bootstrap p-values against the first), histograms of the segment scores,
precision, recall and fragmentation penalty (overlaid), a scatter of segment scores against the
first system, a segment table (sorted, filtered, paginated in the browser) and, per segment, the
alignment matrix and the aligned words of each system side by side, built on demand from one
embedded JSON model (:mod:`meteor_eval.report.model`).

The page needs no network: its CSS, JavaScript and figures (SVG drawn by matplotlib, glyphs as
paths) are inline. Rendering needs the ``report`` extra (jinja2 and matplotlib)::

    pip install 'meteor-eval[report]'

Examples:
    >>> from meteor_eval.report import make_report
    >>> report = make_report({"A": ["the cat sat on the mat"], "B": ["a cat on the mat"]},
    ...                      [["the cat sat on the mat"]], n_samples=100)
    >>> tuple(round(system["meteor"]["score"], 4) for system in report.summary["systems"])
    (1.0, 0.3309)
    >>> html = report.html()
    >>> html.startswith("<!DOCTYPE html>") and "http://" not in html.split("<svg", 1)[0]
    True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from meteor_eval.errors import ConfigError, InputError

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from meteor_eval.metrics.meteor import Meteor, MeteorConfig, MeteorScore
    from meteor_eval.metrics.protocol import Row

__all__ = ["Report", "build_report", "make_report", "require_report_extra"]

#: What the ``report`` extra installs (checked before any scoring).
_EXTRA_MODULES = ("jinja2", "matplotlib")


def require_report_extra() -> None:
    """Check that jinja2 and matplotlib can be imported.

    Raises:
        ConfigError: one is missing; the message names the extra to install.
    """
    import importlib

    missing = []
    for name in _EXTRA_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    if missing:
        raise ConfigError(
            f"the HTML report needs {' and '.join(missing)}: pip install 'meteor-eval[report]'"
        )


@dataclass
class Report:
    """Everything a report shows, before it is rendered.

    Attributes:
        summary: The corpus results in the output schema (``docs/output-schema.md``) with
            intervals and p-values, as ``meteor-eval score --format json`` prints them.
        model: Every segment of every system (:func:`~meteor_eval.report.model.segment_model`).
        title: The page title.
        sources: Per system, where its hypotheses came from (shown on the page; may be empty).
        references: The reference files (shown on the page; may be empty).
    """

    summary: dict[str, Any]
    model: dict[str, Any]
    title: str = "METEOR report"
    sources: list[str] = field(default_factory=list)
    references: list[str] = field(default_factory=list)
    _figures: dict[str, Figure] | None = field(default=None, repr=False)

    def figures(self) -> dict[str, Figure]:
        """The matplotlib figures by file stem (:func:`meteor_eval.report.figures.figures`),
        drawn once."""
        if self._figures is None:
            from meteor_eval.report.figures import figures

            self._figures = figures(self.model)
        return self._figures

    def html(self) -> str:
        """The self-contained HTML page."""
        from meteor_eval.report.html import render_html

        return render_html(self)

    def save_figures(self, folder: str) -> list[str]:
        """Write every figure as PNG, SVG and PDF into ``folder``; the paths written."""
        from meteor_eval.report.figures import save_figures

        return [str(p) for p in save_figures(self.figures(), folder)]


def build_report(
    metric: Meteor,
    segments: Mapping[str, Sequence[MeteorScore]],
    *,
    method: str | None = "bs",
    n_samples: int | None = None,
    seed: int | None = 12345,
    confidence: float = 0.95,
    short_signature: bool = False,
    **fields: Any,
) -> Report:
    """A :class:`Report` from each system's segment scores (with alignments).

    The corpus score of each system is scored from its segments' statistics exactly as
    ``meteor-eval score`` scores them; intervals come from the bootstrap of
    :func:`meteor_eval.significance.paired_tests` and, with two or more systems and ``method``
    ``"bs"`` or ``"ar"``, p-values against the first system.

    Args:
        metric: The METEOR scorer that made the segments.
        segments: Per system name (in order), each segment's ``segment_score(...,
            alignment=True)``.
        method: The paired test for two or more systems (``None``: intervals only).
        n_samples: Resamples (default: the method's, 1000 for the bootstrap).
        seed: Random seed of the resampling.
        confidence: Interval coverage.
        short_signature: Abbreviated signature keys.
        fields: :class:`Report` fields (``title``, ``sources``, ``references``).

    Raises:
        InputError: no segment, or systems with different numbers of segments.
    """
    from meteor_eval.report.model import segment_model
    from meteor_eval.results import ComparisonResult, SystemRun

    names = list(segments)
    if not any(segments.values()):
        raise InputError("nothing to report: the systems have no segment")
    runs = ComparisonResult(names, [metric])
    for name, scores in segments.items():
        rows: list[Row] = [seg.stats.to_row() for seg in scores]
        nrefs = [int(seg.signature.get("nrefs") or 1) for seg in scores]
        runs.runs[name] = {"meteor": SystemRun(metric.score_rows(rows, nrefs), rows, nrefs)}
    model = segment_model(segments, metric.config.modules)
    runs.test(
        method=method if len(names) > 1 else None,
        n_samples=n_samples,
        seed=seed,
        confidence=confidence,
    )
    return Report(runs.to_dict(short_signature=short_signature), model, **fields)


def make_report(
    systems: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str]],
    config: MeteorConfig | None = None,
    **options: Any,
) -> Report:
    """Score ``systems`` against ``references`` with alignments and build their report.

    Args:
        systems: Per system name, one hypothesis per segment.
        references: ``references[i]`` lists the references of segment ``i``.
        config: The METEOR configuration (default: official METEOR 1.5, English).
        options: Those of :func:`build_report`.
    """
    from meteor_eval.metrics.meteor import Meteor

    require_report_extra()
    for name, hyps in systems.items():
        if len(hyps) != len(references):
            raise InputError(
                f"{name}: {len(hyps)} hypotheses but {len(references)} reference groups"
            )
    metric = Meteor(config)
    segments = {
        name: [
            metric.segment_score(h, refs, alignment=True)
            for h, refs in zip(hyps, references, strict=True)
        ]
        for name, hyps in systems.items()
    }
    return build_report(metric, segments, **options)
