"""The matcher registry: a new module is one matcher plus one declaration, nothing else."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from fakes import LowercaseMatcher
from meteor_eval.cli import main
from meteor_eval.errors import ConfigError
from meteor_eval.match import registry
from meteor_eval.metrics.meteor import Meteor, MeteorConfig


@pytest.fixture
def lowercase_module() -> Iterator[registry.MatcherModule]:
    module = registry.MatcherModule(
        "lowercase", "lc", build=lambda context: LowercaseMatcher(), default_weight=0.9
    )
    registry.register(module)
    try:
        yield module
    finally:
        registry.unregister("lowercase")


def test_builtin_modules_in_the_jars_order() -> None:
    assert registry.module_names() == ("exact", "stem", "synonym", "paraphrase")
    assert [registry.get(m).short_name for m in registry.module_names()] == [
        "ex",
        "st",
        "sy",
        "pa",
    ]
    assert [registry.get(m).compiled_kind for m in registry.module_names()] == [0, 1, 2, 3]


@pytest.mark.usefixtures("lowercase_module")
def test_a_registered_module_scores_through_the_public_api() -> None:
    config = MeteorConfig.preset("meteor15", modules=("exact", "lowercase"), weights=(1.0, 0.5))
    assert config.eval_id.endswith("-ex_lc-1.0_0.5")
    scorer = Meteor(config)
    score = scorer.segment_score("The Cat sat", ["the cat sat"], alignment=True)
    assert score.alignment is not None
    assert [m.stage for m in score.alignment.matches] == [1, 1, 0]
    # "sat" exact (content, weight 1), "Cat"/"cat" content and "The"/"the" function (weight 0.5):
    # matched weight 0.75 + 0.375 + 0.125 = 1.25 of 0.75 * 2 + 0.25 = 1.75 per side, one chunk
    # covering everything (no penalty), so the score is 1.25 / 1.75.
    assert score.score == pytest.approx(1.25 / 1.75, abs=1e-15)
    assert "|modules:exact+lowercase|weights:1.0+0.5|" in score.signature.format()
    exact_only = Meteor(MeteorConfig.preset("meteor15", modules=("exact",)))
    assert exact_only.segment_score("The Cat sat", ["the cat sat"]).score < 0.2


@pytest.mark.usefixtures("lowercase_module")
def test_a_registered_module_takes_its_default_weight_without_a_task_table() -> None:
    config = MeteorConfig.preset("paper2005", modules=("exact", "lowercase"), normalization="none")
    assert config.weights == (1.0, 0.9)
    score = Meteor(config).segment_score("The Cat", ["the cat"])
    assert score.stats.stages == ((0, 0, 0, 0), (2, 2, 0, 0))


@pytest.mark.usefixtures("lowercase_module")
def test_a_registered_module_is_a_command_line_choice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp = tmp_path / "hyp"
    ref = tmp_path / "ref"
    hyp.write_text("The Cat sat\n", encoding="utf-8")
    ref.write_text("the cat sat\n", encoding="utf-8")
    args = ["score", "--hyp", str(hyp), "--ref", str(ref), "--format", "json"]
    assert main([*args, "--modules", "exact,lowercase", "--weights", "1,0.5"]) == 0
    assert "modules:exact+lowercase" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())  # as argparse wrapped it, unwrapped
    assert "any of: exact, stem, synonym, paraphrase, lowercase" in help_text


def test_an_unregistered_module_is_refused(lowercase_module: registry.MatcherModule) -> None:
    registry.unregister("lowercase")
    try:
        with pytest.raises(ConfigError, match="modules: 'lowercase' is unknown; allowed: exact"):
            MeteorConfig.preset("meteor15", modules=("exact", "lowercase"), weights=(1.0, 0.5))
    finally:
        registry.register(lowercase_module)


def test_a_module_limited_to_some_flavours_is_refused_by_the_others() -> None:
    with pytest.raises(ConfigError, match="the paper2005 flavour has no paraphrase module"):
        MeteorConfig.preset("paper2005", modules=("exact", "paraphrase"))


@pytest.mark.parametrize("name", ["", "Upper", "two words", "exact"])
def test_register_refuses_bad_or_taken_names(name: str) -> None:
    with pytest.raises(ConfigError, match="name"):
        registry.register(
            registry.MatcherModule(name, "x", build=lambda context: LowercaseMatcher())
        )
    assert registry.module_names() == ("exact", "stem", "synonym", "paraphrase")
