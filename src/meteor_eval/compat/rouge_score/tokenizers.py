"""rouge-score's ``tokenizers`` module: the ``Tokenizer`` base class and ``DefaultTokenizer``.

``DefaultTokenizer(use_stemmer=True)`` stems with meteor-eval's implementation of NLTK's Porter
stemmer (``NLTK_EXTENSIONS`` mode, the one rouge-score uses); NLTK is not needed.

Example:
    >>> DefaultTokenizer(use_stemmer=True).tokenize("the friends had a meeting")
    ['the', 'friend', 'had', 'a', 'meet']
"""

from __future__ import annotations

import abc

from meteor_eval.text.rouge_tokenizer import tokenize_rouge_score

__all__ = ["DefaultTokenizer", "Tokenizer"]


class Tokenizer(abc.ABC):
    """Base class of tokenizers: ``tokenize(text)`` returns a list of tokens."""

    @abc.abstractmethod
    def tokenize(self, text: str) -> list[str]:
        """The tokens of ``text``."""
        raise NotImplementedError("Tokenizer must override tokenize() method")


class DefaultTokenizer(Tokenizer):
    """rouge-score's default tokenizer (see :func:`meteor_eval.compat.rouge_score.tokenize`).

    Args:
        use_stemmer: Porter-stem tokens longer than three characters.
    """

    def __init__(self, use_stemmer: bool = False) -> None:
        self.use_stemmer = bool(use_stemmer)

    def tokenize(self, text: str) -> list[str]:
        """The tokens of ``text``."""
        return list(tokenize_rouge_score(text, self.use_stemmer))
