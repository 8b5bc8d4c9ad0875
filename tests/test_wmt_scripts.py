"""The scripts that turn WMT human judgements into ``meteor-eval train`` input, and the checks
of whether those judgements rank segments: run on small hand-made copies of the repositories'
layouts (plain directories; the scripts read bare git directories the same way)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

# scripts/ is on the path (tests/conftest.py)
import da_order
import judgement_checks
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts"


def _run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *map(str, args)], capture_output=True, text=True, cwd=ROOT, check=False
    )


def _write(root: Path, name: str, text: str) -> None:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def news(tmp_path: Path) -> tuple[Path, Path]:
    """An MQM copy with newstest2021 scores and a wmt21-news-systems copy with two outputs."""
    mqm, systems = tmp_path / "mqm", tmp_path / "systems"
    _write(
        mqm,
        "newstest2021/zhen/mqm_newstest2021_zhen.avg_seg_scores.tsv",
        "system mqm_avg_score seg_id\n"
        "SysA\tNone 1\nSysA\t-5.000000 2\nSysA\t-0.500000 3\n"
        "SysB\t-25.000000 2\nSysB\tNone 3\n"
        "ref-A\t-1.000000 2\n"
        "metricsystem1\t-3.000000 2\n",
    )
    _write(systems, "txt/references/newstest2021.zh-en.ref.A.en", "r1\nr2\nr3\n")
    _write(systems, "txt/system-outputs/newstest2021.zh-en.hyp.SysA.en", "a1\na2\na3\n")
    _write(systems, "txt/system-outputs/newstest2021.zh-en.hyp.SysB.en", "b1\nb2\nb3\n")
    return mqm, systems


def test_mqm_news_records_join_scores_to_output_lines(
    news: tuple[Path, Path], tmp_path: Path
) -> None:
    mqm, systems = news
    out = tmp_path / "news.jsonl"
    done = _prepare_news(mqm, systems, out)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    got = [(r["system"], r["seg_id"], r["hyp"], r["ref"], r["human"]) for r in records]
    # None rows are not annotated; ref-A is a human translation; metricsystem1 has no file.
    assert got == [
        ("SysA", 2, "a2", "r2", -5.0),
        ("SysA", 3, "a3", "r3", -0.5),
        ("SysB", 2, "b2", "r2", -25.0),
    ]
    assert {(r["year"], r["lp"], r["set"], r["judgements"]) for r in records} == {
        (2021, "zh-en", "newstest2021", 1)
    }
    assert "metricsystem1: no output file" in done.stderr
    assert "3 records, 2 systems" in done.stderr


NEWS_SCORES = "newstest2021/zhen/mqm_newstest2021_zhen.avg_seg_scores.tsv"


def _prepare_news(mqm: Path, systems: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return _run(
        SCRIPTS / "prepare_wmt_mqm.py",
        *("--mqm", mqm, "--systems", systems, "--set", "newstest2021", "--out", out),
    )


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("SysB\t-1.0 4\n", "segment 4 outside 1..3"),
        ("SysA\t-2.0 2\n", f"{NEWS_SCORES}:9: SysA segment 2 listed twice"),
        ("SysA\tbad 2\n", f"{NEWS_SCORES}:9: not a score and segment id"),
    ],
)
def test_mqm_news_refuses_bad_score_rows(
    news: tuple[Path, Path], tmp_path: Path, row: str, message: str
) -> None:
    mqm, systems = news
    with (mqm / NEWS_SCORES).open("a") as fh:
        fh.write(row)
    done = _prepare_news(mqm, systems, tmp_path / "x.jsonl")
    assert done.returncode == 1
    assert message in done.stderr


TED_HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"


def _ted(root: Path, rows: list[str], scores: str) -> Path:
    _write(root, "ted/zhen/mqm_ted_zhen.tsv", TED_HEADER + "".join(rows))
    _write(
        root, "ted/zhen/mqm_ted_zhen.avg_seg_scores.tsv", "system mqm_avg_score seg_id\n" + scores
    )
    return root


def test_mqm_ted_records_strip_marks_and_use_refb(tmp_path: Path) -> None:
    mqm = _ted(
        tmp_path / "mqm",
        [
            "SysA\ttalk.1\t1\t7\trater1\t源\tI <v>want</v> you\tStyle\tMinor\n",
            "SysA\ttalk.1\t1\t7\trater2\t源\tI want <v>you</v>\tAccuracy\tMajor\n",
            "refB\ttalk.1\t1\t7\trater1\t源\tI would like you\tNo-error\tNo-error\n",
            "ref\ttalk.1\t1\t7\trater1\t源\tI wish you\tNo-error\tNo-error\n",
        ],
        "SysA\t-3.5 7\nref-A\t-9.0 7\nref-B\t0.0 7\nSysA\tNone 8\n",
    )
    out = tmp_path / "ted.jsonl"
    done = _run(SCRIPTS / "prepare_wmt_mqm.py", "--mqm", mqm, "--set", "ted", "--out", out)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [
        (r["system"], r["seg_id"], r["hyp"], r["ref"], r["human"], r["set"]) for r in records
    ] == [("SysA", 7, "I want you", "I would like you", -3.5, "ted")]


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (
            [
                "SysA\ttalk.1\t1\t7\trater1\t源\tI want you\tStyle\tMinor\n",
                "SysA\ttalk.1\t1\t7\trater2\t源\tI need you\tStyle\tMinor\n",
            ],
            "mqm_ted_zhen.tsv:3: SysA segment 7 has two texts",
        ),
        (
            ["refB\ttalk.1\t1\t7\trater1\t源\tI would like you\tNo-error\tNo-error\n"],
            "SysA segment 7: no text of SysA",
        ),
    ],
)
def test_mqm_ted_refuses_inconsistent_files(tmp_path: Path, rows: list[str], message: str) -> None:
    mqm = _ted(tmp_path / "mqm", rows, "SysA\t-3.5 7\n")
    done = _run(
        SCRIPTS / "prepare_wmt_mqm.py", *("--mqm", mqm, "--set", "ted", "--out", tmp_path / "x")
    )
    assert done.returncode == 1
    assert message in done.stderr


def test_mqm_set_options_are_checked(tmp_path: Path) -> None:
    script = SCRIPTS / "prepare_wmt_mqm.py"
    done = _run(script, *("--mqm", tmp_path, "--set", "newstest2021", "--out", tmp_path / "x"))
    assert done.returncode == 2 and "needs --systems" in done.stderr
    done = _run(
        script, *("--mqm", tmp_path, "--systems", tmp_path, "--set", "ted", "--out", tmp_path)
    )
    assert done.returncode == 2 and "drop --systems" in done.stderr


def _rec(system: str, seg: int, hyp: str, human: float, ref: str = "the cat sat") -> dict[str, Any]:
    return {"lp": "zh-en", "system": system, "seg_id": seg, "hyp": hyp, "ref": ref, "human": human}


def test_identical_translation_gaps_by_hand() -> None:
    checks = judgement_checks
    records = [
        _rec("A", 1, "x y", 1.0),
        _rec("B", 1, "x y ", 0.5),
        _rec("C", 1, "z", -1.0),
        _rec("A", 2, "u", 3.0),
        _rec("B", 2, "v", 2.0),
    ]
    n_same, same, n_diff, diff, rand = checks.identical_translations(records)
    # segment 1: A-B same text (gap 0.5), A-C 2.0 and B-C 1.5 different; segment 2: 1.0
    assert (n_same, same, n_diff) == (1, 0.5, 3)
    assert diff == pytest.approx((2.0 + 1.5 + 1.0) / 3)
    # random pairs from different segments: gaps among {1,0.5,-1} x {3,2}
    assert 1.0 <= rand <= 4.0
    # every pair across segments 10 apart: the random gap is exactly 10, whatever is drawn
    apart = [_rec("A", 1, "x", 0.0), _rec("B", 1, "y", 0.0), _rec("A", 2, "x", 10.0)]
    assert checks.identical_translations(apart)[4] == 10.0


def test_shifted_chrf_peaks_where_the_scores_belong() -> None:
    pytest.importorskip("sacrebleu")
    from sacrebleu.metrics import CHRF

    checks = judgement_checks
    hyps = [
        "the cat sat",
        "a dog ran far",
        "the cat",
        "birds fly south",
        "the cat sat down",
        "nothing here",
        "cat",
        "the the the",
    ]
    chrf = CHRF()
    records = [
        _rec("A", i + 1, h, chrf.sentence_score(h, ["the cat sat"]).score)
        for i, h in enumerate(hyps)
    ]
    result = checks.shifted_chrf(records, 1)
    assert result[0] == (8, pytest.approx(1.0))
    assert result[1][0] == 7 and result[-1][0] == 7
    assert result[1][1] < 0.9 and result[-1][1] < 0.9


def test_da_order_sorts_documents_by_id_as_text(tmp_path: Path) -> None:
    order = da_order
    xml = tmp_path / "test.xml"
    xml.write_text(
        '<dataset id="t"><doc origlang="is" id="text_5"><src lang="is"><p>'
        '<seg id="1">a1</seg><seg id="2">a2</seg></p></src>'
        '<ref lang="en"><p><seg id="1">A1</seg><seg id="2">A2</seg></p></ref></doc>'
        '<doc origlang="is" id="text_31"><src lang="is"><p><seg id="1">b1</seg></p></src></doc>'
        '<doc origlang="is" id="text_105"><src lang="is"><p>'
        '<seg id="1">c1</seg><seg id="2">c2</seg><seg id="3">c3</seg></p></src></doc>'
        "</dataset>",
        encoding="utf-8",
    )
    docs = order.read_docs(xml)
    assert [(d["doc_id"], d["segments"], d["src1"]) for d in docs] == [
        ("text_5", 2, "a1"),
        ("text_31", 1, "b1"),
        ("text_105", 3, "c1"),
    ]
    sources = ["a1", "a2", "b1", "c1", "c2", "c3"]
    starts = order.place(docs, sources, [])
    assert starts == [0, 2, 3]
    # as text, "text_105" < "text_31" < "text_5": SIDs 1-3 are c1-c3 (lines 4-6), SID 4 is
    # b1 (line 3), SIDs 5-6 are a1-a2 (lines 1-2)
    assert order.sid_order(docs, starts) == [4, 5, 6, 3, 1, 2]


def test_da_order_places_repeated_first_segments_by_the_second() -> None:
    order = da_order
    docs = [
        {"doc_id": "d2", "segments": 2, "src1": "News", "src2": "y"},
        {"doc_id": "d1", "segments": 2, "src1": "News", "src2": "x"},
    ]
    assert order.place(docs, ["News", "x", "News", "y"], []) == [2, 0]
    # an empty document has no line and no SID; a first segment copied with a look-alike
    # character is found by its closest free line
    docs = [
        {"doc_id": "e", "segments": 0, "src1": ""},
        {"doc_id": "f", "segments": 1, "src1": "Klimat i gostinnist"},
    ]
    starts = order.place(docs, ["Klimat і gostinnist"], [])
    assert order.sid_order(docs, starts) == [1]
    docs = [{"doc_id": "d1", "segments": 2, "ref1_prefix": "The cat"}]
    assert order.place(docs, ["s1", "s2"], [["Other", "z"], ["The cat sat", "z"]]) == [0]


def test_da_order_refuses_documents_that_do_not_cover_the_text() -> None:
    order = da_order
    with pytest.raises(SystemExit, match="cover 1 of 2 text lines"):
        order.place([{"doc_id": "d", "segments": 1, "src1": "a"}], ["a", "b"], [])
    with pytest.raises(SystemExit, match="document d: its first segment is not in the text"):
        order.place([{"doc_id": "d", "segments": 1, "src1": "zz"}], ["a"], [])


def test_prepare_wmt_da_pairs_scores_through_the_order(tmp_path: Path) -> None:
    repo = tmp_path / "wmt21"
    _write(
        repo,
        "humaneval/newstest2021-toen/ad-seg-scores-is-en.csv",
        "SYS SID RAW.SCR Z.SCR N\nSysA.1 1 80 0.5 1\nSysA.1 3 20 -1.5 2\n",
    )
    _write(repo, "txt/references/newstest2021.is-en.ref.A.en", "r1\nr2\nr3\n")
    _write(repo, "txt/system-outputs/newstest2021.is-en.hyp.SysA.en", "h1\nh2\nh3\n")
    order = tmp_path / "order.json"
    order.write_text(json.dumps({"2021 is-en": {"order": [3, 1, 2]}}))
    out = tmp_path / "da.jsonl"
    done = _run(SCRIPTS / "prepare_wmt_da.py", "--repo", repo, "--order", order, "--out", out)
    assert done.returncode == 0, done.stderr
    got = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["sid"], r["seg_id"], r["hyp"], r["ref"], r["human"]) for r in got] == [
        (1, 3, "h3", "r3", 0.5),
        (3, 2, "h2", "r2", -1.5),
    ]
    done = _run(SCRIPTS / "prepare_wmt_da.py", "--repo", repo, "--out", out)
    assert done.returncode == 0 and "paired by line (no --order)" in done.stderr
    assert [json.loads(line)["hyp"] for line in out.read_text().splitlines()] == ["h1", "h3"]


def test_self_agreement_pairs_repeats_with_first_judgements(tmp_path: Path) -> None:
    checks = judgement_checks
    header = "\t".join(
        "HITId WorkerId Input.src Input.trg Input.item hit sys_id rid type sid score time".split()
    )
    rows = [
        "H1\tW1\tde\ten\tad\t1\tA.1\t9\tSYSTEM\t5\t0.5\t10",
        "H1\tW1\tde\ten\tad\t1\tA.1\t9\tREPEAT\t5\t0.7\t10",
        "H1\tW1\tde\ten\tad\t1\tB.2\t9\tSYSTEM\t6\t-1.0\t10",
        "H1\tW1\tde\ten\tad\t1\tB.2\t9\tREPEAT\t6\t-0.8\t10",
        "H1\tW1\tde\ten\tad\t1\tC.3\t9\tSYSTEM\t7\t1.0\t10",
        "H1\tW1\tde\ten\tad\t1\tC.3\t9\tREPEAT\t7\t0.9\t10",
        "H1\tW1\tde\ten\tad\t1\tC.3\t9\tREF\t7\t2.0\t10",
        "H2\tW2\tde\ten\tad\t2\tC.3\t9\tREPEAT\t7\t-3.0\t10",  # no first judgement: unpaired
    ]
    path = tmp_path / "ad-deen-good-stnd.csv"
    path.write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    count, r = checks.self_agreement(path)
    assert count == 3
    assert r == pytest.approx(float(np.corrcoef([0.5, -1.0, 1.0], [0.7, -0.8, 0.9])[0, 1]))


def test_agreement_of_two_judgement_files_on_shared_translations() -> None:
    checks = judgement_checks
    crowd = [_rec("A", 1, "x", 0.1), _rec("A", 2, "y", 0.4), _rec("B", 1, "z", 0.2)]
    crowd.append(_rec("C", 9, "w", 5.0))  # not judged by the experts: left out
    experts = [_rec("A", 1, "x", -3.0), _rec("A", 2, "y", -1.0), _rec("B", 1, "z", -2.5)]
    count, r = checks.agreement(crowd, experts)
    assert count == 3
    assert r == pytest.approx(float(np.corrcoef([0.1, 0.4, 0.2], [-3.0, -1.0, -2.5])[0, 1]))


def _order_repo(root: Path) -> Path:
    """A wmt21 copy of six lines in two documents whose scores follow the sorted-id order."""
    from sacrebleu.metrics import CHRF

    refs = ["the cat sat", "a dog ran", "birds fly", "fish swim", "cows moo", "bees buzz"]
    hyps = {
        "SysA": ["the cat sat", "a dog", "fly", "fish swim fast", "cow", "bees buzz"],
        "SysB": ["cat", "a dog ran", "birds fly", "fish", "cows moo", "bee"],
    }
    _write(root, "txt/sources/newstest2021.is-en.src.is", "".join(f"s{i}\n" for i in range(6)))
    _write(root, "txt/references/newstest2021.is-en.ref.A.en", "\n".join(refs) + "\n")
    for name, lines in hyps.items():
        _write(
            root, f"txt/system-outputs/newstest2021.is-en.hyp.{name}.en", "\n".join(lines) + "\n"
        )
    # the evaluation's numbering: document "a" (lines 4-6) first, then "b" (lines 1-3)
    line_of_sid = [4, 5, 6, 1, 2, 3]
    chrf = CHRF()
    rows = ["SYS SID RAW.SCR Z.SCR N"]
    for name, lines in hyps.items():
        for sid, line in enumerate(line_of_sid, start=1):
            z = chrf.sentence_score(lines[line - 1], [refs[line - 1]]).score / 100
            rows.append(f"{name}.1 {sid} 50 {z:.6f} 1")
    _write(root, "humaneval/newstest2021-toen/ad-seg-scores-is-en.csv", "\n".join(rows) + "\n")
    return root


def _docs_jsonl(*docs: tuple[str, str]) -> str:
    """Three-segment documents (id, first source segment), one JSON object a line."""
    return "".join(json.dumps({"doc_id": d, "segments": 3, "src1": s}) + "\n" for d, s in docs)


def test_da_order_writes_an_order_that_pairs_better_and_refuses_one_that_does_not(
    tmp_path: Path,
) -> None:
    pytest.importorskip("sacrebleu")
    repo = _order_repo(tmp_path / "wmt21")
    docs = tmp_path / "docs.jsonl"
    docs.write_text(_docs_jsonl(("b", "s0"), ("a", "s3")))
    out = tmp_path / "order.json"
    args = ("--repo", repo, "--year", "2021", "--pair", "is-en", "--out", out)
    done = _run(SCRIPTS / "da_order.py", *args, "--docs", docs)
    assert done.returncode == 0, done.stderr
    written = json.loads(out.read_text())["2021 is-en"]
    assert written["order"] == [4, 5, 6, 1, 2, 3]
    assert written["r_by_order"] == pytest.approx(1.0)
    # ids that sort in file order: the order is the lines, which pair no better: refused
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text(_docs_jsonl(("a", "s0"), ("b", "s3")))
    out.unlink()
    done = _run(SCRIPTS / "da_order.py", *args, "--docs", wrong)
    assert done.returncode == 1
    assert "does not pair the scores better than the lines do" in done.stderr
    assert not out.exists()
    done = _run(SCRIPTS / "da_order.py", *args, "--docs", wrong, "--no-check")
    assert done.returncode == 0
    assert json.loads(out.read_text())["2021 is-en"]["order"] == [1, 2, 3, 4, 5, 6]


def test_da_order_names_bad_document_lines(tmp_path: Path) -> None:
    order = da_order
    docs = tmp_path / "docs.jsonl"
    docs.write_text('{"doc_id": "a", "segments": 1}\n{"doc_id": "b"}\n')
    with pytest.raises(SystemExit, match=r"docs.jsonl:2: needs doc_id and segments"):
        order.read_docs(docs)
    docs.write_text('{"doc_id": "a", "segments": 1}\nnot json\n')
    with pytest.raises(SystemExit, match=r"docs.jsonl:2: not JSON"):
        order.read_docs(docs)
    docs.write_text('{"doc_id": "a", "segments": 1, "collection": "general"}\n')
    with pytest.raises(SystemExit, match="no document of collection 'news'"):
        order.read_docs(docs, "news")
