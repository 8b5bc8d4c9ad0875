"""What the sacrebleu drop-in leaves out, and the clear error that says so.

sacrebleu offers more than BLEU: chrF, TER, test-set downloads, a command line. The drop-in
covers BLEU and its significance tests only. Each module of the drop-in names the sacrebleu
attributes it does not provide; asking for one raises :class:`NotImplementedError` that names
meteor-eval and says what to use instead, rather than an anonymous ``AttributeError``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NoReturn

__all__ = ["DROPIN", "missing_attributes", "not_provided"]

#: How the error messages name this package.
DROPIN = "meteor-eval's sacrebleu drop-in (meteor_eval.compat.sacrebleu)"

_INSTEAD = {
    "chrf": "install sacrebleu itself for chrF",
    "ter": "install sacrebleu itself for TER",
    "data": (
        "meteor-eval downloads nothing; read your test set from files and pass the lines "
        "(or install sacrebleu for its test sets)"
    ),
    "cli": "use the meteor-eval command line: meteor-eval bleu --help",
    "tok": (
        "meteor-eval has the tokenizers 13a, intl, char, none and zh; install sacrebleu for "
        "the MeCab and SentencePiece tokenizers"
    ),
    "other": "install sacrebleu itself for it",
}


def not_provided(what: str, kind: str = "other") -> NotImplementedError:
    """The error for a sacrebleu feature the drop-in does not offer.

    Args:
        what: The feature, as a sacrebleu user would name it (``"sacrebleu.CHRF"``).
        kind: Which hint to give: ``chrf``, ``ter``, ``data``, ``cli``, ``tok`` or ``other``.

    Example:
        >>> print(not_provided("sacrebleu.CHRF", "chrf"))
        sacrebleu.CHRF is not provided by meteor-eval's sacrebleu drop-in \
(meteor_eval.compat.sacrebleu), which covers BLEU only; install sacrebleu itself for chrF
    """
    return NotImplementedError(
        f"{what} is not provided by {DROPIN}, which covers BLEU only; {_INSTEAD[kind]}"
    )


def missing_attributes(module: str, names: Iterable[tuple[str, str]]) -> Callable[[str], NoReturn]:
    """A module ``__getattr__`` raising :func:`not_provided` for sacrebleu's known names.

    Args:
        module: The sacrebleu module path the names belong to (``"sacrebleu.metrics"``).
        names: ``(attribute, kind)`` pairs; other attributes raise ``AttributeError`` as usual
            (so that tools probing modules for optional attributes are not disturbed).
    """
    kinds = dict(names)

    def __getattr__(name: str) -> NoReturn:  # noqa: N807 (a module's __getattr__)
        kind = kinds.get(name)
        if kind is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        raise not_provided(f"{module}.{name}", kind)

    return __getattr__
