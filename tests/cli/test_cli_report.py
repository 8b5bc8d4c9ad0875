"""``meteor-eval report``: the page's numbers are the other commands' numbers, the file needs no
network, and bad output paths or options stop before anything is scored."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from meteor_eval.cli import main

pytest.importorskip("jinja2")
pytest.importorskip("matplotlib")

EXAMPLES = Path(__file__).resolve().parents[2] / "src" / "meteor_eval" / "examples"
HYP = str(EXAMPLES / "hypotheses.txt")
REF = str(EXAMPLES / "references.txt")
REF2 = str(EXAMPLES / "references2.txt")


def _embedded(html: str, element: str) -> object:
    match = re.search(rf'<script type="application/json" id="{element}">(.*?)</script>', html, re.S)
    assert match is not None, element
    return json.loads(match.group(1))


@pytest.fixture(scope="module")
def second_system(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A second system: the first with each line's words in reverse order (a worse system)."""
    path = tmp_path_factory.mktemp("report") / "reversed.txt"
    lines = Path(HYP).read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(" ".join(reversed(line.split())) for line in lines) + "\n", "utf-8")
    return str(path)


@pytest.fixture(scope="module")
def two_system_report(tmp_path_factory: pytest.TempPathFactory, second_system: str) -> str:
    out = tmp_path_factory.mktemp("report") / "report.html"
    args = ["report", "--hyp", HYP, second_system, "--ref", REF, "--ref", REF2]
    assert main([*args, "-o", str(out), "--n-samples", "300", "--no-progress"]) == 0
    return out.read_text(encoding="utf-8")


def test_summary_equals_score_with_paired_bootstrap(
    two_system_report: str, second_system: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Scores, intervals, p-value and signature are those of ``score --paired-bs``."""
    capsys.readouterr()
    args = ["score", "--hyp", HYP, second_system, "--ref", REF, "--ref", REF2, "--format", "json"]
    assert main([*args, "--paired-bs", "--n-samples", "300"]) == 0
    expected = json.loads(capsys.readouterr().out)
    summary = _embedded(two_system_report, "report-summary")
    assert isinstance(summary, dict)
    assert summary["signature"] == expected["signature"]
    assert summary["test"] == expected["test"]
    for got, want in zip(summary["systems"], expected["systems"], strict=True):
        assert got["meteor"] == want["meteor"]
    assert summary["systems"][0]["name"] == "hypotheses.txt"
    assert "p_value" not in summary["systems"][0]["meteor"]
    assert 0 < summary["systems"][1]["meteor"]["p_value"] <= 1
    # The page shows them too (4 decimals).
    score = summary["systems"][1]["meteor"]["score"]
    assert f"{score:.4f}" in two_system_report


def test_segments_are_the_sentence_scores(two_system_report: str) -> None:
    from meteor_eval.metrics.meteor import Meteor

    model = _embedded(two_system_report, "report-data")
    assert isinstance(model, dict)
    hyps = Path(HYP).read_text(encoding="utf-8").splitlines()
    refs = list(
        zip(
            Path(REF).read_text(encoding="utf-8").splitlines(),
            Path(REF2).read_text(encoding="utf-8").splitlines(),
            strict=True,
        )
    )
    assert model["n"] == len(hyps) == 30
    meteor = Meteor()
    first = model["systems"][0]
    for i in (0, 7, 29):
        seg = meteor.segment_score(hyps[i], refs[i], alignment=True)
        assert seg.alignment is not None
        assert first["score"][i] == seg.score
        assert first["precision"][i] == seg.precision
        assert first["chunks"][i] == seg.chunks
        assert first["reference"][i] == seg.reference_index
        assert first["hypothesis"][i] == list(seg.alignment.hyp_tokens)
        kept = model["references"][i][seg.reference_index]
        assert kept == list(seg.alignment.ref_tokens)
        flat = [
            v
            for m in seg.alignment.matches
            for v in (m.hyp_start, m.hyp_len, m.ref_start, m.ref_len, m.stage)
        ]
        assert first["matches"][i] == flat


def test_page_is_self_contained(two_system_report: str) -> None:
    html = two_system_report
    assert html.startswith("<!DOCTYPE html>")
    outside_svg = re.sub(r"<svg.*?</svg>", "", html, flags=re.S)
    for needle in ("http://", "https://", "<link", "@import", "src=", "url("):
        assert needle not in outside_svg, needle
    # Figures are inline SVG, four histograms and one scatter, with ids that do not clash.
    assert html.count("<svg") == 5
    ids = re.findall(r'\bid="([^"]+)"', html)
    assert len(ids) == len(set(ids))
    # Every reference inside an SVG points to an element of the page.
    for target in set(re.findall(r'(?:href="|url\()#([^")]+)', html)):
        assert target in ids, target


def test_plots_are_written_in_three_formats(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    plots = tmp_path / "plots"
    assert (
        main(["report", "--example", "-o", str(out), "--plots", str(plots), "--n-samples", "50"])
        == 0
    )
    names = sorted(p.name for p in plots.iterdir())
    stems = ["hist-penalty", "hist-precision", "hist-recall", "hist-score"]
    assert names == sorted(f"{s}.{ext}" for s in stems for ext in ("pdf", "png", "svg"))
    assert (plots / "hist-score.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert (plots / "hist-score.pdf").read_bytes().startswith(b"%PDF-")
    assert b"<svg" in (plots / "hist-score.svg").read_bytes()
    # One system: an interval, no p-value column, no scatter.
    html = out.read_text(encoding="utf-8")
    summary = _embedded(html, "report-summary")
    assert isinstance(summary, dict)
    meteor = summary["systems"][0]["meteor"]
    assert meteor["ci"][0] <= meteor["score"] <= meteor["ci"][1]
    assert "p_value" not in meteor
    assert summary["test"]["name"] == "bootstrap"
    assert html.count("<svg") == 4


def test_baseline_comes_first(tmp_path: Path, second_system: str) -> None:
    out = tmp_path / "r.html"
    args = ["report", "--hyp", HYP, second_system, "--ref", REF, "--names", "good,reversed"]
    assert main([*args, "--baseline", "reversed", "-o", str(out), "--n-samples", "50"]) == 0
    summary = _embedded(out.read_text(encoding="utf-8"), "report-summary")
    assert isinstance(summary, dict)
    assert [s["name"] for s in summary["systems"]] == ["reversed", "good"]
    assert summary["baseline"] == "reversed"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--scheduler", "local"], "no --scheduler"),
        (["--baseline", "nobody"], "--baseline: 'nobody' is not one of"),
        (["--n-samples", "0"], "--n-samples: 0 resample(s) cannot give"),
        (["--confidence", "1.5"], "--confidence: 1.5 is invalid"),
    ],
)
def test_refused_options(
    tmp_path: Path, extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Refused before any input is read: a missing file would be a data error (exit 1)."""
    out = tmp_path / "r.html"
    missing = str(tmp_path / "no-such-file.txt")
    assert main(["report", "--hyp", missing, "--ref", missing, "-o", str(out), *extra]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_output_is_checked_before_scoring(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder as output is a usage error even when the input would fail later."""
    missing = str(tmp_path / "no-such-file.txt")
    assert main(["report", "--hyp", missing, "--ref", missing, "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"meteor-eval report: error: --output: {tmp_path} is a folder; give a file name, "
        "e.g. report.html\n"
    )
    assert main(["report", "--example", "-o", str(tmp_path / "nowhere" / "r.html")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_unreadable_input_is_a_data_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.html"
    missing = str(tmp_path / "no-such-file.txt")
    assert main(["report", "--hyp", missing, "--ref", REF, "-o", str(out)]) == 1
    assert "no-such-file.txt" in capsys.readouterr().err
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []  # no temporary file left behind


def test_empty_input_is_a_data_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    out = tmp_path / "r.html"
    assert main(["report", "--hyp", str(empty), "--ref", str(empty), "-o", str(out)]) == 1
    assert "nothing to report: the systems have no segment" in capsys.readouterr().err
    assert not out.exists()


def test_missing_extra_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    assert main(["report", "--example", "-o", str(tmp_path / "r.html")]) == 2
    assert capsys.readouterr().err == (
        "meteor-eval report: error: the HTML report needs matplotlib: "
        "pip install 'meteor-eval[report]'\n"
    )


def test_report_is_listed_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "report" in capsys.readouterr().out
