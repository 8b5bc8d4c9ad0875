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
 * Paths live in flat int64 pools with a fixed stride: a small header followed by two bit sets
 * (used hypothesis and reference positions). Chosen matches form linked lists in a node pool
 * shared by all paths, so taking a candidate copies one stride and adds one node.
 *
 * align(by_ref, hyp_coverage, ref_coverage, weights, beam) returns the chosen Match objects (the
 * store's own objects) in reference order.
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

/* Header words of a path. */
enum { H_NEG_W, H_CHUNKS, H_DIST, H_IDX, H_LAST_END, H_CHAIN, H_SIZE };

typedef struct {
    int64_t ref_start, ref_len, hyp_start, hyp_len;
    int64_t gain;   /* floor(hyp_len * a) + floor(ref_len * a) */
    int64_t offset; /* |ref_start - hyp_start| */
    PyObject *obj;  /* borrowed: the store keeps it alive */
} Cand;

/* A path's rank packed for sorting: hi = (NEG_W + 2^31) << 32 | CHUNKS, lo = DIST << 32 |
 * index. Unsigned comparison of (hi, lo) is the rank order with ties broken by position, so
 * any sort of these keys is the stable sort by rank. */
typedef struct {
    uint64_t hi, lo;
} RankKey;

typedef struct {
    Cand *cands;
    Py_ssize_t *first; /* candidates of reference position j: cands[first[j] .. first[j+1]) */
    Py_ssize_t *fixed_at;
    int64_t *cur;
    int64_t *next;
    Py_ssize_t next_cap;
    Py_ssize_t *order;
    Py_ssize_t *tmp;
    RankKey *keys;
    RankKey *keys_tmp;
    Py_ssize_t order_cap;
    int32_t *node_cand;
    int32_t *node_parent;
    Py_ssize_t nodes, node_cap;
    Py_ssize_t *assigned;
} Work;

static void
work_free(Work *w)
{
    PyMem_Free(w->cands);
    PyMem_Free(w->first);
    PyMem_Free(w->fixed_at);
    PyMem_Free(w->cur);
    PyMem_Free(w->next);
    PyMem_Free(w->order);
    PyMem_Free(w->tmp);
    PyMem_Free(w->keys);
    PyMem_Free(w->keys_tmp);
    PyMem_Free(w->node_cand);
    PyMem_Free(w->node_parent);
    PyMem_Free(w->assigned);
}

static inline int
bit_get(const int64_t *bits, int64_t pos)
{
    return (int)((((uint64_t)bits[pos >> 6]) >> (pos & 63)) & 1u);
}

static inline void
bit_set(int64_t *bits, int64_t pos)
{
    bits[pos >> 6] = (int64_t)(((uint64_t)bits[pos >> 6]) | ((uint64_t)1 << (pos & 63)));
}

static inline int
span_free(const int64_t *bits, int64_t start, int64_t len)
{
    for (int64_t k = start; k < start + len; k++) {
        if (bit_get(bits, k)) {
            return 0;
        }
    }
    return 1;
}

static inline void
span_set(int64_t *bits, int64_t start, int64_t len)
{
    for (int64_t k = start; k < start + len; k++) {
        bit_set(bits, k);
    }
}

/* -1, 0, 1 as path a ranks before, with, after path b (spec 4.3). */
static inline int
rank_cmp(const int64_t *a, const int64_t *b)
{
    for (int k = H_NEG_W; k <= H_DIST; k++) {
        if (a[k] < b[k]) {
            return -1;
        }
        if (a[k] > b[k]) {
            return 1;
        }
    }
    return 0;
}

/* Stable merge sort of path indices 0..n-1 of pool by rank; result in order[0..n). */
static void
stable_sort(const int64_t *pool, Py_ssize_t stride, Py_ssize_t n, Py_ssize_t *order,
            Py_ssize_t *tmp)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        order[i] = i;
    }
    /* Insertion sort on small runs, then bottom-up merges; both keep ties in input order. */
    const Py_ssize_t run = 8;
    for (Py_ssize_t lo = 0; lo < n; lo += run) {
        Py_ssize_t hi = lo + run < n ? lo + run : n;
        for (Py_ssize_t i = lo + 1; i < hi; i++) {
            Py_ssize_t v = order[i];
            Py_ssize_t j = i;
            while (j > lo && rank_cmp(pool + order[j - 1] * stride, pool + v * stride) > 0) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = v;
        }
    }
    Py_ssize_t *src = order, *dst = tmp;
    for (Py_ssize_t width = run; width < n; width *= 2) {
        for (Py_ssize_t lo = 0; lo < n; lo += 2 * width) {
            Py_ssize_t mid = lo + width < n ? lo + width : n;
            Py_ssize_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            Py_ssize_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                if (rank_cmp(pool + src[j] * stride, pool + src[i] * stride) < 0) {
                    dst[k++] = src[j++];
                }
                else {
                    dst[k++] = src[i++];
                }
            }
            while (i < mid) {
                dst[k++] = src[i++];
            }
            while (j < hi) {
                dst[k++] = src[j++];
            }
        }
        Py_ssize_t *swap = src;
        src = dst;
        dst = swap;
    }
    if (src != order) {
        memcpy(order, src, (size_t)n * sizeof(Py_ssize_t));
    }
}

static int
ensure_order(Work *w, Py_ssize_t n)
{
    if (n <= w->order_cap) {
        return 0;
    }
    Py_ssize_t cap = n * 2;
    Py_ssize_t *order = PyMem_Realloc(w->order, (size_t)cap * sizeof(Py_ssize_t));
    if (order == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    w->order = order;
    Py_ssize_t *tmp = PyMem_Realloc(w->tmp, (size_t)cap * sizeof(Py_ssize_t));
    if (tmp == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    w->tmp = tmp;
    RankKey *keys = PyMem_Realloc(w->keys, (size_t)cap * sizeof(RankKey));
    if (keys == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    w->keys = keys;
    RankKey *keys_tmp = PyMem_Realloc(w->keys_tmp, (size_t)cap * sizeof(RankKey));
    if (keys_tmp == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    w->keys_tmp = keys_tmp;
    w->order_cap = cap;
    return 0;
}

static inline int
key_less(const RankKey *a, const RankKey *b)
{
    return a->hi < b->hi || (a->hi == b->hi && a->lo < b->lo);
}

/* stable_sort() for paths whose rank fields fit the packed key (always, short of segments of
 * billions of words): the keys are contiguous and compared without indirection. Returns 0
 * (nothing written) when a value does not fit, so that the caller uses stable_sort(). */
static int
packed_sort(const int64_t *pool, Py_ssize_t stride, Py_ssize_t n, Py_ssize_t *order,
            RankKey *keys, RankKey *tmp)
{
    if (n > (Py_ssize_t)UINT32_MAX) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        const int64_t *p = pool + i * stride;
        const int64_t neg_w = p[H_NEG_W], chunks = p[H_CHUNKS], dist = p[H_DIST];
        if (neg_w < INT32_MIN || neg_w > INT32_MAX || chunks < 0 || chunks > (int64_t)UINT32_MAX ||
            dist < 0 || dist > (int64_t)UINT32_MAX) {
            return 0;
        }
        keys[i].hi = ((uint64_t)(neg_w - (int64_t)INT32_MIN) << 32) | (uint64_t)chunks;
        keys[i].lo = ((uint64_t)dist << 32) | (uint64_t)i;
    }
    /* Insertion sort on runs of 8, then bottom-up merges (keys are distinct). */
    const Py_ssize_t run = 8;
    for (Py_ssize_t lo = 0; lo < n; lo += run) {
        Py_ssize_t hi = lo + run < n ? lo + run : n;
        for (Py_ssize_t i = lo + 1; i < hi; i++) {
            const RankKey v = keys[i];
            Py_ssize_t j = i;
            while (j > lo && key_less(&v, &keys[j - 1])) {
                keys[j] = keys[j - 1];
                j--;
            }
            keys[j] = v;
        }
    }
    RankKey *src = keys, *dst = tmp;
    for (Py_ssize_t width = run; width < n; width *= 2) {
        for (Py_ssize_t lo = 0; lo < n; lo += 2 * width) {
            Py_ssize_t mid = lo + width < n ? lo + width : n;
            Py_ssize_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            Py_ssize_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                if (key_less(&src[j], &src[i])) {
                    dst[k++] = src[j++];
                }
                else {
                    dst[k++] = src[i++];
                }
            }
            while (i < mid) {
                dst[k++] = src[i++];
            }
            while (j < hi) {
                dst[k++] = src[j++];
            }
        }
        RankKey *swap = src;
        src = dst;
        dst = swap;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        order[i] = (Py_ssize_t)(src[i].lo & 0xFFFFFFFFu);
    }
    return 1;
}

/* Indices 0..n-1 of pool in stable rank order (spec 4.3). */
static void
rank_order(Work *w, const int64_t *pool, Py_ssize_t stride, Py_ssize_t n)
{
    if (!packed_sort(pool, stride, n, w->order, w->keys, w->keys_tmp)) {
        stable_sort(pool, stride, n, w->order, w->tmp);
    }
}

static int
ensure_next(Work *w, Py_ssize_t paths, Py_ssize_t stride)
{
    if (paths <= w->next_cap) {
        return 0;
    }
    Py_ssize_t cap = paths * 2;
    int64_t *next = PyMem_Realloc(w->next, (size_t)(cap * stride) * sizeof(int64_t));
    if (next == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    w->next = next;
    w->next_cap = cap;
    return 0;
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
    PyObject *by_ref = NULL;
    PyObject *weights = NULL;
    int64_t *hyp_cov = NULL, *ref_cov = NULL;
    double *weight = NULL;
    Py_ssize_t n_hyp = 0, n_ref_cov = 0;

    by_ref = PySequence_Fast(by_ref_obj, "by_ref: expected a sequence of candidate lists");
    if (by_ref == NULL) {
        goto done;
    }
    const Py_ssize_t n_ref = PySequence_Fast_GET_SIZE(by_ref);
    hyp_cov = read_coverage(hyp_cov_obj, &n_hyp);
    if (hyp_cov == NULL) {
        goto done;
    }
    ref_cov = read_coverage(ref_cov_obj, &n_ref_cov);
    if (ref_cov == NULL) {
        goto done;
    }
    if (n_ref_cov != n_ref) {
        PyErr_SetString(PyExc_ValueError, "ref_coverage and by_ref differ in length");
        goto done;
    }
    weights = PySequence_Fast(weights_obj, "aligner_weights: expected a sequence of numbers");
    if (weights == NULL) {
        goto done;
    }
    const Py_ssize_t n_weights = PySequence_Fast_GET_SIZE(weights);
    weight = PyMem_Malloc((size_t)(n_weights ? n_weights : 1) * sizeof(double));
    if (weight == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < n_weights; k++) {
        weight[k] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(weights, k));
        if (weight[k] == -1.0 && PyErr_Occurred()) {
            goto done;
        }
    }

    /* Flatten the candidates, position by position. */
    Py_ssize_t n_cands = 0;
    for (Py_ssize_t j = 0; j < n_ref; j++) {
        PyObject *lst = PySequence_Fast_GET_ITEM(by_ref, j);
        if (!PyList_Check(lst)) {
            PyErr_SetString(PyExc_TypeError, "by_ref: expected lists of matches");
            goto done;
        }
        n_cands += PyList_GET_SIZE(lst);
    }
    w.cands = PyMem_Malloc((size_t)(n_cands ? n_cands : 1) * sizeof(Cand));
    w.first = PyMem_Malloc((size_t)(n_ref + 1) * sizeof(Py_ssize_t));
    w.fixed_at = PyMem_Malloc((size_t)(n_ref ? n_ref : 1) * sizeof(Py_ssize_t));
    w.assigned = PyMem_Malloc((size_t)(n_ref ? n_ref : 1) * sizeof(Py_ssize_t));
    if (w.cands == NULL || w.first == NULL || w.fixed_at == NULL || w.assigned == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t at = 0;
    for (Py_ssize_t j = 0; j < n_ref; j++) {
        PyObject *lst = PySequence_Fast_GET_ITEM(by_ref, j);
        w.first[j] = at;
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(lst); k++) {
            PyObject *m = PyList_GET_ITEM(lst, k);
            if (!PyTuple_Check(m) || PyTuple_GET_SIZE(m) != 5) {
                PyErr_SetString(PyExc_TypeError, "by_ref: expected Match tuples");
                goto done;
            }
            Cand *c = &w.cands[at];
            int64_t stage;
            if (read_int(PyTuple_GET_ITEM(m, 0), &c->ref_start) < 0 ||
                read_int(PyTuple_GET_ITEM(m, 1), &c->ref_len) < 0 ||
                read_int(PyTuple_GET_ITEM(m, 2), &c->hyp_start) < 0 ||
                read_int(PyTuple_GET_ITEM(m, 3), &c->hyp_len) < 0 ||
                read_int(PyTuple_GET_ITEM(m, 4), &stage) < 0) {
                goto done;
            }
            if (c->ref_start != j || c->ref_len < 1 || c->ref_start + c->ref_len > n_ref ||
                c->hyp_start < 0 || c->hyp_len < 1 || c->hyp_start + c->hyp_len > n_hyp) {
                PyErr_SetString(PyExc_ValueError, "a candidate's span lies outside its segments");
                goto done;
            }
            if (stage < 0 || stage >= n_weights) {
                PyErr_SetString(PyExc_IndexError, "aligner_weights: no weight for a stage");
                goto done;
            }
            const double a = weight[stage];
            /* Python's int() and C's cast both truncate toward zero. */
            c->gain = (int64_t)((double)c->hyp_len * a) + (int64_t)((double)c->ref_len * a);
            c->offset = c->ref_start > c->hyp_start ? c->ref_start - c->hyp_start
                                                    : c->hyp_start - c->ref_start;
            c->obj = m;
            at++;
        }
    }
    w.first[n_ref] = at;

    /* Fixed matches (spec 4.1). */
    Py_ssize_t n_fixed = 0;
    for (Py_ssize_t j = 0; j < n_ref; j++) {
        w.fixed_at[j] = -1;
        w.assigned[j] = -1;
        if (w.first[j + 1] - w.first[j] != 1) {
            continue;
        }
        const Cand *c = &w.cands[w.first[j]];
        int ok = 1;
        for (int64_t r = c->ref_start; ok && r < c->ref_start + c->ref_len; r++) {
            ok = ref_cov[r] == 1;
        }
        for (int64_t h = c->hyp_start; ok && h < c->hyp_start + c->hyp_len; h++) {
            ok = hyp_cov[h] == 1;
        }
        if (ok) {
            w.fixed_at[j] = w.first[j];
            n_fixed++;
        }
    }

    if (n_fixed != n_cands) {
        const Py_ssize_t wh = (n_hyp + 63) / 64, wr = (n_ref + 63) / 64;
        const Py_ssize_t stride = H_SIZE + wh + wr;
        const Py_ssize_t bytes = stride * (Py_ssize_t)sizeof(int64_t);
        w.cur = PyMem_Malloc((size_t)(beam * bytes));
        if (w.cur == NULL || ensure_next(&w, 16, stride) < 0 || ensure_order(&w, 16) < 0) {
            if (!PyErr_Occurred()) {
                PyErr_NoMemory();
            }
            goto done;
        }
        int64_t *init = w.next;
        memset(init, 0, (size_t)bytes);
        init[H_LAST_END] = -1;
        init[H_CHAIN] = -1;
        for (Py_ssize_t j = 0; j < n_ref; j++) {
            if (w.fixed_at[j] >= 0) {
                const Cand *c = &w.cands[w.fixed_at[j]];
                span_set(init + H_SIZE, c->hyp_start, c->hyp_len);
                span_set(init + H_SIZE + wh, c->ref_start, c->ref_len);
            }
        }
        Py_ssize_t next_n = 1;
        for (Py_ssize_t c = 0; c <= n_ref; c++) {
            if (ensure_order(&w, next_n) < 0) {
                goto done;
            }
            rank_order(&w, w.next, stride, next_n);
            const Py_ssize_t kept = next_n < beam ? next_n : beam;
            for (Py_ssize_t p = 0; p < kept; p++) {
                memcpy(w.cur + p * stride, w.next + w.order[p] * stride, (size_t)bytes);
            }
            next_n = 0;
            if (c == n_ref) {
                for (Py_ssize_t p = 0; p < kept; p++) {
                    int64_t *path = w.cur + p * stride;
                    if (path[H_LAST_END] != -1) {
                        path[H_CHUNKS] += 1;
                    }
                    memcpy(w.next + next_n * stride, path, (size_t)bytes);
                    next_n++;
                }
                break;
            }
            const Py_ssize_t lo = w.first[c], hi = w.first[c + 1];
            if (ensure_next(&w, kept * (hi - lo + 1), stride) < 0) {
                goto done;
            }
            for (Py_ssize_t p = 0; p < kept; p++) {
                int64_t *path = w.cur + p * stride;
                int64_t *hyp_bits = path + H_SIZE;
                int64_t *ref_bits = path + H_SIZE + wh;
                if (bit_get(ref_bits, c)) {
                    if (c < path[H_IDX]) {
                        memcpy(w.next + next_n * stride, path, (size_t)bytes);
                        next_n++;
                        continue;
                    }
                    const Py_ssize_t f = w.fixed_at[c];
                    if (f < 0) { /* unreachable with consistent fixed matches */
                        continue;
                    }
                    const Cand *m = &w.cands[f];
                    path[H_NEG_W] -= m->gain;
                    if (path[H_LAST_END] != -1 && m->hyp_start != path[H_LAST_END]) {
                        path[H_CHUNKS] += 1;
                    }
                    path[H_IDX] = m->ref_start + m->ref_len;
                    path[H_LAST_END] = m->hyp_start + m->hyp_len;
                    path[H_DIST] += m->offset;
                    memcpy(w.next + next_n * stride, path, (size_t)bytes);
                    next_n++;
                    continue;
                }
                const int64_t last_end = path[H_LAST_END];
                for (Py_ssize_t k = lo; k < hi; k++) {
                    const Cand *m = &w.cands[k];
                    if (!span_free(hyp_bits, m->hyp_start, m->hyp_len) ||
                        !span_free(ref_bits, m->ref_start, m->ref_len)) {
                        continue;
                    }
                    int64_t *q = w.next + next_n * stride;
                    memcpy(q, path, (size_t)bytes);
                    next_n++;
                    q[H_NEG_W] -= m->gain;
                    if (last_end != -1 && m->hyp_start != last_end) {
                        q[H_CHUNKS] += 1;
                    }
                    if (add_node(&w, k, path[H_CHAIN], &q[H_CHAIN]) < 0) {
                        goto done;
                    }
                    span_set(q + H_SIZE, m->hyp_start, m->hyp_len);
                    span_set(q + H_SIZE + wh, m->ref_start, m->ref_len);
                    q[H_IDX] = m->ref_start + m->ref_len;
                    q[H_LAST_END] = m->hyp_start + m->hyp_len;
                    path[H_DIST] += m->offset;
                }
                if (last_end != -1) {
                    path[H_CHUNKS] += 1;
                    path[H_LAST_END] = -1;
                }
                path[H_IDX] += 1;
                memcpy(w.next + next_n * stride, path, (size_t)bytes);
                next_n++;
            }
            if (next_n == 0) { /* the jar warns and carries on with the best path */
                memcpy(w.next, w.cur, (size_t)bytes);
                next_n = 1;
            }
        }
        if (ensure_order(&w, next_n) < 0) {
            goto done;
        }
        rank_order(&w, w.next, stride, next_n);
        const int64_t *best = w.next + w.order[0] * stride;
        for (int64_t node = best[H_CHAIN]; node != -1; node = w.node_parent[node]) {
            const Py_ssize_t k = w.node_cand[node];
            w.assigned[w.cands[k].ref_start] = k;
        }
    }
    for (Py_ssize_t j = 0; j < n_ref; j++) {
        if (w.fixed_at[j] >= 0) {
            w.assigned[j] = w.fixed_at[j];
        }
    }
    result = PyList_New(0);
    if (result == NULL) {
        goto done;
    }
    for (Py_ssize_t j = 0; j < n_ref; j++) {
        if (w.assigned[j] >= 0 && PyList_Append(result, w.cands[w.assigned[j]].obj) < 0) {
            Py_CLEAR(result);
            goto done;
        }
    }

done:
    work_free(&w);
    PyMem_Free(hyp_cov);
    PyMem_Free(ref_cov);
    PyMem_Free(weight);
    Py_XDECREF(weights);
    Py_XDECREF(by_ref);
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
    for (Py_ssize_t j = 0; j < nr; j++) {
        const int64_t key = rk[j];
        for (Py_ssize_t i = 0; i < nh; i++) {
            if (hk[i] != key || (different && hid[i] == rid[j])) {
                continue;
            }
            if (append_match(out, (PyTypeObject *)type, j, 1, i, 1, stage) < 0) {
                Py_CLEAR(out);
                goto done;
            }
        }
    }
done:
    PyMem_Free(hk);
    PyMem_Free(rk);
    PyMem_Free(hid);
    PyMem_Free(rid);
    return out;
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
    for (Py_ssize_t k = 0; k < nh + nr; k++) {
        PyObject *b = k < nh ? PySequence_Fast_GET_ITEM(hs, k) : PySequence_Fast_GET_ITEM(rs, k - nh);
        if (!PyBytes_Check(b) || PyBytes_GET_SIZE(b) % (Py_ssize_t)sizeof(int64_t) != 0) {
            PyErr_SetString(PyExc_TypeError, "sets: expected bytes of packed int64 values");
            goto done;
        }
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
    for (Py_ssize_t j = 0; j < nr; j++) {
        PyObject *rb = PySequence_Fast_GET_ITEM(rs, j);
        const Py_ssize_t rn = PyBytes_GET_SIZE(rb) / (Py_ssize_t)sizeof(int64_t);
        if (rn == 0) {
            continue;
        }
        const char *rbase = PyBytes_AS_STRING(rb);
        for (Py_ssize_t i = 0; i < nh; i++) {
            if (hid[i] == rid[j]) {
                continue;
            }
            PyObject *hb = PySequence_Fast_GET_ITEM(hs, i);
            const Py_ssize_t hn = PyBytes_GET_SIZE(hb) / (Py_ssize_t)sizeof(int64_t);
            const char *hbase = PyBytes_AS_STRING(hb);
            Py_ssize_t a = 0, b = 0;
            int hit = 0;
            while (a < rn && b < hn) {
                int64_t x, y;
                memcpy(&x, rbase + a * (Py_ssize_t)sizeof(int64_t), sizeof(int64_t));
                memcpy(&y, hbase + b * (Py_ssize_t)sizeof(int64_t), sizeof(int64_t));
                if (x == y) {
                    hit = 1;
                    break;
                }
                if (x < y) {
                    a++;
                }
                else {
                    b++;
                }
            }
            if (hit && append_match(out, (PyTypeObject *)type, j, 1, i, 1, stage) < 0) {
                Py_CLEAR(out);
                goto done;
            }
        }
    }
done:
    Py_XDECREF(hs);
    Py_XDECREF(rs);
    PyMem_Free(hid);
    PyMem_Free(rid);
    return out;
}

/* One trie position reached from a start: (node, start, depth), sortable by (node, start). */
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

static int
step_cmp(const void *pa, const void *pb)
{
    const Step *a = pa, *b = pb;
    if (a->node != b->node) {
        return a->node < b->node ? -1 : 1;
    }
    return (a->start > b->start) - (a->start < b->start);
}

/* Walk the trie from every start of ids; steps in start order, shallow first. Returns the
 * number of steps written to *out (a new array) or -1 with an exception set. */
static Py_ssize_t
walk_all(const Trie *t, const int64_t *ids, Py_ssize_t n, Step **out)
{
    Py_ssize_t cap = n * 4 + 4, count = 0;
    Step *steps = PyMem_Malloc((size_t)cap * sizeof(Step));
    if (steps == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t s = 0; s < n; s++) {
        uint32_t node = 0;
        for (Py_ssize_t p = s; p < n; p++) {
            const int64_t word = ids[p];
            if (word < 0 || word > UINT32_MAX) {
                break;
            }
            if (node == 0 && t->root != NULL) {
                if (word >= t->root_len || t->root[word] == UINT32_MAX) {
                    break;
                }
                const uint32_t child = t->root[word];
                if (child < t->first_child[0] || child >= t->first_child[1]) {
                    PyMem_Free(steps);
                    PyErr_SetString(PyExc_ValueError, "paraphrase index: stale root table");
                    return -1;
                }
                node = child;
                goto found;
            }
            Py_ssize_t lo = t->first_child[node], hi = t->first_child[node + 1];
            if (lo > hi || hi > t->nodes) {
                PyMem_Free(steps);
                PyErr_SetString(PyExc_ValueError, "paraphrase index: corrupt trie");
                return -1;
            }
            while (lo < hi) { /* first child whose token is >= word */
                const Py_ssize_t mid = lo + (hi - lo) / 2;
                if (t->token[mid] < (uint32_t)word) {
                    lo = mid + 1;
                }
                else {
                    hi = mid;
                }
            }
            if (lo == (Py_ssize_t)t->first_child[node + 1] || t->token[lo] != (uint32_t)word) {
                break;
            }
            node = (uint32_t)lo;
        found:
            if (count == cap) {
                cap *= 2;
                Step *grown = PyMem_Realloc(steps, (size_t)cap * sizeof(Step));
                if (grown == NULL) {
                    PyMem_Free(steps);
                    PyErr_NoMemory();
                    return -1;
                }
                steps = grown;
            }
            steps[count].node = node;
            steps[count].start = (int32_t)s;
            steps[count].depth = (int32_t)(p - s + 1);
            count++;
        }
    }
    *out = steps;
    return count;
}

/* Index of the first entry of sorted[0..n) with the given node, or n. */
static Py_ssize_t
find_node(const Step *sorted, Py_ssize_t n, uint32_t node)
{
    Py_ssize_t lo = 0, hi = n;
    while (lo < hi) {
        const Py_ssize_t mid = lo + (hi - lo) / 2;
        if (sorted[mid].node < node) {
            lo = mid + 1;
        }
        else {
            hi = mid;
        }
    }
    return (lo < n && sorted[lo].node == node) ? lo : n;
}

/* A 4096-bit filter of trie nodes: most phrase-B nodes of a record list are absent from the
 * other sentence, and one bit test rejects them without a binary search. */
#define FILTER_WORDS 64

static inline uint32_t
filter_slot(uint32_t node)
{
    return (uint32_t)((node * 2654435761u) >> 20) & (FILTER_WORDS * 64 - 1);
}

/* One pass: side A walks, side B occurrences; a_is_ref says which side is the reference. */
static int
paraphrase_pass(const Trie *t, const Step *a_steps, Py_ssize_t na, const Step *b_sorted,
                Py_ssize_t nb, int a_is_ref, PyObject *out, PyTypeObject *type, PyObject *stage)
{
    uint64_t filter[FILTER_WORDS];
    memset(filter, 0, sizeof(filter));
    for (Py_ssize_t k = 0; k < nb; k++) {
        const uint32_t slot = filter_slot(b_sorted[k].node);
        filter[slot >> 6] |= (uint64_t)1 << (slot & 63);
    }
    for (Py_ssize_t k = 0; k < na; k++) {
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
            const uint32_t b_node = t->record_b[r];
            const uint32_t slot = filter_slot(b_node);
            if (!((filter[slot >> 6] >> (slot & 63)) & 1u)) {
                continue;
            }
            Py_ssize_t at = find_node(b_sorted, nb, b_node);
            for (; at < nb && b_sorted[at].node == b_node; at++) {
                const Step *b = &b_sorted[at];
                int rc = a_is_ref ? append_match(out, type, a_steps[k].start, a_steps[k].depth,
                                                 b->start, b->depth, stage)
                                  : append_match(out, type, b->start, b->depth,
                                                 a_steps[k].start, a_steps[k].depth, stage);
                if (rc < 0) {
                    return -1;
                }
            }
        }
    }
    return 0;
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
    Py_buffer fc = {0}, tok = {0}, rs = {0}, rb = {0}, root = {0};
    int64_t *hids = NULL, *rids = NULL;
    Step *hsteps = NULL, *rsteps = NULL, *hsorted = NULL, *rsorted = NULL;
    PyObject *out = NULL;
    Py_ssize_t nh = 0, nr = 0;
    if (get_u32_buffer(fc_obj, &fc, "first_child") < 0 ||
        get_u32_buffer(tok_obj, &tok, "token") < 0 ||
        get_u32_buffer(rs_obj, &rs, "record_start") < 0 ||
        get_u32_buffer(rb_obj, &rb, "record_b") < 0) {
        goto done;
    }
    Trie t;
    t.first_child = fc.buf;
    t.token = tok.buf;
    t.record_start = rs.buf;
    t.record_b = rb.buf;
    t.nodes = tok.len / 4;
    t.records = rb.len / 4;
    t.root = NULL;
    t.root_len = 0;
    if (root_obj != Py_None) {
        if (get_u32_buffer(root_obj, &root, "root") < 0) {
            goto done;
        }
        t.root = root.buf;
        t.root_len = root.len / 4;
    }
    if (fc.len / 4 != t.nodes + 1 || rs.len / 4 != t.nodes + 1 || t.nodes < 1) {
        PyErr_SetString(PyExc_ValueError, "paraphrase index: section sizes disagree");
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
    if (out == NULL || nh == 0 || nr == 0) {
        goto done;
    }
    const Py_ssize_t hn = walk_all(&t, hids, nh, &hsteps);
    if (hn < 0) {
        Py_CLEAR(out);
        goto done;
    }
    const Py_ssize_t rn = walk_all(&t, rids, nr, &rsteps);
    if (rn < 0) {
        Py_CLEAR(out);
        goto done;
    }
    hsorted = PyMem_Malloc((size_t)(hn ? hn : 1) * sizeof(Step));
    rsorted = PyMem_Malloc((size_t)(rn ? rn : 1) * sizeof(Step));
    if (hsorted == NULL || rsorted == NULL) {
        PyErr_NoMemory();
        Py_CLEAR(out);
        goto done;
    }
    memcpy(hsorted, hsteps, (size_t)hn * sizeof(Step));
    memcpy(rsorted, rsteps, (size_t)rn * sizeof(Step));
    qsort(hsorted, (size_t)hn, sizeof(Step), step_cmp);
    qsort(rsorted, (size_t)rn, sizeof(Step), step_cmp);
    for (Py_ssize_t k = 0; k < hn + rn; k++) {
        const uint32_t node = k < hn ? hsteps[k].node : rsteps[k - hn].node;
        if (node >= t.nodes) {
            PyErr_SetString(PyExc_ValueError, "paraphrase index: corrupt trie");
            Py_CLEAR(out);
            goto done;
        }
    }
    if (paraphrase_pass(&t, rsteps, rn, hsorted, hn, 1, out, (PyTypeObject *)type, stage) < 0 ||
        paraphrase_pass(&t, hsteps, hn, rsorted, rn, 0, out, (PyTypeObject *)type, stage) < 0) {
        Py_CLEAR(out);
        goto done;
    }
done:
    if (fc.obj) {
        PyBuffer_Release(&fc);
    }
    if (tok.obj) {
        PyBuffer_Release(&tok);
    }
    if (rs.obj) {
        PyBuffer_Release(&rs);
    }
    if (rb.obj) {
        PyBuffer_Release(&rb);
    }
    if (root.obj) {
        PyBuffer_Release(&root);
    }
    PyMem_Free(hids);
    PyMem_Free(rids);
    PyMem_Free(hsteps);
    PyMem_Free(rsteps);
    PyMem_Free(hsorted);
    PyMem_Free(rsorted);
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
 * the caller builds no store.
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
    PyObject *lists = PySequence_Fast(lists_obj, "stage_lists: expected a sequence of lists");
    if (lists == NULL) {
        return NULL;
    }
    PyObject *result = NULL, *by_ref = NULL, *hyp_cov = NULL, *ref_cov = NULL, *call = NULL;
    int64_t *hc = PyMem_Calloc((size_t)(n_hyp ? n_hyp : 1), sizeof(int64_t));
    int64_t *rc = PyMem_Calloc((size_t)(n_ref ? n_ref : 1), sizeof(int64_t));
    if (hc == NULL || rc == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    by_ref = PyList_New(n_ref);
    if (by_ref == NULL) {
        goto done;
    }
    for (Py_ssize_t j = 0; j < n_ref; j++) {
        PyObject *empty = PyList_New(0);
        if (empty == NULL) {
            goto done;
        }
        PyList_SET_ITEM(by_ref, j, empty);
    }
    const Py_ssize_t n_lists = PySequence_Fast_GET_SIZE(lists);
    for (Py_ssize_t s = 0; s < n_lists; s++) {
        PyObject *lst = PySequence_Fast_GET_ITEM(lists, s);
        if (!PyList_Check(lst)) {
            PyErr_SetString(PyExc_TypeError, "stage_lists: expected lists of matches");
            goto done;
        }
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(lst); k++) {
            PyObject *m = PyList_GET_ITEM(lst, k);
            if (!PyTuple_Check(m) || PyTuple_GET_SIZE(m) != 5) {
                PyErr_SetString(PyExc_TypeError, "stage_lists: expected Match tuples");
                goto done;
            }
            int64_t ref_start, ref_len, hyp_start, hyp_len;
            if (read_int(PyTuple_GET_ITEM(m, 0), &ref_start) < 0 ||
                read_int(PyTuple_GET_ITEM(m, 1), &ref_len) < 0 ||
                read_int(PyTuple_GET_ITEM(m, 2), &hyp_start) < 0 ||
                read_int(PyTuple_GET_ITEM(m, 3), &hyp_len) < 0) {
                goto done;
            }
            if (ref_start < 0 || ref_len < 1 || ref_start + ref_len > n_ref || hyp_start < 0 ||
                hyp_len < 1 || hyp_start + hyp_len > n_hyp) {
                PyErr_SetString(PyExc_ValueError, "a candidate's span lies outside its segments");
                goto done;
            }
            if (PyList_Append(PyList_GET_ITEM(by_ref, ref_start), m) < 0) {
                goto done;
            }
            for (int64_t j = ref_start; j < ref_start + ref_len; j++) {
                rc[j]++;
            }
            for (int64_t i = hyp_start; i < hyp_start + hyp_len; i++) {
                hc[i]++;
            }
        }
    }
    hyp_cov = PyList_New(n_hyp);
    ref_cov = PyList_New(n_ref);
    if (hyp_cov == NULL || ref_cov == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < n_hyp; i++) {
        PyObject *v = PyLong_FromLongLong(hc[i]);
        if (v == NULL) {
            goto done;
        }
        PyList_SET_ITEM(hyp_cov, i, v);
    }
    for (Py_ssize_t j = 0; j < n_ref; j++) {
        PyObject *v = PyLong_FromLongLong(rc[j]);
        if (v == NULL) {
            goto done;
        }
        PyList_SET_ITEM(ref_cov, j, v);
    }
    call = Py_BuildValue("(OOOOn)", by_ref, hyp_cov, ref_cov, weights_obj, beam);
    if (call == NULL) {
        goto done;
    }
    result = beam_align_c(self, call);
done:
    Py_XDECREF(call);
    Py_XDECREF(hyp_cov);
    Py_XDECREF(ref_cov);
    Py_XDECREF(by_ref);
    Py_DECREF(lists);
    PyMem_Free(hc);
    PyMem_Free(rc);
    return result;
}

static PyMethodDef beam_methods[] = {
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

/* Per-word text kernels (Snowball English stemmer, Java string hash), defined in _text.c. */
extern PyMethodDef meteor_text_methods[];

PyMODINIT_FUNC
PyInit__beam(void)
{
    PyObject *module = PyModule_Create(&beam_module);
    if (module != NULL && PyModule_AddFunctions(module, meteor_text_methods) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
