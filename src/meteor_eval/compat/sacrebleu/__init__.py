"""Drop-in replacement for sacrebleu's BLEU (2.x API), computed by meteor-eval.

Replace ``import sacrebleu`` with::

    import meteor_eval.compat.sacrebleu as sacrebleu

and ``sacrebleu.corpus_bleu``, ``sacrebleu.raw_corpus_bleu``, ``sacrebleu.sentence_bleu``,
``sacrebleu.metrics.BLEU`` (``corpus_score``, ``sentence_score``, ``get_signature``, cached
references, ``n_bootstrap``) and ``sacrebleu.significance.PairedTest`` keep their arguments,
defaults and results, to the last bit, with meteor-eval's own implementation (no sacrebleu, no
download). sacrebleu's own ``test_bleu.py``, ``test_sentence_bleu.py`` and ``test_significance.py``
pass against this package unmodified (``scripts/run_peer_tests.py``).

The arguments keep sacrebleu's layout: references are *streams*, ``references[k][i]`` being the
``k``-th reference of hypothesis ``i``. meteor-eval's native
:func:`meteor_eval.metrics.bleu.corpus_bleu` takes them per segment; mixing the two layouts up
is caught here when the streams' length differs from the number of hypotheses (sacrebleu would
silently score a prefix).

Not provided (``NotImplementedError`` naming meteor-eval and the alternative): chrF, TER, test-set
downloads, the command line, the MeCab and SentencePiece tokenizers. The signature's version is
``2.6.0+meteor-eval-<version>`` (see :mod:`.metrics.base`); ``__version__`` is the same string.
Differences of detail are listed in :mod:`.metrics.bleu` and :mod:`.significance`.

Example:
    >>> import meteor_eval.compat.sacrebleu as sacrebleu
    >>> hyps = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
    >>> refs = [["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
    ...         ["The dog had bit the man.", "No one was surprised.",
    ...          "The man had bitten the dog."]]
    >>> round(sacrebleu.corpus_bleu(hyps, refs).score, 6)
    48.530827
"""

from __future__ import annotations

from meteor_eval.compat.sacrebleu._missing import missing_attributes
from meteor_eval.compat.sacrebleu.compat import corpus_bleu, raw_corpus_bleu, sentence_bleu
from meteor_eval.compat.sacrebleu.metrics import BLEU
from meteor_eval.compat.sacrebleu.metrics.base import SIGNATURE_VERSION

__version__ = SIGNATURE_VERSION
__description__ = "meteor-eval's drop-in for sacrebleu's BLEU"

__all__ = ["BLEU", "__version__", "corpus_bleu", "raw_corpus_bleu", "sentence_bleu"]

__getattr__ = missing_attributes(
    "sacrebleu",
    [
        ("CHRF", "chrf"),
        ("corpus_chrf", "chrf"),
        ("sentence_chrf", "chrf"),
        ("extract_char_ngrams", "chrf"),
        ("TER", "ter"),
        ("corpus_ter", "ter"),
        ("sentence_ter", "ter"),
        ("DATASETS", "data"),
        ("SACREBLEU_DIR", "data"),
        ("download_test_set", "data"),
        ("get_available_testsets", "data"),
        ("get_langpairs_for_testset", "data"),
        ("get_reference_files", "data"),
        ("get_source_file", "data"),
        ("smart_open", "data"),
        ("extract_word_ngrams", "other"),
        ("main", "cli"),
        ("tokenizers", "tok"),
    ],
)
