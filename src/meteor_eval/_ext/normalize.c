/*
 * Compiled METEOR 1.5 normaliser (spec section 1.7):
 *
 *   normalize_line(text, mode, keep_punctuation, prefixes) -> str
 *
 * mode selects the apostrophe step: 0 English, 1 French, 2 every apostrophe its own token
 * (Czech, Spanish, German, Russian). prefixes is the language's nonbreaking-prefix dictionary
 * (prefix -> True when the prefix is only nonbreaking before a number).
 *
 * This is text/normalize.py's normalize() step for step, on code points: every regular
 * expression there is a scan of one to three single characters from explicit classes, and each
 * substitution here scans left to right, consuming what it matches, exactly as Python's re.sub
 * does for those patterns. The Python code stays the reference and the fallback; tests compare
 * both on random text over the characters every step looks at and on the jar's golden outputs.
 */

#include "kernels.h"

#include <wchar.h>

typedef UcsBuf Buf; /* kernels.h: the front end (frontend.c) lends its buffers */

/* The first k in [from, to) with p[k] == c, else `to`. Most scans of a line look for one code
 * point that few lines hold (',', '\'', '.', '-'), so where wchar_t is a 32-bit code unit, as
 * Py_UCS4 is (Linux, macOS), the C library's vectorised wmemchr does the scan; elsewhere a
 * plain loop. Code points are at most U+10FFFF, so a signed wchar_t compares them the same. */
#if defined(WCHAR_MAX) && WCHAR_MAX > 0xFFFF && WCHAR_MAX <= 0xFFFFFFFFu
#define NORMALIZE_WMEMCHR 1
#endif

static inline Py_ssize_t
find_char(const Py_UCS4 *p, Py_ssize_t from, Py_ssize_t to, Py_UCS4 c)
{
    if (from >= to) {
        return to;
    }
#ifdef NORMALIZE_WMEMCHR
    if (sizeof(wchar_t) == sizeof(Py_UCS4)) {
        const wchar_t *hit = wmemchr((const wchar_t *)(p + from), (wchar_t)c, (size_t)(to - from));
        return hit == NULL ? to : (Py_ssize_t)((const Py_UCS4 *)hit - p);
    }
#endif
    while (from < to && p[from] != c) {
        from++;
    }
    return from;
}

static int
buf_reserve(Buf *b, Py_ssize_t extra)
{
    return reserve((void **)&b->p, &b->cap, b->len + extra, 64, sizeof(Py_UCS4));
}

static inline int
buf_put(Buf *b, Py_UCS4 c)
{
    if (b->len == b->cap && buf_reserve(b, 1) < 0) {
        return -1;
    }
    b->p[b->len++] = c;
    return 0;
}

static int
buf_put_ascii(Buf *b, const char *s)
{
    const Py_ssize_t n = (Py_ssize_t)strlen(s);
    if (buf_reserve(b, n) < 0) {
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        b->p[b->len++] = (Py_UCS4)(unsigned char)s[k];
    }
    return 0;
}

static int
buf_put_span(Buf *b, const Py_UCS4 *s, Py_ssize_t n)
{
    if (buf_reserve(b, n) < 0) {
        return -1;
    }
    memcpy(b->p + b->len, s, (size_t)n * sizeof(Py_UCS4));
    b->len += n;
    return 0;
}

/* ---- Character classes (normalize.py's _ALPHA, _ALNUM, _JAVA_WS, _SPACES) ---------------- */

/* The ASCII code points' classes, one load instead of a chain of comparisons (the code points
 * of almost every line are ASCII): CLS_ALPHA for A-Z and a-z, CLS_DIGIT for 0-9. */
enum { CLS_ALPHA = 1, CLS_DIGIT = 2 };
static const unsigned char ascii_class[128] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
};

/* is_alpha() above U+007F. */
static int
is_alpha_wide(Py_UCS4 c)
{
    return c == 0x160 || c == 0x17D || c == 0x161 || c == 0x17E || c == 0x178 ||
           (c >= 0xC0 && c <= 0xD6) || (c >= 0xD8 && c <= 0xF6) || (c >= 0xF8 && c <= 0x17E) ||
           (c >= 0x400 && c <= 0x4FF) || (c >= 0x500 && c <= 0x527) ||
           (c >= 0xA640 && c <= 0xA66E) || (c >= 0xA67E && c <= 0xA697) ||
           (c >= 0x1D00 && c <= 0x1D7F);
}

static inline int
is_alpha(Py_UCS4 c)
{
    return c < 0x80 ? (ascii_class[c] & CLS_ALPHA) != 0 : is_alpha_wide(c);
}

static inline int
is_digit(Py_UCS4 c)
{
    return c >= '0' && c <= '9';
}

static inline int
is_alnum(Py_UCS4 c)
{
    return c < 0x80 ? ascii_class[c] != 0 : is_alpha_wide(c);
}

static inline int
is_java_ws(Py_UCS4 c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
}

/* java_split's delimiters (StringTokenizer's defaults), as bits of one word: one comparison
 * and one shift a code point. */
#define DELIM_BITS \
    ((1ull << ' ') | (1ull << '\t') | (1ull << '\n') | (1ull << '\r') | (1ull << '\f'))

static inline int
is_delim(Py_UCS4 c)
{
    return c <= ' ' && ((DELIM_BITS >> c) & 1) != 0;
}

static inline int
is_unicode_space(Py_UCS4 c)
{
    return (c >= 0x2000 && c <= 0x200A) || c == 0x202F || c == 0x205F || c == 0x3000 ||
           c == 0xA0;
}

/* ---- Generic scans ------------------------------------------------------------------------ */

typedef int (*CharClass)(Py_UCS4);

static int cls_alpha(Py_UCS4 c) { return is_alpha(c); }
static int cls_not_alpha(Py_UCS4 c) { return !is_alpha(c); }
static int cls_not_alnum(Py_UCS4 c) { return !is_alnum(c); }
static int cls_digit(Py_UCS4 c) { return is_digit(c); }
static int cls_not_digit(Py_UCS4 c) { return !is_digit(c); }
static int cls_alnum_or_dot(Py_UCS4 c) { return c == '.' || is_alnum(c); }
static int cls_alnum(Py_UCS4 c) { return is_alnum(c); }
static int cls_small_s(Py_UCS4 c) { return c == 's'; }

static int
contains(const Buf *b, Py_UCS4 c)
{
    return find_char(b->p, 0, b->len, c) < b->len;
}

static Py_ssize_t
find_ascii(const Buf *b, const char *s, Py_ssize_t from)
{
    const Py_ssize_t n = (Py_ssize_t)strlen(s);
    const Py_UCS4 first = (Py_UCS4)(unsigned char)s[0];
    const Py_ssize_t last = b->len - n + 1; /* a match starts before it */
    for (Py_ssize_t k = from; k < last; k++) {
        k = find_char(b->p, k, last, first);
        if (k >= last) {
            break;
        }
        Py_ssize_t m = 1;
        while (m < n && b->p[k + m] == (Py_UCS4)(unsigned char)s[m]) {
            m++;
        }
        if (m == n) {
            return k;
        }
    }
    return -1;
}

/* re.sub of "(A)x(B)" by "\1" + middle + "\2": scan left to right, consuming each match.
 * A match starts one code point before an x, so the code points up to there are copied in one
 * span (most lines hold few of the x looked for). */
static int
sub_pair(const Buf *in, Buf *out, CharClass a, Py_UCS4 x, CharClass b, const char *middle)
{
    out->len = 0;
    const Py_UCS4 *p = in->p;
    const Py_ssize_t n = in->len;
    Py_ssize_t s = 0;
    while (s < n) {
        /* The next x at j >= s + 1 with a code point after it (j + 1 < n). */
        const Py_ssize_t j = find_char(p, s + 1, n - 1, x);
        if (j + 1 >= n) {
            return buf_put_span(out, p + s, n - s);
        }
        /* No match can start in s .. j - 2: their next code point is not x. */
        if (buf_put_span(out, p + s, j - 1 - s) < 0) {
            return -1;
        }
        s = j - 1;
        if (a(p[s]) && b(p[s + 2])) {
            if (buf_put(out, p[s]) < 0 || buf_put_ascii(out, middle) < 0 ||
                buf_put(out, p[s + 2]) < 0) {
                return -1;
            }
            s += 3;
        }
        else {
            if (buf_put(out, p[s]) < 0) {
                return -1;
            }
            s++;
        }
    }
    return 0;
}

static void
swap(Buf *a, Buf *b)
{
    Buf t = *a;
    *a = *b;
    *b = t;
}

/* line = line.replace(needle, repl) for ASCII needle and replacement, written to tmp, which then
 * changes places with line (every step keeps its line in *line). */
static int
replace_ascii(Buf *line, Buf *tmp, const char *needle, const char *repl)
{
    tmp->len = 0;
    const Py_ssize_t nn = (Py_ssize_t)strlen(needle);
    Py_ssize_t s = 0;
    for (;;) {
        Py_ssize_t at = find_ascii(line, needle, s);
        if (at < 0) {
            break;
        }
        if (buf_put_span(tmp, line->p + s, at - s) < 0 || buf_put_ascii(tmp, repl) < 0) {
            return -1;
        }
        s = at + nn;
    }
    if (buf_put_span(tmp, line->p + s, line->len - s) < 0) {
        return -1;
    }
    swap(line, tmp);
    return 0;
}

/* ---- The steps ---------------------------------------------------------------------------- */

/* What isolate_other() saw, so that the steps that cannot change the line are skipped: each
 * step below only looks for these characters, and none makes one it does not look for. */
enum {
    SEEN_DOT = 1,   /* '.': dot runs, sentence dots (DOTMULTI is made from dots) */
    SEEN_D = 2,     /* 'D': a DOTMULTI written in the input */
    SEEN_COMMA = 4, /* ',' */
    SEEN_QUOTE = 8, /* ' ` U+2018 U+2019 U+201C U+201D: quotes and apostrophes */
    SEEN_DASH = 16, /* '-' U+2013 */
    /* U+00A0 and the other Unicode spaces that collapse_spaces() turns into ' ': no step
     * makes one, so without one (and with the punctuation kept) the line that the sentence
     * dots' split leaves has no run of spaces to collapse. */
    SEEN_USPACE = 32,
    /* '`' U+2018 U+2019 U+201C U+201D (with SEEN_QUOTE): what normalize_quotes() rewrites
     * besides "''"; a line whose quotes are all '\'' skips its scan for them. */
    SEEN_QUOTE_OTHER = 64,
};

/* isolate_other()'s view of an ASCII code point: the SEEN_ bits it sets, plus KEPT (0x80) when
 * it stays as it is (alphanumeric, Java whitespace, . ' ` , -). */
enum { KEPT = 0x80 };
static const unsigned char isolate_ascii[128] = {
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x80, 0x80,
    0x80, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x88, 0x00, 0x00, 0x00, 0x00, 0x84, 0x90, 0x81, 0x00,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x80, 0x80, 0x82, 0x80, 0x80, 0x80,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00,
    0xC8, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    0x80, 0x80, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static int
isolate_other(const Buf *in, Buf *out, unsigned *seen)
{
    out->len = 0;
    /* Each code point becomes at most three: room for all of them once, then plain stores. */
    if (buf_reserve(out, 3 * in->len) < 0) {
        return -1;
    }
    /* The input in locals: the extension is built with -fno-strict-aliasing, so a store
     * through w would otherwise make the compiler load in->p and in->len again each time. */
    const Py_UCS4 *const p = in->p;
    const Py_ssize_t n = in->len;
    Py_UCS4 *w = out->p;
    unsigned found = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        const Py_UCS4 c = p[k];
        int keep;
        if (c < 0x80) {
            const unsigned t = isolate_ascii[c];
            found |= t; /* (KEPT cleared at the end) */
            keep = (t & KEPT) != 0;
        }
        else {
            if (c == 0x2018 || c == 0x2019 || c == 0x201C || c == 0x201D) {
                found |= SEEN_QUOTE | SEEN_QUOTE_OTHER;
            }
            else if (c == 0x2013) {
                found |= SEEN_DASH;
            }
            else if (is_unicode_space(c)) {
                found |= SEEN_USPACE;
            }
            keep = is_alpha_wide(c) || c == 0x2018 || c == 0x2019;
        }
        if (keep) {
            *w++ = c;
        }
        else {
            w[0] = ' ';
            w[1] = c;
            w[2] = ' ';
            w += 3;
        }
    }
    out->len = w - out->p;
    *seen = found & ~(unsigned)KEPT;
    return 0;
}

/* _protect_dot_runs: "\.(\.+)" -> " DOTMULTI\1", then the DOTMULTI folding loop. *multi is
 * set when the line may hold a DOTMULTI (a dot run was replaced, or it was already set: a 'D'
 * in the input); without one the folding loop cannot apply and is skipped. */
static int
protect_dot_runs(Buf *line, Buf *tmp, int *multi)
{
    if (find_ascii(line, "..", 0) >= 0) {
        *multi = 1;
        tmp->len = 0;
        Py_ssize_t s = 0;
        while (s < line->len) {
            if (line->p[s] == '.' && s + 1 < line->len && line->p[s + 1] == '.') {
                Py_ssize_t e = s + 1;
                while (e < line->len && line->p[e] == '.') {
                    e++;
                }
                if (buf_put_ascii(tmp, " DOTMULTI") < 0 ||
                    buf_put_span(tmp, line->p + s + 1, e - s - 1) < 0) {
                    return -1;
                }
                s = e;
            }
            else {
                if (buf_put(tmp, line->p[s]) < 0) {
                    return -1;
                }
                s++;
            }
        }
        swap(line, tmp);
    }
    while (*multi && find_ascii(line, "DOTMULTI.", 0) >= 0) {
        /* "DOTMULTI\.([^.])" -> "DOTDOTMULTI \1" */
        tmp->len = 0;
        Py_ssize_t s = 0;
        for (;;) {
            Py_ssize_t at = find_ascii(line, "DOTMULTI.", s);
            while (at >= 0 && !(at + 9 < line->len && line->p[at + 9] != '.')) {
                at = find_ascii(line, "DOTMULTI.", at + 1);
            }
            if (at < 0) {
                break;
            }
            if (buf_put_span(tmp, line->p + s, at - s) < 0 ||
                buf_put_ascii(tmp, "DOTDOTMULTI ") < 0 || buf_put(tmp, line->p[at + 9]) < 0) {
                return -1;
            }
            s = at + 10;
        }
        if (buf_put_span(tmp, line->p + s, line->len - s) < 0) {
            return -1;
        }
        swap(line, tmp);
        if (replace_ascii(line, tmp, "DOTMULTI.", "DOTDOTMULTI") < 0) {
            return -1;
        }
    }
    return 0;
}

static int
normalize_quotes(Buf *line, Buf *tmp, int others)
{
    int doubles = 0;
    Py_UCS4 *const p = line->p;
    const Py_ssize_t n = line->len;
    for (Py_ssize_t k = 0; others && k < n; k++) {
        const Py_UCS4 c = p[k];
        if (c == '`' || c == 0x2018 || c == 0x2019) {
            p[k] = '\'';
        }
        else if (c == 0x201C || c == 0x201D) {
            doubles = 1;
        }
    }
    if (!doubles && find_ascii(line, "''", 0) < 0) {
        return 0;
    }
    tmp->len = 0;
    Py_ssize_t s = 0;
    while (s < line->len) {
        const Py_UCS4 c = line->p[s];
        if (c == 0x201C || c == 0x201D) {
            if (buf_put_ascii(tmp, " \" ") < 0) {
                return -1;
            }
            s++;
        }
        else if (c == '\'' && s + 1 < line->len && line->p[s + 1] == '\'') {
            if (buf_put_ascii(tmp, " \" ") < 0) {
                return -1;
            }
            s += 2;
        }
        else {
            if (buf_put(tmp, c) < 0) {
                return -1;
            }
            s++;
        }
    }
    swap(line, tmp);
    return 0;
}

static int
normalize_dashes(Buf *line, Buf *tmp)
{
    Py_UCS4 *const p = line->p;
    const Py_ssize_t n = line->len;
    for (Py_ssize_t k = 0; k < n; k++) {
        if (p[k] == 0x2013) {
            p[k] = '-';
        }
    }
    if (find_ascii(line, "--", 0) < 0) {
        return 0;
    }
    return replace_ascii(line, tmp, "--", "-");
}

static int
pair_step(Buf *line, Buf *tmp, CharClass a, Py_UCS4 x, CharClass b, const char *middle)
{
    if (sub_pair(line, tmp, a, x, b, middle) < 0) {
        return -1;
    }
    swap(line, tmp);
    return 0;
}

/* _split_commas: the three consuming passes "([^0-9]),([^0-9])", "([0-9]),([^0-9])" and
 * "([^0-9]),([0-9])" -> "\1 , \2", or what they come to, decided as text/normalize.py decides
 * it from one look at the commas. When no comma has a digit beside it, the second and third
 * passes cannot match (the first only puts spaces beside commas, and a comma it leaves keeps
 * its neighbours), so the first pass alone is run; when moreover no two commas are at most
 * one code point apart and none is the line's first or last code point, no match of the first
 * pass consumes a code point that the next comma's match needs, and every comma is padded:
 * str.replace(",", " , "). */
static int
split_commas(Buf *line, Buf *tmp)
{
    const Py_UCS4 *p = line->p;
    const Py_ssize_t n = line->len;
    int close = 0;
    Py_ssize_t prev = -3;
    for (Py_ssize_t k = find_char(p, 0, n, ','); k < n; k = find_char(p, k + 1, n, ',')) {
        if ((k > 0 && is_digit(p[k - 1])) || (k + 1 < n && is_digit(p[k + 1]))) {
            return pair_step(line, tmp, cls_not_digit, ',', cls_not_digit, " , ") < 0 ||
                           pair_step(line, tmp, cls_digit, ',', cls_not_digit, " , ") < 0 ||
                           pair_step(line, tmp, cls_not_digit, ',', cls_digit, " , ") < 0
                       ? -1
                       : 0;
        }
        close |= k == 0 || k == n - 1 || k - prev <= 2;
        prev = k;
    }
    if (close) {
        return pair_step(line, tmp, cls_not_digit, ',', cls_not_digit, " , ");
    }
    return replace_ascii(line, tmp, ",", " , ");
}

/* _split_apostrophes (English and French) in one pass when no two apostrophes are at most two
 * code points apart and none is the line's first or last code point: 1 done, 0 not so (the
 * line untouched), -1 error. Each pass's match is a code point, an apostrophe and a code
 * point, so with the apostrophes that far apart no match consumes a code point another
 * apostrophe's match needs, and a replacement only puts spaces beside its apostrophe, so each
 * apostrophe's fate follows from its two neighbours as read in the input:
 *   English: neither a letter -> " ' " (pass 1); the left not alphanumeric and the right a
 *   letter -> " ' " (pass 2); the left a letter and the right not -> " ' " (pass 3); both
 *   letters -> " '" (pass 4); a digit then 's' -> " '" (pass 5); a digit then another letter
 *   -> unchanged. French: both letters -> "' " (pass 4), any other -> " ' ".
 * After any of these the apostrophe's new neighbours are spaces, or (" '", "' ") a space and
 * a letter that no later pass takes with a space on the other side, so no later pass matches
 * it again. */
static int
split_apostrophes_apart(Buf *line, Buf *tmp, int mode)
{
    const Py_UCS4 *const p = line->p;
    const Py_ssize_t n = line->len;
    Py_ssize_t count = 0, prev = -3;
    for (Py_ssize_t k = find_char(p, 0, n, '\''); k < n; k = find_char(p, k + 1, n, '\'')) {
        if (k == 0 || k == n - 1 || k - prev <= 2) {
            return 0;
        }
        prev = k;
        count++;
    }
    tmp->len = 0;
    if (buf_reserve(tmp, n + 2 * count) < 0) {
        return -1;
    }
    Py_UCS4 *w = tmp->p;
    Py_ssize_t s = 0;
    for (Py_ssize_t k = find_char(p, 0, n, '\''); k < n; k = find_char(p, k + 1, n, '\'')) {
        memcpy(w, p + s, (size_t)(k - s) * sizeof(Py_UCS4));
        w += k - s;
        s = k + 1;
        const Py_UCS4 a = p[k - 1], b = p[k + 1];
        const int a_alpha = is_alpha(a), b_alpha = is_alpha(b);
        if (mode == 1) {
            if (a_alpha && b_alpha) {
                *w++ = '\'';
                *w++ = ' ';
            }
            else {
                *w++ = ' ';
                *w++ = '\'';
                *w++ = ' ';
            }
        }
        else if ((!a_alpha && !b_alpha) || (!is_alnum(a) && b_alpha) || (a_alpha && !b_alpha)) {
            *w++ = ' ';
            *w++ = '\'';
            *w++ = ' ';
        }
        else if (a_alpha || b == 's') { /* (both letters, or a digit and 's') */
            *w++ = ' ';
            *w++ = '\'';
        }
        else { /* a digit, then a letter other than 's' */
            *w++ = '\'';
        }
    }
    memcpy(w, p + s, (size_t)(n - s) * sizeof(Py_UCS4));
    w += n - s;
    tmp->len = w - tmp->p;
    swap(line, tmp);
    return 1;
}

static int
split_apostrophes(Buf *line, Buf *tmp, int mode)
{
    if (!contains(line, '\'')) {
        return 0;
    }
    if (mode == 0 || mode == 1) {
        const int done = split_apostrophes_apart(line, tmp, mode);
        if (done != 0) {
            return done < 0 ? -1 : 0;
        }
    }
    if (mode == 0) {
        return pair_step(line, tmp, cls_not_alpha, '\'', cls_not_alpha, " ' ") < 0 ||
                       pair_step(line, tmp, cls_not_alnum, '\'', cls_alpha, " ' ") < 0 ||
                       pair_step(line, tmp, cls_alpha, '\'', cls_not_alpha, " ' ") < 0 ||
                       pair_step(line, tmp, cls_alpha, '\'', cls_alpha, " '") < 0 ||
                       pair_step(line, tmp, cls_digit, '\'', cls_small_s, " '") < 0
                   ? -1
                   : 0;
    }
    if (mode == 1) {
        return pair_step(line, tmp, cls_not_alpha, '\'', cls_not_alpha, " ' ") < 0 ||
                       pair_step(line, tmp, cls_not_alpha, '\'', cls_alpha, " ' ") < 0 ||
                       pair_step(line, tmp, cls_alpha, '\'', cls_not_alpha, " ' ") < 0 ||
                       pair_step(line, tmp, cls_alpha, '\'', cls_alpha, "' ") < 0
                   ? -1
                   : 0;
    }
    return replace_ascii(line, tmp, "'", " ' ");
}

/* prefixes.get(word[start:end]): 1 true, 0 false, -1 absent, -2 error. */
static int
prefix_lookup(PyObject *prefixes, const Py_UCS4 *p, Py_ssize_t n)
{
    PyObject *key = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, p, n);
    if (key == NULL) {
        return -2;
    }
    PyObject *value = PyDict_GetItemWithError(prefixes, key);
    Py_DECREF(key);
    if (value == NULL) {
        return PyErr_Occurred() ? -2 : -1;
    }
    const int truth = PyObject_IsTrue(value);
    return truth < 0 ? -2 : truth;
}

/* _split_sentence_dots: tokens joined by single spaces (plus one after the last). A word of
 * len code points becomes at most len + 2 (the word without its dot, " .", the space), and
 * words are at least one delimiter apart, so 2n + 2 code points hold the result: the room is
 * reserved once and the words copied without a check each. */
static int
split_sentence_dots(const Buf *in, Buf *out, PyObject *prefixes)
{
    out->len = 0;
    const Py_UCS4 *p = in->p;
    const Py_ssize_t n = in->len;
    if (buf_reserve(out, 2 * n + 2) < 0) {
        return -1;
    }
    Py_UCS4 *w = out->p;
    const int dots = contains(in, '.');
    Py_ssize_t s = 0;
    while (s < n && is_delim(p[s])) {
        s++;
    }
    while (s < n) {
        Py_ssize_t e = s + 1; /* (p[s] is not a delimiter) */
        while (e < n && !is_delim(p[e])) {
            e++;
        }
        /* The word is p[s:e]; the next one starts at t (t == n: none). */
        Py_ssize_t t = e + 1;
        while (t < n && is_delim(p[t])) {
            t++;
        }
        if (t > n) {
            t = n;
        }
        const Py_ssize_t len = e - s;
        int done = 0;
        if (dots && len >= 2 && p[e - 1] == '.') {
            int pre_dot = 0, pre_alpha = 0;
            for (Py_ssize_t k = s; k < e - 1; k++) {
                pre_dot |= p[k] == '.';
                pre_alpha |= is_alpha(p[k]);
            }
            if (pre_dot && pre_alpha) {
                for (Py_ssize_t k = s; k < e; k++) {
                    if (p[k] != '.') {
                        *w++ = p[k];
                    }
                }
                done = 1;
            }
            else {
                const int numeric_only = prefix_lookup(prefixes, p + s, len - 1);
                if (numeric_only == -2) {
                    return -1;
                }
                const Py_UCS4 next = t < n ? p[t] : 0;
                const int stays = numeric_only == 0 || (t < n && next >= 'a' && next <= 'z') ||
                                  (numeric_only == 1 && t < n && next >= '0' && next <= '9');
                if (!stays) {
                    memcpy(w, p + s, (size_t)(len - 1) * sizeof(Py_UCS4));
                    w += len - 1;
                    *w++ = ' ';
                    *w++ = '.';
                    done = 1;
                }
            }
        }
        if (!done) {
            memcpy(w, p + s, (size_t)len * sizeof(Py_UCS4));
            w += len;
        }
        *w++ = ' ';
        s = t;
    }
    out->len = w - out->p;
    return 0;
}

static int
restore_dot_runs(Buf *line, Buf *tmp)
{
    if (find_ascii(line, "DOTMULTI", 0) < 0) {
        return 0;
    }
    while (find_ascii(line, "DOTDOTMULTI", 0) >= 0) {
        if (replace_ascii(line, tmp, "DOTDOTMULTI", "DOTMULTI.") < 0) {
            return -1;
        }
    }
    return replace_ascii(line, tmp, "DOTMULTI", ".");
}

/* Collapse runs of spaces (ASCII or the Unicode ones) to one ASCII space, in place. */
static void
collapse_spaces(Buf *line)
{
    Py_ssize_t w = 0;
    int in_run = 0;
    for (Py_ssize_t k = 0; k < line->len; k++) {
        const Py_UCS4 c = line->p[k];
        if (c == ' ' || (c >= 0xA0 && is_unicode_space(c))) {
            if (!in_run) {
                line->p[w++] = ' ';
            }
            in_run = 1;
        }
        else {
            line->p[w++] = c;
            in_run = 0;
        }
    }
    line->len = w;
}

/* The normalised text of `text` in line->p[*start .. *end): the steps of normalize_line() on
 * the caller's two grow-only buffers (their contents are replaced), so that a front end that
 * normalises many lines allocates nothing per line. 0, or -1 with an exception set. */
int
normalize_ucs4(PyObject *text, int mode, int keep_punctuation, PyObject *prefixes, Buf *line,
               Buf *tmp, Py_ssize_t *start, Py_ssize_t *end)
{
    const Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    line->len = 0;
    tmp->len = 0;
    if (buf_reserve(line, n + 2) < 0 || buf_reserve(tmp, 2 * n + 16) < 0) {
        return -1;
    }
    line->p[0] = ' ';
    if (PyUnicode_AsUCS4(text, line->p + 1, n, 0) == NULL) {
        return -1;
    }
    line->p[n + 1] = ' ';
    line->len = n + 2;

    unsigned seen;
    if (isolate_other(line, tmp, &seen) < 0) {
        return -1;
    }
    swap(line, tmp);
    /* Whether the line may hold a DOTMULTI: written in the input (a 'D'), made by
     * protect_dot_runs(), or made later by split_sentence_dots() removing dots between the
     * letters of a word (which needs a 'D' in the input too). */
    int multi = (seen & SEEN_D) != 0;
    if ((seen & SEEN_DOT) && protect_dot_runs(line, tmp, &multi) < 0) {
        return -1;
    }
    if ((seen & SEEN_COMMA) && split_commas(line, tmp) < 0) {
        return -1;
    }
    if ((seen & SEEN_QUOTE) &&
        normalize_quotes(line, tmp, (seen & SEEN_QUOTE_OTHER) != 0) < 0) {
        return -1;
    }
    if ((seen & SEEN_DASH) &&
        (normalize_dashes(line, tmp) < 0 ||
         (contains(line, '-') &&
          pair_step(line, tmp, cls_alnum_or_dot, '-', cls_alnum, " ") < 0))) {
        return -1;
    }
    if ((seen & SEEN_QUOTE) && split_apostrophes(line, tmp, mode) < 0) {
        return -1;
    }
    if (split_sentence_dots(line, tmp, prefixes) < 0) {
        return -1;
    }
    swap(line, tmp);
    if (multi && restore_dot_runs(line, tmp) < 0) {
        return -1;
    }
    if (!keep_punctuation) {
        for (Py_ssize_t k = 0; k < line->len; k++) {
            if (!is_alnum(line->p[k])) {
                line->p[k] = ' ';
            }
        }
        collapse_spaces(line);
    }
    else if (seen & SEEN_USPACE) {
        collapse_spaces(line);
    }
    /* (Otherwise the words are one ' ' apart already: split_sentence_dots() joined them so,
     * restore_dot_runs() changes no space, and no Unicode space is left to become one.) */
    /* String.trim: every code point <= U+0020 at either end. */
    Py_ssize_t s = 0, e = line->len;
    while (s < e && line->p[s] <= 0x20) {
        s++;
    }
    while (e > s && line->p[e - 1] <= 0x20) {
        e--;
    }
    *start = s;
    *end = e;
    return 0;
}

PyObject *
normalize_line_c(PyObject *self, PyObject *args)
{
    PyObject *text, *prefixes;
    int mode, keep_punctuation;
    if (!PyArg_ParseTuple(args, "UipO!:normalize_line", &text, &mode, &keep_punctuation,
                          &PyDict_Type, &prefixes)) {
        return NULL;
    }
    if (mode < 0 || mode > 2) {
        PyErr_SetString(PyExc_ValueError, "mode: expected 0 (English), 1 (French) or 2");
        return NULL;
    }
    Buf line = {NULL, 0, 0}, tmp = {NULL, 0, 0};
    PyObject *result = NULL;
    Py_ssize_t start, end;
    if (normalize_ucs4(text, mode, keep_punctuation, prefixes, &line, &tmp, &start, &end) == 0) {
        result = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, line.p + start, end - start);
    }
    PyMem_Free(line.p);
    PyMem_Free(tmp.p);
    return result;
}
