"""One request, one result: ``compare()`` and the command line run the same request through
``comparison.run`` and give identical numbers for every metric, at corpus and sentence level,
with and without significance, in one process, in ``jobs=2`` processes and on Dask.

Also the drift that prompted the request object: sentence-level BLEU of "hello there" against
"hello there friend" is sacrebleu's ``sentence_bleu`` (effective order) through both paths.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from meteor_eval import compare
from meteor_eval.cli import main
from meteor_eval.comparison import Request, Systems, run

HYPS = {
    "A": [
        "the cat sat on the mat",
        "a dog barked at the mailman",
        "hello there",
        "it is raining today in london",
        "the quick brown fox jumps",
        "we walked home",
    ],
    "B": [
        "a cat is on the mat",
        "the dog barks",
        "hello there friend",
        "rain falls in london today",
        "a fast brown fox jumped over",
        "they walked home slowly",
    ],
}
REFS = [
    ["the cat sat on the mat", "there is a cat on the mat"],
    ["a dog barked at the postman", "the dog was barking"],
    ["hello there friend", "hi there"],
    ["it rains in london today", "today it is raining in london"],
    ["the quick brown fox jumped", "a quick brown fox jumps"],
    ["we walked back home", "they went home"],
]
COMMANDS = {"meteor": "score", "bleu": "bleu", "rouge": "rouge"}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("request")
    out: dict[str, str] = {}
    for name, lines in [*HYPS.items(), *((f"ref{k}", [r[k] for r in REFS]) for k in range(2))]:
        path = folder / name
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        out[name] = str(path)
    return out


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    pytest.importorskip("distributed")
    from meteor_eval.distributed import connect

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        client, close = connect("local:1")
    try:
        yield str(client.scheduler.address)
    finally:
        close()


def _cli(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    assert main(argv) == 0
    payload: dict[str, Any] = json.loads(capsys.readouterr().out)
    return payload


Both = Callable[..., tuple[dict[str, Any], dict[str, Any]]]


@pytest.fixture
def both(capsys: pytest.CaptureFixture[str], files: dict[str, str]) -> Both:
    """``both(metric, segment_level=..., paired=..., engine=...)``: the JSON of one request
    from ``compare()`` and from the command line, over the systems A and B of ``files``."""

    def run_both(
        metric: str, *, segment_level: bool, paired: bool, engine: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        api = compare(
            HYPS,
            REFS,
            metrics=[metric],
            segment_level=segment_level,
            paired="bs" if paired else None,
            n_samples=200 if paired else None,
            **engine,
        ).to_dict()
        argv = [COMMANDS[metric], "--hyp", files["A"], files["B"], "--names", "A,B"]
        argv += ["--ref", files["ref0"], "--ref", files["ref1"], "--format", "json"]
        argv.append("--no-progress")
        if segment_level:
            argv.append("--sentence-level")
        if paired:
            argv += ["--paired-bs", "--n-samples", "200"]
        if engine.get("jobs", 1) != 1:
            argv += ["--jobs", str(engine["jobs"])]
        if engine.get("scheduler"):
            argv += ["--scheduler", engine["scheduler"]]
        return api, _cli(capsys, argv)

    return run_both


def _headline(payload: dict[str, Any], metric: str) -> list[float]:
    """The systems' headline numbers (so that a test fails loudly on an empty payload)."""
    key = {"meteor": "meteor", "bleu": "bleu", "rouge": "rouge1"}[metric]
    return [system[key]["score"] for system in payload["systems"]]


@pytest.mark.parametrize("metric", ["meteor", "bleu", "rouge"])
@pytest.mark.parametrize("segment_level", [False, True])
@pytest.mark.parametrize("paired", [False, True])
def test_api_and_cli_identical_in_one_process(
    both: Both, metric: str, segment_level: bool, paired: bool
) -> None:
    api, cli = both(metric, segment_level=segment_level, paired=paired, engine={})
    assert api == cli
    assert all(value > 0 for value in _headline(api, metric))
    assert ("segments" in api["systems"][0]) is segment_level
    assert ("test" in api) is paired


@pytest.mark.parametrize("parallel", ["two processes", "dask"])
@pytest.mark.parametrize("metric", ["meteor", "bleu", "rouge"])
@pytest.mark.parametrize(("segment_level", "paired"), [(False, False), (True, True)])
def test_api_and_cli_identical_on_a_parallel_engine(
    request: pytest.FixtureRequest,
    both: Both,
    parallel: str,
    metric: str,
    segment_level: bool,
    paired: bool,
) -> None:
    """``jobs=2`` or a Dask scheduler (the ``scheduler`` fixture, skipped without Dask): the
    library and the command line agree, and with the serial run."""
    if parallel == "dask":
        engine: dict[str, Any] = {"scheduler": request.getfixturevalue("scheduler")}
    else:
        engine = {"jobs": 2}
    options: dict[str, Any] = {"segment_level": segment_level, "paired": paired}
    api, cli = both(metric, **options, engine=engine)
    serial, _ = both(metric, **options, engine={})
    assert api == cli == serial


def test_segment_level_bleu_has_effective_order_in_both(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sacrebleu = (
        60.653065971263345  # sacrebleu 2.x sentence_bleu("hello there", ["hello there friend"])
    )
    api = compare(
        {"A": ["hello there"]}, [["hello there friend"]], metrics=["bleu"], segment_level=True
    ).to_dict()
    (tmp_path / "h").write_text("hello there\n", encoding="utf-8")
    (tmp_path / "r").write_text("hello there friend\n", encoding="utf-8")
    argv = ["bleu", "--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r")]
    cli = _cli(capsys, [*argv, "--names", "A", "--sentence-level", "--format", "json"])
    assert api == cli
    assert api["systems"][0]["segments"][0]["bleu"]["score"] == pytest.approx(sacrebleu, abs=1e-9)
    assert api["systems"][0]["bleu"]["score"] == 0.0  # corpus BLEU keeps sacrebleu's rule


def test_request_writes_the_side_files_the_cli_writes(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], tmp_path: Path
) -> None:
    from meteor_eval.metrics.meteor import Meteor

    api_files = [str(tmp_path / f"api{k}.stats") for k in range(2)]
    api_align = [str(tmp_path / f"api{k}.jsonl") for k in range(2)]
    request = Request(
        Systems.from_lists(HYPS, REFS),
        [Meteor()],
        stats_files=api_files,
        alignment_files=api_align,
    )
    result = run(request)
    assert result.runs["A"]["meteor"].segments is None  # kept only to write the alignments
    cli_files = [str(tmp_path / f"cli{k}.stats") for k in range(2)]
    cli_align = [str(tmp_path / f"cli{k}.jsonl") for k in range(2)]
    argv = ["score", "--hyp", files["A"], files["B"], "--names", "A,B", "--ref", files["ref0"]]
    argv += ["--ref", files["ref1"], "--format", "json", "--stats", *cli_files]
    _cli(capsys, [*argv, "--alignments", *cli_align])
    for ours, theirs in zip(api_files + api_align, cli_files + cli_align, strict=True):
        assert Path(ours).read_text(encoding="utf-8") == Path(theirs).read_text(encoding="utf-8")
    assert len(Path(api_align[0]).read_text(encoding="utf-8").splitlines()) == len(REFS)
    reread = _cli(capsys, ["score", "--from-stats", *cli_files, "--format", "json"])
    assert reread["systems"] == result.to_dict()["systems"]
