"""Re-scoring statistics rows: hand-computed values, the jar's own task scores from one alignment,
several references per segment, corpus pooling and argument errors."""

from __future__ import annotations

import gzip
import math
import re
from pathlib import Path

import numpy as np
import pytest

from meteor_eval.errors import InputError
from meteor_eval.javafmt import java_double
from meteor_eval.metrics.meteor import MeteorConfig
from meteor_eval.metrics.meteor.formula import score_from_stats
from meteor_eval.metrics.meteor.pipeline import pool_stats
from meteor_eval.stats.meteor import MeteorStats
from meteor_eval.tuning import (
    TuningParams,
    prepare_stats,
    segment_scores,
    segment_scores_grid,
    stats_matrix,
    system_scores,
)

GOLDEN = Path(__file__).resolve().parents[2] / "reference" / "golden" / "meteor15"
ZERO = (0, 0, 0, 0)


def _row(*args: object) -> tuple[int, ...]:
    return MeteorStats(*args).to_row()  # type: ignore[arg-type]


def _bits(values: np.ndarray) -> list[int]:
    return np.asarray(values, dtype=np.float64).view(np.int64).tolist()


def _xray_rows() -> np.ndarray:
    with gzip.open(GOLDEN / "xray-system1.en-norm-esn.stats.gz", "rt", encoding="utf-8") as f:
        return np.array([[float(x) for x in line.split()] for line in f], dtype=np.int64)


def test_hand_computed_fragmented_match() -> None:
    # 4 content words matched exactly in 2 chunks: P = R = Fmean = 1, frag = 2 / (8 / 2) = 0.5,
    # penalty = 0.5 * 0.5 ** 1 = 0.25, score 0.75.
    rows = [_row(4, 4, 0, 0, ((4, 4, 0, 0),), 2, 4, 4)]
    params = TuningParams(alpha=0.9, beta=1.0, gamma=0.5, delta=0.75, weights=(1.0,))
    assert segment_scores(rows, params).tolist() == [0.75]


def test_perfect_match_has_no_penalty_in_meteor15_only() -> None:
    rows = [_row(4, 4, 0, 0, ((4, 4, 0, 0),), 1, 4, 4)]
    params = TuningParams(alpha=0.9, beta=1.0, gamma=0.5, delta=0.75, weights=(1.0,))
    assert segment_scores(rows, params).tolist() == [1.0]
    # paper2005 keeps the one chunk: frag = 1 / 4 = 0.25, penalty 0.125.
    assert segment_scores(rows, params, flavour="paper2005").tolist() == [0.875]


def test_weights_of_stages_and_delta_of_function_words() -> None:
    # hyp 4 words (1 function), ref 4 (1 function); stage 1 matches 2 content, stage 2 the
    # function word; delta 0.5: weighted lengths 2.0, weighted matches 2 * 1.0 * 0.5 +
    # 1 * 0.5 * 0.5 = 1.25 on each side, so P = R = Fmean = 0.625; one chunk of 3 of 4 words is
    # not perfect: frag = 1 / 3, beta 0 gives penalty gamma = 0.2: score 0.625 * 0.8 = 0.5.
    rows = [_row(4, 4, 1, 1, ((2, 2, 0, 0), (0, 0, 1, 1)), 1, 3, 3)]
    params = TuningParams(alpha=0.5, beta=0.0, gamma=0.2, delta=0.5, weights=(1.0, 0.5))
    assert segment_scores(rows, params).tolist() == [0.5]


def test_no_match_scores_zero_not_nan() -> None:
    rows = [_row(3, 3, 0, 0, (ZERO,), 0, 0, 0), _row(0, 0, 0, 0, (ZERO,), 0, 0, 0)]
    params = TuningParams(alpha=0.85, beta=0.0, gamma=0.6, delta=0.75, weights=(1.0,))
    assert segment_scores(rows, params).tolist() == [0.0, 0.0]


TASK_OUTPUTS = ["adq", "hter", "li", "tune", "util"]


@pytest.mark.parametrize("task", TASK_OUTPUTS)
def test_default_alignment_rescored_gives_the_jars_task_scores(task: str) -> None:
    # The jar's -t TASK runs align exactly as the default run does (their -ssOut files are
    # equal), so re-scoring the default run's statistics with the task's parameters must print
    # the jar's segment scores and final score for that task.
    with gzip.open(GOLDEN / f"xray-system1.en-norm-{task}-esn.out.gz", "rt", encoding="utf-8") as f:
        text = f.read()
    weights = tuple(float(x) for x in re.search(r"Weights:\s+(.*)", text)[1].split())  # type: ignore[index]
    alpha, beta, gamma, delta = (
        float(x)
        for x in re.search(r"Parameters:\s+(.*)", text)[1].split()  # type: ignore[index]
    )
    expected = re.findall(r"Segment \d+ score:\t(\S+)", text)
    final = re.search(r"Final score:\s+(\S+)", text)[1]  # type: ignore[index]
    params = TuningParams(alpha, beta, gamma, delta, weights)
    prepared = prepare_stats(_xray_rows())
    got = segment_scores(prepared, params)
    assert [java_double(x) for x in got] == expected
    assert (
        java_double(system_scores(prepared, np.zeros(len(got), dtype=np.int64), params)[0]) == final
    )


def test_jvm_power_table_is_applied_for_meteor15() -> None:
    # For beta 1.5 the JVM's Math.pow differs from the correctly rounded power on 7 xray
    # fragmentations; meteor15 must use the JVM's value there, paper2005 must not.
    prepared = prepare_stats(_xray_rows())
    jvm = prepared.powers(1.5, "meteor15")
    plain = prepared.powers(1.5, "paper2005")
    rows = prepared.rows
    not_perfect = (jvm != 0.0) & (rows[:, 20] > 0)
    frag = rows[not_perfect, 20] / ((rows[not_perfect, 21] + rows[not_perfect, 22]) / 2.0)
    assert np.count_nonzero(jvm[not_perfect] != plain[not_perfect]) == 7
    assert _bits(plain[not_perfect]) == _bits([math.pow(x, 1.5) for x in frag])


def test_best_reference_changes_with_the_parameters() -> None:
    # Segment 0: reference A matched exactly, reference B matched by stems only.
    a = _row(4, 4, 0, 0, ((4, 4, 0, 0), ZERO), 1, 4, 4)
    b = _row(4, 4, 0, 0, (ZERO, (4, 4, 0, 0)), 2, 4, 4)
    c = _row(2, 2, 0, 0, ((1, 1, 0, 0), ZERO), 1, 1, 1)
    rows = np.array([a, b, c])
    segments = [0, 0, 1]
    exact = TuningParams(alpha=0.5, beta=1.0, gamma=0.5, delta=1.0, weights=(1.0, 0.0))
    stems = TuningParams(alpha=0.5, beta=1.0, gamma=0.5, delta=1.0, weights=(0.0, 1.0))
    # A is perfect under exact weights (1.0); under stem weights A scores 0 and B scores
    # 1 * (1 - 0.5 * 2 / 4) = 0.75. Segment 1: P = R = 0.5, frag 1 / 1 = 1, 0.5 * 0.5 = 0.25.
    assert segment_scores(rows, exact, segments=segments).tolist() == [1.0, 0.25]
    assert segment_scores(rows, stems, segments=segments).tolist() == [0.75, 0.0]
    grid = segment_scores_grid(rows, [exact, stems], segments=segments)
    assert grid.tolist() == [[1.0, 0.25], [0.75, 0.0]]
    # The pooled corpus takes each segment's best row under the parameters: under stem
    # weights B (2 chunks) and C, against A (perfect: no chunks) and C under exact weights.
    config = MeteorConfig(
        modules=("exact", "stem"), weights=(0.0, 1.0), alpha=0.5, beta=1.0, gamma=0.5, delta=1.0
    )
    pooled = pool_stats([MeteorStats.from_row(b), MeteorStats.from_row(c)], config)
    expected = score_from_stats(pooled, config).score
    assert system_scores(rows, [0, 0], stems, segments=segments).tolist() == [expected]


def test_ties_keep_the_first_reference() -> None:
    # Both references score 0.75 under these parameters; the first one's statistics are pooled.
    first = _row(4, 4, 0, 0, ((4, 4, 0, 0),), 2, 4, 4)
    second = _row(8, 8, 0, 0, ((8, 8, 0, 0),), 4, 8, 8)
    rows = np.array([first, second])
    params = TuningParams(alpha=0.5, beta=1.0, gamma=0.5, delta=1.0, weights=(1.0,))
    assert segment_scores(rows, params, segments=[0, 0]).tolist() == [0.75]
    prepared = prepare_stats(np.array([first, second, first]), segments=[0, 0, 1])
    # Pooled: rows 0 and 2 (4 + 4 words, 4 chunks, 8 + 8 matched): frag 0.5, score 0.75.
    assert system_scores(prepared, [0, 0], params).tolist() == [0.75]


def test_system_scores_per_group_equal_pooled_scalar_scores() -> None:
    rows = _xray_rows()[:300]
    groups = np.arange(300) % 3
    config = MeteorConfig(modules=("exact", "stem", "synonym"), weights=(1.0, 0.6, 0.8))
    params = TuningParams.from_config(config)
    got = system_scores(rows, groups, params)
    for g in range(3):
        records = [MeteorStats.from_row(r) for r in rows[groups == g]]
        assert _bits([got[g]]) == _bits(
            [score_from_stats(pool_stats(records, config), config).score]
        )


def test_empty_group_scores_zero() -> None:
    rows = [_row(4, 4, 0, 0, ((4, 4, 0, 0),), 2, 4, 4)]
    params = TuningParams(alpha=0.9, beta=1.0, gamma=0.5, delta=0.75, weights=(1.0,))
    assert system_scores(rows, [1], params, n_groups=3).tolist() == [0.0, 0.75, 0.0]


def test_params_from_config_and_back() -> None:
    config = MeteorConfig(modules=("exact", "stem", "synonym"), weights=(1.0, 0.6, 0.8))
    params = TuningParams.from_config(config)
    assert params == TuningParams(0.85, 0.2, 0.6, 0.75, (1.0, 0.6, 0.8))
    tuned = TuningParams(0.5, 1.0, 0.3, 0.9, (1.0, 0.5, 0.25)).apply(config)
    assert (tuned.alpha, tuned.beta, tuned.gamma, tuned.delta) == (0.5, 1.0, 0.3, 0.9)
    assert tuned.weights == (1.0, 0.5, 0.25)
    assert tuned.modules == config.modules


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"weights": ()}, ValueError, "1 to 4 stages"),
        ({"weights": (1.0,) * 5}, ValueError, "1 to 4 stages"),
        ({"alpha": math.nan}, ValueError, "alpha: nan is not a finite number"),
        ({"beta": "1"}, TypeError, "beta: expected a number"),
        ({"weights": "1"}, TypeError, "weights: expected a sequence"),
    ],
)
def test_params_are_checked(kwargs: dict[str, object], error: type, message: str) -> None:
    base: dict[str, object] = {
        "alpha": 0.5,
        "beta": 1.0,
        "gamma": 0.5,
        "delta": 0.5,
        "weights": (1.0,),
    }
    with pytest.raises(error, match=re.escape(message)):
        TuningParams(**{**base, **kwargs})  # type: ignore[arg-type]


def test_stats_matrix_is_the_jar_row_order() -> None:
    s = MeteorStats(30, 40, 10, 12, ((1, 2, 3, 4), (5, 6, 7, 8)), 9, 16, 20)
    matrix = stats_matrix([s])
    assert matrix.dtype == np.int64
    assert matrix.tolist() == [[30, 40, 10, 12, 1, 2, 3, 4, 5, 6, 7, 8, *(0,) * 8, 9, 16, 20]]
    assert stats_matrix([]).shape == (0, 23)


_GOOD = MeteorStats(9, 9, 2, 2, ((5, 5, 1, 1),), 2, 6, 6)


@pytest.mark.parametrize(
    ("record", "problem"),
    [
        # 12 content matches of a 9-token hypothesis: scored, it gave precision 9.16
        (
            MeteorStats(9, 9, 0, 0, ((12, 9, 0, 0),), 1, 9, 9),
            "more hypothesis content matches than hypothesis content units",
        ),
        (
            MeteorStats(9, 9, 10, 0, ((0, 0, 0, 0),), 0, 0, 0),
            "more hypothesis function words than hypothesis units",
        ),
        (
            MeteorStats(9, 9, 2, 2, ((5, 5, 1, 3),), 2, 6, 8),
            "more reference function-word matches than reference function words",
        ),
        (MeteorStats(9, 9, 2, 2, ((5, 5, 1, 1),), 7, 6, 6), "more chunks than matched words"),
        (
            MeteorStats(9, 9, 2, 2, ((5, 5, -1, 1),), 2, 4, 6),
            "stage1_hyp_function is negative (-1)",
        ),
        (MeteorStats(9, -9, 0, 0, ((0, 0, 0, 0),), 0, 0, 0), "ref_length is negative (-9)"),
    ],
)
def test_stats_matrix_refuses_rows_no_scoring_run_writes(record: MeteorStats, problem: str) -> None:
    """The rows ``--from-stats`` refuses are refused here too, by their index: re-scored, they
    would give scores above 1 or nonsense."""
    with pytest.raises(
        InputError, match=re.escape(f"stats[2]: impossible METEOR statistics: {problem}")
    ):
        stats_matrix([_GOOD, _GOOD, record])
    assert stats_matrix([_GOOD, _GOOD]).tolist() == [list(_GOOD.to_row())] * 2


@pytest.mark.parametrize(
    ("rows", "segments", "message"),
    [
        (np.zeros((2, 22), dtype=np.int64), None, "expected an (n, 23) array"),
        (np.full((1, 23), 0.5), None, "whole numbers"),
        (np.full((1, 23), -1), None, "non-negative"),
        (np.zeros((3, 23), dtype=np.int64), [0, 1], "one segment index per row (3)"),
        (np.zeros((3, 23), dtype=np.int64), [0, 1, 0], "grouped by segment in order"),
        (np.zeros((3, 23), dtype=np.int64), [0, 2, 2], "grouped by segment in order"),
    ],
)
def test_bad_rows_and_segments_are_refused(
    rows: np.ndarray, segments: object, message: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        prepare_stats(rows, segments=segments)


def test_nltk_flavour_cannot_be_rescored() -> None:
    params = TuningParams(0.9, 3.0, 0.5, 1.0, (1.0,))
    with pytest.raises(ValueError, match="'nltk' cannot be re-scored"):
        segment_scores(np.zeros((1, 23), dtype=np.int64), params, flavour="nltk")  # type: ignore[arg-type]
