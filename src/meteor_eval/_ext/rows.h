/*
 * The frame shared by the chunk kernels that turn lines into statistics rows (bleu.c's
 * bleu_rows, rouge.c's rouge_rows): the hypotheses and the reference groups as fast sequences of
 * one length, the rows in one new bytes object, each segment's reference group checked, and the
 * release of all of it. An item of the wrong type or a segment without references makes the
 * kernel return None, so that the caller names the problem (it knows the files and lines).
 */

#ifndef METEOR_EVAL_ROWS_H
#define METEOR_EVAL_ROWS_H

#include "kernels.h"

typedef struct {
    PyObject *hyps, *refs; /* fast sequences */
    PyObject *out;         /* the rows, until the kernel hands them over */
    char *rows;            /* out's bytes */
    Py_ssize_t n;          /* segments */
} RowChunk;

/* How a kernel ends: with an error set, with its rows, or with None (a segment refused). */
enum { ROWS_ERROR, ROWS_DONE, ROWS_REFUSED };

/* Open the chunk of kernel (its name starts the error messages): a row of width items of
 * item bytes per segment. On failure (-1, error set) row_chunk_close() still releases what was
 * made. */
static inline int
row_chunk_open(RowChunk *c, const char *kernel, PyObject *hyps_obj, PyObject *refs_obj,
               Py_ssize_t width, size_t item)
{
    char hyp_message[96], ref_message[96];
    memset(c, 0, sizeof(*c));
    PyOS_snprintf(hyp_message, sizeof(hyp_message), "%s: hypotheses must be a sequence", kernel);
    PyOS_snprintf(ref_message, sizeof(ref_message), "%s: references must be a sequence", kernel);
    if (fast_sides(hyps_obj, refs_obj, hyp_message, ref_message, &c->hyps, &c->refs) < 0) {
        return -1;
    }
    c->n = PySequence_Fast_GET_SIZE(c->hyps);
    if (PySequence_Fast_GET_SIZE(c->refs) != c->n) {
        PyErr_Format(PyExc_ValueError, "%s: as many reference groups as hypotheses", kernel);
        return -1;
    }
    c->out = PyBytes_FromStringAndSize(NULL, c->n * width * (Py_ssize_t)item);
    if (c->out == NULL) {
        return -1;
    }
    c->rows = PyBytes_AS_STRING(c->out);
    return 0;
}

/* The reference group of segment i (borrowed) and its size, with room made in *texts (*cap
 * items of item bytes now) for one text per line of the segment: its hypothesis and each
 * reference. NULL when the group is not a list or tuple of references or is empty (no error
 * set, *outcome set to ROWS_REFUSED) or when memory runs out (error set). */
static inline PyObject *
row_chunk_group(const RowChunk *c, Py_ssize_t i, Py_ssize_t *nrefs, int *outcome, void **texts,
                Py_ssize_t *cap, size_t item)
{
    PyObject *group = PySequence_Fast_GET_ITEM(c->refs, i);
    *nrefs = 0;
    if (!PyUnicode_Check(group) && (PyList_Check(group) || PyTuple_Check(group))) {
        *nrefs = PySequence_Fast_GET_SIZE(group);
    }
    if (*nrefs == 0) {
        *outcome = ROWS_REFUSED;
        return NULL;
    }
    if (grow(texts, cap, *nrefs + 1, item) < 0) {
        return NULL;
    }
    return group;
}

/* A kernel's reader of one line of a segment into its own state ctx: line k is the hypothesis
 * (k = 0, read first) or reference k (1 .. nrefs). 0, -1 with an error set, or -2 for an item
 * the kernel refuses. */
typedef int (*RowLineReader)(void *ctx, PyObject *text, Py_ssize_t k);

/* A line item's code points for a RowLineReader (read_ucs4() into buf, or in place): 0, -2 when
 * the item is not a str (the kernel refuses it), or -1 with an error set. */
static inline int
row_line_ucs4(PyObject *obj, U4 *buf, const Py_UCS4 **s, Py_ssize_t *n)
{
    if (!PyUnicode_Check(obj)) {
        return -2;
    }
    *s = read_ucs4(obj, buf, n);
    return *s == NULL ? -1 : 0;
}

/* Read every line of segment i with read(), after making room in *texts as row_chunk_group()
 * does: the number of references, or -1 when the kernel must stop: with an error set, or with
 * *outcome set to ROWS_REFUSED (a refused group or item, no error). */
static inline Py_ssize_t
row_chunk_segment(const RowChunk *c, Py_ssize_t i, int *outcome, void **texts, Py_ssize_t *cap,
                  size_t item, RowLineReader read, void *ctx)
{
    Py_ssize_t nrefs;
    PyObject *group = row_chunk_group(c, i, &nrefs, outcome, texts, cap, item);
    if (group == NULL) {
        return -1;
    }
    int rc = read(ctx, PySequence_Fast_GET_ITEM(c->hyps, i), 0);
    for (Py_ssize_t r = 0; rc == 0 && r < nrefs; r++) {
        rc = read(ctx, PySequence_Fast_ITEMS(group)[r], r + 1);
    }
    if (rc == -2) {
        *outcome = ROWS_REFUSED;
    }
    return rc < 0 ? -1 : nrefs;
}

/* The kernel's return value for its outcome; the chunk's references are released. */
static inline PyObject *
row_chunk_close(RowChunk *c, int outcome)
{
    PyObject *result = NULL;
    if (outcome == ROWS_DONE) {
        result = c->out;
        c->out = NULL;
    }
    else if (outcome == ROWS_REFUSED) {
        result = Py_None;
        Py_INCREF(result);
    }
    Py_XDECREF(c->out);
    Py_XDECREF(c->hyps);
    Py_XDECREF(c->refs);
    memset(c, 0, sizeof(*c));
    return result;
}

#endif /* METEOR_EVAL_ROWS_H */
