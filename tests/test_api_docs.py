"""``docs/api.md`` documents exactly what ``meteor_eval`` exports, and every object it renders
(``::: target``) exists; the renamed and deprecated top-level names behave as documented."""

from __future__ import annotations

import importlib
import re
import warnings
from pathlib import Path

import pytest

import meteor_eval

API = Path(__file__).resolve().parents[1] / "docs" / "api.md"


def _section(text: str, title: str) -> str:
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def test_the_top_level_table_lists_exactly_the_exports() -> None:
    table = _section(API.read_text(encoding="utf-8"), "Top-level names")
    names = re.findall(r"^\| `([A-Za-z_][A-Za-z0-9_]*)` \| `([\w.]+)` \|$", table, re.M)
    assert sorted(name for name, _ in names) == sorted(meteor_eval.__all__)
    for name, target in names:
        module, _, attribute = target.rpartition(".")
        defined = getattr(importlib.import_module(module), attribute)
        assert getattr(meteor_eval, name) is defined, name


def test_every_rendered_object_exists() -> None:
    targets = re.findall(r"^::: ([\w.]+)$", API.read_text(encoding="utf-8"), re.M)
    assert len(targets) > 10
    for target in targets:
        try:
            importlib.import_module(target)
        except ModuleNotFoundError:
            module, _, attribute = target.rpartition(".")
            assert hasattr(importlib.import_module(module), attribute), target


def test_each_metric_has_its_from_stats_and_the_old_name_warns() -> None:
    from meteor_eval.metrics import bleu, meteor, rouge

    assert meteor_eval.meteor_from_stats is meteor.score_from_stats
    assert meteor_eval.bleu_from_stats is bleu.score_from_stats
    assert meteor_eval.rouge_from_stats is rouge.score_from_stats
    with pytest.warns(DeprecationWarning, match="use meteor_eval.meteor_from_stats"):
        old = meteor_eval.score_from_stats
    assert old is meteor.score_from_stats
    assert "score_from_stats" not in meteor_eval.__all__


def test_meteor_takes_nrefs_like_the_other_metrics() -> None:
    from meteor_eval.metrics.meteor import Meteor
    from meteor_eval.stats.meteor import MeteorStats

    scorer = Meteor()
    stats = MeteorStats.zero()
    assert scorer.score_stats(stats, nrefs=2).signature.get("nrefs") == "2"
    with pytest.warns(DeprecationWarning, match="use nrefs="):
        old = scorer.score_stats(stats, n_refs=3)
    assert old.signature.get("nrefs") == "3"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert scorer.signature(2).get("nrefs") == "2"


def test_segment_is_the_word_and_the_sentence_names_warn() -> None:
    """``segment_*`` everywhere in the API; the former ``sentence_*`` names give the same
    results with a DeprecationWarning (one release). The sacrebleu drop-in keeps its names."""
    from meteor_eval.metrics import bleu, meteor, rouge

    hyp, refs = "the cat sat on a mat", ["the cat sat on the mat"]
    for old, new in [
        ("sentence_meteor", "segment_meteor"),
        ("sentence_bleu", "segment_bleu"),
        ("sentence_rouge", "segment_rouge"),
    ]:
        assert new in meteor_eval.__all__ and old not in meteor_eval.__all__
        with pytest.warns(DeprecationWarning, match=f"use meteor_eval.{new}"):
            assert getattr(meteor_eval, old) is getattr(meteor_eval, new)
    with pytest.warns(DeprecationWarning, match="sentence_meteor is deprecated"):
        old_meteor = meteor.sentence_meteor(hyp, refs)
    assert old_meteor == meteor.segment_meteor(hyp, refs)
    with pytest.warns(DeprecationWarning, match="sentence_bleu is deprecated"):
        assert bleu.sentence_bleu(hyp, refs) == bleu.segment_bleu(hyp, refs)
    with pytest.warns(DeprecationWarning, match="sentence_rouge is deprecated"):
        assert rouge.sentence_rouge(hyp, refs) == rouge.segment_rouge(hyp, refs)

    scorer = meteor.Meteor()
    with pytest.warns(DeprecationWarning, match=r"Meteor.sentence_score is deprecated.*segment"):
        aligned = scorer.sentence_score(hyp, refs, alignment=True)
    assert aligned == scorer.segment_score(hyp, refs, alignment=True)
    assert aligned.alignment is not None
    with pytest.warns(DeprecationWarning, match=r"Bleu.sentence_scores is deprecated"):
        assert bleu.Bleu().sentence_scores([hyp], [refs]) == bleu.Bleu().segment_scores(
            [hyp], [refs]
        )
    with pytest.warns(DeprecationWarning, match=r"compare\(sentence_level=\) is deprecated"):
        old = meteor_eval.compare({"A": [hyp]}, [refs], metrics=["bleu"], sentence_level=True)
    new = meteor_eval.compare({"A": [hyp]}, [refs], metrics=["bleu"], segment_level=True)
    assert old.to_dict() == new.to_dict()
    assert "segments" in new.to_dict()["systems"][0]

    from meteor_eval.compat import sacrebleu

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert sacrebleu.sentence_bleu(hyp, refs).score == bleu.segment_bleu(hyp, refs).score
