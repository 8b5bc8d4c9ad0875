"""Mergeable metric objects: accumulate statistics batch by batch, across processes, then score.

``MeteorMetric``, ``BleuMetric`` and ``RougeMetric`` hold a metric's *state*: the merged
statistics of every segment seen (and, where the corpus score needs them, each segment's row),
never the text. ``update`` adds segments, ``merge`` (or ``+``) adds another object's segments
after this one's, ``compute`` returns the same result object as ``corpus_score`` on all the
segments in that order, bit for bit, however they were split into updates and merges (a property
test checks it for every flavour and metric). ``state_dict`` is small, picklable and JSON-ready;
``from_state_dict`` rebuilds the object in another process. Models: torchmetrics'
``update``/``compute``/``merge_state`` and HF evaluate's ``add_batch``.

The state is the metric protocol's own running total
(:class:`~meteor_eval.metrics.protocol.Total`, grown and merged by the protocol's rules): one
model of a metric's statistics, whether ``corpus_score``, a parallel engine or these objects
hold them.

How exactness is kept: metrics whose statistics are integers (METEOR pooled, BLEU) merge by sums,
which are exact in any grouping; ROUGE (float statistics) holds each column's exact sum
(:class:`~meteor_eval.stats.exactsum.ExactSum`: integer sums again, rounded once by ``compute``),
so its state stays the same size however many segments it has seen (the rows are kept only
for a bootstrap interval); METEOR with ``aggregate="mean"`` keeps each segment's row, so
``compute`` takes the mean of their scores exactly as ``corpus_score``.

Metric objects are shared: two objects with the same configuration use one scorer, so resources
(WordNet, the paraphrase index, stemmers) load once per process however many objects exist.

Example:
    >>> from meteor_eval import BleuMetric
    >>> first, second = BleuMetric(), BleuMetric()
    >>> first.update(["the cat sat on the mat"], [["the cat sat on the mat"]])
    >>> second.update(["a dog"], [["the dog barked"]])
    >>> total = first + second
    >>> result = total.compute()
    >>> round(result.score, 4), total.count
    (81.5492, 2)
    >>> from meteor_eval import Bleu
    >>> Bleu().corpus_score(["the cat sat on the mat", "a dog"],
    ...                     [["the cat sat on the mat"], ["the dog barked"]]) == result
    True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from meteor_eval.errors import ConfigError
from meteor_eval.metrics.cache import LruCache
from meteor_eval.metrics.protocol import Metric, Row, Total
from meteor_eval.stats.exactsum import ExactSum

__all__ = ["BleuMetric", "MergeableMetric", "MeteorMetric", "RougeMetric"]

_STATE_FORMAT = 1
#: The metric objects of the mergeable metrics, by class and configuration.
_SHARED: LruCache[tuple[type[Any], Any], Metric[Any]] = LruCache(16)


def _shared_metric(cls: type[Metric[Any]], config: Any) -> Metric[Any]:
    """One metric object per configuration and process (resources load once; the 16 most
    recently used configurations are kept)."""
    return _SHARED.get((cls, config), lambda: cls(config))


class MergeableMetric:
    """A metric's accumulated statistics (see the module docstring).

    Args:
        metric: The configured metric (the subclasses share one per configuration).
    """

    family: ClassVar[str] = ""

    def __init__(self, metric: Metric[Any]) -> None:
        self.metric = metric
        self.reset()

    # -- accumulate ------------------------------------------------------------------------

    def _keeps_rows(self) -> bool:
        """Rows are kept where the corpus score needs them, and where totals of parts do not
        merge bit for bit (:meth:`Metric.groups_exactly`): ``compute`` then folds them."""
        return self.metric.keeps_rows() or not self.metric.groups_exactly()

    def reset(self) -> None:
        """Forget every segment."""
        self._total = Total(
            self.metric.zero(), keep_rows=self._keeps_rows(), exact_sums=self.metric.exact_sums()
        )

    @property
    def count(self) -> int:
        """The number of segments added."""
        return self._total.count

    def update(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]],
        *,
        jobs: int = 1,
        start_method: str | None = None,
    ) -> None:
        """Add segments: ``references[i]`` holds the references of ``hypotheses[i]`` (the
        checks and errors of ``corpus_score``; nothing is added when they fail). ``jobs``
        processes (0: one per CPU; started by ``start_method``) add the same statistics."""
        rows = self.metric.corpus_rows(hypotheses, references, jobs=jobs, start_method=start_method)
        self.metric.add_rows(self._total, rows)
        self._total.nrefs.update(len(refs) for refs in references)

    def merge(self, other: MergeableMetric) -> MergeableMetric:
        """Add ``other``'s segments after this object's (in place); returns ``self``.

        Raises:
            ConfigError: ``other`` is another metric or configuration.
        """
        if not isinstance(other, MergeableMetric):
            raise TypeError(f"cannot merge a {type(other).__name__} into a {type(self).__name__}")
        if type(other.metric) is not type(self.metric) or other.metric.config != self.metric.config:
            raise ConfigError(
                "cannot merge statistics of different metrics or settings: "
                f"{self.signature()} vs {other.signature()}"
            )
        self._total.merge_total(self.metric, other._total)
        return self

    def __add__(self, other: MergeableMetric) -> MergeableMetric:
        """A new object with this object's segments, then ``other``'s."""
        out = self.copy()
        return out.merge(other)

    def copy(self) -> MergeableMetric:
        """An independent object with the same state."""
        return type(self).from_state_dict(self.state_dict())

    # -- score -------------------------------------------------------------------------------

    def compute(self) -> Any:
        """The corpus result of every segment added, as ``corpus_score`` gives it."""
        metric = self.metric
        total = self._total
        if not metric.groups_exactly():
            # merged totals of parts may differ in the last bits: fold the rows in input order
            assert total.rows is not None
            total = metric.total_of(total.rows, total.nrefs)
        return metric.result(total)

    def signature(self) -> str:
        """The metric's signature for the segments seen so far."""
        from meteor_eval.metrics.protocol import nrefs_label

        text: str = self.metric.signature(nrefs_label(self._total.nrefs)).format()
        return text

    # -- state ---------------------------------------------------------------------------------

    def state_dict(self) -> dict[str, Any]:
        """The state as plain JSON-ready data: the metric, its configuration and the
        statistics: the total; for exact sums (ROUGE) each column's exact sum as a few
        doubles (``"sums"``: :meth:`ExactSum.partials`), so that merged states keep every
        bit; each segment's row only where the corpus score needs them."""
        from meteor_eval.statsfile import config_fields

        total = self._total
        state: dict[str, Any] = {
            "format": _STATE_FORMAT,
            "metric": self.metric.name,
            "config": config_fields(self.metric),
            "count": total.count,
            "nrefs": sorted(total.nrefs),
            "total": list(total.row),
        }
        if total.sums is not None:
            state["sums"] = [total.sums.partials(k) for k in range(total.sums.width)]
        if total.rows is not None:
            state["rows"] = [list(row) for row in total.rows]
        return state

    @classmethod
    def from_state_dict(cls, state: Mapping[str, Any]) -> MergeableMetric:
        """Rebuild an object from :meth:`state_dict`'s data, checked by one validator
        (:func:`_checked_state`): a damaged state is refused, never scored.

        Raises:
            ConfigError: an unknown format, another metric than this class's, or a bad
                configuration.
            InputError: damaged statistics (the key and the problem named): a missing or
                extra key, rows missing for the count, a number that is not a whole one where
                the metric counts, a negative or impossible row, a total that is not the sum
                of the rows or not the rounded exact sums, exact sums that are not those of
                the rows, references counts that do not fit the segment count.
        """
        from meteor_eval.statsfile import config_from_fields

        if not isinstance(state, Mapping):
            raise TypeError(f"state: expected a mapping, got {type(state).__name__}")
        if state.get("format") != _STATE_FORMAT:
            raise ConfigError(f"state format {state.get('format')!r}; expected {_STATE_FORMAT}")
        name = str(state.get("metric"))
        if name not in _FAMILIES:
            raise ConfigError(f"state: unknown metric {name!r}; allowed: {', '.join(_FAMILIES)}")
        if cls.family and name != cls.family:
            raise ConfigError(f"a {name} state cannot become a {cls.__name__}")
        if not isinstance(state.get("config"), Mapping):
            raise ConfigError("state['config']: expected the configuration's fields")
        metric = _shared_metric(*config_from_fields(name, dict(state["config"])))
        target = cls if cls.family else _FAMILIES[name]
        out = target.__new__(target)
        out.metric = metric
        count, nrefs, total, rows, sums = _checked_state(state, metric, keep=out._keeps_rows())
        out._total = Total.restored(total, count=count, nrefs=nrefs, rows=rows, sums=sums)
        return out

    def __getstate__(self) -> dict[str, Any]:
        return self.state_dict()

    def __setstate__(self, state: dict[str, Any]) -> None:
        rebuilt = MergeableMetric.from_state_dict(state)
        self.__dict__.update(rebuilt.__dict__)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(segments={self.count}, {self.signature()})"


_STATE_KEYS = frozenset({"format", "metric", "config", "count", "nrefs", "total", "rows", "sums"})
#: Doubles of one column's exact sum in a state: 40 cover the whole double range.
_MAX_PARTIALS = 64


def _checked_sums(value: Any, width: int) -> ExactSum:
    """A state's exact sums: ``width`` lists of at most ``_MAX_PARTIALS`` finite numbers."""
    from meteor_eval.errors import InputError

    if not isinstance(value, list | tuple):
        raise InputError(f"state['sums']: expected a list of lists, got {type(value).__name__}")
    if len(value) != width:
        raise InputError(f"state['sums']: {len(value)} columns, the metric has {width}")
    for k, column in enumerate(value):
        if not isinstance(column, list | tuple) or len(column) > _MAX_PARTIALS:
            raise InputError(
                f"state['sums'][{k}]: expected a list of at most {_MAX_PARTIALS} numbers"
            )
        for j, x in enumerate(column):
            if isinstance(x, bool) or not isinstance(x, int | float) or not math.isfinite(x):
                raise InputError(f"state['sums'][{k}][{j}]: {x!r} is not a finite number")
    return ExactSum.from_partials(value)


def _number_list(key: str, value: Any, width: int, integral: bool) -> Row:
    """A row of a state: ``width`` finite numbers, whole numbers where the metric counts
    (``2.5`` is refused, not truncated to 2)."""
    from meteor_eval.errors import InputError

    if not isinstance(value, list | tuple):
        raise InputError(f"state[{key}]: expected a list of numbers, got {type(value).__name__}")
    if len(value) != width:
        raise InputError(f"state[{key}]: {len(value)} numbers, the metric has {width}")
    out: list[float] = []
    for k, x in enumerate(value):
        if isinstance(x, bool) or not isinstance(x, int | float) or not math.isfinite(x):
            raise InputError(f"state[{key}][{k}]: {x!r} is not a finite number")
        if integral:
            if not float(x).is_integer():
                raise InputError(f"state[{key}][{k}]: {x!r} is not a whole number")
            out.append(int(x))
        else:
            out.append(float(x))
    return tuple(out)


def _checked_state(
    state: Mapping[str, Any], metric: Metric[Any], *, keep: bool
) -> tuple[int, set[int], Row, list[Row] | None, ExactSum | None]:
    """The one validator of a mergeable state: ``(count, nrefs, total, rows, sums)``.

    A metric of exact sums needs ``"sums"``, unless the state has every row (as states of
    ROUGE's mean were written before its sums were exact): its sums are then the rows'.

    Raises:
        InputError: naming the key and what is wrong (see :meth:`MergeableMetric.from_state_dict`).
    """
    from meteor_eval.errors import InputError
    from meteor_eval.statsfile import row_problem

    extra = sorted(set(state) - _STATE_KEYS)
    if extra:
        raise InputError(f"state: unknown key(s) {', '.join(map(repr, extra))}")
    missing = [k for k in ("count", "nrefs", "total") if k not in state]
    if keep and "rows" not in state:
        missing.append("rows")
    exact_sums = metric.exact_sums()
    if exact_sums and "sums" not in state and "rows" not in state:
        missing.append("sums")
    if not exact_sums and "sums" in state:
        raise InputError(f"state['sums']: {metric.name} totals are not exact sums")
    if missing:
        raise InputError(f"state: missing key(s) {', '.join(map(repr, missing))}")
    count, nrefs = _checked_count(state)
    width = len(metric.zero())
    total = _number_list("'total'", state["total"], width, metric.exact)
    rows: list[Row] | None = None
    sums = _checked_sums(state["sums"], width) if "sums" in state else None
    if keep or (exact_sums and sums is None):
        rows = _checked_rows(state["rows"], metric, count, total)
        if exact_sums:
            of_rows = ExactSum(width)
            of_rows.add_rows(rows)
            if sums is None:
                sums = of_rows
            elif sums != of_rows:
                raise InputError("state['sums']: not the exact sums of state['rows']")
    if sums is not None:
        total = _rounded_sums(sums, total)
    problem = row_problem(metric.name, total, width)
    if problem is not None:
        raise InputError(f"state['total']: impossible statistics: {problem}")
    if count == 0 and any(total):
        raise InputError("state['total']: statistics for a count of 0")
    if rows is not None and not keep:
        rows = None  # rows of an older state: their exact sums are all that is needed
    return count, nrefs, total, rows, sums


def _rounded_sums(sums: ExactSum, total: Row) -> Row:
    """The rounded exact sums of a state, which must be its total to the last bit."""
    from meteor_eval.errors import InputError

    try:
        rounded = sums.rounded()
    except (OverflowError, ValueError) as exc:
        raise InputError(f"state['sums']: {exc}") from None
    if rounded != total:
        raise InputError("state['total']: not the rounded sums of state['sums']")
    return rounded


def _checked_count(state: Mapping[str, Any]) -> tuple[int, set[int]]:
    """A state's segment count and reference counts, which must fit each other."""
    from meteor_eval.errors import InputError

    count = state["count"]
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise InputError(f"state['count']: {count!r} is not a whole number >= 0")
    raw_nrefs = state["nrefs"]
    if not isinstance(raw_nrefs, list | tuple) or not all(
        isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in raw_nrefs
    ):
        raise InputError(f"state['nrefs']: {raw_nrefs!r} is not a list of whole numbers >= 1")
    nrefs = set(raw_nrefs)
    if bool(nrefs) != bool(count):
        raise InputError(
            f"state['nrefs']: {sorted(nrefs)} for {count} segment(s): every segment has "
            "references, and only segments do"
        )
    return count, nrefs


def _checked_rows(raw_rows: Any, metric: Metric[Any], count: int, total: Row) -> list[Row]:
    """A state's rows: ``count`` possible rows whose merged sum is ``total``."""
    from meteor_eval.errors import InputError
    from meteor_eval.statsfile import row_problem

    if not isinstance(raw_rows, list | tuple):
        raise InputError(f"state['rows']: expected a list of rows, got {type(raw_rows).__name__}")
    if len(raw_rows) != count:
        raise InputError(f"state['rows']: {len(raw_rows)} rows for a count of {count}")
    width = len(total)
    rows = [
        _number_list(f"'rows'][{k}", row, width, metric.exact) for k, row in enumerate(raw_rows)
    ]
    summed = metric.zero()
    for k, row in enumerate(rows):
        problem = row_problem(metric.name, row, width)
        if problem is not None:
            raise InputError(f"state['rows'][{k}]: impossible statistics: {problem}")
        summed = metric.merge(summed, row)
    pairs = zip(summed, total, strict=True)
    if not all(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9) for a, b in pairs):
        raise InputError("state['total']: not the sum of state['rows']")
    return rows


class MeteorMetric(MergeableMetric):
    """METEOR's mergeable state; ``options`` are those of ``MeteorConfig.preset`` (e.g.
    ``flavour="meteor15"``, ``normalization="norm"``, ``modules=("exact", "stem")``)."""

    family = "meteor"

    def __init__(self, **options: Any) -> None:
        from meteor_eval.metrics.meteor import Meteor, MeteorConfig

        super().__init__(_shared_metric(Meteor, MeteorConfig.preset(**options)))


class BleuMetric(MergeableMetric):
    """BLEU's mergeable state; ``options`` are ``BleuConfig``'s fields (``tokenize``,
    ``smooth_method``, ...)."""

    family = "bleu"

    def __init__(self, **options: Any) -> None:
        from meteor_eval.metrics.bleu import Bleu, BleuConfig

        super().__init__(_shared_metric(Bleu, BleuConfig(**options)))


class RougeMetric(MergeableMetric):
    """ROUGE's mergeable state; ``options`` are ``RougeConfig``'s fields (``types``,
    ``use_stemmer``, ...)."""

    family = "rouge"

    def __init__(self, **options: Any) -> None:
        from meteor_eval.metrics.rouge import Rouge, RougeConfig

        super().__init__(_shared_metric(Rouge, RougeConfig(**options)))


_FAMILIES: dict[str, type[MergeableMetric]] = {
    "meteor": MeteorMetric,
    "bleu": BleuMetric,
    "rouge": RougeMetric,
}
