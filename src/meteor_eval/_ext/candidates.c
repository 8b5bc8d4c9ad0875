/*
 * One-word candidate generators of the exact, stem and synonym matchers:
 *
 *   equal_keys(...)      candidates of equal keys (exact: word identities; stem: stem
 *                        identities of words that differ);
 *   sets_intersect(...)  candidates whose synonym sets intersect and whose words differ.
 *
 * Each produces the same candidates in the same order as the pure-Python matcher it speeds up;
 * emit() writes them as Match objects (Python mode) or raw candidates (the pair kernel).
 */

#include "kernels.h"

/* ---------------------------------------------------------------------------------------------
 * Candidate generation kernels. Each returns a new list of Match objects (instances of the
 * tuple subclass passed as match_type) in exactly the order of the pure-Python matcher it
 * replaces; the Python code in meteor_eval.match stays the reference and the fallback.
 * ------------------------------------------------------------------------------------------- */


int
emit(Emit *e, Py_ssize_t ref_start, Py_ssize_t ref_len, Py_ssize_t hyp_start, Py_ssize_t hyp_len)
{
    if (e->list != NULL) {
        return append_match(e->list, e->type, ref_start, ref_len, hyp_start, hyp_len,
                            e->stage_obj);
    }
    if (e->n == e->cap) {
        const Py_ssize_t cap = e->cap ? 2 * e->cap : 64;
        Cand *raw = PyMem_Realloc(e->raw, (size_t)cap * sizeof(Cand));
        if (raw == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        e->raw = raw;
        e->cap = cap;
    }
    Cand *c = &e->raw[e->n++];
    c->ref_start = ref_start;
    c->ref_len = ref_len;
    c->hyp_start = hyp_start;
    c->hyp_len = hyp_len;
    c->stage = e->stage;
    c->obj = NULL;
    return 0;
}

/* Candidates (j, 1, i, 1) for every reference j ascending and hypothesis i ascending with
 * hk[i] == rk[j], leaving out pairs of equal identities when `different` is set. */
int
equal_keys_core(Emit *e, const int64_t *hk, Py_ssize_t nh, const int64_t *rk, Py_ssize_t nr,
                const int64_t *hid, const int64_t *rid, int different)
{
    for (Py_ssize_t j = 0; j < nr; j++) {
        const int64_t key = rk[j];
        for (Py_ssize_t i = 0; i < nh; i++) {
            if (hk[i] != key || (different && hid[i] == rid[j])) {
                continue;
            }
            if (emit(e, j, 1, i, 1) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/*
 * equal_keys(hyp_keys, ref_keys, hyp_ids, ref_ids, stage, match_type, different) -> list
 *
 * One-word candidates (j, 1, i, 1, stage) for every reference j ascending and hypothesis i
 * ascending with hyp_keys[i] == ref_keys[j]; when `different` is true, pairs whose identities
 * (hyp_ids[i], ref_ids[j]) are equal are left out. Exact matching passes the identities as keys;
 * stem matching passes stem identities and different=True.
 */
static PyObject *
equal_keys_c(PyObject *self, PyObject *args)
{
    PyObject *hk_obj, *rk_obj, *hi_obj, *ri_obj, *stage, *type;
    int different;
    if (!PyArg_ParseTuple(args, "OOOOOOp:equal_keys", &hk_obj, &rk_obj, &hi_obj, &ri_obj, &stage,
                          &type, &different)) {
        return NULL;
    }
    if (check_match_type(type) < 0) {
        return NULL;
    }
    PyObject *out = NULL;
    int64_t *hk = NULL, *rk = NULL, *hid = NULL, *rid = NULL;
    Py_ssize_t nh = 0, nr = 0, n3 = 0, n4 = 0;
    hk = read_int64s(hk_obj, &nh, "hyp_keys: expected a sequence of ints");
    if (hk == NULL) {
        goto done;
    }
    rk = read_int64s(rk_obj, &nr, "ref_keys: expected a sequence of ints");
    if (rk == NULL) {
        goto done;
    }
    if (different) {
        hid = read_int64s(hi_obj, &n3, "hyp_ids: expected a sequence of ints");
        if (hid == NULL) {
            goto done;
        }
        rid = read_int64s(ri_obj, &n4, "ref_ids: expected a sequence of ints");
        if (rid == NULL) {
            goto done;
        }
        if (n3 != nh || n4 != nr) {
            PyErr_SetString(PyExc_ValueError, "keys and identities differ in length");
            goto done;
        }
    }
    out = PyList_New(0);
    if (out == NULL) {
        goto done;
    }
    Emit e = {out, (PyTypeObject *)type, stage, NULL, 0, 0, 0};
    if (equal_keys_core(&e, hk, nh, rk, nr, hid, rid, different) < 0) {
        Py_CLEAR(out);
    }
done:
    PyMem_Free(hk);
    PyMem_Free(rk);
    PyMem_Free(hid);
    PyMem_Free(rid);
    return out;
}

/* Index of the lowest set bit of a non-zero word. */
static inline int
lowest_bit(uint64_t word)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(word);
#else
    int n = 0;
    while (!(word & 1u)) {
        word >>= 1;
        n++;
    }
    return n;
#endif
}

static inline int64_t
packed_at(const Packed *p, Py_ssize_t k)
{
    int64_t x;
    memcpy(&x, p->base + k * (Py_ssize_t)sizeof(int64_t), sizeof(int64_t));
    return x;
}

/* Candidates (j, 1, i, 1) for every reference j ascending and hypothesis i ascending whose sets
 * share a value and whose identities differ.
 *
 * Every hypothesis value goes into a hash table whose slots hold the bit set of the hypothesis
 * positions having it; a reference word's hits are the union of its values' bit sets, read in
 * ascending position order (the order of a pairwise merge). */
int
sets_core(Emit *e, const Packed *hs, Py_ssize_t nh, const Packed *rs, Py_ssize_t nr,
          const int64_t *hid, const int64_t *rid)
{
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < nh; i++) {
        total += hs[i].n;
    }
    if (total == 0) {
        return 0;
    }
    int rc = -1;
    const Py_ssize_t words = (nh + 63) / 64;
    Py_ssize_t cap = 16;
    while (cap < 2 * total) {
        cap *= 2;
    }
    int64_t *keys = PyMem_Malloc((size_t)cap * sizeof(int64_t));
    Py_ssize_t *slot_set = PyMem_Malloc((size_t)cap * sizeof(Py_ssize_t));
    uint64_t *bits = PyMem_Calloc((size_t)(total * words + words), sizeof(uint64_t));
    if (keys == NULL || slot_set == NULL || bits == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < cap; k++) {
        slot_set[k] = -1;
    }
    Py_ssize_t n_sets = 0;
    const uint64_t mask = (uint64_t)cap - 1;
    for (Py_ssize_t i = 0; i < nh; i++) {
        for (Py_ssize_t a = 0; a < hs[i].n; a++) {
            const int64_t x = packed_at(&hs[i], a);
            uint64_t h = ((uint64_t)x * UINT64_C(0x9E3779B97F4A7C15)) >> 17;
            while (slot_set[h & mask] >= 0 && keys[h & mask] != x) {
                h++;
            }
            const uint64_t slot = h & mask;
            if (slot_set[slot] < 0) {
                keys[slot] = x;
                slot_set[slot] = n_sets++;
            }
            bits[slot_set[slot] * words + (i >> 6)] |= (uint64_t)1 << (i & 63);
        }
    }
    uint64_t *hits = bits + total * words; /* scratch: one more bit set */
    for (Py_ssize_t j = 0; j < nr; j++) {
        if (rs[j].n == 0) {
            continue;
        }
        int any = 0;
        memset(hits, 0, (size_t)words * sizeof(uint64_t));
        for (Py_ssize_t a = 0; a < rs[j].n; a++) {
            const int64_t x = packed_at(&rs[j], a);
            uint64_t h = ((uint64_t)x * UINT64_C(0x9E3779B97F4A7C15)) >> 17;
            while (slot_set[h & mask] >= 0 && keys[h & mask] != x) {
                h++;
            }
            const Py_ssize_t set = slot_set[h & mask];
            if (set < 0) {
                continue;
            }
            const uint64_t *src = bits + set * words;
            for (Py_ssize_t w = 0; w < words; w++) {
                hits[w] |= src[w];
            }
            any = 1;
        }
        if (!any) {
            continue;
        }
        for (Py_ssize_t w = 0; w < words; w++) {
            uint64_t word = hits[w];
            while (word) {
                const Py_ssize_t i = w * 64 + (Py_ssize_t)lowest_bit(word);
                word &= word - 1;
                if (hid[i] != rid[j] && emit(e, j, 1, i, 1) < 0) {
                    goto done;
                }
            }
        }
    }
    rc = 0;
done:
    PyMem_Free(keys);
    PyMem_Free(slot_set);
    PyMem_Free(bits);
    return rc;
}

/*
 * sets_intersect(hyp_sets, ref_sets, hyp_ids, ref_ids, stage, match_type) -> list
 *
 * hyp_sets[i] and ref_sets[j] are bytes holding sorted, duplicate-free native int64 values
 * (synset identifiers). Candidates (j, 1, i, 1, stage) for every reference j ascending and
 * hypothesis i ascending whose sets share a value and whose identities differ.
 */
static PyObject *
sets_intersect_c(PyObject *self, PyObject *args)
{
    PyObject *hs_obj, *rs_obj, *hi_obj, *ri_obj, *stage, *type;
    if (!PyArg_ParseTuple(args, "OOOOOO:sets_intersect", &hs_obj, &rs_obj, &hi_obj, &ri_obj,
                          &stage, &type)) {
        return NULL;
    }
    if (check_match_type(type) < 0) {
        return NULL;
    }
    PyObject *out = NULL, *hs = NULL, *rs = NULL;
    int64_t *hid = NULL, *rid = NULL;
    Packed *sets = NULL;
    Py_ssize_t n3 = 0, n4 = 0;
    hs = PySequence_Fast(hs_obj, "hyp_sets: expected a sequence of bytes");
    if (hs == NULL) {
        goto done;
    }
    rs = PySequence_Fast(rs_obj, "ref_sets: expected a sequence of bytes");
    if (rs == NULL) {
        goto done;
    }
    const Py_ssize_t nh = PySequence_Fast_GET_SIZE(hs), nr = PySequence_Fast_GET_SIZE(rs);
    sets = PyMem_Malloc((size_t)(nh + nr + 1) * sizeof(Packed));
    if (sets == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < nh + nr; k++) {
        PyObject *b = k < nh ? PySequence_Fast_GET_ITEM(hs, k) : PySequence_Fast_GET_ITEM(rs, k - nh);
        if (!PyBytes_Check(b) || PyBytes_GET_SIZE(b) % (Py_ssize_t)sizeof(int64_t) != 0) {
            PyErr_SetString(PyExc_TypeError, "sets: expected bytes of packed int64 values");
            goto done;
        }
        sets[k].base = PyBytes_AS_STRING(b);
        sets[k].n = PyBytes_GET_SIZE(b) / (Py_ssize_t)sizeof(int64_t);
    }
    hid = read_int64s(hi_obj, &n3, "hyp_ids: expected a sequence of ints");
    if (hid == NULL) {
        goto done;
    }
    rid = read_int64s(ri_obj, &n4, "ref_ids: expected a sequence of ints");
    if (rid == NULL) {
        goto done;
    }
    if (n3 != nh || n4 != nr) {
        PyErr_SetString(PyExc_ValueError, "sets and identities differ in length");
        goto done;
    }
    out = PyList_New(0);
    if (out == NULL) {
        goto done;
    }
    Emit e = {out, (PyTypeObject *)type, stage, NULL, 0, 0, 0};
    if (sets_core(&e, sets, nh, sets + nh, nr, hid, rid) < 0) {
        Py_CLEAR(out);
    }
done:
    PyMem_Free(sets);
    Py_XDECREF(hs);
    Py_XDECREF(rs);
    PyMem_Free(hid);
    PyMem_Free(rid);
    return out;
}

PyMethodDef meteor_candidate_methods[] = {
    {"equal_keys", equal_keys_c, METH_VARARGS,
     "equal_keys(hyp_keys, ref_keys, hyp_ids, ref_ids, stage, match_type, different) -> list\n\n"
     "One-word candidates of equal keys, reference order then hypothesis order."},
    {"sets_intersect", sets_intersect_c, METH_VARARGS,
     "sets_intersect(hyp_sets, ref_sets, hyp_ids, ref_ids, stage, match_type) -> list\n\n"
     "One-word candidates whose packed sorted int64 sets intersect and whose ids differ."},
    {NULL, NULL, 0, NULL},
};
