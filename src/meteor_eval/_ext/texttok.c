/*
 * Tokens of BLEU and ROUGE lines as interned ids, for the statistics kernels (bleu.c, rouge.c).
 *
 *   sacrebleu's tokenizers 13a, intl, char and none (TOK_13A ... TOK_NONE), applied to a line
 *   already lowercased (when asked) by the caller, then split on whitespace as str.split();
 *   rouge-score's tokenizer (TOK_ROUGE: runs of a-z0-9 after str.lower(), whose only results
 *   in a-z from outside ASCII are U+212A KELVIN SIGN -> k and U+0130 -> i + U+0307) and
 *   ROUGE-1.5.5's (TOK_ROUGE155: ASCII lowercasing only).
 *
 * Each rule is a transcription of the pure-Python twin in meteor_eval.text.bleu_tokenizers /
 * meteor_eval.text.rouge_tokenizer: a regular-expression substitution of a two-character pattern
 * is a left-to-right scan that, on a match, writes the replacement and resumes after the two
 * characters (what re.sub does for a fixed-width pattern). The intl classes come from the
 * generated intl_tables.h (scripts/make_intl_tables.py, from unicodedata).
 *
 * Tokens are interned in a Vocab (a hash table of UCS4 strings) so that n-grams and LCS work on
 * int32 ids; one Vocab lives for one call of a kernel (one chunk of lines).
 */

#include "kernels.h"
#include "intl_tables.h"

int
u4_reserve(U4 *b, Py_ssize_t n)
{
    return reserve((void **)&b->buf, &b->cap, n, 256, sizeof(Py_UCS4));
}

int
ids_push(Ids *ids, int32_t id)
{
    if (reserve((void **)&ids->v, &ids->cap, ids->n + 1, 256, sizeof(int32_t)) < 0) {
        return -1;
    }
    ids->v[ids->n++] = id;
    return 0;
}

void
vocab_free(Vocab *v)
{
    FREE_EACH(v->arena, v->off, v->len, v->hash, v->slots, v->stem);
    memset(v, 0, sizeof(*v));
}

static uint64_t
hash_u4(const Py_UCS4 *s, Py_ssize_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        h = (h ^ (uint64_t)s[k]) * 1099511628211ULL;
    }
    return h ^ (h >> 29);
}

int32_t
vocab_id(Vocab *v, const Py_UCS4 *s, Py_ssize_t n)
{
    if (slots_room(&v->slots, &v->mask, v->hash, v->n, 1024) < 0) {
        return -1;
    }
    const uint64_t h = hash_u4(s, n);
    const size_t bytes = (size_t)n * sizeof(Py_UCS4);
    size_t idx;
    int32_t found;
    SLOTS_PROBE(v->slots, v->mask, v->hash, h, idx, found,
                v->len[found] == n && memcmp(v->arena + v->off[found], s, bytes) == 0);
    if (found >= 0) {
        return found;
    }
    if (v->n == v->cap) { /* three arrays of the same capacity */
        Py_ssize_t c1 = v->cap, c2 = v->cap, c3 = v->cap;
        if (v->cap >= INT32_MAX / 2) {
            PyErr_NoMemory();
            return -1;
        }
        if (reserve((void **)&v->off, &c1, v->n + 1, 1024, sizeof(Py_ssize_t)) < 0 ||
            reserve((void **)&v->len, &c2, v->n + 1, 1024, sizeof(Py_ssize_t)) < 0 ||
            reserve((void **)&v->hash, &c3, v->n + 1, 1024, sizeof(uint64_t)) < 0) {
            return -1;
        }
        v->cap = (int32_t)c1;
    }
    if (reserve((void **)&v->arena, &v->arena_cap, v->arena_len + n, 4096, sizeof(Py_UCS4)) < 0) {
        return -1;
    }
    int32_t id = v->n++;
    memcpy(v->arena + v->arena_len, s, (size_t)n * sizeof(Py_UCS4));
    v->off[id] = v->arena_len;
    v->len[id] = n;
    v->hash[id] = h;
    v->arena_len += n;
    v->slots[idx] = id;
    return id;
}

PyObject *
vocab_str(const Vocab *v, int32_t id)
{
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, v->arena + v->off[id], v->len[id]);
}

/* Append the whitespace-separated tokens of s[0..n) (str.split()) to out. */
static int
split_ws(Vocab *v, const Py_UCS4 *s, Py_ssize_t n, Ids *out)
{
    Py_ssize_t k = 0;
    while (k < n) {
        while (k < n && Py_UNICODE_ISSPACE(s[k])) {
            k++;
        }
        Py_ssize_t start = k;
        while (k < n && !Py_UNICODE_ISSPACE(s[k])) {
            k++;
        }
        if (k > start) {
            int32_t id = vocab_id(v, s + start, k - start);
            if (id < 0 || ids_push(out, id) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* dst = src with every occurrence of pat replaced by rep (str.replace, left to right). */
static Py_ssize_t
replace_all(const Py_UCS4 *src, Py_ssize_t n, const char *pat, const char *rep, Py_UCS4 *dst)
{
    Py_ssize_t pn = (Py_ssize_t)strlen(pat), rn = (Py_ssize_t)strlen(rep), out = 0, k = 0;
    while (k < n) {
        if (src[k] == (Py_UCS4)pat[0] && k + pn <= n) {
            Py_ssize_t q = 1;
            while (q < pn && src[k + q] == (Py_UCS4)pat[q]) {
                q++;
            }
            if (q == pn) {
                for (Py_ssize_t r = 0; r < rn; r++) {
                    dst[out++] = (Py_UCS4)rep[r];
                }
                k += pn;
                continue;
            }
        }
        dst[out++] = src[k++];
    }
    return out;
}

#define IS_DIGIT(c) ((c) >= '0' && (c) <= '9')

static inline int
in_13a_class(Py_UCS4 c)
{
    return (c >= 0x7B && c <= 0x7E) || (c >= 0x5B && c <= 0x60) || (c >= 0x20 && c <= 0x26) ||
           (c >= 0x28 && c <= 0x2B) || (c >= 0x3A && c <= 0x40) || c == 0x2F;
}

static inline int
intl_class(Py_UCS4 c)
{
    if (c >= 0x110000) {
        return 0;
    }
    return intl_stage2[(size_t)intl_stage1[c >> 8] * 256 + (c & 255)];
}

KERNEL_API int
intl_class_of(Py_UCS4 c)
{
    return intl_class(c);
}

#define SWAP_BUFS()                                                                            \
    do {                                                                                       \
        U4 t_ = *src;                                                                          \
        *src = *dst;                                                                           \
        *dst = t_;                                                                             \
    } while (0)

/* The rules of the 13a and intl tokenizers that look at two adjacent characters a b; a hit
 * puts a space between them and one more before a (SPLIT_*_BEFORE) or after b. */
enum {
    SPLIT_13A_PERIOD,       /* ([^0-9])([\.,]) -> \1 \2  */
    SPLIT_13A_PERIOD_FIRST, /* ([\.,])([^0-9]) ->  \1 \2 */
    SPLIT_13A_DASH,         /* ([0-9])(-) -> \1 \2        */
    SPLIT_INTL_PUNCT,       /* ([^N])([P]) -> \1 \2        */
    SPLIT_INTL_PUNCT_FIRST, /* ([P])([^N]) ->  \1 \2       */
};

static inline int
split_hit(int rule, Py_UCS4 a, Py_UCS4 b)
{
    switch (rule) {
    case SPLIT_13A_PERIOD:
        return !IS_DIGIT(a) && (b == '.' || b == ',');
    case SPLIT_13A_PERIOD_FIRST:
        return (a == '.' || a == ',') && !IS_DIGIT(b);
    case SPLIT_13A_DASH:
        return IS_DIGIT(a) && b == '-';
    case SPLIT_INTL_PUNCT:
        return intl_class(a) != 3 && intl_class(b) == 1;
    default:
        return intl_class(a) == 1 && intl_class(b) != 3;
    }
}

/* One pass of a pair rule over src (n characters, n >= 0) into dst, then the two buffers
 * swapped (src holds the result); its length, or -1 with MemoryError set (also for n < 0, so
 * that passes chain). A pair that matched is not looked at again (regular expression order).
 * Inlined, so that each pass is compiled for its own rule. */
static inline Py_ssize_t
split_pass(U4 *src, U4 *dst, Py_ssize_t n, int rule)
{
    if (n < 0 || u4_reserve(dst, 2 * n + 2) < 0) {
        return -1;
    }
    const int before = rule == SPLIT_13A_PERIOD_FIRST || rule == SPLIT_INTL_PUNCT_FIRST;
    const Py_UCS4 *s = src->buf;
    Py_UCS4 *d = dst->buf;
    Py_ssize_t m = 0, k = 0;
    while (k < n) {
        if (k + 1 < n && split_hit(rule, s[k], s[k + 1])) {
            if (before) {
                d[m++] = ' ';
            }
            d[m++] = s[k];
            d[m++] = ' ';
            d[m++] = s[k + 1];
            if (!before) {
                d[m++] = ' ';
            }
            k += 2;
            continue;
        }
        d[m++] = s[k++];
    }
    SWAP_BUFS();
    return m;
}

static int
tokens_13a(TokWork *w, Py_ssize_t n, Vocab *v, Ids *out)
{
    U4 *src = &w->a, *dst = &w->b;
    Py_UCS4 *s;
    /* "<skipped>" removed, "-\n" removed, "\n" -> " " (replacements never lengthen). */
    static const char *const steps[3][2] = {{"<skipped>", ""}, {"-\n", ""}, {"\n", " "}};
    int has_lt = 0, has_nl = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        has_lt |= src->buf[k] == '<';
        has_nl |= src->buf[k] == '\n';
    }
    for (int k = 0; k < 3; k++) {
        if ((k == 0 && !has_lt) || (k > 0 && !has_nl)) {
            continue; /* nothing to replace: the pass would copy the line unchanged */
        }
        if (u4_reserve(dst, n + 2) < 0) {
            return -1;
        }
        n = replace_all(src->buf, n, steps[k][0], steps[k][1], dst->buf);
        SWAP_BUFS();
    }
    int amp = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        if (src->buf[k] == '&') {
            amp = 1;
            break;
        }
    }
    if (amp) {
        static const char *const ent[4][2] = {
            {"&quot;", "\""}, {"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}};
        for (int k = 0; k < 4; k++) {
            if (u4_reserve(dst, n + 2) < 0) {
                return -1;
            }
            n = replace_all(src->buf, n, ent[k][0], ent[k][1], dst->buf);
            SWAP_BUFS();
        }
    }
    /* f" {line} " and the first rule: a punctuation mark or symbol gets a space each side. */
    if (u4_reserve(dst, 3 * (n + 2)) < 0) {
        return -1;
    }
    s = src->buf;
    Py_UCS4 *d = dst->buf;
    Py_ssize_t m = 0;
    for (Py_ssize_t k = -1; k <= n; k++) {
        Py_UCS4 c = (k < 0 || k == n) ? ' ' : s[k];
        if (in_13a_class(c)) {
            d[m++] = ' ';
            d[m++] = c;
            d[m++] = ' ';
        }
        else {
            d[m++] = c;
        }
    }
    n = m;
    SWAP_BUFS();
    n = split_pass(src, dst, n, SPLIT_13A_PERIOD);
    n = split_pass(src, dst, n, SPLIT_13A_PERIOD_FIRST);
    n = split_pass(src, dst, n, SPLIT_13A_DASH);
    if (n < 0) {
        return -1;
    }
    /* keep the buffers' ownership consistent with w (src/dst point into w) */
    return split_ws(v, src->buf, n, out);
}

static int
tokens_intl(TokWork *w, Py_ssize_t n, Vocab *v, Ids *out)
{
    U4 *src = &w->a, *dst = &w->b;
    Py_UCS4 *s, *d;
    Py_ssize_t m;
    n = split_pass(src, dst, n, SPLIT_INTL_PUNCT);
    n = split_pass(src, dst, n, SPLIT_INTL_PUNCT_FIRST);
    if (n < 0) {
        return -1;
    }
    /* ([S]) ->  \1  */
    if (u4_reserve(dst, 3 * n + 2) < 0) {
        return -1;
    }
    s = src->buf;
    d = dst->buf;
    m = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        if (intl_class(s[k]) == 2) {
            d[m++] = ' ';
            d[m++] = s[k];
            d[m++] = ' ';
        }
        else {
            d[m++] = s[k];
        }
    }
    return split_ws(v, d, m, out);
}

/* Runs of a-z0-9 (rouge-score after str.lower(); ROUGE-1.5.5 after ASCII lowercasing). */
static int
tokens_rouge(const Py_UCS4 *s, Py_ssize_t n, int unicode_lower, TokWork *w, Vocab *v, Ids *out)
{
    if (u4_reserve(&w->b, n + 1) < 0) {
        return -1;
    }
    Py_UCS4 *tok = w->b.buf;
    Py_ssize_t m = 0;
    for (Py_ssize_t k = 0; k <= n; k++) {
        Py_UCS4 c = k < n ? s[k] : ' ';
        int end_after = 0;
        if (c >= 'A' && c <= 'Z') {
            c += 'a' - 'A';
        }
        else if (unicode_lower && c == 0x212A) { /* KELVIN SIGN lowercases to k */
            c = 'k';
        }
        else if (unicode_lower && c == 0x130) { /* I WITH DOT ABOVE: i + combining dot */
            c = 'i';
            end_after = 1;
        }
        if ((c >= 'a' && c <= 'z') || IS_DIGIT(c)) {
            tok[m++] = c;
            if (!end_after) {
                continue;
            }
        }
        if (m) {
            int32_t id = vocab_id(v, tok, m);
            if (id < 0 || ids_push(out, id) < 0) {
                return -1;
            }
            m = 0;
        }
    }
    return 0;
}

int
text_tokens(int kind, const Py_UCS4 *text, Py_ssize_t n, TokWork *w, Vocab *v, Ids *out)
{
    if (kind == TOK_ROUGE || kind == TOK_ROUGE155) {
        return tokens_rouge(text, n, kind == TOK_ROUGE, w, v, out);
    }
    while (n > 0 && Py_UNICODE_ISSPACE(text[n - 1])) { /* line.rstrip() */
        n--;
    }
    if (kind == TOK_NONE) {
        return split_ws(v, text, n, out);
    }
    if (kind == TOK_CHAR) {
        for (Py_ssize_t k = 0; k < n; k++) {
            if (!Py_UNICODE_ISSPACE(text[k])) {
                int32_t id = vocab_id(v, text + k, 1);
                if (id < 0 || ids_push(out, id) < 0) {
                    return -1;
                }
            }
        }
        return 0;
    }
    if (u4_reserve(&w->a, n + 2) < 0) {
        return -1;
    }
    memcpy(w->a.buf, text, (size_t)n * sizeof(Py_UCS4));
    if (kind == TOK_13A) {
        return tokens_13a(w, n, v, out);
    }
    return tokens_intl(w, n, v, out);
}

const Py_UCS4 *
read_ucs4(PyObject *str, U4 *buf, Py_ssize_t *n)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(str);
    if (PyUnicode_KIND(str) == PyUnicode_4BYTE_KIND) {
        *n = len;
        return (const Py_UCS4 *)PyUnicode_DATA(str);
    }
    if (u4_reserve(buf, len + 1) < 0) {
        return NULL;
    }
    if (PyUnicode_AsUCS4(str, buf->buf, len + 1, 0) == NULL) {
        return NULL;
    }
    *n = len;
    return buf->buf;
}

void
tokwork_free(TokWork *w)
{
    FREE_EACH(w->a.buf, w->b.buf, w->in.buf);
    memset(w, 0, sizeof(*w));
}

/* text_tokenize(kind, line) -> list of str: one line through one tokenizer (tests, twins). */
PyObject *
text_tokenize_c(PyObject *self, PyObject *args)
{
    int kind;
    PyObject *line;
    if (!PyArg_ParseTuple(args, "iU:text_tokenize", &kind, &line)) {
        return NULL;
    }
    if (kind < TOK_13A || kind > TOK_ROUGE155) {
        PyErr_Format(PyExc_ValueError, "text_tokenize: unknown tokenizer %d", kind);
        return NULL;
    }
    TokWork w = {0};
    Vocab v = {0};
    Ids ids = {0};
    PyObject *result = NULL;
    Py_ssize_t n;
    const Py_UCS4 *s = read_ucs4(line, &w.in, &n);
    if (s == NULL || text_tokens(kind, s, n, &w, &v, &ids) < 0) {
        goto done;
    }
    result = PyList_New(ids.n);
    if (result == NULL) {
        goto done;
    }
    for (Py_ssize_t k = 0; k < ids.n; k++) {
        PyObject *token = vocab_str(&v, ids.v[k]);
        if (token == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, k, token);
    }
done:
    PyMem_Free(ids.v);
    vocab_free(&v);
    tokwork_free(&w);
    return result;
}

/* intl_class(code) -> 0 other, 1 punctuation, 2 symbol, 3 number (the generated table). */
PyObject *
intl_class_c(PyObject *self, PyObject *arg)
{
    long code = PyLong_AsLong(arg);
    if (code == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (code < 0 || code >= 0x110000) {
        PyErr_SetString(PyExc_ValueError, "intl_class: code point out of range");
        return NULL;
    }
    return PyLong_FromLong(intl_class((Py_UCS4)code));
}
