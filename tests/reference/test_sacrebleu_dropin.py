"""meteor_eval.compat.sacrebleu against sacrebleu 2.6.0: scores, score text, signatures, tests.

Goldens: golden/bleu/sacrebleu.json.gz (corpus BLEU for every tokenizer, smoothing, case and
effective order; sentence BLEU of 400 segments), golden/significance/sacrebleu.json (PairedTest
on the xray systems) and golden/dropins/peers.json.gz (the printed score, JSON and signatures,
a bootstrap; scripts/make_dropin_golden.py). With sacrebleu installed, the same comparisons also
run live. sacrebleu's own test files run against the drop-in in test_peer_suites.py.

Everything is compared exactly except the signature's version (the drop-in prints
``2.6.0+meteor-eval-<version>``), bootstrap means (sacrebleu averages the sorted resamples,
meteor-eval the unsorted ones: the last bit may differ) and the p-value of a system identical to
the baseline (meteor-eval: 1; sacrebleu: its minimum).
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from make_bleu_rouge_golden import datasets
from make_dropin_golden import BLEU_TEXT_CASES

import meteor_eval.compat.sacrebleu as sacrebleu
from meteor_eval.compat.sacrebleu.metrics import BLEU
from meteor_eval.compat.sacrebleu.metrics.base import SIGNATURE_VERSION
from meteor_eval.compat.sacrebleu.significance import PairedTest, Result, estimate_ci

GOLDEN = Path(__file__).parent / "golden"


@cache
def _load(path: str) -> Any:
    if path.endswith(".gz"):
        with gzip.open(GOLDEN / path, "rt", encoding="utf-8") as handle:
            return json.load(handle)
    return json.loads((GOLDEN / path).read_text(encoding="utf-8"))


@cache
def _streams(dataset: str) -> tuple[list[str], list[list[str | None]]]:
    hyps, refs = datasets(_load("bleu/inputs.json.gz"))[dataset]
    width = max(len(r) for r in refs)
    return hyps, [[r[k] if k < len(r) else None for r in refs] for k in range(width)]


def _ours(signature: str) -> str:
    """A sacrebleu signature with the drop-in's version."""
    head, _, _ = signature.rpartition("|")
    key = "version" if "version:" in signature else "v"
    return f"{head}|{key}:{SIGNATURE_VERSION}"


@pytest.mark.slow
@pytest.mark.parametrize("dataset", ["xray1-varrefs", "newstest2009"])
def test_corpus_bleu_equals_sacrebleu_golden(dataset: str) -> None:
    """Every setting: score, precisions, BP, lengths and signature, through sacrebleu's API.

    Two datasets: a variable number of references (``None`` in a stream) and newstest2009; the
    native metric's own tests cover the others, the drop-in only rearranges references.
    """
    hyps, streams = _streams(dataset)
    cases = [c for c in _load("bleu/sacrebleu.json.gz")["corpus"] if c["dataset"] == dataset]
    assert len(cases) == 120
    summed: dict[tuple[str, bool], tuple[list[int], Any]] = {}
    for case in cases:
        opts = case["options"]
        key = (opts["tokenize"], opts["lowercase"])
        if key not in summed:
            base = BLEU(tokenize=key[0], lowercase=key[1])
            stats = base._extract_corpus_statistics(hyps, streams)
            summed[key] = ([sum(c) for c in zip(*stats, strict=True)], base.num_refs)
        bleu = BLEU(**opts)
        bleu.num_refs = summed[key][1]
        score = bleu._compute_score_from_stats(list(summed[key][0]))
        assert score.score == case["score"], opts
        assert score.precisions == case["precisions"], opts
        assert (score.bp, score.sys_len, score.ref_len) == (
            case["bp"],
            case["sys_len"],
            case["ref_len"],
        )
        assert str(bleu.get_signature()) == _ours(case["signature"])
    # The function API too (effective order is called use_effective_order there).
    options = dict(cases[0]["options"])
    options["use_effective_order"] = options.pop("effective_order")
    assert sacrebleu.corpus_bleu(hyps, streams, **options).score == cases[0]["score"]


def test_sentence_bleu_equals_sacrebleu_golden() -> None:
    hyps, refs = datasets(_load("bleu/inputs.json.gz"))["xray1-2refs"]
    cases = [
        c for c in _load("bleu/sacrebleu.json.gz")["sentence"] if c["dataset"] == "xray1-2refs"
    ]
    assert cases
    for case in cases:
        bleu = BLEU(**case["options"])
        n = 100
        ours = [bleu.sentence_score(h, r).score for h, r in zip(hyps[:n], refs[:n], strict=True)]
        assert ours == case["scores"][:n], case["options"]


@pytest.mark.parametrize("k", range(len(BLEU_TEXT_CASES)))
def test_score_text_and_signatures_equal_sacrebleu(k: int) -> None:
    options, n_bootstrap = BLEU_TEXT_CASES[k]
    want = _load("dropins/peers.json.gz")["bleu_text"][k]
    data = _load("bleu/inputs.json.gz")
    bleu = BLEU(**options)
    score = bleu.corpus_score(data["xray-system1"], [data["xray-reference"]], n_bootstrap)
    signature = bleu.get_signature()
    assert str(signature) == _ours(want["signature"])
    assert signature.format(short=True) == _ours(want["short"])
    assert str(score) == want["str"]
    assert score.format(signature=str(signature)) == want["with_signature"].replace(
        want["signature"], str(signature)
    )
    assert score.format(width=4, score_only=True) == want["score_only"]
    ours_json = json.loads(score.format(signature=str(signature), is_json=True))
    theirs_json = json.loads(want["json"])
    assert ours_json.pop("version") == SIGNATURE_VERSION
    theirs_json.pop("version")
    ours_json.pop("signature")
    theirs_json.pop("signature")
    assert ours_json == theirs_json
    assert (score.counts, score.totals) == (want["counts"], want["totals"])


def test_sentence_score_text_equals_sacrebleu() -> None:
    data = _load("bleu/inputs.json.gz")
    for want in _load("dropins/peers.json.gz")["bleu_text"]:
        if "segment" not in want:
            continue
        i = want["segment"]
        bleu = BLEU(effective_order=True)
        score = bleu.sentence_score(data["xray-system1"][i], [data["xray-reference"][i]])
        assert str(score) == want["str"]
        assert str(bleu.get_signature()) == _ours(want["signature"])


def _paired(method: str) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    data = _load("bleu/inputs.json.gz")
    one, two = data["xray-system1"], data["xray-system2"]
    near = [b if k % 40 == 0 else a for k, (a, b) in enumerate(zip(one, two, strict=True))]
    named = [("system1", one), ("system2", two), ("near", near), ("copy", list(one))]
    test = PairedTest(
        named,
        {"BLEU": BLEU()},
        [data["xray-reference"]],
        test_type=method,
        n_samples=0,
        n_ar_confidence=0 if method == "ar" else -1,
    )
    return test()


@pytest.mark.parametrize("method", ["bs", "ar"])
def test_paired_test_equals_sacrebleu_golden(method: str) -> None:
    signatures, scores = _paired(method)
    expected = _load("significance/sacrebleu.json")["tests"][method]["systems"]
    assert scores["System"] == list(expected)
    for name, result in zip(scores["System"], scores["BLEU"], strict=True):
        want = expected[name]
        assert isinstance(result, Result)
        assert result.score == want["score"]
        assert result.ci == want["ci"]
        assert result.mean == pytest.approx(want["mean"], rel=1e-15, abs=0)
        if name == "copy":
            assert result.p_value == 1.0  # sacrebleu: 1 / (n + 1), ties not counted
            assert want["p_value"] == pytest.approx(1 / (1 + (1000 if method == "bs" else 10000)))
        else:
            assert result.p_value == want["p_value"]
    signature = str(signatures["BLEU"])
    want_sig = "nrefs:1|bs:1000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp"
    if method == "ar":
        want_sig = "nrefs:1|bs:1000|ar:10000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp"
    assert signature == f"{want_sig}|version:{SIGNATURE_VERSION}"


@pytest.mark.oracle
def test_everything_equals_live_sacrebleu() -> None:
    """Scores, text, bootstrap and a paired test against the installed sacrebleu."""
    real = pytest.importorskip("sacrebleu")
    from sacrebleu.significance import PairedTest as RealPairedTest

    hyps, streams = _streams("xray1-varrefs")
    hyps, streams = hyps[:600], [s[:600] for s in streams]
    for options in ({}, {"tokenize": "zh", "smooth_method": "add-k"}, {"lowercase": True}):
        ours = BLEU(**options).corpus_score(hyps, streams, n_bootstrap=100)
        theirs = real.metrics.BLEU(**options).corpus_score(hyps, streams, n_bootstrap=100)
        assert (ours.score, ours.counts, ours.totals) == (
            theirs.score,
            theirs.counts,
            theirs.totals,
        )
        assert ours._ci == theirs._ci
        assert ours._mean == pytest.approx(theirs._mean, rel=1e-15, abs=0)
        assert str(ours) == str(theirs)
    other = datasets(_load("bleu/inputs.json.gz"))["xray2"][0][:600]
    named = [("a", hyps), ("b", other)]
    for method, conf in (("bs", -1), ("ar", 100)):
        ours_r = PairedTest(named, {"BLEU": BLEU()}, streams[:1], method, 200, conf)()[1]
        theirs_r = RealPairedTest(named, {"BLEU": real.BLEU()}, streams[:1], method, 200, conf)()[1]
        for a, b in zip(ours_r["BLEU"], theirs_r["BLEU"], strict=True):
            assert (a.score, a.p_value, a.ci) == (b.score, b.p_value, b.ci)


# -- the drop-in's own behaviour -------------------------------------------------------------


def test_stream_layout_mistakes_raise_instead_of_scoring_a_prefix() -> None:
    hyps = ["a b c d e", "f g h i j", "k l m n o"]
    per_segment = [[h] for h in hyps]  # meteor-eval's native layout
    with pytest.raises(ValueError, match="streams"):
        sacrebleu.corpus_bleu(hyps, per_segment)
    with pytest.raises(ValueError, match="different lengths"):
        sacrebleu.corpus_bleu(hyps, [hyps, ["x"]])
    with pytest.raises(ValueError, match="no reference"):
        sacrebleu.corpus_bleu(["a"], [[None]])
    with pytest.raises(TypeError):
        sacrebleu.corpus_bleu("a b c", [["a b c"]])
    assert sacrebleu.corpus_bleu(hyps, [list(hyps)]).score == pytest.approx(100.0)


def test_native_and_dropin_agree_on_their_own_layouts() -> None:
    from meteor_eval.metrics.bleu import corpus_bleu as native

    hyps, streams = _streams("xray1-varrefs")
    per_segment = [[s[i] for s in streams if s[i] is not None] for i in range(len(hyps))]
    assert sacrebleu.corpus_bleu(hyps, streams).score == native(hyps, per_segment).score
    assert (
        BLEU(references=streams).corpus_score(hyps, None).score == native(hyps, per_segment).score
    )
    bleu = BLEU()
    bleu.corpus_score(hyps, streams)
    assert bleu.get_signature().info["nrefs"] == "var"


def test_cached_references_and_errors() -> None:
    bleu = BLEU()
    with pytest.raises(ValueError, match="evaluate the metric first"):
        bleu.get_signature()
    with pytest.raises(RuntimeError, match="cache is empty"):
        bleu.corpus_score(["a"], None)
    with pytest.raises(ValueError, match="smooth_method"):
        BLEU(smooth_method="bogus")
    with pytest.raises(TypeError):
        bleu.sentence_score("a", "a")


@pytest.mark.parametrize(
    "call",
    [
        lambda: sacrebleu.CHRF,
        lambda: sacrebleu.corpus_ter,
        lambda: sacrebleu.DATASETS,
        lambda: sacrebleu.metrics.TER,
        lambda: sacrebleu.compat.sentence_chrf,
        lambda: BLEU(tokenize="ja-mecab"),
        lambda: BLEU(trg_lang="ko"),
        lambda: PairedTest([("a", ["x"])], {"chrF": object()}, [["x"]]),
    ],
)
def test_out_of_scope_features_raise_not_implemented(call: Any) -> None:
    with pytest.raises(NotImplementedError, match="meteor-eval"):
        call()


def test_imports_of_out_of_scope_names_raise_not_implemented() -> None:
    with pytest.raises(NotImplementedError, match="chrF"):
        from meteor_eval.compat.sacrebleu.metrics.chrf import CHRF  # noqa: F401
    with pytest.raises(NotImplementedError, match="meteor-eval bleu"):
        from meteor_eval.compat.sacrebleu.utils import print_results_table  # noqa: F401
    with pytest.raises(AttributeError):
        _ = sacrebleu.no_such_name


def test_version_is_pep440_and_names_meteor_eval() -> None:
    from packaging.version import Version

    from meteor_eval import __version__

    assert sacrebleu.__version__ == f"2.6.0+meteor-eval-{__version__}"
    assert Version(sacrebleu.__version__) >= Version("2.6.0")


def test_command_line_is_not_provided(capsys: pytest.CaptureFixture[str]) -> None:
    from meteor_eval.compat.sacrebleu.__main__ import main

    assert main() == 2
    assert "meteor-eval bleu" in capsys.readouterr().err


def test_estimate_ci_and_result_repr() -> None:
    import numpy as np

    mean, ci = estimate_ci(np.array([3.0, 1.0, 2.0] * 40))
    assert (mean, ci) == (2.0, 1.0)
    assert repr(Result(1.5, 0.25)) == "score=1.5,p_value=0.25,mean=None,ci=None"


def test_compute_bleu_reports_add_k_counts_as_sacrebleu() -> None:
    score = BLEU.compute_bleu([3, 1, 0, 0], [4, 3, 2, 1], 4, 5, smooth_method="add-k")
    assert (score.counts, score.totals) == ([3, 2, 1, 1], [4, 4, 3, 2])
    assert BLEU.compute_bleu([0, 0, 0, 0], [4, 3, 2, 1], 4, 5, "add-k").counts == [0, 0, 0, 0]
