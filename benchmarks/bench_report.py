"""Build time, size and browser load time of ``meteor-eval report``.

Builds the report of the given systems with ``python -m meteor_eval report`` in a new process
(wall and CPU time of the whole command: start-up, scoring with alignments, bootstrap, figures,
HTML; the CPU time is the better figure on a loaded machine),
then opens it in headless Chromium (``tests/browser/cdp_pipe.py``) and measures:

* ``load``: from the navigation request to the load event, as seen by this script;
* ``ready``: the page's own ``performance.now()`` when its script has drawn the first table page
  (``window.meteorReport.readyAt``; the page is usable from then on);
* ``sort`` and ``filter``: time in the page to re-sort every segment by a header click and to
  filter them by a word (synchronous handlers, measured with ``performance.now()`` around them).

Each is repeated ``--repeat`` times (build and loads alternately); the table gives the median and
the fastest. ``--segments N`` repeats the input lines up to N segments (a larger report from the
same data); ``--screenshot FILE`` saves a PNG of the segment table and of the alignments of one
segment (``--segment``, default 89: the picture in the README). Run from the repository root::

    python benchmarks/bench_report.py                        # xray system1 + system2
    python benchmarks/bench_report.py --segments 10000
    python benchmarks/bench_report.py --screenshot docs/report-screenshot.png
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "meteor15"
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from cdp_pipe import Browser, find_chromium  # noqa: E402


def _repeated(path: Path, n: int, folder: Path) -> Path:
    lines = path.read_text(encoding="utf-8").splitlines()
    out = folder / path.name
    out.write_text("\n".join(lines[i % len(lines)] for i in range(n)) + "\n", encoding="utf-8")
    return out


def _build(hyps: list[Path], ref: Path, out: Path, names: str) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one ``report`` command."""
    command = [sys.executable, "-m", "meteor_eval", "report", "--hyp", *map(str, hyps)]
    command += ["--ref", str(ref), "--names", names, "-o", str(out), "--no-progress"]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, env=env, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


_SORT = """(function () {
  var th = document.querySelector('th[data-key="score.0"]');
  var t = performance.now(); th.click(); return performance.now() - t; })()"""
_FILTER = """(function () {
  var q = document.querySelector('#filters input[name=q]'); q.value = 'the';
  var t = performance.now(); q.dispatchEvent(new Event('input', {bubbles: true}));
  var spent = performance.now() - t;
  q.value = ''; q.dispatchEvent(new Event('input', {bubbles: true})); return spent; })()"""


def _measure(browser: Browser, url: str) -> dict[str, float]:
    browser.errors.clear()
    load = browser.load(url)
    ready = browser.evaluate("window.meteorReport.readyAt") / 1000
    sort = browser.evaluate(_SORT) / 1000
    filtering = browser.evaluate(_FILTER) / 1000
    if browser.errors:
        raise SystemExit(f"the page reported errors: {browser.errors}")
    return {"load": load, "ready": ready, "sort": sort, "filter": filtering}


def _screenshot(browser: Browser, url: str, path: Path, segment: int) -> None:
    """The segment table (sorted by the difference, ten rows) and the alignment view of
    ``segment``, as one PNG."""
    browser.load(f"{url}#sort=diff&dir=desc&size=10&seg={segment}")
    top = browser.evaluate(
        "document.getElementById('segments').getBoundingClientRect().top + window.scrollY"
    )
    bottom = browser.evaluate(
        "document.getElementById('detail').getBoundingClientRect().bottom + window.scrollY"
    )
    width = browser.evaluate("document.documentElement.clientWidth")
    png = browser.screenshot((0, top - 8, width, bottom - top + 16))
    try:  # recompressed (same pixels); pillow comes with matplotlib
        from PIL import Image

        buffer = io.BytesIO()
        Image.open(io.BytesIO(png)).convert("RGB").save(buffer, format="PNG", optimize=True)
        png = buffer.getvalue()
    except ImportError:
        pass
    path.write_bytes(png)
    print(f"screenshot: {path} ({len(png) / 1024:.0f} KiB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--hyp",
        type=Path,
        nargs="+",
        default=[DATA / "xray-system1.hyp", DATA / "xray-system2.hyp"],
    )
    parser.add_argument("--ref", type=Path, default=DATA / "xray-reference")
    parser.add_argument("--segments", type=int, help="repeat the lines up to N segments")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--screenshot", type=Path, help="save a PNG of the alignment view")
    parser.add_argument(
        "--segment", type=int, default=89, help="the segment the screenshot shows (89)"
    )
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=900)
    args = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        raise SystemExit("no Chromium found (apt-get install chromium, or set CHROMIUM)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        hyps, ref = list(args.hyp), args.ref
        if args.segments:
            for k in range(len(hyps)):
                (folder / f"s{k}").mkdir()
            hyps = [_repeated(h, args.segments, folder / f"s{k}") for k, h in enumerate(hyps)]
            ref = _repeated(ref, args.segments, folder)
        names = ",".join(f"system{k + 1}" for k in range(len(hyps)))
        out = folder / "report.html"
        builds: list[tuple[float, float]] = []
        runs: list[dict[str, float]] = []
        with Browser(chromium, width=args.width, height=args.height) as browser:
            for _ in range(args.repeat):
                builds.append(_build(hyps, ref, out, names))
                runs.append(_measure(browser, out.as_uri()))
            if args.screenshot:
                _screenshot(browser, out.as_uri(), args.screenshot, args.segment)
        segments = sum(1 for _ in ref.open(encoding="utf-8"))
        size = out.stat().st_size / 1e6
        print(f"\n{len(hyps)} systems x {segments:,} segments, report {size:.2f} MB")
        print(f"cpus: {os.cpu_count()}, load average: {os.getloadavg()[0]:.1f}\n")
        print("| step | median (s) | fastest (s) |")
        print("|---|---:|---:|")
        walls, cpus = [b[0] for b in builds], [b[1] for b in builds]
        print(
            f"| build: wall (whole command) | {statistics.median(walls):.2f} | {min(walls):.2f} |"
        )
        print(f"| build: CPU (user + system) | {statistics.median(cpus):.2f} | {min(cpus):.2f} |")
        for key, label in (
            ("load", "browser: navigation to load event"),
            ("ready", "browser: page usable (script done)"),
            ("sort", "browser: sort all segments"),
            ("filter", "browser: filter all segments by a word"),
        ):
            values = [run[key] for run in runs]
            print(f"| {label} | {statistics.median(values):.3f} | {min(values):.3f} |")


if __name__ == "__main__":
    main()
