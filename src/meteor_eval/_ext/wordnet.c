/*
 * The synonym sets of new word types, read from the shipped METEOR WordNet table:
 *
 *   wordnet_packed_sets(tokens, cache, blob, key_starts, table, starts, own_ends, pool, base,
 *                       rules) -> list[bytes]
 *
 * The compiled twin of resources/wordnet/meteor.py's packed_sets() (_packed_sets_function),
 * which stays the reference and the fallback. Each token's S(t) is taken from `cache` (a dict
 * str -> bytes) when there, else computed and stored there:
 *
 *   - the token's UTF-8 bytes are looked up in the key table (blob: the keys' bytes; key_starts:
 *     keys + 1 uint32 starts in blob; table: 2 ** bits uint32 slots holding key index + 1, the
 *     first slot CRC-32(key) & (2 ** bits - 1), then the following ones, 0 empty);
 *   - a key's S(t) is its stored slice of the pool: the int64 values own_ends[i] .. starts[i + 1]
 *     when not empty, else its own synsets starts[i] .. own_ends[i];
 *   - any other token (unless it ends in "ss" or has at most two UTF-16 units) takes the own
 *     synsets of the first suffix rule candidate that is a listed word (a key with own
 *     synsets); rules is a tuple of (suffix, replacement) bytes pairs in the order they are
 *     tried, suffixes ASCII and not empty, so that a str suffix of the token is a byte suffix
 *     of its UTF-8 and the candidate's bytes are the token's minus the suffix plus the
 *     replacement;
 *   - a token that cannot be encoded (lone surrogates) is looked up as the empty key and takes
 *     no rule, as in Python;
 *   - otherwise the empty set (b"").
 *
 * pool is a buffer holding the int64 values from byte `base` on. The table is read as it is;
 * any index or range outside its buffers raises ValueError instead of reading out of bounds.
 */

#include "kernels.h"


typedef struct {
    const unsigned char *blob;
    Py_ssize_t blob_len;
    const uint32_t *key_starts; /* keys + 1 */
    Py_ssize_t keys;
    const uint32_t *table;
    Py_ssize_t mask;
    const uint32_t *starts; /* keys + 1 */
    const uint32_t *own_ends; /* keys */
    const char *pool;       /* from byte base on */
    Py_ssize_t pool_values;
} Sets;

static const char DAMAGED[] = "wordnet_packed_sets: the table points outside its buffers";

/* Whether key i's own range is sane (starts[i] <= own_ends[i] <= starts[i + 1]). */
static int
ranges_ok(const Sets *s, Py_ssize_t i)
{
    return s->starts[i] <= s->own_ends[i] && s->own_ends[i] <= s->starts[i + 1];
}

/* The key index of data[0 .. n), -1 when it is not a key, -2 with ValueError set (also for a
 * key whose own range is not sane: both lookups read the key's ranges next). */
static Py_ssize_t
find_key(const Sets *s, const unsigned char *data, Py_ssize_t n)
{
    Py_ssize_t slot = (Py_ssize_t)(crc32_bytes(data, n) & (uint32_t)s->mask);
    for (Py_ssize_t probes = 0; probes <= s->mask; probes++) {
        const uint32_t number = s->table[slot];
        if (number == 0) {
            return -1;
        }
        if ((Py_ssize_t)number > s->keys) {
            PyErr_SetString(PyExc_ValueError, DAMAGED);
            return -2;
        }
        const uint32_t lo = s->key_starts[number - 1], hi = s->key_starts[number];
        if (lo > hi || (Py_ssize_t)hi > s->blob_len) {
            PyErr_SetString(PyExc_ValueError, DAMAGED);
            return -2;
        }
        if ((Py_ssize_t)(hi - lo) == n && memcmp(s->blob + lo, data, (size_t)n) == 0) {
            if (!ranges_ok(s, (Py_ssize_t)number - 1)) {
                PyErr_SetString(PyExc_ValueError, DAMAGED);
                return -2;
            }
            return (Py_ssize_t)number - 1;
        }
        slot = (slot + 1) & s->mask;
    }
    return -1;
}

/* The int64 values [start, end) of the pool as bytes; NULL with an exception set. */
static PyObject *
pool_slice(const Sets *s, uint32_t start, uint32_t end)
{
    if (start > end || (Py_ssize_t)end > s->pool_values) {
        PyErr_SetString(PyExc_ValueError, DAMAGED);
        return NULL;
    }
    return PyBytes_FromStringAndSize(s->pool + 8 * (size_t)start, 8 * (Py_ssize_t)(end - start));
}

typedef struct {
    const unsigned char *suffix;
    Py_ssize_t suffix_len;
    const unsigned char *replacement;
    Py_ssize_t replacement_len;
} Rule;

/* Java's String.length() <= 2: code points, a non-BMP one counting twice. */
static int
utf16_at_most_2(PyObject *token)
{
    const Py_ssize_t n = PyUnicode_GET_LENGTH(token);
    if (n > 2) {
        return 0;
    }
    Py_ssize_t units = n;
    for (Py_ssize_t k = 0; k < n; k++) {
        units += PyUnicode_READ_CHAR(token, k) > 0xFFFF;
    }
    return units <= 2;
}

static PyObject *packed_set_of(const Sets *s, PyObject *token, const unsigned char *data,
                               Py_ssize_t n, const Rule *rules, Py_ssize_t n_rules,
                               unsigned char **scratch, Py_ssize_t *scratch_cap);

/* S(token) as packed bytes (a new reference), NULL with an exception set. `scratch` is a
 * grow-only buffer for the rule candidates' bytes. */
static PyObject *
packed_set(const Sets *s, PyObject *token, const Rule *rules, Py_ssize_t n_rules,
           unsigned char **scratch, Py_ssize_t *scratch_cap)
{
    /* The UTF-8 bytes: an ASCII str's own data, else a temporary bytes object (not the str's
     * cached UTF-8, which would stay with every cached token). */
    PyObject *encoded = NULL;
    const unsigned char *data;
    Py_ssize_t n;
    if (PyUnicode_IS_ASCII(token)) {
        data = PyUnicode_DATA(token);
        n = PyUnicode_GET_LENGTH(token);
    }
    else {
        encoded = PyUnicode_AsUTF8String(token);
        if (encoded == NULL) {
            if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
                return NULL;
            }
            PyErr_Clear(); /* lone surrogates: looked up as the empty key, no rule */
            data = (const unsigned char *)"";
            n = 0;
        }
        else {
            data = (const unsigned char *)PyBytes_AS_STRING(encoded);
            n = PyBytes_GET_SIZE(encoded);
        }
    }
    PyObject *result = packed_set_of(s, token, data, n, rules, n_rules, scratch, scratch_cap);
    Py_XDECREF(encoded);
    return result;
}

static PyObject *
packed_set_of(const Sets *s, PyObject *token, const unsigned char *data, Py_ssize_t n,
              const Rule *rules, Py_ssize_t n_rules, unsigned char **scratch,
              Py_ssize_t *scratch_cap)
{
    const Py_ssize_t at = find_key(s, data, n);
    if (at == -2) {
        return NULL;
    }
    if (at >= 0) {
        uint32_t start = s->own_ends[at];
        const uint32_t end = s->starts[at + 1];
        if (start == end) {
            start = s->starts[at];
            return pool_slice(s, start, s->own_ends[at]);
        }
        return pool_slice(s, start, end);
    }
    if (n == 0 || (n >= 2 && data[n - 1] == 's' && data[n - 2] == 's') ||
        utf16_at_most_2(token)) {
        return PyBytes_FromStringAndSize(NULL, 0);
    }
    for (Py_ssize_t r = 0; r < n_rules; r++) {
        const Rule *rule = &rules[r];
        if (rule->suffix_len > n ||
            memcmp(data + n - rule->suffix_len, rule->suffix, (size_t)rule->suffix_len) != 0) {
            continue;
        }
        const Py_ssize_t stem = n - rule->suffix_len;
        const Py_ssize_t len = stem + rule->replacement_len;
        if (reserve((void **)scratch, scratch_cap, len + 1, 64, 1) < 0) {
            return NULL;
        }
        memcpy(*scratch, data, (size_t)stem);
        memcpy(*scratch + stem, rule->replacement, (size_t)rule->replacement_len);
        const Py_ssize_t base = find_key(s, *scratch, len);
        if (base == -2) {
            return NULL;
        }
        if (base >= 0) {
            if (s->starts[base] < s->own_ends[base]) { /* a listed word */
                return pool_slice(s, s->starts[base], s->own_ends[base]);
            }
        }
    }
    return PyBytes_FromStringAndSize(NULL, 0);
}

/* A read-only C-contiguous buffer of `item`-byte items; -1 with an exception set. */
static int
get_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t item, const char *what)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS) < 0) {
        return -1;
    }
    if (view->itemsize != item || view->len % item != 0) {
        PyErr_Format(PyExc_TypeError, "wordnet_packed_sets: %s must hold %zd-byte items", what,
                     item);
        PyBuffer_Release(view);
        view->obj = NULL;
        return -1;
    }
    return 0;
}

PyObject *
wordnet_packed_sets_c(PyObject *self, PyObject *args)
{
    PyObject *tokens, *cache, *objs[6], *rules_obj;
    Py_ssize_t base;
    if (!PyArg_ParseTuple(args, "OO!OOOOOOnO!:wordnet_packed_sets", &tokens, &PyDict_Type,
                          &cache, &objs[0], &objs[1], &objs[2], &objs[3], &objs[4], &objs[5],
                          &base, &PyTuple_Type, &rules_obj)) {
        return NULL;
    }
    static const char *const names[6] = {"blob", "key_starts", "table", "starts", "own_ends",
                                         "pool"};
    static const Py_ssize_t items[6] = {1, 4, 4, 4, 4, 1};
    Py_buffer views[6];
    int got = 0;
    PyObject *seq = NULL, *out = NULL;
    Rule *rules = NULL;
    unsigned char *scratch = NULL;
    Py_ssize_t scratch_cap = 0;
    for (; got < 6; got++) {
        if (get_buffer(objs[got], &views[got], items[got], names[got]) < 0) {
            goto done;
        }
    }
    Sets s;
    s.blob = views[0].buf;
    s.blob_len = views[0].len;
    s.key_starts = views[1].buf;
    s.keys = views[1].len / 4 - 1;
    s.table = views[2].buf;
    const Py_ssize_t slots = views[2].len / 4;
    s.mask = slots - 1;
    s.starts = views[3].buf;
    s.own_ends = views[4].buf;
    if (s.keys < 0 || slots < 1 || (slots & (slots - 1)) != 0 ||
        views[3].len / 4 != s.keys + 1 || views[4].len / 4 != s.keys || base < 0 ||
        base > views[5].len) {
        PyErr_SetString(PyExc_ValueError, "wordnet_packed_sets: inconsistent table sizes");
        goto done;
    }
    s.pool = (const char *)views[5].buf + base;
    s.pool_values = (views[5].len - base) / 8;

    const Py_ssize_t n_rules = PyTuple_GET_SIZE(rules_obj);
    rules = PyMem_Calloc((size_t)(n_rules > 0 ? n_rules : 1), sizeof(Rule));
    if (rules == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t r = 0; r < n_rules; r++) {
        PyObject *pair = PyTuple_GET_ITEM(rules_obj, r);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2 ||
            !PyBytes_Check(PyTuple_GET_ITEM(pair, 0)) ||
            !PyBytes_Check(PyTuple_GET_ITEM(pair, 1)) ||
            PyBytes_GET_SIZE(PyTuple_GET_ITEM(pair, 0)) == 0) {
            PyErr_SetString(PyExc_TypeError,
                            "wordnet_packed_sets: rules must be (suffix, replacement) bytes "
                            "pairs with a suffix");
            goto done;
        }
        rules[r].suffix = (const unsigned char *)PyBytes_AS_STRING(PyTuple_GET_ITEM(pair, 0));
        rules[r].suffix_len = PyBytes_GET_SIZE(PyTuple_GET_ITEM(pair, 0));
        rules[r].replacement =
            (const unsigned char *)PyBytes_AS_STRING(PyTuple_GET_ITEM(pair, 1));
        rules[r].replacement_len = PyBytes_GET_SIZE(PyTuple_GET_ITEM(pair, 1));
        for (Py_ssize_t k = 0; k < rules[r].suffix_len; k++) {
            if (rules[r].suffix[k] >= 0x80) {
                PyErr_SetString(PyExc_ValueError, "wordnet_packed_sets: suffixes must be ASCII");
                goto done;
            }
        }
    }

    seq = PySequence_Fast(tokens, "wordnet_packed_sets: tokens must be a sequence");
    if (seq == NULL) {
        goto done;
    }
    const Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    out = PyList_New(count);
    if (out == NULL) {
        goto done;
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *token = PySequence_Fast_GET_ITEM(seq, k);
        if (!PyUnicode_Check(token)) {
            PyErr_SetString(PyExc_TypeError, "wordnet_packed_sets: tokens must be str");
            Py_CLEAR(out);
            goto done;
        }
        PyObject *found = PyDict_GetItemWithError(cache, token);
        if (found != NULL) {
            Py_INCREF(found);
        }
        else {
            if (PyErr_Occurred()) {
                Py_CLEAR(out);
                goto done;
            }
            found = packed_set(&s, token, rules, n_rules, &scratch, &scratch_cap);
            if (found == NULL || PyDict_SetItem(cache, token, found) < 0) {
                Py_XDECREF(found);
                Py_CLEAR(out);
                goto done;
            }
        }
        PyList_SET_ITEM(out, k, found);
    }
done:
    for (int v = 0; v < got; v++) {
        PyBuffer_Release(&views[v]);
    }
    Py_XDECREF(seq);
    PyMem_Free(rules);
    PyMem_Free(scratch);
    return out;
}
