/*
 * ROUGE-N, ROUGE-L and ROUGE-Lsum statistics rows of a chunk of lines in one call (rouge_rows),
 * as rouge-score computes them: its tokenizer (texttok.c) with the optional Porter stemmer (a
 * Python callable, called once per distinct token of the chunk), clipped n-gram matches, the LCS
 * length (lcs.c, bit-parallel) and the summary-level union LCS with unigram clipping (lcs.c's
 * backtrack in little memory). Several references keep the best F-measure (the first on a tie,
 * score_multi) or pool the counts (multi_ref "average"). The pure-Python twin is
 * meteor_eval.metrics.rouge.Rouge with meteor_eval.stats.rouge; each variant's seven numbers
 * (hits, hyp_count, ref_count, precision, recall, fmeasure, 1) come out as float64 with the
 * same operations in the same order, so the rows are bit-identical.
 */

#include "rows.h"

/* One text: tokens tok[t0..t1), sentences sent[s0..s1] (token offsets, s1 - s0 sentences). */
typedef struct {
    Py_ssize_t t0, t1, s0, s1;
} Text;

typedef struct {
    Ids tok;
    Py_ssize_t *sent;
    Py_ssize_t n_sent, cap_sent;
} Texts;

static int
sent_push(Texts *x, Py_ssize_t value)
{
    if (reserve((void **)&x->sent, &x->cap_sent, x->n_sent + 1, 64, sizeof(Py_ssize_t)) < 0) {
        return -1;
    }
    x->sent[x->n_sent++] = value;
    return 0;
}

typedef struct {
    TokWork w;
    Vocab v;
    PyObject *stem; /* callable or NULL */
    const Py_UCS4 *sep;
    Py_ssize_t n_sep;
} Reader;

static int32_t
stemmed(Reader *rd, int32_t id)
{
    Vocab *v = &rd->v;
    if (v->len[id] <= 3) {
        return id;
    }
    if (id >= v->stem_cap) {
        int32_t cap = v->stem_cap ? v->stem_cap : 1024;
        while (cap <= id) {
            cap *= 2;
        }
        int32_t *p = PyMem_Realloc(v->stem, (size_t)cap * sizeof(int32_t));
        if (p == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        for (int32_t k = v->stem_cap; k < cap; k++) {
            p[k] = -1;
        }
        v->stem = p;
        v->stem_cap = cap;
    }
    if (v->stem[id] >= 0) {
        return v->stem[id];
    }
    PyObject *word = vocab_str(v, id);
    if (word == NULL) {
        return -1;
    }
    PyObject *out = PyObject_CallOneArg(rd->stem, word);
    Py_DECREF(word);
    if (out == NULL) {
        return -1;
    }
    if (!PyUnicode_Check(out)) {
        Py_DECREF(out);
        PyErr_SetString(PyExc_TypeError, "rouge_rows: the stemmer must return a str");
        return -1;
    }
    Py_ssize_t n;
    U4 buf = {0};
    const Py_UCS4 *s = read_ucs4(out, &buf, &n);
    int32_t sid = s == NULL ? -1 : vocab_id(v, s, n);
    PyMem_Free(buf.buf);
    Py_DECREF(out);
    if (sid < 0) {
        return -1;
    }
    /* vocab_id may have grown the vocabulary, not the stem array; id < stem_cap still holds */
    v->stem[id] = sid;
    return sid;
}

/* Split a str on the separator (str.split(sep)), drop empty parts, tokenize each part. */
static int
read_text(Reader *rd, PyObject *obj, int kind, Texts *x, Text *t)
{
    const Py_UCS4 *s;
    Py_ssize_t n;
    const int status = row_line_ucs4(obj, &rd->w.in, &s, &n);
    if (status < 0) {
        return status;
    }
    t->t0 = x->tok.n;
    t->s0 = x->n_sent;
    Py_ssize_t start = 0, k = 0, ns = rd->n_sep;
    while (k <= n) {
        int at_sep = 0;
        if (k + ns <= n && s[k] == rd->sep[0]) {
            at_sep = memcmp(s + k, rd->sep, (size_t)ns * sizeof(Py_UCS4)) == 0;
        }
        if (at_sep || k == n) {
            if (k > start) {
                if (sent_push(x, x->tok.n) < 0) {
                    return -1;
                }
                Py_ssize_t before = x->tok.n;
                if (text_tokens(kind, s + start, k - start, &rd->w, &rd->v, &x->tok) < 0) {
                    return -1;
                }
                if (rd->stem != NULL) {
                    for (Py_ssize_t q = before; q < x->tok.n; q++) {
                        int32_t id = stemmed(rd, x->tok.v[q]);
                        if (id < 0) {
                            return -1;
                        }
                        x->tok.v[q] = id;
                    }
                }
            }
            if (k == n) {
                break;
            }
            k += ns;
            start = k;
            continue;
        }
        k++;
    }
    t->t1 = x->tok.n;
    t->s1 = x->n_sent;
    return 0;
}

typedef struct {
    GramTable grams;
    LcsWork lcs;
    int32_t *hyp_left, *ref_left;
    Py_ssize_t n_left;
    unsigned char *picked;
    Py_ssize_t n_picked;
} Scratch;

static double
ngram_hits(Scratch *sc, const int32_t *h, Py_ssize_t nh, const int32_t *r, Py_ssize_t nr, int n)
{
    if (nh < n || nr < n) {
        return 0.0;
    }
    if (gram_table_reserve(&sc->grams, nh + nr) < 0) {
        return -1.0;
    }
    GramTable *t = &sc->grams;
    for (Py_ssize_t i = 0; i + n <= nr; i++) {
        uint64_t hash = 0;
        for (int q = 0; q < n; q++) {
            hash = gram_mix(hash, r[i + q]);
        }
        gram_find(t, r + i, n, hash)->limit++;
    }
    int64_t hits = 0;
    for (Py_ssize_t i = 0; i + n <= nh; i++) {
        uint64_t hash = 0;
        for (int q = 0; q < n; q++) {
            hash = gram_mix(hash, h[i + q]);
        }
        Gram *g = gram_find(t, h + i, n, hash);
        if (++g->hyp <= g->limit) {
            hits++;
        }
    }
    gram_table_clear(t);
    return (double)hits;
}

static int
left_reserve(Scratch *sc, int32_t vocab)
{
    if (vocab <= sc->n_left) {
        return 0;
    }
    Py_ssize_t cap = sc->n_left ? sc->n_left : 1024;
    while (cap < vocab) {
        cap *= 2;
    }
    PyMem_Free(sc->hyp_left);
    PyMem_Free(sc->ref_left);
    sc->hyp_left = PyMem_Calloc((size_t)cap, sizeof(int32_t));
    sc->ref_left = PyMem_Calloc((size_t)cap, sizeof(int32_t));
    if (sc->hyp_left == NULL || sc->ref_left == NULL) {
        sc->n_left = 0;
        PyErr_NoMemory();
        return -1;
    }
    sc->n_left = cap;
    return 0;
}

/* rouge-score's _summary_level_lcs: union LCS per reference sentence, clipped by counts. */
static double
summary_hits(Scratch *sc, const int32_t *tok, const Texts *x, const Text *hyp, const Text *ref,
             int32_t vocab)
{
    Py_ssize_t nh = hyp->t1 - hyp->t0, nr = ref->t1 - ref->t0;
    if (nh == 0 || nr == 0) {
        return 0.0;
    }
    if (left_reserve(sc, vocab) < 0) {
        return -1.0;
    }
    for (Py_ssize_t q = hyp->t0; q < hyp->t1; q++) {
        sc->hyp_left[tok[q]]++;
    }
    for (Py_ssize_t q = ref->t0; q < ref->t1; q++) {
        sc->ref_left[tok[q]]++;
    }
    int64_t hits = 0;
    int failed = 0;
    for (Py_ssize_t rs = ref->s0; rs < ref->s1 && !failed; rs++) {
        Py_ssize_t a0 = x->sent[rs], a1 = rs + 1 < ref->s1 ? x->sent[rs + 1] : ref->t1;
        Py_ssize_t na = a1 - a0;
        if (na + 1 > sc->n_picked) {
            PyMem_Free(sc->picked);
            sc->n_picked = 2 * (na + 1);
            sc->picked = PyMem_Malloc((size_t)sc->n_picked);
            if (sc->picked == NULL) {
                sc->n_picked = 0;
                PyErr_NoMemory();
                failed = 1;
                break;
            }
        }
        memset(sc->picked, 0, (size_t)na);
        for (Py_ssize_t hs = hyp->s0; hs < hyp->s1; hs++) {
            Py_ssize_t b0 = x->sent[hs], b1 = hs + 1 < hyp->s1 ? x->sent[hs + 1] : hyp->t1;
            if (lcs_picks_core(&sc->lcs, tok + a0, na, tok + b0, b1 - b0, vocab, sc->picked) <
                0) {
                failed = 1;
                break;
            }
        }
        for (Py_ssize_t i = 0; i < na && !failed; i++) {
            int32_t id = tok[a0 + i];
            if (sc->picked[i] && sc->hyp_left[id] > 0 && sc->ref_left[id] > 0) {
                hits++;
                sc->hyp_left[id]--;
                sc->ref_left[id]--;
            }
        }
    }
    for (Py_ssize_t q = hyp->t0; q < hyp->t1; q++) {
        sc->hyp_left[tok[q]] = 0;
    }
    for (Py_ssize_t q = ref->t0; q < ref->t1; q++) {
        sc->ref_left[tok[q]] = 0;
    }
    return failed ? -1.0 : (double)hits;
}

static void
prf(const double t[3], double out[7])
{
    double p = t[1] > 0 ? t[0] / t[1] : 0.0;
    double r = t[2] > 0 ? t[0] / t[2] : 0.0;
    out[0] = t[0];
    out[1] = t[1];
    out[2] = t[2];
    out[3] = p;
    out[4] = r;
    out[5] = p + r > 0 ? 2 * p * r / (p + r) : 0.0;
    out[6] = 1.0;
}

/* Where rouge_rows() reads a segment's lines: its texts in x, line k's spans in texts[k]. */
typedef struct {
    Reader *rd;
    Texts *x;
    Text **texts;
} Lines;

/* The RowLineReader of rouge_rows(). */
static int
read_line(void *ctx, PyObject *obj, Py_ssize_t k)
{
    Lines *l = ctx;
    if (k == 0) {
        l->x->tok.n = 0;
        l->x->n_sent = 0;
    }
    return read_text(l->rd, obj, TOK_ROUGE, l->x, &(*l->texts)[k]);
}

/* rouge_rows(hypotheses, references, variants, separator, stem, average) -> bytes | None */
PyObject *
rouge_rows_c(PyObject *self, PyObject *args)
{
    PyObject *hyps_obj, *refs_obj, *variants_obj, *sep_obj, *stem_obj;
    int average;
    if (!PyArg_ParseTuple(args, "OOOUOp:rouge_rows", &hyps_obj, &refs_obj, &variants_obj,
                          &sep_obj, &stem_obj, &average)) {
        return NULL;
    }
    if (PyUnicode_GET_LENGTH(sep_obj) == 0) {
        PyErr_SetString(PyExc_ValueError, "rouge_rows: empty separator");
        return NULL;
    }
    RowChunk c = {0};
    int outcome = ROWS_ERROR;
    int variants[64];
    Py_ssize_t nv = 0;
    Reader rd = {0};
    Texts x = {0};
    Scratch sc = {0};
    Text *texts = NULL;
    Py_ssize_t cap_texts = 0;
    U4 sep_buf = {0};
    PyObject *vfast = PySequence_Fast(variants_obj, "rouge_rows: variants must be a sequence");
    if (vfast == NULL) {
        return NULL;
    }
    nv = PySequence_Fast_GET_SIZE(vfast);
    if (nv < 1 || nv > 64) {
        PyErr_SetString(PyExc_ValueError, "rouge_rows: 1 to 64 variants");
        Py_DECREF(vfast);
        return NULL;
    }
    for (Py_ssize_t k = 0; k < nv; k++) {
        long code = PyLong_AsLong(PySequence_Fast_GET_ITEM(vfast, k));
        if ((code == -1 && PyErr_Occurred()) || code < -1 || code > 1000000) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_ValueError, "rouge_rows: variant codes are -1, 0 or N");
            }
            Py_DECREF(vfast);
            return NULL;
        }
        variants[k] = (int)code;
    }
    Py_DECREF(vfast);
    rd.stem = stem_obj == Py_None ? NULL : stem_obj;
    rd.sep = read_ucs4(sep_obj, &sep_buf, &rd.n_sep);
    if (rd.sep == NULL) {
        goto done;
    }
    Py_ssize_t width = 7 * nv;
    if (row_chunk_open(&c, "rouge_rows", hyps_obj, refs_obj, width, sizeof(double)) < 0) {
        goto done;
    }
    double *rows = (double *)c.rows;
    Lines lines = {&rd, &x, &texts};
    for (Py_ssize_t i = 0; i < c.n; i++) {
        const Py_ssize_t nrefs = row_chunk_segment(&c, i, &outcome, (void **)&texts, &cap_texts,
                                                   sizeof(*texts), read_line, &lines);
        if (nrefs < 0) {
            goto done;
        }
        const int32_t *tok = x.tok.v;
        const Text *hyp = &texts[0];
        Py_ssize_t nh = hyp->t1 - hyp->t0;
        for (Py_ssize_t k = 0; k < nv; k++) {
            int code = variants[k];
            double best[3] = {0.0, 0.0, 0.0}, sum[3] = {0.0, 0.0, 0.0}, best_f = -1.0;
            for (Py_ssize_t r = 0; r < nrefs; r++) {
                const Text *ref = &texts[r + 1];
                Py_ssize_t nr = ref->t1 - ref->t0;
                double t[3];
                if (code >= 1) {
                    t[0] = ngram_hits(&sc, tok + hyp->t0, nh, tok + ref->t0, nr, code);
                    t[1] = (double)(nh - code + 1 > 0 ? nh - code + 1 : 0);
                    t[2] = (double)(nr - code + 1 > 0 ? nr - code + 1 : 0);
                }
                else if (code == 0) {
                    Py_ssize_t len = lcs_length_core(&sc.lcs, tok + ref->t0, nr, tok + hyp->t0,
                                                     nh, rd.v.n);
                    t[0] = (double)len;
                    t[1] = (double)nh;
                    t[2] = (double)nr;
                }
                else {
                    t[0] = summary_hits(&sc, tok, &x, hyp, ref, rd.v.n);
                    t[1] = (double)nh;
                    t[2] = (double)nr;
                }
                if (t[0] < 0) {
                    goto done;
                }
                if (average) {
                    sum[0] += t[0];
                    sum[1] += t[1];
                    sum[2] += t[2];
                }
                else {
                    double row7[7];
                    prf(t, row7);
                    if (row7[5] > best_f) {
                        best_f = row7[5];
                        best[0] = t[0];
                        best[1] = t[1];
                        best[2] = t[2];
                    }
                }
            }
            prf(average ? sum : best, rows + i * width + 7 * k);
        }
    }
    outcome = ROWS_DONE;
done:
    FREE_EACH(sep_buf.buf, x.tok.v, x.sent, texts, sc.hyp_left, sc.ref_left, sc.picked);
    tokwork_free(&rd.w);
    vocab_free(&rd.v);
    gram_table_free(&sc.grams);
    lcs_work_free(&sc.lcs);
    return row_chunk_close(&c, outcome);
}
