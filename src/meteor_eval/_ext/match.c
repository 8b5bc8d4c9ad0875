/*
 * Match tuples between Python and the kernels: reading a Match (or any int sequence) into C
 * values and making new match_type objects, shared by the beam search, the candidate
 * generators, the statistics and the pair kernel. No Python function of its own.
 */

#include "kernels.h"

int
read_int(PyObject *item, int64_t *out)
{
    long long v = PyLong_AsLongLong(item);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    *out = (int64_t)v;
    return 0;
}

/* The five fields of a Match tuple into c (no range checks); -1 with an exception set. */
int
read_match(PyObject *m, Cand *c, const char *what)
{
    if (!PyTuple_Check(m) || PyTuple_GET_SIZE(m) != 5) {
        PyErr_Format(PyExc_TypeError, "%s: expected Match tuples", what);
        return -1;
    }
    if (read_int(PyTuple_GET_ITEM(m, 0), &c->ref_start) < 0 ||
        read_int(PyTuple_GET_ITEM(m, 1), &c->ref_len) < 0 ||
        read_int(PyTuple_GET_ITEM(m, 2), &c->hyp_start) < 0 ||
        read_int(PyTuple_GET_ITEM(m, 3), &c->hyp_len) < 0 ||
        read_int(PyTuple_GET_ITEM(m, 4), &c->stage) < 0) {
        return -1;
    }
    c->obj = m;
    return 0;
}

/* A new match_type(ref_start, ref_len, hyp_start, hyp_len, stage); stage is borrowed. */
PyObject *
new_match(PyTypeObject *type, Py_ssize_t ref_start, Py_ssize_t ref_len, Py_ssize_t hyp_start,
          Py_ssize_t hyp_len, PyObject *stage)
{
    PyObject *m = type->tp_alloc(type, 5);
    if (m == NULL) {
        return NULL;
    }
    PyObject *a = PyLong_FromSsize_t(ref_start);
    PyObject *b = PyLong_FromSsize_t(ref_len);
    PyObject *c = PyLong_FromSsize_t(hyp_start);
    PyObject *d = PyLong_FromSsize_t(hyp_len);
    if (a == NULL || b == NULL || c == NULL || d == NULL) {
        Py_XDECREF(a);
        Py_XDECREF(b);
        Py_XDECREF(c);
        Py_XDECREF(d);
        Py_DECREF(m);
        return NULL;
    }
    PyTuple_SET_ITEM(m, 0, a);
    PyTuple_SET_ITEM(m, 1, b);
    PyTuple_SET_ITEM(m, 2, c);
    PyTuple_SET_ITEM(m, 3, d);
    Py_INCREF(stage);
    PyTuple_SET_ITEM(m, 4, stage);
    return m;
}

int
append_match(PyObject *out, PyTypeObject *type, Py_ssize_t ref_start, Py_ssize_t ref_len,
             Py_ssize_t hyp_start, Py_ssize_t hyp_len, PyObject *stage)
{
    PyObject *m = new_match(type, ref_start, ref_len, hyp_start, hyp_len, stage);
    if (m == NULL) {
        return -1;
    }
    int rc = PyList_Append(out, m);
    Py_DECREF(m);
    return rc;
}

int
check_match_type(PyObject *type)
{
    if (!PyType_Check(type) || !PyType_IsSubtype((PyTypeObject *)type, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "match_type: expected a tuple subclass");
        return -1;
    }
    return 0;
}

/* int64 values of a sequence of ints; returns a new array (length *n) or NULL. */
int64_t *
read_int64s(PyObject *seq, Py_ssize_t *n, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) {
        return NULL;
    }
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    int64_t *out = PyMem_Malloc((size_t)(len ? len : 1) * sizeof(int64_t));
    if (out == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t k = 0; k < len; k++) {
        if (read_int(PySequence_Fast_GET_ITEM(fast, k), &out[k]) < 0) {
            PyMem_Free(out);
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    *n = len;
    return out;
}

/*
 * Both sides' sequences of ints (a segment pair's keys, identities or coverage counts) into new
 * arrays, each refused with its own message; -1 with an exception set (either array may then be
 * allocated: the caller frees both with PyMem_Free, as on success).
 */
int
read_int64_sides(PyObject *hyp_obj, PyObject *ref_obj, const char *hyp_what,
                 const char *ref_what, int64_t **hyp, Py_ssize_t *nh, int64_t **ref,
                 Py_ssize_t *nr)
{
    *hyp = read_int64s(hyp_obj, nh, hyp_what);
    if (*hyp == NULL) {
        return -1;
    }
    *ref = read_int64s(ref_obj, nr, ref_what);
    return *ref == NULL ? -1 : 0;
}

/* The word identities of a candidate generator's two segments, hyp_ids and ref_ids, as
 * read_int64_sides() reads them. */
int
read_ids(PyObject *hyp_obj, PyObject *ref_obj, int64_t **hid, Py_ssize_t *nh, int64_t **rid,
         Py_ssize_t *nr)
{
    return read_int64_sides(hyp_obj, ref_obj, "hyp_ids: expected a sequence of ints",
                            "ref_ids: expected a sequence of ints", hid, nh, rid, nr);
}
