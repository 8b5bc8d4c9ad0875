"""A comparison's results: every metric's results for every system, in one schema.

:class:`ComparisonResult` is what :func:`meteor_eval.comparison.run` returns and what the
command line renders: per system and metric a :class:`SystemRun` (the corpus result, and when
kept each segment's statistics row and result, made by the metric from what an engine computed:
:meth:`Metric.system_run <meteor_eval.metrics.protocol.Metric.system_run>`), the significance
tests if any, and the schema of ``docs/output-schema.md`` (:meth:`ComparisonResult.to_dict`,
:func:`flatten`). It lives below the statistics-file and alignments formats, which write the
files of its runs without importing :mod:`meteor_eval.comparison`, which imports them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from typing import TYPE_CHECKING, Any

from meteor_eval.metrics.protocol import Metric, Row, SystemRun

if TYPE_CHECKING:
    from meteor_eval.significance import SignificanceResult

__all__ = ["ComparisonResult", "SystemRun", "flatten"]


@dataclass
class ComparisonResult:
    """Every metric's results for every system, and the significance tests if any.

    Attributes:
        names: The systems, in input order.
        metrics: The metrics, in output order.
        runs: Per system name, per metric name, its :class:`SystemRun`.
        tests: Per metric name, the :class:`~meteor_eval.significance.SignificanceResult`
            (empty without intervals or tests).
    """

    names: list[str]
    metrics: list[Metric[Any]]
    runs: dict[str, dict[str, SystemRun]] = field(default_factory=dict)
    tests: dict[str, SignificanceResult] = field(default_factory=dict)

    def signature(self, metric: Metric[Any], *, short: bool = False) -> str:
        """The metric's signature as the first system's result carries it."""
        run = self.runs[self.names[0]][metric.name]
        signature = getattr(run.result, "signature", None)
        if signature is None:  # ROUGE: one result per variant, one signature for all
            first = next(iter(run.result.values()))
            signature = metric.signature(first.signature.get("nrefs") or "1")
        text: str = signature.format(short=short)
        return text

    def to_dict(self, *, short_signature: bool = False) -> dict[str, Any]:
        """The results schema: ``{"signature": {metric: text}, "systems": [{"name": ...,
        "<value>": {"score": ..., components, "ci": [low, high], "p_value": ...}, "segments":
        [...]}], "baseline": ..., "test": {...}}`` (the last two with intervals or tests)."""
        systems: list[dict[str, Any]] = []
        for name in self.names:
            entry: dict[str, Any] = {"name": name}
            for metric in self.metrics:
                run = self.runs[name][metric.name]
                tested = self.tests.get(metric.name)  # test(metrics=[...]) may leave some out
                estimates = tested.estimates[name] if tested is not None else {}
                for value, report in metric.report(run.result).items():
                    estimate = estimates.get(value)
                    if estimate is not None:
                        report["ci"] = [estimate.low, estimate.high]
                        report["mean"] = estimate.mean
                        if estimate.p_value is not None:
                            report["p_value"] = estimate.p_value
                    entry[value] = report
                if run.segments is not None:
                    segments = entry.setdefault(
                        "segments", [{"segment": k + 1} for k in range(len(run.segments))]
                    )
                    for index, seg in enumerate(run.segments):
                        segments[index].update(metric.report(seg))
            systems.append(entry)
        payload: dict[str, Any] = {
            "signature": {m.name: self.signature(m, short=short_signature) for m in self.metrics},
            "systems": systems,
        }
        if self.tests:
            first = next(iter(self.tests.values()))
            payload["baseline"] = first.baseline
            payload["test"] = {
                "name": f"paired-{first.method}" if first.method else "bootstrap",
                "n_samples": first.n_samples,
                "n_confidence": first.n_confidence,
                "seed": first.seed,
                "confidence": first.confidence,
                "signature": _significance_signature(first),
            }
        return payload

    def to_frame(self) -> Any:
        """A pandas DataFrame: one row per system, one column per number (``meteor``,
        ``meteor_precision``, ``bleu_ci_low``, ``bleu_p_value``, ...).

        Raises:
            ImportError: pandas is not installed (``pip install 'meteor-eval[pandas]'``).
        """
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("to_frame needs pandas: pip install 'meteor-eval[pandas]'") from None
        records = []
        for system in self.to_dict()["systems"]:
            body = {k: v for k, v in system.items() if k not in ("name", "segments")}
            records.append({"system": system["name"], **flatten(body)})
        return pd.DataFrame.from_records(records).set_index("system")

    def test(self, metrics: Sequence[Metric[Any] | str] | None = None, **options: Any) -> None:
        """Compute intervals / paired tests on the kept rows, with the runs' scores as the
        observed ones.

        Args:
            metrics: Which of the comparison's metrics to test (default: all), by name
                (``"bleu"``) or as metric objects. A metric counts as one of them when it is of
                the same class with an equal configuration (the same formula); any other is
                refused, since the runs' scores are not its own, before any metric is tested.
                One that differs only in formula settings (``Metric.score_fields``) can be
                tested over these rows with ``paired_tests(metric, rows)``; other settings make
                other rows, so the text is scored again (``compare(..., metrics=[metric],
                paired=...)``).
            **options: Those of :func:`~meteor_eval.significance.paired_tests`.

        Raises:
            ValueError: a metric that did not make the runs, or rows that were not kept.
        """
        from meteor_eval.significance import paired_tests_with_scores

        if metrics is None:
            metrics = self.metrics
        if isinstance(metrics, str):
            raise TypeError(f"metrics: got the bare string {metrics!r}, expected a list of names")
        own = [self._own(metric) for metric in metrics]
        for metric in own:
            rows: dict[str, Sequence[Row]] = {}
            for name in self.names:
                kept = self.runs[name][metric.name].rows
                if kept is None:
                    raise ValueError(f"{name}: {metric.name} statistics rows were not kept")
                rows[name] = kept
            # the runs' own scores are the observed ones: the rows are not scored again
            observed = {
                name: metric.values(self.runs[name][metric.name].result) for name in self.names
            }
            self.tests[metric.name] = paired_tests_with_scores(metric, rows, observed, **options)

    def _own(self, metric: Metric[Any] | str) -> Metric[Any]:
        """The comparison's metric that ``metric`` names or equals; any other is refused,
        saying how it can be tested: over these rows when only its formula settings differ,
        else by scoring the text again."""
        known = ", ".join(own.name for own in self.metrics)
        if isinstance(metric, str):
            for own in self.metrics:
                if own.name == metric:
                    return own
            raise ValueError(f"metrics: {metric!r} is not one of this comparison's ({known})")
        same_class = [own for own in self.metrics if type(own) is type(metric)]
        if any(own.config == metric.config for own in same_class):
            return metric
        if not same_class:
            raise ValueError(f"metrics: {metric.name} is not one of this comparison's ({known})")
        theirs, config = same_class[0].config, metric.config
        names = [item.name for item in fields(config)] if is_dataclass(config) else []
        differ = [name for name in names if getattr(config, name) != getattr(theirs, name)]
        if differ and set(differ) <= type(metric).score_fields:
            advice = (
                "its rows are the runs' rows: test it with "
                "meteor_eval.significance.paired_tests(metric, rows)"
            )
        else:
            advice = (
                "these change the rows: score the text with it "
                "(compare(..., metrics=[metric], paired=...))"
            )
        settings = ", ".join(differ) or "settings"
        raise ValueError(
            f"metrics: {metric.name} with other {settings} did not make this comparison's runs; "
            f"{advice}"
        )


def _significance_signature(result: SignificanceResult) -> str:
    from meteor_eval.significance import significance_signature

    return significance_signature(result)


def flatten(record: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """A results record as flat columns: a headline number's ``score`` is named after it,
    other fields ``<name>_<field>``, lists ``_<index>`` (``ci``, ``*_ci``: ``_low``/``_high``,
    matches: ``_hyp``/``_ref``).

    Example:
        >>> record = {"score": 0.5, "ci": [0.4, 0.6], "matches": {"exact": [3, 4]}}
        >>> flat = flatten({"meteor": record})
        >>> list(flat.items())[:3]
        [('meteor', 0.5), ('meteor_ci_low', 0.4), ('meteor_ci_high', 0.6)]
        >>> flat["meteor_matches_exact_hyp"], flat["meteor_matches_exact_ref"]
        (3, 4)
    """
    out: dict[str, Any] = {}
    for key, value in record.items():
        name = f"{prefix}_{key}" if prefix else key
        if key == "score" and prefix:
            out[prefix] = value
        elif isinstance(value, Mapping):
            out.update(flatten(value, name))
        elif isinstance(value, list):
            if key == "ci" or key.endswith("_ci"):
                suffixes = ["low", "high"]
            elif prefix.endswith("_matches"):
                suffixes = ["hyp", "ref"]
            else:
                suffixes = [str(k) for k in range(len(value))]
            for suffix, item in zip(suffixes, value, strict=True):
                out[f"{name}_{suffix}"] = item
        else:
            out[name] = value
    return out
