/*
 * Word statistics of a chosen alignment (the jar's per-segment counts, spec section 5):
 *
 *   word_stats(matches, hyp_flags, ref_flags, n_stages) -> tuple
 *   pool_rows(rows, skip_perfect) -> tuple
 *
 * stats_core() is shared with the pair kernel, which counts without making Match objects.
 * pool_rows() sums a block of rows in the jar's order (what meteor15_rows writes) without
 * NumPy, so that a plain corpus score never loads it.
 */

#include "kernels.h"

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
void
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
PyObject *
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

PyObject *
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
    FREE_EACH(hf, rf, counts, chosen);
    return result;
}

/*
 * pool_rows(rows, skip_perfect) -> tuple of 23 ints, or None
 *
 * The pooled row of a block of statistics rows in the jar's order (23 int64 values a row, any
 * buffer: what meteor15_rows writes): each column summed, except that with skip_perfect a
 * perfect row (one chunk, every unit of both sides matched over the four stages: the rule of
 * stats.meteor.is_perfect) adds no chunks. None when a sum would leave int64 (the caller's
 * Python twin then sums with exact integers).
 */
PyObject *
pool_rows_c(PyObject *self, PyObject *args)
{
    PyObject *rows_obj;
    int skip_perfect;
    if (!PyArg_ParseTuple(args, "Op:pool_rows", &rows_obj, &skip_perfect)) {
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(rows_obj, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    if (view.len % (Py_ssize_t)(23 * sizeof(int64_t)) != 0) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "rows: expected packed rows of 23 int64 values");
        return NULL;
    }
    const Py_ssize_t n = view.len / (Py_ssize_t)(23 * sizeof(int64_t));
    int64_t total[23] = {0};
    int overflow = 0;
    for (Py_ssize_t k = 0; k < n && !overflow; k++) {
        int64_t row[23];
        memcpy(row, (const char *)view.buf + k * (Py_ssize_t)sizeof(row), sizeof(row));
        if (skip_perfect && row[20] == 1) {
            int64_t hyp = 0, ref = 0;
            for (int s = 4; s < 20; s += 2) {
                overflow |= __builtin_add_overflow(hyp, row[s], &hyp);
                overflow |= __builtin_add_overflow(ref, row[s + 1], &ref);
            }
            if (hyp == row[0] && ref == row[1]) {
                row[20] = 0;
            }
        }
        for (int c = 0; c < 23; c++) {
            overflow |= __builtin_add_overflow(total[c], row[c], &total[c]);
        }
    }
    PyBuffer_Release(&view);
    if (overflow) {
        Py_RETURN_NONE;
    }
    PyObject *result = PyTuple_New(23);
    if (result == NULL) {
        return NULL;
    }
    for (int c = 0; c < 23; c++) {
        PyObject *value = PyLong_FromLongLong(total[c]);
        if (value == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, c, value);
    }
    return result;
}
