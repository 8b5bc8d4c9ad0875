"""Document mode: segments joined into documents (``meteor_eval.documents``), from the API
and the command line (``--doc-ids``, ``--doc-field``, ``--doc-separator``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meteor_eval.cli import main
from meteor_eval.documents import document_pairs, join_documents, read_doc_field, read_doc_ids
from meteor_eval.errors import InputError
from meteor_eval.metrics.bleu import Bleu
from meteor_eval.systems import Systems

HYPS = ["the cat sat .", "it purred .", "a dog barks .", "loudly ."]
REFS = [
    ["a cat sat .", "the cat sits ."],
    ["it purrs .", "it purred ."],
    ["dogs bark ."],
    ["loud ."],
]
IDS = ["d1", "d1", "d2", "d2"]


def test_join_rule_by_hand() -> None:
    docs = join_documents(HYPS[:2], [REFS[0], REFS[1]], ["x", "x"])
    assert docs.hypotheses == ["the cat sat . it purred ."]
    assert docs.references == [["a cat sat . it purrs .", "the cat sits . it purred ."]]
    assert docs.where(0) == "document 1 (id 'x', lines 1-2)"
    newline = join_documents(
        ["a", "b", "c"], [["x"], ["y"], ["z"]], ["1", "1", "2"], separator="\n"
    )
    assert newline.hypotheses == ["a\nb", "c"] and newline.references == [["x\ny"], ["z"]]
    assert newline.lines == [(1, 2), (3, 3)] and newline.where(1) == "document 2 (id '2', line 3)"


def test_systems_in_documents_are_new_systems_of_joined_pairs() -> None:
    systems = Systems.from_lists({"a": ["x y", "z", "w"], "b": ["1", "2", "3"]}, [["r"]] * 3)
    systems.errors = "replace"
    joined = systems.in_documents(["d1", "d1", "d2"], source="ids.txt")
    assert list(joined.pairs(0)) == [("x y z", ["r r"]), ("w", ["r"])]
    assert list(joined.pairs(1)) == [("1 2", ["r r"]), ("3", ["r"])]
    assert joined.documents is not None and joined.documents.ids == ["d1", "d2"]
    assert (joined.names, joined.sources, joined.errors) == (["a", "b"], [None, None], "replace")
    assert systems.documents is None  # the segments' systems are left as they were
    assert list(systems.pairs(0)) == [("x y", ["r"]), ("z", ["r"]), ("w", ["r"])]
    with pytest.raises(InputError, match=r"ids\.txt"):
        systems.in_documents(["d1"], source="ids.txt")  # checked against the first system


def test_document_errors_name_the_lines() -> None:
    with pytest.raises(
        InputError,
        match=r"^ids\.txt: line 3: document 'a' comes back after "
        r"other documents \(it ended at line 1\)",
    ):
        join_documents(["x", "y", "z"], [["r"]] * 3, ["a", "b", "a"], source="ids.txt")
    with pytest.raises(InputError, match="3 document ids for 2 segments"):
        join_documents(["x", "y"], [["r"]] * 2, ["a", "a", "b"])
    with pytest.raises(InputError, match=r"line 2: document 'a' has 2 references at line 1 but 1"):
        join_documents(["x", "y"], [["r", "s"], ["t"]], ["a", "a"])
    with pytest.raises(TypeError):
        join_documents(["x"], [["r"]], "a")


def test_read_ids_and_fields(tmp_path: Path) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text(" d1\nd1 \nd2\n", encoding="utf-8")
    assert read_doc_ids(ids) == ["d1", "d1", "d2"]
    ids.write_text("d1\n\nd2\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"ids\.txt: line 2: empty document id"):
        read_doc_ids(ids)
    table = tmp_path / "t.jsonl"
    table.write_text('{"doc": 7, "h": "a"}\n{"doc": "7", "h": "b"}\n{"h": "c"}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"t\.jsonl: line 3: no field 'doc'"):
        read_doc_field(table, "doc")


def test_documents_score_as_joined_segments_in_the_library() -> None:
    pairs, docs = document_pairs(zip(HYPS, REFS, strict=True), IDS)
    assert docs.ids == ["d1", "d2"] and len(pairs) == 2
    bleu = Bleu()
    direct = bleu.corpus_score(docs.hypotheses, docs.references)
    assert direct == bleu.corpus_score([p[0] for p in pairs], [list(p[1]) for p in pairs])
    # Not the segment-level score: the joined documents count n-grams across segment bounds.
    assert direct.score != bleu.corpus_score(HYPS, REFS).score


def _files(tmp_path: Path) -> tuple[Path, Path, Path]:
    hyp, ref, ids = tmp_path / "hyp.txt", tmp_path / "ref.txt", tmp_path / "ids.txt"
    hyp.write_text("\n".join(HYPS) + "\n", encoding="utf-8")
    ref.write_text("\n".join(r[0] for r in REFS) + "\n", encoding="utf-8")
    ids.write_text("\n".join(IDS) + "\n", encoding="utf-8")
    return hyp, ref, ids


def _inputs(hyp: Path, ref: Path, ids: Path) -> list[str]:
    """The options naming the files of :func:`_files`."""
    return ["--hyp", str(hyp), "--ref", str(ref), "--doc-ids", str(ids)]


@pytest.mark.parametrize("command", ["bleu", "rouge", "score"])
def test_cli_doc_ids_equal_the_library_on_joined_documents(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    hyp, ref, ids = _files(tmp_path)
    extra = ["--modules", "exact,stem"] if command == "score" else []
    status = main(
        [command, *_inputs(hyp, ref, ids), "--format", "json", "--sentence-level", *extra]
    )
    out, err = capsys.readouterr()
    assert status == 0, err
    assert "document mode: 2 documents of 4 segments" in err
    system = json.loads(out)["systems"][0]
    assert len(system["segments"]) == 2
    docs = join_documents(HYPS, [[r[0]] for r in REFS], IDS)
    if command == "bleu":
        expected = Bleu().corpus_score(docs.hypotheses, docs.references).score
        assert system["bleu"]["score"] == expected
    elif command == "rouge":
        from meteor_eval.metrics.rouge import Rouge

        expected = Rouge().corpus_score(docs.hypotheses, docs.references)["rouge1"].fmeasure
        assert system["rouge1"]["score"] == expected
    else:
        from meteor_eval import Meteor, MeteorConfig

        scorer = Meteor(MeteorConfig.preset("meteor15", modules=("exact", "stem")))
        assert (
            system["meteor"]["score"] == scorer.corpus_score(docs.hypotheses, docs.references).score
        )


def test_cli_doc_field_of_a_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = tmp_path / "t.jsonl"
    rows = [{"doc": d, "mt": h, "ref": r[0]} for d, h, r in zip(IDS, HYPS, REFS, strict=True)]
    table.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    status = main(
        [
            "bleu",
            "--input",
            str(table),
            "--hyp-field",
            "mt",
            "--ref-field",
            "ref",
            "--doc-field",
            "doc",
            "--format",
            "json",
        ]
    )
    out, err = capsys.readouterr()
    assert status == 0, err
    docs = join_documents(HYPS, [[r[0]] for r in REFS], IDS)
    assert (
        json.loads(out)["systems"][0]["bleu"]["score"]
        == Bleu().corpus_score(docs.hypotheses, docs.references).score
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--doc-field", "doc"], "--doc-field needs --input FILE"),
        (["--doc-separator", "newline"], "--doc-separator is for document mode"),
    ],
)
def test_cli_document_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    hyp, ref, _ = _files(tmp_path)
    assert main(["bleu", "--hyp", str(hyp), "--ref", str(ref), *options]) == 2
    assert message in capsys.readouterr().err


def test_cli_budget_error_in_document_mode_names_the_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, ref, ids = _files(tmp_path)
    # Document 1: rouge-score's tokens "the cat sat it purred" against "a cat sat it purrs":
    # 5 x 5 = 25 cells.
    status = main(
        ["rouge", *_inputs(hyp, ref, ids), "--types", "rougeL", "--work-budget", "rouge=24"]
    )
    err = capsys.readouterr().err
    assert status == 1
    assert f"{hyp}, document 1 (id 'd1', lines 1-2): ROUGE-L would take 25 LCS table cells" in err


@pytest.mark.oracle
def test_document_bleu_equals_sacrebleu_on_joined_documents(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The newstest2009 documents of the shared data (111 documents of 2,525 segments): the
    command line's document mode gives sacrebleu's corpus BLEU of the joined documents
    (23.090668073057277 with sacrebleu 2.x, kept here for runs without it)."""
    import html
    import re

    data = Path(__file__).resolve().parents[3] / "shared" / "data" / "meteor15"
    if not data.is_dir():
        pytest.skip("the shared newstest2009 data is not present")

    def read(name: str) -> list[tuple[str, str]]:
        text = (data / name).read_text(encoding="utf-8")
        out = []
        for doc in re.finditer(r'<doc [^>]*docid="([^"]+)"[^>]*>(.*?)</doc>', text, re.S):
            for seg in re.findall(r"<seg[^>]*>(.*?)</seg>", doc.group(2)):
                out.append((doc.group(1), html.unescape(seg).strip()))
        return out

    test, ref = read("newstest2009-test.sgm"), read("newstest2009-ref.sgm")
    hyp, refs, ids = tmp_path / "h.txt", tmp_path / "r.txt", tmp_path / "ids.txt"
    hyp.write_text("".join(s + "\n" for _, s in test), encoding="utf-8")
    refs.write_text("".join(s + "\n" for _, s in ref), encoding="utf-8")
    ids.write_text("".join(d + "\n" for d, _ in test), encoding="utf-8")
    status = main(
        ["bleu", "--hyp", str(hyp), "--ref", str(refs), "--doc-ids", str(ids), "--format", "json"]
    )
    out, err = capsys.readouterr()
    assert status == 0, err
    assert "111 documents of 2,525 segments" in err
    score = json.loads(out)["systems"][0]["bleu"]["score"]
    assert score == 23.090668073057277
    sacrebleu = pytest.importorskip("sacrebleu")
    docs = join_documents([s for _, s in test], [[s] for _, s in ref], [d for d, _ in test])
    assert score == sacrebleu.corpus_bleu(docs.hypotheses, [[r[0] for r in docs.references]]).score


def test_cli_documents_in_worker_processes_equal_one_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, ref, ids = _files(tmp_path)
    outputs = []
    for jobs in ("1", "2"):
        args = ["rouge", *_inputs(hyp, ref, ids)]
        status = main([*args, "--format", "json", "--sentence-level", "--jobs", jobs])
        out, err = capsys.readouterr()
        assert status == 0, err
        outputs.append(json.loads(out)["systems"])
    assert outputs[0] == outputs[1]
    assert len(outputs[0][0]["segments"]) == 2


def test_cli_documents_on_dask_equal_one_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Dask workers read --hyp/--ref files themselves only outside document mode: with
    --doc-ids they score the joined documents, as one process does (they used to score the
    file's lines, one result per segment)."""
    pytest.importorskip("distributed")
    hyp, ref, ids = _files(tmp_path)
    outputs = []
    for engine in ([], ["--scheduler", "local:1"]):
        args = ["bleu", *_inputs(hyp, ref, ids), *engine]
        status = main([*args, "--format", "json", "--sentence-level"])
        out, err = capsys.readouterr()
        assert status == 0, err
        outputs.append(json.loads(out)["systems"])
    assert outputs[0] == outputs[1]
    assert len(outputs[1][0]["segments"]) == 2
