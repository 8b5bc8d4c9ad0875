/*
 * pycocoevalcap's CIDEr-D and ROUGE-L of a whole caption set in one call each (cider_d_scores,
 * coco_rouge_l_scores). The pure-Python twins are meteor_eval.metrics.caption.CiderModel and
 * rouge_l_image; every per-image score is the twin's, bit for bit, because each floating-point
 * operation is the twin's, in the twin's order:
 *
 *   CIDEr-D: captions split on whitespace (str.split(), texttok.c's TOK_NONE) into interned ids;
 *   every 1..n-gram of every caption interned once in a table of the whole call; document
 *   frequencies counted over each image's references (an image counts a gram once); the
 *   weights' logarithms are the caller's (NumPy's log, as the twin and the original take it:
 *   the idf_of callback); then per image the candidate's and each reference's tf-idf weights in
 *   first-occurrence order (the order of the original's Counter), their norms summed in that
 *   order, the clipped products summed in the candidate's order, the Gaussian length penalty
 *   pow(e, -(delta^2) / denominator) with the caller's denominator, the orders summed left to
 *   right (the twin's n < 8 rule), divided by n and by the number of references, times 10.
 *
 *   ROUGE-L: captions split on single spaces (str.split(" "): empty tokens kept), the LCS of
 *   each reference with the candidate (lcs.c), the best precision and the best recall over the
 *   references, and one F-measure with the caller's beta^2.
 *
 * Items of the wrong type and images without references give None: the caller's Python path
 * then raises the twin's error.
 */

#include "kernels.h"

#include <math.h>

/* Every caption of the call as interned ids: caption c is ids[off[c] .. off[c + 1]). */
typedef struct {
    Ids ids;
    int64_t *off;
    Py_ssize_t n, cap;
    int32_t empty_id; /* split(" "): the id of the empty token (interned as " ", which no
                       * token can be; the vocabulary is not asked for an empty string) */
} Captions;

static void
captions_free(Captions *c)
{
    FREE_EACH(c->ids.v, c->off);
    memset(c, 0, sizeof(*c));
}

/* Append one caption; -2 when obj is not a str. space_only: split(" "), else split(). */
static int
captions_add(Captions *c, PyObject *obj, int space_only, TokWork *w, Vocab *v)
{
    if (!PyUnicode_Check(obj)) {
        return -2;
    }
    if (reserve((void **)&c->off, &c->cap, c->n + 2, 1024, sizeof(int64_t)) < 0) {
        return -1;
    }
    if (c->n == 0) {
        c->off[0] = 0;
    }
    Py_ssize_t n;
    const Py_UCS4 *s = read_ucs4(obj, &w->in, &n);
    if (s == NULL) {
        return -1;
    }
    if (space_only) {
        Py_ssize_t start = 0;
        for (Py_ssize_t k = 0; k <= n; k++) {
            if (k == n || s[k] == ' ') {
                int32_t id = k > start ? vocab_id(v, s + start, k - start) : c->empty_id;
                if (id < 0 || ids_push(&c->ids, id) < 0) {
                    return -1;
                }
                start = k + 1;
            }
        }
    }
    else if (text_tokens(TOK_NONE, s, n, w, v, &c->ids) < 0) {
        return -1;
    }
    c->n++;
    c->off[c->n] = c->ids.n;
    return 0;
}

/* Read hypotheses (one str each) and references (a list or tuple of str each) into captions:
 * the hypotheses first, then every image's references in order; ref_start[i] .. ref_start[i+1]
 * are image i's. 1: an item of the wrong type or an image without references. */
static int
read_captions(PyObject *hyps, PyObject *refs, int space_only, Captions *c, Vocab *v,
              int64_t **ref_start_out)
{
    Py_ssize_t images = PySequence_Fast_GET_SIZE(hyps);
    TokWork w = {0};
    int rc = 0;
    int64_t *ref_start = PyMem_Malloc((size_t)(images + 1) * sizeof(int64_t));
    if (ref_start == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (space_only) {
        const Py_UCS4 space = ' ';
        c->empty_id = vocab_id(v, &space, 1);
        if (c->empty_id < 0) {
            PyMem_Free(ref_start);
            return -1;
        }
    }
    for (Py_ssize_t i = 0; rc == 0 && i < images; i++) {
        rc = captions_add(c, PySequence_Fast_GET_ITEM(hyps, i), space_only, &w, v);
    }
    Py_ssize_t caption = images;
    for (Py_ssize_t i = 0; rc == 0 && i < images; i++) {
        PyObject *group = PySequence_Fast_GET_ITEM(refs, i);
        if (!(PyList_Check(group) || PyTuple_Check(group)) ||
            PySequence_Fast_GET_SIZE(group) == 0) {
            rc = -2;
            break;
        }
        ref_start[i] = caption;
        Py_ssize_t nrefs = PySequence_Fast_GET_SIZE(group);
        for (Py_ssize_t r = 0; rc == 0 && r < nrefs; r++) {
            rc = captions_add(c, PySequence_Fast_ITEMS(group)[r], space_only, &w, v);
        }
        caption += nrefs;
    }
    ref_start[images] = caption;
    tokwork_free(&w);
    if (rc < 0) {
        PyMem_Free(ref_start);
        return rc == -2 ? 1 : -1;
    }
    *ref_start_out = ref_start;
    return 0;
}

/* Both sequences as fast sequences of the same length; -1 on error (set). */
static int
fast_pair(PyObject *hyps_obj, PyObject *refs_obj, const char *name, PyObject **hyps,
          PyObject **refs)
{
    if (fast_sides(hyps_obj, refs_obj, "hypotheses must be a sequence",
                   "references must be a sequence", hyps, refs) < 0) {
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(*hyps) != PySequence_Fast_GET_SIZE(*refs)) {
        PyErr_Format(PyExc_ValueError, "%s: as many reference groups as hypotheses", name);
        Py_CLEAR(*hyps);
        Py_CLEAR(*refs);
        return -1;
    }
    return 0;
}

/* ---- CIDEr-D -------------------------------------------------------------------------------- */

/* The n-grams of the call: gram g is ids[start[g] .. start[g] + order[g]). */
typedef struct {
    int32_t *slots; /* gram index or -1 */
    size_t mask;
    uint64_t *hash;
    int64_t *start;
    int32_t *order;
    Py_ssize_t n, cap;
} Grams;

static void
grams_free(Grams *t)
{
    FREE_EACH(t->slots, t->hash, t->start, t->order);
    memset(t, 0, sizeof(*t));
}

/* The index of gram ids[start .. start + order), added when new; -1 on error. */
static int32_t
gram_index(Grams *t, const int32_t *ids, int64_t start, int32_t order, uint64_t h)
{
    if (slots_room(&t->slots, &t->mask, t->hash, t->n, 4096) < 0) {
        return -1;
    }
    const size_t bytes = (size_t)order * sizeof(int32_t);
    size_t idx;
    int32_t found;
    SLOTS_PROBE(t->slots, t->mask, t->hash, h, idx, found,
                t->order[found] == order && memcmp(ids + t->start[found], ids + start, bytes) == 0);
    if (found >= 0) {
        return found;
    }
    if (t->n == t->cap) {
        Py_ssize_t cap = t->cap ? 2 * t->cap : 4096;
        if (cap > INT32_MAX) {
            PyErr_SetString(PyExc_OverflowError, "cider_d_scores: too many distinct n-grams");
            return -1;
        }
        /* The three arrays share t->cap, set once all have grown. */
        Py_ssize_t hash_cap = t->cap, start_cap = t->cap, order_cap = t->cap;
        if (grow((void **)&t->hash, &hash_cap, cap, sizeof(uint64_t)) < 0 ||
            grow((void **)&t->start, &start_cap, cap, sizeof(int64_t)) < 0 ||
            grow((void **)&t->order, &order_cap, cap, sizeof(int32_t)) < 0) {
            return -1;
        }
        t->cap = cap;
    }
    int32_t g = (int32_t)t->n++;
    t->hash[g] = h;
    t->start[g] = start;
    t->order[g] = order;
    t->slots[idx] = g;
    return g;
}

/* Grams of order k (1-based) of a caption of len tokens start at this offset of its list. */
static inline int64_t
order_offset(int64_t len, int k)
{
    int64_t total = 0;
    for (int j = 1; j < k; j++) {
        total += len - j + 1 > 0 ? len - j + 1 : 0;
    }
    return total;
}

/* One caption's tf-idf vector: for each order, its distinct grams in first-occurrence order and
 * their weights (dist/wt from dist_off[k]), and the norms. cnt is zero on entry and on exit. */
static void
caption_vector(const int32_t *gpos, int64_t len, int n, const double *idf, int32_t *cnt,
               int32_t *dist, double *wt, int64_t *dist_off, double *norm)
{
    int64_t m = 0;
    const int32_t *p = gpos;
    for (int k = 1; k <= n; k++) {
        int64_t count = len - k + 1 > 0 ? len - k + 1 : 0;
        dist_off[k - 1] = m;
        int64_t first = m;
        for (int64_t i = 0; i < count; i++) {
            int32_t g = p[i];
            if (cnt[g]++ == 0) {
                dist[m++] = g;
            }
        }
        double squares = 0.0;
        for (int64_t j = first; j < m; j++) {
            int32_t g = dist[j];
            double weight = (double)cnt[g] * idf[g];
            wt[j] = weight;
            squares += weight * weight;
            cnt[g] = 0;
        }
        norm[k - 1] = sqrt(squares);
        p += count;
    }
    dist_off[n] = m;
}

/* cider_d_scores(hypotheses, references, n, denominator, idf_of) -> bytes | None */
PyObject *
cider_d_scores_c(PyObject *self, PyObject *args)
{
    PyObject *hyps_obj, *refs_obj, *idf_of;
    int n;
    double denominator;
    if (!PyArg_ParseTuple(args, "OOidO:cider_d_scores", &hyps_obj, &refs_obj, &n, &denominator,
                          &idf_of)) {
        return NULL;
    }
    if (n < 1 || n > 7) {
        PyErr_SetString(PyExc_ValueError, "cider_d_scores: n must be 1 .. 7");
        return NULL;
    }
    PyObject *hyps, *refs;
    if (fast_pair(hyps_obj, refs_obj, "cider_d_scores", &hyps, &refs) < 0) {
        return NULL;
    }
    Py_ssize_t images = PySequence_Fast_GET_SIZE(hyps);
    PyObject *result = NULL, *df_bytes = NULL, *idf_obj = NULL, *out = NULL;
    Py_buffer idf_view = {0};
    Captions c = {0};
    Vocab v = {0};
    Grams t = {0};
    int64_t *ref_start = NULL, *goff = NULL, *dist_off = NULL;
    int32_t *gpos = NULL, *stamp = NULL, *cnt = NULL, *hdist = NULL, *rdist = NULL;
    double *rw = NULL, *hwt = NULL, *rwt = NULL;
    int rc = read_captions(hyps, refs, 0, &c, &v, &ref_start);
    if (rc != 0) {
        result = rc > 0 ? Py_None : NULL;
        goto done;
    }
    if (images == 0) {
        result = Py_None;
        goto done;
    }
    /* every caption's grams, order by order, each order left to right */
    goff = PyMem_Malloc((size_t)(c.n + 1) * sizeof(int64_t));
    if (goff == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    goff[0] = 0;
    int64_t longest = 0;
    for (Py_ssize_t k = 0; k < c.n; k++) {
        int64_t len = c.off[k + 1] - c.off[k];
        goff[k + 1] = goff[k] + order_offset(len, n + 1);
        if (len > longest) {
            longest = len;
        }
    }
    gpos = PyMem_Malloc((size_t)(goff[c.n] + 1) * sizeof(int32_t));
    if (gpos == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    const int32_t *ids = c.ids.v;
    for (Py_ssize_t k = 0; k < c.n; k++) {
        int64_t start = c.off[k], len = c.off[k + 1] - start;
        int32_t *p = gpos + goff[k];
        for (int64_t i = 0; i < len; i++) {
            uint64_t h = 0;
            for (int o = 1; o <= n && i + o <= len; o++) {
                h = gram_mix(h, ids[start + i + o - 1]);
                int32_t g = gram_index(&t, ids, start + i, o, h);
                if (g < 0) {
                    goto done;
                }
                p[order_offset(len, o) + i] = g;
            }
        }
    }
    /* document frequencies: the images whose references hold each gram */
    Py_ssize_t grams = t.n;
    df_bytes = PyBytes_FromStringAndSize(NULL, (grams + 1) * (Py_ssize_t)sizeof(double));
    stamp = PyMem_Malloc((size_t)(grams + 1) * sizeof(int32_t));
    cnt = PyMem_Calloc((size_t)grams + 1, sizeof(int32_t));
    rw = PyMem_Calloc((size_t)grams + 1, sizeof(double));
    if (df_bytes == NULL || stamp == NULL || cnt == NULL || rw == NULL) {
        if (df_bytes != NULL) {
            PyErr_NoMemory();
        }
        goto done;
    }
    double *df = (double *)PyBytes_AS_STRING(df_bytes);
    for (Py_ssize_t g = 0; g < grams; g++) {
        df[g] = 0.0;
        stamp[g] = -1;
    }
    for (Py_ssize_t i = 0; i < images; i++) {
        for (int64_t r = ref_start[i]; r < ref_start[i + 1]; r++) {
            for (int64_t q = goff[r]; q < goff[r + 1]; q++) {
                int32_t g = gpos[q];
                if (stamp[g] != (int32_t)i) {
                    stamp[g] = (int32_t)i;
                    df[g] += 1.0;
                }
            }
        }
    }
    if (_PyBytes_Resize(&df_bytes, grams * (Py_ssize_t)sizeof(double)) < 0) {
        goto done;
    }
    idf_obj = PyObject_CallOneArg(idf_of, df_bytes);
    if (idf_obj == NULL) {
        goto done;
    }
    if (PyObject_GetBuffer(idf_obj, &idf_view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        goto done;
    }
    if (idf_view.len != grams * (Py_ssize_t)sizeof(double) || idf_view.itemsize != 8 ||
        idf_view.format == NULL || strcmp(idf_view.format, "d") != 0) {
        PyErr_SetString(PyExc_ValueError,
                        "cider_d_scores: idf_of must return one float64 per document frequency");
        goto done;
    }
    const double *idf = (const double *)idf_view.buf;
    /* per image: the candidate's vector, then each reference's against it */
    int64_t most = order_offset(longest, n + 1) + 1;
    hdist = PyMem_Malloc((size_t)most * sizeof(int32_t));
    rdist = PyMem_Malloc((size_t)most * sizeof(int32_t));
    hwt = PyMem_Malloc((size_t)most * sizeof(double));
    rwt = PyMem_Malloc((size_t)most * sizeof(double));
    dist_off = PyMem_Malloc((size_t)(2 * (n + 1)) * sizeof(int64_t));
    out = PyBytes_FromStringAndSize(NULL, images * (Py_ssize_t)sizeof(double));
    if (hdist == NULL || rdist == NULL || hwt == NULL || rwt == NULL || dist_off == NULL ||
        out == NULL) {
        if (out != NULL) {
            PyErr_NoMemory();
        }
        goto done;
    }
    double *scores = (double *)PyBytes_AS_STRING(out);
    int64_t *hoff = dist_off, *roff = dist_off + n + 1;
    double hnorm[8], rnorm[8], score[8];
    for (Py_ssize_t i = 0; i < images; i++) {
        int64_t hlen = c.off[i + 1] - c.off[i];
        caption_vector(gpos + goff[i], hlen, n, idf, cnt, hdist, hwt, hoff, hnorm);
        int64_t length = n >= 2 && hlen >= 2 ? hlen - 1 : 0; /* the original counts bigrams */
        for (int k = 0; k < n; k++) {
            score[k] = 0.0;
        }
        for (int64_t r = ref_start[i]; r < ref_start[i + 1]; r++) {
            int64_t rlen = c.off[r + 1] - c.off[r];
            caption_vector(gpos + goff[r], rlen, n, idf, cnt, rdist, rwt, roff, rnorm);
            for (int64_t j = 0; j < roff[n]; j++) {
                rw[rdist[j]] = rwt[j];
            }
            int64_t length_ref = n >= 2 && rlen >= 2 ? rlen - 1 : 0;
            double delta = (double)(length - length_ref);
            /* CPython's float ** : pow() of the absolute value for a negative base */
            double penalty = pow(M_E, -pow(fabs(delta), 2.0) / denominator);
            for (int k = 0; k < n; k++) {
                double acc = 0.0;
                for (int64_t j = hoff[k]; j < hoff[k + 1]; j++) {
                    double weight = hwt[j], other = rw[hdist[j]];
                    /* a gram the reference lacks adds (+/-)0.0, which changes no sum */
                    acc += (weight < other ? weight : other) * other;
                }
                if (hnorm[k] != 0 && rnorm[k] != 0) {
                    acc /= hnorm[k] * rnorm[k];
                }
                score[k] += acc * penalty;
            }
            for (int64_t j = 0; j < roff[n]; j++) {
                rw[rdist[j]] = 0.0;
            }
        }
        double total = score[0];
        for (int k = 1; k < n; k++) {
            total += score[k];
        }
        double average = total / n;
        average /= (double)(ref_start[i + 1] - ref_start[i]);
        average *= 10.0;
        scores[i] = average;
    }
    result = out;
    out = NULL;
done:
    if (result == Py_None) {
        Py_INCREF(Py_None);
    }
    if (idf_view.obj != NULL) {
        PyBuffer_Release(&idf_view);
    }
    Py_XDECREF(idf_obj);
    Py_XDECREF(df_bytes);
    Py_XDECREF(out);
    Py_DECREF(hyps);
    Py_DECREF(refs);
    captions_free(&c);
    vocab_free(&v);
    grams_free(&t);
    FREE_EACH(ref_start, goff, gpos, stamp, cnt, rw, hdist, rdist, hwt, rwt, dist_off);
    return result;
}

/* ---- ROUGE-L -------------------------------------------------------------------------------- */

/* coco_rouge_l_scores(hypotheses, references, beta_squared) -> bytes | None */
PyObject *
coco_rouge_l_scores_c(PyObject *self, PyObject *args)
{
    PyObject *hyps_obj, *refs_obj;
    double b2;
    if (!PyArg_ParseTuple(args, "OOd:coco_rouge_l_scores", &hyps_obj, &refs_obj, &b2)) {
        return NULL;
    }
    PyObject *hyps, *refs;
    if (fast_pair(hyps_obj, refs_obj, "coco_rouge_l_scores", &hyps, &refs) < 0) {
        return NULL;
    }
    Py_ssize_t images = PySequence_Fast_GET_SIZE(hyps);
    PyObject *result = NULL, *out = NULL;
    Captions c = {0};
    Vocab v = {0};
    LcsWork w = {0};
    int64_t *ref_start = NULL;
    int rc = read_captions(hyps, refs, 1, &c, &v, &ref_start);
    if (rc != 0) {
        result = rc > 0 ? Py_None : NULL;
        goto done;
    }
    out = PyBytes_FromStringAndSize(NULL, images * (Py_ssize_t)sizeof(double));
    if (out == NULL) {
        goto done;
    }
    double *scores = (double *)PyBytes_AS_STRING(out);
    for (Py_ssize_t i = 0; i < images; i++) {
        const int32_t *hyp = c.ids.v + c.off[i];
        Py_ssize_t nh = (Py_ssize_t)(c.off[i + 1] - c.off[i]); /* >= 1: split(" ") */
        double best_p = 0.0, best_r = 0.0;
        for (int64_t r = ref_start[i]; r < ref_start[i + 1]; r++) {
            const int32_t *ref = c.ids.v + c.off[r];
            Py_ssize_t nr = (Py_ssize_t)(c.off[r + 1] - c.off[r]);
            Py_ssize_t lcs = lcs_length_core(&w, ref, nr, hyp, nh, v.n);
            if (lcs < 0) {
                goto done;
            }
            double precision = (double)lcs / (double)nh;
            double recall = (double)lcs / (double)nr;
            best_p = precision > best_p ? precision : best_p;
            best_r = recall > best_r ? recall : best_r;
        }
        if (best_p != 0 && best_r != 0) {
            scores[i] = ((1 + b2) * best_p * best_r) / (best_r + b2 * best_p);
        }
        else {
            scores[i] = 0.0;
        }
    }
    result = out;
    out = NULL;
done:
    if (result == Py_None) {
        Py_INCREF(Py_None);
    }
    Py_XDECREF(out);
    Py_DECREF(hyps);
    Py_DECREF(refs);
    captions_free(&c);
    vocab_free(&v);
    lcs_work_free(&w);
    PyMem_Free(ref_start);
    return result;
}
