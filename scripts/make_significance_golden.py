"""Golden values of BLEU significance tests from sacrebleu (for the test module
tests/reference/test_significance_vs_sacrebleu.py).

Systems (all against ../shared/data/meteor15/xray-reference, 2,489 segments):

* ``system1``, ``system2``: the xray systems;
* ``near``: system1 with every 40th segment taken from system2 (close to system1, so p-values
  are not all at their minimum);
* ``copy``: system1 unchanged.

For each test sacrebleu's ``PairedTest`` (the code behind ``sacrebleu --paired-bs`` and
``--paired-ar``) runs with seed 12345 (``SACREBLEU_SEED``, its default), ``BLEU()`` defaults,
system1 as the baseline: ``bs`` with 1000 resamples, ``ar`` with 10000 trials and 1000 bootstrap
resamples for the intervals. Recorded per system: score, p-value, mean and half-width of the
95% interval. Run from the repository root (sacrebleu 2.6.0 made the committed file)::

    python scripts/make_significance_golden.py
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "meteor15"
OUT = ROOT / "tests" / "reference" / "golden" / "significance" / "sacrebleu.json"


def systems() -> tuple[dict[str, list[str]], list[str]]:
    """The four systems and the references (see the module docstring)."""
    ref = (DATA / "xray-reference").read_text(encoding="utf-8").splitlines()
    one = (DATA / "xray-system1.hyp").read_text(encoding="utf-8").splitlines()
    two = (DATA / "xray-system2.hyp").read_text(encoding="utf-8").splitlines()
    near = [b if k % 40 == 0 else a for k, (a, b) in enumerate(zip(one, two, strict=True))]
    return {"system1": one, "system2": two, "near": near, "copy": list(one)}, ref


def sacrebleu_paired(method: str) -> tuple[int, dict[str, dict[str, object]]]:
    """sacrebleu's paired test ``method`` (``bs`` or ``ar``, its default samples) of BLEU over
    :func:`systems`: the number of samples and, per system, score, p-value, mean and interval."""
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    named, ref = systems()
    test = PairedTest(
        list(named.items()),
        {"BLEU": BLEU()},
        [ref],
        test_type=method,
        n_samples=0,
        n_ar_confidence=0 if method == "ar" else -1,
    )
    _, scores = test()
    records: dict[str, dict[str, object]] = {
        name: {"score": r.score, "p_value": r.p_value, "mean": r.mean, "ci": r.ci}
        for name, r in zip(scores["System"], scores["BLEU"], strict=True)
    }
    return test.n_samples, records


def main() -> None:
    import sacrebleu

    out: dict[str, object] = {"sacrebleu": sacrebleu.__version__, "seed": 12345, "tests": {}}
    for method in ("bs", "ar"):
        n_samples, records = sacrebleu_paired(method)
        out["tests"][method] = {"n_samples": n_samples, "systems": records}  # type: ignore[index]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
