"""MeteorConfig presets, the jar's Eval IDs, and validation errors."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from meteor_eval.errors import ConfigError
from meteor_eval.metrics.meteor import Meteor, MeteorConfig


@pytest.mark.parametrize(
    ("language", "eval_id"),
    [
        ("en", "meteor-1.5-wo-en-no_norm-0.85_0.2_0.6_0.75-ex_st_sy_pa-1.0_0.6_0.8_0.6"),
        ("cs", "meteor-1.5-wo-cz-no_norm-0.95_0.2_0.6_0.8-ex_pa-1.0_0.4"),
        ("fr", "meteor-1.5-wo-fr-no_norm-0.9_1.4_0.6_0.65-ex_st_pa-1.0_0.2_0.4"),
        ("es", "meteor-1.5-wo-es-no_norm-0.65_1.3_0.5_0.8-ex_st_pa-1.0_0.8_0.6"),
        ("de", "meteor-1.5-wo-de-no_norm-0.95_1.0_0.55_0.55-ex_st_pa-1.0_0.8_0.2"),
        ("ru", "meteor-1.5-wo-ru-no_norm-0.75_1.4_0.7_0.5-ex_st_pa-1.0_0.5_0.5"),
        ("da", "meteor-1.5-wo-da-no_norm-0.75_1.4_0.7_0.5-ex_st-1.0_0.5"),
        ("other", "meteor-1.5-wo-other-no_norm-0.75_1.4_0.7_0.5-ex-1.0"),
    ],
)
def test_default_eval_ids_equal_the_jars(language: str, eval_id: str) -> None:
    # da: outside the six languages with a ranking table the jar's default task is li
    # (`java -jar meteor-1.5.jar HYP REF -l da` prints this Eval ID, Task: Language-Independent)
    assert MeteorConfig.preset("meteor15", language=language).eval_id == eval_id


@pytest.mark.parametrize(("language", "task"), [("da", "rank"), ("hu", "adq"), ("de", "hter")])
def test_a_task_without_parameters_for_the_language_is_refused(language: str, task: str) -> None:
    # The jar scores these with every parameter and weight 0: METEOR 0 for every segment.
    with pytest.raises(
        ConfigError, match=f"task: {task} has no parameters for .* use task (li|rank), the default"
    ):
        MeteorConfig.preset("meteor15", language=language, task=task)


def test_a_task_without_parameters_is_accepted_when_every_number_is_given() -> None:
    config = MeteorConfig.preset(
        "meteor15",
        language="da",
        task="rank",
        alpha=0.5,
        beta=1.0,
        gamma=0.5,
        delta=0.5,
        weights=(1.0, 0.5),
    )
    assert (config.alpha, config.weights) == (0.5, (1.0, 0.5))


def test_li_is_the_default_task_outside_supported_languages() -> None:
    config = MeteorConfig.preset("meteor15", language="da", task="li")
    assert config.eval_id == "meteor-1.5-wo-da-no_norm-0.75_1.4_0.7_0.5-ex_st-1.0_0.5"


@pytest.mark.parametrize(
    ("task", "params", "weights"),
    [
        ("adq", (0.75, 1.4, 0.45, 0.7), (1.0, 1.0, 0.6)),
        ("hter", (0.4, 1.5, 0.35, 0.55), (1.0, 0.2, 0.6)),
        ("util", (0.65, 0.1, 0.55, 0.65), (1.0, 0.0, 0.0)),
        ("li", (0.75, 1.4, 0.7, 0.5), (1.0, 0.5, 0.5)),
        ("tune", (0.5, 1.0, 0.5, 0.5), (1.0, 0.5, 0.5)),
    ],
)
def test_task_tables_are_positional(
    task: str, params: tuple[float, ...], weights: tuple[float, ...]
) -> None:
    config = MeteorConfig.preset("meteor15", task=task, modules=("exact", "stem", "synonym"))
    assert (config.alpha, config.beta, config.gamma, config.delta) == params
    assert config.weights == weights


def test_modules_resize_weights_by_position_like_the_jar() -> None:
    assert MeteorConfig.preset("meteor15", modules=("exact", "synonym")).weights == (1.0, 0.6)
    assert MeteorConfig.preset("meteor15", modules=("paraphrase", "exact")).weights == (1.0, 0.6)
    config = MeteorConfig.preset("meteor15", weights=(1.0, 1.0), modules=("exact", "stem"))
    assert config.weights == (1.0, 1.0)


def test_single_parameters_replace_only_themselves() -> None:
    config = MeteorConfig.preset("meteor15", alpha=0.9)
    assert (config.alpha, config.beta, config.weights) == (0.9, 0.2, (1.0, 0.6, 0.8, 0.6))


def test_paper2005_preset() -> None:
    config = MeteorConfig.preset("paper2005")
    assert (config.alpha, config.beta, config.gamma, config.delta) == (0.9, 3.0, 0.5, 1.0)
    assert config.modules == ("exact", "stem", "synonym")
    assert config.weights == (1.0, 1.0, 1.0)
    assert config.normalization == "lower"
    assert MeteorConfig.preset("paper2005", modules=("exact",), beta=1.0).beta == 1.0


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"alpha": 1.5}, r"alpha: 1.5 is out of range; allowed: \[0, 1.0\]"),
        ({"gamma": -0.1}, "gamma: -0.1 is out of range"),
        ({"beam": 0}, "beam: 0 is invalid"),
        ({"modules": ("exact", "fuzzy")}, "modules: 'fuzzy' is unknown; allowed: exact, stem"),
        ({"language": "xx-yy"}, "language: unknown language 'xx-yy'"),
        ({"task": "fluency"}, "task: unknown task 'fluency'"),
        ({"language": "da", "normalization": "norm"}, "no normaliser for danish"),
    ],
)
def test_invalid_settings_name_the_parameter(options: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        MeteorConfig.preset("meteor15", **options)  # type: ignore[arg-type]


def test_more_weights_than_modules_is_rejected() -> None:
    with pytest.raises(ConfigError, match="3 weights for 2 modules"):
        MeteorConfig(modules=("exact", "stem"), weights=(1.0, 1.0, 1.0))


def test_bare_strings_are_type_errors() -> None:
    with pytest.raises(TypeError):
        MeteorConfig.preset("meteor15", modules="exact")  # type: ignore[arg-type]


def test_config_is_hashable_and_frozen() -> None:
    config = MeteorConfig.preset("meteor15")
    assert hash(config) == hash(MeteorConfig.preset("meteor15"))
    with pytest.raises(AttributeError):
        config.alpha = 0.5  # type: ignore[misc]


# -- values that used to be taken and silently changed the scores ---------------------------

_THREE = ("exact", "stem", "synonym")


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ((1.0, math.inf, 0.8), r"weights\[1\]: inf is not a finite number"),
        ((1.0, math.nan, 0.8), r"weights\[1\]: nan is not a finite number"),
        ((1.0, -0.5, 0.8), r"weights\[1\]: -0.5 is out of range; allowed: \[0, 1.0\]"),
        ((1.0, 5.0, 5.0), r"weights\[1\]: 5.0 is out of range; allowed: \[0, 1.0\]"),
        ((1.0, 1e308, 1.0), r"weights\[1\]: 1e\+308 is out of range"),
    ],
)
def test_weights_must_be_finite_and_in_the_unit_interval(
    weights: tuple[float, ...], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        MeteorConfig.preset("meteor15", modules=_THREE, weights=weights)
    with pytest.raises(ConfigError, match=message):
        MeteorConfig(modules=_THREE, weights=weights)


@pytest.mark.parametrize(
    ("field", "value"),
    [("alpha", math.nan), ("beta", math.inf), ("gamma", -math.inf), ("delta", math.nan)],
)
def test_parameters_must_be_finite(field: str, value: float) -> None:
    with pytest.raises(ConfigError, match=rf"{field}: {value!r} is not a finite number"):
        MeteorConfig.preset("meteor15", **{field: value})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("modules", "weights", "counts"),
    [
        (("exact", "stem"), (1.0, 0.5, 0.3), "3 weights for 2 modules"),  # was truncated
        (_THREE, (1.0,), "1 weights for 3 modules"),  # was padded with 0
        (None, (1.0, 0.6), "2 weights for 4 modules"),  # the English default has four
    ],
)
def test_one_weight_per_module(
    modules: tuple[str, ...] | None, weights: tuple[float, ...], counts: str
) -> None:
    with pytest.raises(ConfigError, match=f"weights: {counts}"):
        MeteorConfig.preset("meteor15", modules=modules, weights=weights)


def test_fewer_weights_than_modules_is_refused_by_the_constructor_too() -> None:
    with pytest.raises(ConfigError, match="weights: 2 weights for 3 modules"):
        MeteorConfig(modules=_THREE, weights=(1.0, 0.6))


def test_jar_weights_take_what_the_jar_takes_and_nothing_more() -> None:
    above_one = MeteorConfig(weights=(1.0, 5.0, 5.0, 0.0), jar_weights=True)
    assert above_one.weights == (1.0, 5.0, 5.0, 0.0)
    assert MeteorConfig(weights=(1.0, 0.6), jar_weights=True).weights == (1.0, 0.6)
    for weights in ((1.0, math.inf, 1.0, 1.0), (1.0, -0.5, 1.0, 1.0), (1.0,) * 5):
        with pytest.raises(ConfigError, match="weights"):
            MeteorConfig(weights=weights, jar_weights=True)


def test_jar_weights_score_above_one_as_the_jar_does() -> None:
    # java -jar meteor-1.5.jar hyp ref -l en -norm -w "1.0 5 5 0" prints
    # "Segment 1 score: 2.615384615384615" for this pair (checked with the jar).
    config = MeteorConfig.preset("meteor15", normalization="norm").replace(
        weights=(1.0, 5.0, 5.0, 0.0), jar_weights=True
    )
    score = Meteor(config).segment_score("the dogs ran fast today", ["the dog runs quickly today"])
    assert score.score == 2.615384615384615


def test_danish_by_default_scores_as_the_jar(meteor_data: Path) -> None:
    """Golden: `java -jar meteor-1.5.jar H R -l da` (METEOR 1.5 from pycocoevalcap 1.2) on the
    first 50 xray pairs prints "Final score: 0.316307581227388" (task Language-Independent);
    before, the default task here was rank, whose Danish table is all zeros: a score of 0.0."""
    hyps = (meteor_data / "xray-system1.hyp").read_text(encoding="utf-8").splitlines()[:50]
    refs = (meteor_data / "xray-reference").read_text(encoding="utf-8").splitlines()[:50]
    scorer = Meteor(MeteorConfig.preset("meteor15", language="da"))
    assert scorer.corpus_score(hyps, [[r] for r in refs]).score == 0.316307581227388
