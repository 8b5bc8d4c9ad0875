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
