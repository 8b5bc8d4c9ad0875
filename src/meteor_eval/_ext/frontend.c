/*
 * METEOR 1.5's front end for a chunk of lines, from text to word-type ids in one call:
 *
 *   meteor15_token_cache()  an empty token cache (a capsule) for meteor15_tokens();
 *   meteor15_tokens(lines, mode, keep_punctuation, prefixes, lower, known, cache)
 *                           -> (ids, offsets, new_words)
 *
 * Each line is normalised as normalize_line() does (normalize.c, on grow-only buffers shared by
 * the whole chunk), lower-cased as the jar does (String.toLowerCase: done here for a normalised
 * line of ASCII code points; a line with any other code point is passed to `lower`, the
 * Python java_lower, which knows Java's final sigma and Unicode version), split at every ASCII
 * space as text.tokenize.preprocess splits it, and each token is interned. This is
 * FastPipeline's Python front end (metrics/meteor/fast.py, tokens_python), step for step.
 *
 * ids (bytes of native int32) holds the word-type id of every token, line k's tokens being
 * ids[offsets[k] .. offsets[k + 1]) (offsets: bytes of native int64, len(lines) + 1 values).
 * Word-type ids come from `known`, a dict str -> int whose values are 0 .. len(known) - 1 (a
 * WordTypes table, read without calling its __missing__). A token that is not in it gets the id
 * len(known) + k, k being its rank among the call's new word types in order of first
 * appearance, and new_words lists those types in that order: the caller appends them to `known`
 * before the ids are used, or discards the cache.
 *
 * The cache remembers the id of every token it has seen, so that a word type met again costs
 * one hash probe over its code points and no Python object; `known` is looked up (with one str
 * made) once per distinct token in the cache's life. A cache belongs to one `known` table and
 * to the new words it has handed out: it is discarded with the table, and whenever the new
 * words of a call are not appended (the caller holds the table's lock from this call until
 * they are, so that no other id is given meanwhile). After an exception the cache may hold a
 * token without its id: the caller discards it.
 */

#include "kernels.h"

#define CACHE_NAME "meteor_eval.meteor15_token_cache"

typedef struct {
    Vocab vocab;  /* token -> dense cache id */
    int32_t *wid; /* word-type id of each cache id */
    Py_ssize_t wid_cap;
} TokenCache;

static void
token_cache_destroy(PyObject *capsule)
{
    TokenCache *c = PyCapsule_GetPointer(capsule, CACHE_NAME);
    if (c != NULL) {
        vocab_free(&c->vocab);
        PyMem_Free(c->wid);
        PyMem_Free(c);
    }
}

PyObject *
meteor15_token_cache_c(PyObject *self, PyObject *unused)
{
    return calloc_capsule(sizeof(TokenCache), CACHE_NAME, token_cache_destroy);
}

/* The word-type id of token s[0..n), interning it as described above; -1 with an exception. */
static int64_t
token_id(TokenCache *c, const Py_UCS4 *s, Py_ssize_t n, PyObject *known, Py_ssize_t base,
         PyObject *new_words)
{
    const int32_t seen = c->vocab.n;
    const int32_t vid = vocab_id(&c->vocab, s, n);
    if (vid < 0) {
        return -1;
    }
    if (vid < seen) {
        return c->wid[vid];
    }
    /* A token the cache had not seen: its id from `known`, or the next new id. */
    if (grow((void **)&c->wid, &c->wid_cap, (Py_ssize_t)vid + 1, sizeof(int32_t)) < 0) {
        return -1;
    }
    PyObject *word = vocab_str(&c->vocab, vid);
    if (word == NULL) {
        return -1;
    }
    int64_t id;
    PyObject *found = PyDict_GetItemWithError(known, word);
    if (found != NULL) {
        id = PyLong_AsLongLong(found);
        if (id == -1 && PyErr_Occurred()) {
            Py_DECREF(word);
            return -1;
        }
        if (id < 0 || id >= base) {
            PyErr_SetString(PyExc_ValueError, "known: ids must be 0 .. len(known) - 1");
            Py_DECREF(word);
            return -1;
        }
    }
    else if (PyErr_Occurred()) {
        Py_DECREF(word);
        return -1;
    }
    else {
        id = base + PyList_GET_SIZE(new_words);
        if (id > INT32_MAX || PyList_Append(new_words, word) < 0) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_OverflowError, "meteor15_tokens: too many word types");
            }
            Py_DECREF(word);
            return -1;
        }
    }
    Py_DECREF(word);
    c->wid[vid] = (int32_t)id;
    return id;
}

PyObject *
meteor15_tokens_c(PyObject *self, PyObject *args)
{
    PyObject *lines, *prefixes, *lower, *known, *capsule;
    int mode, keep_punctuation;
    if (!PyArg_ParseTuple(args, "OipO!OO!O:meteor15_tokens", &lines, &mode, &keep_punctuation,
                          &PyDict_Type, &prefixes, &lower, &PyDict_Type, &known, &capsule)) {
        return NULL;
    }
    if (mode < 0 || mode > 2) {
        PyErr_SetString(PyExc_ValueError, "mode: expected 0 (English), 1 (French) or 2");
        return NULL;
    }
    if (!PyCallable_Check(lower)) {
        PyErr_SetString(PyExc_TypeError, "lower: expected a callable");
        return NULL;
    }
    if (!PyCapsule_IsValid(capsule, CACHE_NAME)) {
        PyErr_SetString(PyExc_TypeError, "cache: expected a meteor15_token_cache()");
        return NULL;
    }
    TokenCache *cache = PyCapsule_GetPointer(capsule, CACHE_NAME);
    PyObject *seq = PySequence_Fast(lines, "lines: expected a sequence of str");
    if (seq == NULL) {
        return NULL;
    }
    const Py_ssize_t n_lines = PySequence_Fast_GET_SIZE(seq);
    const Py_ssize_t base = PyDict_GET_SIZE(known);
    UcsBuf line = {NULL, 0, 0}, tmp = {NULL, 0, 0};
    U4 lowered = {NULL, 0};
    Ids ids = {NULL, 0, 0};
    PyObject *result = NULL, *offsets = NULL, *ids_bytes = NULL;
    PyObject *new_words = PyList_New(0);
    if (new_words == NULL) {
        goto done;
    }
    offsets = PyBytes_FromStringAndSize(NULL, (n_lines + 1) * (Py_ssize_t)sizeof(int64_t));
    if (offsets == NULL) {
        goto done;
    }
    int64_t *off = (int64_t *)PyBytes_AS_STRING(offsets);
    off[0] = 0;
    for (Py_ssize_t k = 0; k < n_lines; k++) {
        PyObject *text = PySequence_Fast_GET_ITEM(seq, k);
        if (!PyUnicode_Check(text)) {
            PyErr_Format(PyExc_TypeError, "lines[%zd]: expected a str, got %.100s", k,
                         Py_TYPE(text)->tp_name);
            goto done;
        }
        Py_ssize_t start, end;
        if (normalize_ucs4(text, mode, keep_punctuation, prefixes, &line, &tmp, &start, &end) <
            0) {
            goto done;
        }
        const Py_UCS4 *p = line.p + start;
        Py_ssize_t n = end - start;
        Py_UCS4 high = 0;
        for (Py_ssize_t j = 0; j < n; j++) {
            high |= p[j];
        }
        PyObject *held = NULL; /* java_lower's result, when p points into it */
        if (high < 0x80) {
            Py_UCS4 *w = line.p + start;
            for (Py_ssize_t j = 0; j < n; j++) {
                w[j] += (w[j] >= 'A' && w[j] <= 'Z') ? 'a' - 'A' : 0;
            }
        }
        else {
            PyObject *normalised = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, p, n);
            if (normalised == NULL) {
                goto done;
            }
            held = PyObject_CallOneArg(lower, normalised);
            Py_DECREF(normalised);
            if (held == NULL) {
                goto done;
            }
            if (!PyUnicode_Check(held)) {
                PyErr_SetString(PyExc_TypeError, "lower: expected it to return a str");
                Py_DECREF(held);
                goto done;
            }
            p = read_ucs4(held, &lowered, &n);
            if (p == NULL) {
                Py_DECREF(held);
                goto done;
            }
        }
        /* preprocess(): `tuple(text.split(" ")) if text else ()`. */
        if (n > 0) {
            Py_ssize_t a = 0;
            for (Py_ssize_t j = 0; j <= n; j++) {
                if (j < n && p[j] != ' ') {
                    continue;
                }
                const int64_t id = token_id(cache, p + a, j - a, known, base, new_words);
                if (id < 0 || ids_push(&ids, (int32_t)id) < 0) {
                    Py_XDECREF(held);
                    goto done;
                }
                a = j + 1;
            }
        }
        Py_XDECREF(held);
        off[k + 1] = ids.n;
    }
    ids_bytes = PyBytes_FromStringAndSize(ids.v ? (const char *)ids.v : "",
                                          ids.n * (Py_ssize_t)sizeof(int32_t));
    if (ids_bytes != NULL) {
        result = PyTuple_Pack(3, ids_bytes, offsets, new_words);
    }
done:
    Py_DECREF(seq);
    Py_XDECREF(ids_bytes);
    Py_XDECREF(offsets);
    Py_XDECREF(new_words);
    FREE_EACH(line.p, tmp.p, lowered.buf, ids.v);
    return result;
}
