"""``--task da``: English parameters tuned on WMT 2021 direct assessments (docs/tuning.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from meteor_eval.cli import main
from meteor_eval.metrics.meteor import Meteor, MeteorConfig
from meteor_eval.metrics.meteor.presets import JAR_TASKS, TASKS

ROOT = Path(__file__).resolve().parents[2]

#: The parameters docs/tuning.md documents for --task da.
DOCUMENTED = (0.9, 0.05, 0.55, 0.7, (1.0, 0.7, 0.15, 0.6))


def test_task_da_gives_the_documented_parameters() -> None:
    config = MeteorConfig.preset(task="da")
    found = (config.alpha, config.beta, config.gamma, config.delta, config.weights)
    assert found == DOCUMENTED
    assert config.modules == ("exact", "stem", "synonym", "paraphrase")
    assert "|task:da|" in Meteor(config).signature().format()
    docs = (ROOT / "docs" / "tuning.md").read_text(encoding="utf-8")
    row = " | ".join(f"{v:g}" for v in (*found[:4], *found[4]))
    assert f"| `--task da` | {row} |" in docs


def test_task_da_is_ours_not_the_jars() -> None:
    assert "da" in TASKS and "da" not in JAR_TASKS


def test_task_da_is_english_only_and_unknown_to_the_jar(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    hyp = tmp_path / "h.txt"
    hyp.write_text("a cat\n", encoding="utf-8")
    assert (
        main(["score", "--hyp", str(hyp), "--ref", str(hyp), "--task", "da", "--lang", "de"]) == 2
    )
    assert "task: da is defined for English only" in capfd.readouterr().err
    # The jar does not know the task: jar-compat refuses it as the jar does.
    assert main(["jar-compat", str(hyp), str(hyp), "-t", "da"]) == 1
    captured = capfd.readouterr()
    assert "Error: Unknown task (da)" in captured.out + captured.err
