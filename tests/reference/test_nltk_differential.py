"""NLTK's METEOR (``nltk.translate.meteor_score``) against ``meteor_eval.compat.nltk``.

Golden values (``golden/nltk/``, see its README) were computed with NLTK 3.10.4 by
``python scripts/make_nltk_golden.py``; NLTK's WordNet corpus was the folder
``scripts/make_nltk_wordnet_dir.py`` builds from Debian's ``wordnet-base`` (nothing downloaded).
The golden tests run without NLTK; the ``oracle`` tests repeat the comparison live when NLTK and
``/usr/share/wordnet`` are present. Contract: every score within 1e-12 of NLTK's (in practice
they are identical bit for bit, which is asserted as well).
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from meteor_eval.compat.nltk import meteor_score, single_meteor_score
from meteor_eval.metrics.meteor.nltk import NltkMeteor

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden" / "nltk"
XRAY = ROOT.parent / "shared" / "data" / "meteor15"
N_LINES = 2489
TOLERANCE = 1e-12


def load_gz(name: str) -> Any:
    return json.loads(gzip.decompress((GOLDEN / name).read_bytes()))


def xray_lines(name: str) -> list[str]:
    if not XRAY.is_dir():
        pytest.skip("../shared/data/meteor15 is not available")
    return (XRAY / name).read_text(encoding="utf-8").split("\n")[:N_LINES]


def max_difference(ours: list[float], theirs: list[float]) -> float:
    assert len(ours) == len(theirs)
    return max((abs(a - b) for a, b in zip(ours, theirs, strict=True)), default=0.0)


def xray_scores(system: str) -> list[float]:
    reference = xray_lines("xray-reference")
    hyps = xray_lines(f"xray-{system}.hyp")
    return [meteor_score([r.split()], h.split()) for h, r in zip(hyps, reference, strict=True)]


@pytest.mark.parametrize("system", ["system1", "system2"])
def test_xray_scores_equal_nltk_golden(system: str) -> None:
    golden = load_gz("xray.json.gz")[system]
    ours = xray_scores(system)
    assert max_difference(ours, golden) <= TOLERANCE
    assert ours == golden


def test_generated_pairs_equal_nltk_golden() -> None:
    pairs = load_gz("generated.json.gz")["pairs"]
    assert len(pairs) == 2000
    ours = [meteor_score(p["references"], p["hypothesis"]) for p in pairs]
    golden = [p["score"] for p in pairs]
    assert max_difference(ours, golden) <= TOLERANCE
    assert ours == golden


def test_generated_pairs_exercise_every_stage() -> None:
    scorer = NltkMeteor()
    totals = [0, 0, 0]
    for pair in load_gz("generated.json.gz")["pairs"]:
        stats, _k, _score = scorer.segment_stats(pair["hypothesis"], pair["references"])
        for stage in range(3):
            totals[stage] += stats.stages[stage][0]
    assert totals == [12407, 2849, 788]


def test_single_reference_function_equals_golden_on_first_reference() -> None:
    pairs = [p for p in load_gz("generated.json.gz")["pairs"] if len(p["references"]) == 1]
    for pair in pairs[:300]:
        assert single_meteor_score(pair["references"][0], pair["hypothesis"]) == pair["score"]


_NO_NLTK_SCRIPT = r"""
import gzip, json, sys
sys.modules["nltk"] = None  # any "import nltk" now raises ImportError
from meteor_eval.compat.nltk import meteor_score
from meteor_eval.compat import evaluate
golden = sys.argv[1]
pairs = json.loads(gzip.decompress(open(golden + "/generated.json.gz", "rb").read()))["pairs"]
drop = json.loads(gzip.decompress(open(golden + "/evaluate.json.gz", "rb").read()))["pairs"]
print(json.dumps({
    "generated": [meteor_score(p["references"], p["hypothesis"]) for p in pairs],
    "evaluate": evaluate.compute(predictions=[p["prediction"] for p in drop],
                                 references=[p["reference"] for p in drop])["meteor"],
    "nltk_loaded": any(name == "nltk" or name.startswith("nltk.")
                       for name, module in sys.modules.items() if module is not None),
}))
"""


def test_compat_gives_golden_numbers_without_nltk_or_its_data(tmp_path: Path) -> None:
    empty = tmp_path / "nltk_data"
    empty.mkdir()
    env = dict(os.environ, NLTK_DATA=str(empty), PYTHONPATH=str(ROOT / "src"))
    result = subprocess.run(
        [sys.executable, "-c", _NO_NLTK_SCRIPT, str(GOLDEN)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    output = json.loads(result.stdout)
    assert output["nltk_loaded"] is False
    assert output["generated"] == [p["score"] for p in load_gz("generated.json.gz")["pairs"]]
    assert output["evaluate"] == load_gz("evaluate.json.gz")["mean"]
    assert not list(empty.iterdir())


# -- live comparison with NLTK -----------------------------------------------------------------


@pytest.fixture(scope="module")
def nltk_meteor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """NLTK's ``meteor_score`` reading WordNet from a folder built from Debian's files."""
    if importlib.util.find_spec("nltk") is None:
        pytest.skip("nltk is not installed")
    if not Path("/usr/share/wordnet/data.noun").is_file():
        pytest.skip("Debian's wordnet-base is not installed")
    import nltk
    from make_nltk_wordnet_dir import make_nltk_wordnet_dir

    folder = make_nltk_wordnet_dir(tmp_path_factory.mktemp("nltk_wordnet"))
    nltk.data.path.insert(0, str(folder))
    from nltk.translate.meteor_score import meteor_score as theirs

    yield theirs
    nltk.data.path.remove(str(folder))


@pytest.mark.oracle
@pytest.mark.slow
@pytest.mark.parametrize("system", ["system1", "system2"])
def test_xray_scores_equal_live_nltk(nltk_meteor: Any, system: str) -> None:
    reference = xray_lines("xray-reference")
    hyps = xray_lines(f"xray-{system}.hyp")
    theirs = [nltk_meteor([r.split()], h.split()) for h, r in zip(hyps, reference, strict=True)]
    ours = xray_scores(system)
    assert max_difference(ours, theirs) <= TOLERANCE
    assert ours == theirs == load_gz("xray.json.gz")[system]


@pytest.mark.oracle
def test_generated_pairs_equal_live_nltk(nltk_meteor: Any) -> None:
    pairs = load_gz("generated.json.gz")["pairs"]
    theirs = [nltk_meteor(p["references"], p["hypothesis"]) for p in pairs]
    ours = [meteor_score(p["references"], p["hypothesis"]) for p in pairs]
    assert max_difference(ours, theirs) <= TOLERANCE
    assert ours == theirs


@pytest.mark.oracle
def test_non_default_parameters_and_preprocess_equal_live_nltk(nltk_meteor: Any) -> None:
    pairs = load_gz("generated.json.gz")["pairs"][:300]
    for alpha, beta, gamma, preprocess in ((0.5, 1.0, 0.3, str.lower), (0.8, 2, 0.9, str.strip)):
        for p in pairs:
            args = (p["references"], p["hypothesis"])
            kwargs = {"alpha": alpha, "beta": beta, "gamma": gamma, "preprocess": preprocess}
            assert meteor_score(*args, **kwargs) == nltk_meteor(*args, **kwargs)
