"""Aligning texts without scoring them: METEOR's matchers and aligner with a choice of objective.

:class:`TextAligner` runs a METEOR configuration's preprocessing and matcher modules on a
hypothesis and a reference and returns the chosen :class:`~meteor_eval.align.alignment.Alignment`.
With the ``maxcov`` type (the default) that alignment is the one the scorer uses, so its matches
and chunks are those behind ``meteor-eval score``. With ``maxacc`` the objective of the METEOR 1.5
aligner's accuracy mode is used instead (see :mod:`meteor_eval.align.objective`); it exists only
for the ``meteor15`` flavour.

Example:
    >>> from meteor_eval.metrics.meteor import MeteorConfig
    >>> aligner = TextAligner(MeteorConfig.preset("meteor15", modules=("exact", "stem")))
    >>> [(h, r, m) for h, r, m in aligner.align("the cats sat", "the cat sat").pairs()]
    [('the', 'the', 'exact'), ('cats', 'cat', 'stem'), ('sat', 'sat', 'exact')]
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from meteor_eval.align.alignment import Alignment, count_chunks
from meteor_eval.align.objective import ALIGNMENT_TYPES, AlignmentType, choose_matches
from meteor_eval.errors import ConfigError
from meteor_eval.match.base import Match, Matcher, Segment
from meteor_eval.metrics.meteor import Meteor, MeteorConfig

if TYPE_CHECKING:
    from meteor_eval.results import ComparisonResult

__all__ = ["TextAligner", "alignment_record", "write_alignments", "write_system_alignments"]


class TextAligner:
    """Preprocess, match and align hypothesis/reference pairs with one configuration.

    Args:
        config: The METEOR configuration (its preprocessing, language, modules, resources and
            beam size are used; the scoring parameters are not).
        kind: ``"maxcov"`` (the scorer's alignment) or ``"maxacc"`` (``meteor15`` only).
        beam: Beam size overriding ``config.beam``; values below 1 keep only the matches fixed
            before the search, as the jar's aligner does with ``-x 0`` (used by the jar
            emulation; the configuration itself refuses them).

    Raises:
        ConfigError: an unknown type, or ``maxacc`` with another flavour than ``meteor15``.
    """

    def __init__(
        self, config: MeteorConfig, kind: AlignmentType = "maxcov", *, beam: int | None = None
    ) -> None:
        if kind not in ALIGNMENT_TYPES:
            raise ConfigError(
                f"alignment type: {kind!r} is unknown; allowed: {', '.join(ALIGNMENT_TYPES)}"
            )
        if kind != "maxcov" and config.flavour != "meteor15":
            raise ConfigError(
                f"alignment type: {kind} is METEOR 1.5's; the {config.flavour} flavour has only "
                "its own alignment (maxcov)"
            )
        self.config = config
        self.kind: AlignmentType = kind
        self.beam = config.beam if beam is None else beam
        with warnings.catch_warnings():
            # Scoring weights do not matter here; the scorer's warning about them would mislead.
            warnings.simplefilter("ignore")
            self.meteor = Meteor(config)

    def _stage_matchers(self) -> Sequence[Matcher]:
        """The scorer's matcher of each stage (held by its pipeline)."""
        return self.meteor.pipeline.matchers

    def _segment_of(self, tokens: tuple[str, ...]) -> Segment:
        """The scorer's segment of already preprocessed tokens (with its word identities)."""
        return self.meteor.pipeline.segment_of(tokens)

    def align(self, hypothesis: str, reference: str) -> Alignment:
        """The alignment of two texts (each preprocessed as the configuration says)."""
        if self.kind == "maxcov" and self.beam == self.config.beam:
            # Exactly the scorer's alignment (and its fast paths).
            _, _, alignment = self.meteor.segment_stats(hypothesis, [reference])
            return alignment
        return self.align_segments(self.meteor.segment(hypothesis), self.meteor.segment(reference))

    def align_tokens(self, hypothesis: Sequence[str], reference: Sequence[str]) -> Alignment:
        """The alignment of two token sequences, taken as already preprocessed."""
        return self.align_segments(
            self._segment_of(tuple(hypothesis)), self._segment_of(tuple(reference))
        )

    def align_segments(self, hyp: Segment, ref: Segment) -> Alignment:
        """The alignment of two preprocessed segments (METEOR 1.5's aligner, any type)."""
        if self.config.flavour != "meteor15":
            matches = self.meteor.align(hyp, ref)
        else:
            matches = self._choose(hyp, ref)
        return Alignment(
            hyp.tokens,
            ref.tokens,
            tuple(matches),
            self.config.modules,
            count_chunks(matches, len(ref)),
        )

    def _choose(self, hyp: Segment, ref: Segment) -> list[Match]:
        # As the jar: identical sentences are matched by the first module only (spec 3.5).
        identical = hyp.ids == ref.ids
        stage_lists = []
        for stage, matcher in enumerate(self._stage_matchers()):
            stage_lists.append(matcher.candidates(hyp, ref, stage))
            if identical:
                break
        return choose_matches(
            stage_lists,
            self.config.modules,
            hyp_len=len(hyp),
            ref_len=len(ref),
            kind=self.kind,
            beam=self.beam,
        )


def alignment_record(index: int, result: Any) -> dict[str, object]:
    """One line of an alignments file: the segment number (from 1), its score, the index of
    the reference it was scored against and, when attached, its alignment
    (:meth:`~meteor_eval.align.alignment.Alignment.to_dict`)."""
    record: dict[str, object] = {
        "segment": index + 1,
        "score": result.score,
        "reference": result.reference_index,
    }
    if result.alignment is not None:
        record.update(result.alignment.to_dict())
    return record


def write_alignments(path: str, results: Iterable[Any]) -> None:
    """Write an alignments file: one JSON object a line per segment result (a METEOR score
    with its alignment), in order; a write error names the file and leaves none half-written
    (:func:`meteor_eval.io.output_file`)."""
    from meteor_eval.io import output_file

    with output_file(path) as out:
        for index, result in enumerate(results):
            out.write(json.dumps(alignment_record(index, result), ensure_ascii=False) + "\n")


def write_system_alignments(paths: Sequence[str], result: ComparisonResult) -> None:
    """The alignments files of a comparison: ``paths[k]`` of its ``k``-th system, from the
    segment results of each metric that has alignments (:attr:`Metric.has_alignments
    <meteor_eval.metrics.protocol.Metric.has_alignments>`: METEOR) and kept them."""
    for path, name in zip(paths, result.names, strict=True):
        for metric in result.metrics:
            segments = result.runs[name][metric.name].segments
            if metric.has_alignments and segments is not None:
                write_alignments(path, segments)
