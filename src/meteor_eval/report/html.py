"""The report as one HTML page, rendered with jinja2 from the package's templates.

``templates/report.html.j2`` lays the page out; ``report.css`` and ``report.js`` are inlined as
they are (static files, not templates), so the page loads no other file. The script works on one
JSON model (:mod:`meteor_eval.report.model`) in a ``<script type="application/json"
id="report-data">`` element; the corpus summary is rendered as a table and also embedded as JSON
(``id="report-summary"``, the output schema of ``meteor-eval score --format json``); the figures
are inline SVG."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meteor_eval._version import __version__
from meteor_eval.report.figures import COLOURS, HISTOGRAMS, inline_svg
from meteor_eval.report.model import json_for_script

if TYPE_CHECKING:
    import jinja2

    from meteor_eval.report import Report

__all__ = ["MODULE_COLOURS", "render_html"]

#: Cell and highlight colour of each module (an unknown module gets the last).
MODULE_COLOURS = {
    "exact": "#4c9a2a",
    "stem": "#2f7fc1",
    "synonym": "#c9a227",
    "paraphrase": "#a54ca8",
    "other": "#7f7f7f",
}


def _environment() -> jinja2.Environment:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("meteor_eval.report", "templates"),
        autoescape=jinja2.select_autoescape(("html", "html.j2")),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def _fmt(value: float | None, digits: int = 4) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def _systems(report: Report) -> list[dict[str, Any]]:
    """Per system, the numbers of the summary table."""
    out = []
    for k, system in enumerate(report.summary["systems"]):
        meteor = system["meteor"]
        low, high = meteor.get("ci", (None, None))
        out.append(
            {
                "name": system["name"],
                "colour": COLOURS[k % len(COLOURS)],
                "source": report.sources[k] if k < len(report.sources) else "",
                "score": meteor["score"],
                "low": low,
                "high": high,
                "p_value": meteor.get("p_value"),
                "meteor": meteor,
            }
        )
    return out


def render_html(report: Report) -> str:
    """The page of ``report`` (figures drawn if not yet)."""
    figs = report.figures()
    histograms = [
        (label, inline_svg(figs[f"hist-{field}"], f"hist-{field}"))
        for field, label in HISTOGRAMS.items()
    ]
    scatters = [inline_svg(fig, stem) for stem, fig in figs.items() if stem.startswith("scatter-")]
    environment = _environment()
    template = environment.get_template("report.html.j2")
    modules = list(report.model["modules"])
    return template.render(
        title=report.title,
        version=__version__,
        summary=report.summary,
        signature=report.summary["signature"]["meteor"],
        test=report.summary.get("test"),
        baseline=report.summary.get("baseline"),
        systems=_systems(report),
        references=report.references,
        segments=report.model["n"],
        histograms=histograms,
        scatters=scatters,
        modules=[(m, MODULE_COLOURS.get(m, MODULE_COLOURS["other"])) for m in modules],
        colours=COLOURS,
        data=json_for_script(report.model),
        summary_json=json_for_script(report.summary),
        fmt=_fmt,
        css=_asset(environment, "report.css"),
        script=_asset(environment, "report.js"),
    )


def _asset(environment: jinja2.Environment, name: str) -> str:
    """A static file of the templates folder, inlined as it is (not a template: CSS and
    JavaScript braces are not jinja2 syntax)."""
    assert environment.loader is not None
    text: str = environment.loader.get_source(environment, name)[0]
    if "</" + "script" in text.lower() or "</" + "style" in text.lower():
        raise ValueError(f"{name} would close its element early")
    return text
