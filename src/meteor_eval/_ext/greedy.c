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
 * fn(word); fn[word] when fn is a dict (a borrowed lookup first, then indexing, so that a
 * subclass's __missing__ runs on a miss) or another mapping that is not callable.
 */
static PyObject *
greedy_lookup(PyObject *fn, PyObject *word)
{
    if (PyDict_Check(fn)) {
        PyObject *found = PyDict_GetItemWithError(fn, word);
        if (found != NULL) {
            Py_INCREF(found);
            return found;
        }
        if (PyErr_Occurred()) {
            return NULL;
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
