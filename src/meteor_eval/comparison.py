"""Comparing systems: every metric's results for several systems, with intervals and paired
tests, in one schema (``docs/output-schema.md``) for the API and the command line.

:func:`compare` is the API (``meteor_eval.compare``); the command line builds the same
:class:`ComparisonResult` from what it scored and prints :meth:`ComparisonResult.to_dict` in the
chosen format, so the two cannot drift apart.

Example:
    >>> from meteor_eval import compare
    >>> refs = [["the cat sat on the mat"], ["a dog barked"]]
    >>> result = compare({"a": ["the cat sat on the mat", "a dog barked"],
    ...                   "b": ["a cat on a mat", "the dog"]}, refs, metrics=("bleu",))
    >>> [round(system["bleu"]["score"], 2) for system in result.to_dict()["systems"]]
    [100.0, 9.87]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from meteor_eval.errors import ConfigError, InputError
from meteor_eval.metrics.protocol import Metric, Row
from meteor_eval.significance import SignificanceResult, paired_tests, significance_signature

__all__ = ["ComparisonResult", "SystemRun", "compare", "flatten"]


@dataclass
class SystemRun:
    """One metric's results for one system.

    Attributes:
        result: The corpus result object.
        rows: Each segment's statistics row (when kept).
        nrefs: Each segment's number of references (when rows are kept).
        segments: Each segment's result object (per-segment output).
    """

    result: Any
    rows: list[Row] | None = None
    nrefs: list[int] | None = None
    segments: list[Any] | None = None


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
                estimates = self.tests[metric.name].estimates[name] if self.tests else {}
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
                "signature": significance_signature(first),
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

    def test(self, metrics: Sequence[Metric[Any]] | None = None, **options: Any) -> None:
        """Compute intervals / paired tests on the kept rows (``options``: those of
        :func:`~meteor_eval.significance.paired_tests`)."""
        for metric in metrics or self.metrics:
            rows: dict[str, Sequence[Row]] = {}
            for name in self.names:
                kept = self.runs[name][metric.name].rows
                if kept is None:
                    raise ValueError(f"{name}: {metric.name} statistics rows were not kept")
                rows[name] = kept
            self.tests[metric.name] = paired_tests(metric, rows, **options)


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


def _metrics(metrics: Sequence[str | Metric[Any]]) -> list[Metric[Any]]:
    from meteor_eval.metrics.registry import metric_class

    out: list[Metric[Any]] = []
    for item in metrics:
        metric = metric_class(item)() if isinstance(item, str) else item
        if not isinstance(metric, Metric):
            raise ConfigError(f"metrics: {item!r} is neither a metric name nor a Metric")
        if any(m.name == metric.name for m in out):
            raise ConfigError(f"metrics: {metric.name} is given twice")
        out.append(metric)
    if not out:
        raise ConfigError("metrics: at least one metric is required")
    return out


def _systems(
    systems: Mapping[str, Sequence[str]] | None,
    references: Sequence[Sequence[str]] | None,
    data: Any,
    hyp_fields: Sequence[str] | None,
    ref_fields: Sequence[str] | None,
) -> tuple[dict[str, Sequence[str]], Sequence[Sequence[str]]]:
    if data is not None:
        if systems is not None or references is not None:
            raise ConfigError("give either systems and references or data, not both")
        from meteor_eval.tables import from_dataframe

        table = from_dataframe(data, hyp_fields=hyp_fields or (), ref_fields=ref_fields or ())
        return dict(table.hypotheses), table.references
    if systems is None or references is None:
        raise ConfigError("systems and references are required (or data with the fields)")
    if isinstance(systems, str) or not isinstance(systems, Mapping):
        raise TypeError("systems: expected a mapping of system name -> hypotheses")
    if not systems:
        raise InputError("systems: no system")
    return dict(systems), references


def compare(
    systems: Mapping[str, Sequence[str]] | None = None,
    references: Sequence[Sequence[str]] | None = None,
    *,
    metrics: Sequence[str | Metric[Any]] = ("meteor", "bleu", "rouge"),
    paired: str | None = None,
    ci: bool = False,
    baseline: str | None = None,
    n_samples: int | None = None,
    seed: int | None = 12345,
    confidence: float = 0.95,
    sentence_level: bool = False,
    data: Any = None,
    hyp_fields: Sequence[str] | None = None,
    ref_fields: Sequence[str] | None = None,
    jobs: int = 1,
    start_method: str | None = None,
) -> ComparisonResult:
    """Score several systems with several metrics, optionally with intervals and paired tests.

    Args:
        systems: Per system name, each segment's hypothesis (every system the same length).
        references: Each segment's references (shared by every system).
        metrics: Metric names (``"meteor"``, ``"bleu"``, ``"rouge"``: default settings) or
            configured metric objects (``Meteor(MeteorConfig.preset(...))``).
        paired: ``"bs"`` (paired bootstrap) or ``"ar"`` (approximate randomisation) against
            ``baseline`` (default: the first system); ``None``: no test.
        ci: Bootstrap intervals without a paired test.
        baseline: The system the others are tested against.
        n_samples: Resamples or trials (default 1000 for ``bs``, 10000 for ``ar``).
        seed: Random seed (``None``: not reproducible).
        confidence: Interval coverage.
        sentence_level: Keep every segment's result (``to_dict()["systems"][i]["segments"]``).
        data: Instead of ``systems``/``references``: a pandas DataFrame, one row a segment.
        hyp_fields: With ``data``: the columns of the systems (one column per system).
        ref_fields: With ``data``: the columns of references (a column of lists counts as
            several references).
        jobs: Processes to compute the statistics in (0: one per CPU); the results are
            identical.
        start_method: How worker processes start (:mod:`meteor_eval.processes`).

    Raises:
        ConfigError: unknown metric or test, bad counts, an unknown baseline, bad ``jobs`` or
            ``start_method``.
        InputError: systems of different lengths, segments without reference.
    """
    from meteor_eval.metrics.protocol import processes_for

    n_jobs = processes_for(jobs, start_method)
    hyps, refs = _systems(systems, references, data, hyp_fields, ref_fields)
    chosen = _metrics(metrics)
    result = ComparisonResult(list(hyps), chosen)
    nrefs = [len(group) for group in refs]
    for name, hypotheses in hyps.items():
        result.runs[name] = {}
        for metric in chosen:
            rows = metric.corpus_rows(hypotheses, refs, jobs=n_jobs, start_method=start_method)
            run = SystemRun(metric.score_rows(rows, nrefs), rows, nrefs)
            if sentence_level:
                run.segments = [
                    metric.segment_result(row, n) for row, n in zip(rows, nrefs, strict=True)
                ]
            result.runs[name][metric.name] = run
    if paired is not None or ci:
        result.test(
            baseline=baseline,
            method=paired,
            n_samples=n_samples,
            seed=seed,
            confidence=confidence,
        )
    elif baseline is not None:
        raise ConfigError("baseline needs paired='bs' or paired='ar'")
    return result
