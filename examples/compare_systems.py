"""Score and compare two systems with METEOR and BLEU, with intervals and a paired test.

Uses the example data that ships with meteor-eval (30 segments; the second reference set plays
a second system). Run from anywhere::

    python examples/compare_systems.py
"""

from __future__ import annotations

from meteor_eval import Meteor, MeteorConfig, compare
from meteor_eval.cli._systems import example_path
from meteor_eval.metrics.bleu import Bleu


def read(name: str) -> list[str]:
    """The lines of one of the bundled example files."""
    return example_path(name).read_text(encoding="utf-8").splitlines()


def main() -> None:
    """Print each system's scores, intervals and p-values, then the signatures."""
    baseline = read("hypotheses.txt")
    other = read("references2.txt")
    references = [[line] for line in read("references.txt")]
    meteor = Meteor(
        MeteorConfig.preset("meteor15", normalization="norm", modules=("exact", "stem", "synonym"))
    )
    result = compare(
        {"baseline": baseline, "other": other},
        references,
        metrics=(meteor, Bleu()),
        paired="bs",
        n_samples=1000,
        seed=12345,
    )
    document = result.to_dict()
    for system in document["systems"]:
        for value in ("meteor", "bleu"):
            numbers = system[value]
            low, high = numbers["ci"]
            p = numbers.get("p_value")
            test = f", p = {p:.4f}" if p is not None else " (baseline)"
            score = f"{numbers['score']:.4f} [{low:.4f}, {high:.4f}]"
            print(f"{system['name']:<9} {value:<6} {score}{test}")
    for signature in document["signature"].values():
        print(signature)
    print(document["test"]["signature"])


if __name__ == "__main__":
    main()
