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

#include <math.h>

void
lcs_work_free(LcsWork *w)
{
    FREE_EACH(w->first, w->next, w->bits);
    memset(w, 0, sizeof(*w));
}

/* Room for nb column positions, token ids below vocab and words bit words; new first[] slots
 * are -1 (no position). The arrays only grow, so one workspace serves a whole chunk. */
static int
work_reserve(LcsWork *w, Py_ssize_t nb, int32_t vocab, Py_ssize_t words)
{
    Py_ssize_t old = w->n_first;
    if (grow((void **)&w->first, &w->n_first, vocab, sizeof(int32_t)) < 0) {
        return -1;
    }
    for (Py_ssize_t k = old; k < w->n_first; k++) {
        w->first[k] = -1;
    }
    if (grow((void **)&w->next, &w->n_next, nb, sizeof(int32_t)) < 0 ||
        grow((void **)&w->bits, &w->n_bits, words, sizeof(uint64_t)) < 0) {
        return -1;
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

/* ---- ROUGE-W: ROUGE-1.5.5's weighted LCS, positions of the reference it marks ---------------
 *
 * Cell (i, j): on equal tokens the diagonal, extending the run k of cell (i-1, j-1) with
 * score (c[i-1][j-1] + f(k+1)) - f(k), f(k) = k ** weight (the twin's order of operations);
 * else up when c[i-1][j] >= c[i][j-1], else left (runs restart at 0). The backtrace from
 * (na, nb) marks the reference positions of its diagonal steps. Rows (score and run) are kept
 * every k-th row (k = ceil(sqrt(na))); the moves of one block of k rows at a time are recomputed
 * on the way back: O(nb * sqrt(na)) memory, two forward passes. f is tabulated once. */

static void
wlcs_row(const double *ps, const int32_t *pr, double *cs, int32_t *cr, unsigned char *moves,
         int32_t token, const int32_t *b, Py_ssize_t nb, const double *f)
{
    cs[0] = 0.0;
    cr[0] = 0;
    for (Py_ssize_t j = 1; j <= nb; j++) {
        if (token == b[j - 1]) {
            int32_t k = pr[j - 1];
            cs[j] = (ps[j - 1] + f[k + 1]) - f[k];
            cr[j] = k + 1;
            if (moves) {
                moves[j] = 0;
            }
        }
        else if (ps[j] >= cs[j - 1]) {
            cs[j] = ps[j];
            cr[j] = 0;
            if (moves) {
                moves[j] = 1;
            }
        }
        else {
            cs[j] = cs[j - 1];
            cr[j] = 0;
            if (moves) {
                moves[j] = 2;
            }
        }
    }
}

/* The next row becomes the previous one: exchange the rolling score and run rows. */
static inline void
swap_rows(double **s0, double **s1, int32_t **r0, int32_t **r1)
{
    double *ts = *s0;
    *s0 = *s1;
    *s1 = ts;
    int32_t *tr = *r0;
    *r0 = *r1;
    *r1 = tr;
}

KERNEL_API int
wlcs_mask_core(const int32_t *a, Py_ssize_t na, const int32_t *b, Py_ssize_t nb, double weight,
               unsigned char *mask)
{
    if (na == 0 || nb == 0) {
        return 0;
    }
    Py_ssize_t k = 1;
    while (k * k < na) {
        k++;
    }
    Py_ssize_t n_check = na / k + 1, width = nb + 1, top = na < nb ? na : nb;
    double *f = PyMem_Malloc((size_t)(top + 2) * sizeof(double));
    double *cs = PyMem_Malloc((size_t)(n_check + 2) * (size_t)width * sizeof(double));
    int32_t *cr = PyMem_Malloc((size_t)(n_check + 2) * (size_t)width * sizeof(int32_t));
    unsigned char *moves = PyMem_Malloc((size_t)k * (size_t)width);
    int rc = -1;
    if (f == NULL || cs == NULL || cr == NULL || moves == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t q = 0; q <= top + 1; q++) {
        f[q] = pow((double)q, weight);
    }
    /* rows n_check and n_check + 1 of cs/cr are the two rolling rows */
    double *s0 = cs + n_check * width, *s1 = s0 + width;
    int32_t *r0 = cr + n_check * width, *r1 = r0 + width;
    for (Py_ssize_t j = 0; j < width; j++) {
        cs[j] = 0.0;
        cr[j] = 0;
    }
    memcpy(s0, cs, (size_t)width * sizeof(double));
    memcpy(r0, cr, (size_t)width * sizeof(int32_t));
    for (Py_ssize_t i = 1; i <= na; i++) {
        wlcs_row(s0, r0, s1, r1, NULL, a[i - 1], b, nb, f);
        swap_rows(&s0, &s1, &r0, &r1);
        if (i % k == 0) {
            memcpy(cs + (i / k) * width, s0, (size_t)width * sizeof(double));
            memcpy(cr + (i / k) * width, r0, (size_t)width * sizeof(int32_t));
        }
    }
    Py_ssize_t i = na, j = nb;
    while (i > 0 && j > 0) {
        Py_ssize_t start = ((i - 1) / k) * k;
        memcpy(s0, cs + (start / k) * width, (size_t)width * sizeof(double));
        memcpy(r0, cr + (start / k) * width, (size_t)width * sizeof(int32_t));
        for (Py_ssize_t r = start + 1; r <= i; r++) {
            wlcs_row(s0, r0, s1, r1, moves + (r - start - 1) * width, a[r - 1], b, nb, f);
            swap_rows(&s0, &s1, &r0, &r1);
        }
        while (i > start && j > 0) {
            unsigned char step = moves[(i - start - 1) * width + j];
            if (step == 0) {
                i--;
                j--;
                mask[i] = 1;
            }
            else if (step == 1) {
                i--;
            }
            else {
                j--;
            }
        }
    }
    rc = 0;
done:
    FREE_EACH(f, cs, cr, moves);
    return rc;
}

static int32_t *
read_token_ids(PyObject *seq, Py_ssize_t *n, int32_t *vocab)
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

/* The two id sequences of a call, read with one vocabulary bound (every id below vocab). */
typedef struct {
    int32_t *a, *b;
    Py_ssize_t na, nb;
    int32_t vocab;
} IdPair;

static void
id_pair_free(IdPair *p)
{
    FREE_EACH(p->a, p->b);
}

/* Read both sequences; on failure nothing stays allocated. */
static int
read_id_pair(PyObject *ao, PyObject *bo, IdPair *p)
{
    memset(p, 0, sizeof(*p));
    p->a = read_token_ids(ao, &p->na, &p->vocab);
    if (p->a != NULL) {
        p->b = read_token_ids(bo, &p->nb, &p->vocab);
    }
    if (p->b == NULL) {
        id_pair_free(p);
        return -1;
    }
    return 0;
}

/* The two id sequences that are a call's only arguments (format: "OO:name"). */
static int
parse_id_pair(PyObject *args, const char *format, IdPair *p)
{
    PyObject *ao, *bo;
    if (!PyArg_ParseTuple(args, format, &ao, &bo)) {
        return -1;
    }
    return read_id_pair(ao, bo, p);
}

/* lcs_length_ids(reference_ids, hypothesis_ids) -> int */
PyObject *
lcs_length_ids_c(PyObject *self, PyObject *args)
{
    IdPair p;
    if (parse_id_pair(args, "OO:lcs_length_ids", &p) < 0) {
        return NULL;
    }
    LcsWork w = {0};
    Py_ssize_t length = lcs_length_core(&w, p.a, p.na, p.b, p.nb, p.vocab);
    lcs_work_free(&w);
    id_pair_free(&p);
    return length < 0 ? NULL : PyLong_FromSsize_t(length);
}

/* lcs_picks_ids(reference_ids, hypothesis_ids) -> list of reference positions */
PyObject *
lcs_picks_ids_c(PyObject *self, PyObject *args)
{
    IdPair p;
    if (parse_id_pair(args, "OO:lcs_picks_ids", &p) < 0) {
        return NULL;
    }
    PyObject *result = NULL;
    unsigned char *picked = PyMem_Calloc((size_t)p.na + 1, 1);
    LcsWork w = {0};
    if (picked == NULL) {
        PyErr_NoMemory();
    }
    else if (lcs_picks_core(&w, p.a, p.na, p.b, p.nb, p.vocab, picked) == 0) {
        result = PyList_New(0);
        for (Py_ssize_t i = 0; result != NULL && i < p.na; i++) {
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
    id_pair_free(&p);
    return result;
}

/* wlcs_mask_ids(reference_ids, hypothesis_ids, weight, mask) -> None; mask: a writable buffer */
PyObject *
wlcs_mask_ids_c(PyObject *self, PyObject *args)
{
    PyObject *ao, *bo;
    double weight;
    Py_buffer view;
    if (!PyArg_ParseTuple(args, "OOdw*:wlcs_mask_ids", &ao, &bo, &weight, &view)) {
        return NULL;
    }
    IdPair p;
    if (read_id_pair(ao, bo, &p) < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    int rc = -1;
    if (view.len < p.na) {
        PyErr_SetString(PyExc_ValueError, "wlcs_mask_ids: mask shorter than the reference");
    }
    else {
        rc = wlcs_mask_core(p.a, p.na, p.b, p.nb, weight, (unsigned char *)view.buf);
    }
    PyBuffer_Release(&view);
    id_pair_free(&p);
    if (rc < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}
