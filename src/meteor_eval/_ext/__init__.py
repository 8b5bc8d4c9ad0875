"""The compiled kernels and the one place that loads them.

The C files of this package (one per concern, listed in ``kernels.h``) are built into one
optional extension module, ``meteor_eval._ext._kernels``. Every kernel has a pure-Python twin in
the module that owns its step, which is the reference and the fallback; the compiled one gives
the same results, faster:

============  ==========================================  =========================================
kernel        compiled functions (C file)                 pure-Python twin
============  ==========================================  =========================================
normalise     ``normalize_line`` (normalize.c)            ``text.normalize.normalize``
hash          ``java_hash`` (hash.c)                      ``text.tokenize.java_hash_python``
stem          ``snowball_english``,                       ``resources.stemmers`` (vendored
              ``snowball_porter``,                        Snowball), ``resources.nltk_porter``
              ``nltk_porter_rules``,
              ``nltk_porter_word`` (stem.c)
candidates    ``equal_keys``, ``sets_intersect``          ``match.exact``, ``match.stem``,
              (candidates.c), ``paraphrase``,             ``match.synonym``, ``match.paraphrase``,
              ``paraphrase_root``, ``paraphrase_vocab``,  ``resources.wordnet.meteor``'s
              ``paraphrase_vocab_ids`` (paraphrase.c),    ``packed_sets``,
              ``wordnet_packed_sets`` (wordnet.c)         ``resources.paraphrases``' dict
beam          ``align``, ``align_stages`` (beam.c)        ``align.search.beam_align_python``
stats         ``word_stats``, ``pool_rows`` (stats.c)     ``_word_stats_python`` of the METEOR
                                                          metric, ``stats.meteor.pool_flat_python``
pair          ``meteor15_pair``, ``meteor15_rows``,       the METEOR 1.5 pipeline, step by step;
              ``packed_set_ends`` (pair.c),               ``match.word_types``' synonym column
              ``paraphrase_walk_cache`` (paraphrase.c)
greedy        ``greedy_align``, ``greedy_counts``         ``align.greedy``
index         ``paraphrase_tokenize``,                    ``resources._paraphrase_build.``
              ``paraphrase_index_pass`` (tokens.c)        ``_tokenize_python``, the numpy
                                                          builder (``_Trie``, ``_blocks``)
text          ``text_tokenize``, ``intl_class``           ``text.bleu_tokenizers``,
              (texttok.c)                                 ``text.rouge_tokenizer``
bleu          ``bleu_rows`` (bleu.c)                      ``stats.bleu.bleu_segment_stats``
lcs           ``lcs_length_ids``, ``lcs_picks_ids``,      ``align.lcs.lcs_length``,
              ``wlcs_mask_ids`` (lcs.c)                   ``lcs_indices``, ``wlcs_hit_mask``
rouge         ``rouge_rows`` (rouge.c)                    the ROUGE metric's ``_variant_stats``
front         ``meteor15_tokens``,                        ``FastPipeline.tokens_python``
              ``meteor15_lines``, ``meteor15_token_cache`` (frontend.c)
caption       ``cider_d_scores``,                         ``metrics.caption.CiderModel``,
              ``coco_rouge_l_scores`` (caption.c)         ``metrics.caption.rouge_l_image``
ptb           ``ptb_caption_lines`` (ptb.c)               ``text.ptb._caption_tokens_python``
exact         ``exact_search``, ``exact_stages``,         ``align._exact_search.search_python``,
              ``paper2005_rows`` (exact.c)                ``align.exhaustive``, the paper2005
                                                          ``Pipeline``
============  ==========================================  =========================================

Callers ask this module for a compiled function or for the module once, at import (or, for the
stemmers, when a stemmer is built), and fall back to their twin when the answer is ``None``:
when the extension was not built (no C compiler at install time), when it predates a function,
or when the environment variable ``METEOR_EVAL_PURE_PYTHON`` is ``1`` at that moment.
:func:`kernel_status` says which kernels are compiled and in use; ``meteor-eval --version``
prints it (:func:`kernels_summary`). Nothing in this module imports the rest of the package.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping
from types import MappingProxyType, ModuleType
from typing import Any, Final

__all__ = [
    "KERNELS",
    "PURE_PYTHON_VARIABLE",
    "built_module",
    "compiled_function",
    "compiled_kernels",
    "kernel_status",
    "kernels_summary",
    "pure_python_forced",
]

#: The environment variable that forces every pure-Python twin when it is ``1``.
PURE_PYTHON_VARIABLE: Final = "METEOR_EVAL_PURE_PYTHON"

#: Each kernel's name and the functions of the compiled module that make it up, in the order of
#: the data flow (text, tokens, matches, alignment, statistics).
KERNELS: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "normalise": ("normalize_line",),
        "hash": ("java_hash",),
        "stem": ("snowball_english", "snowball_porter", "nltk_porter_rules", "nltk_porter_word"),
        "candidates": (
            "equal_keys",
            "sets_intersect",
            "paraphrase",
            "paraphrase_root",
            "paraphrase_vocab",
            "paraphrase_vocab_ids",
            "wordnet_packed_sets",
        ),
        "beam": ("align", "align_stages"),
        "stats": ("word_stats", "pool_rows"),
        "pair": ("meteor15_pair", "meteor15_rows", "paraphrase_walk_cache", "packed_set_ends"),
        "greedy": ("greedy_align", "greedy_counts", "nltk_wordnet_names", "nltk_wordnet_word"),
        "index": ("paraphrase_tokenize", "paraphrase_index_pass"),
        "text": ("text_tokenize", "intl_class"),
        "bleu": ("bleu_rows",),
        "lcs": ("lcs_length_ids", "lcs_picks_ids", "wlcs_mask_ids"),
        "rouge": ("rouge_rows",),
        "front": ("meteor15_tokens", "meteor15_lines", "meteor15_token_cache"),
        "caption": ("cider_d_scores", "coco_rouge_l_scores"),
        "ptb": ("ptb_caption_lines",),
        "exact": ("exact_search", "exact_stages", "paper2005_rows"),
    }
)


def _import_built() -> ModuleType | None:
    """The compiled module, or ``None`` when it was not built (or cannot load here)."""
    try:
        return importlib.import_module("meteor_eval._ext._kernels")
    except ImportError:
        return None


_BUILT: Final[ModuleType | None] = _import_built()


def built_module() -> ModuleType | None:
    """The compiled module whether or not it is in use, or ``None`` when it was not built.

    Only for code that compares or times the two implementations on purpose (parity tests,
    benchmarks, :func:`meteor_eval.align.search.beam_align_compiled`); scoring code asks
    :func:`compiled_kernels` or :func:`compiled_function`, which honour
    ``METEOR_EVAL_PURE_PYTHON=1``.
    """
    return _BUILT


def pure_python_forced() -> bool:
    """Whether ``METEOR_EVAL_PURE_PYTHON=1`` is set now (every caller then uses its twin)."""
    return os.environ.get(PURE_PYTHON_VARIABLE) == "1"


def compiled_kernels(*names: str) -> ModuleType | None:
    """The compiled module, if it is in use and provides every function in ``names``.

    Returns ``None`` (so the caller's pure-Python twin runs) when the extension is missing,
    predates one of those functions, or ``METEOR_EVAL_PURE_PYTHON=1`` is set. The environment is
    read on every call; callers call once, at import.

    Example:
        >>> kernels = compiled_kernels("equal_keys")
        >>> kernels is None or callable(kernels.equal_keys)
        True
    """
    if _BUILT is None or pure_python_forced():
        return None
    if not all(hasattr(_BUILT, name) for name in names):
        return None
    return _BUILT


def compiled_function(name: str) -> Callable[..., Any] | None:
    """The compiled function ``name`` if it is in use, else ``None`` (see :func:`compiled_kernels`).

    Example:
        >>> java_hash = compiled_function("java_hash")
        >>> java_hash is None or java_hash("Aa") == 2112
        True
    """
    kernels = compiled_kernels(name)
    if kernels is None:
        return None
    function: Callable[..., Any] = getattr(kernels, name)
    return function


def kernel_status() -> dict[str, bool]:
    """Each kernel of :data:`KERNELS` and whether it is compiled and in use now.

    Example:
        >>> list(kernel_status())  # doctest: +NORMALIZE_WHITESPACE
        ['normalise', 'hash', 'stem', 'candidates', 'beam', 'stats', 'pair', 'greedy', 'index',
         'text', 'bleu', 'lcs', 'rouge', 'front', 'caption', 'ptb', 'exact']
    """
    return {kernel: compiled_kernels(*names) is not None for kernel, names in KERNELS.items()}


def kernels_summary() -> str:
    """One line saying which kernels run compiled, as ``meteor-eval --version`` prints it.

    ``kernels: compiled (normalise, hash, ...)`` when every kernel is; ``kernels: pure Python
    (METEOR_EVAL_PURE_PYTHON=1)`` or ``kernels: pure Python (extension not built)`` when none
    is; and both lists when a build predates some kernels.
    """
    if _BUILT is None:
        return "kernels: pure Python (extension not built)"
    if pure_python_forced():
        return f"kernels: pure Python ({PURE_PYTHON_VARIABLE}=1)"
    status = kernel_status()
    compiled = [kernel for kernel, used in status.items() if used]
    missing = [kernel for kernel, used in status.items() if not used]
    if not compiled:
        return "kernels: pure Python (no kernel in this build)"
    line = f"kernels: compiled ({', '.join(compiled)})"
    if missing:
        line += f"; pure Python ({', '.join(missing)}: not in this build)"
    return line
