"""sacrebleu's function API (``corpus_bleu``, ``raw_corpus_bleu``, ``sentence_bleu``).

Same names, positional order, defaults and results as ``sacrebleu.compat``; references are
*streams* (``references[k][i]`` is the ``k``-th reference of hypothesis ``i``). chrF and TER raise
``NotImplementedError``.

Example:
    >>> from meteor_eval.compat import sacrebleu
    >>> sacrebleu.corpus_bleu(["The cat sat on the mat."], [["The cat sat on the mat."]]).score
    100.00000000000004
    >>> round(sacrebleu.sentence_bleu("The cat sat.", ["The cat sat on the mat."]).score, 4)
    30.1815
"""

from __future__ import annotations

from collections.abc import Sequence

from meteor_eval.compat.sacrebleu._missing import missing_attributes
from meteor_eval.compat.sacrebleu.metrics.bleu import BLEU, BLEUScore

__all__ = ["corpus_bleu", "raw_corpus_bleu", "sentence_bleu"]


def corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: str = BLEU.TOKENIZER_DEFAULT,
    use_effective_order: bool = False,
) -> BLEUScore:
    """Corpus BLEU of ``hypotheses`` against reference streams, as sacrebleu's.

    Args:
        hypotheses: One string per segment.
        references: Reference streams, each with one line per hypothesis.
        smooth_method: ``exp``, ``floor``, ``add-k`` or ``none``.
        smooth_value: Value for ``floor`` / ``add-k`` (``None``: their defaults).
        force: Accepted for compatibility.
        lowercase: Case-insensitive BLEU.
        tokenize: Tokenizer name.
        use_effective_order: Leave out the n-gram orders the hypotheses lack.
    """
    metric = _bleu(smooth_method, smooth_value, force, lowercase, tokenize, use_effective_order)
    return metric.corpus_score(hypotheses, references)


def _bleu(
    smooth_method: str,
    smooth_value: float | None,
    force: bool,
    lowercase: bool,
    tokenize: str,
    use_effective_order: bool,
) -> BLEU:
    """The metric object of the functions' arguments (sacrebleu.compat names them so)."""
    return BLEU(
        lowercase=lowercase,
        force=force,
        tokenize=tokenize,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        effective_order=use_effective_order,
    )


def raw_corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    smooth_value: float | None = BLEU.SMOOTH_DEFAULTS["floor"],
) -> BLEUScore:
    """BLEU of already tokenized text: no tokenizer, ``floor`` smoothing, effective order."""
    return corpus_bleu(
        hypotheses,
        references,
        smooth_method="floor",
        smooth_value=smooth_value,
        force=True,
        tokenize="none",
        use_effective_order=True,
    )


def sentence_bleu(
    hypothesis: str,
    references: Sequence[str],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    lowercase: bool = False,
    tokenize: str = BLEU.TOKENIZER_DEFAULT,
    use_effective_order: bool = True,
) -> BLEUScore:
    """BLEU of one hypothesis against a plain list of references (effective order on)."""
    metric = _bleu(smooth_method, smooth_value, False, lowercase, tokenize, use_effective_order)
    return metric.sentence_score(hypothesis, references)


__getattr__ = missing_attributes(
    "sacrebleu.compat",
    [
        ("corpus_chrf", "chrf"),
        ("sentence_chrf", "chrf"),
        ("corpus_ter", "ter"),
        ("sentence_ter", "ter"),
    ],
)
