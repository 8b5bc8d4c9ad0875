"""``errors.renamed``: a deprecated name of a function keeps its signature and warns its caller."""

from __future__ import annotations

import inspect

import pytest

from meteor_eval.errors import renamed


def _scaled(value: int, *, factor: int = 2, **extra: int) -> int:
    """Scale ``value``."""
    return value * factor + sum(extra.values())


def test_renamed_function_has_the_signature_and_warns_at_the_caller() -> None:
    old = renamed(_scaled, "scaled_old")
    assert inspect.signature(old) == inspect.signature(_scaled)
    assert old.__name__ == "scaled_old"
    assert old.__doc__ == "Deprecated name of :func:`_scaled` (removed in 0.3)."
    with pytest.warns(DeprecationWarning, match="scaled_old is deprecated.*use _scaled") as seen:
        assert old(3, factor=5, bonus=1) == 16
    assert seen[0].filename == __file__


def test_sentence_meteor_keeps_segment_meteors_signature() -> None:
    from meteor_eval.metrics.meteor import scorer

    assert inspect.signature(scorer.sentence_meteor) == inspect.signature(scorer.segment_meteor)
