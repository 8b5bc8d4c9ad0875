/*
 * Java's String.hashCode over the UTF-16 code units of a word, the word identity of METEOR 1.5:
 *
 *   java_hash(word) -> int
 *
 * text/tokenize.py's java_hash_python stays the reference and the fallback.
 */

#include "kernels.h"

PyObject *
java_hash_c(PyObject *self, PyObject *arg)
{
    (void)self;
    if (check_str_arg(arg, "java_hash") < 0) {
        return NULL;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(arg);
    int kind = PyUnicode_KIND(arg);
    const void *data = PyUnicode_DATA(arg);
    uint32_t h = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (ch > 0xFFFF) {
            ch -= 0x10000;
            h = h * 31u + (uint32_t)(0xD800 + (ch >> 10));
            h = h * 31u + (uint32_t)(0xDC00 + (ch & 0x3FF));
        } else {
            h = h * 31u + (uint32_t)ch;
        }
    }
    return PyLong_FromLong((long)(int32_t)h);
}
