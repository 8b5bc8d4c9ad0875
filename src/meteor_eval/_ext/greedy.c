/*
 * NLTK's staged greedy alignment (the nltk flavour of METEOR), as align/greedy.py computes it:
 *
 *   greedy_align(hyp_words, ref_words, stem, synonyms[, raw_names]) -> list
 *   greedy_counts(hyp_words, ref_words, stem, synonyms[, raw_names]) -> (exact, stem, synonym,
 *                 chunks)
 *
 * With raw_names true, synonyms(stem) gives the raw WordNet lemma names of the stem and the
 * synonym test applies NLTK's filter itself (names without "_", plus the stem).
 *
 * stem and synonyms are callables or mappings (a per-word cache): a dict is read directly and
 * indexed (cache[word], so that a subclass's __missing__ computes and stores) only for a word it
 * does not hold yet, which saves a Python call per word on a warm cache.
 */

#include "kernels.h"

/*
 * greedy_align(hyp_words, ref_words, stem, synonyms) -> list
 *
 * NLTK's staged greedy alignment (align/greedy.py's greedy_align, which stays the reference):
 * exact words, then stems (stem(word) for the words still free; None skips stages 2 and 3),
 * then synonyms (synonyms(stem) of each free hypothesis stem is a container of names; None
 * skips stage 3). In each stage the free hypothesis words are visited from last to first and
 * each takes the free reference position with the highest index whose word (stem) is equal
 * (is one of the names). Returns (i, j, stage) tuples ordered by hypothesis index.
 */
/*
 * Whether every free word of both sides is an exact str, and then their hashes (str caches its
 * hash, so this is one pass of loads): equal strings have equal hashes, so the scan compares
 * integers and calls the string comparison only on a hash match.
 */
static int
greedy_str_hashes(PyObject **words, Py_ssize_t n, const unsigned char *skip_ref,
                  const int32_t *skip_hyp, Py_hash_t *hashes)
{
    for (Py_ssize_t k = 0; k < n; k++) {
        if ((skip_ref != NULL && skip_ref[k]) || (skip_hyp != NULL && skip_hyp[k] >= 0)) {
            continue;
        }
        if (!PyUnicode_CheckExact(words[k])) {
            return 0;
        }
        hashes[k] = PyObject_Hash(words[k]);
        if (hashes[k] == -1) {
            PyErr_Clear();
            return 0;
        }
    }
    return 1;
}

static int
greedy_equal_stage(PyObject **hyp, Py_ssize_t nh, PyObject **ref, Py_ssize_t nr, int32_t *hyp_to,
                   unsigned char *ref_taken, int32_t *stage_of, int stage, Py_hash_t *hyp_hash,
                   Py_hash_t *ref_hash)
{
    if (greedy_str_hashes(hyp, nh, NULL, hyp_to, hyp_hash) &&
        greedy_str_hashes(ref, nr, ref_taken, NULL, ref_hash)) {
        for (Py_ssize_t i = nh - 1; i >= 0; i--) {
            if (hyp_to[i] >= 0) {
                continue;
            }
            Py_hash_t h = hyp_hash[i];
            for (Py_ssize_t j = nr - 1; j >= 0; j--) {
                if (ref_taken[j] || ref_hash[j] != h ||
                    (hyp[i] != ref[j] && PyUnicode_Compare(hyp[i], ref[j]) != 0)) {
                    continue;
                }
                hyp_to[i] = (int32_t)j;
                stage_of[i] = stage;
                ref_taken[j] = 1;
                break;
            }
        }
        return 0;
    }
    for (Py_ssize_t i = nh - 1; i >= 0; i--) {
        if (hyp_to[i] >= 0) {
            continue;
        }
        for (Py_ssize_t j = nr - 1; j >= 0; j--) {
            if (ref_taken[j]) {
                continue;
            }
            int eq = hyp[i] == ref[j] ? 1 : PyObject_RichCompareBool(hyp[i], ref[j], Py_EQ);
            if (eq < 0) {
                return -1;
            }
            if (eq) {
                hyp_to[i] = (int32_t)j;
                stage_of[i] = stage;
                ref_taken[j] = 1;
                break;
            }
        }
    }
    return 0;
}

/* How many hypothesis and reference words are still free. */
static void
count_free(const int32_t *hyp_to, Py_ssize_t nh, const unsigned char *ref_taken, Py_ssize_t nr,
           Py_ssize_t *hyp_left, Py_ssize_t *ref_left)
{
    *hyp_left = *ref_left = 0;
    for (Py_ssize_t i = 0; i < nh; i++) {
        *hyp_left += hyp_to[i] < 0;
    }
    for (Py_ssize_t j = 0; j < nr; j++) {
        *ref_left += !ref_taken[j];
    }
}

/*
 * Looks word up in the dict d (Python 3.13's PyDict_GetItemRef): 1 with a new reference in
 * *found, 0 when d lacks it, -1 with an exception set when the lookup failed.
 */
static inline int
dict_get_ref(PyObject *d, PyObject *word, PyObject **found)
{
    *found = PyDict_GetItemWithError(d, word);
    if (*found != NULL) {
        Py_INCREF(*found);
        return 1;
    }
    return PyErr_Occurred() ? -1 : 0;
}

/*
 * A cached function (cache, compute, limit): cache[word] when the dict holds it, else
 * compute(word), stored after clearing the cache when it holds limit words or more (the rule
 * of the nltk flavour's __missing__ caches, without their Python frame per new word).
 */
static PyObject *
greedy_cached(PyObject *fn, PyObject *word)
{
    PyObject *cache = PyTuple_GET_ITEM(fn, 0), *compute = PyTuple_GET_ITEM(fn, 1);
    if (!PyDict_Check(cache)) {
        PyErr_SetString(PyExc_TypeError, "greedy: a cached function's cache must be a dict");
        return NULL;
    }
    PyObject *found;
    if (dict_get_ref(cache, word, &found) != 0) {
        return found; /* the value, or NULL with the lookup's error */
    }
    Py_ssize_t limit = PyLong_AsSsize_t(PyTuple_GET_ITEM(fn, 2));
    if (limit == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (PyDict_GET_SIZE(cache) >= limit) {
        PyDict_Clear(cache);
    }
    PyObject *value = PyObject_CallOneArg(compute, word);
    if (value != NULL && PyDict_SetItem(cache, word, value) < 0) {
        Py_CLEAR(value);
    }
    return value;
}

/*
 * fn(word); fn[word] when fn is a dict (a borrowed lookup first, then indexing, so that a
 * subclass's __missing__ runs on a miss) or another mapping that is not callable; a tuple of
 * three is a cached function (greedy_cached).
 */
static PyObject *
greedy_lookup(PyObject *fn, PyObject *word)
{
    if (PyTuple_CheckExact(fn) && PyTuple_GET_SIZE(fn) == 3) {
        return greedy_cached(fn, word);
    }
    if (PyDict_Check(fn)) {
        PyObject *found;
        if (dict_get_ref(fn, word, &found) != 0) {
            return found;
        }
        return PyObject_GetItem(fn, word);
    }
    if (!PyCallable_Check(fn) && PyMapping_Check(fn)) {
        return PyObject_GetItem(fn, word);
    }
    return PyObject_CallOneArg(fn, word);
}

/*
 * Whether word is one of NLTK's synonyms of stem when names holds the raw lemma names of stem:
 * word is stem itself, or a name of names without "_" (NLTK keeps only single-word names and
 * adds the word). Saves building a filtered set per word type; -1 with an exception on error.
 */
static int
greedy_in_raw_names(PyObject *names, PyObject *word, PyObject *stem)
{
    int same = word == stem ? 1 : PyObject_RichCompareBool(word, stem, Py_EQ);
    if (same != 0) {
        return same;
    }
    int in = PySequence_Contains(names, word);
    if (in <= 0) {
        return in;
    }
    if (!PyUnicode_Check(word)) {
        PyErr_SetString(PyExc_TypeError, "greedy: a synonym name must be a str");
        return -1;
    }
    Py_ssize_t at = PyUnicode_FindChar(word, '_', 0, PyUnicode_GET_LENGTH(word), 1);
    return at == -2 ? -1 : at < 0;
}

/* Release an array of n stems (NULL where none was made) and the array. */
static void
free_stems(PyObject **stems, Py_ssize_t n)
{
    for (Py_ssize_t k = 0; stems != NULL && k < n; k++) {
        Py_XDECREF(stems[k]);
    }
    PyMem_Free(stems);
}

/*
 * Both functions: align, then return the triples (counts == 0) or the per-stage counts and the
 * chunks (counts == 1), NLTK's _count_chunks over the triples (0 when nothing matches).
 */
static PyObject *
greedy_run(PyObject *const *args, Py_ssize_t nargs, int counts)
{
    if (nargs != 4 && nargs != 5) {
        PyErr_Format(PyExc_TypeError, "%s expected 4 or 5 arguments, got %zd",
                     counts ? "greedy_counts" : "greedy_align", nargs);
        return NULL;
    }
    PyObject *hyp_obj = args[0], *ref_obj = args[1], *stem = args[2], *synonyms = args[3];
    const int raw = nargs == 5 ? PyObject_IsTrue(args[4]) : 0;
    if (raw < 0) {
        return NULL;
    }
    PyObject *hyp = NULL, *ref = NULL, *result = NULL;
    PyObject **hs = NULL, **rs = NULL; /* stems (new references) */
    int32_t *hyp_to = NULL, *stage_of = NULL;
    unsigned char *ref_taken = NULL;
    Py_hash_t *hyp_hash = NULL, *ref_hash = NULL;
    Py_ssize_t nh = 0, nr = 0;
    if (fast_sides(hyp_obj, ref_obj, "hyp_words: expected a sequence of str",
                   "ref_words: expected a sequence of str", &hyp, &ref) < 0) {
        goto done;
    }
    nh = PySequence_Fast_GET_SIZE(hyp);
    nr = PySequence_Fast_GET_SIZE(ref);
    if (nh > INT32_MAX || nr > INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "greedy_align: segment too long");
        goto done;
    }
    hyp_to = PyMem_Malloc((size_t)(nh + 1) * sizeof(int32_t));
    stage_of = PyMem_Malloc((size_t)(nh + 1) * sizeof(int32_t));
    ref_taken = PyMem_Calloc((size_t)(nr + 1), 1);
    hs = PyMem_Calloc((size_t)(nh + 1), sizeof(PyObject *));
    rs = PyMem_Calloc((size_t)(nr + 1), sizeof(PyObject *));
    hyp_hash = PyMem_Malloc((size_t)(nh + 1) * sizeof(Py_hash_t));
    ref_hash = PyMem_Malloc((size_t)(nr + 1) * sizeof(Py_hash_t));
    if (hyp_to == NULL || stage_of == NULL || ref_taken == NULL || hs == NULL || rs == NULL ||
        hyp_hash == NULL || ref_hash == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nh; i++) {
        hyp_to[i] = -1;
    }
    PyObject **hw = PySequence_Fast_ITEMS(hyp), **rw = PySequence_Fast_ITEMS(ref);
    if (greedy_equal_stage(hw, nh, rw, nr, hyp_to, ref_taken, stage_of, 0, hyp_hash, ref_hash) <
        0) {
        goto done;
    }
    Py_ssize_t hyp_left, ref_left;
    count_free(hyp_to, nh, ref_taken, nr, &hyp_left, &ref_left);
    if (stem != Py_None && hyp_left && ref_left) {
        /* Stems of the free words, hypothesis from last to first, then the reference. */
        for (Py_ssize_t i = nh - 1; i >= 0; i--) {
            if (hyp_to[i] < 0 && (hs[i] = greedy_lookup(stem, hw[i])) == NULL) {
                goto done;
            }
        }
        for (Py_ssize_t j = 0; j < nr; j++) {
            if (!ref_taken[j] && (rs[j] = greedy_lookup(stem, rw[j])) == NULL) {
                goto done;
            }
        }
        /* Matched positions keep a NULL stem and are skipped by the taken / matched tests. */
        if (greedy_equal_stage(hs, nh, rs, nr, hyp_to, ref_taken, stage_of, 1, hyp_hash,
                               ref_hash) < 0) {
            goto done;
        }
        count_free(hyp_to, nh, ref_taken, nr, &hyp_left, &ref_left);
        if (synonyms != Py_None && hyp_left && ref_left) {
            for (Py_ssize_t i = nh - 1; i >= 0; i--) {
                if (hyp_to[i] >= 0) {
                    continue;
                }
                PyObject *names = greedy_lookup(synonyms, hs[i]);
                if (names == NULL) {
                    goto done;
                }
                Py_ssize_t best = -1;
                for (Py_ssize_t j = nr - 1; j >= 0 && best < 0; j--) {
                    if (ref_taken[j]) {
                        continue;
                    }
                    int in = raw ? greedy_in_raw_names(names, rs[j], hs[i])
                                 : PySequence_Contains(names, rs[j]);
                    if (in < 0) {
                        Py_DECREF(names);
                        goto done;
                    }
                    if (in) {
                        best = j;
                    }
                }
                Py_DECREF(names);
                if (best >= 0) {
                    hyp_to[i] = (int32_t)best;
                    stage_of[i] = 2;
                    ref_taken[best] = 1;
                }
            }
        }
    }
    if (counts) {
        Py_ssize_t per_stage[3] = {0, 0, 0}, chunks = 0, last_i = -2, last_j = -2;
        for (Py_ssize_t i = 0; i < nh; i++) {
            if (hyp_to[i] < 0) {
                continue;
            }
            per_stage[stage_of[i]]++;
            if (!(i == last_i + 1 && hyp_to[i] == last_j + 1)) {
                chunks++;
            }
            last_i = i;
            last_j = hyp_to[i];
        }
        result = Py_BuildValue("(nnnn)", per_stage[0], per_stage[1], per_stage[2], chunks);
        goto done;
    }
    result = PyList_New(0);
    if (result == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < nh; i++) {
        if (hyp_to[i] < 0) {
            continue;
        }
        PyObject *triple = Py_BuildValue("(nii)", i, (int)hyp_to[i], (int)stage_of[i]);
        if (triple == NULL || PyList_Append(result, triple) < 0) {
            Py_XDECREF(triple);
            Py_CLEAR(result);
            goto done;
        }
        Py_DECREF(triple);
    }
done:
    free_stems(hs, nh);
    free_stems(rs, nr);
    FREE_EACH(hyp_to, stage_of, ref_taken, hyp_hash, ref_hash);
    Py_XDECREF(hyp);
    Py_XDECREF(ref);
    return result;
}

PyObject *
greedy_align_c(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return greedy_run(args, nargs, 0);
}

PyObject *
greedy_counts_c(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return greedy_run(args, nargs, 1);
}

/*
 * nltk_wordnet_names(lemma, tables, exceptions, rules) -> frozenset
 *
 * The raw lemma names that NLTK's wordnet.synsets(lemma) reaches (NltkWordNet.lemma_names of a
 * lower-cased word), over the binary NLTK view's arrays; resources/wordnet/nltk.py's
 * _NltkIndex.lemma_names stays the reference. tables holds the view's sections: (key blob,
 * key starts, key slots, masks, entry starts, entries, bounds, name starts, names), the
 * uint32 arrays as buffers of native values. The lemma is a form for every part of speech it
 * has; exceptions (four dicts, n v a r: inflected form -> its bases, separated by spaces)
 * give the other forms of a listed word for their part of speech, and rules ((suffix,
 * replacement, pos bits), ...; ASCII) the substitutions, for the parts of speech without an
 * exception entry.
 */


typedef struct {
    Py_buffer view[8]; /* blob, starts, slots, masks, entry_starts, entries, name_starts, names */
    const unsigned char *blob, *masks, *names;
    const uint32_t *starts, *slots, *entry_starts, *entries, *name_starts;
    Py_ssize_t blob_len, keys, n_slots, n_entries, n_synsets, names_len;
    Py_ssize_t bounds[5];
} WnTables;

static void
wn_release(WnTables *t)
{
    release_buffers(t->view, 8);
}

static int
wn_damaged(void)
{
    PyErr_SetString(PyExc_ValueError, "nltk_wordnet_names: the tables are damaged");
    return -1;
}

static int
wn_open(WnTables *t, PyObject *tables)
{
    static const int order[8] = {0, 1, 2, 3, 4, 5, 7, 8}; /* tuple items with a buffer */
    memset(t, 0, sizeof(*t));
    if (!PyTuple_Check(tables) || PyTuple_GET_SIZE(tables) != 9) {
        PyErr_SetString(PyExc_TypeError, "nltk_wordnet_names: tables must be a 9-tuple");
        return -1;
    }
    for (int k = 0; k < 8; k++) {
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(tables, order[k]), &t->view[k], PyBUF_SIMPLE) <
            0) {
            return -1;
        }
    }
    PyObject *bounds = PyTuple_GET_ITEM(tables, 6);
    if (!PyTuple_Check(bounds) || PyTuple_GET_SIZE(bounds) != 5) {
        PyErr_SetString(PyExc_TypeError, "nltk_wordnet_names: bounds must be a 5-tuple");
        return -1;
    }
    for (int k = 0; k < 5; k++) {
        t->bounds[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(bounds, k));
        if (t->bounds[k] == -1 && PyErr_Occurred()) {
            return -1;
        }
    }
    t->blob = t->view[0].buf;
    t->blob_len = t->view[0].len;
    t->starts = t->view[1].buf;
    t->keys = t->view[1].len / 4 - 1;
    t->slots = t->view[2].buf;
    t->n_slots = t->view[2].len / 4;
    t->masks = t->view[3].buf;
    t->entry_starts = t->view[4].buf;
    t->entries = t->view[5].buf;
    t->n_entries = t->view[5].len / 4;
    t->name_starts = t->view[6].buf;
    t->n_synsets = t->view[6].len / 4 - 1;
    t->names = t->view[7].buf;
    t->names_len = t->view[7].len;
    /* A power-of-two slot table, one mask and entry start per key, bounds in order. */
    if (t->keys < 0 || t->n_synsets < 0 || t->n_slots < 2 || (t->n_slots & (t->n_slots - 1)) ||
        t->view[3].len < t->keys || t->view[4].len / 4 < t->keys + 1 || t->bounds[0] != 0 ||
        t->bounds[4] != t->n_synsets) {
        return wn_damaged();
    }
    for (int k = 0; k < 4; k++) {
        if (t->bounds[k] > t->bounds[k + 1]) {
            return wn_damaged();
        }
    }
    return 0;
}

/* The index of the key p[0:n], -1 when absent; -2 (ValueError set) on damaged tables. */
static Py_ssize_t
wn_find(const WnTables *t, const unsigned char *p, Py_ssize_t n)
{
    const size_t mask = (size_t)t->n_slots - 1;
    size_t slot = crc32_bytes(p, n) & mask;
    for (Py_ssize_t probes = 0; probes < t->n_slots; probes++) {
        uint32_t number = t->slots[slot];
        if (number == 0) {
            return -1;
        }
        Py_ssize_t at = (Py_ssize_t)number - 1;
        if (at >= t->keys) {
            return wn_damaged() - 1;
        }
        uint32_t a = t->starts[at], b = t->starts[at + 1];
        if (a > b || (Py_ssize_t)b > t->blob_len) {
            return wn_damaged() - 1;
        }
        if ((Py_ssize_t)(b - a) == n && memcmp(t->blob + a, p, (size_t)n) == 0) {
            return at;
        }
        slot = (slot + 1) & mask;
    }
    return -1;
}

/* Add the names of synset `number` (space-separated UTF-8) to the set. */
static int
wn_add_names(const WnTables *t, uint32_t number, PyObject *names)
{
    if ((Py_ssize_t)number >= t->n_synsets) {
        return wn_damaged();
    }
    uint32_t a = t->name_starts[number], b = t->name_starts[number + 1];
    if (a > b || (Py_ssize_t)b > t->names_len) {
        return wn_damaged();
    }
    const char *p = (const char *)t->names + a, *end = (const char *)t->names + b;
    for (;;) {
        const char *space = memchr(p, ' ', (size_t)(end - p));
        const char *stop = space == NULL ? end : space;
        PyObject *name = PyUnicode_DecodeUTF8(p, stop - p, "strict");
        if (name == NULL) {
            return -1;
        }
        int added = PySet_Add(names, name);
        Py_DECREF(name);
        if (added < 0) {
            return -1;
        }
        if (space == NULL) {
            return 0;
        }
        p = space + 1;
    }
}

/* The names of the synsets of form p[0:n] for the parts of speech in bits (n v a r: bits 0-3). */
static int
wn_add_form(const WnTables *t, const unsigned char *p, Py_ssize_t n, int bits, PyObject *names)
{
    Py_ssize_t at = wn_find(t, p, n);
    if (at < 0) {
        return at == -1 ? 0 : -1;
    }
    int mask = t->masks[at];
    int wanted = mask & bits;
    if (!wanted) {
        return 0;
    }
    uint32_t a = t->entry_starts[at], b = t->entry_starts[at + 1];
    if (a > b || (Py_ssize_t)b > t->n_entries) {
        return wn_damaged();
    }
    for (uint32_t k = a; k < b; k++) {
        uint32_t number = t->entries[k];
        if (wanted != mask) {
            int slot = 0;
            while (slot < 4 && (Py_ssize_t)number >= t->bounds[slot + 1]) {
                slot++;
            }
            if (slot == 4 || !(wanted >> slot & 1)) {
                continue;
            }
        }
        if (wn_add_names(t, number, names) < 0) {
            return -1;
        }
    }
    return 0;
}

/* An ASCII (suffix, replacement, bits) rule's parts; -1 with TypeError if malformed. */
static int
wn_rule(PyObject *rule, const char **suffix, Py_ssize_t *ns, const char **replacement,
        Py_ssize_t *nr, int *bits)
{
    if (!PyTuple_Check(rule) || PyTuple_GET_SIZE(rule) != 3 ||
        !PyUnicode_Check(PyTuple_GET_ITEM(rule, 0)) ||
        !PyUnicode_Check(PyTuple_GET_ITEM(rule, 1))) {
        PyErr_SetString(PyExc_TypeError,
                        "nltk_wordnet_names: a rule is (suffix, replacement, bits)");
        return -1;
    }
    *suffix = PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(rule, 0), ns);
    *replacement = PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(rule, 1), nr);
    long value = PyLong_AsLong(PyTuple_GET_ITEM(rule, 2));
    if (*suffix == NULL || *replacement == NULL || (value == -1 && PyErr_Occurred())) {
        return -1;
    }
    *bits = (int)value;
    return 0;
}

static PyObject *wn_names(PyObject *lemma, PyObject *tables, PyObject *exceptions,
                          PyObject *rules);

PyObject *
nltk_wordnet_names_c(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *lemma, *tables, *exceptions, *rules;
    if (!PyArg_ParseTuple(args, "UO!O!O!:nltk_wordnet_names", &lemma, &PyTuple_Type, &tables,
                          &PyTuple_Type, &exceptions, &PyTuple_Type, &rules)) {
        return NULL;
    }
    return wn_names(lemma, tables, exceptions, rules);
}

/* nltk_wordnet_names(word.lower(), tables, exceptions, rules), the word last: bound to its
 * tables by functools.partial, it is a function of one word with no Python frame. */
PyObject *
nltk_wordnet_word_c(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError,
                        "nltk_wordnet_word() takes 4 arguments (tables, exceptions, rules, word)");
        return NULL;
    }
    if (!PyTuple_Check(args[0]) || !PyTuple_Check(args[1]) || !PyTuple_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError,
                        "nltk_wordnet_word(): tables, exceptions and rules must be tuples");
        return NULL;
    }
    if (check_str_arg(args[3], "nltk_wordnet_word") < 0) {
        return NULL;
    }
    PyObject *lemma = str_lowered(args[3]);
    if (lemma == NULL) {
        return NULL;
    }
    if (!PyUnicode_Check(lemma)) { /* a subclass's lower() may return anything */
        PyErr_SetString(PyExc_TypeError, "nltk_wordnet_word(): word.lower() is not a str");
        Py_DECREF(lemma);
        return NULL;
    }
    PyObject *out = wn_names(lemma, args[0], args[1], args[2]);
    Py_DECREF(lemma);
    return out;
}

static PyObject *
wn_names(PyObject *lemma, PyObject *tables, PyObject *exceptions, PyObject *rules)
{
    if (PyTuple_GET_SIZE(exceptions) != 4) {
        PyErr_SetString(PyExc_TypeError, "nltk_wordnet_names: exceptions must be four dicts");
        return NULL;
    }
    for (int pos = 0; pos < 4; pos++) {
        if (!PyDict_Check(PyTuple_GET_ITEM(exceptions, pos))) {
            PyErr_SetString(PyExc_TypeError, "nltk_wordnet_names: exceptions must be four dicts");
            return NULL;
        }
    }
    Py_ssize_t n;
    const char *text = PyUnicode_AsUTF8AndSize(lemma, &n);
    if (text == NULL) { /* lone surrogates: never a key, nor a listed form */
        PyErr_Clear();
        PyObject *empty = PyFrozenSet_New(NULL);
        if (empty != NULL) {
            PyObject_GC_UnTrack(empty); /* no items: no cycle (see below) */
        }
        return empty;
    }
    WnTables t;
    PyObject *names = NULL, *result = NULL;
    unsigned char *form = NULL;
    if (wn_open(&t, tables) < 0 || (names = PyFrozenSet_New(NULL)) == NULL) {
        goto done;
    }
    form = PyMem_Malloc((size_t)n + 16);
    if (form == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (wn_add_form(&t, (const unsigned char *)text, n, 15, names) < 0) {
        goto done;
    }
    /* The parts of speech still substituted: those without an exception entry for lemma. */
    int substituted = 15;
    for (int pos = 0; pos < 4; pos++) {
        PyObject *bases = PyDict_GetItemWithError(PyTuple_GET_ITEM(exceptions, pos), lemma);
        if (bases == NULL) {
            if (PyErr_Occurred()) {
                goto done;
            }
            continue;
        }
        substituted &= ~(1 << pos);
        /* str.split(): the bases as NLTK's exception list gives them. */
        PyObject *split = PyUnicode_Split(bases, NULL, -1);
        if (split == NULL) {
            goto done;
        }
        for (Py_ssize_t m = 0; m < PyList_GET_SIZE(split); m++) {
            Py_ssize_t nb;
            const char *base = PyUnicode_AsUTF8AndSize(PyList_GET_ITEM(split, m), &nb);
            if (base == NULL ||
                wn_add_form(&t, (const unsigned char *)base, nb, 1 << pos, names) < 0) {
                Py_DECREF(split);
                goto done;
            }
        }
        Py_DECREF(split);
    }
    for (Py_ssize_t k = 0; substituted && k < PyTuple_GET_SIZE(rules); k++) {
        const char *suffix, *replacement;
        Py_ssize_t ns, nr;
        int bits;
        if (wn_rule(PyTuple_GET_ITEM(rules, k), &suffix, &ns, &replacement, &nr, &bits) < 0) {
            goto done;
        }
        bits &= substituted;
        if (!bits || ns > n || memcmp(text + n - ns, suffix, (size_t)ns) != 0) {
            continue;
        }
        if (n - ns + nr > n + 16) {
            PyErr_SetString(PyExc_ValueError, "nltk_wordnet_names: a replacement is too long");
            goto done;
        }
        memcpy(form, text, (size_t)(n - ns));
        memcpy(form + n - ns, replacement, (size_t)nr);
        if (wn_add_form(&t, form, n - ns + nr, bits, names) < 0) {
            goto done;
        }
    }
    /* A new frozenset, not yet seen by other code, may be filled with PySet_Add. It holds
       str objects only and can never hold anything else, so it can be part of no reference
       cycle: the cyclic collector need not walk it (thousands of them in a run, alive in the
       caller's per-word cache, were walked at every full collection). */
    PyObject_GC_UnTrack(names);
    result = Py_NewRef(names);
done:
    PyMem_Free(form);
    Py_XDECREF(names);
    wn_release(&t);
    return result;
}
