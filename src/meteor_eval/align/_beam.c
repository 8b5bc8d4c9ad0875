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
 * The module exposes one function, align(by_ref, hyp_coverage, ref_coverage, weights, beam),
 * which returns the chosen Match objects (the store's own objects) in reference order.
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

typedef struct {
    Cand *cands;
    Py_ssize_t *first; /* candidates of reference position j: cands[first[j] .. first[j+1]) */
    Py_ssize_t *fixed_at;
    int64_t *cur;
    int64_t *next;
    Py_ssize_t next_cap;
    Py_ssize_t *order;
    Py_ssize_t *tmp;
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
    w->order_cap = cap;
    return 0;
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
            stable_sort(w.next, stride, next_n, w.order, w.tmp);
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
        stable_sort(w.next, stride, next_n, w.order, w.tmp);
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

static PyMethodDef beam_methods[] = {
    {"align", beam_align_c, METH_VARARGS,
     "align(by_ref, hyp_coverage, ref_coverage, aligner_weights, beam) -> list\n\n"
     "The METEOR 1.5 beam search over a candidate store's lists; returns the chosen matches\n"
     "in reference order."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef beam_module = {
    PyModuleDef_HEAD_INIT, "_beam", "Compiled METEOR 1.5 beam search.", -1, beam_methods,
};

PyMODINIT_FUNC
PyInit__beam(void)
{
    return PyModule_Create(&beam_module);
}
