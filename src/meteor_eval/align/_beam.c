/*
 * Compiled METEOR 1.5 beam search (spec sections 4.1 to 4.4).
 *
 * This is the same algorithm as the pure-Python reference in search.py, step for step, so that
 * both give identical alignments:
 *
 *   - fixed matches: alone at their reference position, covering only coverage-1 words;
 *   - paths ranked by (minus the integer objective, closed chunks, quirky distance) with a
 *     stable sort before every beam cut and once more after the last step;
 *   - successors generated in the same order: copies in candidate-list order, then the parent
 *     itself as the skip successor; the parent's distance grows by each acceptable candidate's
 *     offset after that candidate's copy is made.
 *
 * The reference sorts every successor of a step and keeps the first `beam`. Here each
 * successor is first described by a small record (its rank, its parent, the candidate it adds)
 * and offered to a bounded max-heap of the `beam` best records seen so far; successors are
 * offered in generation order, so a later one enters only when its rank is strictly better
 * than the worst kept one, which is exactly how a stable sort breaks ties. Only the winners are
 * then materialised (their parent's bit sets copied, the new match's spans set), in sorted
 * order. A path is a small header plus two bit sets (used hypothesis and reference positions);
 * chosen matches form linked lists in a node pool shared by all paths.
 *
 * align(by_ref, hyp_coverage, ref_coverage, weights, beam) returns the chosen Match objects (the
 * store's own objects) in reference order; align_stages() does the same from per-stage lists.
 *
 * The module also holds the candidate generators of the matching stages (equal_keys for exact and
 * stem matching, sets_intersect for synonyms, paraphrase for paraphrase tables); each produces
 * the same candidates in the same order as the pure-Python matcher it speeds up. Per-word text
 * kernels (stemmers, Java string hash) live in _text.c and are added to this module at import.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
} Head;

/* A successor before materialisation; its generation order is its index in the step's array. */
typedef struct {
    int64_t neg_w, chunks, dist;
    int64_t idx, last_end;
    int32_t parent; /* index of the parent path */
    int32_t cand;   /* candidate added, or -1 (skip, fixed match or pass-through) */
} Succ;

typedef struct {
    Cand *cands;
    Py_ssize_t n_cands;
    Py_ssize_t *first; /* candidates of reference position j: cands[first[j] .. first[j+1]) */
    int64_t *hyp_cov, *ref_cov;
    double *weight;
    Py_ssize_t n_weights;
    Py_ssize_t *fixed_at;
    Py_ssize_t *assigned;
    Head *cur_head, *new_head;
    uint64_t *cur_bits, *new_bits;
    Succ *succ;     /* the successors of one step, in generation order */
    uint64_t *keys; /* their packed ranks, or their indices in rank order */
    uint64_t *tmp;
    int32_t *node_cand;
    int32_t *node_parent;
    Py_ssize_t nodes, node_cap;
} Work;

static void
work_free(Work *w)
{
    PyMem_Free(w->cands);
    PyMem_Free(w->first);
    PyMem_Free(w->hyp_cov);
    PyMem_Free(w->ref_cov);
    PyMem_Free(w->weight);
    PyMem_Free(w->fixed_at);
    PyMem_Free(w->assigned);
    PyMem_Free(w->cur_head);
    PyMem_Free(w->new_head);
    PyMem_Free(w->cur_bits);
    PyMem_Free(w->new_bits);
    PyMem_Free(w->succ);
    PyMem_Free(w->keys);
    PyMem_Free(w->tmp);
    PyMem_Free(w->node_cand);
    PyMem_Free(w->node_parent);
}

static Span
make_span(int64_t start, int64_t len, Py_ssize_t base)
{
    Span s;
    const int64_t last = start + len - 1;
    s.w0 = base + (Py_ssize_t)(start >> 6);
    s.w1 = base + (Py_ssize_t)(last >> 6);
    s.m0 = ~(uint64_t)0 << (start & 63);
    s.m1 = ~(uint64_t)0 >> (63 - (last & 63));
    if (s.w0 == s.w1) {
        s.m0 &= s.m1;
    }
    return s;
}

static inline int
span_free(const uint64_t *bits, const Span *s)
{
    if (s->w0 == s->w1) {
        return (bits[s->w0] & s->m0) == 0;
    }
    if ((bits[s->w0] & s->m0) || (bits[s->w1] & s->m1)) {
        return 0;
    }
    for (Py_ssize_t k = s->w0 + 1; k < s->w1; k++) {
        if (bits[k]) {
            return 0;
        }
    }
    return 1;
}

static inline void
span_set(uint64_t *bits, const Span *s)
{
    bits[s->w0] |= s->m0;
    if (s->w0 != s->w1) {
        for (Py_ssize_t k = s->w0 + 1; k < s->w1; k++) {
            bits[k] = ~(uint64_t)0;
        }
        bits[s->w1] |= s->m1;
    }
}

/* Whether successor a ranks strictly before b (spec 4.3). */
static inline int
rank_less(const Succ *a, const Succ *b)
{
    if (a->neg_w != b->neg_w) {
        return a->neg_w < b->neg_w;
    }
    if (a->chunks != b->chunks) {
        return a->chunks < b->chunks;
    }
    return a->dist < b->dist;
}

static inline void
swap_keys(uint64_t *a, uint64_t *b)
{
    const uint64_t t = *a;
    *a = *b;
    *b = t;
}

static void
insertion_sort_keys(uint64_t *keys, Py_ssize_t n)
{
    for (Py_ssize_t i = 1; i < n; i++) {
        const uint64_t v = keys[i];
        Py_ssize_t j = i;
        while (j > 0 && keys[j - 1] > v) {
            keys[j] = keys[j - 1];
            j--;
        }
        keys[j] = v;
    }
}

static void
sift_keys(uint64_t *keys, Py_ssize_t n, Py_ssize_t at)
{
    const uint64_t v = keys[at];
    for (;;) {
        Py_ssize_t child = 2 * at + 1;
        if (child >= n) {
            break;
        }
        if (child + 1 < n && keys[child] < keys[child + 1]) {
            child++;
        }
        if (v >= keys[child]) {
            break;
        }
        keys[at] = keys[child];
        at = child;
    }
    keys[at] = v;
}

/* Heap sort: the guaranteed O(n log n) fallback of partial_sort_keys(). */
static void
heap_sort_keys(uint64_t *keys, Py_ssize_t n)
{
    for (Py_ssize_t at = n / 2 - 1; at >= 0; at--) {
        sift_keys(keys, n, at);
    }
    for (Py_ssize_t end = n - 1; end > 0; end--) {
        swap_keys(&keys[0], &keys[end]);
        sift_keys(keys, end, 0);
    }
}

/* Put the k smallest of the distinct keys[0..n) first, in ascending order (the rest in any
 * order): quicksort that only recurses into parts overlapping the first k, with insertion sort
 * for short parts and heap sort when the partitions degenerate. */
static void
partial_sort_keys(uint64_t *keys, Py_ssize_t n, Py_ssize_t k, int depth)
{
    while (n > 16) {
        if (depth-- == 0) {
            heap_sort_keys(keys, n);
            return;
        }
        /* Median of three as pivot, moved to keys[n - 1]. */
        const Py_ssize_t mid = n / 2;
        if (keys[mid] < keys[0]) {
            swap_keys(&keys[mid], &keys[0]);
        }
        if (keys[n - 1] < keys[0]) {
            swap_keys(&keys[n - 1], &keys[0]);
        }
        if (keys[mid] < keys[n - 1]) {
            swap_keys(&keys[mid], &keys[n - 1]);
        }
        const uint64_t pivot = keys[n - 1];
        Py_ssize_t store = 0;
        for (Py_ssize_t i = 0; i < n - 1; i++) {
            if (keys[i] < pivot) {
                swap_keys(&keys[i], &keys[store]);
                store++;
            }
        }
        swap_keys(&keys[store], &keys[n - 1]);
        /* keys[0..store) < pivot = keys[store] < keys[store + 1..n) */
        if (store + 1 < k) {
            partial_sort_keys(keys + store + 1, n - store - 1, k - store - 1, depth);
        }
        n = store;
        if (k > n) {
            k = n;
        }
    }
    insertion_sort_keys(keys, n);
}

/* Stable merge sort of the indices of succ[0..n) by rank into order; tmp has room for n. For
 * ranks too wide to pack into one 64-bit key. */
static void
merge_sort_succ(const Succ *succ, Py_ssize_t n, uint64_t *order, uint64_t *tmp)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        order[i] = (uint64_t)i;
    }
    uint64_t *src = order, *dst = tmp;
    for (Py_ssize_t width = 1; width < n; width *= 2) {
        for (Py_ssize_t lo = 0; lo < n; lo += 2 * width) {
            const Py_ssize_t mid = lo + width < n ? lo + width : n;
            const Py_ssize_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            Py_ssize_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi) {
                if (rank_less(&succ[src[j]], &succ[src[i]])) {
                    dst[o++] = src[j++];
                }
                else {
                    dst[o++] = src[i++];
                }
            }
            while (i < mid) {
                dst[o++] = src[i++];
            }
            while (j < hi) {
                dst[o++] = src[j++];
            }
        }
        uint64_t *swap = src;
        src = dst;
        dst = swap;
    }
    if (src != order) {
        memcpy(order, src, (size_t)n * sizeof(uint64_t));
    }
}

static int
add_node(Work *w, Py_ssize_t cand, int64_t parent, int64_t *out)
{
    if (w->nodes == w->node_cap) {
        Py_ssize_t cap = w->node_cap ? w->node_cap * 2 : 256;
        if (cap > INT32_MAX) {
            PyErr_SetString(PyExc_OverflowError, "beam search: too many partial alignments");
            return -1;
        }
        int32_t *nc = PyMem_Realloc(w->node_cand, (size_t)cap * sizeof(int32_t));
        if (nc == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        w->node_cand = nc;
        int32_t *np = PyMem_Realloc(w->node_parent, (size_t)cap * sizeof(int32_t));
        if (np == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        w->node_parent = np;
        w->node_cap = cap;
    }
    w->node_cand[w->nodes] = (int32_t)cand;
    w->node_parent[w->nodes] = (int32_t)parent;
    *out = (int64_t)w->nodes;
    w->nodes++;
    return 0;
}

static int
read_int(PyObject *item, int64_t *out)
{
    long long v = PyLong_AsLongLong(item);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    *out = (int64_t)v;
    return 0;
}

/* Coverage values of a sequence of ints; returns a new array or NULL. */
static int64_t *
read_coverage(PyObject *seq, Py_ssize_t *n)
{
    PyObject *fast = PySequence_Fast(seq, "coverage: expected a sequence of ints");
    if (fast == NULL) {
        return NULL;
    }
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    int64_t *out = PyMem_Malloc((size_t)(len ? len : 1) * sizeof(int64_t));
    if (out == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t k = 0; k < len; k++) {
        if (read_int(PySequence_Fast_GET_ITEM(fast, k), &out[k]) < 0) {
            PyMem_Free(out);
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    *n = len;
    return out;
}

/* The aligner weights as doubles, into w. */
static int
read_weights(Work *w, PyObject *weights_obj)
{
    PyObject *weights = PySequence_Fast(weights_obj, "aligner_weights: expected a sequence of numbers");
    if (weights == NULL) {
        return -1;
    }
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(weights);
    w->weight = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(double));
    if (w->weight == NULL) {
        Py_DECREF(weights);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        w->weight[k] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(weights, k));
        if (w->weight[k] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(weights);
            return -1;
        }
    }
    w->n_weights = n;
    Py_DECREF(weights);
    return 0;
}

/* The five fields of a Match tuple into c (no range checks); -1 with an exception set. */
static int
read_match(PyObject *m, Cand *c, const char *what)
{
    if (!PyTuple_Check(m) || PyTuple_GET_SIZE(m) != 5) {
        PyErr_Format(PyExc_TypeError, "%s: expected Match tuples", what);
        return -1;
    }
    if (read_int(PyTuple_GET_ITEM(m, 0), &c->ref_start) < 0 ||
        read_int(PyTuple_GET_ITEM(m, 1), &c->ref_len) < 0 ||
        read_int(PyTuple_GET_ITEM(m, 2), &c->hyp_start) < 0 ||
        read_int(PyTuple_GET_ITEM(m, 3), &c->hyp_len) < 0 ||
        read_int(PyTuple_GET_ITEM(m, 4), &c->stage) < 0) {
        return -1;
    }
    c->obj = m;
    return 0;
}

static inline int
span_inside(const Cand *c, Py_ssize_t n_hyp, Py_ssize_t n_ref)
{
    return c->ref_start >= 0 && c->ref_len >= 1 && c->ref_start + c->ref_len <= n_ref &&
           c->hyp_start >= 0 && c->hyp_len >= 1 && c->hyp_start + c->hyp_len <= n_hyp;
}

/* Objective gain, offset and bit-set spans of a candidate read by read_match(). */
static int
prepare_cand(const Work *w, Cand *c, Py_ssize_t wh)
{
    if (c->stage < 0 || c->stage >= w->n_weights) {
        PyErr_SetString(PyExc_IndexError, "aligner_weights: no weight for a stage");
        return -1;
    }
    const double a = w->weight[c->stage];
    /* Python's int() and C's cast both truncate toward zero. */
    c->gain = (int64_t)((double)c->hyp_len * a) + (int64_t)((double)c->ref_len * a);
    c->offset = c->ref_start > c->hyp_start ? c->ref_start - c->hyp_start
                                            : c->hyp_start - c->ref_start;
    c->hyp = make_span(c->hyp_start, c->hyp_len, 0);
    c->ref = make_span(c->ref_start, c->ref_len, wh);
    return 0;
}

static int
alloc_positions(Work *w, Py_ssize_t n_ref)
{
    const size_t n = (size_t)(n_ref ? n_ref : 1);
    w->first = PyMem_Malloc((n + 1) * sizeof(Py_ssize_t));
    w->fixed_at = PyMem_Malloc(n * sizeof(Py_ssize_t));
    w->assigned = PyMem_Malloc(n * sizeof(Py_ssize_t));
    if (w->first == NULL || w->fixed_at == NULL || w->assigned == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* Flatten a store's candidate lists (by_ref[j]: candidates whose reference span starts at j). */
static int
load_by_ref(Work *w, PyObject *by_ref, Py_ssize_t n_hyp, Py_ssize_t n_ref)
{
    const Py_ssize_t wh = (n_hyp + 63) / 64;
    Py_ssize_t n_cands = 0;
    for (Py_ssize_t j = 0; j < n_ref; j++) {
        PyObject *lst = PySequence_Fast_GET_ITEM(by_ref, j);
        if (!PyList_Check(lst)) {
            PyErr_SetString(PyExc_TypeError, "by_ref: expected lists of matches");
            return -1;
        }
        n_cands += PyList_GET_SIZE(lst);
    }
    w->cands = PyMem_Malloc((size_t)(n_cands ? n_cands : 1) * sizeof(Cand));
    if (w->cands == NULL || alloc_positions(w, n_ref) < 0) {
        if (!PyErr_Occurred()) {
            PyErr_NoMemory();
        }
        return -1;
    }
    Py_ssize_t at = 0;
    for (Py_ssize_t j = 0; j < n_ref; j++) {
        PyObject *lst = PySequence_Fast_GET_ITEM(by_ref, j);
        w->first[j] = at;
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(lst); k++) {
            Cand *c = &w->cands[at];
            if (read_match(PyList_GET_ITEM(lst, k), c, "by_ref") < 0) {
                return -1;
            }
            if (c->ref_start != j || !span_inside(c, n_hyp, n_ref)) {
                PyErr_SetString(PyExc_ValueError, "a candidate's span lies outside its segments");
                return -1;
            }
            if (prepare_cand(w, c, wh) < 0) {
                return -1;
            }
            at++;
        }
    }
    w->first[n_ref] = at;
    w->n_cands = at;
    return 0;
}

/* The store that appending raw[0..n_cands) (candidates in stage-list order, spans already
 * checked) would build: a stable bucket pass by reference start, so each position keeps stage
 * order, then each stage's own order. Both coverage counts are taken here. */
static int
load_raw(Work *w, Cand *raw, Py_ssize_t n_cands, Py_ssize_t n_hyp, Py_ssize_t n_ref)
{
    const Py_ssize_t wh = (n_hyp + 63) / 64;
    w->hyp_cov = PyMem_Calloc((size_t)(n_hyp ? n_hyp : 1), sizeof(int64_t));
    w->ref_cov = PyMem_Calloc((size_t)(n_ref ? n_ref : 1), sizeof(int64_t));
    w->cands = PyMem_Malloc((size_t)(n_cands ? n_cands : 1) * sizeof(Cand));
    if (w->hyp_cov == NULL || w->ref_cov == NULL || w->cands == NULL ||
        alloc_positions(w, n_ref) < 0) {
        if (!PyErr_Occurred()) {
            PyErr_NoMemory();
        }
        return -1;
    }
    /* first[j + 1] counts the candidates starting at j, then becomes a prefix sum. */
    memset(w->first, 0, (size_t)(n_ref + 1) * sizeof(Py_ssize_t));
    for (Py_ssize_t k = 0; k < n_cands; k++) {
        const Cand *c = &raw[k];
        w->first[c->ref_start + 1]++;
        for (int64_t j = c->ref_start; j < c->ref_start + c->ref_len; j++) {
            w->ref_cov[j]++;
        }
        for (int64_t i = c->hyp_start; i < c->hyp_start + c->hyp_len; i++) {
            w->hyp_cov[i]++;
        }
    }
    for (Py_ssize_t j = 0; j < n_ref; j++) {
        w->first[j + 1] += w->first[j];
        w->assigned[j] = w->first[j]; /* next free slot of position j, for the bucket pass */
    }
    for (Py_ssize_t k = 0; k < n_cands; k++) {
        Cand *c = &w->cands[w->assigned[raw[k].ref_start]++];
        *c = raw[k];
        if (prepare_cand(w, c, wh) < 0) {
            return -1;
        }
    }
    w->n_cands = n_cands;
    return 0;
}

/* load_raw() of per-stage lists of Match tuples. */
static int
load_stage_lists(Work *w, PyObject *lists, Py_ssize_t n_hyp, Py_ssize_t n_ref)
{
    const Py_ssize_t n_lists = PySequence_Fast_GET_SIZE(lists);
    Py_ssize_t n_cands = 0;
    for (Py_ssize_t s = 0; s < n_lists; s++) {
        PyObject *lst = PySequence_Fast_GET_ITEM(lists, s);
        if (!PyList_Check(lst)) {
            PyErr_SetString(PyExc_TypeError, "stage_lists: expected lists of matches");
            return -1;
        }
        n_cands += PyList_GET_SIZE(lst);
    }
    Cand *raw = PyMem_Malloc((size_t)(n_cands ? n_cands : 1) * sizeof(Cand));
    if (raw == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t at = 0;
    for (Py_ssize_t s = 0; s < n_lists; s++) {
        PyObject *lst = PySequence_Fast_GET_ITEM(lists, s);
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(lst); k++) {
            Cand *c = &raw[at++];
            if (read_match(PyList_GET_ITEM(lst, k), c, "stage_lists") < 0) {
                PyMem_Free(raw);
                return -1;
            }
            if (!span_inside(c, n_hyp, n_ref)) {
                PyErr_SetString(PyExc_ValueError, "a candidate's span lies outside its segments");
                PyMem_Free(raw);
                return -1;
            }
        }
    }
    const int rc = load_raw(w, raw, n_cands, n_hyp, n_ref);
    PyMem_Free(raw);
    return rc;
}

/* Bits needed to write 0..x. */
static inline int
bit_width(uint64_t x)
{
    int n = 0;
    while (x) {
        n++;
        x >>= 1;
    }
    return n;
}

static inline uint64_t
shifted(uint64_t v, int by)
{
    return by < 64 ? v << by : 0;
}

/* How successor ranks pack into one 64-bit key (rank fields, then generation order), so that
 * the stable sort becomes a sort of distinct integers. */
typedef struct {
    int packed; /* 0: the ranks are too wide, sort with rank_less() instead */
    int64_t bias;
    int sh_w, sh_c, sh_d;
} Packing;

/* Packing for every path of a search: bounds of each rank field over all paths. */
static Packing
packing_for(const Work *w, Py_ssize_t n_ref, Py_ssize_t most_succ)
{
    Packing pk = {0, 0, 0, 0, 0};
    /* neg_w lies in [-(sum of positive gains), sum of negative gains]; dist is at most the sum
     * of all offsets (each candidate's offset counts at most once along a path); chunks at most
     * one per position plus the final one. */
    const uint64_t limit = (uint64_t)1 << 62;
    uint64_t gain_pos = 0, gain_neg = 0, offsets = 0;
    for (Py_ssize_t k = 0; k < w->n_cands; k++) {
        const Cand *c = &w->cands[k];
        if (c->gain < INT64_MIN / 2 || c->gain > INT64_MAX / 2 || c->offset > INT64_MAX / 2) {
            return pk;
        }
        const uint64_t g = (uint64_t)(c->gain < 0 ? -c->gain : c->gain);
        if (c->gain >= 0) {
            gain_pos += g;
        }
        else {
            gain_neg += g;
        }
        offsets += (uint64_t)c->offset;
        if (gain_pos > limit || gain_neg > limit || offsets > limit) {
            return pk;
        }
    }
    const int bg = bit_width((uint64_t)(most_succ > 0 ? most_succ - 1 : 0));
    const int bd = bit_width(offsets);
    const int bc = bit_width((uint64_t)n_ref + 1);
    const int bw = bit_width(gain_pos + gain_neg);
    if (bg + bd + bc + bw > 64) {
        return pk;
    }
    pk.packed = 1;
    pk.bias = (int64_t)gain_pos;
    pk.sh_d = bg;
    pk.sh_c = bg + bd;
    pk.sh_w = bg + bd + bc;
    return pk;
}

/* Leave in w->keys[0..k) the indices of the k best of succ[0..n) in the stable sort's order. */
static void
select_best(Work *w, const Packing *pk, Py_ssize_t n, Py_ssize_t k)
{
    const Succ *succ = w->succ;
    uint64_t *keys = w->keys;
    if (!pk->packed) {
        merge_sort_succ(succ, n, keys, w->tmp);
        return;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        const Succ *s = &succ[i];
        keys[i] = shifted((uint64_t)(s->neg_w + pk->bias), pk->sh_w) |
                  shifted((uint64_t)s->chunks, pk->sh_c) | shifted((uint64_t)s->dist, pk->sh_d) |
                  (uint64_t)i;
    }
    partial_sort_keys(keys, n, k, 2 * bit_width((uint64_t)n) + 2);
    const uint64_t index_mask = pk->sh_d ? (~(uint64_t)0 >> (64 - pk->sh_d)) : 0;
    for (Py_ssize_t i = 0; i < k; i++) {
        keys[i] &= index_mask;
    }
}

/* Materialise the successors w->succ[w->keys[0..k)] from the current paths into
 * new_head/new_bits, in that order. */
static int
materialise(Work *w, Py_ssize_t k, Py_ssize_t bw)
{
    for (Py_ssize_t i = 0; i < k; i++) {
        const Succ *s = &w->succ[w->keys[i]];
        const Head *parent = &w->cur_head[s->parent];
        Head *h = &w->new_head[i];
        uint64_t *bits = w->new_bits + i * bw;
        memcpy(bits, w->cur_bits + (Py_ssize_t)s->parent * bw, (size_t)bw * sizeof(uint64_t));
        h->neg_w = s->neg_w;
        h->chunks = s->chunks;
        h->dist = s->dist;
        h->idx = s->idx;
        h->last_end = s->last_end;
        h->chain = parent->chain;
        if (s->cand >= 0) {
            const Cand *m = &w->cands[s->cand];
            span_set(bits, &m->hyp);
            span_set(bits, &m->ref);
            if (add_node(w, s->cand, parent->chain, &h->chain) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* The beam search proper over the loaded store; fills w->assigned (candidate per position). */
static int
search(Work *w, Py_ssize_t n_hyp, Py_ssize_t n_ref, Py_ssize_t beam)
{
    /* Fixed matches (spec 4.1). */
    Py_ssize_t n_fixed = 0;
    for (Py_ssize_t j = 0; j < n_ref; j++) {
        w->fixed_at[j] = -1;
        w->assigned[j] = -1;
        if (w->first[j + 1] - w->first[j] != 1) {
            continue;
        }
        const Cand *c = &w->cands[w->first[j]];
        int ok = 1;
        for (int64_t r = c->ref_start; ok && r < c->ref_start + c->ref_len; r++) {
            ok = w->ref_cov[r] == 1;
        }
        for (int64_t h = c->hyp_start; ok && h < c->hyp_start + c->hyp_len; h++) {
            ok = w->hyp_cov[h] == 1;
        }
        if (ok) {
            w->fixed_at[j] = w->first[j];
            n_fixed++;
        }
    }
    if (n_fixed != w->n_cands) {
        const Py_ssize_t wh = (n_hyp + 63) / 64, wr = (n_ref + 63) / 64, bw = wh + wr;
        /* The most paths any step keeps (min(beam, product of (candidates + 1))) and the most
         * successors any step generates (paths kept times (candidates + 1)). */
        Py_ssize_t cap = 1, most = 1, most_succ = 1;
        for (Py_ssize_t j = 0; j < n_ref; j++) {
            const Py_ssize_t fan = w->first[j + 1] - w->first[j] + 1;
            if (cap > INT32_MAX / fan) {
                PyErr_SetString(PyExc_OverflowError, "beam search: too many partial alignments");
                return -1;
            }
            most_succ = cap * fan > most_succ ? cap * fan : most_succ;
            cap = cap * fan > beam ? beam : cap * fan;
            most = cap > most ? cap : most;
        }
        w->cur_head = PyMem_Malloc((size_t)most * sizeof(Head));
        w->new_head = PyMem_Malloc((size_t)most * sizeof(Head));
        w->cur_bits = PyMem_Calloc((size_t)(most * bw), sizeof(uint64_t));
        w->new_bits = PyMem_Malloc((size_t)(most * bw) * sizeof(uint64_t));
        w->succ = PyMem_Malloc((size_t)most_succ * sizeof(Succ));
        w->keys = PyMem_Malloc((size_t)most_succ * sizeof(uint64_t));
        w->tmp = PyMem_Malloc((size_t)most_succ * sizeof(uint64_t));
        if (w->cur_head == NULL || w->new_head == NULL || w->cur_bits == NULL ||
            w->new_bits == NULL || w->succ == NULL || w->keys == NULL || w->tmp == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        const Packing pk = packing_for(w, n_ref, most_succ);
        const Head start = {0, 0, 0, 0, -1, -1};
        w->cur_head[0] = start;
        for (Py_ssize_t j = 0; j < n_ref; j++) {
            if (w->fixed_at[j] >= 0) {
                const Cand *c = &w->cands[w->fixed_at[j]];
                span_set(w->cur_bits, &c->hyp);
                span_set(w->cur_bits, &c->ref);
            }
        }
        Py_ssize_t kept = 1;
        for (Py_ssize_t c = 0; c < n_ref; c++) {
            const Py_ssize_t lo = w->first[c], hi = w->first[c + 1];
            const Py_ssize_t ref_word = wh + (c >> 6);
            const uint64_t ref_bit = (uint64_t)1 << (c & 63);
            Succ *succ = w->succ;
            Py_ssize_t n = 0;
            for (Py_ssize_t p = 0; p < kept; p++) {
                const Head *h = &w->cur_head[p];
                const uint64_t *bits = w->cur_bits + p * bw;
                if (bits[ref_word] & ref_bit) {
                    Succ *s = &succ[n];
                    if (c < h->idx) { /* inside a match chosen earlier: pass through */
                        s->neg_w = h->neg_w;
                        s->chunks = h->chunks;
                        s->dist = h->dist;
                        s->idx = h->idx;
                        s->last_end = h->last_end;
                    }
                    else {
                        const Py_ssize_t f = w->fixed_at[c];
                        if (f < 0) { /* unreachable with consistent fixed matches */
                            continue;
                        }
                        const Cand *m = &w->cands[f];
                        s->neg_w = h->neg_w - m->gain;
                        s->chunks =
                            h->chunks + (h->last_end != -1 && m->hyp_start != h->last_end);
                        s->dist = h->dist + m->offset;
                        s->idx = m->ref_start + m->ref_len;
                        s->last_end = m->hyp_start + m->hyp_len;
                    }
                    s->parent = (int32_t)p;
                    s->cand = -1;
                    n++;
                    continue;
                }
                const int64_t last_end = h->last_end;
                int64_t dist = h->dist;
                for (Py_ssize_t k = lo; k < hi; k++) {
                    const Cand *m = &w->cands[k];
                    if (!span_free(bits, &m->hyp) || !span_free(bits, &m->ref)) {
                        continue;
                    }
                    Succ *s = &succ[n++];
                    s->neg_w = h->neg_w - m->gain;
                    s->chunks = h->chunks + (last_end != -1 && m->hyp_start != last_end);
                    s->dist = dist;
                    s->idx = m->ref_start + m->ref_len;
                    s->last_end = m->hyp_start + m->hyp_len;
                    s->parent = (int32_t)p;
                    s->cand = (int32_t)k;
                    dist += m->offset;
                }
                Succ *s = &succ[n++];
                s->neg_w = h->neg_w;
                s->chunks = h->chunks + (last_end != -1);
                s->dist = dist;
                s->idx = h->idx + 1;
                s->last_end = -1;
                s->parent = (int32_t)p;
                s->cand = -1;
            }
            Py_ssize_t k;
            if (n == 0) { /* the jar warns and carries on with the best path */
                w->new_head[0] = w->cur_head[0];
                memcpy(w->new_bits, w->cur_bits, (size_t)bw * sizeof(uint64_t));
                k = 1;
            }
            else {
                k = n < beam ? n : beam;
                select_best(w, &pk, n, k);
                if (materialise(w, k, bw) < 0) {
                    return -1;
                }
            }
            Head *th = w->cur_head;
            w->cur_head = w->new_head;
            w->new_head = th;
            uint64_t *tb = w->cur_bits;
            w->cur_bits = w->new_bits;
            w->new_bits = tb;
            kept = k;
        }
        /* After the last position: close open chunks, then the best path (first among equals
         * in the current order, which is the stable sort's). */
        Py_ssize_t best = 0;
        for (Py_ssize_t p = 0; p < kept; p++) {
            Head *h = &w->cur_head[p];
            if (h->last_end != -1) {
                h->chunks += 1;
            }
            const Head *b = &w->cur_head[best];
            if (h->neg_w < b->neg_w ||
                (h->neg_w == b->neg_w &&
                 (h->chunks < b->chunks || (h->chunks == b->chunks && h->dist < b->dist)))) {
                best = p;
            }
        }
        for (int64_t node = w->cur_head[best].chain; node != -1; node = w->node_parent[node]) {
            const Py_ssize_t k = w->node_cand[node];
            w->assigned[w->cands[k].ref_start] = k;
        }
    }
    for (Py_ssize_t j = 0; j < n_ref; j++) {
        if (w->fixed_at[j] >= 0) {
            w->assigned[j] = w->fixed_at[j];
        }
    }
    return 0;
}

/* The chosen Match objects in reference order (new list). */
static PyObject *
chosen_list(const Work *w, Py_ssize_t n_ref)
{
    Py_ssize_t n = 0;
    for (Py_ssize_t j = 0; j < n_ref; j++) {
        n += w->assigned[j] >= 0;
    }
    PyObject *result = PyList_New(n);
    if (result == NULL) {
        return NULL;
    }
    Py_ssize_t at = 0;
    for (Py_ssize_t j = 0; j < n_ref; j++) {
        if (w->assigned[j] >= 0) {
            PyObject *m = w->cands[w->assigned[j]].obj;
            Py_INCREF(m);
            PyList_SET_ITEM(result, at++, m);
        }
    }
    return result;
}

static PyObject *
beam_align_c(PyObject *self, PyObject *args)
{
    PyObject *by_ref_obj, *hyp_cov_obj, *ref_cov_obj, *weights_obj;
    Py_ssize_t beam;
    if (!PyArg_ParseTuple(args, "OOOOn:align", &by_ref_obj, &hyp_cov_obj, &ref_cov_obj,
                          &weights_obj, &beam)) {
        return NULL;
    }
    if (beam < 1) {
        PyErr_SetString(PyExc_ValueError, "beam: must be at least 1");
        return NULL;
    }
    Work w;
    memset(&w, 0, sizeof(w));
    PyObject *result = NULL;
    Py_ssize_t n_hyp = 0, n_ref_cov = 0;
    PyObject *by_ref = PySequence_Fast(by_ref_obj, "by_ref: expected a sequence of candidate lists");
    if (by_ref == NULL) {
        return NULL;
    }
    const Py_ssize_t n_ref = PySequence_Fast_GET_SIZE(by_ref);
    w.hyp_cov = read_coverage(hyp_cov_obj, &n_hyp);
    if (w.hyp_cov == NULL) {
        goto done;
    }
    w.ref_cov = read_coverage(ref_cov_obj, &n_ref_cov);
    if (w.ref_cov == NULL) {
        goto done;
    }
    if (n_ref_cov != n_ref) {
        PyErr_SetString(PyExc_ValueError, "ref_coverage and by_ref differ in length");
        goto done;
    }
    if (read_weights(&w, weights_obj) < 0 || load_by_ref(&w, by_ref, n_hyp, n_ref) < 0 ||
        search(&w, n_hyp, n_ref, beam) < 0) {
        goto done;
    }
    result = chosen_list(&w, n_ref);
done:
    work_free(&w);
    Py_DECREF(by_ref);
    return result;
}

/* ---------------------------------------------------------------------------------------------
 * Candidate generation kernels. Each returns a new list of Match objects (instances of the
 * tuple subclass passed as match_type) in exactly the order of the pure-Python matcher it
 * replaces; the Python code in meteor_eval.match stays the reference and the fallback.
 * ------------------------------------------------------------------------------------------- */

/* A new match_type(ref_start, ref_len, hyp_start, hyp_len, stage); stage is borrowed. */
static PyObject *
new_match(PyTypeObject *type, Py_ssize_t ref_start, Py_ssize_t ref_len, Py_ssize_t hyp_start,
          Py_ssize_t hyp_len, PyObject *stage)
{
    PyObject *m = type->tp_alloc(type, 5);
    if (m == NULL) {
        return NULL;
    }
    PyObject *a = PyLong_FromSsize_t(ref_start);
    PyObject *b = PyLong_FromSsize_t(ref_len);
    PyObject *c = PyLong_FromSsize_t(hyp_start);
    PyObject *d = PyLong_FromSsize_t(hyp_len);
    if (a == NULL || b == NULL || c == NULL || d == NULL) {
        Py_XDECREF(a);
        Py_XDECREF(b);
        Py_XDECREF(c);
        Py_XDECREF(d);
        Py_DECREF(m);
        return NULL;
    }
    PyTuple_SET_ITEM(m, 0, a);
    PyTuple_SET_ITEM(m, 1, b);
    PyTuple_SET_ITEM(m, 2, c);
    PyTuple_SET_ITEM(m, 3, d);
    Py_INCREF(stage);
    PyTuple_SET_ITEM(m, 4, stage);
    return m;
}

static int
append_match(PyObject *out, PyTypeObject *type, Py_ssize_t ref_start, Py_ssize_t ref_len,
             Py_ssize_t hyp_start, Py_ssize_t hyp_len, PyObject *stage)
{
    PyObject *m = new_match(type, ref_start, ref_len, hyp_start, hyp_len, stage);
    if (m == NULL) {
        return -1;
    }
    int rc = PyList_Append(out, m);
    Py_DECREF(m);
    return rc;
}

static int
check_match_type(PyObject *type)
{
    if (!PyType_Check(type) || !PyType_IsSubtype((PyTypeObject *)type, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "match_type: expected a tuple subclass");
        return -1;
    }
    return 0;
}

/* int64 values of a sequence of ints; returns a new array (length *n) or NULL. */
static int64_t *
read_int64s(PyObject *seq, Py_ssize_t *n, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) {
        return NULL;
    }
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    int64_t *out = PyMem_Malloc((size_t)(len ? len : 1) * sizeof(int64_t));
    if (out == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t k = 0; k < len; k++) {
        if (read_int(PySequence_Fast_GET_ITEM(fast, k), &out[k]) < 0) {
            PyMem_Free(out);
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    *n = len;
    return out;
}

/* Where a generator writes its candidates: Match objects appended to a Python list, or raw
 * candidates appended to a C array (the fused pair kernel). */
typedef struct {
    PyObject *list; /* Python mode when not NULL */
    PyTypeObject *type;
    PyObject *stage_obj;
    Cand *raw; /* C mode */
    Py_ssize_t n, cap;
    int64_t stage;
} Emit;

static int
emit(Emit *e, Py_ssize_t ref_start, Py_ssize_t ref_len, Py_ssize_t hyp_start, Py_ssize_t hyp_len)
{
    if (e->list != NULL) {
        return append_match(e->list, e->type, ref_start, ref_len, hyp_start, hyp_len,
                            e->stage_obj);
    }
    if (e->n == e->cap) {
        const Py_ssize_t cap = e->cap ? 2 * e->cap : 64;
        Cand *raw = PyMem_Realloc(e->raw, (size_t)cap * sizeof(Cand));
        if (raw == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        e->raw = raw;
        e->cap = cap;
    }
    Cand *c = &e->raw[e->n++];
    c->ref_start = ref_start;
    c->ref_len = ref_len;
    c->hyp_start = hyp_start;
    c->hyp_len = hyp_len;
    c->stage = e->stage;
    c->obj = NULL;
    return 0;
}

/* Candidates (j, 1, i, 1) for every reference j ascending and hypothesis i ascending with
 * hk[i] == rk[j], leaving out pairs of equal identities when `different` is set. */
static int
equal_keys_core(Emit *e, const int64_t *hk, Py_ssize_t nh, const int64_t *rk, Py_ssize_t nr,
                const int64_t *hid, const int64_t *rid, int different)
{
    for (Py_ssize_t j = 0; j < nr; j++) {
        const int64_t key = rk[j];
        for (Py_ssize_t i = 0; i < nh; i++) {
            if (hk[i] != key || (different && hid[i] == rid[j])) {
                continue;
            }
            if (emit(e, j, 1, i, 1) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/*
 * equal_keys(hyp_keys, ref_keys, hyp_ids, ref_ids, stage, match_type, different) -> list
 *
 * One-word candidates (j, 1, i, 1, stage) for every reference j ascending and hypothesis i
 * ascending with hyp_keys[i] == ref_keys[j]; when `different` is true, pairs whose identities
 * (hyp_ids[i], ref_ids[j]) are equal are left out. Exact matching passes the identities as keys;
 * stem matching passes stem identities and different=True.
 */
static PyObject *
equal_keys_c(PyObject *self, PyObject *args)
{
    PyObject *hk_obj, *rk_obj, *hi_obj, *ri_obj, *stage, *type;
    int different;
    if (!PyArg_ParseTuple(args, "OOOOOOp:equal_keys", &hk_obj, &rk_obj, &hi_obj, &ri_obj, &stage,
                          &type, &different)) {
        return NULL;
    }
    if (check_match_type(type) < 0) {
        return NULL;
    }
    PyObject *out = NULL;
    int64_t *hk = NULL, *rk = NULL, *hid = NULL, *rid = NULL;
    Py_ssize_t nh = 0, nr = 0, n3 = 0, n4 = 0;
    hk = read_int64s(hk_obj, &nh, "hyp_keys: expected a sequence of ints");
    if (hk == NULL) {
        goto done;
    }
    rk = read_int64s(rk_obj, &nr, "ref_keys: expected a sequence of ints");
    if (rk == NULL) {
        goto done;
    }
    if (different) {
        hid = read_int64s(hi_obj, &n3, "hyp_ids: expected a sequence of ints");
        if (hid == NULL) {
            goto done;
        }
        rid = read_int64s(ri_obj, &n4, "ref_ids: expected a sequence of ints");
        if (rid == NULL) {
            goto done;
        }
        if (n3 != nh || n4 != nr) {
            PyErr_SetString(PyExc_ValueError, "keys and identities differ in length");
            goto done;
        }
    }
    out = PyList_New(0);
    if (out == NULL) {
        goto done;
    }
    Emit e = {out, (PyTypeObject *)type, stage, NULL, 0, 0, 0};
    if (equal_keys_core(&e, hk, nh, rk, nr, hid, rid, different) < 0) {
        Py_CLEAR(out);
    }
done:
    PyMem_Free(hk);
    PyMem_Free(rk);
    PyMem_Free(hid);
    PyMem_Free(rid);
    return out;
}

/* Index of the lowest set bit of a non-zero word. */
static inline int
lowest_bit(uint64_t word)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(word);
#else
    int n = 0;
    while (!(word & 1u)) {
        word >>= 1;
        n++;
    }
    return n;
#endif
}

/* One word's synonym set: n native int64 values at base (not necessarily aligned). */
typedef struct {
    const char *base;
    Py_ssize_t n;
} Packed;

static inline int64_t
packed_at(const Packed *p, Py_ssize_t k)
{
    int64_t x;
    memcpy(&x, p->base + k * (Py_ssize_t)sizeof(int64_t), sizeof(int64_t));
    return x;
}

/* Candidates (j, 1, i, 1) for every reference j ascending and hypothesis i ascending whose sets
 * share a value and whose identities differ.
 *
 * Every hypothesis value goes into a hash table whose slots hold the bit set of the hypothesis
 * positions having it; a reference word's hits are the union of its values' bit sets, read in
 * ascending position order (the order of a pairwise merge). */
static int
sets_core(Emit *e, const Packed *hs, Py_ssize_t nh, const Packed *rs, Py_ssize_t nr,
          const int64_t *hid, const int64_t *rid)
{
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < nh; i++) {
        total += hs[i].n;
    }
    if (total == 0) {
        return 0;
    }
    int rc = -1;
    const Py_ssize_t words = (nh + 63) / 64;
    Py_ssize_t cap = 16;
    while (cap < 2 * total) {
        cap *= 2;
    }
    int64_t *keys = PyMem_Malloc((size_t)cap * sizeof(int64_t));
    Py_ssize_t *slot_set = PyMem_Malloc((size_t)cap * sizeof(Py_ssize_t));
    uint64_t *bits = PyMem_Calloc((size_t)(total * words + words), sizeof(uint64_t));
    if (keys == NULL || slot_set == NULL || bits == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < cap; k++) {
        slot_set[k] = -1;
    }
    Py_ssize_t n_sets = 0;
    const uint64_t mask = (uint64_t)cap - 1;
    for (Py_ssize_t i = 0; i < nh; i++) {
        for (Py_ssize_t a = 0; a < hs[i].n; a++) {
            const int64_t x = packed_at(&hs[i], a);
            uint64_t h = ((uint64_t)x * UINT64_C(0x9E3779B97F4A7C15)) >> 17;
            while (slot_set[h & mask] >= 0 && keys[h & mask] != x) {
                h++;
            }
            const uint64_t slot = h & mask;
            if (slot_set[slot] < 0) {
                keys[slot] = x;
                slot_set[slot] = n_sets++;
            }
            bits[slot_set[slot] * words + (i >> 6)] |= (uint64_t)1 << (i & 63);
        }
    }
    uint64_t *hits = bits + total * words; /* scratch: one more bit set */
    for (Py_ssize_t j = 0; j < nr; j++) {
        if (rs[j].n == 0) {
            continue;
        }
        int any = 0;
        memset(hits, 0, (size_t)words * sizeof(uint64_t));
        for (Py_ssize_t a = 0; a < rs[j].n; a++) {
            const int64_t x = packed_at(&rs[j], a);
            uint64_t h = ((uint64_t)x * UINT64_C(0x9E3779B97F4A7C15)) >> 17;
            while (slot_set[h & mask] >= 0 && keys[h & mask] != x) {
                h++;
            }
            const Py_ssize_t set = slot_set[h & mask];
            if (set < 0) {
                continue;
            }
            const uint64_t *src = bits + set * words;
            for (Py_ssize_t w = 0; w < words; w++) {
                hits[w] |= src[w];
            }
            any = 1;
        }
        if (!any) {
            continue;
        }
        for (Py_ssize_t w = 0; w < words; w++) {
            uint64_t word = hits[w];
            while (word) {
                const Py_ssize_t i = w * 64 + (Py_ssize_t)lowest_bit(word);
                word &= word - 1;
                if (hid[i] != rid[j] && emit(e, j, 1, i, 1) < 0) {
                    goto done;
                }
            }
        }
    }
    rc = 0;
done:
    PyMem_Free(keys);
    PyMem_Free(slot_set);
    PyMem_Free(bits);
    return rc;
}

/*
 * sets_intersect(hyp_sets, ref_sets, hyp_ids, ref_ids, stage, match_type) -> list
 *
 * hyp_sets[i] and ref_sets[j] are bytes holding sorted, duplicate-free native int64 values
 * (synset identifiers). Candidates (j, 1, i, 1, stage) for every reference j ascending and
 * hypothesis i ascending whose sets share a value and whose identities differ.
 */
static PyObject *
sets_intersect_c(PyObject *self, PyObject *args)
{
    PyObject *hs_obj, *rs_obj, *hi_obj, *ri_obj, *stage, *type;
    if (!PyArg_ParseTuple(args, "OOOOOO:sets_intersect", &hs_obj, &rs_obj, &hi_obj, &ri_obj,
                          &stage, &type)) {
        return NULL;
    }
    if (check_match_type(type) < 0) {
        return NULL;
    }
    PyObject *out = NULL, *hs = NULL, *rs = NULL;
    int64_t *hid = NULL, *rid = NULL;
    Packed *sets = NULL;
    Py_ssize_t n3 = 0, n4 = 0;
    hs = PySequence_Fast(hs_obj, "hyp_sets: expected a sequence of bytes");
    if (hs == NULL) {
        goto done;
    }
    rs = PySequence_Fast(rs_obj, "ref_sets: expected a sequence of bytes");
    if (rs == NULL) {
        goto done;
    }
    const Py_ssize_t nh = PySequence_Fast_GET_SIZE(hs), nr = PySequence_Fast_GET_SIZE(rs);
    sets = PyMem_Malloc((size_t)(nh + nr + 1) * sizeof(Packed));
    if (sets == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < nh + nr; k++) {
        PyObject *b = k < nh ? PySequence_Fast_GET_ITEM(hs, k) : PySequence_Fast_GET_ITEM(rs, k - nh);
        if (!PyBytes_Check(b) || PyBytes_GET_SIZE(b) % (Py_ssize_t)sizeof(int64_t) != 0) {
            PyErr_SetString(PyExc_TypeError, "sets: expected bytes of packed int64 values");
            goto done;
        }
        sets[k].base = PyBytes_AS_STRING(b);
        sets[k].n = PyBytes_GET_SIZE(b) / (Py_ssize_t)sizeof(int64_t);
    }
    hid = read_int64s(hi_obj, &n3, "hyp_ids: expected a sequence of ints");
    if (hid == NULL) {
        goto done;
    }
    rid = read_int64s(ri_obj, &n4, "ref_ids: expected a sequence of ints");
    if (rid == NULL) {
        goto done;
    }
    if (n3 != nh || n4 != nr) {
        PyErr_SetString(PyExc_ValueError, "sets and identities differ in length");
        goto done;
    }
    out = PyList_New(0);
    if (out == NULL) {
        goto done;
    }
    Emit e = {out, (PyTypeObject *)type, stage, NULL, 0, 0, 0};
    if (sets_core(&e, sets, nh, sets + nh, nr, hid, rid) < 0) {
        Py_CLEAR(out);
    }
done:
    PyMem_Free(sets);
    Py_XDECREF(hs);
    Py_XDECREF(rs);
    PyMem_Free(hid);
    PyMem_Free(rid);
    return out;
}

/* One trie position reached from a start: (node, start, depth). */
typedef struct {
    uint32_t node;
    int32_t start;
    int32_t depth;
} Step;

typedef struct {
    const uint32_t *first_child, *token, *record_start, *record_b;
    Py_ssize_t nodes, records;
    /* Optional: root[word] = the root's child for token id word, or UINT32_MAX (see
     * paraphrase_root). The root has a child for most of the vocabulary, so its binary search
     * would touch about 15 cache lines scattered over the index for every start position. */
    const uint32_t *root;
    Py_ssize_t root_len;
} Trie;

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(address) __builtin_prefetch(address)
#else
#define PREFETCH(address) ((void)0)
#endif

/* First position in token[lo..hi) whose value is >= word (hi when none), hi > lo. Branch-free
 * halving with both possible next probes prefetched: the child lists of common words span
 * dozens of cache lines of the memory-mapped index, and this overlaps their misses. */
static inline Py_ssize_t
lower_bound_u32(const uint32_t *token, Py_ssize_t lo, Py_ssize_t hi, uint32_t word)
{
    const uint32_t *base = token + lo;
    Py_ssize_t n = hi - lo;
    while (n > 1) {
        const Py_ssize_t half = n / 2;
        PREFETCH(base + half / 2);
        PREFETCH(base + half + half / 2);
        base = base[half] < word ? base + half : base;
        n -= half;
    }
    return (base - token) + (*base < word);
}

/* A walk from one start that is still going: its start, its node, the next position. */
typedef struct {
    const uint32_t *base; /* remaining search range of the current child lookup */
    const uint32_t *end;  /* end of the child list */
    Py_ssize_t n;
    uint32_t word;
    uint32_t node;
    int32_t start;
    int32_t pos;
} Walker;

/* Walk the trie from every start of ids; steps in start order, shallow first. Returns the
 * number of steps written to *out (a new array) or -1 with an exception set.
 *
 * The walks advance together, one depth at a time, and their child lookups (binary searches
 * over the memory-mapped index, mostly cache misses) run in lockstep, one halving step of each
 * in turn with the next probe prefetched, so that the misses of independent walks overlap. */
static Py_ssize_t
walk_all(const Trie *t, const int64_t *ids, Py_ssize_t n, Step **out)
{
    Py_ssize_t cap = n * 4 + 4, count = 0;
    Step *steps = PyMem_Malloc((size_t)cap * sizeof(Step));
    Walker *walkers = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(Walker));
    Py_ssize_t *per_start = PyMem_Calloc((size_t)(n + 1), sizeof(Py_ssize_t));
    Step *sorted = NULL;
    if (steps == NULL || walkers == NULL || per_start == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    Py_ssize_t active = 0;
    for (Py_ssize_t s = 0; s < n; s++) {
        if (t->root != NULL && ids[s] >= 0 && ids[s] < t->root_len) {
            PREFETCH(&t->root[ids[s]]);
        }
        walkers[active].node = 0;
        walkers[active].start = (int32_t)s;
        walkers[active].pos = (int32_t)s;
        active++;
    }
    while (active > 0) {
        /* Start this depth's lookups; walks that cannot go on are dropped. */
        Py_ssize_t searching = 0;
        for (Py_ssize_t k = 0; k < active; k++) {
            Walker *wk = &walkers[k];
            const int64_t word = ids[wk->pos];
            if (word < 0 || word > UINT32_MAX) {
                continue;
            }
            Walker next = *wk;
            next.word = (uint32_t)word;
            if (wk->node == 0 && t->root != NULL) {
                if (word >= t->root_len || t->root[word] == UINT32_MAX) {
                    continue;
                }
                const uint32_t child = t->root[word];
                if (child < t->first_child[0] || child >= t->first_child[1]) {
                    PyErr_SetString(PyExc_ValueError, "paraphrase index: stale root table");
                    goto fail;
                }
                next.base = t->token + child;
                next.end = NULL; /* found: no search, no read of the token array */
                next.n = 1;
            }
            else {
                const Py_ssize_t lo = t->first_child[wk->node], hi = t->first_child[wk->node + 1];
                if (lo > hi || hi > t->nodes) {
                    PyErr_SetString(PyExc_ValueError, "paraphrase index: corrupt trie");
                    goto fail;
                }
                if (lo == hi) {
                    continue;
                }
                next.base = t->token + lo;
                next.end = t->token + hi;
                next.n = hi - lo;
                PREFETCH(next.base + next.n / 2);
            }
            walkers[searching++] = next;
        }
        /* Lockstep binary searches: base ends just before the first token >= word, or at it. */
        for (int busy = 1; busy;) {
            busy = 0;
            for (Py_ssize_t k = 0; k < searching; k++) {
                Walker *wk = &walkers[k];
                if (wk->n > 1) {
                    const Py_ssize_t half = wk->n / 2;
                    wk->base = wk->base[half] < wk->word ? wk->base + half : wk->base;
                    wk->n -= half;
                    PREFETCH(wk->base + wk->n / 2);
                    busy = 1;
                }
            }
        }
        /* Record the steps found; walks that reached the end of ids stop. */
        active = 0;
        for (Py_ssize_t k = 0; k < searching; k++) {
            Walker wk = walkers[k];
            const uint32_t *found = wk.base;
            if (wk.end != NULL) {
                found += *wk.base < wk.word;
                if (found == wk.end || *found != wk.word) {
                    continue;
                }
            }
            const uint32_t node = (uint32_t)(found - t->token);
            PREFETCH(&t->record_start[node]);
            PREFETCH(&t->first_child[node]);
            if (count == cap) {
                cap *= 2;
                Step *grown = PyMem_Realloc(steps, (size_t)cap * sizeof(Step));
                if (grown == NULL) {
                    PyErr_NoMemory();
                    goto fail;
                }
                steps = grown;
            }
            steps[count].node = node;
            steps[count].start = wk.start;
            steps[count].depth = wk.pos - wk.start + 1;
            count++;
            per_start[wk.start + 1]++;
            if (wk.pos + 1 < n) {
                wk.node = node;
                wk.pos++;
                walkers[active++] = wk;
            }
        }
    }
    /* Depth-major to start-major order: a start's steps come out shallow first. */
    sorted = PyMem_Malloc((size_t)(count ? count : 1) * sizeof(Step));
    if (sorted == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t s = 0; s < n; s++) {
        per_start[s + 1] += per_start[s];
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        sorted[per_start[steps[k].start] + steps[k].depth - 1] = steps[k];
    }
    PyMem_Free(steps);
    PyMem_Free(walkers);
    PyMem_Free(per_start);
    *out = sorted;
    return count;
fail:
    PyMem_Free(steps);
    PyMem_Free(walkers);
    PyMem_Free(per_start);
    PyMem_Free(sorted);
    return -1;
}

/* The trie nodes one side reaches, as an open-addressing hash table: each distinct node with
 * its steps chained in start order (steps are generated in start order). Replaces sorting the
 * steps and a binary search per record. */
typedef struct {
    uint32_t node;
    int32_t head; /* first step of the node, -1 for an empty slot */
    int32_t tail;
} Slot;

typedef struct {
    Slot *slots;
    uint32_t mask;
    int32_t *next; /* next step of the same node, or -1 */
} Occurrences;

static inline uint32_t
node_hash(uint32_t node)
{
    return node * 2654435761u;
}

static int
occurrences_build(Occurrences *o, const Step *steps, Py_ssize_t n)
{
    if (n > INT32_MAX / 4) {
        PyErr_SetString(PyExc_OverflowError, "paraphrase: too many phrases");
        return -1;
    }
    uint32_t size = 16;
    while ((Py_ssize_t)size < 2 * n) {
        size *= 2;
    }
    o->mask = size - 1;
    o->slots = PyMem_Malloc((size_t)size * sizeof(Slot));
    o->next = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(int32_t));
    if (o->slots == NULL || o->next == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (uint32_t k = 0; k < size; k++) {
        o->slots[k].head = -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        const uint32_t node = steps[k].node;
        uint32_t at = node_hash(node) & o->mask;
        while (o->slots[at].head >= 0 && o->slots[at].node != node) {
            at = (at + 1) & o->mask;
        }
        Slot *slot = &o->slots[at];
        o->next[k] = -1;
        if (slot->head < 0) {
            slot->node = node;
            slot->head = (int32_t)k;
        }
        else {
            o->next[slot->tail] = (int32_t)k;
        }
        slot->tail = (int32_t)k;
    }
    return 0;
}

/* First step of node, or -1. */
static inline int32_t
occurrences_find(const Occurrences *o, uint32_t node)
{
    uint32_t at = node_hash(node) & o->mask;
    for (;;) {
        const Slot *slot = &o->slots[at];
        if (slot->head < 0) {
            return -1;
        }
        if (slot->node == node) {
            return slot->head;
        }
        at = (at + 1) & o->mask;
    }
}

/* One pass: side A walks, side B occurrences; a_is_ref says which side is the reference. */
static int
paraphrase_pass(const Trie *t, const Step *a_steps, Py_ssize_t na, const Step *b_steps,
                const Occurrences *b_found, int a_is_ref, Emit *e)
{
    for (Py_ssize_t k = 0; k < na; k++) {
        /* Two-stage prefetch: the record list bounds of a later step, then the record list of
         * a nearer one (whose bounds were fetched earlier). */
        if (k + 8 < na) {
            PREFETCH(&t->record_start[a_steps[k + 8].node]);
        }
        if (k + 4 < na) {
            const uint32_t ahead = t->record_start[a_steps[k + 4].node];
            if (ahead < t->records) {
                PREFETCH(&t->record_b[ahead]);
            }
        }
        const uint32_t node = a_steps[k].node;
        const Py_ssize_t r0 = t->record_start[node], r1 = t->record_start[node + 1];
        if (r0 >= r1) {
            continue;
        }
        if (r1 > t->records) {
            PyErr_SetString(PyExc_ValueError, "paraphrase index: corrupt record list");
            return -1;
        }
        for (Py_ssize_t r = r0; r < r1; r++) {
            for (int32_t at = occurrences_find(b_found, t->record_b[r]); at >= 0;
                 at = b_found->next[at]) {
                const Step *b = &b_steps[at];
                int rc = a_is_ref ? emit(e, a_steps[k].start, a_steps[k].depth, b->start,
                                         b->depth)
                                  : emit(e, b->start, b->depth, a_steps[k].start,
                                         a_steps[k].depth);
                if (rc < 0) {
                    return -1;
                }
            }
        }
    }
    return 0;
}

/* The paraphrase candidates of two segments of table token ids (-1: unknown), in the
 * matcher's order: pass 1 with the reference walking (A in the reference, B in the hypothesis),
 * then pass 2 the other way round. */
static int
paraphrase_core(Emit *e, const Trie *t, const int64_t *hids, Py_ssize_t nh, const int64_t *rids,
                Py_ssize_t nr)
{
    if (nh == 0 || nr == 0) {
        return 0;
    }
    if (nh > INT32_MAX / 4 || nr > INT32_MAX / 4) {
        PyErr_SetString(PyExc_OverflowError, "paraphrase: segment too long");
        return -1;
    }
    int rc = -1;
    Step *hsteps = NULL, *rsteps = NULL;
    Occurrences hfound = {NULL, 0, NULL}, rfound = {NULL, 0, NULL};
    const Py_ssize_t hn = walk_all(t, hids, nh, &hsteps);
    if (hn < 0) {
        goto done;
    }
    const Py_ssize_t rn = walk_all(t, rids, nr, &rsteps);
    if (rn < 0) {
        goto done;
    }
    if (hn == 0 || rn == 0) {
        rc = 0;
        goto done;
    }
    for (Py_ssize_t k = 0; k < hn + rn; k++) {
        const uint32_t node = k < hn ? hsteps[k].node : rsteps[k - hn].node;
        if (node >= t->nodes) {
            PyErr_SetString(PyExc_ValueError, "paraphrase index: corrupt trie");
            goto done;
        }
    }
    if (occurrences_build(&hfound, hsteps, hn) < 0 ||
        occurrences_build(&rfound, rsteps, rn) < 0 ||
        paraphrase_pass(t, rsteps, rn, hsteps, &hfound, 1, e) < 0 ||
        paraphrase_pass(t, hsteps, hn, rsteps, &rfound, 0, e) < 0) {
        goto done;
    }
    rc = 0;
done:
    PyMem_Free(hsteps);
    PyMem_Free(rsteps);
    PyMem_Free(hfound.slots);
    PyMem_Free(hfound.next);
    PyMem_Free(rfound.slots);
    PyMem_Free(rfound.next);
    return rc;
}

static int
get_u32_buffer(PyObject *obj, Py_buffer *view, const char *what)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) {
        return -1;
    }
    if (view->len % 4 != 0) {
        PyErr_Format(PyExc_ValueError, "%s: expected packed unsigned 32-bit values", what);
        PyBuffer_Release(view);
        view->obj = NULL;
        return -1;
    }
    return 0;
}

/* The trie of a paraphrase index from its four uint32 buffers and an optional root table
 * (None or a paraphrase_root() result); views[0..4] must start zeroed and are released by
 * trie_close() whatever happens. */
static int
trie_open(Trie *t, Py_buffer views[5], PyObject *fc_obj, PyObject *tok_obj, PyObject *rs_obj,
          PyObject *rb_obj, PyObject *root_obj)
{
    if (get_u32_buffer(fc_obj, &views[0], "first_child") < 0 ||
        get_u32_buffer(tok_obj, &views[1], "token") < 0 ||
        get_u32_buffer(rs_obj, &views[2], "record_start") < 0 ||
        get_u32_buffer(rb_obj, &views[3], "record_b") < 0) {
        return -1;
    }
    t->first_child = views[0].buf;
    t->token = views[1].buf;
    t->record_start = views[2].buf;
    t->record_b = views[3].buf;
    t->nodes = views[1].len / 4;
    t->records = views[3].len / 4;
    t->root = NULL;
    t->root_len = 0;
    if (root_obj != Py_None) {
        if (get_u32_buffer(root_obj, &views[4], "root") < 0) {
            return -1;
        }
        t->root = views[4].buf;
        t->root_len = views[4].len / 4;
    }
    if (views[0].len / 4 != t->nodes + 1 || views[2].len / 4 != t->nodes + 1 || t->nodes < 1) {
        PyErr_SetString(PyExc_ValueError, "paraphrase index: section sizes disagree");
        return -1;
    }
    return 0;
}

static void
trie_close(Py_buffer views[5])
{
    for (int k = 0; k < 5; k++) {
        if (views[k].obj) {
            PyBuffer_Release(&views[k]);
        }
    }
}

/*
 * paraphrase(first_child, token, record_start, record_b, hyp_ids, ref_ids, stage, match_type,
 *            root=None)
 *
 * The paraphrase matcher's candidates (see match/paraphrase.py for the order): the four index
 * arrays are buffers of native uint32, the ids are table token ids (-1 for unknown words).
 * root, when given, is paraphrase_root() of the same arrays: the first step of every walk is
 * then one table read instead of a binary search over the root's children (same result).
 */
static PyObject *
paraphrase_c(PyObject *self, PyObject *args)
{
    PyObject *fc_obj, *tok_obj, *rs_obj, *rb_obj, *h_obj, *r_obj, *stage, *type;
    PyObject *root_obj = Py_None;
    if (!PyArg_ParseTuple(args, "OOOOOOOO|O:paraphrase", &fc_obj, &tok_obj, &rs_obj, &rb_obj,
                          &h_obj, &r_obj, &stage, &type, &root_obj)) {
        return NULL;
    }
    if (check_match_type(type) < 0) {
        return NULL;
    }
    Py_buffer views[5];
    memset(views, 0, sizeof(views));
    Trie t;
    int64_t *hids = NULL, *rids = NULL;
    PyObject *out = NULL;
    Py_ssize_t nh = 0, nr = 0;
    if (trie_open(&t, views, fc_obj, tok_obj, rs_obj, rb_obj, root_obj) < 0) {
        goto done;
    }
    hids = read_int64s(h_obj, &nh, "hyp_ids: expected a sequence of ints");
    if (hids == NULL) {
        goto done;
    }
    rids = read_int64s(r_obj, &nr, "ref_ids: expected a sequence of ints");
    if (rids == NULL) {
        goto done;
    }
    out = PyList_New(0);
    if (out == NULL) {
        goto done;
    }
    Emit e = {out, (PyTypeObject *)type, stage, NULL, 0, 0, 0};
    if (paraphrase_core(&e, &t, hids, nh, rids, nr) < 0) {
        Py_CLEAR(out);
    }
done:
    trie_close(views);
    PyMem_Free(hids);
    PyMem_Free(rids);
    return out;
}

/*
 * paraphrase_root(first_child, token) -> bytes
 *
 * Direct lookup table of the trie root's children for paraphrase(): native uint32 entry w is
 * the root's child whose token is w (the first one, as the binary search finds), or
 * 0xFFFFFFFF; the table ends after the largest token the root has a child for.
 */
static PyObject *
paraphrase_root_c(PyObject *self, PyObject *args)
{
    PyObject *fc_obj, *tok_obj;
    if (!PyArg_ParseTuple(args, "OO:paraphrase_root", &fc_obj, &tok_obj)) {
        return NULL;
    }
    Py_buffer fc = {0}, tok = {0};
    PyObject *out = NULL;
    if (get_u32_buffer(fc_obj, &fc, "first_child") < 0 ||
        get_u32_buffer(tok_obj, &tok, "token") < 0) {
        goto done;
    }
    const uint32_t *first_child = fc.buf, *token = tok.buf;
    const Py_ssize_t nodes = tok.len / 4;
    if (fc.len / 4 != nodes + 1 || nodes < 1 || first_child[0] > first_child[1] ||
        first_child[1] > (uint32_t)nodes) {
        PyErr_SetString(PyExc_ValueError, "paraphrase index: corrupt trie");
        goto done;
    }
    const Py_ssize_t lo = first_child[0], hi = first_child[1];
    uint32_t largest = 0;
    for (Py_ssize_t k = lo; k < hi; k++) {
        if (token[k] > largest) {
            largest = token[k];
        }
    }
    const Py_ssize_t size = hi > lo ? (Py_ssize_t)largest + 1 : 0;
    out = PyBytes_FromStringAndSize(NULL, size * 4);
    if (out == NULL) {
        goto done;
    }
    uint32_t *table = (uint32_t *)PyBytes_AS_STRING(out);
    memset(table, 0xFF, (size_t)size * 4);
    for (Py_ssize_t k = lo; k < hi; k++) {
        if (table[token[k]] == UINT32_MAX) {
            table[token[k]] = (uint32_t)k;
        }
    }
done:
    if (fc.obj) {
        PyBuffer_Release(&fc);
    }
    if (tok.obj) {
        PyBuffer_Release(&tok);
    }
    return out;
}

/*
 * align_stages(stage_lists, n_hyp, n_ref, aligner_weights, beam) -> list
 *
 * align() on the candidate store that appending each stage's list in order would build: the
 * lists are distributed to their reference positions (a stable bucket pass, so each position
 * keeps stage order, then each stage's own order) and both coverage counts are taken here, so
 * the caller builds no store and no intermediate Python object is made.
 */
static PyObject *
align_stages_c(PyObject *self, PyObject *args)
{
    PyObject *lists_obj, *weights_obj;
    Py_ssize_t n_hyp, n_ref, beam;
    if (!PyArg_ParseTuple(args, "OnnOn:align_stages", &lists_obj, &n_hyp, &n_ref, &weights_obj,
                          &beam)) {
        return NULL;
    }
    if (n_hyp < 0 || n_ref < 0) {
        PyErr_SetString(PyExc_ValueError, "segment lengths must not be negative");
        return NULL;
    }
    if (beam < 1) {
        PyErr_SetString(PyExc_ValueError, "beam: must be at least 1");
        return NULL;
    }
    PyObject *lists = PySequence_Fast(lists_obj, "stage_lists: expected a sequence of lists");
    if (lists == NULL) {
        return NULL;
    }
    Work w;
    memset(&w, 0, sizeof(w));
    PyObject *result = NULL;
    if (read_weights(&w, weights_obj) < 0 || load_stage_lists(&w, lists, n_hyp, n_ref) < 0 ||
        search(&w, n_hyp, n_ref, beam) < 0) {
        goto done;
    }
    result = chosen_list(&w, n_ref);
done:
    work_free(&w);
    Py_DECREF(lists);
    return result;
}

/*
 * word_stats(matches, hyp_flags, ref_flags, n_stages) -> tuple
 *
 * The statistics of an aligner's chosen matches for word units, in one pass: matches are
 * (ref_start, ref_len, hyp_start, hyp_len, stage) tuples sorted by reference position and not
 * overlapping, so a match continues the open chunk exactly when it starts where the previous
 * one ended on both sides. hyp_flags / ref_flags hold each token's function-word flag (any
 * objects, tested for truth). Returns (hyp_length, ref_length, hyp_function, ref_function,
 * chunks, hyp_matched, ref_matched) followed by 4 * n_stages counts: per stage hypothesis
 * content, reference content, hypothesis function and reference function words matched.
 */
static int
read_flags(PyObject *seq, unsigned char **out, Py_ssize_t *n, Py_ssize_t *count)
{
    PyObject *fast = PySequence_Fast(seq, "flags: expected a sequence");
    if (fast == NULL) {
        return -1;
    }
    const Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    unsigned char *flags = PyMem_Malloc((size_t)(len ? len : 1));
    if (flags == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t total = 0;
    for (Py_ssize_t k = 0; k < len; k++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, k);
        int truth = item == Py_True ? 1 : item == Py_False ? 0 : PyObject_IsTrue(item);
        if (truth < 0) {
            PyMem_Free(flags);
            Py_DECREF(fast);
            return -1;
        }
        flags[k] = (unsigned char)truth;
        total += truth;
    }
    Py_DECREF(fast);
    *out = flags;
    *n = len;
    *count = total;
    return 0;
}

/* Statistics of chosen[0..n) (sorted by reference position, not overlapping, stages checked):
 * head = (hyp_length, ref_length, hyp_function, ref_function, chunks, hyp_matched,
 * ref_matched) and counts[4 * stage + k] per stage (hyp content, ref content, hyp function,
 * ref function). counts must be zeroed. */
static void
stats_core(const Cand *chosen, Py_ssize_t n, const unsigned char *hf, Py_ssize_t nh,
           const unsigned char *rf, Py_ssize_t nr, int64_t head[7], int64_t *counts)
{
    int64_t hyp_function = 0, ref_function = 0;
    for (Py_ssize_t i = 0; i < nh; i++) {
        hyp_function += hf[i] != 0;
    }
    for (Py_ssize_t j = 0; j < nr; j++) {
        ref_function += rf[j] != 0;
    }
    int64_t chunks = 0, hyp_matched = 0, ref_matched = 0, ref_end = -1, hyp_end = -1;
    for (Py_ssize_t k = 0; k < n; k++) {
        const Cand *m = &chosen[k];
        if (m->ref_start != ref_end || m->hyp_start != hyp_end) {
            chunks++;
        }
        ref_end = m->ref_start + m->ref_len;
        hyp_end = m->hyp_start + m->hyp_len;
        hyp_matched += m->hyp_len;
        ref_matched += m->ref_len;
        int64_t *c = counts + 4 * m->stage;
        for (int64_t i = m->hyp_start; i < hyp_end; i++) {
            c[hf[i] ? 2 : 0]++;
        }
        for (int64_t j = m->ref_start; j < ref_end; j++) {
            c[rf[j] ? 3 : 1]++;
        }
    }
    head[0] = nh;
    head[1] = nr;
    head[2] = hyp_function;
    head[3] = ref_function;
    head[4] = chunks;
    head[5] = hyp_matched;
    head[6] = ref_matched;
}

/* (head..., counts...) as a new tuple of ints. */
static PyObject *
stats_tuple(const int64_t head[7], const int64_t *counts, Py_ssize_t n_stages)
{
    PyObject *result = PyTuple_New(7 + 4 * n_stages);
    if (result == NULL) {
        return NULL;
    }
    for (Py_ssize_t k = 0; k < 7 + 4 * n_stages; k++) {
        PyObject *value = PyLong_FromLongLong(k < 7 ? head[k] : counts[k - 7]);
        if (value == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, k, value);
    }
    return result;
}

static PyObject *
word_stats_c(PyObject *self, PyObject *args)
{
    PyObject *matches_obj, *hf_obj, *rf_obj;
    Py_ssize_t n_stages;
    if (!PyArg_ParseTuple(args, "OOOn:word_stats", &matches_obj, &hf_obj, &rf_obj, &n_stages)) {
        return NULL;
    }
    if (n_stages < 0 || n_stages > 1024) {
        PyErr_SetString(PyExc_ValueError, "n_stages: expected 0 to 1024");
        return NULL;
    }
    PyObject *result = NULL, *matches = NULL;
    unsigned char *hf = NULL, *rf = NULL;
    int64_t *counts = NULL;
    Cand *chosen = NULL;
    Py_ssize_t nh = 0, nr = 0, hyp_function = 0, ref_function = 0;
    if (read_flags(hf_obj, &hf, &nh, &hyp_function) < 0 ||
        read_flags(rf_obj, &rf, &nr, &ref_function) < 0) {
        goto done;
    }
    matches = PySequence_Fast(matches_obj, "matches: expected a sequence of Match tuples");
    if (matches == NULL) {
        goto done;
    }
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(matches);
    counts = PyMem_Calloc((size_t)(4 * n_stages + 1), sizeof(int64_t));
    chosen = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(Cand));
    if (counts == NULL || chosen == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        Cand *c = &chosen[k];
        if (read_match(PySequence_Fast_GET_ITEM(matches, k), c, "matches") < 0) {
            goto done;
        }
        if (!span_inside(c, nh, nr)) {
            PyErr_SetString(PyExc_ValueError, "a match's span lies outside its segments");
            goto done;
        }
        if (c->stage < 0 || c->stage >= n_stages) {
            PyErr_SetString(PyExc_IndexError, "a match's stage is not below n_stages");
            goto done;
        }
    }
    int64_t head[7];
    stats_core(chosen, n, hf, nh, rf, nr, head, counts);
    result = stats_tuple(head, counts, n_stages);
done:
    Py_XDECREF(matches);
    PyMem_Free(hf);
    PyMem_Free(rf);
    PyMem_Free(counts);
    PyMem_Free(chosen);
    return result;
}

/* A buffer of fixed-size items: its length in items, or -1 with an exception set. */
static Py_ssize_t
get_items(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, const char *what)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) {
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

enum { KIND_EXACT, KIND_STEM, KIND_SYNONYM, KIND_PARAPHRASE };

/*
 * meteor15_pair(kinds, hyp, ref, hashes, stems, paraphrase_ids, functions, synonym_starts,
 *               synonym_pool, trie, aligner_weights, beam, match_type) -> (row, matches)
 *
 * One METEOR 1.5 hypothesis/reference pair from start to statistics, without Python objects
 * in between: kinds[k] is the module of stage k (0 exact, 1 stem, 2 synonym, 3 paraphrase);
 * hyp and ref are int32 word-type ids indexing the per-type tables: hashes (int32 Java hash,
 * the word identity), stems (int32 stem identity), paraphrase_ids (int32 table token id, -1
 * unknown), functions (uint8 function-word flag) and the packed synonym sets
 * synonym_pool[synonym_starts[v] .. synonym_starts[v + 1]) (int64, sorted). Tables a
 * configuration does not use may be None. trie is (first_child, token, record_start, record_b,
 * root or None) of the paraphrase index, or None.
 *
 * Candidates are generated stage by stage in the matchers' orders (only the first stage runs
 * when both segments have the same identities, spec 3.5), aligned by the beam search, and
 * counted as word_stats() does. row is word_stats()'s tuple; matches is the list of chosen
 * match_type objects when match_type is given, else None.
 */
static PyObject *
meteor15_pair_c(PyObject *self, PyObject *args)
{
    PyObject *kinds_obj, *hyp_obj, *ref_obj, *hash_obj, *stem_obj, *para_obj, *func_obj;
    PyObject *start_obj, *pool_obj, *trie_obj, *weights_obj, *type;
    Py_ssize_t beam;
    if (!PyArg_ParseTuple(args, "O!OOOOOOOOOOnO:meteor15_pair", &PyBytes_Type, &kinds_obj,
                          &hyp_obj, &ref_obj, &hash_obj, &stem_obj, &para_obj, &func_obj,
                          &start_obj, &pool_obj, &trie_obj, &weights_obj, &beam, &type)) {
        return NULL;
    }
    if (beam < 1) {
        PyErr_SetString(PyExc_ValueError, "beam: must be at least 1");
        return NULL;
    }
    if (type != Py_None && check_match_type(type) < 0) {
        return NULL;
    }
    const unsigned char *kinds = (const unsigned char *)PyBytes_AS_STRING(kinds_obj);
    const Py_ssize_t n_stages = PyBytes_GET_SIZE(kinds_obj);
    Py_buffer hv = {0}, rv = {0}, hashv = {0}, stemv = {0}, parav = {0}, funcv = {0};
    Py_buffer startv = {0}, poolv = {0};
    Py_buffer trie_views[5];
    memset(trie_views, 0, sizeof(trie_views));
    Work w;
    memset(&w, 0, sizeof(w));
    Emit e = {NULL, NULL, NULL, NULL, 0, 0, 0};
    int64_t *side = NULL, *counts = NULL;
    unsigned char *flags = NULL;
    Packed *sets = NULL;
    Cand *chosen = NULL;
    PyObject *row = NULL, *matches = NULL, *result = NULL;

    const Py_ssize_t nh = get_items(hyp_obj, &hv, 4, "hyp");
    const Py_ssize_t nr = nh < 0 ? -1 : get_items(ref_obj, &rv, 4, "ref");
    const Py_ssize_t n_types = nr < 0 ? -1 : get_items(hash_obj, &hashv, 4, "hashes");
    if (n_types < 0 || get_items(func_obj, &funcv, 1, "functions") < 0) {
        goto done;
    }
    if (funcv.len < n_types) {
        PyErr_SetString(PyExc_ValueError, "functions: shorter than hashes");
        goto done;
    }
    const int32_t *hyp = hv.buf, *ref = rv.buf, *hashes = hashv.buf;
    for (Py_ssize_t k = 0; k < nh + nr; k++) {
        const int32_t v = k < nh ? hyp[k] : ref[k - nh];
        if (v < 0 || v >= n_types) {
            PyErr_SetString(PyExc_ValueError, "a word-type id is outside the tables");
            goto done;
        }
    }
    const int32_t *stems = NULL, *para = NULL;
    const int64_t *starts = NULL;
    Py_ssize_t pool_len = 0;
    for (Py_ssize_t s = 0; s < n_stages; s++) {
        if (kinds[s] == KIND_STEM && stems == NULL) {
            if (stem_obj == Py_None || get_items(stem_obj, &stemv, 4, "stems") < n_types) {
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_ValueError, "stems: missing or shorter than hashes");
                }
                goto done;
            }
            stems = stemv.buf;
        }
        else if (kinds[s] == KIND_PARAPHRASE && para == NULL) {
            if (para_obj == Py_None || trie_obj == Py_None ||
                get_items(para_obj, &parav, 4, "paraphrase_ids") < n_types) {
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_ValueError,
                                    "paraphrase_ids or trie: missing or shorter than hashes");
                }
                goto done;
            }
            para = parav.buf;
        }
        else if (kinds[s] == KIND_SYNONYM && starts == NULL) {
            if (start_obj == Py_None || pool_obj == Py_None ||
                get_items(start_obj, &startv, 8, "synonym_starts") < n_types + 1 ||
                (pool_len = get_items(pool_obj, &poolv, 8, "synonym_pool")) < 0) {
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_ValueError, "synonym tables: missing or too short");
                }
                goto done;
            }
            starts = startv.buf;
        }
        else if (kinds[s] > KIND_PARAPHRASE) {
            PyErr_SetString(PyExc_ValueError, "kinds: expected values 0 to 3");
            goto done;
        }
    }
    Trie t;
    if (para != NULL) {
        PyObject *parts = PySequence_Fast(trie_obj, "trie: expected a 5-tuple");
        if (parts == NULL) {
            goto done;
        }
        if (PySequence_Fast_GET_SIZE(parts) != 5) {
            PyErr_SetString(PyExc_ValueError, "trie: expected a 5-tuple");
            Py_DECREF(parts);
            goto done;
        }
        PyObject **items = PySequence_Fast_ITEMS(parts);
        const int rc = trie_open(&t, trie_views, items[0], items[1], items[2], items[3], items[4]);
        Py_DECREF(parts);
        if (rc < 0) {
            goto done;
        }
    }
    /* Per-side int64 keys: identities, then stems or paraphrase ids as a stage needs them. */
    side = PyMem_Malloc((size_t)(4 * (nh + nr) + 1) * sizeof(int64_t));
    flags = PyMem_Malloc((size_t)(nh + nr + 1));
    sets = PyMem_Malloc((size_t)(nh + nr + 1) * sizeof(Packed));
    counts = PyMem_Calloc((size_t)(4 * n_stages + 1), sizeof(int64_t));
    if (side == NULL || flags == NULL || sets == NULL || counts == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t *hid = side, *rid = side + nh, *hkey = side + nh + nr, *rkey = hkey + nh;
    const unsigned char *functions = funcv.buf;
    int identical = nh == nr;
    for (Py_ssize_t i = 0; i < nh; i++) {
        hid[i] = hashes[hyp[i]];
        flags[i] = functions[hyp[i]];
    }
    for (Py_ssize_t j = 0; j < nr; j++) {
        rid[j] = hashes[ref[j]];
        flags[nh + j] = functions[ref[j]];
        identical = identical && rid[j] == hid[j];
    }
    for (Py_ssize_t s = 0; s < n_stages; s++) {
        e.stage = s;
        int rc = 0;
        switch (kinds[s]) {
        case KIND_EXACT:
            rc = equal_keys_core(&e, hid, nh, rid, nr, hid, rid, 0);
            break;
        case KIND_STEM:
            for (Py_ssize_t k = 0; k < nh + nr; k++) {
                hkey[k] = stems[k < nh ? hyp[k] : ref[k - nh]];
            }
            rc = equal_keys_core(&e, hkey, nh, rkey, nr, hid, rid, 1);
            break;
        case KIND_SYNONYM:
            for (Py_ssize_t k = 0; k < nh + nr; k++) {
                const int32_t v = k < nh ? hyp[k] : ref[k - nh];
                const int64_t a = starts[v], b = starts[v + 1];
                if (a < 0 || b < a || b > pool_len) {
                    PyErr_SetString(PyExc_ValueError, "synonym_starts: outside the pool");
                    goto done;
                }
                sets[k].base = (const char *)poolv.buf + a * (int64_t)sizeof(int64_t);
                sets[k].n = (Py_ssize_t)(b - a);
            }
            rc = sets_core(&e, sets, nh, sets + nh, nr, hid, rid);
            break;
        default: /* KIND_PARAPHRASE */
            for (Py_ssize_t k = 0; k < nh + nr; k++) {
                hkey[k] = para[k < nh ? hyp[k] : ref[k - nh]];
            }
            rc = paraphrase_core(&e, &t, hkey, nh, rkey, nr);
            break;
        }
        if (rc < 0) {
            goto done;
        }
        if (identical) { /* spec 3.5: only the first module for identical segments */
            break;
        }
    }
    if (read_weights(&w, weights_obj) < 0 || load_raw(&w, e.raw, e.n, nh, nr) < 0 ||
        search(&w, nh, nr, beam) < 0) {
        goto done;
    }
    Py_ssize_t n_chosen = 0;
    chosen = PyMem_Malloc((size_t)(nr + 1) * sizeof(Cand));
    if (chosen == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t j = 0; j < nr; j++) {
        if (w.assigned[j] >= 0) {
            chosen[n_chosen++] = w.cands[w.assigned[j]];
        }
    }
    for (Py_ssize_t k = 0; k < n_chosen; k++) {
        if (chosen[k].stage >= n_stages) {
            PyErr_SetString(PyExc_IndexError, "a match's stage is not below n_stages");
            goto done;
        }
    }
    int64_t head[7];
    stats_core(chosen, n_chosen, flags, nh, flags + nh, nr, head, counts);
    row = stats_tuple(head, counts, n_stages);
    if (row == NULL) {
        goto done;
    }
    if (type != Py_None) {
        matches = PyList_New(n_chosen);
        if (matches == NULL) {
            goto done;
        }
        for (Py_ssize_t k = 0; k < n_chosen; k++) {
            PyObject *stage = PyLong_FromLongLong(chosen[k].stage);
            if (stage == NULL) {
                goto done;
            }
            PyObject *m = new_match((PyTypeObject *)type, chosen[k].ref_start, chosen[k].ref_len,
                                    chosen[k].hyp_start, chosen[k].hyp_len, stage);
            Py_DECREF(stage);
            if (m == NULL) {
                goto done;
            }
            PyList_SET_ITEM(matches, k, m);
        }
    }
    else {
        matches = Py_NewRef(Py_None);
    }
    result = PyTuple_Pack(2, row, matches);
done:
    Py_XDECREF(row);
    Py_XDECREF(matches);
    work_free(&w);
    PyMem_Free(e.raw);
    PyMem_Free(side);
    PyMem_Free(flags);
    PyMem_Free(sets);
    PyMem_Free(counts);
    PyMem_Free(chosen);
    trie_close(trie_views);
    Py_buffer *views[] = {&hv, &rv, &hashv, &stemv, &parav, &funcv, &startv, &poolv};
    for (size_t k = 0; k < sizeof(views) / sizeof(views[0]); k++) {
        if (views[k]->obj) {
            PyBuffer_Release(views[k]);
        }
    }
    return result;
}

/*
 * greedy_align(hyp_words, ref_words, stem, synonyms) -> list
 *
 * NLTK's staged greedy alignment (align/greedy.py's greedy_align, which stays the reference):
 * exact words, then stems (stem(word) for the words still free; None skips stages 2 and 3),
 * then synonyms (synonyms(stem) of each free hypothesis stem is a container of names; None
 * skips stage 3). In each stage the free hypothesis words are visited from last to first and
 * each takes the free reference position with the highest index whose word (stem) is equal
 * (is one of the names). Returns (i, j, stage) tuples ordered by hypothesis index.
 */
static int
greedy_equal_stage(PyObject **hyp, Py_ssize_t nh, PyObject **ref, Py_ssize_t nr, int32_t *hyp_to,
                   unsigned char *ref_taken, int32_t *stage_of, int stage)
{
    for (Py_ssize_t i = nh - 1; i >= 0; i--) {
        if (hyp_to[i] >= 0) {
            continue;
        }
        for (Py_ssize_t j = nr - 1; j >= 0; j--) {
            if (ref_taken[j]) {
                continue;
            }
            int eq = hyp[i] == ref[j] ? 1 : PyObject_RichCompareBool(hyp[i], ref[j], Py_EQ);
            if (eq < 0) {
                return -1;
            }
            if (eq) {
                hyp_to[i] = (int32_t)j;
                stage_of[i] = stage;
                ref_taken[j] = 1;
                break;
            }
        }
    }
    return 0;
}

static PyObject *
greedy_align_c(PyObject *self, PyObject *args)
{
    PyObject *hyp_obj, *ref_obj, *stem, *synonyms;
    if (!PyArg_ParseTuple(args, "OOOO:greedy_align", &hyp_obj, &ref_obj, &stem, &synonyms)) {
        return NULL;
    }
    PyObject *hyp = NULL, *ref = NULL, *result = NULL;
    PyObject **hs = NULL, **rs = NULL; /* stems (new references) */
    int32_t *hyp_to = NULL, *stage_of = NULL;
    unsigned char *ref_taken = NULL;
    Py_ssize_t nh = 0, nr = 0;
    hyp = PySequence_Fast(hyp_obj, "hyp_words: expected a sequence of str");
    if (hyp == NULL) {
        goto done;
    }
    ref = PySequence_Fast(ref_obj, "ref_words: expected a sequence of str");
    if (ref == NULL) {
        goto done;
    }
    nh = PySequence_Fast_GET_SIZE(hyp);
    nr = PySequence_Fast_GET_SIZE(ref);
    if (nh > INT32_MAX || nr > INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "greedy_align: segment too long");
        goto done;
    }
    hyp_to = PyMem_Malloc((size_t)(nh + 1) * sizeof(int32_t));
    stage_of = PyMem_Malloc((size_t)(nh + 1) * sizeof(int32_t));
    ref_taken = PyMem_Calloc((size_t)(nr + 1), 1);
    hs = PyMem_Calloc((size_t)(nh + 1), sizeof(PyObject *));
    rs = PyMem_Calloc((size_t)(nr + 1), sizeof(PyObject *));
    if (hyp_to == NULL || stage_of == NULL || ref_taken == NULL || hs == NULL || rs == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nh; i++) {
        hyp_to[i] = -1;
    }
    PyObject **hw = PySequence_Fast_ITEMS(hyp), **rw = PySequence_Fast_ITEMS(ref);
    if (greedy_equal_stage(hw, nh, rw, nr, hyp_to, ref_taken, stage_of, 0) < 0) {
        goto done;
    }
    Py_ssize_t hyp_left = 0, ref_left = 0;
    for (Py_ssize_t i = 0; i < nh; i++) {
        hyp_left += hyp_to[i] < 0;
    }
    for (Py_ssize_t j = 0; j < nr; j++) {
        ref_left += !ref_taken[j];
    }
    if (stem != Py_None && hyp_left && ref_left) {
        /* Stems of the free words, hypothesis from last to first, then the reference. */
        for (Py_ssize_t i = nh - 1; i >= 0; i--) {
            if (hyp_to[i] < 0 && (hs[i] = PyObject_CallOneArg(stem, hw[i])) == NULL) {
                goto done;
            }
        }
        for (Py_ssize_t j = 0; j < nr; j++) {
            if (!ref_taken[j] && (rs[j] = PyObject_CallOneArg(stem, rw[j])) == NULL) {
                goto done;
            }
        }
        /* Matched positions keep a NULL stem and are skipped by the taken / matched tests. */
        for (Py_ssize_t i = nh - 1; i >= 0; i--) {
            if (hyp_to[i] >= 0) {
                continue;
            }
            for (Py_ssize_t j = nr - 1; j >= 0; j--) {
                if (ref_taken[j]) {
                    continue;
                }
                int eq = hs[i] == rs[j] ? 1 : PyObject_RichCompareBool(hs[i], rs[j], Py_EQ);
                if (eq < 0) {
                    goto done;
                }
                if (eq) {
                    hyp_to[i] = (int32_t)j;
                    stage_of[i] = 1;
                    ref_taken[j] = 1;
                    break;
                }
            }
        }
        hyp_left = ref_left = 0;
        for (Py_ssize_t i = 0; i < nh; i++) {
            hyp_left += hyp_to[i] < 0;
        }
        for (Py_ssize_t j = 0; j < nr; j++) {
            ref_left += !ref_taken[j];
        }
        if (synonyms != Py_None && hyp_left && ref_left) {
            for (Py_ssize_t i = nh - 1; i >= 0; i--) {
                if (hyp_to[i] >= 0) {
                    continue;
                }
                PyObject *names = PyObject_CallOneArg(synonyms, hs[i]);
                if (names == NULL) {
                    goto done;
                }
                Py_ssize_t best = -1;
                for (Py_ssize_t j = nr - 1; j >= 0 && best < 0; j--) {
                    if (ref_taken[j]) {
                        continue;
                    }
                    int in = PySequence_Contains(names, rs[j]);
                    if (in < 0) {
                        Py_DECREF(names);
                        goto done;
                    }
                    if (in) {
                        best = j;
                    }
                }
                Py_DECREF(names);
                if (best >= 0) {
                    hyp_to[i] = (int32_t)best;
                    stage_of[i] = 2;
                    ref_taken[best] = 1;
                }
            }
        }
    }
    result = PyList_New(0);
    if (result == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < nh; i++) {
        if (hyp_to[i] < 0) {
            continue;
        }
        PyObject *triple = Py_BuildValue("(nii)", i, (int)hyp_to[i], (int)stage_of[i]);
        if (triple == NULL || PyList_Append(result, triple) < 0) {
            Py_XDECREF(triple);
            Py_CLEAR(result);
            goto done;
        }
        Py_DECREF(triple);
    }
done:
    if (hs != NULL) {
        for (Py_ssize_t i = 0; i < nh; i++) {
            Py_XDECREF(hs[i]);
        }
    }
    if (rs != NULL) {
        for (Py_ssize_t j = 0; j < nr; j++) {
            Py_XDECREF(rs[j]);
        }
    }
    PyMem_Free(hs);
    PyMem_Free(rs);
    PyMem_Free(hyp_to);
    PyMem_Free(stage_of);
    PyMem_Free(ref_taken);
    Py_XDECREF(hyp);
    Py_XDECREF(ref);
    return result;
}

static PyMethodDef beam_methods[] = {
    {"greedy_align", greedy_align_c, METH_VARARGS,
     "greedy_align(hyp_words, ref_words, stem, synonyms) -> list\\n\\n"
     "NLTK's staged greedy alignment: (i, j, stage) triples ordered by hypothesis index."},
    {"meteor15_pair", meteor15_pair_c, METH_VARARGS,
     "meteor15_pair(kinds, hyp, ref, hashes, stems, paraphrase_ids, functions, synonym_starts,\n"
     "              synonym_pool, trie, aligner_weights, beam, match_type) -> (row, matches)\n\n"
     "Candidates of every stage, beam search and word statistics of one pair of word-type id\n"
     "arrays, in one call (row as word_stats() returns it)."},
    {"word_stats", word_stats_c, METH_VARARGS,
     "word_stats(matches, hyp_flags, ref_flags, n_stages) -> tuple\n\n"
     "(hyp_length, ref_length, hyp_function, ref_function, chunks, hyp_matched, ref_matched)\n"
     "then 4 counts per stage, for an aligner's sorted, non-overlapping word matches."},
    {"align_stages", align_stages_c, METH_VARARGS,
     "align_stages(stage_lists, n_hyp, n_ref, aligner_weights, beam) -> list\n\n"
     "align() on the store built by appending each stage's candidate list in order."},
    {"paraphrase_root", paraphrase_root_c, METH_VARARGS,
     "paraphrase_root(first_child, token) -> bytes\n\n"
     "Direct lookup table of the paraphrase trie root's children (uint32 per token id)."},
    {"align", beam_align_c, METH_VARARGS,
     "align(by_ref, hyp_coverage, ref_coverage, aligner_weights, beam) -> list\n\n"
     "The METEOR 1.5 beam search over a candidate store's lists; returns the chosen matches\n"
     "in reference order."},
    {"equal_keys", equal_keys_c, METH_VARARGS,
     "equal_keys(hyp_keys, ref_keys, hyp_ids, ref_ids, stage, match_type, different) -> list\n\n"
     "One-word candidates of equal keys, reference order then hypothesis order."},
    {"sets_intersect", sets_intersect_c, METH_VARARGS,
     "sets_intersect(hyp_sets, ref_sets, hyp_ids, ref_ids, stage, match_type) -> list\n\n"
     "One-word candidates whose packed sorted int64 sets intersect and whose ids differ."},
    {"paraphrase", paraphrase_c, METH_VARARGS,
     "paraphrase(first_child, token, record_start, record_b, hyp_ids, ref_ids, stage,\n"
     "           match_type, root=None) -> list\n\n"
     "Paraphrase candidates from a paraphrase index, in METEOR 1.5's order; root is an\n"
     "optional paraphrase_root() table of the same index."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef beam_module = {
    PyModuleDef_HEAD_INIT, "_beam", "Compiled METEOR 1.5 beam search and candidate generators.", -1, beam_methods,
};

/* Per-word text kernels (Snowball English stemmer, Java string hash), defined in _text.c, and
 * the -norm normaliser, defined in _normalize.c. */
extern PyMethodDef meteor_text_methods[];
extern PyMethodDef meteor_normalize_methods[];

PyMODINIT_FUNC
PyInit__beam(void)
{
    PyObject *module = PyModule_Create(&beam_module);
#ifdef Py_GIL_DISABLED
    /* Free-threaded CPython: the kernels keep no global state and read only their arguments;
     * the one shared input, a scorer's word-type tables, is read and grown under the Python
     * lock WordTypes.lock (docs/threading.md), so the GIL need not be re-enabled on import. */
    if (module != NULL && PyUnstable_Module_SetGIL(module, Py_MOD_GIL_NOT_USED) < 0) {
        Py_DECREF(module);
        return NULL;
    }
#endif
    if (module != NULL && (PyModule_AddFunctions(module, meteor_text_methods) < 0 ||
                           PyModule_AddFunctions(module, meteor_normalize_methods) < 0)) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
