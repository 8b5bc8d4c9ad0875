"""23-field statistics equal the METEOR 1.5 jar's ``-stdio`` answers on ambiguous pairs.

Golden files (``golden/stdio``, made by ``scripts/make_stdio_differential.py``; commands in its
README): ``meteor-1.5.jar`` from PyPI pycocoevalcap 1.2 on OpenJDK 17.0.15, one process per
configuration, fed ``SCORE ||| ref_1 ||| ... ||| ref_n ||| hyp`` lines::

    java -Xmx2G -jar meteor-1.5.jar - - -stdio -l en -norm -x B     (B = 1, 3, 40)
    java -Xmx2G -jar meteor-1.5.jar - - -stdio -l en -x 40

``generated.json.gz`` holds 4,050 seeded, deliberately ambiguous pairs (repeated words,
inflections, synonyms, paraphrase-table phrases in both directions, shuffles, empty sides,
several references, capitalisation and punctuation); ``edge.json.gz`` the spec's edge cases
E1-E45 except E36 (its text contains ``|||``). All four English modules run. Every row, formatted
as the jar prints it, must be identical: zero differences.

The golden comparison needs only the English paraphrase table (shipped with pycocoevalcap); the
live check, which also needs Java, re-runs the jar on a subset and is marked slow (about 30 s:
each jar process spends about 10 s loading the paraphrase table).
"""

from __future__ import annotations

import gzip
import json
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from meteor_eval.errors import ResourceError
from meteor_eval.javafmt import java_double
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.resources.paraphrases import find_paraphrase_table

CONFIGS = ("norm-x1", "norm-x3", "norm-x40", "none-x40")
KINDS = {
    "tiny",
    "inflect",
    "synonym",
    "paraphrase",
    "dense",
    "shuffle",
    "multiref",
    "casepunct",
    "empty",
    "identical",
    "long",
}
LIVE_PAIRS = 300
SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec" / "meteor-1.5.md"


def _load(golden_dir: Path, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        gzip.decompress((golden_dir / "stdio" / name).read_bytes()).decode("utf-8")
    )
    return data


@pytest.fixture(scope="module")
def generated(golden_dir: Path) -> dict[str, Any]:
    return _load(golden_dir, "generated.json.gz")


@pytest.fixture(scope="module")
def edge(golden_dir: Path) -> dict[str, Any]:
    return _load(golden_dir, "edge.json.gz")


@cache
def _scorer(normalization: str, beam: int) -> Meteor:
    config = MeteorConfig.preset("meteor15", normalization=normalization, beam=beam)  # type: ignore[arg-type]
    return Meteor(config)


@pytest.fixture(scope="module")
def scorers(generated: dict[str, Any]) -> dict[str, Meteor]:
    """One scorer per configuration (all four English modules)."""
    try:
        find_paraphrase_table("en")
    except ResourceError:
        pytest.skip("no English paraphrase table installed")
    return {
        name: _scorer(cfg["normalization"], cfg["beam"])
        for name, cfg in generated["configs"].items()
    }


def our_row(meteor: Meteor, refs: list[str], hyp: str) -> str:
    """Our statistics line for one SCORE command, printed as the jar prints it."""
    stats, _, _ = meteor.segment_stats(hyp, refs)
    return " ".join(java_double(float(x)) for x in stats.to_row())


def _edge_items(edge: dict[str, Any]) -> list[tuple[list[str], str]]:
    return [([c["reference"]], c["hypothesis"]) for c in edge["cases"]]


def _pair_items(generated: dict[str, Any]) -> list[tuple[list[str], str]]:
    return [(p["refs"], p["hyp"]) for p in generated["pairs"]]


def differences(
    meteor: Meteor, items: list[tuple[list[str], str]], expected: list[str]
) -> list[tuple[int, list[str], str, str, str]]:
    """(index, references, hypothesis, ours, jar) for every row that is not identical."""
    out = []
    for n, ((refs, hyp), row) in enumerate(zip(items, expected, strict=True)):
        ours = our_row(meteor, refs, hyp)
        if ours != row:
            out.append((n, refs, hyp, ours, row))
    return out


# -- golden ---------------------------------------------------------------------------------


def test_golden_covers_the_required_cases(generated: dict[str, Any], edge: dict[str, Any]) -> None:
    pairs = generated["pairs"]
    assert len(pairs) >= 3000
    assert {p["kind"] for p in pairs} == KINDS
    assert sorted({cfg["beam"] for cfg in generated["configs"].values()}) == [1, 3, 40]
    assert sum(len(p["refs"]) > 1 for p in pairs) >= 300
    assert sum(p["hyp"].strip() == "" for p in pairs) >= 30
    assert sum(any(r.strip() == "" for r in p["refs"]) for p in pairs) >= 30
    for name in CONFIGS:
        assert len(generated["rows"][name]) == len(pairs)
        assert len(edge["rows"][name]) == len(edge["cases"])
    ids = [c["id"] for c in edge["cases"]]
    assert ids == [f"E{n}" for n in range(1, 46) if n != 36]
    # The beam size matters on these pairs (so the comparison can tell beams apart).
    rows = generated["rows"]
    assert sum(a != b for a, b in zip(rows["norm-x1"], rows["norm-x40"], strict=True)) > 1000
    # Many pairs are aligned with paraphrase matches (stage 4, fields 17-18).
    assert sum(float(r.split()[16]) > 0 for r in rows["norm-x40"]) > 800


@pytest.mark.parametrize("name", CONFIGS)
def test_generated_pairs_equal_the_jar(
    name: str, generated: dict[str, Any], scorers: dict[str, Meteor]
) -> None:
    found = differences(scorers[name], _pair_items(generated), generated["rows"][name])
    assert found == []


@pytest.mark.parametrize("name", CONFIGS)
def test_edge_cases_equal_the_jar(
    name: str, edge: dict[str, Any], scorers: dict[str, Meteor]
) -> None:
    assert differences(scorers[name], _edge_items(edge), edge["rows"][name]) == []


def test_edge_norm_rows_equal_the_spec_table(edge: dict[str, Any]) -> None:
    """The stdio answers with ``-norm`` are the spec's section 8 statistics column."""
    if not SPEC.is_file():
        pytest.skip("../shared/spec is not available")
    table: dict[str, str] = {}
    for line in SPEC.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^\| (E\d+) \| ", line)
        if match:
            table[match.group(1)] = re.split(r"(?<!\\)\|", line)[-2].strip().strip("`")
    for case, row in zip(edge["cases"], edge["rows"]["norm-x40"], strict=True):
        assert (case["id"], row) == (case["id"], table[case["id"]])


def test_equal_scores_keep_the_first_reference(
    scorers: dict[str, Meteor],
) -> None:
    """Spec E47: four references that all score 0 keep the first one's statistics."""
    row = our_row(scorers["norm-x40"], ["ref one", "ref two", "a"], "b")
    assert row == "1.0 2.0 0.0 1.0" + " 0.0" * 19


# -- live -----------------------------------------------------------------------------------


def score_line(refs: list[str], hyp: str) -> str:
    """A stdio SCORE command; spaces around every field keep an empty last field present."""
    return "SCORE ||| " + " ||| ".join([*refs, hyp]) + " "


def run_stdio(jar: Path, command: str, lines: list[str]) -> list[str]:
    """The jar's answers to ``lines`` from one ``-stdio`` process."""
    options = command.split(" - - ", 1)[1].split()
    cmd = ["java", "-Xmx2G", "-jar", str(jar), "-", "-", *options]
    data = "".join(line + "\n" for line in lines).encode("utf-8")
    done = subprocess.run(cmd, input=data, capture_output=True, check=True, timeout=170)
    return done.stdout.decode("utf-8").splitlines()


@pytest.mark.slow
@pytest.mark.oracle
def test_live_jar_agrees_on_a_subset(
    generated: dict[str, Any], edge: dict[str, Any], scorers: dict[str, Meteor], live_jar: Path
) -> None:
    jar = live_jar
    pairs = generated["pairs"]
    step = len(pairs) // LIVE_PAIRS
    picked = list(range(0, len(pairs), step))[:LIVE_PAIRS]
    items = [_pair_items(generated)[n] for n in picked] + _edge_items(edge)
    lines = [score_line(refs, hyp) for refs, hyp in items]
    names = ("norm-x1", "norm-x3", "norm-x40")
    with ThreadPoolExecutor(max_workers=len(names)) as pool:
        answers = dict(
            zip(
                names,
                pool.map(lambda n: run_stdio(jar, generated["commands"][n], lines), names),
                strict=True,
            )
        )
    for name in names:
        golden = [generated["rows"][name][n] for n in picked] + edge["rows"][name]
        assert answers[name] == golden  # the golden file is still what the jar says
        assert differences(scorers[name], items, answers[name]) == []
