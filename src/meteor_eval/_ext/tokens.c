/*
 * Token ids of paraphrase-table phrases, for the index builder (resources/_paraphrase_build.py,
 * whose _tokenize is the pure-Python twin):
 *
 *   paraphrase_tokenize(text, vocabulary) -> (ids, counts)
 *
 * It replaces splitting a block's text into a list of bytes objects and mapping each through
 * the vocabulary dict from Python, the largest step of the English index build.
 */

#include "kernels.h"

/* The token separators inside a phrase: Java's StringTokenizer characters but the newline,
 * which separates phrases here (spec J2; the same set as the builder's _TOKEN_RE). */
static inline int
is_separator(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f';
}

/* The id of one token: its value in vocabulary, or the next id (the vocabulary's size), which
 * is then added; -1 with an exception set on failure. */
static int64_t
token_id(PyObject *vocabulary, const char *start, Py_ssize_t length)
{
    PyObject *key = PyBytes_FromStringAndSize(start, length);
    if (key == NULL) {
        return -1;
    }
    int64_t id = -1;
    PyObject *found = PyDict_GetItemWithError(vocabulary, key); /* borrowed */
    if (found != NULL) {
        const unsigned long long value = PyLong_AsUnsignedLongLong(found);
        if (value == (unsigned long long)-1 && PyErr_Occurred()) {
            goto done;
        }
        if (value > UINT32_MAX) {
            PyErr_SetString(PyExc_ValueError, "paraphrase_tokenize: id above 2**32 - 1");
            goto done;
        }
        id = (int64_t)value;
    }
    else if (!PyErr_Occurred()) {
        const Py_ssize_t next = PyDict_GET_SIZE(vocabulary);
        if (next > (Py_ssize_t)UINT32_MAX) {
            PyErr_SetString(PyExc_OverflowError, "paraphrase_tokenize: vocabulary too large");
            goto done;
        }
        PyObject *value = PyLong_FromSsize_t(next);
        if (value == NULL) {
            goto done;
        }
        const int rc = PyDict_SetItem(vocabulary, key, value);
        Py_DECREF(value);
        if (rc == 0) {
            id = next;
        }
    }
done:
    Py_DECREF(key);
    return id;
}

/*
 * paraphrase_tokenize(text: bytes, vocabulary: dict) -> (ids: bytes, counts: bytes)
 *
 * text holds phrases separated by b"\n"; each phrase's tokens are separated by runs of
 * b" \t\r\f". ids: the native uint32 id of every token, in order, new tokens added to
 * vocabulary (bytes -> int) with the next id; counts: the native int64 number of tokens of
 * each phrase (one more phrase than newlines).
 */
static PyObject *
paraphrase_tokenize_c(PyObject *self, PyObject *args)
{
    Py_buffer text;
    PyObject *vocabulary;
    if (!PyArg_ParseTuple(args, "y*O!:paraphrase_tokenize", &text, &PyDict_Type, &vocabulary)) {
        return NULL;
    }
    const char *s = text.buf;
    const Py_ssize_t n = text.len;
    Py_ssize_t phrases = 1;
    for (Py_ssize_t k = 0; k < n; k++) {
        phrases += s[k] == '\n';
    }
    PyObject *result = NULL;
    /* Every token but the last is followed by a separator or a newline. */
    uint32_t *ids = PyMem_Malloc((size_t)(n / 2 + 1) * sizeof(uint32_t));
    int64_t *counts = PyMem_Calloc((size_t)phrases, sizeof(int64_t));
    if (ids == NULL || counts == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t count = 0, phrase = 0;
    for (Py_ssize_t k = 0; k < n;) {
        const unsigned char c = (unsigned char)s[k];
        if (c == '\n') {
            phrase++;
            k++;
            continue;
        }
        if (is_separator(c)) {
            k++;
            continue;
        }
        const Py_ssize_t start = k;
        while (k < n && s[k] != '\n' && !is_separator((unsigned char)s[k])) {
            k++;
        }
        const int64_t id = token_id(vocabulary, s + start, k - start);
        if (id < 0) {
            goto done;
        }
        ids[count++] = (uint32_t)id;
        counts[phrase]++;
    }
    PyObject *ids_out = PyBytes_FromStringAndSize((const char *)ids, count * 4);
    PyObject *counts_out = PyBytes_FromStringAndSize((const char *)counts, phrases * 8);
    if (ids_out != NULL && counts_out != NULL) {
        result = PyTuple_Pack(2, ids_out, counts_out);
    }
    Py_XDECREF(ids_out);
    Py_XDECREF(counts_out);
done:
    PyMem_Free(ids);
    PyMem_Free(counts);
    PyBuffer_Release(&text);
    return result;
}

PyMethodDef meteor_tokens_methods[] = {
    {"paraphrase_tokenize", paraphrase_tokenize_c, METH_VARARGS,
     "paraphrase_tokenize(text, vocabulary) -> (ids, counts)\n\n"
     "Token ids (native uint32, new tokens added to the vocabulary dict) and the number of\n"
     "tokens (native int64) of each b'\\n'-separated phrase of text."},
    {NULL, NULL, 0, NULL},
};
