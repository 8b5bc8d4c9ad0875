"""Drop-in replacement for ``pycocoevalcap.meteor.meteor.Meteor``, without Java.

``from meteor_eval.compat.pycocoevalcap.meteor.meteor import Meteor`` (also importable as
``meteor_eval.compat.pycocoevalcap.Meteor``).

pycocoevalcap's wrapper starts ``java -jar meteor-1.5.jar - - -stdio -l en -norm``; for every
image it removes ``|||`` from the hypothesis, replaces each double space by one, sends
``SCORE ||| ref_1 ||| ... ||| ref_n ||| hypothesis`` and reads one statistics line; then it sends
``EVAL ||| stats_1 ||| ... ||| stats_n`` and reads the n per-image scores and the corpus score
(pooled statistics). This class reads the same fields from the same protocol lines and scores
them in process (:func:`meteor_eval.metrics.caption.meteor_of_fields`, or
:class:`meteor_eval.jar.stdio.StdioSession` for a line the jar would refuse), so the numbers are
the jar's.

Differences: no subprocess (nothing to leak, ``__del__`` is not needed); the checks that the
original makes with ``assert`` raise :class:`ValueError` here; an empty input raises
:class:`ValueError` (the original fails parsing the jar's error message). The paraphrase table is
that of the installed pycocoevalcap or the one configured by the paraphrase resource.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any, cast

from meteor_eval.metrics.caption import meteor_fields, meteor_fields_many, meteor_of_fields
from meteor_eval.metrics.meteor import Meteor as _Scorer
from meteor_eval.metrics.meteor import MeteorConfig

__all__ = ["Meteor"]


class Meteor:
    """``Meteor().compute_score(gts, res) -> (corpus score, per-image scores)``.

    Args:
        config: Settings; default the wrapper's ``-l en -norm`` (METEOR 1.5 English defaults).

    Example:
        >>> from meteor_eval.metrics.meteor import MeteorConfig
        >>> m = Meteor(MeteorConfig(normalization="norm", modules=("exact",), weights=(1.0,)))
        >>> m.compute_score({1: ["the cat sat"]}, {1: ["the cat sat"]})
        (1.0, [1.0])
    """

    def __init__(self, config: MeteorConfig | None = None) -> None:
        self._config = (
            config
            if config is not None
            else MeteorConfig.preset("meteor15", language="en", normalization="norm")
        )
        self._session: Any = None
        self._metric: Any = None
        self.lock = threading.Lock()

    def _scorer(self) -> Any:
        if self._metric is None:
            self._metric = _Scorer(self._config)
        return self._metric

    def _get_session(self) -> Any:
        if self._session is None:
            from meteor_eval.jar.stdio import StdioSession

            self._session = StdioSession(self._scorer())
        return self._session

    def method(self) -> str:
        """``"METEOR"``, as the original."""
        return "METEOR"

    @staticmethod
    def _score_line(hypothesis: str, references: Sequence[str]) -> str:
        hypothesis = hypothesis.replace("|||", "").replace("  ", " ")
        return " ||| ".join(("SCORE", " ||| ".join(references), hypothesis))

    def compute_score(
        self, gts: Mapping[Any, Sequence[str]], res: Mapping[Any, Sequence[str]]
    ) -> tuple[float, list[float]]:
        """Corpus METEOR and one score per image, in ``gts`` key order.

        Args:
            gts: Image id -> reference captions.
            res: Image id -> a list holding exactly one generated caption.

        Raises:
            ValueError: the key sets differ, an image has not exactly one caption, or there is
                no image.
        """
        if gts.keys() != res.keys():
            raise ValueError("gts and res must have the same image ids")
        if not gts:
            raise ValueError("no image to score")
        fields: list[tuple[str, list[str]] | None]
        if all(len(res[i]) == 1 for i in gts):
            fields = meteor_fields_many([res[i][0] for i in gts], [gts[i] for i in gts])
        else:
            fields = [meteor_fields(res[i][0], gts[i]) if len(res[i]) == 1 else None for i in gts]
        if all(f is not None for f in fields):
            with self.lock:
                total, scores, _ = meteor_of_fields(
                    cast("list[tuple[str, list[str]]]", fields),
                    scorer=self._scorer(),
                    want_stats=False,
                )
            return total, scores
        with self.lock:
            session = self._get_session()
            stats: list[str] = []
            for image_id in gts:
                captions = res[image_id]
                if len(captions) != 1:
                    raise ValueError(
                        f"res[{image_id!r}] must hold exactly one caption, got {len(captions)}"
                    )
                line = self._score_line(captions[0], gts[image_id])
                stats.append(session.answer(line)[0].strip())
            answers = session.answer("EVAL ||| " + " ||| ".join(stats))
        scores = [float(a) for a in answers]
        return scores[-1], scores[:-1]
