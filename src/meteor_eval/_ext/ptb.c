/*
 * pycocoevalcap's caption tokenizer (the PTB tokenizer behind PTBTokenizer.tokenize) over a whole
 * list of captions in one call (ptb_caption_lines). The readable twin is
 * meteor_eval.text.ptb's _caption_tokens_python; this file reproduces that module's behaviour
 * (never the original tokenizer's rules or code), and gives the twin's strings on every input:
 *
 *   lines: each caption is one line (its own "\n" read as a space); a caption holding another
 *   line break (\r, vertical tab, form feed, U+2028, U+2029) shifts the later lines as in the
 *   original, which only the twin does: the call then returns None;
 *
 *   plain lines (the twin's _simple_line): ASCII words, commas and one final period give their
 *   lowercased words joined by spaces, straight from the line's bytes, no Python object per
 *   word; a line the rule does not settle (a word the lexer splits, a final period that may
 *   stay on its word) goes on to the chunk path, which gives the same answer the long way;
 *
 *   chunks (the twin's _chunks and _line_tokens): the soft hyphen deleted, U+2019 not before
 *   two digits read as an apostrophe, the line cut at runs of separators (Unicode spaces,
 *   controls, NBSP, zero-width space, NEL, letter-like numerals, surrogates, private use,
 *   characters outside the BMP, "&nbsp;"); a plain word (ASCII letters and digits joined by
 *   single hyphens, not a word the lexer splits) is its own token, lowercased, as on a plain
 *   line; any other chunk's tokens and context flag come from the caller's cache, the lexer of a new chunk (the regular-expression rules of
 *   _chunk_entry) and the context rule of a flagged chunk (_in_context, with the next chunk or
 *   the next line's first chunk) stay in Python: they run once per distinct chunk, or rarely;
 *
 *   lines with "/" (whole numbers and fractions: the twin's regular expression) are handed to
 *   the caller's line function.
 *
 * Items that are not str give None as well: the twin then raises its error.
 */

#include "kernels.h"

/* The caller's data and functions, read once per call. */
typedef struct {
    PyObject *cache;       /* dict: chunk -> (tokens, flag) */
    PyObject *entry;       /* chunk -> (tokens, flag), filling the cache */
    PyObject *context;     /* (tokens, flag, following or None) -> tokens */
    PyObject *first_chunk; /* line or None -> its first chunk or None */
    PyObject *line_python; /* (line, next line or None) -> the line's string */
    PyObject *abbrevs;     /* set of every abbreviation, lower case */
    PyObject *space;       /* " " */
    const char *split[16]; /* words the lexer splits in two (lower-case ASCII) */
    Py_ssize_t split_len[16];
    int n_split;
} PtbCall;

static int
ptb_ascii_space(unsigned char c)
{
    /* str.split()'s whitespace among ASCII characters */
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

static int
ptb_is_line_break(Py_UCS4 c)
{
    return c == '\r' || c == 0x0b || c == 0x0c || c == 0x2028 || c == 0x2029;
}

static int
ptb_is_separator(Py_UCS4 c)
{
    return Py_UNICODE_ISSPACE(c) || c <= 0x08 || (c >= 0x0e && c <= 0x1f) || c == 0x7f ||
           c == 0xa0 || c == 0x200b || c == 0x85 || (c >= 0x2160 && c <= 0x2188) ||
           (c >= 0xd800 && c <= 0xdfff) || (c >= 0xe000 && c <= 0xf8ff) || c >= 0x10000;
}

/* The plain-line rule on an ASCII line: a new str, NULL with no error when the rule does not
 * settle the line, NULL with an error set on failure. buf holds at least len bytes. */
static PyObject *
ptb_simple_line(const PtbCall *call, const unsigned char *s, Py_ssize_t len, char *buf)
{
    Py_ssize_t end = len;
    while (end > 0 && (s[end - 1] == ' ' || s[end - 1] == '.')) {
        end--;
    }
    int periods = 0;
    for (Py_ssize_t i = end; i < len; i++) {
        periods += s[i] == '.';
    }
    if (periods > 1) {
        return NULL;
    }
    /* words: the core lowercased, commas as spaces, split on whitespace, joined by spaces */
    Py_ssize_t n = 0, last_start = 0, last_len = 0;
    int all_alpha = 1, any_word = 0, comma_digit = 0;
    Py_ssize_t i = 0;
    while (i < end) {
        unsigned char c = s[i];
        if (c == ',' || ptb_ascii_space(c)) {
            if (c == ',' && i + 1 < end && s[i + 1] >= '0' && s[i + 1] <= '9') {
                comma_digit = 1;
            }
            i++;
            continue;
        }
        if (any_word) {
            buf[n++] = ' ';
        }
        any_word = 1;
        Py_ssize_t start = n;
        while (i < end && s[i] != ',' && !ptb_ascii_space(s[i])) {
            c = s[i++];
            if (c >= 'A' && c <= 'Z') {
                c = (unsigned char)(c + 32);
            }
            if (!(c >= 'a' && c <= 'z')) {
                all_alpha = 0;
            }
            buf[n++] = (char)c;
        }
        last_start = start;
        last_len = n - start;
        /* the lexer splits these words in two */
        for (int k = 0; k < call->n_split; k++) {
            if (call->split_len[k] == last_len &&
                memcmp(buf + start, call->split[k], (size_t)last_len) == 0) {
                return NULL;
            }
        }
    }
    if (!all_alpha || !any_word) {
        /* each word: [a-z0-9]+ runs joined by single hyphens; no comma before a digit */
        if (!any_word || comma_digit) {
            return NULL;
        }
        int prev_alnum = 0;
        for (Py_ssize_t k = 0; k < n; k++) {
            char c = buf[k];
            int alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
            if (alnum) {
                prev_alnum = 1;
            }
            else if ((c == '-' || c == ' ') && prev_alnum && k + 1 < n) {
                prev_alnum = 0;
            }
            else {
                return NULL;
            }
        }
        if (!prev_alnum) {
            return NULL;
        }
    }
    if (end < len && s[end] == '.') {
        /* a final period: it stays on a one-letter word, on "no" before a number and on an
         * abbreviation (the chunk path settles those) */
        if (last_len == 1 || (last_len == 2 && memcmp(buf + last_start, "no", 2) == 0)) {
            return NULL;
        }
        PyObject *last = PyUnicode_FromStringAndSize(buf + last_start, last_len);
        if (last == NULL) {
            return NULL;
        }
        int found = PySet_Contains(call->abbrevs, last);
        Py_DECREF(last);
        if (found != 0) {
            return NULL; /* an abbreviation (or an error, set) */
        }
    }
    PyObject *out = PyUnicode_New(n, 127);
    if (out == NULL) {
        return NULL;
    }
    memcpy(PyUnicode_1BYTE_DATA(out), buf, (size_t)n);
    return out;
}

/* The line as the chunker reads it: the soft hyphen deleted, U+2019 not before two digits as an
 * apostrophe. A new reference (the line itself when nothing changes). */
static PyObject *
ptb_prepared(PyObject *line)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(line);
    if (PyUnicode_IS_ASCII(line) ||
        (PyUnicode_FindChar(line, 0x00ad, 0, len, 1) == -1 &&
         PyUnicode_FindChar(line, 0x2019, 0, len, 1) == -1)) {
        return Py_NewRef(line);
    }
    int kind = PyUnicode_KIND(line);
    const void *data = PyUnicode_DATA(line);
    Py_UCS4 *buf = PyMem_Malloc((size_t)(len + 1) * sizeof(Py_UCS4));
    if (buf == NULL) {
        return PyErr_NoMemory();
    }
    Py_ssize_t n = 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c != 0x00ad) {
            buf[n++] = c;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (buf[i] == 0x2019 && !(i + 2 < n && Py_UNICODE_ISDECIMAL(buf[i + 1]) &&
                                  Py_UNICODE_ISDECIMAL(buf[i + 2]))) {
            buf[i] = '\'';
        }
    }
    PyObject *out = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, buf, n);
    PyMem_Free(buf);
    return out;
}

/* Whether the text at i is "&nbsp;" (HTML's non-breaking space: a separator). */
static int
ptb_at_nbsp(int kind, const void *data, Py_ssize_t len, Py_ssize_t i)
{
    return i + 6 <= len && PyUnicode_READ(kind, data, i) == '&' &&
           PyUnicode_READ(kind, data, i + 1) == 'n' && PyUnicode_READ(kind, data, i + 2) == 'b' &&
           PyUnicode_READ(kind, data, i + 3) == 's' && PyUnicode_READ(kind, data, i + 4) == 'p' &&
           PyUnicode_READ(kind, data, i + 5) == ';';
}

/* The line's chunks (the texts between runs of separators) as spans: chunk k is
 * [spans[2k], spans[2k + 1]). Returns the number of chunks, -1 on failure (an error set);
 * *spans is the caller's to free. */
static Py_ssize_t
ptb_chunk_spans(PyObject *line, Py_ssize_t **spans)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(line);
    int kind = PyUnicode_KIND(line);
    const void *data = PyUnicode_DATA(line);
    /* a chunk has at least one character and is followed by a separator or the end */
    *spans = PyMem_Malloc((size_t)(len + 2) * sizeof(Py_ssize_t));
    if (*spans == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t n = 0, i = 0;
    while (i < len) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (ptb_is_separator(c)) {
            i++;
            continue;
        }
        if (c == '&' && ptb_at_nbsp(kind, data, len, i)) {
            i += 6;
            continue;
        }
        Py_ssize_t start = i;
        while (i < len) {
            c = PyUnicode_READ(kind, data, i);
            if (ptb_is_separator(c) || (c == '&' && ptb_at_nbsp(kind, data, len, i))) {
                break;
            }
            i++;
        }
        (*spans)[2 * n] = start;
        (*spans)[2 * n + 1] = i;
        n++;
    }
    return n;
}

/* A growing buffer of code points: one line's output. */
typedef struct {
    Py_UCS4 *v;
    Py_ssize_t n, cap;
    Py_ssize_t tokens; /* tokens written (the first has no space before it) */
} PtbOut;

static int
ptb_out_reserve(PtbOut *out, Py_ssize_t more)
{
    return reserve((void **)&out->v, &out->cap, out->n + more, 256, sizeof(Py_UCS4));
}

/* Append one token (a str), after a space unless it is the line's first. */
static int
ptb_out_token(PtbOut *out, PyObject *token)
{
    if (!PyUnicode_Check(token)) {
        PyErr_SetString(PyExc_TypeError, "ptb_caption_lines: a token is not a str");
        return -1;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(token);
    if (ptb_out_reserve(out, len + 1) < 0) {
        return -1;
    }
    if (out->tokens++) {
        out->v[out->n++] = ' ';
    }
    int kind = PyUnicode_KIND(token);
    const void *data = PyUnicode_DATA(token);
    for (Py_ssize_t i = 0; i < len; i++) {
        out->v[out->n++] = PyUnicode_READ(kind, data, i);
    }
    return 0;
}

/* Whether [start, end) of the line is a plain word: ASCII letters and digits in runs joined by
 * single hyphens, not a word the lexer splits. Its one token is then the word lowercased and it
 * has no context flag (the rule of the plain lines, one chunk at a time). */
static int
ptb_plain_word(const PtbCall *call, int kind, const void *data, Py_ssize_t start, Py_ssize_t end)
{
    int prev_alnum = 0;
    for (Py_ssize_t i = start; i < end; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
            prev_alnum = 1;
        }
        else if (c == '-' && prev_alnum && i + 1 < end) {
            prev_alnum = 0;
        }
        else {
            return 0;
        }
    }
    if (!prev_alnum) {
        return 0;
    }
    for (int k = 0; k < call->n_split; k++) {
        if (call->split_len[k] != end - start) {
            continue;
        }
        Py_ssize_t i = 0;
        for (; i < end - start; i++) {
            Py_UCS4 c = PyUnicode_READ(kind, data, start + i);
            if (c >= 'A' && c <= 'Z') {
                c += 32;
            }
            if (c != (Py_UCS4)(unsigned char)call->split[k][i]) {
                break;
            }
        }
        if (i == end - start) {
            return 0;
        }
    }
    return 1;
}

/* The string of one line by the chunk path (next_line: the next caption, or NULL). */
static PyObject *
ptb_chunk_line(const PtbCall *call, PyObject *line, PyObject *next_line, PtbOut *out)
{
    PyObject *prepared = ptb_prepared(line);
    if (prepared == NULL) {
        return NULL;
    }
    Py_ssize_t *spans = NULL;
    PyObject *result = NULL;
    Py_ssize_t n_chunks = ptb_chunk_spans(prepared, &spans);
    if (n_chunks < 0) {
        goto done;
    }
    int kind = PyUnicode_KIND(prepared);
    const void *data = PyUnicode_DATA(prepared);
    out->n = 0;
    out->tokens = 0;
    for (Py_ssize_t k = 0; k < n_chunks; k++) {
        Py_ssize_t start = spans[2 * k], end = spans[2 * k + 1];
        if (ptb_plain_word(call, kind, data, start, end)) {
            if (ptb_out_reserve(out, end - start + 1) < 0) {
                goto done;
            }
            if (out->tokens++) {
                out->v[out->n++] = ' ';
            }
            for (Py_ssize_t i = start; i < end; i++) {
                Py_UCS4 c = PyUnicode_READ(kind, data, i);
                out->v[out->n++] = (c >= 'A' && c <= 'Z') ? c + 32 : c;
            }
            continue;
        }
        PyObject *chunk = PyUnicode_Substring(prepared, start, end);
        if (chunk == NULL) {
            goto done;
        }
        PyObject *entry = PyDict_GetItemWithError(call->cache, chunk); /* borrowed */
        if (entry != NULL) {
            Py_INCREF(entry);
        }
        else if (!PyErr_Occurred()) {
            entry = PyObject_CallOneArg(call->entry, chunk);
        }
        Py_DECREF(chunk);
        if (entry == NULL) {
            goto done;
        }
        if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 2) {
            Py_DECREF(entry);
            PyErr_SetString(PyExc_TypeError,
                            "ptb_caption_lines: a chunk entry is not (tokens, flag)");
            goto done;
        }
        PyObject *tokens = Py_NewRef(PyTuple_GET_ITEM(entry, 0));
        PyObject *flag = PyTuple_GET_ITEM(entry, 1);
        int flagged = PyObject_IsTrue(flag);
        if (flagged < 0) {
            Py_DECREF(tokens);
            Py_DECREF(entry);
            goto done;
        }
        if (flagged) {
            PyObject *following;
            if (k + 1 < n_chunks) {
                following = PyUnicode_Substring(prepared, spans[2 * k + 2], spans[2 * k + 3]);
            }
            else {
                following =
                    PyObject_CallOneArg(call->first_chunk, next_line ? next_line : Py_None);
            }
            PyObject *changed = NULL;
            if (following != NULL) {
                changed =
                    PyObject_CallFunctionObjArgs(call->context, tokens, flag, following, NULL);
                Py_DECREF(following);
            }
            Py_DECREF(tokens);
            tokens = changed;
        }
        Py_DECREF(entry);
        if (tokens == NULL) {
            goto done;
        }
        PyObject *seq = PySequence_Fast(tokens, "ptb_caption_lines: tokens are not a sequence");
        Py_DECREF(tokens);
        if (seq == NULL) {
            goto done;
        }
        Py_ssize_t m = PySequence_Fast_GET_SIZE(seq);
        PyObject **items = PySequence_Fast_ITEMS(seq);
        for (Py_ssize_t t = 0; t < m; t++) {
            if (ptb_out_token(out, items[t]) < 0) {
                Py_DECREF(seq);
                goto done;
            }
        }
        Py_DECREF(seq);
    }
    result = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out->v, out->n);
done:
    PyMem_Free(spans);
    Py_DECREF(prepared);
    return result;
}

PyObject *
ptb_caption_lines_c(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *captions, *split_words;
    PtbCall call;
    memset(&call, 0, sizeof(call));
    if (!PyArg_ParseTuple(args, "O!O!OOOOO!O!:ptb_caption_lines", &PyList_Type, &captions,
                          &PyDict_Type, &call.cache, &call.entry, &call.context,
                          &call.first_chunk, &call.line_python, &PyTuple_Type, &split_words,
                          &PyFrozenSet_Type, &call.abbrevs)) {
        return NULL;
    }
    if (PyTuple_GET_SIZE(split_words) > 16) {
        PyErr_SetString(PyExc_ValueError, "ptb_caption_lines: at most 16 split words");
        return NULL;
    }
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(split_words); k++) {
        PyObject *word = PyTuple_GET_ITEM(split_words, k);
        if (!PyUnicode_Check(word) || !PyUnicode_IS_ASCII(word)) {
            PyErr_SetString(PyExc_TypeError, "ptb_caption_lines: split words are ASCII str");
            return NULL;
        }
        call.split[call.n_split] = (const char *)PyUnicode_1BYTE_DATA(word);
        call.split_len[call.n_split++] = PyUnicode_GET_LENGTH(word);
    }
    Py_ssize_t n = PyList_GET_SIZE(captions);
    /* the lines: every caption a str, its "\n" read as a space, no other line break */
    PyObject *lines = PyList_New(n);
    if (lines == NULL) {
        return NULL;
    }
    Py_ssize_t longest = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *caption = PyList_GET_ITEM(captions, i);
        if (!PyUnicode_Check(caption)) {
            Py_DECREF(lines);
            Py_RETURN_NONE;
        }
        Py_ssize_t len = PyUnicode_GET_LENGTH(caption);
        int kind = PyUnicode_KIND(caption);
        const void *data = PyUnicode_DATA(caption);
        int newline = 0;
        for (Py_ssize_t k = 0; k < len; k++) {
            Py_UCS4 c = PyUnicode_READ(kind, data, k);
            if (c < 0x0e || c >= 0x2028) {
                if (ptb_is_line_break(c)) {
                    Py_DECREF(lines);
                    Py_RETURN_NONE;
                }
                newline |= c == '\n';
            }
        }
        PyObject *line;
        if (newline) {
            PyObject *nl = PyUnicode_FromOrdinal('\n');
            PyObject *sp = PyUnicode_FromOrdinal(' ');
            line = (nl && sp) ? PyUnicode_Replace(caption, nl, sp, -1) : NULL;
            Py_XDECREF(nl);
            Py_XDECREF(sp);
            if (line == NULL) {
                Py_DECREF(lines);
                return NULL;
            }
        }
        else {
            line = Py_NewRef(caption);
        }
        PyList_SET_ITEM(lines, i, line);
        if (len > longest) {
            longest = len;
        }
    }
    PtbOut chunk_out = {NULL, 0, 0, 0};
    PyObject *out = PyList_New(n);
    char *buf = PyMem_Malloc((size_t)longest + 1);
    call.space = PyUnicode_FromOrdinal(' ');
    if (out == NULL || buf == NULL || call.space == NULL) {
        if (buf == NULL) {
            PyErr_NoMemory();
        }
        goto fail;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *line = PyList_GET_ITEM(lines, i);
        PyObject *next_line = i + 1 < n ? PyList_GET_ITEM(lines, i + 1) : NULL;
        PyObject *text = NULL;
        if (PyUnicode_IS_ASCII(line)) {
            text = ptb_simple_line(&call, PyUnicode_1BYTE_DATA(line), PyUnicode_GET_LENGTH(line),
                                   buf);
            if (text == NULL && PyErr_Occurred()) {
                goto fail;
            }
        }
        if (text == NULL) {
            if (PyUnicode_FindChar(line, '/', 0, PyUnicode_GET_LENGTH(line), 1) != -1) {
                text = PyObject_CallFunctionObjArgs(call.line_python, line,
                                                    next_line ? next_line : Py_None, NULL);
            }
            else {
                text = ptb_chunk_line(&call, line, next_line, &chunk_out);
            }
            if (text == NULL) {
                goto fail;
            }
        }
        PyList_SET_ITEM(out, i, text);
    }
    PyMem_Free(buf);
    PyMem_Free(chunk_out.v);
    Py_DECREF(call.space);
    Py_DECREF(lines);
    return out;
fail:
    PyMem_Free(buf);
    PyMem_Free(chunk_out.v);
    Py_XDECREF(call.space);
    Py_XDECREF(out);
    Py_DECREF(lines);
    return NULL;
}
