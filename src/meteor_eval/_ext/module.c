/*
 * The extension module meteor_eval._ext._kernels: one module object holding the functions of
 * every kernel. Each C file of this folder defines its Python-facing functions (declared in
 * kernels.h); this file's one method table names them, with their docstrings, file by file.
 * meteor_eval._ext (__init__.py) is the one place that imports the module and says which
 * kernels are compiled.
 */

#include "kernels.h"

static PyMethodDef kernels_methods[] = {
    /* normalize.c */
    {"normalize_line", normalize_line_c, METH_VARARGS,
     "normalize_line(text, mode, keep_punctuation, prefixes) -> str\n\n"
     "METEOR 1.5's -norm normaliser (mode 0 English, 1 French, 2 other apostrophe rule)."},
    /* hash.c */
    {"java_hash", java_hash_c, METH_O,
     "java_hash(word) -> int\n\n"
     "Java's String.hashCode of word (signed 32-bit, over UTF-16 code units)."},
    /* stem.c */
    {"snowball_english", snowball_english_c, METH_O,
     "snowball_english(word) -> str\n\n"
     "The Snowball English stem (2.2.0 revision) of word, as the vendored Python engine gives."},
    {"snowball_porter", snowball_porter_c, METH_O,
     "snowball_porter(word) -> str\n\n"
     "The Snowball Porter stem (2.2.0 revision) of word, as the vendored Python engine gives."},
    {"nltk_porter_rules", nltk_porter_rules_c, METH_O,
     "nltk_porter_rules(word) -> str\n\n"
     "The rule steps of NLTK's Porter stemmer (NLTK_EXTENSIONS) on a lower-cased word."},
    {"nltk_porter_word", (PyCFunction)(void (*)(void))nltk_porter_word_c, METH_FASTCALL,
     "nltk_porter_word(irregular, word) -> str\n\n"
     "NLTK's Porter stem of word: lower-cased, irregular[word] if listed, the word itself if "
     "at most two characters long, else the rule steps."},
    /* candidates.c */
    {"equal_keys", equal_keys_c, METH_VARARGS,
     "equal_keys(hyp_keys, ref_keys, hyp_ids, ref_ids, stage, match_type, different) -> list\n\n"
     "One-word candidates of equal keys, reference order then hypothesis order."},
    {"sets_intersect", sets_intersect_c, METH_VARARGS,
     "sets_intersect(hyp_sets, ref_sets, hyp_ids, ref_ids, stage, match_type) -> list\n\n"
     "One-word candidates whose packed sorted int64 sets intersect and whose ids differ."},
    /* wordnet.c */
    {"wordnet_packed_sets", wordnet_packed_sets_c, METH_VARARGS,
     "wordnet_packed_sets(tokens, cache, blob, key_starts, table, starts, own_ends, pool, base,\n"
     "    rules) -> list[bytes]\n\n"
     "Each token's METEOR synonym set S(t) as packed int64 bytes from the binary WordNet table,\n"
     "taken from or stored in `cache` (resources.wordnet.meteor's packed_sets)."},
    /* paraphrase.c */
    {"paraphrase", paraphrase_c, METH_VARARGS,
     "paraphrase(nodes, token, record_b, hyp_ids, ref_ids, stage, match_type,\n"
     "           root=None, walks=None) -> list\n\n"
     "Paraphrase candidates from a paraphrase index, in METEOR 1.5's order; root is an\n"
     "optional paraphrase_root() table of the same index, walks an optional\n"
     "paraphrase_walk_cache() bound to it."},
    {"paraphrase_root", paraphrase_root_c, METH_VARARGS,
     "paraphrase_root(nodes, token) -> bytes\n\n"
     "Direct lookup table of the paraphrase trie root's children (uint32 per token id)."},
    {"paraphrase_vocab", paraphrase_vocab_c, METH_O,
     "paraphrase_vocab(section) -> (table, count)\n\n"
     "The word -> id table of a paraphrase index's vocabulary section ('\\n'-separated UTF-8\n"
     "words, a copy) and its number of words."},
    {"paraphrase_vocab_ids", paraphrase_vocab_ids_c, METH_VARARGS,
     "paraphrase_vocab_ids(table, tokens) -> list[int]\n\n"
     "The id of each str token in a paraphrase_vocab() table, -1 for a word it does not hold."},
    {"paraphrase_walk_cache", paraphrase_walk_cache_c, METH_NOARGS,
     "paraphrase_walk_cache() -> capsule\n\n"
     "An empty cache of reference walks for meteor15_pair/meteor15_rows: the fifth item of\n"
     "their trie tuple (one per index and scorer)."},
    /* beam.c */
    {"align", beam_align_c, METH_VARARGS,
     "align(by_ref, hyp_coverage, ref_coverage, aligner_weights, beam) -> list\n\n"
     "The METEOR 1.5 beam search over a candidate store's lists; returns the chosen matches\n"
     "in reference order."},
    {"align_stages", align_stages_c, METH_VARARGS,
     "align_stages(stage_lists, n_hyp, n_ref, aligner_weights, beam) -> list\n\n"
     "align() on the store built by appending each stage's candidate list in order."},
    /* stats.c */
    {"word_stats", word_stats_c, METH_VARARGS,
     "word_stats(matches, hyp_flags, ref_flags, n_stages) -> tuple\n\n"
     "(hyp_length, ref_length, hyp_function, ref_function, chunks, hyp_matched, ref_matched)\n"
     "then 4 counts per stage, for an aligner's sorted, non-overlapping word matches."},
    {"pool_rows", pool_rows_c, METH_VARARGS,
     "pool_rows(rows, skip_perfect) -> tuple or None\n\n"
     "The column sums of a buffer of int64 rows of 23 (the jar's order), a perfect row's chunks\n"
     "left out with skip_perfect; None when a sum would leave int64."},
    /* pair.c */
    {"meteor15_pair", meteor15_pair_c, METH_VARARGS,
     "meteor15_pair(kinds, hyp, ref, hashes, stems, paraphrase_ids, functions, synonym_starts,\n"
     "              synonym_pool, trie, aligner_weights, beam, match_type, budget=0)\n"
     "    -> (row, matches) or (None, units)\n\n"
     "Candidates of every stage, beam search and word statistics of one pair of word-type id\n"
     "arrays, in one call (row as word_stats() returns it); (None, units) when the pair has\n"
     "more candidate matches than a positive budget."},
    {"meteor15_rows", meteor15_rows_c, METH_VARARGS,
     "meteor15_rows(kinds, hyp_ids, hyp_offsets, ref_ids, ref_offsets, hashes, stems,\n"
     "              paraphrase_ids, functions, synonym_starts, synonym_pool, trie,\n"
     "              aligner_weights, beam, budget, out) -> None or (index, units)\n\n"
     "meteor15_pair() of a batch of pairs, each pair's 23 statistics (the jar's order) written\n"
     "to its row of the int64 buffer out; (index, units) for the first pair over budget."},
    {"packed_set_ends", packed_set_ends_c, METH_VARARGS,
     "packed_set_ends(sets, first) -> bytes\n\n"
     "Where each packed int64 set of the list sets ends, in items, once the sets are appended\n"
     "in order to a pool of first items (native int64 bytes): a word-type table's synonym\n"
     "column."},
    /* greedy.c */
    {"greedy_align", (PyCFunction)(void (*)(void))greedy_align_c, METH_FASTCALL,
     "greedy_align(hyp_words, ref_words, stem, synonyms[, raw_names]) -> list\n\n"
     "NLTK's staged greedy alignment: (i, j, stage) triples ordered by hypothesis index."},
    {"greedy_counts", (PyCFunction)(void (*)(void))greedy_counts_c, METH_FASTCALL,
     "greedy_counts(hyp_words, ref_words, stem, synonyms[, raw_names]) -> (exact, stem, "
     "synonym, chunks)\n\n"
     "greedy_align's matches counted per stage, and NLTK's chunks over them (0 when none)."},
    {"nltk_wordnet_names", nltk_wordnet_names_c, METH_VARARGS,
     "nltk_wordnet_names(lemma, tables, exceptions, rules) -> frozenset\n\n"
     "The raw lemma names of the synsets that NLTK's wordnet.synsets(lemma) reaches, over\n"
     "the binary NLTK view's sections (lemma lower-cased)."},
    {"nltk_wordnet_word", (PyCFunction)(void (*)(void))nltk_wordnet_word_c, METH_FASTCALL,
     "nltk_wordnet_word(tables, exceptions, rules, word) -> frozenset\n\n"
     "nltk_wordnet_names(word.lower(), tables, exceptions, rules), the word last (to be\n"
     "bound to its tables by functools.partial)."},
    /* tokens.c */
    {"paraphrase_tokenize", paraphrase_tokenize_c, METH_VARARGS,
     "paraphrase_tokenize(text, vocabulary) -> (ids, counts)\n\n"
     "Token ids (native uint32, new tokens added to the vocabulary dict) and the number of\n"
     "tokens (native int64) of each b'\\n'-separated phrase of text."},
    {"paraphrase_index_pass", paraphrase_index_pass_c, METH_VARARGS,
     "paraphrase_index_pass(blocks, batch=32768) -> (vocab, vocab_count, final, token,\n"
     "parent, a, b, skipped, lines)\n\n"
     "The paraphrase index builder's reading of a table (an iterable of decompressed bytes\n"
     "blocks) in one pass: vocabulary section, breadth-first numbering (final by discovery\n"
     "id; token and parent in final order), each kept record's phrase-A and phrase-B node,\n"
     "the records skipped for an empty phrase B and the lines read. batch: phrases read\n"
     "before their nodes are looked up (a batch ends after a record)."},
    /* texttok.c */
    {"text_tokenize", text_tokenize_c, METH_VARARGS,
     "text_tokenize(kind, line) -> list[str]\n\n"
     "One line through a BLEU or ROUGE tokenizer: 0 13a, 1 intl, 2 char, 3 none (each after\n"
     "rstrip), 4 rouge-score (str.lower() as far as it makes a-z), 5 ROUGE-1.5.5 (ASCII)."},
    {"intl_class", intl_class_c, METH_O,
     "intl_class(code) -> int\n\n0 other, 1 punctuation, 2 symbol, 3 number (intl tokenizer)."},
    /* bleu.c */
    {"bleu_rows", bleu_rows_c, METH_VARARGS,
     "bleu_rows(hypotheses, references, kind, order) -> bytes | None\n\n"
     "BLEU statistics rows (int64, sys_len, ref_len, counts, totals) of a chunk of lines:\n"
     "references[i] is the list of references of hypotheses[i]; kind 0 13a, 1 intl, 2 char,\n"
     "3 none. None when an item has the wrong type or a segment has no reference (the caller\n"
     "then names the problem)."},
    /* lcs.c */
    {"wlcs_mask_ids", wlcs_mask_ids_c, METH_VARARGS,
     "wlcs_mask_ids(reference, hypothesis, weight, mask) -> None\n\nSet mask[i] = 1 for the "
     "reference positions of ROUGE-1.5.5's weighted LCS (O(len(hypothesis) * "
     "sqrt(len(reference))) memory)."},
    {"lcs_length_ids", lcs_length_ids_c, METH_VARARGS,
     "lcs_length_ids(reference, hypothesis) -> int\n\nLCS length of two id sequences "
     "(bit-parallel, one row of memory)."},
    {"lcs_picks_ids", lcs_picks_ids_c, METH_VARARGS,
     "lcs_picks_ids(reference, hypothesis) -> list[int]\n\nReference positions of the LCS that "
     "rouge-score's backtrack picks, in O(len(hypothesis) * sqrt(len(reference))) bits."},
    /* rouge.c */
    {"rouge_rows", rouge_rows_c, METH_VARARGS,
     "rouge_rows(hypotheses, references, variants, separator, stem, average) -> bytes | None\n\n"
     "ROUGE statistics rows (float64, seven numbers per variant) of a chunk of lines with\n"
     "rouge-score's tokenizer: variants are N >= 1 (ROUGE-N), 0 (ROUGE-L), -1 (ROUGE-Lsum);\n"
     "stem is a str -> str callable or None; average pools the references' counts instead of\n"
     "keeping the best F-measure. None when an item has the wrong type or a segment has no\n"
     "reference (the caller then names the problem)."},
    /* frontend.c */
    {"meteor15_token_cache", meteor15_token_cache_c, METH_NOARGS,
     "meteor15_token_cache() -> capsule\n\n"
     "An empty token cache for meteor15_tokens() (one per word-type table)."},
    {"meteor15_tokens", meteor15_tokens_c, METH_VARARGS,
     "meteor15_tokens(lines, mode, keep_punctuation, prefixes, lower, known, cache)\n"
     "    -> (ids, offsets, new_words)\n\n"
     "METEOR 1.5's -norm preprocessing of a chunk of lines, each token interned to its\n"
     "word-type id in `known` (new types numbered from len(known) and listed in new_words);\n"
     "ids: native int32 bytes, offsets: native int64 bytes (len(lines) + 1 values)."},
    {"meteor15_lines", meteor15_lines_c, METH_VARARGS,
     "meteor15_lines(lines, mode, keep_punctuation, prefixes, lower, known, cache, limit)\n"
     "    -> (ids, offsets, new_words)\n\n"
     "meteor15_tokens() with a line cache in `cache` (at most `limit` lines): a line met\n"
     "before, in this call or an earlier one, has its ids copied from it. Same results."},
    /* caption.c */
    {"cider_d_scores", cider_d_scores_c, METH_VARARGS,
     "cider_d_scores(hypotheses, references, n, denominator, idf_of) -> bytes | None\n\n"
     "pycocoevalcap's per-image CIDEr-D (float64) of whitespace-tokenized captions: n <= 7,\n"
     "denominator = 2 * sigma ** 2, idf_of(df: bytes of float64 document frequencies) returns\n"
     "the float64 weights log(images) - log(max(1, df)). None when an item has the wrong type\n"
     "or an image has no reference."},
    {"coco_rouge_l_scores", coco_rouge_l_scores_c, METH_VARARGS,
     "coco_rouge_l_scores(hypotheses, references, beta_squared) -> bytes | None\n\n"
     "pycocoevalcap's per-image ROUGE-L (float64) of captions split on single spaces. None when\n"
     "an item has the wrong type or an image has no reference."},
    /* ptb.c */
    {"ptb_caption_lines", ptb_caption_lines_c, METH_VARARGS,
     "ptb_caption_lines(captions, cache, entry, context, first_chunk, line_python, split_words, "
     "abbreviations) -> list[str] | None\n\n"
     "pycocoevalcap's tokenized captions (meteor_eval.text.ptb._caption_tokens_python), or "
     "None when a caption holds a line break other than \\n or is not a str."},
    /* exact.c */
    {"exact_search", exact_search_c, METH_VARARGS,
     "exact_search(components, placed, budget) -> (pairs, ran_out, left)\n\n"
     "The paper2005 flavour's exact per-stage search (meteor_eval.align._exact_search._Search): "
     "the chosen (hyp, ref) pairs of the undecided components, whether the budget ran out, and "
     "the units left (negative once spent)."},
    {"exact_stages", exact_stages_c, METH_VARARGS,
     "exact_stages(stages, budget) -> (chosen, spent) | None\n\n"
     "meteor_eval.align.exhaustive.align_stages_bounded in one call, or None unless the stages "
     "are a list or tuple of lists or tuples of (int, int) tuples with positions in "
     "0 .. 2**31 - 1."},
    {"paper2005_rows", paper2005_rows_c, METH_VARARGS,
     "paper2005_rows(kinds, hyp_ids, hyp_offsets, ref_ids, ref_offsets, stems, starts, pool, "
     "budget, out) -> list[(pair, stages)]\n\n"
     "The paper2005 flavour's block path (meteor_eval.metrics.meteor.paper2005): each pair of "
     "word-type ids' candidates (kinds: 0 exact, 1 stem, 2 synonym), exact stages and 23 "
     "statistics in the jar's order written into out; returns the pairs whose search ran out "
     "of budget, with those stages."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef kernels_module = {
    PyModuleDef_HEAD_INIT, "_kernels",
    "Compiled METEOR kernels: normaliser, Java hash, stemmers, candidate generators, beam "
    "search, word statistics, the fused pair kernel, NLTK's greedy alignment and the paraphrase "
    "index builder's tokeniser.",
    -1, kernels_methods,
};

PyMODINIT_FUNC
PyInit__kernels(void)
{
    PyObject *module = PyModule_Create(&kernels_module);
    if (module == NULL) {
        return NULL;
    }
    crc32_init(); /* a constant table, read-only from here on */
#ifdef Py_GIL_DISABLED
    /* Free-threaded CPython: the kernels keep no global state and read only their arguments;
     * the one shared input, a scorer's word-type tables, is read and grown under the Python
     * lock WordTypes.lock (docs/threading.md), so the GIL need not be re-enabled on import. */
    if (PyUnstable_Module_SetGIL(module, Py_MOD_GIL_NOT_USED) < 0) {
        Py_DECREF(module);
        return NULL;
    }
#endif
    /* The paraphrase index layout the paraphrase kernels read (kernels.h): Python code pairs a
     * build with the index format it understands, so a stale build is not handed new arrays. */
    if (PyModule_AddIntConstant(module, "_paraphrase_layout", PARAPHRASE_LAYOUT) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
