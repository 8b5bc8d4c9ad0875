"""sacrebleu's ``Score`` and ``Signature`` conventions, for the BLEU drop-in.

A :class:`Score` prints as sacrebleu prints it (``BLEU = 48.53 82.4/50.0/... (BP = ...)``, with
``μ = mean ± ci`` after a bootstrap) and as sacrebleu's JSON. A :class:`Signature` is
sacrebleu's ``key:value|...`` line with ``version`` last; the version is
:data:`SIGNATURE_VERSION`, ``2.6.0+meteor-eval-X`` (sacrebleu 2.6.0's conventions, computed by
meteor-eval X), so that a score's provenance stays visible while the other fields compare equal
to sacrebleu's.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterable, Mapping
from typing import Any

from meteor_eval._version import __version__ as _meteor_eval_version

__all__ = ["SACREBLEU_API_VERSION", "SIGNATURE_VERSION", "Score", "Signature"]

#: The sacrebleu release whose API and numbers the drop-in follows.
SACREBLEU_API_VERSION = "2.6.0"
#: The drop-in's version, a valid PEP 440 version: sacrebleu's API version, local label naming
#: meteor-eval and its version (``2.6.0+meteor-eval-0.1.0``).
SIGNATURE_VERSION = f"{SACREBLEU_API_VERSION}+meteor-eval-{_meteor_eval_version}"

# sacrebleu's abbreviations for the short signature form (shared keys, then BLEU's).
_SHORT = {
    "version": "v",
    "nrefs": "#",
    "test": "t",
    "lang": "l",
    "subset": "S",
    "origlang": "o",
    "bs": "bs",
    "ar": "ar",
    "seed": "rs",
}


class Score:
    """A metric's corpus or sentence score, printed as sacrebleu prints it.

    Attributes:
        name: The metric's name (``"BLEU"``).
        score: The score.
    """

    def __init__(self, name: str, score: float) -> None:
        self.name = name
        self.score = score
        # Set by a bootstrap (``estimate_ci``); negative means "none" as in sacrebleu.
        self._mean = -1.0
        self._ci = -1.0
        self._verbose = ""

    def format(
        self,
        width: int = 2,
        score_only: bool = False,
        signature: str = "",
        is_json: bool = False,
    ) -> str:
        """The score as text or JSON, as sacrebleu's ``Score.format``.

        Args:
            width: Decimals.
            score_only: Only the number (ignored with ``is_json``).
            signature: A signature line to print after the name.
            is_json: A JSON object instead of a line.
        """
        number = f"{self.score:.{width}f}"
        record: dict[str, Any] = {
            "name": self.name,
            "score": float(number),
            "signature": signature,
        }
        if self._mean > 0:
            mean = f"{self._mean:.{width}f}"
            half = f"{self._ci:.{width}f}"
            interval = f"μ = {mean} ± {half}"
            number = f"{number} ({interval})"
            if is_json:
                record.update(
                    confidence_mean=float(mean), confidence_var=float(half), confidence=interval
                )
        if score_only and not is_json:
            return number
        head = f"{self.name}|{signature}" if signature else self.name
        line = f"{head} = {number}"
        if self._verbose:
            line = f"{line} {self._verbose}"
            record["verbose_score"] = self._verbose
        if is_json:
            for field in signature.split("|") if signature else ():
                key, value = field.split(":", 1)
                record[key] = value
            return json.dumps(record, indent=1, ensure_ascii=False)
        return line

    def estimate_ci(self, scores: Iterable[Score]) -> None:
        """Store the mean and the 95% half-width of resampled scores (sacrebleu's rule: the
        ``n // 40``-th smallest and largest values)."""
        ordered = sorted(s.score for s in scores)
        k = len(ordered) // 40
        self._ci = 0.5 * (ordered[len(ordered) - k - 1] - ordered[k])
        self._mean = statistics.mean(ordered)

    def __repr__(self) -> str:
        return self.format()


class Signature:
    """sacrebleu's reproducibility signature: ``nrefs:1|...|version:...``.

    Args:
        args: The metric's settings; ``num_refs`` is required (``-1`` prints ``var``),
            ``n_bootstrap`` and ``seed`` are optional.

    Raises:
        ValueError: no ``num_refs`` (the metric has not scored anything yet).
    """

    def __init__(self, args: Mapping[str, Any]) -> None:
        if "num_refs" not in args:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        num_refs = args["num_refs"]
        self._abbr = dict(_SHORT)
        self.info: dict[str, Any] = {
            "version": SIGNATURE_VERSION,
            "nrefs": "var" if num_refs == -1 else num_refs,
            "bs": args.get("n_bootstrap"),
            "ar": None,
            "seed": args.get("seed"),
            "test": args.get("test_set"),
            "lang": args.get("langpair"),
            "origlang": args.get("origlang"),
            "subset": args.get("subset"),
        }

    def format(self, short: bool = False) -> str:
        """``key:value`` fields joined by ``|``, unset ones left out, version last."""
        keys = [k for k in self.info if k != "version"] + ["version"]
        parts = []
        for key in keys:
            value = self.info[key]
            if value is None:
                continue
            if isinstance(value, bool):
                value = "yes" if value else "no"
            parts.append(f"{self._abbr[key] if short else key}:{value}")
        return "|".join(parts)

    def update(self, key: str, value: Any) -> None:
        """Set one field (sacrebleu's significance tests add ``seed``, ``bs`` and ``ar``)."""
        self.info[key] = value

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return self.format()
