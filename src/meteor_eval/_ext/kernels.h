/*
 * Shared declarations of the compiled kernels, built as one extension module,
 * meteor_eval._ext._kernels (module.c), from one C file per concern:
 *
 *   normalize.c    METEOR 1.5's -norm normaliser (normalize_line)
 *   hash.c         Java's String.hashCode, the jar's word identity (java_hash), and zlib's
 *                  CRC-32 of the WordNet views' key tables (crc32_bytes, no kernel of its own)
 *   stem.c         the Snowball English and Porter and NLTK Porter stemmers
 *                  (snowball_english, snowball_porter, nltk_porter_rules)
 *   match.c        Match tuples read from and made for Python (no kernel of its own)
 *   candidates.c   one-word candidate generators: equal keys (exact, stem) and intersecting
 *                  synonym sets (equal_keys, sets_intersect)
 *   paraphrase.c   paraphrase candidates over the memory-mapped trie (paraphrase,
 *                  paraphrase_root)
 *   beam.c         the METEOR 1.5 beam search (align, align_stages)
 *   stats.c        word statistics of a chosen alignment (word_stats), pooled rows (pool_rows)
 *   pair.c         one pair from word-type ids to statistics in one call (meteor15_pair)
 *   greedy.c       NLTK's staged greedy alignment (greedy_align) and the raw WordNet lemma
 *                  names it matches synonyms with (nltk_wordnet_names)
 *   tokens.c       token ids of paraphrase-table phrases for the index builder
 *                  (paraphrase_tokenize)
 *   texttok.c      sacrebleu's and rouge-score's tokenizers into interned ids (text_tokenize,
 *                  intl_class; the intl classes in the generated intl_tables.h)
 *   bleu.c         BLEU statistics rows of a chunk of lines (bleu_rows)
 *   lcs.c          bit-parallel LCS length and rouge-score's LCS positions in little memory
 *                  (lcs_length_ids, lcs_picks_ids)
 *   rouge.c        ROUGE-N/L/Lsum statistics rows of a chunk of lines (rouge_rows)
 *   frontend.c     METEOR 1.5's front end: a chunk of lines normalised, lower-cased, split and
 *                  interned to word-type ids in one call (meteor15_tokens)
 *   caption.c      pycocoevalcap's per-image CIDEr-D and ROUGE-L of a caption set
 *                  (cider_d_scores, coco_rouge_l_scores)
 *   wordnet.c      the METEOR WordNet table's packed synonym sets of new word types
 *                  (wordnet_packed_sets)
 *   ptb.c          pycocoevalcap's caption tokenizer over a list of captions: lines, plain
 *                  lines, separators and the chunk cache (ptb_caption_lines)
 *   exact.c        the paper2005 flavour's exact per-stage branch-and-bound search
 *                  (exact_search), its stages (exact_stages) and a batch of pairs'
 *                  rows (paper2005_rows)
 *
 * Only what crosses files is declared here: the candidate record and the beam search's
 * workspace, the Match readers and makers, candidate emission, the paraphrase trie and the
 * statistics, which pair.c chains without Python objects in between, and each file's
 * Python-facing functions, which module.c's method table lists. Every function shared
 * between files is hidden (KERNEL_API), so the module exports nothing but its initialiser and
 * no name here can meet a symbol of another library loaded in the process.
 */

#ifndef METEOR_EVAL_KERNELS_H
#define METEOR_EVAL_KERNELS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define KERNEL_API __attribute__((visibility("hidden")))
#else
#define KERNEL_API
#endif

/* 0 when arg is a str, else -1 with TypeError "<function>() takes a str" (the kernels that
 * take one word). */
static inline int
check_str_arg(PyObject *arg, const char *function)
{
    if (!PyUnicode_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "%s() takes a str", function);
        return -1;
    }
    return 0;
}

/* Release a buffer view if it was acquired (views start zeroed, so obj is NULL until then). */
static inline void
release_buffer(Py_buffer *view)
{
    if (view->obj != NULL) {
        PyBuffer_Release(view);
    }
}

/* release_buffer() each of n views: the release functions of structs holding an array of views
 * of their tables. */
static inline void
release_buffers(Py_buffer *views, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        release_buffer(&views[k]);
    }
}

/* A buffer of fixed-size items (writable when asked): its length in items, or -1 with an
 * exception set (the view then holds nothing to release). */
static inline Py_ssize_t
get_items(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, const char *what, int writable)
{
    if (PyObject_GetBuffer(obj, view, writable ? PyBUF_WRITABLE : PyBUF_SIMPLE) < 0) {
        return -1;
    }
    if (view->len % itemsize != 0) {
        PyErr_Format(PyExc_ValueError, "%s: expected packed %zd-byte values", what, itemsize);
        PyBuffer_Release(view);
        view->obj = NULL;
        return -1;
    }
    return view->len / itemsize;
}

/* A batch of pairs of word-type ids as the block kernels take it: the hypotheses' ids
 * (int32) and offsets (int64, n + 1), the references' likewise, and the int64 block the
 * pairs' 23 statistics are written to. */
typedef struct {
    Py_buffer views[5]; /* hyp ids, hyp offsets, ref ids, ref offsets, out */
    const int32_t *hyp, *ref;
    const int64_t *hoff, *roff;
    int64_t *out;
    Py_ssize_t n_pairs, n_hyp_ids, n_ref_ids;
} PairBatch;

/* Open b's buffers and check them (offsets n + 1 a side, ascending within their ids, each
 * pair's side at most INT32_MAX ids; out at least 23 values a pair): 0, or -1 with an exception
 * set. b must start zeroed; batch_close() releases it whatever happens. */
static inline int
batch_open(PairBatch *b, PyObject *hyp_obj, PyObject *hoff_obj, PyObject *ref_obj,
           PyObject *roff_obj, PyObject *out_obj)
{
    Py_buffer *v = b->views;
    const Py_ssize_t n_hyp_ids = get_items(hyp_obj, &v[0], 4, "hyp_ids", 0);
    const Py_ssize_t n_hoff = n_hyp_ids < 0 ? -1 : get_items(hoff_obj, &v[1], 8, "hyp_offsets", 0);
    const Py_ssize_t n_ref_ids = n_hoff < 0 ? -1 : get_items(ref_obj, &v[2], 4, "ref_ids", 0);
    const Py_ssize_t n_roff = n_ref_ids < 0 ? -1 : get_items(roff_obj, &v[3], 8, "ref_offsets", 0);
    const Py_ssize_t n_out = n_roff < 0 ? -1 : get_items(out_obj, &v[4], 8, "out", 1);
    if (n_out < 0) {
        return -1;
    }
    const Py_ssize_t n_pairs = n_hoff - 1;
    if (n_hoff < 1 || n_roff != n_hoff || n_out < 23 * n_pairs) {
        PyErr_SetString(PyExc_ValueError,
                        "offsets: expected n + 1 for each side, and out: 23 values per pair");
        return -1;
    }
    const int64_t *hoff = v[1].buf, *roff = v[3].buf;
    for (Py_ssize_t k = 0; k < n_pairs; k++) {
        if (hoff[k] < 0 || hoff[k] > hoff[k + 1] || hoff[k + 1] > n_hyp_ids || roff[k] < 0 ||
            roff[k] > roff[k + 1] || roff[k + 1] > n_ref_ids ||
            hoff[k + 1] - hoff[k] > INT32_MAX || roff[k + 1] - roff[k] > INT32_MAX) {
            PyErr_SetString(PyExc_ValueError, "offsets: not ascending within the id arrays");
            return -1;
        }
    }
    b->hyp = v[0].buf;
    b->ref = v[2].buf;
    b->hoff = hoff;
    b->roff = roff;
    b->out = v[4].buf;
    b->n_pairs = n_pairs;
    b->n_hyp_ids = n_hyp_ids;
    b->n_ref_ids = n_ref_ids;
    return 0;
}

static inline void
batch_close(PairBatch *b)
{
    release_buffers(b->views, 5);
}

/* PyMem_Free each of n pointers (NULL ones included): the free functions of structs owning
 * several arrays, and the kernels' exits releasing their scratch arrays. */
static inline void
free_each(void *const *ptrs, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        PyMem_Free(ptrs[k]);
    }
}

/* The total length of the n lists at items (a list's or a fast sequence's items, each one a
 * list: a search's candidate lists, the exact search's components), or -1 when one is not a
 * list, or is empty and allow_empty is 0; the caller then sets its own error. */
static inline Py_ssize_t
lists_total(PyObject *const *items, Py_ssize_t n, int allow_empty)
{
    Py_ssize_t total = 0;
    for (Py_ssize_t s = 0; s < n; s++) {
        if (!PyList_Check(items[s]) || (!allow_empty && PyList_GET_SIZE(items[s]) == 0)) {
            return -1;
        }
        total += PyList_GET_SIZE(items[s]);
    }
    return total;
}

/* Both sides of a call as fast sequences (new references in *hyp and *ref), each refused with
 * its own TypeError message; 0, or -1 with the error set and neither kept. */
static inline int
fast_sides(PyObject *hyp_obj, PyObject *ref_obj, const char *hyp_message,
           const char *ref_message, PyObject **hyp, PyObject **ref)
{
    *ref = NULL;
    *hyp = PySequence_Fast(hyp_obj, hyp_message);
    if (*hyp == NULL) {
        return -1;
    }
    *ref = PySequence_Fast(ref_obj, ref_message);
    if (*ref == NULL) {
        Py_CLEAR(*hyp);
        return -1;
    }
    return 0;
}

/* A capsule named `name` owning a new zeroed PyMem block of size bytes, freed by `destroy`
 * (which must release it with PyMem_Free); NULL with an exception set (the block freed). */
static inline PyObject *
calloc_capsule(size_t size, const char *name, PyCapsule_Destructor destroy)
{
    void *block = PyMem_Calloc(1, size);
    if (block == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *capsule = PyCapsule_New(block, name, destroy);
    if (capsule == NULL) {
        PyMem_Free(block);
    }
    return capsule;
}

#define FREE_EACH(...)                                                                             \
    free_each((void *const[]){__VA_ARGS__}, sizeof((void *const[]){__VA_ARGS__}) / sizeof(void *))

/* static void insertion_sort_<name>(T *a, Py_ssize_t n): a[0 .. n) of a scalar type T in
 * ascending order by insertion, for short arrays. */
#define DEFINE_INSERTION_SORT(name, T)                                                             \
    static void insertion_sort_##name(T *a, Py_ssize_t n)                                          \
    {                                                                                              \
        for (Py_ssize_t i = 1; i < n; i++) {                                                       \
            const T v = a[i];                                                                      \
            Py_ssize_t j = i;                                                                      \
            while (j > 0 && a[j - 1] > v) {                                                        \
                a[j] = a[j - 1];                                                                   \
                j--;                                                                               \
            }                                                                                      \
            a[j] = v;                                                                              \
        }                                                                                          \
    }

/* static void heap_sort_<name>(T *a, Py_ssize_t n): the same by heap sort (no recursion,
 * O(n log n)), for long ones. Scalars equal in value are indistinguishable, so both sorts give
 * the same array. */
#define DEFINE_HEAP_SORT(name, T)                                                                  \
    /* Move a[at] down the max-heap a[0 .. n) to its place (heap sort's one step). */              \
    static inline void sift_down_##name(T *a, Py_ssize_t n, Py_ssize_t at)                         \
    {                                                                                              \
        const T v = a[at];                                                                         \
        for (;;) {                                                                                 \
            Py_ssize_t child = 2 * at + 1;                                                         \
            if (child >= n) {                                                                      \
                break;                                                                             \
            }                                                                                      \
            if (child + 1 < n && a[child] < a[child + 1]) {                                        \
                child++;                                                                           \
            }                                                                                      \
            if (v >= a[child]) {                                                                   \
                break;                                                                             \
            }                                                                                      \
            a[at] = a[child];                                                                      \
            at = child;                                                                            \
        }                                                                                          \
        a[at] = v;                                                                                 \
    }                                                                                              \
    static void heap_sort_##name(T *a, Py_ssize_t n)                                               \
    {                                                                                              \
        for (Py_ssize_t at = n / 2 - 1; at >= 0; at--) {                                           \
            sift_down_##name(a, n, at);                                                            \
        }                                                                                          \
        for (Py_ssize_t end = n - 1; end > 0; end--) {                                             \
            const T top = a[0];                                                                    \
            a[0] = a[end];                                                                         \
            a[end] = top;                                                                          \
            sift_down_##name(a, end, 0);                                                           \
        }                                                                                          \
    }

/* ---- Candidates and the beam search (beam.c) ------------------------------------------------ */

/* A span of positions as bit-set words: words w0..w1, partial masks m0 (first) and m1 (last). */
typedef struct {
    Py_ssize_t w0, w1;
    uint64_t m0, m1;
} Span;

typedef struct {
    int64_t ref_start, ref_len, hyp_start, hyp_len;
    int64_t stage;
    int64_t gain;   /* floor(hyp_len * a) + floor(ref_len * a) */
    int64_t offset; /* |ref_start - hyp_start| */
    Span hyp, ref;  /* in the path's bit words: hypothesis words first, then reference words */
    PyObject *obj;  /* borrowed: the caller's lists keep it alive */
} Cand;

/* A materialised path. Rank fields first: (neg_w, chunks, dist) ascending is best first. */
typedef struct {
    int64_t neg_w, chunks, dist;
    int64_t idx;      /* next reference position to decide */
    int64_t last_end; /* end of the open chunk in the hypothesis, or -1 */
    int64_t chain;    /* last chosen (non-fixed) match node, or -1 */
    uint64_t key;     /* packed searches: (neg_w, chunks, dist) as one integer (beam.c) */
} Head;

/* A successor before materialisation; its generation order is its index in the step's array. */
typedef struct {
    int64_t neg_w, chunks, dist;
    int64_t idx, last_end;
    int32_t parent; /* index of the parent path */
    int32_t cand;   /* candidate added, or -1 (skip, fixed match or pass-through) */
} Succ;

/* One candidate of the beam search's store, 8 bytes: its reference start is the store position
 * it is filed under (first[j] .. first[j + 1]), so a document's millions of candidate matches
 * take memory linear in their number and small in each. */
typedef struct {
    int32_t hyp_start;
    uint16_t hyp_len;
    uint8_t ref_len;
    uint8_t stage;
} Entry;

/* A candidate of one step of the packed beam search, derived from its entry once per step
 * (beam.c) so that the loops over paths only test and set precomputed masks. */
typedef struct {
    uint64_t gain_key; /* minus its gain, shifted into the objective field of a key */
    uint64_t off_key;  /* its offset, shifted into the distance field */
    Span hs;           /* its hypothesis words */
    Span rs;           /* its reference words after the first (when ref_rest; else no mask) */
    int64_t hyp_start, hyp_end, idx;
    int32_t ref_rest; /* more than one reference word */
    int32_t one_word; /* hs and rs each in one bit word: one mask test each */
} StepCand;

/* A path of the packed search for segments of up to 128 words (beam.c): its rank key, its used
 * hypothesis and reference words as up to two machine words each, its chain, idx and last_end,
 * in 48 bytes. */
typedef struct {
    uint64_t key;     /* rank fields packed as in search_packed(), its index in the kept paths */
    uint64_t hyp[2];  /* used hypothesis words (bit i of word j: word 64 j + i) */
    uint64_t ref[2];  /* used reference words */
    int32_t chain;    /* last chosen (non-fixed) match node, or -1 */
    int16_t idx;      /* next reference position to decide */
    int16_t last_end; /* end of the open chunk in the hypothesis, or -1 */
} PathW;

/* A candidate of one step of that search: its words as masks of the path's bit words. */
typedef struct {
    uint64_t hyp_mask[2]; /* its hypothesis words */
    uint64_t ref_rest[2]; /* its reference words after the first (none for one word) */
    uint64_t ref_mask[2]; /* all its reference words */
    uint64_t gain_key;    /* minus its gain, shifted into the objective field of a key */
    uint64_t off_key;     /* its offset, shifted into the distance field */
    uint64_t *end;        /* the next free place of its bucket (a sentinel key 0 before it) */
    int64_t hyp_start;
    int32_t entry;        /* its index in the store (a chosen match's node) */
    int16_t idx, hyp_end; /* a successor's idx and last_end */
} CandW;

/* A chosen match of a path of the beam search: its store index and the node before it (-1:
 * none), one record, so that making a winner stores both through one pointer. */
typedef struct {
    int32_t cand, parent;
} Node;

#define ENTRY_MAX_HYP_LEN 65535
#define ENTRY_MAX_REF_LEN 255
#define ENTRY_MAX_STAGE 255

/* The beam search's store and workspace. Every array grows only (its capacity beside it), so
 * one Work serves many pairs of a batch without allocating per pair. */
typedef struct {
    Entry *entries;
    Py_ssize_t n_cands, entries_cap;
    PyObject **objs; /* align()/align_stages(): the Match object of each entry (borrowed) */
    Py_ssize_t objs_cap;
    Py_ssize_t *first; /* candidates of reference position j: entries[first[j] .. first[j+1]) */
    Py_ssize_t *fixed_at;
    Py_ssize_t *assigned;
    Py_ssize_t *slot; /* the next free entry of each reference position while filing */
    Py_ssize_t pos_cap;
    int64_t *hyp_cov, *ref_cov;
    Py_ssize_t hyp_cap, ref_cap;
    double *weight;
    Py_ssize_t n_weights, weight_cap;
    double weight_bound; /* largest |weight| (NaN if any is NaN), read with the weights */
    Head *cur_head, *new_head;
    Py_ssize_t head_cap;
    uint64_t *cur_bits, *new_bits;
    Py_ssize_t bits_cap;
    Succ *succ;     /* the successors of one step, in generation order */
    uint64_t *keys; /* their packed ranks, or their indices in rank order */
    uint64_t *tmp;
    Py_ssize_t succ_cap;
    Node *node; /* the chosen matches of the paths, as chains of (candidate, parent) */
    Py_ssize_t nodes, node_cap;
    int64_t *gain; /* searches of up to 128 words a side: the objective gain of each entry */
    Py_ssize_t gain_cap;
    int64_t *fan_gain; /* the general search: the gains of the current step's candidates */
    Py_ssize_t fan_gain_cap;
    Py_ssize_t *bucket_n; /* packed searches: successors per candidate bucket of a step */
    Py_ssize_t bucket_cap;
    const uint64_t **bucket_at; /* search_packed_w()'s merges: each bucket's next key and end */
    Py_ssize_t bucket_at_cap;
    uint64_t *bucket_head; /* and the buckets' next keys, in order */
    Py_ssize_t bucket_head_cap;
    StepCand *step; /* packed searches: the candidates of the current step */
    Py_ssize_t step_cap;
    PathW *cur_w, *new_w; /* packed searches of up to 128 words: the paths of two steps */
    Py_ssize_t path_w_cap;
    CandW *cand_w; /* packed searches of up to 128 words: the candidates of the current step */
    Py_ssize_t cand_w_cap;
} Work;

KERNEL_API void work_free(Work *w);

/* Make *buffer hold at least need items of the given size (contents kept); 0, or -1 with
 * MemoryError set. Capacities only grow, so a Work reused for a batch allocates rarely. */
static inline int
grow(void **buffer, Py_ssize_t *cap, Py_ssize_t need, size_t item)
{
    if (need <= *cap && *buffer != NULL) {
        return 0;
    }
    Py_ssize_t size = *cap > 0 ? *cap : 16;
    while (size < need) {
        if (size > PY_SSIZE_T_MAX / 2) {
            PyErr_NoMemory();
            return -1;
        }
        size *= 2;
    }
    if ((size_t)size > (size_t)PY_SSIZE_T_MAX / item) {
        PyErr_NoMemory();
        return -1;
    }
    void *grown = PyMem_Realloc(*buffer, (size_t)size * item);
    if (grown == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *buffer = grown;
    *cap = size;
    return 0;
}

/* Room for need items in *buffer (*cap of them now): nothing to do when they fit, else grow()
 * doubling from *cap, or from `first` items (16 times a power of two) when empty. 0, or -1 with
 * MemoryError set. Push n-th item: reserve(..., n + 1, ...). */
static inline int
reserve(void **buffer, Py_ssize_t *cap, Py_ssize_t need, Py_ssize_t first, size_t item)
{
    if (need <= *cap) {
        return 0;
    }
    return grow(buffer, cap, need < first ? first : need, item);
}

/* An open-addressing table of n entries, rebuilt twice as large (or `first` slots, a power of
 * two, when empty): slot -> entry index or -1, linear probing on hash[entry]. Replaces *slots
 * and *mask. 0, or -1 with MemoryError set (the old table kept). */
static inline int
rehash_slots(int32_t **slots, size_t *mask, const uint64_t *hash, Py_ssize_t n, size_t first)
{
    size_t size = *mask ? (*mask + 1) * 2 : first;
    int32_t *fresh = PyMem_Malloc(size * sizeof(int32_t));
    if (fresh == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t k = 0; k < size; k++) {
        fresh[k] = -1;
    }
    for (Py_ssize_t e = 0; e < n; e++) {
        size_t idx = (size_t)hash[e] & (size - 1);
        while (fresh[idx] >= 0) {
            idx = (idx + 1) & (size - 1);
        }
        fresh[idx] = (int32_t)e;
    }
    PyMem_Free(*slots);
    *slots = fresh;
    *mask = size - 1;
    return 0;
}

/* Make room in such a table of n entries before a lookup that may add one: rebuilt when half
 * full or not yet made (rehash_slots() with `first`). 0, or -1 with MemoryError set. */
static inline int
slots_room(int32_t **slots, size_t *mask, const uint64_t *hash, Py_ssize_t n, size_t first)
{
    if (*slots == NULL || (size_t)n * 2 >= *mask + 1) {
        return rehash_slots(slots, mask, hash, n, first);
    }
    return 0;
}

/* Linear probing in such a table for a key of hash h: stops with e the entry of hash h for
 * which the expression `same` (of e) holds, or with e = -1 and idx the free slot where the
 * key's new entry goes. A macro so that `same` is compiled into each table's lookup. */
#define SLOTS_PROBE(slots, mask, hash, h, idx, e, same)                                                for ((idx) = (size_t)(h) & (mask); ((e) = (slots)[idx]) >= 0 && !((hash)[e] == (h) && (same));          (idx) = ((idx) + 1) & (mask)) {                                                               }
KERNEL_API int read_weights(Work *w, PyObject *weights_obj);
KERNEL_API int load_raw(Work *w, const Cand *raw, Py_ssize_t n_cands, Py_ssize_t n_hyp,
                        Py_ssize_t n_ref, int keep_objs);
KERNEL_API int store_begin(Work *w, Py_ssize_t n_hyp, Py_ssize_t n_ref);
KERNEL_API int store_file(Work *w, Py_ssize_t n_ref);
KERNEL_API int entry_check(const Work *w, Py_ssize_t ref_len, Py_ssize_t hyp_len,
                           int64_t stage);
KERNEL_API int search(Work *w, Py_ssize_t n_hyp, Py_ssize_t n_ref, Py_ssize_t beam);
KERNEL_API void entry_cand(const Work *w, Py_ssize_t k, Py_ssize_t ref_start, Cand *out);

/* ---- Match tuples in and out (match.c) ------------------------------------------------------ */

static inline int
span_inside(const Cand *c, Py_ssize_t n_hyp, Py_ssize_t n_ref)
{
    return c->ref_start >= 0 && c->ref_len >= 1 && c->ref_start + c->ref_len <= n_ref &&
           c->hyp_start >= 0 && c->hyp_len >= 1 && c->hyp_start + c->hyp_len <= n_hyp;
}

KERNEL_API int read_int(PyObject *item, int64_t *out);
KERNEL_API int64_t *read_int64s(PyObject *seq, Py_ssize_t *n, const char *what);
KERNEL_API int read_int64_sides(PyObject *hyp_obj, PyObject *ref_obj, const char *hyp_what,
                                const char *ref_what, int64_t **hyp, Py_ssize_t *nh,
                                int64_t **ref, Py_ssize_t *nr);
KERNEL_API int read_ids(PyObject *hyp_obj, PyObject *ref_obj, int64_t **hid, Py_ssize_t *nh,
                        int64_t **rid, Py_ssize_t *nr);
KERNEL_API int read_match(PyObject *m, Cand *c, const char *what);
KERNEL_API PyObject *new_match(PyTypeObject *type, Py_ssize_t ref_start, Py_ssize_t ref_len,
                               Py_ssize_t hyp_start, Py_ssize_t hyp_len, PyObject *stage);
KERNEL_API int append_match(PyObject *out, PyTypeObject *type, Py_ssize_t ref_start,
                            Py_ssize_t ref_len, Py_ssize_t hyp_start, Py_ssize_t hyp_len,
                            PyObject *stage);
KERNEL_API int check_match_type(PyObject *type);

/* ---- Candidate generators (candidates.c, paraphrase.c) -------------------------------------- */

/* Where a generator writes its candidates: Match objects appended to a Python list, raw
 * candidates appended to a C array, or (the fused pair kernel) counted into a Work's store
 * (EMIT_COUNT: per-position counts and coverage) and then filed into it (EMIT_FILL). */
enum { EMIT_DEFAULT, EMIT_COUNT, EMIT_FILL };

/* A raw candidate kept by the pair kernel between its two passes (paraphrase candidates),
 * 12 bytes. */
typedef struct {
    int32_t ref_start, hyp_start;
    uint16_t hyp_len;
    uint8_t ref_len, stage;
} Raw;

typedef struct {
    PyObject *list; /* Python mode when not NULL */
    PyTypeObject *type;
    PyObject *stage_obj;
    Raw *raw; /* C mode */
    Py_ssize_t n, cap;
    int64_t stage;
    int mode;      /* EMIT_DEFAULT (list or raw), EMIT_COUNT, EMIT_FILL */
    Work *work;    /* EMIT_COUNT and EMIT_FILL */
    int64_t budget; /* most candidates counted or kept raw (0: no limit) */
    int64_t units;  /* candidates counted or kept raw so far */
    int over;       /* set (with no Python error) when units went over budget */
} Emit;

/* A Python generator's output: a new empty list, and in e the Emit that appends match_type
 * objects of `stage` to it; NULL with an exception set. */
static inline PyObject *
emit_list(Emit *e, PyObject *type, PyObject *stage)
{
    PyObject *out = PyList_New(0);
    *e = (Emit){.list = out, .type = (PyTypeObject *)type, .stage_obj = stage};
    return out;
}

/* One word's synonym set: n native int64 values at base (not necessarily aligned). */
typedef struct {
    const char *base;
    Py_ssize_t n;
} Packed;

/* The paraphrase index's node table (format version 2): node i's first child and first record
 * side by side, so that a step reads both ranges (node i's entry and node i + 1's, usually on
 * the same cache line) with one miss instead of one in each of two arrays. */
typedef struct {
    uint32_t first_child;
    uint32_t record_start;
} TrieNode;

/* The layout of the index arrays the kernels read (the index's format version). */
#define PARAPHRASE_LAYOUT 2

typedef struct {
    const TrieNode *node; /* nodes + 1 entries */
    const uint32_t *token, *record_b;
    Py_ssize_t nodes, records;
    /* Optional: root[word] = the root's child for token id word, or UINT32_MAX (see
     * paraphrase_root). The root has a child for most of the vocabulary, so its binary search
     * would touch about 15 cache lines scattered over the index for every start position. */
    const uint32_t *root;
    Py_ssize_t root_len;
    /* Optional (NULL: none): the walks of reference segments met before, from a
     * paraphrase_walk_cache() capsule (paraphrase.c). */
    struct WalkCache *walks;
} Trie;

/* The capsule of paraphrase_walk_cache(), or NULL with an exception set. */
KERNEL_API struct WalkCache *walk_cache_of(PyObject *capsule);

/* A hash table from int64 keys to ascending chains of hypothesis positions (candidates.c),
 * with grow-only arrays so that one serves every stage and pair of a batch. */
typedef struct {
    int64_t *keys;
    Py_ssize_t *head, *tail; /* first and last entry of a slot's chain; head -1: empty slot */
    Py_ssize_t slot_cap;
    Py_ssize_t *next, *pos; /* next entry of the same key (-1: last), an entry's position */
    Py_ssize_t entry_cap;
    Py_ssize_t *stamp, *hits; /* sets_core(): last reference seen per position, the hits */
    Py_ssize_t pos_cap;
    uint64_t mask;
    Py_ssize_t n;
    /* sets_core() for hypotheses of at most 256 words: a table of values, each with a bit set
     * of the hypothesis positions having it; every slot is empty between calls (the slots a
     * call fills, listed in set_used, are emptied before it returns) */
    struct SetSlot *set_slots;
    Py_ssize_t set_slot_cap;
    uint64_t *set_bits;
    Py_ssize_t set_bits_cap;
    Py_ssize_t *set_used;
    Py_ssize_t set_used_cap;
} Chains;

KERNEL_API void chains_free(Chains *c);
KERNEL_API int emit(Emit *e, Py_ssize_t ref_start, Py_ssize_t ref_len, Py_ssize_t hyp_start,
                    Py_ssize_t hyp_len);
KERNEL_API int equal_keys_core(Emit *e, Chains *c, const int64_t *hk, Py_ssize_t nh,
                               const int64_t *rk, Py_ssize_t nr, const int64_t *hid,
                               const int64_t *rid, int different);
KERNEL_API int sets_core(Emit *e, Chains *c, const Packed *hs, Py_ssize_t nh,
                         const Packed *rs, Py_ssize_t nr, const int64_t *hid,
                         const int64_t *rid);
KERNEL_API int paraphrase_core(Emit *e, const Trie *t, const int64_t *hids, Py_ssize_t nh,
                               const int64_t *rids, Py_ssize_t nr);
KERNEL_API int trie_open(Trie *t, Py_buffer views[4], PyObject *node_obj, PyObject *tok_obj,
                         PyObject *rb_obj, PyObject *root_obj);
KERNEL_API void trie_close(Py_buffer views[4]);

/* ---- Word statistics (stats.c) -------------------------------------------------------------- */

KERNEL_API void stats_core(const Cand *chosen, Py_ssize_t n, const unsigned char *hf,
                           Py_ssize_t nh, const unsigned char *rf, Py_ssize_t nr,
                           int64_t head[7], int64_t *counts);
KERNEL_API PyObject *stats_tuple(const int64_t head[7], const int64_t *counts,
                                 Py_ssize_t n_stages);

/* ---- BLEU and ROUGE text (texttok.c, lcs.c) ------------------------------------------------- */

enum { TOK_13A = 0, TOK_INTL = 1, TOK_CHAR = 2, TOK_NONE = 3, TOK_ROUGE = 4, TOK_ROUGE155 = 5 };

typedef struct {
    Py_UCS4 *buf;
    Py_ssize_t cap;
} U4;

typedef struct {
    int32_t *v;
    Py_ssize_t n, cap;
} Ids;

/* Interned tokens: id -> UCS4 string in the arena; stem[id] = stemmed id (or -1: not yet). */
typedef struct {
    Py_UCS4 *arena;
    Py_ssize_t arena_len, arena_cap;
    Py_ssize_t *off, *len;
    uint64_t *hash;
    int32_t n, cap;
    int32_t *slots;
    size_t mask;
    int32_t *stem;
    int32_t stem_cap;
} Vocab;

typedef struct {
    U4 a, b, in;
} TokWork;

KERNEL_API int u4_reserve(U4 *b, Py_ssize_t n);
KERNEL_API int ids_push(Ids *ids, int32_t id);
KERNEL_API void vocab_free(Vocab *v);
KERNEL_API int32_t vocab_id(Vocab *v, const Py_UCS4 *s, Py_ssize_t n);
KERNEL_API PyObject *vocab_str(const Vocab *v, int32_t id);
KERNEL_API int text_tokens(int kind, const Py_UCS4 *text, Py_ssize_t n, TokWork *w, Vocab *v,
                           Ids *out);
KERNEL_API const Py_UCS4 *read_ucs4(PyObject *str, U4 *buf, Py_ssize_t *n);
KERNEL_API void tokwork_free(TokWork *w);
KERNEL_API int intl_class_of(Py_UCS4 c);

/* LCS workspace: per-token position lists over the column text, the bit rows. */
typedef struct {
    int32_t *first;    /* first[id]: first column position of token id, or -1 */
    Py_ssize_t n_first;
    int32_t *next;     /* next[j]: next column position of the same token, or -1 */
    Py_ssize_t n_next;
    uint64_t *bits;    /* checkpoints, block rows, one mask row */
    Py_ssize_t n_bits;
} LcsWork;

KERNEL_API void lcs_work_free(LcsWork *w);
KERNEL_API Py_ssize_t lcs_length_core(LcsWork *w, const int32_t *a, Py_ssize_t na,
                                      const int32_t *b, Py_ssize_t nb, int32_t vocab);
KERNEL_API int lcs_picks_core(LcsWork *w, const int32_t *a, Py_ssize_t na, const int32_t *b,
                              Py_ssize_t nb, int32_t vocab, unsigned char *picked);

/* n-gram counts of one segment (bleu.c; rouge.c uses them too) */
typedef struct {
    uint64_t h;
    const int32_t *p; /* NULL: empty slot */
    int32_t n;
    int32_t limit; /* highest count in any reference (BLEU) / reference count (ROUGE-N) */
    int32_t cur;   /* count in the reference being read */
    int32_t last;  /* which reference cur belongs to */
    int32_t hyp;   /* count in the hypothesis */
} Gram;

typedef struct {
    Gram *slots;
    size_t mask;
    Py_ssize_t *used;
    Py_ssize_t n_used, cap_used;
} GramTable;

KERNEL_API void gram_table_free(GramTable *t);
KERNEL_API int gram_table_reserve(GramTable *t, Py_ssize_t entries);
KERNEL_API Gram *gram_find(GramTable *t, const int32_t *p, int32_t n, uint64_t h);
KERNEL_API void gram_table_clear(GramTable *t);

static inline uint64_t
gram_mix(uint64_t h, int32_t id)
{
    h ^= (uint64_t)(uint32_t)id + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 31);
}

/* ---- METEOR 1.5's -norm normaliser on code points (normalize.c; frontend.c uses it) --------- */

/* A grow-only code point buffer. */
typedef struct {
    Py_UCS4 *p;
    Py_ssize_t len, cap;
} UcsBuf;

KERNEL_API int normalize_ucs4(PyObject *text, int mode, int keep_punctuation, PyObject *prefixes,
                              UcsBuf *line, UcsBuf *tmp, Py_ssize_t *start, Py_ssize_t *end);

/* ---- The module's functions, each in its kernel's file, listed in module.c's method table ---- */

/* normalize.c */
KERNEL_API PyObject *normalize_line_c(PyObject *self, PyObject *args);
/* hash.c */
KERNEL_API PyObject *java_hash_c(PyObject *self, PyObject *arg);
/* zlib's CRC-32 of n bytes (the WordNet views' key-table hash); crc32_init() fills its table
 * once, when the module is imported. */
KERNEL_API void crc32_init(void);
KERNEL_API uint32_t crc32_bytes(const unsigned char *p, Py_ssize_t n);
/* stem.c */
KERNEL_API PyObject *snowball_english_c(PyObject *self, PyObject *arg);
KERNEL_API PyObject *snowball_porter_c(PyObject *self, PyObject *arg);
KERNEL_API PyObject *nltk_porter_rules_c(PyObject *self, PyObject *arg);
KERNEL_API PyObject *nltk_porter_word_c(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
/* word.lower() (ASCII done in place, anything else by its own lower()); a new reference. */
KERNEL_API PyObject *str_lowered(PyObject *word);
/* candidates.c */
KERNEL_API PyObject *equal_keys_c(PyObject *self, PyObject *args);
KERNEL_API PyObject *sets_intersect_c(PyObject *self, PyObject *args);
/* wordnet.c */
KERNEL_API PyObject *wordnet_packed_sets_c(PyObject *self, PyObject *args);
/* paraphrase.c */
KERNEL_API PyObject *paraphrase_c(PyObject *self, PyObject *args);
KERNEL_API PyObject *paraphrase_root_c(PyObject *self, PyObject *args);
KERNEL_API PyObject *paraphrase_walk_cache_c(PyObject *self, PyObject *unused);
KERNEL_API PyObject *paraphrase_vocab_c(PyObject *self, PyObject *arg);
KERNEL_API PyObject *paraphrase_vocab_ids_c(PyObject *self, PyObject *args);
/* beam.c */
KERNEL_API PyObject *beam_align_c(PyObject *self, PyObject *args);
KERNEL_API PyObject *align_stages_c(PyObject *self, PyObject *args);
/* stats.c */
KERNEL_API PyObject *word_stats_c(PyObject *self, PyObject *args);
KERNEL_API PyObject *pool_rows_c(PyObject *self, PyObject *args);
/* pair.c */
KERNEL_API PyObject *meteor15_pair_c(PyObject *self, PyObject *args);
KERNEL_API PyObject *meteor15_rows_c(PyObject *self, PyObject *args);
KERNEL_API PyObject *packed_set_ends_c(PyObject *self, PyObject *args);
/* greedy.c */
KERNEL_API PyObject *greedy_align_c(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
KERNEL_API PyObject *greedy_counts_c(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
KERNEL_API PyObject *nltk_wordnet_names_c(PyObject *self, PyObject *args);
KERNEL_API PyObject *nltk_wordnet_word_c(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
/* tokens.c */
KERNEL_API PyObject *paraphrase_tokenize_c(PyObject *self, PyObject *args);
KERNEL_API PyObject *paraphrase_index_pass_c(PyObject *self, PyObject *args);
/* texttok.c */
KERNEL_API PyObject *text_tokenize_c(PyObject *self, PyObject *args);
KERNEL_API PyObject *intl_class_c(PyObject *self, PyObject *arg);
/* bleu.c */
KERNEL_API PyObject *bleu_rows_c(PyObject *self, PyObject *args);
/* lcs.c */
KERNEL_API PyObject *wlcs_mask_ids_c(PyObject *self, PyObject *args);
KERNEL_API PyObject *lcs_length_ids_c(PyObject *self, PyObject *args);
KERNEL_API PyObject *lcs_picks_ids_c(PyObject *self, PyObject *args);
/* rouge.c */
KERNEL_API PyObject *rouge_rows_c(PyObject *self, PyObject *args);
/* frontend.c */
KERNEL_API PyObject *meteor15_token_cache_c(PyObject *self, PyObject *unused);
KERNEL_API PyObject *meteor15_tokens_c(PyObject *self, PyObject *args);
KERNEL_API PyObject *meteor15_lines_c(PyObject *self, PyObject *args);
/* caption.c */
KERNEL_API PyObject *cider_d_scores_c(PyObject *self, PyObject *args);
KERNEL_API PyObject *coco_rouge_l_scores_c(PyObject *self, PyObject *args);
/* ptb.c */
KERNEL_API PyObject *ptb_caption_lines_c(PyObject *self, PyObject *args);
/* exact.c */
KERNEL_API PyObject *exact_search_c(PyObject *self, PyObject *args);
KERNEL_API PyObject *exact_stages_c(PyObject *self, PyObject *args);
KERNEL_API PyObject *paper2005_rows_c(PyObject *self, PyObject *args);

#endif /* METEOR_EVAL_KERNELS_H */
