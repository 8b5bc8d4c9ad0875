"""Drop-in replacement for ``pycocoevalcap.tokenizer.ptbtokenizer.PTBTokenizer``, without Java.

The original writes every caption on a line of a temporary file, runs Stanford CoreNLP 3.4.1's
``PTBTokenizer -preserveLines -lowerCase`` on it and drops the tokens of ``PUNCTUATIONS``. This
class gives the same strings in process (:mod:`meteor_eval.text.ptb`): no temporary file, no
JVM, no locale dependence.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meteor_eval.text.ptb import PUNCTUATIONS as _PUNCTUATIONS
from meteor_eval.text.ptb import caption_tokens

__all__ = ["PUNCTUATIONS", "PTBTokenizer"]

#: The original's list of punctuation tokens removed after tokenizing.
PUNCTUATIONS = sorted(_PUNCTUATIONS)


class PTBTokenizer:
    """``PTBTokenizer().tokenize({id: [{"caption": str}, ...]}) -> {id: [str, ...]}``.

    Example:
        >>> PTBTokenizer().tokenize({7: [{"caption": "A dog's toy (red)."}]})
        {7: ["a dog 's toy -lrb- red -rrb-"]}
    """

    def tokenize(
        self, captions_for_image: Mapping[Any, Sequence[Mapping[str, Any]]]
    ) -> dict[Any, list[str]]:
        """Tokenized captions per image, in the input's order.

        Raises:
            KeyError: an annotation has no ``caption`` field (as the original).
        """
        image_ids = [k for k, v in captions_for_image.items() for _ in range(len(v))]
        captions = [c["caption"] for v in captions_for_image.values() for c in v]
        tokenized: dict[Any, list[str]] = {}
        for image_id, line in zip(image_ids, caption_tokens(captions), strict=True):
            tokenized.setdefault(image_id, []).append(line)
        return tokenized
