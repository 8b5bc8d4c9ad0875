/*
 * Java's String.hashCode over the UTF-16 code units of a word, the word identity of METEOR 1.5:
 *
 *   java_hash(word) -> int
 *
 * text/tokenize.py's java_hash_python stays the reference and the fallback.
 *
 * Also zlib's CRC-32 (crc32_bytes), the slot hash of the shipped WordNet views' key tables, for
 * the kernels that probe them (wordnet.c, greedy.c).
 */

#include "kernels.h"

/* CRC-32 as zlib.crc32 (the IEEE polynomial, reflected), one table lookup per byte; the table is
 * filled once when the module is imported (crc32_init) and only read after. */
static uint32_t crc32_table[256];

void
crc32_init(void)
{
    for (uint32_t k = 0; k < 256; k++) {
        uint32_t c = k;
        for (int bit = 0; bit < 8; bit++) {
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        }
        crc32_table[k] = c;
    }
}

uint32_t
crc32_bytes(const unsigned char *p, Py_ssize_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (Py_ssize_t k = 0; k < n; k++) {
        c = crc32_table[(c ^ p[k]) & 0xFF] ^ (c >> 8);
    }
    return c ^ 0xFFFFFFFFu;
}

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
