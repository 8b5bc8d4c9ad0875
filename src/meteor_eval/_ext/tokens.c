/*
 * The paraphrase index builder's compiled steps (resources/_paraphrase_build.py, whose
 * block-by-block numpy path is the pure-Python twin):
 *
 *   paraphrase_tokenize(text, vocabulary) -> (ids, counts)
 *   paraphrase_index_pass(blocks, batch) -> (vocab, vocab_count, final, token, parent, a, b,
 *                                            skipped, lines)
 *
 * paraphrase_tokenize maps a block's phrases to token ids (the numpy path's tokeniser).
 * paraphrase_index_pass does the whole reading in one pass over the decompressed text: line
 * ends, records, runs of equal phrase A, UTF-8 repair, tokens and trie nodes, with the tokens
 * and the (parent, token) edges in two open-addressing hash tables and no Python object per
 * line or token, then numbers the nodes breadth-first.
 */

#include "kernels.h"

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

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
PyObject *
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

/* ---------------------------------------------------------------------------------------- */
/* paraphrase_index_pass                                                                     */
/* ---------------------------------------------------------------------------------------- */

/* One (parent, token) edge of the trie and the node it leads to (discovery id; 0: empty slot,
 * the root being nobody's child). */
typedef struct {
    uint32_t parent;
    uint32_t token;
    uint32_t node;
} IndexEdge;

typedef struct {
    /* The vocabulary: tokens joined by '\n' in id order (the index's vocabulary section), each
     * token's start, length and hash, and a table of id + 1 (0: empty). */
    char *text;
    size_t text_len, text_cap;
    uint64_t *token_start;
    uint32_t *token_len;
    uint32_t *token_hash;
    uint32_t tokens, token_cap;
    uint32_t *token_slots;
    size_t token_mask;
    /* The trie's edges; nodes counts the root. */
    IndexEdge *edges;
    size_t edge_mask;
    uint64_t nodes;
    /* Phrase-A and phrase-B node of every kept record, in file order. */
    uint32_t *a, *b;
    size_t records, record_cap;
    uint64_t skipped;
    /* Reading state: the line cut by the end of a block, whether the last byte was a \r (a
     * following \n then ends nothing), the lines read, the previous phrase A as read and its
     * node (once its batch is resolved). */
    char *carry;
    size_t carry_len, carry_cap;
    int after_cr;
    uint64_t lines;
    char *previous_a;
    size_t previous_a_len, previous_a_cap;
    int has_previous_a;
    uint32_t previous_a_node;
    /* The batch of phrases whose tokens are read but whose nodes are not looked up yet: each
     * phrase's first token in ids and its token count, then its node; each record's phrase-A
     * phrase (-1: the previous batch's last phrase A) and phrase-B phrase; the batch's last
     * phrase A (-1: none yet). */
    uint32_t *ids;
    size_t id_count, id_cap;
    uint32_t *phrase_start, *phrase_tokens, *phrase_node, *active;
    size_t phrase_count, phrase_cap;
    int32_t *record_a, *record_b;
    size_t batch_records, batch_record_cap;
    int64_t last_a;
    size_t batch;
    /* Invalid UTF-8 is repaired by Python's decoder: the thread state to take the GIL back. */
    PyThreadState *thread;
    /* 0, or -1 once an exception is set (memory, overflow, a failed repair). */
    int failed;
} IndexPass;

/* Record the pass's first failure: an exception of type with message, or MemoryError (type
 * NULL), set with the thread state taken back while the text is read without the GIL; a later
 * failure keeps the first one's exception. Returns -1. */
static int
index_fail(IndexPass *pass, PyObject *type, const char *message)
{
    if (!pass->failed) {
        pass->failed = -1;
        if (pass->thread != NULL) {
            PyEval_RestoreThread(pass->thread);
        }
        if (type == NULL) {
            PyErr_NoMemory();
        }
        else {
            PyErr_SetString(type, message);
        }
        if (pass->thread != NULL) {
            pass->thread = PyEval_SaveThread();
        }
    }
    return -1;
}

static int
index_fail_memory(IndexPass *pass)
{
    return index_fail(pass, NULL, NULL);
}

static int
index_fail_too_large(IndexPass *pass)
{
    return index_fail(pass, PyExc_OverflowError, "paraphrase table too large for index format 1");
}

/* Grow an array of item-sized elements to hold at least need (1,024 at first, then doubling);
 * 0, or -1 (nothing set). */
static int
index_grow(void **array, size_t *cap, size_t need, size_t item)
{
    if (need <= *cap) {
        return 0;
    }
    size_t grown = *cap ? *cap : 1024;
    while (grown < need) {
        grown *= 2;
    }
    void *moved = realloc(*array, grown * item);
    if (moved == NULL) {
        return -1;
    }
    *array = moved;
    *cap = grown;
    return 0;
}

/* One of several arrays that share a capacity (one record's fields, array by array). */
typedef struct {
    void **array;
    size_t item; /* its element size */
} IndexArray;

/* index_grow() for the n arrays that share the capacity *cap, which is updated once all of them
 * have grown; 0, or -1 (nothing set; the arrays grown before the failure stay valid, at *cap). */
static int
index_grow_together(const IndexArray *arrays, size_t n, size_t *cap, size_t need)
{
    size_t grown = *cap;
    for (size_t i = 0; i < n; i++) {
        grown = *cap;
        if (index_grow(arrays[i].array, &grown, need, arrays[i].item) < 0) {
            return -1;
        }
    }
    *cap = grown;
    return 0;
}

static inline uint64_t
index_hash_bytes(const char *s, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n;
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDULL;
        h ^= h >> 32;
        s += 8;
        n -= 8;
    }
    uint64_t w = 0;
    memcpy(&w, s, n);
    h = (h ^ w) * 0xC4CEB9FE1A85EC53ULL;
    h ^= h >> 29;
    h *= 0x9E3779B97F4A7C15ULL;
    return h ^ (h >> 32);
}

/* calloc for the hash tables, asking Linux for huge pages (where transparent huge pages are
 * "madvise"): their look-ups land anywhere in tens of megabytes, and with 4 KiB pages most of
 * them also miss the TLB, which a prefetch does not hide. Freed with free(). */
static void *
index_table_alloc(size_t count, size_t size)
{
    void *table = calloc(count, size);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const long page = sysconf(_SC_PAGESIZE);
    const size_t bytes = count * size;
    if (table != NULL && page > 0 && bytes >= ((size_t)2 << 20)) {
        const uintptr_t start = ((uintptr_t)table + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
        const uintptr_t end = ((uintptr_t)table + bytes) & ~((uintptr_t)page - 1);
        if (end > start) {
            (void)madvise((void *)start, end - start, MADV_HUGEPAGE); /* only a hint */
        }
    }
#endif
    return table;
}

/* A function `name` doubling one of the pass's open-addressing tables, pass->slots of T records
 * with mask pass->mask, whose empty slots are zero bytes (as index_table_alloc() leaves them):
 * each used slot (USED(slot)) is placed again by linear probing from HASH(pass, slot), in slot
 * order. 0, or -1 when out of memory (the table kept). The same growth for the token table and
 * the edge table, defined once. */
#define DEFINE_INDEX_GROW(name, T, slots, mask, USED, HASH)                                        \
    static int name(IndexPass *pass)                                                               \
    {                                                                                              \
        const size_t grown_mask = pass->mask * 2 + 1;                                              \
        T *grown = index_table_alloc(grown_mask + 1, sizeof(T));                                   \
        if (grown == NULL) {                                                                       \
            return -1;                                                                             \
        }                                                                                          \
        for (size_t j = 0; j <= pass->mask; j++) {                                                 \
            const T slot = pass->slots[j];                                                         \
            if (USED(slot)) {                                                                      \
                size_t k = HASH(pass, slot) & grown_mask;                                          \
                while (USED(grown[k])) {                                                           \
                    k = (k + 1) & grown_mask;                                                      \
                }                                                                                  \
                grown[k] = slot;                                                                   \
            }                                                                                      \
        }                                                                                          \
        free(pass->slots);                                                                         \
        pass->slots = grown;                                                                       \
        pass->mask = grown_mask;                                                                   \
        return 0;                                                                                  \
    }

/* The token table: id + 1 in a slot, its hash the token's. */
#define TOKEN_USED(slot) ((slot) != 0)
#define TOKEN_HASH(pass, slot) ((pass)->token_hash[(slot) - 1])
DEFINE_INDEX_GROW(index_grow_tokens, uint32_t, token_slots, token_mask, TOKEN_USED, TOKEN_HASH)

/* The id of one token, added with the next id when new; -1 on failure. */
static int64_t
index_token(IndexPass *pass, const char *s, size_t n)
{
    const uint64_t h64 = index_hash_bytes(s, n);
    const uint32_t h = (uint32_t)(h64 >> 32) ^ (uint32_t)h64;
    size_t k = h & pass->token_mask;
    for (;;) {
        const uint32_t slot = pass->token_slots[k];
        if (slot == 0) {
            break;
        }
        const uint32_t id = slot - 1;
        if (pass->token_hash[id] == h && pass->token_len[id] == n &&
            memcmp(pass->text + pass->token_start[id], s, n) == 0) {
            return id;
        }
        k = (k + 1) & pass->token_mask;
    }
    if (pass->tokens == UINT32_MAX - 1) {
        return index_fail_too_large(pass);
    }
    const uint32_t id = pass->tokens;
    if (id == pass->token_cap) {
        const IndexArray arrays[] = {{(void **)&pass->token_start, sizeof(uint64_t)},
                                     {(void **)&pass->token_len, sizeof(uint32_t)},
                                     {(void **)&pass->token_hash, sizeof(uint32_t)}};
        size_t cap = pass->token_cap;
        if (index_grow_together(arrays, 3, &cap, (size_t)id + 1) < 0) {
            return index_fail_memory(pass);
        }
        pass->token_cap = (uint32_t)cap;
    }
    const size_t separator = id > 0;
    if (index_grow((void **)&pass->text, &pass->text_cap, pass->text_len + separator + n, 1) < 0) {
        return index_fail_memory(pass);
    }
    if (separator) {
        pass->text[pass->text_len++] = '\n';
    }
    pass->token_start[id] = pass->text_len;
    memcpy(pass->text + pass->text_len, s, n);
    pass->text_len += n;
    pass->token_len[id] = (uint32_t)n;
    pass->token_hash[id] = h;
    pass->token_slots[k] = id + 1;
    pass->tokens++;
    if ((size_t)pass->tokens * 2 > pass->token_mask + 1 && index_grow_tokens(pass) < 0) {
        return index_fail_memory(pass);
    }
    return id;
}

static inline size_t
index_edge_hash(uint32_t parent, uint32_t token)
{
    uint64_t k = ((uint64_t)parent << 32 | token) * 0x9E3779B97F4A7C15ULL;
    k ^= k >> 29;
    return (size_t)(k * 0xBF58476D1CE4E5B9ULL >> 32);
}

/* The edge table: an edge in a slot (its node 0 when empty), hashed on (parent, token). */
#define EDGE_USED(edge) ((edge).node != 0)
#define EDGE_HASH(pass, edge) index_edge_hash((edge).parent, (edge).token)
DEFINE_INDEX_GROW(index_grow_edges, IndexEdge, edges, edge_mask, EDGE_USED, EDGE_HASH)

/* The child of parent by token, added with the next node id when new; -1 on failure. */
static int64_t
index_child(IndexPass *pass, uint32_t parent, uint32_t token, size_t hash)
{
    size_t k = hash & pass->edge_mask;
    for (;;) {
        const IndexEdge *edge = &pass->edges[k];
        if (edge->node == 0) {
            break;
        }
        if (edge->parent == parent && edge->token == token) {
            return edge->node;
        }
        k = (k + 1) & pass->edge_mask;
    }
    if (pass->nodes >= UINT32_MAX) {
        return index_fail_too_large(pass);
    }
    const uint32_t node = (uint32_t)pass->nodes++;
    pass->edges[k] = (IndexEdge){parent, token, node};
    /* Grown when 85% full (the root is not in the table): the English table's 3.3 million
     * edges then fit in 2**22 slots (48 MB) instead of twice that. */
    if ((pass->nodes - 1) * 20 > (pass->edge_mask + 1) * 17 && index_grow_edges(pass) < 0) {
        return index_fail_memory(pass);
    }
    return node;
}

/* Whether s holds valid UTF-8 (as Python's strict decoder reads it: no overlong forms, no
 * surrogates, nothing above U+10FFFF). */
static int
index_valid_utf8(const unsigned char *s, size_t n)
{
    size_t k = 0;
    while (k < n) {
        const unsigned char c = s[k];
        if (c < 0x80) {
            k++;
            continue;
        }
        if (c < 0xC2 || c > 0xF4) { /* a continuation byte, an overlong lead, or too high */
            return 0;
        }
        /* The continuation bytes of lead c (1 to 3), and the range of the first: 0x80..0xBF but
         * for the four leads where that would let an overlong form (E0, F0), a surrogate (ED) or
         * a code point above U+10FFFF (F4) through. */
        const size_t more = 1 + (c >= 0xE0) + (c >= 0xF0);
        const unsigned char low = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
        const unsigned char high = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
        if (n - k - 1 < more) {
            return 0;
        }
        if (s[k + 1] < low || s[k + 1] > high) {
            return 0;
        }
        for (size_t j = 2; j <= more; j++) {
            if (s[k + j] < 0x80 || s[k + j] > 0xBF) {
                return 0;
            }
        }
        k += more + 1;
    }
    return 1;
}

/* Read one phrase's tokens into the batch (ids given now, in file order: first occurrence
 * decides a token's id); its node is looked up when the batch is resolved. Returns the
 * phrase's number in the batch, or -1 on failure. */
static int64_t
index_phrase_tokens(IndexPass *pass, const char *s, size_t n)
{
    if (pass->phrase_count == pass->phrase_cap) {
        const IndexArray arrays[] = {{(void **)&pass->phrase_start, sizeof(uint32_t)},
                                     {(void **)&pass->phrase_tokens, sizeof(uint32_t)},
                                     {(void **)&pass->phrase_node, sizeof(uint32_t)},
                                     {(void **)&pass->active, sizeof(uint32_t)}};
        if (index_grow_together(arrays, 4, &pass->phrase_cap, pass->phrase_cap + 1) < 0) {
            return index_fail_memory(pass);
        }
    }
    const size_t phrase = pass->phrase_count;
    const size_t first = pass->id_count;
    size_t k = 0;
    while (k < n) {
        if (is_separator((unsigned char)s[k])) {
            k++;
            continue;
        }
        const size_t start = k;
        while (k < n && !is_separator((unsigned char)s[k])) {
            k++;
        }
        const int64_t token = index_token(pass, s + start, k - start);
        if (token < 0) {
            return -1;
        }
        if (index_grow((void **)&pass->ids, &pass->id_cap, pass->id_count + 1, sizeof(uint32_t)) <
            0) {
            return index_fail_memory(pass);
        }
        pass->ids[pass->id_count++] = (uint32_t)token;
    }
    pass->phrase_start[phrase] = (uint32_t)first;
    pass->phrase_tokens[phrase] = (uint32_t)(pass->id_count - first);
    pass->phrase_count++;
    return (int64_t)phrase;
}

/* How far ahead the batch's look-ups prefetch their slot of the edge table. */
#define INDEX_AHEAD 16

/* The nodes of the batch's phrases (adding new ones), depth by depth: the look-ups of one depth
 * are independent, so each one's slot is prefetched INDEX_AHEAD look-ups before it is read
 * (the table is far larger than the caches). Nodes are numbered in an order of their own,
 * which the breadth-first numbering at the end makes irrelevant. 0, or -1 on failure. */
static int
index_resolve(IndexPass *pass)
{
    size_t active = 0;
    for (size_t p = 0; p < pass->phrase_count; p++) {
        pass->phrase_node[p] = 0;
        if (pass->phrase_tokens[p] != 0) {
            pass->active[active++] = (uint32_t)p;
        }
    }
    for (uint32_t depth = 0; active > 0; depth++) {
        size_t hashes[INDEX_AHEAD];
        for (size_t i = 0; i < active + INDEX_AHEAD; i++) {
            /* Look-up i - INDEX_AHEAD first: look-up i takes its place in hashes. */
            if (i >= INDEX_AHEAD) {
                const size_t j = i - INDEX_AHEAD;
                const uint32_t p = pass->active[j];
                const int64_t child =
                    index_child(pass, pass->phrase_node[p],
                                pass->ids[pass->phrase_start[p] + depth], hashes[j % INDEX_AHEAD]);
                if (child < 0) {
                    return -1;
                }
                pass->phrase_node[p] = (uint32_t)child;
            }
            if (i < active) {
                const uint32_t p = pass->active[i];
                const size_t hash = index_edge_hash(pass->phrase_node[p],
                                                    pass->ids[pass->phrase_start[p] + depth]);
                hashes[i % INDEX_AHEAD] = hash;
#if defined(__GNUC__) || defined(__clang__)
                __builtin_prefetch(&pass->edges[hash & pass->edge_mask]);
#endif
            }
        }
        size_t kept = 0;
        for (size_t i = 0; i < active; i++) {
            const uint32_t p = pass->active[i];
            if (pass->phrase_tokens[p] > depth + 1) {
                pass->active[kept++] = p;
            }
        }
        active = kept;
    }
    return 0;
}

/* Resolve the batch and append its records (those with a non-empty phrase B), emptying it. */
static int
index_flush(IndexPass *pass)
{
    if (index_resolve(pass) < 0) {
        return -1;
    }
    const size_t need = pass->records + pass->batch_records;
    if (need > pass->record_cap) {
        if (need > UINT32_MAX) {
            return index_fail_too_large(pass);
        }
        const IndexArray arrays[] = {{(void **)&pass->a, sizeof(uint32_t)},
                                     {(void **)&pass->b, sizeof(uint32_t)}};
        if (index_grow_together(arrays, 2, &pass->record_cap, need) < 0) {
            return index_fail_memory(pass);
        }
    }
    for (size_t r = 0; r < pass->batch_records; r++) {
        const uint32_t b = pass->phrase_node[pass->record_b[r]];
        if (b == 0) {
            pass->skipped++;
            continue;
        }
        const int32_t a = pass->record_a[r];
        pass->a[pass->records] = a < 0 ? pass->previous_a_node : pass->phrase_node[a];
        pass->b[pass->records] = b;
        pass->records++;
    }
    if (pass->last_a >= 0) {
        pass->previous_a_node = pass->phrase_node[pass->last_a];
        pass->last_a = -1;
    }
    pass->batch_records = 0;
    pass->phrase_count = 0;
    pass->id_count = 0;
    return 0;
}

/* index_phrase_tokens of a line, its invalid UTF-8 first replaced as Python's decoder does
 * with errors="replace" (the text reader the builder stands in for): the phrase's number in
 * the batch, or -1. */
static int64_t
index_phrase(IndexPass *pass, const char *s, size_t n)
{
    size_t k = 0;
    while (k < n && (unsigned char)s[k] < 0x80) {
        k++;
    }
    if (k == n || index_valid_utf8((const unsigned char *)s + k, n - k)) {
        return index_phrase_tokens(pass, s, n);
    }
    PyThreadState *saved = pass->thread;
    if (saved != NULL) {
        PyEval_RestoreThread(saved);
        pass->thread = NULL;
    }
    int64_t phrase = -1;
    PyObject *text = PyUnicode_DecodeUTF8(s, (Py_ssize_t)n, "replace");
    PyObject *repaired = text == NULL ? NULL : PyUnicode_AsUTF8String(text);
    Py_XDECREF(text);
    if (repaired != NULL) {
        phrase = index_phrase_tokens(pass, PyBytes_AS_STRING(repaired),
                                     (size_t)PyBytes_GET_SIZE(repaired));
        Py_DECREF(repaired);
    }
    if (phrase < 0) {
        pass->failed = -1;
    }
    if (saved != NULL) {
        pass->thread = PyEval_SaveThread();
    }
    return phrase;
}

/* One line of the table: a record's score (not read), phrase A or phrase B. */
static int
index_line(IndexPass *pass, const char *s, size_t n)
{
    const uint64_t which = pass->lines++ % 3;
    if (which == 0) {
        return 0;
    }
    if (which == 1) {
        /* The table is grouped by phrase A: a line equal to the previous phrase A is not read
         * again. */
        if (pass->has_previous_a && pass->previous_a_len == n &&
            (n == 0 || memcmp(pass->previous_a, s, n) == 0)) {
            return 0;
        }
        const int64_t phrase = index_phrase(pass, s, n);
        if (phrase < 0) {
            return -1;
        }
        if (index_grow((void **)&pass->previous_a, &pass->previous_a_cap, n, 1) < 0) {
            return index_fail_memory(pass);
        }
        if (n) { /* previous_a is still NULL after empty phrases only */
            memcpy(pass->previous_a, s, n);
        }
        pass->previous_a_len = n;
        pass->has_previous_a = 1;
        pass->last_a = phrase;
        return 0;
    }
    const int64_t phrase = index_phrase(pass, s, n);
    if (phrase < 0) {
        return -1;
    }
    if (pass->batch_records == pass->batch_record_cap) {
        const IndexArray arrays[] = {{(void **)&pass->record_a, sizeof(int32_t)},
                                     {(void **)&pass->record_b, sizeof(int32_t)}};
        if (index_grow_together(arrays, 2, &pass->batch_record_cap, pass->batch_record_cap + 1) <
            0) {
            return index_fail_memory(pass);
        }
    }
    pass->record_a[pass->batch_records] = (int32_t)pass->last_a;
    pass->record_b[pass->batch_records] = (int32_t)phrase;
    pass->batch_records++;
    if (pass->phrase_count >= pass->batch) {
        return index_flush(pass);
    }
    return 0;
}

/* Append the n bytes at s to the line carried over from a block's end; 0, or -1 on failure. */
static int
index_carry(IndexPass *pass, const char *s, size_t n)
{
    if (index_grow((void **)&pass->carry, &pass->carry_cap, pass->carry_len + n, 1) < 0) {
        return index_fail_memory(pass);
    }
    memcpy(pass->carry + pass->carry_len, s, n);
    pass->carry_len += n;
    return 0;
}

/* The lines of one block of text; a line cut by the block's end waits in carry. Line ends are
 * \n, \r\n and \r (Java's readLine). */
static int
index_block(IndexPass *pass, const char *s, size_t n)
{
    const char *p = s, *end = s + n;
    /* Most tables have no \r: their line ends are found by memchr. */
    const int has_cr = memchr(s, '\r', n) != NULL;
    while (p < end) {
        if (pass->after_cr) {
            pass->after_cr = 0;
            if (*p == '\n') {
                p++;
                continue;
            }
        }
        const char *q;
        if (has_cr) {
            q = p;
            while (q < end && *q != '\n' && *q != '\r') {
                q++;
            }
        }
        else {
            q = memchr(p, '\n', (size_t)(end - p));
            if (q == NULL) {
                q = end;
            }
        }
        if (q == end) {
            if (index_carry(pass, p, (size_t)(end - p)) < 0) {
                return -1;
            }
            break;
        }
        int rc;
        if (pass->carry_len) {
            if (index_carry(pass, p, (size_t)(q - p)) < 0) {
                return -1;
            }
            rc = index_line(pass, pass->carry, pass->carry_len);
            pass->carry_len = 0;
        }
        else {
            rc = index_line(pass, p, (size_t)(q - p));
        }
        if (rc < 0) {
            return -1;
        }
        pass->after_cr = *q == '\r';
        p = q + 1;
    }
    return 0;
}

static void
index_pass_free(IndexPass *pass)
{
    free(pass->text);
    free(pass->token_start);
    free(pass->token_len);
    free(pass->token_hash);
    free(pass->token_slots);
    free(pass->edges);
    free(pass->a);
    free(pass->b);
    free(pass->carry);
    free(pass->previous_a);
    free(pass->ids);
    free(pass->phrase_start);
    free(pass->phrase_tokens);
    free(pass->phrase_node);
    free(pass->active);
    free(pass->record_a);
    free(pass->record_b);
}

static int
index_compare_u64(const void *x, const void *y)
{
    const uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* Breadth-first numbering, children in token order: final[discovery id] and, in final order,
 * each node's token and parent, as native uint32 bytes (allocated once the edge table, which
 * this frees, is gone). 0, or -1 with an exception set. */
static int
index_number(IndexPass *pass, PyObject **final_out, PyObject **token_out, PyObject **parent_out)
{
    const size_t nodes = (size_t)pass->nodes;
    /* Each node's children (token << 32 | child), grouped by parent (discovery ids). */
    uint32_t *first = calloc(nodes + 1, sizeof(uint32_t));
    uint64_t *children = malloc((nodes > 1 ? nodes - 1 : 1) * sizeof(uint64_t));
    if (first == NULL || children == NULL) {
        free(first);
        free(children);
        PyErr_NoMemory();
        return -1;
    }
    for (size_t j = 0; j <= pass->edge_mask; j++) {
        if (pass->edges[j].node != 0) {
            first[pass->edges[j].parent + 1]++;
        }
    }
    for (size_t v = 0; v < nodes; v++) {
        first[v + 1] += first[v];
    }
    for (size_t j = 0; j <= pass->edge_mask; j++) {
        const IndexEdge edge = pass->edges[j];
        if (edge.node != 0) {
            children[first[edge.parent]++] = (uint64_t)edge.token << 32 | edge.node;
        }
    }
    free(pass->edges);
    pass->edges = NULL;
    /* first[v] is now the end of v's children: shift back to their start. */
    memmove(first + 1, first, nodes * sizeof(uint32_t));
    first[0] = 0;
    for (size_t v = 0; v < nodes; v++) {
        uint64_t *group = children + first[v];
        const size_t size = first[v + 1] - first[v];
        if (size > 16) {
            qsort(group, size, sizeof(uint64_t), index_compare_u64);
        }
        else {
            for (size_t i = 1; i < size; i++) {
                const uint64_t key = group[i];
                size_t j = i;
                while (j > 0 && group[j - 1] > key) {
                    group[j] = group[j - 1];
                    j--;
                }
                group[j] = key;
            }
        }
    }
    uint32_t *queue = malloc(nodes * sizeof(uint32_t));
    *final_out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(nodes * 4));
    *token_out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(nodes * 4));
    *parent_out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(nodes * 4));
    if (queue == NULL || *final_out == NULL || *token_out == NULL || *parent_out == NULL) {
        free(queue);
        free(first);
        free(children);
        if (!PyErr_Occurred()) {
            PyErr_NoMemory();
        }
        return -1;
    }
    uint32_t *final = (uint32_t *)PyBytes_AS_STRING(*final_out);
    uint32_t *token = (uint32_t *)PyBytes_AS_STRING(*token_out);
    uint32_t *parent = (uint32_t *)PyBytes_AS_STRING(*parent_out);
    final[0] = 0;
    token[0] = 0;
    parent[0] = 0;
    size_t next = 1;
    queue[0] = 0;
    for (size_t head = 0; head < next; head++) {
        const uint32_t v = queue[head];
        for (uint32_t c = first[v]; c < first[v + 1]; c++) {
            const uint32_t child = (uint32_t)children[c];
            queue[next] = child;
            final[child] = (uint32_t)next;
            token[next] = (uint32_t)(children[c] >> 32);
            parent[next] = (uint32_t)head;
            next++;
        }
    }
    free(queue);
    free(first);
    free(children);
    return 0;
}

/* bytes holding n native uint32 values of data (NULL with an exception set). */
static PyObject *
index_u32_bytes(const uint32_t *data, size_t n)
{
    return PyBytes_FromStringAndSize(n ? (const char *)data : NULL, (Py_ssize_t)(n * 4));
}

/*
 * paraphrase_index_pass(blocks, batch=32768) -> (vocab, vocab_count, final, token, parent, a,
 *                                                 b, skipped, lines)
 *
 * blocks: an iterable of bytes, the decompressed table in order; batch: the phrases read
 * before their nodes are looked up (the tests make it small, so that runs of phrase A cross
 * batches). Returns the vocabulary
 * section (tokens joined by b"\n", ids in order of first occurrence, phrase A before phrase
 * B, record by record) and its count; final: the breadth-first id of each node by discovery
 * id; token and parent: each node's token and parent, breadth-first order; a and b: the
 * phrase-A and phrase-B node (discovery ids) of every record with a non-empty phrase B, in
 * file order; skipped: the records without; lines: the lines read (not a multiple of 3 when
 * the last record is incomplete). Arrays are native uint32 bytes.
 */
PyObject *
paraphrase_index_pass_c(PyObject *self, PyObject *args)
{
    PyObject *blocks;
    Py_ssize_t batch = 1 << 15;
    if (!PyArg_ParseTuple(args, "O|n:paraphrase_index_pass", &blocks, &batch)) {
        return NULL;
    }
    /* At most 2**24: a batch's phrases are numbered in 32 bits (int32_t record_a). */
    if (batch < 1 || batch > (1 << 24)) {
        PyErr_SetString(PyExc_ValueError, "paraphrase_index_pass: batch must be 1 to 2**24");
        return NULL;
    }
    PyObject *iterator = PyObject_GetIter(blocks);
    if (iterator == NULL) {
        return NULL;
    }
    IndexPass pass;
    memset(&pass, 0, sizeof(pass));
    PyObject *result = NULL, *final = NULL, *token = NULL, *parent = NULL;
    pass.nodes = 1;
    pass.last_a = -1;
    pass.batch = (size_t)batch;
    pass.token_mask = (1 << 12) - 1;
    pass.edge_mask = (1 << 16) - 1;
    pass.token_slots = calloc(pass.token_mask + 1, sizeof(uint32_t));
    pass.edges = calloc(pass.edge_mask + 1, sizeof(IndexEdge));
    if (pass.token_slots == NULL || pass.edges == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (;;) {
        PyObject *block = PyIter_Next(iterator);
        if (block == NULL) {
            if (PyErr_Occurred()) {
                goto done;
            }
            break;
        }
        Py_buffer view;
        if (PyObject_GetBuffer(block, &view, PyBUF_SIMPLE) < 0) {
            Py_DECREF(block);
            goto done;
        }
        /* The block is not changed while it is read (the caller hands over bytes): the next
         * one is decompressed meanwhile in the caller's other thread. */
        pass.thread = PyEval_SaveThread();
        const int rc = index_block(&pass, view.buf, (size_t)view.len);
        PyEval_RestoreThread(pass.thread);
        pass.thread = NULL;
        PyBuffer_Release(&view);
        Py_DECREF(block);
        if (rc < 0) {
            goto done;
        }
    }
    if (pass.carry_len) {
        /* The last line, without a line end. */
        if (index_line(&pass, pass.carry, pass.carry_len) < 0) {
            goto done;
        }
        pass.carry_len = 0;
    }
    if (index_flush(&pass) < 0) {
        goto done;
    }
    if (index_number(&pass, &final, &token, &parent) < 0) {
        goto done;
    }
    PyObject *vocab = PyBytes_FromStringAndSize(pass.text_len ? pass.text : NULL,
                                                (Py_ssize_t)pass.text_len);
    free(pass.text);
    pass.text = NULL;
    PyObject *a = vocab == NULL ? NULL : index_u32_bytes(pass.a, pass.records);
    free(pass.a);
    pass.a = NULL;
    PyObject *b = a == NULL ? NULL : index_u32_bytes(pass.b, pass.records);
    free(pass.b);
    pass.b = NULL;
    if (b != NULL) {
        result = Py_BuildValue("(NINNNNNKK)", vocab, (unsigned int)pass.tokens, final, token,
                               parent, a, b, (unsigned long long)pass.skipped,
                               (unsigned long long)pass.lines);
        /* Py_BuildValue's N took the references, even on failure. */
        final = token = parent = NULL;
    }
    else {
        Py_XDECREF(vocab);
        Py_XDECREF(a);
    }
done:
    Py_XDECREF(final);
    Py_XDECREF(token);
    Py_XDECREF(parent);
    index_pass_free(&pass);
    Py_DECREF(iterator);
    return result;
}
