/*
 * NLTK's staged greedy alignment (the nltk flavour of METEOR), as align/greedy.py computes it:
 *
 *   greedy_align(hyp_words, ref_words, stem, synonyms) -> list
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
static int
greedy_equal_stage(PyObject **hyp, Py_ssize_t nh, PyObject **ref, Py_ssize_t nr, int32_t *hyp_to,
                   unsigned char *ref_taken, int32_t *stage_of, int stage)
{
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

/* Release an array of n stems (NULL where none was made) and the array. */
static void
free_stems(PyObject **stems, Py_ssize_t n)
{
    for (Py_ssize_t k = 0; stems != NULL && k < n; k++) {
        Py_XDECREF(stems[k]);
    }
    PyMem_Free(stems);
}

static PyObject *
greedy_align_c(PyObject *self, PyObject *args)
{
    PyObject *hyp_obj, *ref_obj, *stem, *synonyms;
    if (!PyArg_ParseTuple(args, "OOOO:greedy_align", &hyp_obj, &ref_obj, &stem, &synonyms)) {
        return NULL;
    }
    PyObject *hyp = NULL, *ref = NULL, *result = NULL;
    PyObject **hs = NULL, **rs = NULL; /* stems (new references) */
    int32_t *hyp_to = NULL, *stage_of = NULL;
    unsigned char *ref_taken = NULL;
    Py_ssize_t nh = 0, nr = 0;
    hyp = PySequence_Fast(hyp_obj, "hyp_words: expected a sequence of str");
    if (hyp == NULL) {
        goto done;
    }
    ref = PySequence_Fast(ref_obj, "ref_words: expected a sequence of str");
    if (ref == NULL) {
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
    if (hyp_to == NULL || stage_of == NULL || ref_taken == NULL || hs == NULL || rs == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nh; i++) {
        hyp_to[i] = -1;
    }
    PyObject **hw = PySequence_Fast_ITEMS(hyp), **rw = PySequence_Fast_ITEMS(ref);
    if (greedy_equal_stage(hw, nh, rw, nr, hyp_to, ref_taken, stage_of, 0) < 0) {
        goto done;
    }
    Py_ssize_t hyp_left, ref_left;
    count_free(hyp_to, nh, ref_taken, nr, &hyp_left, &ref_left);
    if (stem != Py_None && hyp_left && ref_left) {
        /* Stems of the free words, hypothesis from last to first, then the reference. */
        for (Py_ssize_t i = nh - 1; i >= 0; i--) {
            if (hyp_to[i] < 0 && (hs[i] = PyObject_CallOneArg(stem, hw[i])) == NULL) {
                goto done;
            }
        }
        for (Py_ssize_t j = 0; j < nr; j++) {
            if (!ref_taken[j] && (rs[j] = PyObject_CallOneArg(stem, rw[j])) == NULL) {
                goto done;
            }
        }
        /* Matched positions keep a NULL stem and are skipped by the taken / matched tests. */
        if (greedy_equal_stage(hs, nh, rs, nr, hyp_to, ref_taken, stage_of, 1) < 0) {
            goto done;
        }
        count_free(hyp_to, nh, ref_taken, nr, &hyp_left, &ref_left);
        if (synonyms != Py_None && hyp_left && ref_left) {
            for (Py_ssize_t i = nh - 1; i >= 0; i--) {
                if (hyp_to[i] >= 0) {
                    continue;
                }
                PyObject *names = PyObject_CallOneArg(synonyms, hs[i]);
                if (names == NULL) {
                    goto done;
                }
                Py_ssize_t best = -1;
                for (Py_ssize_t j = nr - 1; j >= 0 && best < 0; j--) {
                    if (ref_taken[j]) {
                        continue;
                    }
                    int in = PySequence_Contains(names, rs[j]);
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
    PyMem_Free(hyp_to);
    PyMem_Free(stage_of);
    PyMem_Free(ref_taken);
    Py_XDECREF(hyp);
    Py_XDECREF(ref);
    return result;
}

PyMethodDef meteor_greedy_methods[] = {
    {"greedy_align", greedy_align_c, METH_VARARGS,
     "greedy_align(hyp_words, ref_words, stem, synonyms) -> list\n\n"
     "NLTK's staged greedy alignment: (i, j, stage) triples ordered by hypothesis index."},
    {NULL, NULL, 0, NULL},
};
