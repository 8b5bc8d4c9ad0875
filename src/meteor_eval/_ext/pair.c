/*
 * The fused METEOR 1.5 pair kernel: candidates of every stage (candidates.c, paraphrase.c),
 * the beam search (beam.c) and the word statistics (stats.c) of one hypothesis/reference pair
 * of word-type ids, in one call and without Python objects in between.
 */

#include "kernels.h"

/* A buffer of fixed-size items: its length in items, or -1 with an exception set. */
static Py_ssize_t
get_items(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, const char *what)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) {
        return -1;
    }
    if (view->len % itemsize != 0) {
        PyErr_Format(PyExc_ValueError, "%s: expected packed %zd-byte values", what, itemsize);
        PyBuffer_Release(view);
        view->obj = NULL;
        return -1;
    }
    return view->len / itemsize;
}

enum { KIND_EXACT, KIND_STEM, KIND_SYNONYM, KIND_PARAPHRASE };

/*
 * meteor15_pair(kinds, hyp, ref, hashes, stems, paraphrase_ids, functions, synonym_starts,
 *               synonym_pool, trie, aligner_weights, beam, match_type) -> (row, matches)
 *
 * One METEOR 1.5 hypothesis/reference pair from start to statistics, without Python objects
 * in between: kinds[k] is the module of stage k (0 exact, 1 stem, 2 synonym, 3 paraphrase);
 * hyp and ref are int32 word-type ids indexing the per-type tables: hashes (int32 Java hash,
 * the word identity), stems (int32 stem identity), paraphrase_ids (int32 table token id, -1
 * unknown), functions (uint8 function-word flag) and the packed synonym sets
 * synonym_pool[synonym_starts[v] .. synonym_starts[v + 1]) (int64, sorted). Tables a
 * configuration does not use may be None. trie is (first_child, token, record_start, record_b,
 * root or None) of the paraphrase index, or None.
 *
 * Candidates are generated stage by stage in the matchers' orders (only the first stage runs
 * when both segments have the same identities, spec 3.5), aligned by the beam search, and
 * counted as word_stats() does. row is word_stats()'s tuple; matches is the list of chosen
 * match_type objects when match_type is given, else None.
 */
static PyObject *
meteor15_pair_c(PyObject *self, PyObject *args)
{
    PyObject *kinds_obj, *hyp_obj, *ref_obj, *hash_obj, *stem_obj, *para_obj, *func_obj;
    PyObject *start_obj, *pool_obj, *trie_obj, *weights_obj, *type;
    Py_ssize_t beam;
    if (!PyArg_ParseTuple(args, "O!OOOOOOOOOOnO:meteor15_pair", &PyBytes_Type, &kinds_obj,
                          &hyp_obj, &ref_obj, &hash_obj, &stem_obj, &para_obj, &func_obj,
                          &start_obj, &pool_obj, &trie_obj, &weights_obj, &beam, &type)) {
        return NULL;
    }
    if (beam < 1) {
        PyErr_SetString(PyExc_ValueError, "beam: must be at least 1");
        return NULL;
    }
    if (type != Py_None && check_match_type(type) < 0) {
        return NULL;
    }
    const unsigned char *kinds = (const unsigned char *)PyBytes_AS_STRING(kinds_obj);
    const Py_ssize_t n_stages = PyBytes_GET_SIZE(kinds_obj);
    Py_buffer hv = {0}, rv = {0}, hashv = {0}, stemv = {0}, parav = {0}, funcv = {0};
    Py_buffer startv = {0}, poolv = {0};
    Py_buffer trie_views[5];
    memset(trie_views, 0, sizeof(trie_views));
    Work w;
    memset(&w, 0, sizeof(w));
    Emit e = {NULL, NULL, NULL, NULL, 0, 0, 0};
    int64_t *side = NULL, *counts = NULL;
    unsigned char *flags = NULL;
    Packed *sets = NULL;
    Cand *chosen = NULL;
    PyObject *row = NULL, *matches = NULL, *result = NULL;

    const Py_ssize_t nh = get_items(hyp_obj, &hv, 4, "hyp");
    const Py_ssize_t nr = nh < 0 ? -1 : get_items(ref_obj, &rv, 4, "ref");
    const Py_ssize_t n_types = nr < 0 ? -1 : get_items(hash_obj, &hashv, 4, "hashes");
    if (n_types < 0 || get_items(func_obj, &funcv, 1, "functions") < 0) {
        goto done;
    }
    if (funcv.len < n_types) {
        PyErr_SetString(PyExc_ValueError, "functions: shorter than hashes");
        goto done;
    }
    const int32_t *hyp = hv.buf, *ref = rv.buf, *hashes = hashv.buf;
    for (Py_ssize_t k = 0; k < nh + nr; k++) {
        const int32_t v = k < nh ? hyp[k] : ref[k - nh];
        if (v < 0 || v >= n_types) {
            PyErr_SetString(PyExc_ValueError, "a word-type id is outside the tables");
            goto done;
        }
    }
    const int32_t *stems = NULL, *para = NULL;
    const int64_t *starts = NULL;
    Py_ssize_t pool_len = 0;
    for (Py_ssize_t s = 0; s < n_stages; s++) {
        if (kinds[s] == KIND_STEM && stems == NULL) {
            if (stem_obj == Py_None || get_items(stem_obj, &stemv, 4, "stems") < n_types) {
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_ValueError, "stems: missing or shorter than hashes");
                }
                goto done;
            }
            stems = stemv.buf;
        }
        else if (kinds[s] == KIND_PARAPHRASE && para == NULL) {
            if (para_obj == Py_None || trie_obj == Py_None ||
                get_items(para_obj, &parav, 4, "paraphrase_ids") < n_types) {
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_ValueError,
                                    "paraphrase_ids or trie: missing or shorter than hashes");
                }
                goto done;
            }
            para = parav.buf;
        }
        else if (kinds[s] == KIND_SYNONYM && starts == NULL) {
            if (start_obj == Py_None || pool_obj == Py_None ||
                get_items(start_obj, &startv, 8, "synonym_starts") < n_types + 1 ||
                (pool_len = get_items(pool_obj, &poolv, 8, "synonym_pool")) < 0) {
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_ValueError, "synonym tables: missing or too short");
                }
                goto done;
            }
            starts = startv.buf;
        }
        else if (kinds[s] > KIND_PARAPHRASE) {
            PyErr_SetString(PyExc_ValueError, "kinds: expected values 0 to 3");
            goto done;
        }
    }
    Trie t;
    if (para != NULL) {
        PyObject *parts = PySequence_Fast(trie_obj, "trie: expected a 5-tuple");
        if (parts == NULL) {
            goto done;
        }
        if (PySequence_Fast_GET_SIZE(parts) != 5) {
            PyErr_SetString(PyExc_ValueError, "trie: expected a 5-tuple");
            Py_DECREF(parts);
            goto done;
        }
        PyObject **items = PySequence_Fast_ITEMS(parts);
        const int rc = trie_open(&t, trie_views, items[0], items[1], items[2], items[3], items[4]);
        Py_DECREF(parts);
        if (rc < 0) {
            goto done;
        }
    }
    /* Per-side int64 keys: identities, then stems or paraphrase ids as a stage needs them. */
    side = PyMem_Malloc((size_t)(4 * (nh + nr) + 1) * sizeof(int64_t));
    flags = PyMem_Malloc((size_t)(nh + nr + 1));
    sets = PyMem_Malloc((size_t)(nh + nr + 1) * sizeof(Packed));
    counts = PyMem_Calloc((size_t)(4 * n_stages + 1), sizeof(int64_t));
    if (side == NULL || flags == NULL || sets == NULL || counts == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t *hid = side, *rid = side + nh, *hkey = side + nh + nr, *rkey = hkey + nh;
    const unsigned char *functions = funcv.buf;
    int identical = nh == nr;
    for (Py_ssize_t i = 0; i < nh; i++) {
        hid[i] = hashes[hyp[i]];
        flags[i] = functions[hyp[i]];
    }
    for (Py_ssize_t j = 0; j < nr; j++) {
        rid[j] = hashes[ref[j]];
        flags[nh + j] = functions[ref[j]];
        identical = identical && rid[j] == hid[j];
    }
    for (Py_ssize_t s = 0; s < n_stages; s++) {
        e.stage = s;
        int rc = 0;
        switch (kinds[s]) {
        case KIND_EXACT:
            rc = equal_keys_core(&e, hid, nh, rid, nr, hid, rid, 0);
            break;
        case KIND_STEM:
            for (Py_ssize_t k = 0; k < nh + nr; k++) {
                hkey[k] = stems[k < nh ? hyp[k] : ref[k - nh]];
            }
            rc = equal_keys_core(&e, hkey, nh, rkey, nr, hid, rid, 1);
            break;
        case KIND_SYNONYM:
            for (Py_ssize_t k = 0; k < nh + nr; k++) {
                const int32_t v = k < nh ? hyp[k] : ref[k - nh];
                const int64_t a = starts[v], b = starts[v + 1];
                if (a < 0 || b < a || b > pool_len) {
                    PyErr_SetString(PyExc_ValueError, "synonym_starts: outside the pool");
                    goto done;
                }
                sets[k].base = (const char *)poolv.buf + a * (int64_t)sizeof(int64_t);
                sets[k].n = (Py_ssize_t)(b - a);
            }
            rc = sets_core(&e, sets, nh, sets + nh, nr, hid, rid);
            break;
        default: /* KIND_PARAPHRASE */
            for (Py_ssize_t k = 0; k < nh + nr; k++) {
                hkey[k] = para[k < nh ? hyp[k] : ref[k - nh]];
            }
            rc = paraphrase_core(&e, &t, hkey, nh, rkey, nr);
            break;
        }
        if (rc < 0) {
            goto done;
        }
        if (identical) { /* spec 3.5: only the first module for identical segments */
            break;
        }
    }
    if (read_weights(&w, weights_obj) < 0 || load_raw(&w, e.raw, e.n, nh, nr) < 0 ||
        search(&w, nh, nr, beam) < 0) {
        goto done;
    }
    Py_ssize_t n_chosen = 0;
    chosen = PyMem_Malloc((size_t)(nr + 1) * sizeof(Cand));
    if (chosen == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t j = 0; j < nr; j++) {
        if (w.assigned[j] >= 0) {
            chosen[n_chosen++] = w.cands[w.assigned[j]];
        }
    }
    for (Py_ssize_t k = 0; k < n_chosen; k++) {
        if (chosen[k].stage >= n_stages) {
            PyErr_SetString(PyExc_IndexError, "a match's stage is not below n_stages");
            goto done;
        }
    }
    int64_t head[7];
    stats_core(chosen, n_chosen, flags, nh, flags + nh, nr, head, counts);
    row = stats_tuple(head, counts, n_stages);
    if (row == NULL) {
        goto done;
    }
    if (type != Py_None) {
        matches = PyList_New(n_chosen);
        if (matches == NULL) {
            goto done;
        }
        for (Py_ssize_t k = 0; k < n_chosen; k++) {
            PyObject *stage = PyLong_FromLongLong(chosen[k].stage);
            if (stage == NULL) {
                goto done;
            }
            PyObject *m = new_match((PyTypeObject *)type, chosen[k].ref_start, chosen[k].ref_len,
                                    chosen[k].hyp_start, chosen[k].hyp_len, stage);
            Py_DECREF(stage);
            if (m == NULL) {
                goto done;
            }
            PyList_SET_ITEM(matches, k, m);
        }
    }
    else {
        matches = Py_NewRef(Py_None);
    }
    result = PyTuple_Pack(2, row, matches);
done:
    Py_XDECREF(row);
    Py_XDECREF(matches);
    work_free(&w);
    PyMem_Free(e.raw);
    PyMem_Free(side);
    PyMem_Free(flags);
    PyMem_Free(sets);
    PyMem_Free(counts);
    PyMem_Free(chosen);
    trie_close(trie_views);
    Py_buffer *views[] = {&hv, &rv, &hashv, &stemv, &parav, &funcv, &startv, &poolv};
    for (size_t k = 0; k < sizeof(views) / sizeof(views[0]); k++) {
        if (views[k]->obj) {
            PyBuffer_Release(views[k]);
        }
    }
    return result;
}

PyMethodDef meteor_pair_methods[] = {
    {"meteor15_pair", meteor15_pair_c, METH_VARARGS,
     "meteor15_pair(kinds, hyp, ref, hashes, stems, paraphrase_ids, functions, synonym_starts,\n"
     "              synonym_pool, trie, aligner_weights, beam, match_type) -> (row, matches)\n\n"
     "Candidates of every stage, beam search and word statistics of one pair of word-type id\n"
     "arrays, in one call (row as word_stats() returns it)."},
    {NULL, NULL, 0, NULL},
};
