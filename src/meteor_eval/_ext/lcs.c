/*
 * Longest common subsequence of two id sequences in memory linear in their lengths, for ROUGE-L
 * and the union LCS of ROUGE-Lsum; the pure-Python twins are meteor_eval.align.lcs.lcs_length and
 * lcs_indices.
 *
 * Rows run over the reference a (i = 0..na), bits over the hypothesis b (one bit per column).
 * Row i is Hyyro's bit vector V_i (Bit-parallel LCS-length computation revisited, 2004):
 * bit j-1 of V_i is 0 exactly when the table value grows from column j-1 to column j, so
 * D[i][j] = j - popcount(V_i & low j bits); V_{i+1} = (V + (V & M)) | (V & ~M) with M the
 * positions of a[i] in b. The length needs one row (na * nb / 64 word operations).
 *
 * The positions picked by rouge-score's backtrack (_backtrack_norec: diagonal on equal tokens,
 * else left when D[i][j-1] > D[i-1][j], else up) depend on the whole table; we keep every k-th
 * row (k = ceil(sqrt(na))) on the way forward and, walking back, recompute one block of k rows
 * at a time from its checkpoint: (na/k + k + 2) rows of nb bits, O(nb * sqrt(na) / 64) words,
 * for two forward passes of work. Positions of each token in b are kept as linked lists
 * (first/next), so no table of masks per distinct token is built.
 */

#include "kernels.h"

void
lcs_work_free(LcsWork *w)
{
    PyMem_Free(w->first);
    PyMem_Free(w->next);
    PyMem_Free(w->bits);
    memset(w, 0, sizeof(*w));
}

static int
work_reserve(LcsWork *w, Py_ssize_t nb, int32_t vocab, Py_ssize_t words)
{
    if (vocab > w->n_first) {
        Py_ssize_t cap = w->n_first ? w->n_first : 1024;
        while (cap < vocab) {
            cap *= 2;
        }
        int32_t *p = PyMem_Realloc(w->first, (size_t)cap * sizeof(int32_t));
        if (p == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        for (Py_ssize_t k = w->n_first; k < cap; k++) {
            p[k] = -1;
        }
        w->first = p;
        w->n_first = cap;
    }
    if (nb > w->n_next) {
        Py_ssize_t cap = w->n_next ? w->n_next : 256;
        while (cap < nb) {
            cap *= 2;
        }
        int32_t *p = PyMem_Realloc(w->next, (size_t)cap * sizeof(int32_t));
        if (p == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        w->next = p;
        w->n_next = cap;
    }
    if (words > w->n_bits) {
        Py_ssize_t cap = w->n_bits ? w->n_bits : 64;
        while (cap < words) {
            cap *= 2;
        }
        uint64_t *p = PyMem_Realloc(w->bits, (size_t)cap * sizeof(uint64_t));
        if (p == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        w->bits = p;
        w->n_bits = cap;
    }
    return 0;
}

static void
link_positions(LcsWork *w, const int32_t *b, Py_ssize_t nb)
{
    for (Py_ssize_t j = nb - 1; j >= 0; j--) {
        w->next[j] = w->first[b[j]];
        w->first[b[j]] = (int32_t)j;
    }
}

static void
unlink_positions(LcsWork *w, const int32_t *b, Py_ssize_t nb)
{
    for (Py_ssize_t j = 0; j < nb; j++) {
        w->first[b[j]] = -1;
    }
}

/* One row step: V <- (V + (V & M)) | (V & ~M), M the positions of token c (built in mask). */
static inline void
row_step(LcsWork *w, uint64_t *v, uint64_t *mask, Py_ssize_t words, int32_t c)
{
    int32_t j = w->first[c];
    if (j < 0) {
        return;
    }
    if (words == 1) {
        uint64_t m = 0;
        for (; j >= 0; j = w->next[j]) {
            m |= (uint64_t)1 << j;
        }
        uint64_t u = v[0] & m;
        v[0] = (v[0] + u) | (v[0] - u);
        return;
    }
    for (int32_t q = j; q >= 0; q = w->next[q]) {
        mask[q >> 6] |= (uint64_t)1 << (q & 63);
    }
    uint64_t carry = 0;
    for (Py_ssize_t k = 0; k < words; k++) {
        uint64_t x = v[k], u = x & mask[k];
        uint64_t sum = x + u;
        uint64_t c1 = sum < x;
        uint64_t sum2 = sum + carry;
        uint64_t c2 = sum2 < sum;
        v[k] = sum2 | (x & ~mask[k]);
        carry = c1 | c2;
    }
    for (int32_t q = j; q >= 0; q = w->next[q]) {
        mask[q >> 6] = 0;
    }
}

static inline void
row_ones(uint64_t *v, Py_ssize_t words, Py_ssize_t nb)
{
    for (Py_ssize_t k = 0; k < words; k++) {
        v[k] = ~(uint64_t)0;
    }
    if (nb & 63) {
        v[words - 1] = ((uint64_t)1 << (nb & 63)) - 1;
    }
}

/* D[i][j] from row V_i: j minus the one bits among the low j bits. */
static inline Py_ssize_t
row_value(const uint64_t *v, Py_ssize_t j)
{
    Py_ssize_t ones = 0, full = j >> 6;
    for (Py_ssize_t k = 0; k < full; k++) {
        ones += __builtin_popcountll(v[k]);
    }
    if (j & 63) {
        ones += __builtin_popcountll(v[full] & (((uint64_t)1 << (j & 63)) - 1));
    }
    return j - ones;
}

Py_ssize_t
lcs_length_core(LcsWork *w, const int32_t *a, Py_ssize_t na, const int32_t *b, Py_ssize_t nb,
                int32_t vocab)
{
    if (na == 0 || nb == 0) {
        return 0;
    }
    Py_ssize_t words = (nb + 63) >> 6;
    if (work_reserve(w, nb, vocab, 2 * words) < 0) {
        return -1;
    }
    uint64_t *v = w->bits, *mask = w->bits + words;
    row_ones(v, words, nb);
    memset(mask, 0, (size_t)words * sizeof(uint64_t));
    link_positions(w, b, nb);
    for (Py_ssize_t i = 0; i < na; i++) {
        row_step(w, v, mask, words, a[i]);
    }
    unlink_positions(w, b, nb);
    return row_value(v, nb);
}

int
lcs_picks_core(LcsWork *w, const int32_t *a, Py_ssize_t na, const int32_t *b, Py_ssize_t nb,
               int32_t vocab, unsigned char *picked)
{
    if (na == 0 || nb == 0) {
        return 0;
    }
    Py_ssize_t words = (nb + 63) >> 6;
    Py_ssize_t k = 1;
    while (k * k < na) {
        k++;
    }
    Py_ssize_t n_check = na / k + 1; /* rows 0, k, 2k, ... <= na */
    Py_ssize_t total = (n_check + (k + 1) + 1) * words;
    if (work_reserve(w, nb, vocab, total) < 0) {
        return -1;
    }
    uint64_t *check = w->bits;                   /* n_check rows */
    uint64_t *block = check + n_check * words;   /* k + 1 rows */
    uint64_t *mask = block + (k + 1) * words;    /* one row */
    memset(mask, 0, (size_t)words * sizeof(uint64_t));
    link_positions(w, b, nb);
    uint64_t *v = block; /* the running row during the forward pass */
    row_ones(v, words, nb);
    memcpy(check, v, (size_t)words * sizeof(uint64_t));
    for (Py_ssize_t i = 0; i < na; i++) {
        row_step(w, v, mask, words, a[i]);
        if ((i + 1) % k == 0) {
            memcpy(check + ((i + 1) / k) * words, v, (size_t)words * sizeof(uint64_t));
        }
    }
    Py_ssize_t i = na, j = nb;
    while (i > 0 && j > 0) {
        /* rows s..i of the block holding row i-1, recomputed from checkpoint s */
        Py_ssize_t s = ((i - 1) / k) * k;
        memcpy(block, check + (s / k) * words, (size_t)words * sizeof(uint64_t));
        for (Py_ssize_t r = s; r < i; r++) {
            memcpy(block + (r - s + 1) * words, block + (r - s) * words,
                   (size_t)words * sizeof(uint64_t));
            row_step(w, block + (r - s + 1) * words, mask, words, a[r]);
        }
        while (i > s && j > 0) {
            if (a[i - 1] == b[j - 1]) {
                picked[i - 1] = 1;
                i--;
                j--;
                continue;
            }
            const uint64_t *row = block + (i - s) * words, *above = row - words;
            Py_ssize_t left = row_value(row, j - 1), up = row_value(above, j);
            if (left > up) {
                j--;
            }
            else {
                i--;
            }
        }
    }
    unlink_positions(w, b, nb);
    return 0;
}

static int32_t *
read_ids(PyObject *seq, Py_ssize_t *n, int32_t *vocab)
{
    PyObject *fast = PySequence_Fast(seq, "lcs: expected a sequence of ints");
    if (fast == NULL) {
        return NULL;
    }
    *n = PySequence_Fast_GET_SIZE(fast);
    int32_t *out = PyMem_Malloc((size_t)(*n + 1) * sizeof(int32_t));
    if (out == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t k = 0; k < *n; k++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, k));
        if ((x == -1 && PyErr_Occurred()) || x < 0 || x >= INT32_MAX) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_ValueError, "lcs: ids must be in [0, 2**31 - 1)");
            }
            Py_DECREF(fast);
            PyMem_Free(out);
            return NULL;
        }
        out[k] = (int32_t)x;
        if (x + 1 > *vocab) {
            *vocab = (int32_t)(x + 1);
        }
    }
    Py_DECREF(fast);
    return out;
}

/* lcs_length_ids(reference_ids, hypothesis_ids) -> int */
static PyObject *
lcs_length_ids_c(PyObject *self, PyObject *args)
{
    PyObject *ao, *bo;
    if (!PyArg_ParseTuple(args, "OO:lcs_length_ids", &ao, &bo)) {
        return NULL;
    }
    Py_ssize_t na, nb;
    int32_t vocab = 0;
    int32_t *a = read_ids(ao, &na, &vocab);
    if (a == NULL) {
        return NULL;
    }
    int32_t *b = read_ids(bo, &nb, &vocab);
    if (b == NULL) {
        PyMem_Free(a);
        return NULL;
    }
    LcsWork w = {0};
    Py_ssize_t length = lcs_length_core(&w, a, na, b, nb, vocab);
    lcs_work_free(&w);
    PyMem_Free(a);
    PyMem_Free(b);
    return length < 0 ? NULL : PyLong_FromSsize_t(length);
}

/* lcs_picks_ids(reference_ids, hypothesis_ids) -> list of reference positions */
static PyObject *
lcs_picks_ids_c(PyObject *self, PyObject *args)
{
    PyObject *ao, *bo;
    if (!PyArg_ParseTuple(args, "OO:lcs_picks_ids", &ao, &bo)) {
        return NULL;
    }
    Py_ssize_t na, nb;
    int32_t vocab = 0;
    int32_t *a = read_ids(ao, &na, &vocab);
    if (a == NULL) {
        return NULL;
    }
    int32_t *b = read_ids(bo, &nb, &vocab);
    if (b == NULL) {
        PyMem_Free(a);
        return NULL;
    }
    PyObject *result = NULL;
    unsigned char *picked = PyMem_Calloc((size_t)na + 1, 1);
    LcsWork w = {0};
    if (picked == NULL) {
        PyErr_NoMemory();
    }
    else if (lcs_picks_core(&w, a, na, b, nb, vocab, picked) == 0) {
        result = PyList_New(0);
        for (Py_ssize_t i = 0; result != NULL && i < na; i++) {
            if (picked[i]) {
                PyObject *x = PyLong_FromSsize_t(i);
                if (x == NULL || PyList_Append(result, x) < 0) {
                    Py_XDECREF(x);
                    Py_CLEAR(result);
                    break;
                }
                Py_DECREF(x);
            }
        }
    }
    lcs_work_free(&w);
    PyMem_Free(picked);
    PyMem_Free(a);
    PyMem_Free(b);
    return result;
}

PyMethodDef meteor_lcs_methods[] = {
    {"lcs_length_ids", lcs_length_ids_c, METH_VARARGS,
     "lcs_length_ids(reference, hypothesis) -> int\n\nLCS length of two id sequences "
     "(bit-parallel, one row of memory)."},
    {"lcs_picks_ids", lcs_picks_ids_c, METH_VARARGS,
     "lcs_picks_ids(reference, hypothesis) -> list[int]\n\nReference positions of the LCS that "
     "rouge-score's backtrack picks, in O(len(hypothesis) * sqrt(len(reference))) bits."},
    {NULL, NULL, 0, NULL},
};
