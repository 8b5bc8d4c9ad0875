/*
 * BLEU statistics rows of a chunk of lines in one call (bleu_rows): sacrebleu's tokenizers
 * (texttok.c), n-gram counts up to the maximum order, each hypothesis n-gram clipped by its
 * highest count in any one reference, and the reference length closest to the hypothesis length
 * (the shorter on a tie). The pure-Python twin is meteor_eval.stats.bleu.bleu_segment_stats over
 * meteor_eval.metrics.bleu.Bleu.tokenize; rows come out as int64 in the same column order
 * (sys_len, ref_len, counts_1..N, totals_1..N).
 *
 * The n-grams of one segment live in an open-addressing table of (hash, position, order)
 * entries compared by their ids, cleared entry by entry after the segment.
 */

#include "rows.h"

void
gram_table_free(GramTable *t)
{
    FREE_EACH(t->slots, t->used);
    memset(t, 0, sizeof(*t));
}

int
gram_table_reserve(GramTable *t, Py_ssize_t entries)
{
    size_t size = t->mask ? t->mask + 1 : 0;
    if (size >= (size_t)entries * 2 + 16 && t->cap_used >= entries) {
        return 0;
    }
    size_t want = 64;
    while (want < (size_t)entries * 2 + 16) {
        want *= 2;
    }
    if (want > size) {
        PyMem_Free(t->slots);
        t->slots = PyMem_Calloc(want, sizeof(Gram));
        if (t->slots == NULL) {
            t->mask = 0;
            PyErr_NoMemory();
            return -1;
        }
        t->mask = want - 1;
    }
    if (t->cap_used < entries) {
        PyMem_Free(t->used);
        t->used = PyMem_Malloc((size_t)(entries + 1) * sizeof(Py_ssize_t));
        if (t->used == NULL) {
            t->cap_used = 0;
            PyErr_NoMemory();
            return -1;
        }
        t->cap_used = entries;
    }
    t->n_used = 0;
    return 0;
}

Gram *
gram_find(GramTable *t, const int32_t *p, int32_t n, uint64_t h)
{
    size_t idx = (size_t)h & t->mask;
    for (;;) {
        Gram *g = &t->slots[idx];
        if (g->p == NULL) {
            g->h = h;
            g->p = p;
            g->n = n;
            g->limit = g->cur = g->hyp = 0;
            g->last = -1;
            t->used[t->n_used++] = (Py_ssize_t)idx;
            return g;
        }
        if (g->h == h && g->n == n && memcmp(g->p, p, (size_t)n * sizeof(int32_t)) == 0) {
            return g;
        }
        idx = (idx + 1) & t->mask;
    }
}

void
gram_table_clear(GramTable *t)
{
    for (Py_ssize_t k = 0; k < t->n_used; k++) {
        t->slots[t->used[k]].p = NULL;
    }
    t->n_used = 0;
}

/* Statistics of one segment: tokens hyp[0..nh), references ref[off[r]..off[r+1]). */
static int
bleu_segment(GramTable *t, const int32_t *hyp, Py_ssize_t nh, const int32_t *ref,
             const Py_ssize_t *off, Py_ssize_t nrefs, int order, int64_t *row)
{
    Py_ssize_t entries = nh * order;
    for (Py_ssize_t r = 0; r < nrefs; r++) {
        entries += (off[r + 1] - off[r]) * order;
    }
    if (gram_table_reserve(t, entries) < 0) {
        return -1;
    }
    int64_t *counts = row + 2, *totals = row + 2 + order;
    for (int n = 0; n < order; n++) {
        counts[n] = totals[n] = 0;
    }
    Py_ssize_t best_diff = -1, best_len = 0;
    for (Py_ssize_t r = 0; r < nrefs; r++) {
        const int32_t *tok = ref + off[r];
        Py_ssize_t len = off[r + 1] - off[r];
        Py_ssize_t diff = nh > len ? nh - len : len - nh;
        if (best_diff == -1 || diff < best_diff || (diff == best_diff && len < best_len)) {
            best_diff = diff;
            best_len = len;
        }
        for (Py_ssize_t i = 0; i < len; i++) {
            uint64_t h = 0;
            for (int n = 1; n <= order && i + n <= len; n++) {
                h = gram_mix(h, tok[i + n - 1]);
                Gram *g = gram_find(t, tok + i, n, h);
                if (g->last != (int32_t)r) {
                    g->last = (int32_t)r;
                    g->cur = 0;
                }
                if (++g->cur > g->limit) {
                    g->limit = g->cur;
                }
            }
        }
    }
    for (Py_ssize_t i = 0; i < nh; i++) {
        uint64_t h = 0;
        for (int n = 1; n <= order && i + n <= nh; n++) {
            h = gram_mix(h, hyp[i + n - 1]);
            Gram *g = gram_find(t, hyp + i, n, h);
            g->hyp++;
            totals[n - 1]++;
            if (g->hyp <= g->limit) {
                counts[n - 1]++;
            }
        }
    }
    gram_table_clear(t);
    row[0] = nh;
    row[1] = best_len;
    return 0;
}

/* One segment's token ids: the hypothesis's, and its references' one after another, reference
 * r being ref.v[off[r] .. off[r + 1]). */
typedef struct {
    int kind;
    TokWork w;
    Vocab v;
    Ids hyp, ref;
    Py_ssize_t *off, cap_off;
} Lines;

/* The RowLineReader of bleu_rows(): tokens of line k of a segment (a str, else -2). */
static int
read_line(void *ctx, PyObject *obj, Py_ssize_t k)
{
    Lines *x = ctx;
    const Py_UCS4 *s;
    Py_ssize_t n;
    const int status = row_line_ucs4(obj, &x->w.in, &s, &n);
    if (status < 0) {
        return status;
    }
    if (k == 0) {
        x->hyp.n = x->ref.n = 0;
        x->off[0] = 0;
        return text_tokens(x->kind, s, n, &x->w, &x->v, &x->hyp);
    }
    const int rc = text_tokens(x->kind, s, n, &x->w, &x->v, &x->ref);
    x->off[k] = x->ref.n;
    return rc;
}

/* bleu_rows(hypotheses, references, kind, order) -> bytes | None */
PyObject *
bleu_rows_c(PyObject *self, PyObject *args)
{
    PyObject *hyps_obj, *refs_obj;
    int kind, order;
    if (!PyArg_ParseTuple(args, "OOii:bleu_rows", &hyps_obj, &refs_obj, &kind, &order)) {
        return NULL;
    }
    if (kind < TOK_13A || kind > TOK_NONE || order < 1 || order > 64) {
        PyErr_SetString(PyExc_ValueError, "bleu_rows: bad tokenizer or order");
        return NULL;
    }
    Py_ssize_t width = 2 + 2 * (Py_ssize_t)order;
    RowChunk c;
    int outcome = ROWS_ERROR;
    Lines x = {.kind = kind};
    GramTable t = {0};
    if (row_chunk_open(&c, "bleu_rows", hyps_obj, refs_obj, width, sizeof(int64_t)) < 0) {
        goto done;
    }
    int64_t *rows = (int64_t *)c.rows;
    for (Py_ssize_t i = 0; i < c.n; i++) {
        const Py_ssize_t nrefs = row_chunk_segment(&c, i, &outcome, (void **)&x.off, &x.cap_off,
                                                   sizeof(*x.off), read_line, &x);
        if (nrefs < 0 ||
            bleu_segment(&t, x.hyp.v, x.hyp.n, x.ref.v, x.off, nrefs, order, rows + i * width) < 0) {
            goto done;
        }
    }
    outcome = ROWS_DONE;
done:
    tokwork_free(&x.w);
    vocab_free(&x.v);
    FREE_EACH(x.hyp.v, x.ref.v, x.off);
    gram_table_free(&t);
    return row_chunk_close(&c, outcome);
}
