/*
 * METEOR 1.5's front end for a chunk of lines, from text to word-type ids in one call:
 *
 *   meteor15_token_cache()  an empty token cache (a capsule) for meteor15_tokens();
 *   meteor15_tokens(lines, mode, keep_punctuation, prefixes, lower, known, cache)
 *                           -> (ids, offsets, new_words)
 *   meteor15_lines(lines, mode, keep_punctuation, prefixes, lower, known, cache, limit)
 *                           -> (ids, offsets, new_words), the same with a line cache
 *
 * Each line is normalised as normalize_line() does (normalize.c, on grow-only buffers shared by
 * the whole chunk), lower-cased as the jar does (String.toLowerCase: done here for a normalised
 * line of ASCII code points, and for one of code points below U+0370 through a table of what
 * `lower` gives each of them alone; a line with any other code point is passed to `lower`,
 * the Python java_lower, which knows Java's final sigma and Unicode version), split at every ASCII
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
 *
 * meteor15_lines() also keeps a line cache in the same capsule: each line (an exact str) whose
 * ids it has produced, with those ids, so that a line met again, in the same call or a later
 * one, is copied from the cache instead of being normalised and split again (no Python object
 * or dict lookup per line: the table is keyed by the str's own cached hash). The result is that
 * of meteor15_tokens() on the same lines, id for id. The cache holds at most `limit` lines: a
 * call that would pass it empties the cache first (the results do not change, the lines are
 * read again). The line cache holds references to its lines until then or until the capsule
 * goes; its ids are valid under the same condition as the token cache's (the new words of each
 * call appended to `known`).
 */

#include "kernels.h"

#define CACHE_NAME "meteor_eval.meteor15_token_cache"

/* Lines (exact str objects, strong references) -> their word-type ids: line e's ids are
 * pool[end[e] .. end[e + 1]); an open-addressing table on the lines' Python hashes. */
typedef struct {
    PyObject **line;
    uint64_t *hash;
    int64_t *end; /* n + 1 values once a line is in (end[0] = 0) */
    Py_ssize_t n, line_cap, hash_cap, end_cap;
    int32_t *slots;
    size_t mask;
    int32_t *pool;
    Py_ssize_t pool_n, pool_cap;
} LineTable;

/* Code points below LATIN_END (Latin-1, Latin Extended-A and B, IPA, spacing modifiers,
 * combining marks) are lower-cased here through a table of what `lower` gives each alone. */
#define LATIN_END 0x370
#define LATIN_NONE 0xFFFFFFFFu    /* `lower` of the code point is not one code point */
#define LATIN_UNKNOWN 0xFFFFFFFEu /* `lower` of the code point not asked yet */

typedef struct {
    Vocab vocab;  /* token -> dense cache id */
    int32_t *wid; /* word-type id of each cache id */
    Py_ssize_t wid_cap;
    LineTable lines; /* meteor15_lines() only */
    /* latin[c] = lower(chr(c)) for c < LATIN_END (LATIN_NONE when that is not one code
     * point), each entry asked of `lower` when a line first needs it (LATIN_UNKNOWN until
     * then: a run meets a few dozen of these code points), latin_of being the `lower` the
     * entries come from (a strong reference); another `lower` starts the table afresh. */
    PyObject *latin_of;
    Py_UCS4 latin[LATIN_END];
} TokenCache;

/* Forget every line of the table (their references dropped); the buffers are kept. */
static void
line_table_clear(LineTable *t)
{
    for (Py_ssize_t e = 0; e < t->n; e++) {
        Py_DECREF(t->line[e]);
    }
    t->n = 0;
    t->pool_n = 0;
    if (t->slots != NULL) {
        for (size_t k = 0; k <= t->mask; k++) {
            t->slots[k] = -1;
        }
    }
}

static void
token_cache_destroy(PyObject *capsule)
{
    TokenCache *c = PyCapsule_GetPointer(capsule, CACHE_NAME);
    if (c != NULL) {
        vocab_free(&c->vocab);
        line_table_clear(&c->lines);
        Py_XDECREF(c->latin_of);
        FREE_EACH(c->wid, c->lines.line, c->lines.hash, c->lines.end, c->lines.slots,
                  c->lines.pool);
        PyMem_Free(c);
    }
}

/* The entry of line text (its hash h) in the table, or -1 when it is not there. */
static Py_ssize_t
line_table_find(const LineTable *t, PyObject *text, uint64_t h)
{
    if (t->slots == NULL) {
        return -1;
    }
    size_t idx;
    int32_t e;
    SLOTS_PROBE(t->slots, t->mask, t->hash, h, idx, e,
                (t->line[e] == text || PyUnicode_Compare(t->line[e], text) == 0));
    (void)idx;
    return e;
}

/* Add line text (hash h, not in the table) with its ids[0 .. n). 0, or -1 with an exception. */
static int
line_table_add(LineTable *t, PyObject *text, uint64_t h, const int32_t *ids, Py_ssize_t n)
{
    if (t->n >= INT32_MAX - 1) {
        PyErr_SetString(PyExc_OverflowError, "meteor15_lines: too many lines");
        return -1;
    }
    if (slots_room(&t->slots, &t->mask, t->hash, t->n, 1024) < 0 ||
        grow((void **)&t->line, &t->line_cap, t->n + 1, sizeof(PyObject *)) < 0 ||
        grow((void **)&t->hash, &t->hash_cap, t->n + 1, sizeof(uint64_t)) < 0 ||
        grow((void **)&t->end, &t->end_cap, t->n + 2, sizeof(int64_t)) < 0 ||
        grow((void **)&t->pool, &t->pool_cap, t->pool_n + n, sizeof(int32_t)) < 0) {
        return -1;
    }
    size_t idx;
    int32_t e;
    SLOTS_PROBE(t->slots, t->mask, t->hash, h, idx, e, 0);
    e = (int32_t)t->n;
    t->slots[idx] = e;
    Py_INCREF(text);
    t->line[e] = text;
    t->hash[e] = h;
    if (n > 0) {
        memcpy(t->pool + t->pool_n, ids, (size_t)n * sizeof(int32_t));
    }
    t->pool_n += n;
    t->end[0] = 0;
    t->end[e + 1] = t->pool_n;
    t->n++;
    return 0;
}

PyObject *
meteor15_token_cache_c(PyObject *self, PyObject *unused)
{
    return calloc_capsule(sizeof(TokenCache), CACHE_NAME, token_cache_destroy);
}

/* Start c->latin afresh (every entry unknown) unless its entries come from `lower`. */
static void
latin_table(TokenCache *c, PyObject *lower)
{
    if (c->latin_of == lower) {
        return;
    }
    Py_CLEAR(c->latin_of);
    for (Py_UCS4 cp = 0; cp < LATIN_END; cp++) {
        c->latin[cp] = LATIN_UNKNOWN;
    }
    Py_INCREF(lower);
    c->latin_of = lower;
}

/* c->latin[cp] asked of `lower` (cp alone) if it is not known yet. 0, or -1 with an exception
 * (lower raised or gave something else than a str). */
static int
latin_entry(TokenCache *c, PyObject *lower, Py_UCS4 cp)
{
    if (c->latin[cp] != LATIN_UNKNOWN) {
        return 0;
    }
    PyObject *one = PyUnicode_FromOrdinal((int)cp);
    if (one == NULL) {
        return -1;
    }
    PyObject *low = PyObject_CallOneArg(lower, one);
    Py_DECREF(one);
    if (low == NULL) {
        return -1;
    }
    if (!PyUnicode_Check(low)) {
        PyErr_SetString(PyExc_TypeError, "lower: expected it to return a str");
        Py_DECREF(low);
        return -1;
    }
    c->latin[cp] = PyUnicode_GET_LENGTH(low) == 1 ? PyUnicode_READ_CHAR(low, 0) : LATIN_NONE;
    Py_DECREF(low);
    return 0;
}

/* Lower-case w[0..n) in place through c->latin when every code point is below LATIN_END and
 * lowers to one code point (1), else leave it (0); -1 with an exception. `lower` maps such a
 * line code point by code point (Java's toLowerCase has no context rule below U+0370: its
 * final sigma is U+03A3 and U+0130 becomes two code points, LATIN_NONE), so the result is
 * lower(line). */
static int
lower_latin(TokenCache *c, PyObject *lower, Py_UCS4 *w, Py_ssize_t n, Py_UCS4 high)
{
    if (high >= 0x400) { /* (the OR of the code points: some code point is >= 0x400) */
        return 0;
    }
    for (Py_ssize_t j = 0; j < n; j++) {
        if (w[j] >= LATIN_END) {
            return 0;
        }
    }
    latin_table(c, lower);
    for (Py_ssize_t j = 0; j < n; j++) {
        if (latin_entry(c, lower, w[j]) < 0) {
            return -1;
        }
        if (c->latin[w[j]] == LATIN_NONE) {
            return 0;
        }
    }
    for (Py_ssize_t j = 0; j < n; j++) {
        w[j] = c->latin[w[j]];
    }
    return 1;
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

/* meteor15_tokens() (limit < 0) and meteor15_lines() (the line cache holds at most limit
 * lines; a call of more lines than that keeps all of them). */
static PyObject *
front_end(PyObject *lines, int mode, int keep_punctuation, PyObject *prefixes, PyObject *lower,
          PyObject *known, PyObject *capsule, Py_ssize_t limit)
{
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
    LineTable *table = limit >= 0 ? &cache->lines : NULL;
    if (table != NULL && table->n + n_lines > limit) {
        line_table_clear(table); /* (so the table passes the limit only with a longer call) */
    }
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
        uint64_t h = 0;
        const int cached = table != NULL && PyUnicode_CheckExact(text);
        if (cached) {
            const Py_hash_t hash = PyObject_Hash(text);
            if (hash == -1) {
                goto done;
            }
            h = (uint64_t)hash;
            const Py_ssize_t e = line_table_find(table, text, h);
            if (e >= 0) {
                const int64_t a = table->end[e], m = table->end[e + 1] - a;
                if (reserve((void **)&ids.v, &ids.cap, ids.n + m, 256, sizeof(int32_t)) < 0) {
                    goto done;
                }
                if (m > 0) {
                    memcpy(ids.v + ids.n, table->pool + a, (size_t)m * sizeof(int32_t));
                }
                ids.n += m;
                off[k + 1] = ids.n;
                continue;
            }
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
        int lowered_here = 0;
        if (high < 0x80) {
            Py_UCS4 *w = line.p + start;
            for (Py_ssize_t j = 0; j < n; j++) {
                w[j] += (w[j] >= 'A' && w[j] <= 'Z') ? 'a' - 'A' : 0;
            }
            lowered_here = 1;
        }
        else {
            lowered_here = lower_latin(cache, lower, line.p + start, n, high);
            if (lowered_here < 0) {
                goto done;
            }
        }
        if (!lowered_here) {
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
            /* At most n + 1 tokens (one more than the spaces): room for them once, then a
             * plain store a token. */
            if (reserve((void **)&ids.v, &ids.cap, ids.n + n + 1, 256, sizeof(int32_t)) < 0) {
                Py_XDECREF(held);
                goto done;
            }
            Py_ssize_t a = 0;
            for (Py_ssize_t j = 0; j <= n; j++) {
                if (j < n && p[j] != ' ') {
                    continue;
                }
                const int64_t id = token_id(cache, p + a, j - a, known, base, new_words);
                if (id < 0) {
                    Py_XDECREF(held);
                    goto done;
                }
                ids.v[ids.n++] = (int32_t)id;
                a = j + 1;
            }
        }
        Py_XDECREF(held);
        off[k + 1] = ids.n;
        if (cached && line_table_add(table, text, h, ids.n > off[k] ? ids.v + off[k] : NULL,
                                     ids.n - off[k]) < 0) {
            goto done;
        }
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

PyObject *
meteor15_tokens_c(PyObject *self, PyObject *args)
{
    PyObject *lines, *prefixes, *lower, *known, *capsule;
    int mode, keep_punctuation;
    if (!PyArg_ParseTuple(args, "OipO!OO!O:meteor15_tokens", &lines, &mode, &keep_punctuation,
                          &PyDict_Type, &prefixes, &lower, &PyDict_Type, &known, &capsule)) {
        return NULL;
    }
    return front_end(lines, mode, keep_punctuation, prefixes, lower, known, capsule, -1);
}

PyObject *
meteor15_lines_c(PyObject *self, PyObject *args)
{
    PyObject *lines, *prefixes, *lower, *known, *capsule;
    int mode, keep_punctuation;
    Py_ssize_t limit;
    if (!PyArg_ParseTuple(args, "OipO!OO!On:meteor15_lines", &lines, &mode, &keep_punctuation,
                          &PyDict_Type, &prefixes, &lower, &PyDict_Type, &known, &capsule,
                          &limit)) {
        return NULL;
    }
    if (limit < 0) {
        PyErr_SetString(PyExc_ValueError, "limit: expected a number of lines >= 0");
        return NULL;
    }
    return front_end(lines, mode, keep_punctuation, prefixes, lower, known, capsule, limit);
}
