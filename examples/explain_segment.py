"""Why does a segment get its METEOR score? Its alignment, counts and formula.

Scores one hypothesis against one reference with the official METEOR 1.5 settings (without the
paraphrase table), prints the alignment (which words matched, by which module) and rebuilds
the score from the statistics with the formula of the METEOR 1.5 paper. Run from anywhere::

    python examples/explain_segment.py
"""

from __future__ import annotations

from meteor_eval import Meteor, MeteorConfig

HYPOTHESIS = "the cats were sitting on a mat"
REFERENCE = "the cat sat on the mat"


def main() -> None:
    """Print the alignment, the statistics and the formula filled in."""
    config = MeteorConfig.preset(
        "meteor15", normalization="norm", modules=("exact", "stem", "synonym")
    )
    scorer = Meteor(config)
    result = scorer.segment_score(HYPOTHESIS, [REFERENCE], alignment=True)
    assert result.alignment is not None
    print(result.alignment.render())
    print(
        f"P = {result.precision:.4f}  R = {result.recall:.4f}  Fmean = {result.fmean:.4f}  "
        f"chunks = {result.chunks}"
    )
    frag = result.fragmentation
    penalty = config.gamma * frag**config.beta
    print(
        f"penalty = {config.gamma} * {frag:.4f} ^ {config.beta} = {penalty:.4f}; "
        f"score = Fmean * (1 - penalty) = {result.fmean * (1 - penalty):.4f}"
    )
    print(f"METEOR = {result.score:.4f}")
    print(result.signature)


if __name__ == "__main__":
    main()
