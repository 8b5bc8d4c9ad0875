"""Drop-in replacement for the ``pycocoevalcap`` package (COCO caption evaluation), without Java.

Change the import prefix and nothing else::

    from meteor_eval.compat.pycocoevalcap.eval import COCOEvalCap
    from meteor_eval.compat.pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer
    from meteor_eval.compat.pycocoevalcap.bleu.bleu import Bleu
    from meteor_eval.compat.pycocoevalcap.meteor.meteor import Meteor
    from meteor_eval.compat.pycocoevalcap.rouge.rouge import Rouge
    from meteor_eval.compat.pycocoevalcap.cider.cider import Cider
    from meteor_eval.compat.pycocoevalcap.spice.spice import Spice

The tokenizer, BLEU, METEOR, ROUGE-L and CIDEr-D give pycocoevalcap 1.2's values without Java;
SPICE runs the original jar where Java and its models are present (see ``spice/spice.py``).
``from meteor_eval.compat.pycocoevalcap import Meteor`` keeps working.
"""

from __future__ import annotations

from .meteor.meteor import Meteor

__all__ = ["Meteor"]
