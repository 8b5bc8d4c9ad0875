"""The jar's stdin/stdout protocol (``-stdio``, spec 1.4), as in the pycocoevalcap jar.

One command per input line, recognised by how the line starts: in capitals or in lower case
(``SCORE`` or ``score``; ``Score`` is not a command, and ``SCOREXYZ`` is ``SCORE``):

* ``SCORE ||| ref_1 ||| ... ||| ref_n ||| hypothesis`` -> the 23-number statistics line of the
  best reference;
* ``EVAL ||| stats_1 ||| ... ||| stats_m`` -> the score of each block, then the score of their
  pooled statistics (m + 1 lines);
* ``SING ||| stats`` -> the score of that one block;
* anything else -> ``Error: specify SCORE or EVAL or SING``.

Lines are split on ``|||`` with Java's ``String.split`` rule (trailing empty fields dropped), and
each field is trimmed (``String.trim``). Each answer is flushed at once.

Differences from the jar (where its JVM dies with an uncaught exception and stops answering):
a statistics block with fewer than 23 numbers, a non-number, a negative or fractional count, or
more scoring weights than the four stages of a block: we print a one-line error on stderr and
exit with status 1, after the answers already given.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TextIO

from meteor_eval.errors import InputError
from meteor_eval.jar.config import JarConfigError, parse_java_double
from meteor_eval.jar.output import stats_line
from meteor_eval.javafmt import java_double
from meteor_eval.metrics.meteor import Meteor, pool_stats, score_from_stats
from meteor_eval.stats.meteor import ROW_LENGTH, MeteorStats
from meteor_eval.text.tokenize import java_split, java_split_fields, java_trim

__all__ = ["StdioSession", "java_split_fields", "parse_stats_block"]


def parse_stats_block(text: str) -> MeteorStats:
    """Parse one statistics block as the jar's scanner does (23 numbers; extra ones ignored).

    Raises:
        InputError: fewer than 23 numbers, a non-number, or a count that is not a whole
            number >= 0.
    """
    tokens = java_split(text)
    if len(tokens) < ROW_LENGTH:
        raise InputError(
            f"a statistics block needs {ROW_LENGTH} numbers, got {len(tokens)}: {text.strip()!r}"
        )
    values: list[float] = []
    for token in tokens[:ROW_LENGTH]:
        try:
            values.append(parse_java_double(token.replace(",", "")))
        except JarConfigError:
            raise InputError(f"not a number in a statistics block: {token!r}") from None
    return MeteorStats.from_row(values)


class StdioSession:
    """Answers the commands of the stdio protocol with one scorer.

    Args:
        meteor: The scorer (its configuration gives parameters, weights and preprocessing).

    Example:
        >>> from meteor_eval.metrics.meteor import MeteorConfig
        >>> session = StdioSession(Meteor(MeteorConfig(modules=("exact",), weights=(1.0,))))
        >>> session.answer("SCORE ||| the cat ||| the cat")[0].split()[:8]
        ['2.0', '2.0', '1.0', '1.0', '1.0', '1.0', '1.0', '1.0']
    """

    def __init__(self, meteor: Meteor) -> None:
        self.meteor = meteor

    def score_fields(self, fields: list[str]) -> str:
        """The statistics line for split ``SCORE`` fields (at least 3)."""
        references = [java_trim(f) for f in fields[1:-1]]
        hypothesis = java_trim(fields[-1])
        stats, _, _ = self.meteor.segment_stats(hypothesis, references)
        return stats_line(stats)

    def _score(self, stats: MeteorStats) -> str:
        config = self.meteor.config
        if len(config.weights) > len(stats.stages):
            raise InputError(
                f"{len(config.weights)} scoring weights but a statistics block has "
                f"{len(stats.stages)} stages"
            )
        return java_double(score_from_stats(stats, config).score)

    def answer(self, line: str) -> list[str]:
        """The output lines for one input line.

        Raises:
            InputError: a malformed statistics block (the jar's JVM dies there).
        """
        return list(self.answers(line))

    def answers(self, line: str) -> Iterator[str]:
        """The output lines for one input line, each produced as soon as it is known.

        Raises:
            InputError: a malformed statistics block (the lines before it are produced).
        """
        if line.startswith(("SCORE", "score")):
            fields = java_split_fields(line)
            if len(fields) < 3:
                yield "Error: specify hypothesis and at least one reference"
                return
            yield self.score_fields(fields)
        elif line.startswith(("EVAL", "eval")):
            fields = java_split_fields(line)
            if len(fields) < 2:
                yield "Error: specify Meteor stats"
                return
            blocks: list[MeteorStats] = []
            for text in fields[1:]:
                block = parse_stats_block(text)
                yield self._score(block)
                blocks.append(block)
            yield self._score(pool_stats(blocks, self.meteor.config))
        elif line.startswith(("SING", "sing")):
            fields = java_split_fields(line)
            if len(fields) != 2:
                yield "Error: specify Meteor stats"
                return
            yield self._score(parse_stats_block(fields[1]))
        else:
            yield "Error: specify SCORE or EVAL or SING"

    def run(self, lines: Iterable[str], out: TextIO) -> None:
        """Answer every line, flushing after each answer.

        Raises:
            InputError: a malformed statistics block (answers before it are already written).
        """
        try:
            for line in lines:
                for answer in self.answers(line):
                    out.write(answer + "\n")
                out.flush()
        finally:
            out.flush()
