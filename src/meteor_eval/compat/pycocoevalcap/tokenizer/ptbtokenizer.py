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
        captions = [c["caption"] for v in captions_for_image.values() for c in v]
        lines = caption_tokens(captions)
        # Each image's lines are the next len(v) of the list; an image without captions gets no
        # entry (the original builds the dict from the (image, line) pairs).
        tokenized: dict[Any, list[str]] = {}
        end = 0
        for image_id, entries in captions_for_image.items():
            start, end = end, end + len(entries)
            if end > start:
                tokenized[image_id] = lines[start:end]
        return tokenized
