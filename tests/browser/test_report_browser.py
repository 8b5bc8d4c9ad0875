"""The report in a real browser: headless Chromium, driven over the DevTools pipe.

The page must load without a console error or uncaught exception, list every segment across
its pages, sort on a header click and on a sort written in the address, filter by text, draw
each segment's alignment matrices from the embedded model, and not render blank.

Skipped when no Chromium is installed, unless ``METEOR_EVAL_REQUIRE_CHROMIUM=1`` (CI sets it
after installing the ``chromium`` system package), in which case its absence fails.
"""

from __future__ import annotations

import io
import json
import math
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cdp_pipe import Browser, find_chromium

pytest.importorskip("jinja2")
pytest.importorskip("matplotlib")

EXAMPLES = Path(__file__).resolve().parents[2] / "src" / "meteor_eval" / "examples"


def _chromium() -> str:
    path = find_chromium()
    if path is None:
        if os.environ.get("METEOR_EVAL_REQUIRE_CHROMIUM") == "1":
            pytest.fail("METEOR_EVAL_REQUIRE_CHROMIUM=1 but no Chromium is installed")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    return path


def _corpus(n: int) -> tuple[dict[str, list[str]], list[list[str]]]:
    """``n`` segments from the bundled example: system A as given, system B with the words
    of every third line reversed and every fifth line cut short."""
    hyps = (EXAMPLES / "hypotheses.txt").read_text(encoding="utf-8").splitlines()
    refs = (EXAMPLES / "references.txt").read_text(encoding="utf-8").splitlines()
    a, b, references = [], [], []
    for i in range(n):
        hyp, ref = hyps[i % len(hyps)], refs[i % len(refs)]
        words = hyp.split()
        if i % 3 == 0:
            words = words[::-1]
        if i % 5 == 0:
            words = words[: max(1, len(words) // 2)]
        a.append(hyp)
        b.append(" ".join(words))
        references.append([ref])
    return {"A": a, "B": b}, references


@pytest.fixture(scope="module")
def report_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    from meteor_eval.report import make_report

    systems, references = _corpus(137)
    report = make_report(systems, references, n_samples=100)
    path = tmp_path_factory.mktemp("browser") / "report.html"
    path.write_text(report.html(), encoding="utf-8")
    return path, report.model


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with Browser(_chromium(), width=1280, height=900) as b:
        yield b


def _open(browser: Browser, url: str) -> None:
    browser.errors.clear()
    browser.load(url)
    assert browser.evaluate("document.documentElement.getAttribute('data-ready')") == "1"


@pytest.fixture
def model(browser: Browser, report_file: tuple[Path, dict[str, Any]]) -> dict[str, Any]:
    """The report opened at its own address (no sort, page or segment in it); its model."""
    path, report_model = report_file
    _open(browser, path.as_uri())
    return report_model


def _visible_segments(browser: Browser) -> list[int]:
    value = browser.evaluate(
        "Array.from(document.querySelectorAll('#segment-table tbody tr'))"
        ".map(function (tr) { return +tr.getAttribute('data-seg'); })"
    )
    assert isinstance(value, list)
    return value


def _click(browser: Browser, selector: str) -> None:
    """A real mouse click (press and release) at the middle of the element."""
    box = browser.evaluate(
        f"(function () {{ var e = document.querySelector({json.dumps(selector)});"
        " e.scrollIntoView({block: 'center'}); var r = e.getBoundingClientRect();"
        " return [r.left + r.width / 2, r.top + r.height / 2]; })()"
    )
    x, y = box
    for kind in ("mousePressed", "mouseReleased"):
        browser.call(
            "Input.dispatchMouseEvent",
            {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1},
            session=True,
        )


def test_loads_without_errors_and_lists_every_segment(
    browser: Browser, model: dict[str, Any]
) -> None:
    assert browser.errors == []
    n = model["n"]
    assert browser.evaluate("window.meteorReport.pages()") == math.ceil(n / 50) == 3
    seen: list[int] = []
    for page in range(3):
        rows = _visible_segments(browser)
        assert len(rows) == (50 if page < 2 else n - 100)
        seen += rows
        _click(browser, "[data-page=next]")
    assert seen == list(range(n))
    assert "page 3 of 3 (137 of 137 segments)" in browser.evaluate(
        "document.getElementById('page-info').textContent"
    )
    assert browser.errors == []


def test_header_click_sorts_and_keeps_the_order_in_the_address(
    browser: Browser, model: dict[str, Any]
) -> None:
    _click(browser, 'th[data-key="score.1"]')
    scores = model["systems"][1]["score"]
    expected = sorted(range(model["n"]), key=lambda i: (-scores[i], i))[:50]
    assert _visible_segments(browser) == expected
    assert browser.evaluate("location.hash") == "#sort=score.1&dir=desc"
    _click(browser, 'th[data-key="score.1"]')  # again: ascending
    expected = sorted(range(model["n"]), key=lambda i: (scores[i], i))[:50]
    assert _visible_segments(browser) == expected
    assert browser.errors == []


def test_sort_and_page_from_the_address(
    browser: Browser, report_file: tuple[Path, dict[str, Any]]
) -> None:
    path, model = report_file
    a, b = (s["score"] for s in model["systems"])
    _open(browser, path.as_uri() + "#sort=diff&dir=asc&size=25&page=2")
    expected = sorted(range(model["n"]), key=lambda i: (b[i] - a[i], i))[25:50]
    assert _visible_segments(browser) == expected
    assert browser.errors == []


def test_text_filter(browser: Browser, model: dict[str, Any]) -> None:
    browser.evaluate(
        "(function () { var q = document.querySelector('#filters input[name=q]');"
        " q.value = 'Committee'; q.dispatchEvent(new Event('input', {bubbles: true})); })()"
    )
    expected = [
        i
        for i in range(model["n"])
        if any("committee" in " ".join(r).lower() for r in model["references"][i] if r)
        or any("committee" in " ".join(s["hypothesis"][i]).lower() for s in model["systems"])
    ]
    assert expected
    assert _visible_segments(browser) == expected[:50]
    assert browser.evaluate("window.meteorReport.filtered().length") == len(expected)
    assert browser.errors == []


def test_row_click_draws_both_alignments(browser: Browser, model: dict[str, Any]) -> None:
    _click(browser, 'tr[data-seg="3"]')
    assert browser.evaluate("location.hash") == "#seg=4"
    panels = browser.evaluate(
        "Array.from(document.querySelectorAll('#detail-body .panel')).map(function (p) {"
        " return [p.querySelectorAll('table.matrix tbody tr').length,"
        " p.querySelectorAll('table.matrix thead th').length - 1,"
        " p.querySelectorAll('table.matrix td[data-m]').length,"
        " p.querySelectorAll('.tok[data-m]').length]; })"
    )
    expected = []
    for system in model["systems"]:
        flat = system["matches"][3]
        blocks = [flat[k : k + 5] for k in range(0, len(flat), 5)]
        ref = model["references"][3][system["reference"][3]]
        expected.append(
            [
                len(system["hypothesis"][3]),
                len(ref),
                sum(m[1] * m[3] for m in blocks),
                sum(m[1] + m[3] for m in blocks),
            ]
        )
    assert panels == expected
    assert browser.errors == []


@pytest.mark.usefixtures("model")
def test_enter_on_a_focused_row_opens_it(browser: Browser) -> None:
    browser.evaluate("document.querySelector('tr[data-seg=\"5\"]').focus()")
    for kind in ("keyDown", "keyUp"):
        browser.call(
            "Input.dispatchKeyEvent",
            {"type": kind, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13},
            session=True,
        )
    assert browser.evaluate("location.hash") == "#seg=6"
    assert browser.evaluate("document.getElementById('detail-title').textContent") == (
        "of segment 6"
    )
    assert browser.errors == []


def test_screenshot_is_not_blank(
    browser: Browser, report_file: tuple[Path, dict[str, Any]]
) -> None:
    from matplotlib.image import imread

    path, _ = report_file
    _open(browser, path.as_uri() + "#seg=1")
    browser.evaluate("document.getElementById('detail').scrollIntoView()")
    time.sleep(0.2)  # one frame for the scroll (not a timed assertion)
    png = browser.screenshot()
    pixels = imread(io.BytesIO(png))
    assert pixels.shape[:2] == (900, 1280)
    colours = {tuple(p) for p in pixels.reshape(-1, pixels.shape[2])[::97].tolist()}
    assert len(colours) > 20
    assert browser.errors == []


def test_xray_report_lists_all_2489_segments(
    browser: Browser, tmp_path: Path, meteor_data: Path
) -> None:
    """The two xray systems of ``../shared/data/meteor15`` (skipped when absent)."""
    from meteor_eval.cli import main

    out = tmp_path / "xray.html"
    hyps = [str(meteor_data / f"xray-system{k}.hyp") for k in (1, 2)]
    args = ["report", "--hyp", *hyps, "--ref", str(meteor_data / "xray-reference")]
    assert main([*args, "-o", str(out), "--no-progress", "--n-samples", "200"]) == 0
    _open(browser, out.as_uri() + "#size=500")
    seen: list[int] = []
    for _ in range(5):
        seen += _visible_segments(browser)
        _click(browser, "[data-page=next]")
    assert sorted(seen) == list(range(2489))
    assert browser.errors == []
