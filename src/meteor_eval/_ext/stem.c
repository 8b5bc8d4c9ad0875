/*
 * Compiled stemmers:
 *
 *   snowball_english(word) -> str   the Snowball English stemmer, 2.2.0 revision, exactly as the
 *                                   vendored pure-Python engine (resources/_snowball/v2_2_0)
 *                                   computes it, code point by code point;
 *   snowball_porter(word) -> str    the Snowball Porter stemmer (the original 1980 algorithm,
 *                                   2.2.0 revision; the paper2005 flavour's), likewise;
 *   nltk_porter_rules(word) -> str  the rule steps of NLTK's Porter stemmer, exactly as
 *                                   resources/nltk_porter.py's _stem_lowered computes them;
 *   nltk_porter_word(irregular, word) -> str
 *                                   the whole of NLTK's stem of one word, as
 *                                   NltkPorterStemmer._stem(word, word.lower()) computes it
 *                                   (lower-casing, the irregular forms of the dict given, the
 *                                   length rule, then the rule steps).
 *
 * The Snowball stemmers are transcriptions of the generated Python programs onto a small
 * runtime that has the same semantics as the vendored BaseStemmer (cursor, limit, backward limit, bra/ket slice
 * marks, the same among-table search and the same replace/insert cursor adjustments), so every
 * routine returns what its Python counterpart returns. The Python engines stay the reference
 * and the fallback; tests compare both on the whole WordNet vocabulary and on random strings.
 */

#include "kernels.h"

/* ---- Snowball runtime ------------------------------------------------------------------- */

typedef struct {
    Py_UCS4 *p;
    Py_ssize_t len, cap; /* characters held, capacity */
    Py_ssize_t c, l, lb, bra, ket;
    int failed; /* allocation failure */
    Py_UCS4 *heap;
    int y_found;
    Py_ssize_t p1, p2;
} SB;

typedef struct {
    const char *s;
    int len;
    int substring_i;
    int result;
} Among;

/* Whether ch belongs to the grouping s, a bit set over the code points [min, max]. */
static inline int
in_set(const unsigned char *s, int min, int max, long ch)
{
    if (ch > max || ch < min) return 0;
    ch -= min;
    return (s[ch >> 3] & (1 << (ch & 7))) != 0;
}

static int
in_grouping(SB *z, const unsigned char *s, int min, int max)
{
    if (z->c >= z->l || !in_set(s, min, max, (long)z->p[z->c])) return 0;
    z->c++;
    return 1;
}

static int
go_in_grouping(SB *z, const unsigned char *s, int min, int max)
{
    for (; z->c < z->l; z->c++)
        if (!in_set(s, min, max, (long)z->p[z->c])) return 1;
    return 0;
}

static int
in_grouping_b(SB *z, const unsigned char *s, int min, int max)
{
    if (z->c <= z->lb || !in_set(s, min, max, (long)z->p[z->c - 1])) return 0;
    z->c--;
    return 1;
}

static int
out_grouping_b(SB *z, const unsigned char *s, int min, int max)
{
    if (z->c <= z->lb || in_set(s, min, max, (long)z->p[z->c - 1])) return 0;
    z->c--;
    return 1;
}

static int
go_out_grouping(SB *z, const unsigned char *s, int min, int max)
{
    for (; z->c < z->l; z->c++)
        if (in_set(s, min, max, (long)z->p[z->c])) return 1;
    return 0;
}

static int
go_out_grouping_b(SB *z, const unsigned char *s, int min, int max)
{
    for (; z->c > z->lb; z->c--)
        if (in_set(s, min, max, (long)z->p[z->c - 1])) return 1;
    return 0;
}

/* Whether the n characters s stand at the cursor (before it when backward); if so the cursor
 * moves over them. */
static inline int
eq_s_dir(SB *z, const char *s, int backward)
{
    Py_ssize_t n = (Py_ssize_t)strlen(s);
    if ((backward ? z->c - z->lb : z->l - z->c) < n) return 0;
    Py_ssize_t at = backward ? z->c - n : z->c;
    for (Py_ssize_t i = 0; i < n; i++)
        if (z->p[at + i] != (Py_UCS4)(unsigned char)s[i]) return 0;
    z->c += backward ? -n : n;
    return 1;
}

#define eq_s(z, s) eq_s_dir((z), (s), 0)
#define eq_s_b(z, s) eq_s_dir((z), (s), 1)

/* The reference runtime's binary search of an among table, forward from the cursor (to the
 * limit l) or backward (to the backward limit lb): the longest entry matching there, whose
 * result is returned with the cursor moved over it; 0 when none matches. */
static inline int
find_among_dir(SB *z, const Among *v, int n, int backward)
{
    int i = 0, j = n;
    Py_ssize_t c = z->c, end = backward ? z->lb : z->l;
    int common_i = 0, common_j = 0, first_key_inspected = 0;
    for (;;) {
        int k = i + ((j - i) >> 1);
        long diff = 0;
        int common = common_i < common_j ? common_i : common_j;
        const Among *w = v + k;
        for (int m = common; m < w->len; m++) {
            Py_ssize_t at = backward ? c - 1 - common : c + common;
            if ((backward ? c - common : c + common) == end) {
                diff = -1;
                break;
            }
            diff = (long)z->p[at] - (long)(unsigned char)w->s[backward ? w->len - 1 - m : m];
            if (diff != 0) break;
            common++;
        }
        if (diff < 0) {
            j = k;
            common_j = common;
        } else {
            i = k;
            common_i = common;
        }
        if (j - i <= 1) {
            if (i > 0) break;
            if (j == i) break;
            if (first_key_inspected) break;
            first_key_inspected = 1;
        }
    }
    for (;;) {
        const Among *w = v + i;
        if (common_i >= w->len) {
            z->c = backward ? c - w->len : c + w->len;
            return w->result;
        }
        i = w->substring_i;
        if (i < 0) return 0;
    }
}

#define find_among(z, v, n) find_among_dir((z), (v), (n), 0)
#define find_among_b(z, v, n) find_among_dir((z), (v), (n), 1)

/* Replace [c_bra, c_ket) by s; the cursor moves as in the reference runtime. */
static Py_ssize_t
replace_s(SB *z, Py_ssize_t c_bra, Py_ssize_t c_ket, const char *s)
{
    Py_ssize_t n = (Py_ssize_t)strlen(s);
    Py_ssize_t adjustment = n - (c_ket - c_bra);
    if (z->len + adjustment > z->cap) {
        Py_ssize_t cap = (z->len + adjustment) * 2 + 16;
        Py_UCS4 *grown = PyMem_Malloc((size_t)cap * sizeof(Py_UCS4));
        if (grown == NULL) {
            z->failed = 1;
            return 0;
        }
        memcpy(grown, z->p, (size_t)z->len * sizeof(Py_UCS4));
        PyMem_Free(z->heap);
        z->heap = z->p = grown;
        z->cap = cap;
    }
    memmove(z->p + c_bra + n, z->p + c_ket, (size_t)(z->len - c_ket) * sizeof(Py_UCS4));
    for (Py_ssize_t i = 0; i < n; i++) z->p[c_bra + i] = (Py_UCS4)(unsigned char)s[i];
    z->len += adjustment;
    z->l += adjustment;
    if (z->c >= c_ket)
        z->c += adjustment;
    else if (z->c > c_bra)
        z->c = c_bra;
    return adjustment;
}

static int
slice_from(SB *z, const char *s)
{
    if (z->bra < 0 || z->bra > z->ket || z->ket > z->l || z->l > z->len) return 0;
    replace_s(z, z->bra, z->ket, s);
    return !z->failed;
}

#define slice_del(z) slice_from((z), "")

static void
insert_s(SB *z, Py_ssize_t c_bra, Py_ssize_t c_ket, const char *s)
{
    Py_ssize_t adjustment = replace_s(z, c_bra, c_ket, s);
    if (c_bra <= z->bra) z->bra += adjustment;
    if (c_bra <= z->ket) z->ket += adjustment;
}

/* ---- Snowball English, 2.2.0 revision ------------------------------------------------------ */

#define A(s, i, r) {s, (int)(sizeof(s) - 1), i, r}

static const Among en_a_0[] = {A("arsen", -1, -1), A("commun", -1, -1), A("gener", -1, -1)};
static const Among en_a_1[] = {A("'", -1, 1), A("'s'", 0, 1), A("'s", -1, 1)};
static const Among en_a_2[] = {A("ied", -1, 2), A("s", -1, 3), A("ies", 1, 2),
                               A("sses", 1, 1), A("ss", 1, -1), A("us", 1, -1)};
static const Among en_a_3[] = {A("", -1, 3),  A("bb", 0, 2), A("dd", 0, 2), A("ff", 0, 2),
                               A("gg", 0, 2), A("bl", 0, 1), A("mm", 0, 2), A("nn", 0, 2),
                               A("pp", 0, 2), A("rr", 0, 2), A("at", 0, 1), A("tt", 0, 2),
                               A("iz", 0, 1)};
static const Among en_a_4[] = {A("ed", -1, 2),   A("eed", 0, 1),   A("ing", -1, 2),
                               A("edly", -1, 2), A("eedly", 3, 1), A("ingly", -1, 2)};
static const Among en_a_5[] = {
    A("anci", -1, 3),     A("enci", -1, 2),    A("ogi", -1, 13),     A("li", -1, 15),
    A("bli", 3, 12),      A("abli", 4, 4),     A("alli", 3, 8),      A("fulli", 3, 9),
    A("lessli", 3, 14),   A("ousli", 3, 10),   A("entli", 3, 5),     A("aliti", -1, 8),
    A("biliti", -1, 12),  A("iviti", -1, 11),  A("tional", -1, 1),   A("ational", 14, 7),
    A("alism", -1, 8),    A("ation", -1, 7),   A("ization", 17, 6),  A("izer", -1, 6),
    A("ator", -1, 7),     A("iveness", -1, 11), A("fulness", -1, 9), A("ousness", -1, 10)};
static const Among en_a_6[] = {A("icate", -1, 4), A("ative", -1, 6), A("alize", -1, 3),
                               A("iciti", -1, 4), A("ical", -1, 4),  A("tional", -1, 1),
                               A("ational", 5, 2), A("ful", -1, 5),  A("ness", -1, 5)};
static const Among en_a_7[] = {A("ic", -1, 1),   A("ance", -1, 1), A("ence", -1, 1),
                               A("able", -1, 1), A("ible", -1, 1), A("ate", -1, 1),
                               A("ive", -1, 1),  A("ize", -1, 1),  A("iti", -1, 1),
                               A("al", -1, 1),   A("ism", -1, 1),  A("ion", -1, 2),
                               A("er", -1, 1),   A("ous", -1, 1),  A("ant", -1, 1),
                               A("ent", -1, 1),  A("ment", 15, 1), A("ement", 16, 1)};
static const Among en_a_8[] = {A("e", -1, 1), A("l", -1, 2)};
static const Among en_a_9[] = {A("succeed", -1, -1), A("proceed", -1, -1), A("exceed", -1, -1),
                               A("canning", -1, -1), A("inning", -1, -1),  A("earring", -1, -1),
                               A("herring", -1, -1), A("outing", -1, -1)};
static const Among en_a_10[] = {
    A("andes", -1, -1), A("atlas", -1, -1), A("bias", -1, -1),  A("cosmos", -1, -1),
    A("dying", -1, 3),  A("early", -1, 9),  A("gently", -1, 7), A("howe", -1, -1),
    A("idly", -1, 6),   A("lying", -1, 4),  A("news", -1, -1),  A("only", -1, 10),
    A("singly", -1, 11), A("skies", -1, 2), A("skis", -1, 1),   A("sky", -1, -1),
    A("tying", -1, 5),  A("ugly", -1, 8)};

#define NA(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const unsigned char en_g_v[] = {17, 65, 16, 1};
static const unsigned char en_g_v_WXY[] = {1, 17, 65, 208, 1};
static const unsigned char en_g_valid_LI[] = {55, 141, 2};

#define V(z) en_g_v, 97, 121

/* Snowball's "goto [s]" (after a vowel when after_vowel: "goto (v [s])"): the first position
 * from the cursor where s stands, marked by bra and ket, the cursor left where that attempt
 * began; 0 (the cursor at the limit; the callers restore it) when none. The prelude and postlude
 * repeat it to turn y into Y and back. */
static int
en_goto_mark(SB *z, const char *s, int after_vowel)
{
    for (;;) {
        Py_ssize_t v = z->c;
        if (!after_vowel || in_grouping(z, V(z))) {
            z->bra = z->c;
            if (eq_s(z, s)) {
                z->ket = z->c;
                z->c = v;
                return 1;
            }
        }
        z->c = v;
        if (z->c >= z->l) return 0;
        z->c++;
    }
}

/* Snowball's "[substring]" going backward: the among-table entry ending at the cursor, its
 * suffix marked by ket (its end) and bra (its start, where the cursor moves); the entry's result,
 * 0 when none (then bra is left alone). Every rule step of the English stemmer begins so. */
static int
en_mark_suffix(SB *z, const Among *v, int n)
{
    z->ket = z->c;
    int among_var = find_among_b(z, v, n);
    if (among_var != 0) z->bra = z->c;
    return among_var;
}

/* Snowball's "repeat (goto ([s]) <- t)", with a vowel before s when after_vowel: each s from the
 * cursor on found by en_goto_mark() and replaced by t; the cursor then where the last search
 * began. The number replaced, -1 when a replacement fails. The prelude's y -> Y and the
 * postlude's Y -> y. */
static inline int
replace_marks(SB *z, const char *s, int after_vowel, const char *t)
{
    int count = 0;
    for (;;) {
        const Py_ssize_t v = z->c;
        if (!en_goto_mark(z, s, after_vowel)) {
            z->c = v;
            return count;
        }
        if (!slice_from(z, t)) return -1;
        count++;
    }
}

/* Both programs' consonant y: a y at the start, or after a vowel, becomes Y until the postlude
 * (y_found says whether any did); the cursor ends where it began. 0 when a replacement fails. */
static inline int
mark_consonant_y(SB *z)
{
    z->y_found = 0;
    const Py_ssize_t v = z->c;
    z->bra = z->c;
    if (eq_s(z, "y")) {
        z->ket = z->c;
        if (!slice_from(z, "Y")) return 0;
        z->y_found = 1;
    }
    z->c = v;
    const int after_vowel = replace_marks(z, "y", 1, "Y");
    if (after_vowel < 0) return 0;
    z->y_found |= after_vowel > 0;
    z->c = v;
    return 1;
}

static int
en_prelude(SB *z)
{
    Py_ssize_t v_1 = z->c;
    z->bra = z->c;
    if (eq_s(z, "'")) {
        z->ket = z->c;
        if (!slice_del(z)) return 0;
    }
    z->c = v_1;
    return mark_consonant_y(z);
}

static void
en_mark_regions(SB *z)
{
    z->p1 = z->l;
    z->p2 = z->l;
    Py_ssize_t v_1 = z->c;
    Py_ssize_t v_2 = z->c;
    if (find_among(z, en_a_0, NA(en_a_0)) == 0) {
        z->c = v_2;
        if (!go_out_grouping(z, V(z))) goto done;
        z->c++;
        if (!go_in_grouping(z, V(z))) goto done;
        z->c++;
    }
    z->p1 = z->c;
    if (!go_out_grouping(z, V(z))) goto done;
    z->c++;
    if (!go_in_grouping(z, V(z))) goto done;
    z->c++;
    z->p2 = z->c;
done:
    z->c = v_1;
}

static int
en_shortv(SB *z)
{
    Py_ssize_t v_1 = z->l - z->c;
    if (out_grouping_b(z, en_g_v_WXY, 89, 121) && in_grouping_b(z, V(z)) &&
        out_grouping_b(z, V(z)))
        return 1;
    z->c = z->l - v_1;
    if (!out_grouping_b(z, V(z))) return 0;
    if (!in_grouping_b(z, V(z))) return 0;
    if (z->c > z->lb) return 0;
    return 1;
}

#define R1(z) ((z)->p1 <= (z)->c)
#define R2(z) ((z)->p2 <= (z)->c)

/* en_mark_suffix() of a step that acts only on a suffix in a region (R1 from p1, R2 from p2):
 * the entry's result, 0 when none or when the suffix starts before *region (the step then
 * does nothing). The region's start is read after the search (no cost over the test in each
 * step: a value passed instead is held across the search). */
static inline int
en_mark_suffix_in(SB *z, const Among *v, int n, const Py_ssize_t *region)
{
    const int among_var = en_mark_suffix(z, v, n);
    if (among_var == 0) return 0;
    return *region <= z->c ? among_var : 0;
}

/* A step that replaces the suffix of the table v found in the region from *region by
 * to[its result] ("" deletes it): slice_from()'s result, 0 when there is none. */
static inline int
replace_suffix_in(SB *z, const Among *v, int n, const Py_ssize_t *region, const char *const *to)
{
    const int among_var = en_mark_suffix_in(z, v, n, region);
    return among_var != 0 && slice_from(z, to[among_var]);
}

static int
en_step_1a(SB *z)
{
    Py_ssize_t v_1 = z->l - z->c;
    z->ket = z->c;
    if (find_among_b(z, en_a_1, NA(en_a_1)) == 0) {
        z->c = z->l - v_1;
    } else {
        z->bra = z->c;
        if (!slice_del(z)) return 0;
    }
    int among_var = en_mark_suffix(z, en_a_2, NA(en_a_2));
    if (among_var == 0) return 0;
    if (among_var == 1) {
        if (!slice_from(z, "ss")) return 0;
    } else if (among_var == 2) {
        Py_ssize_t v_2 = z->l - z->c;
        Py_ssize_t c = z->c - 2;
        if (c < z->lb) {
            z->c = z->l - v_2;
            if (!slice_from(z, "ie")) return 0;
        } else {
            z->c = c;
            if (!slice_from(z, "i")) return 0;
        }
    } else if (among_var == 3) {
        if (z->c <= z->lb) return 0;
        z->c--;
        if (!go_out_grouping_b(z, V(z))) return 0;
        z->c--;
        if (!slice_del(z)) return 0;
    }
    return 1;
}

/* Step 1b of English and of Porter, once the ed/ing ending is marked and a vowel precedes it:
 * the ending goes, then the stem is tidied by table a_3 (both programs share it): "at", "bl",
 * "iz" get an "e" back, a doubled consonant loses one, and a short syllable (the program's own
 * test, `shortv`) at the R1 limit gets an "e". */
static int
tidy_after_ending(SB *z, int (*shortv)(SB *))
{
    if (!slice_del(z)) return 0;
    Py_ssize_t v_2 = z->l - z->c;
    int among_var = find_among_b(z, en_a_3, NA(en_a_3));
    if (among_var == 0) return 0;
    z->c = z->l - v_2;
    if (among_var == 1) {
        Py_ssize_t c = z->c;
        insert_s(z, z->c, z->c, "e");
        z->c = c;
    } else if (among_var == 2) {
        z->ket = z->c;
        if (z->c <= z->lb) return 0;
        z->c--;
        z->bra = z->c;
        if (!slice_del(z)) return 0;
    } else {
        if (z->c != z->p1) return 0;
        Py_ssize_t v_3 = z->l - z->c;
        if (!shortv(z)) return 0;
        z->c = z->l - v_3;
        Py_ssize_t c = z->c;
        insert_s(z, z->c, z->c, "e");
        z->c = c;
    }
    return !z->failed;
}

/* Step 1b of both programs, with the program's table a of endings and its short-syllable test:
 * an "eed" ending (result 1) in R1 becomes "ee"; the others (ed, ing, and English's -ly forms)
 * only when a vowel precedes them, then tidy_after_ending(). */
static inline int
step_1b(SB *z, const Among *a, int n, int (*shortv)(SB *))
{
    int among_var = en_mark_suffix(z, a, n);
    if (among_var == 0) return 0;
    if (among_var == 1) {
        if (!R1(z)) return 0;
        return slice_from(z, "ee");
    }
    Py_ssize_t v_1 = z->l - z->c;
    if (!go_out_grouping_b(z, V(z))) return 0;
    z->c = z->l - v_1;
    return tidy_after_ending(z, shortv);
}

static int
en_step_1b(SB *z)
{
    return step_1b(z, en_a_4, NA(en_a_4), en_shortv);
}

/* Step 1c of both programs begins alike: a final y (or Y, a consonant y) between ket and
 * bra; 0 when the word does not end in one. */
static int
mark_final_y(SB *z)
{
    z->ket = z->c;
    Py_ssize_t v_1 = z->l - z->c;
    if (!eq_s_b(z, "y")) {
        z->c = z->l - v_1;
        if (!eq_s_b(z, "Y")) return 0;
    }
    z->bra = z->c;
    return 1;
}

static int
en_step_1c(SB *z)
{
    if (!mark_final_y(z)) return 0;
    if (!out_grouping_b(z, V(z))) return 0;
    if (z->c <= z->lb) return 0;
    if (!slice_from(z, "i")) return 0;
    return 1;
}

static int
en_step_2(SB *z)
{
    static const char *const to[] = {NULL,  "tion", "ence", "ance", "able", "ent", "ize", "ate",
                                     "al",  "ful",  "ous",  "ive",  "ble",  NULL,  "less"};
    int among_var = en_mark_suffix_in(z, en_a_5, NA(en_a_5), &z->p1);
    if (among_var == 0) return 0;
    if (among_var >= 1 && among_var <= 14 && among_var != 13) {
        if (!slice_from(z, to[among_var])) return 0;
    } else if (among_var == 13) {
        if (!eq_s_b(z, "l")) return 0;
        if (!slice_from(z, "og")) return 0;
    } else {
        if (!in_grouping_b(z, en_g_valid_LI, 99, 116)) return 0;
        if (!slice_del(z)) return 0;
    }
    return 1;
}

static int
en_step_3(SB *z)
{
    int among_var = en_mark_suffix_in(z, en_a_6, NA(en_a_6), &z->p1);
    if (among_var == 0) return 0;
    switch (among_var) {
        case 1: return slice_from(z, "tion");
        case 2: return slice_from(z, "ate");
        case 3: return slice_from(z, "al");
        case 4: return slice_from(z, "ic");
        case 5: return slice_del(z);
        default:
            if (!R2(z)) return 0;
            return slice_del(z);
    }
}

/* Step 4 of both programs: delete the longest suffix of the table a that lies in R2; its
 * value 2 ("ion") only after s or t. */
static int
step_4_in_r2(SB *z, const Among *a, int n)
{
    int among_var = en_mark_suffix_in(z, a, n, &z->p2);
    if (among_var == 0) return 0;
    if (among_var == 2) {
        Py_ssize_t v_1 = z->l - z->c;
        if (!eq_s_b(z, "s")) {
            z->c = z->l - v_1;
            if (!eq_s_b(z, "t")) return 0;
        }
    }
    return slice_del(z);
}

/* Step 5's final "e" of both programs (ket and bra already around it): deleted in R2, or in
 * R1 when no short syllable (the program's own test) comes before it. */
static int
delete_final_e(SB *z, int (*shortv)(SB *))
{
    if (!R2(z)) {
        if (!R1(z)) return 0;
        Py_ssize_t v_2 = z->l - z->c;
        if (shortv(z)) return 0;
        z->c = z->l - v_2;
    }
    return slice_del(z);
}

static int
en_step_4(SB *z)
{
    return step_4_in_r2(z, en_a_7, NA(en_a_7));
}

static int
en_step_5(SB *z)
{
    int among_var = en_mark_suffix(z, en_a_8, NA(en_a_8));
    if (among_var == 0) return 0;
    if (among_var == 1) {
        return delete_final_e(z, en_shortv);
    }
    if (!R2(z)) return 0;
    if (!eq_s_b(z, "l")) return 0;
    return slice_del(z);
}

static int
en_exception2(SB *z)
{
    z->ket = z->c;
    if (find_among_b(z, en_a_9, NA(en_a_9)) == 0) return 0;
    z->bra = z->c;
    if (z->c > z->lb) return 0;
    return 1;
}

static int
en_exception1(SB *z)
{
    static const char *const to[] = {NULL,  "ski",   "sky",  "die",  "lie",  "tie",
                                     "idl", "gentl", "ugli", "earli", "onli", "singl"};
    z->bra = z->c;
    int among_var = find_among(z, en_a_10, NA(en_a_10));
    if (among_var == 0) return 0;
    z->ket = z->c;
    if (z->c < z->l) return 0;
    if (among_var >= 1 && among_var <= 11) {
        if (!slice_from(z, to[among_var])) return 0;
    }
    return 1;
}

static int
en_postlude(SB *z)
{
    if (!z->y_found) return 0;
    return replace_marks(z, "Y", 0, "y") >= 0;
}

static void
en_stem(SB *z)
{
    Py_ssize_t v_1 = z->c;
    if (en_exception1(z)) return;
    z->c = v_1;
    if (z->c + 3 > z->l) return;
    z->c = v_1;
    en_prelude(z);
    en_mark_regions(z);
    z->lb = z->c;
    z->c = z->l;
    Py_ssize_t v;
    v = z->l - z->c;
    en_step_1a(z);
    z->c = z->l - v;
    v = z->l - z->c;
    if (!en_exception2(z)) {
        z->c = z->l - v;
        int (*const steps[])(SB *) = {en_step_1b, en_step_1c, en_step_2, en_step_3, en_step_4,
                                      en_step_5};
        for (size_t k = 0; k < sizeof(steps) / sizeof(steps[0]); k++) {
            v = z->l - z->c;
            steps[k](z);
            z->c = z->l - v;
        }
    }
    z->c = z->lb;
    v = z->c;
    en_postlude(z);
    z->c = v;
}

/* Characters the two stemmers keep on the stack; a longer word goes to the heap. */
#define WORD_LOCAL 64

/* The str argument of function as UCS4 characters, in local (WORD_LOCAL of them) or, for a
 * longer word, in a new PyMem buffer also returned in *heap (to free), with room for 8 more
 * characters than the word (a rule may lengthen it a little). *n is the word's length, *cap the
 * buffer's. NULL with an exception set for an argument other than a str or a failed
 * allocation (nothing then to free). */
static inline Py_UCS4 *
stem_word_buffer(PyObject *arg, const char *function, Py_UCS4 *local, Py_UCS4 **heap,
                 Py_ssize_t *n, Py_ssize_t *cap)
{
    *heap = NULL;
    if (check_str_arg(arg, function) < 0) {
        return NULL;
    }
    *n = PyUnicode_GET_LENGTH(arg);
    *cap = *n + 8;
    Py_UCS4 *p = local;
    if (*cap <= WORD_LOCAL) {
        *cap = WORD_LOCAL;
    }
    else {
        p = *heap = PyMem_Malloc((size_t)*cap * sizeof(Py_UCS4));
        if (p == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
    }
    if (PyUnicode_AsUCS4(arg, p, *cap, 0) == NULL) {
        PyMem_Free(*heap);
        *heap = NULL;
        return NULL;
    }
    return p;
}

/* A Snowball program run on one Python string (what snowball_english and snowball_porter
 * do): the word in a UCS-4 buffer, the program's stem step, the result as a new string. */
static PyObject *
run_snowball(PyObject *arg, const char *name, void (*stem)(SB *))
{
    Py_UCS4 local[WORD_LOCAL], *heap;
    Py_ssize_t n, cap;
    Py_UCS4 *p = stem_word_buffer(arg, name, local, &heap, &n, &cap);
    if (p == NULL) {
        return NULL;
    }
    SB z;
    memset(&z, 0, sizeof z);
    z.p = p;
    z.heap = heap;
    z.cap = cap;
    z.len = z.l = n;
    stem(&z);
    PyObject *out;
    if (z.failed)
        out = PyErr_NoMemory();
    else
        out = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, z.p, z.l);
    PyMem_Free(z.heap);
    return out;
}

PyObject *
snowball_english_c(PyObject *self, PyObject *arg)
{
    (void)self;
    return run_snowball(arg, "snowball_english", en_stem);
}


/* ---- Snowball Porter (the original 1980 algorithm), 2.2.0 revision ------------------------- */

/* The Snowball program "porter" as the vendored resources/_snowball/v2_2_0/porter_stemmer.py
 * runs it, on the same runtime as the English stemmer above: y turned into Y where it acts as a
 * consonant, the regions R1 and R2, steps 1a to 5b backward from the end, then Y back to y. */

static const Among po_a_0[] = {A("s", -1, 3), A("ies", 0, 2), A("sses", 0, 1), A("ss", 0, -1)};
static const Among po_a_2[] = {A("ed", -1, 2), A("eed", 0, 1), A("ing", -1, 2)};
static const Among po_a_3[] = {
    A("anci", -1, 3),    A("enci", -1, 2),     A("abli", -1, 4),     A("eli", -1, 6),
    A("alli", -1, 9),    A("ousli", -1, 11),   A("entli", -1, 5),    A("aliti", -1, 9),
    A("biliti", -1, 13), A("iviti", -1, 12),   A("tional", -1, 1),   A("ational", 10, 8),
    A("alism", -1, 9),   A("ation", -1, 8),    A("ization", 13, 7),  A("izer", -1, 7),
    A("ator", -1, 8),    A("iveness", -1, 12), A("fulness", -1, 10), A("ousness", -1, 11)};
static const Among po_a_4[] = {A("icate", -1, 2), A("ative", -1, 3), A("alize", -1, 1),
                               A("iciti", -1, 2), A("ical", -1, 2),  A("ful", -1, 3),
                               A("ness", -1, 3)};
static const Among po_a_5[] = {A("ic", -1, 1),   A("ance", -1, 1), A("ence", -1, 1),
                               A("able", -1, 1), A("ible", -1, 1), A("ate", -1, 1),
                               A("ive", -1, 1),  A("ize", -1, 1),  A("iti", -1, 1),
                               A("al", -1, 1),   A("ism", -1, 1),  A("ion", -1, 2),
                               A("er", -1, 1),   A("ous", -1, 1),  A("ant", -1, 1),
                               A("ent", -1, 1),  A("ment", 15, 1), A("ement", 16, 1),
                               A("ou", -1, 1)};

/* Porter's short syllable before the cursor: a consonant other than w, x or Y, a vowel, a
 * consonant (going backward). Unlike the English one, no word-initial vowel-consonant form. */
static int
po_shortv(SB *z)
{
    return out_grouping_b(z, en_g_v_WXY, 89, 121) && in_grouping_b(z, V(z)) &&
           out_grouping_b(z, V(z));
}

static int
po_step_1a(SB *z)
{
    switch (en_mark_suffix(z, po_a_0, NA(po_a_0))) {
        case 0: return 0;
        case 1: return slice_from(z, "ss");
        case 2: return slice_from(z, "i");
        case 3: return slice_del(z);
        default: return 1; /* "ss" stays */
    }
}

static int
po_step_1b(SB *z)
{
    return step_1b(z, po_a_2, NA(po_a_2), po_shortv); /* tidied by English's table a_3 */
}

static int
po_step_1c(SB *z)
{
    if (!mark_final_y(z)) return 0;
    if (!go_out_grouping_b(z, V(z))) return 0; /* a vowel somewhere before the y */
    z->c--;
    return slice_from(z, "i");
}

static int
po_step_2(SB *z)
{
    static const char *const to[] = {NULL,  "tion", "ence", "ance", "able", "ent", "e",
                                     "ize", "ate",  "al",   "ful",  "ous",  "ive", "ble"};
    return replace_suffix_in(z, po_a_3, NA(po_a_3), &z->p1, to);
}

static int
po_step_3(SB *z)
{
    static const char *const to[] = {NULL, "al", "ic", ""};
    return replace_suffix_in(z, po_a_4, NA(po_a_4), &z->p1, to);
}

static int
po_step_4(SB *z)
{
    return step_4_in_r2(z, po_a_5, NA(po_a_5));
}

static int
po_step_5a(SB *z)
{
    z->ket = z->c;
    if (!eq_s_b(z, "e")) return 0;
    z->bra = z->c;
    return delete_final_e(z, po_shortv);
}

static int
po_step_5b(SB *z)
{
    z->ket = z->c;
    if (!eq_s_b(z, "l")) return 0;
    z->bra = z->c;
    if (!R2(z)) return 0;
    if (!eq_s_b(z, "l")) return 0;
    return slice_del(z);
}

static void
po_stem(SB *z)
{
    Py_ssize_t v = z->c;
    if (!mark_consonant_y(z)) return;
    /* R1 and R2: after the first, then the second, non-vowel that follows a vowel. */
    z->p1 = z->l;
    z->p2 = z->l;
    if (go_out_grouping(z, V(z))) {
        z->c++;
        if (go_in_grouping(z, V(z))) {
            z->c++;
            z->p1 = z->c;
            if (go_out_grouping(z, V(z))) {
                z->c++;
                if (go_in_grouping(z, V(z))) {
                    z->c++;
                    z->p2 = z->c;
                }
            }
        }
    }
    z->c = v;
    z->lb = z->c;
    z->c = z->l;
    int (*const steps[])(SB *) = {po_step_1a, po_step_1b,
                                  po_step_1c, po_step_2,
                                  po_step_3,  po_step_4,
                                  po_step_5a, po_step_5b};
    for (size_t k = 0; k < sizeof(steps) / sizeof(steps[0]); k++) {
        Py_ssize_t back = z->l - z->c;
        steps[k](z);
        if (z->failed) return;
        z->c = z->l - back;
    }
    z->c = z->lb;
    v = z->c;
    en_postlude(z);
    z->c = v;
}

PyObject *
snowball_porter_c(PyObject *self, PyObject *arg)
{
    (void)self;
    return run_snowball(arg, "snowball_porter", po_stem);
}


/* ---- NLTK's Porter stemmer (NLTK_EXTENSIONS mode), rule steps only -------------------------- */

/* The rule steps of resources/nltk_porter.py (_stem_lowered) on a lower-cased word: the same
 * conditions, tried in the same order. The word only shrinks or keeps its length, except for
 * a replacement of at most two characters more than the suffix it replaces; the buffer has
 * room for that. */

typedef struct {
    Py_UCS4 *p;
    Py_ssize_t n;
    char *pat; /* scratch for the consonant/vowel pattern, one byte per character */
} PW;

/* Pattern of the first k characters: 'c' or 'v' per character (y after a consonant is a vowel). */
static void
pw_pattern(const PW *w, Py_ssize_t k)
{
    int previous_consonant = 0;
    for (Py_ssize_t i = 0; i < k; i++) {
        Py_UCS4 ch = w->p[i];
        int consonant;
        if (ch == 'a' || ch == 'e' || ch == 'i' || ch == 'o' || ch == 'u')
            consonant = 0;
        else if (ch == 'y')
            consonant = i > 0 ? !previous_consonant : 1;
        else
            consonant = 1;
        w->pat[i] = consonant ? 'c' : 'v';
        previous_consonant = consonant;
    }
}

static int
pw_measure(const PW *w, Py_ssize_t k)
{
    if (k <= 0) return 0;
    pw_pattern(w, k);
    int m = 0;
    for (Py_ssize_t i = 1; i < k; i++)
        if (w->pat[i - 1] == 'v' && w->pat[i] == 'c') m++;
    return m;
}

static int
pw_has_vowel(const PW *w, Py_ssize_t k)
{
    if (k <= 0) return 0;
    pw_pattern(w, k);
    for (Py_ssize_t i = 0; i < k; i++)
        if (w->pat[i] == 'v') return 1;
    return 0;
}

static int
pw_ends_double_consonant(const PW *w, Py_ssize_t k)
{
    if (k < 2 || w->p[k - 1] != w->p[k - 2]) return 0;
    pw_pattern(w, k);
    return w->pat[k - 1] == 'c';
}

static int
pw_ends_cvc(const PW *w, Py_ssize_t k)
{
    if (k >= 3) {
        pw_pattern(w, k);
        Py_UCS4 last = w->p[k - 1];
        return w->pat[k - 3] == 'c' && w->pat[k - 2] == 'v' && w->pat[k - 1] == 'c' &&
               last != 'w' && last != 'x' && last != 'y';
    }
    if (k == 2) {
        pw_pattern(w, k);
        return w->pat[0] == 'v' && w->pat[1] == 'c';
    }
    return 0;
}

static int
pw_endswith(const PW *w, const char *suffix)
{
    Py_ssize_t m = (Py_ssize_t)strlen(suffix);
    if (m > w->n) return 0;
    for (Py_ssize_t i = 0; i < m; i++)
        if (w->p[w->n - m + i] != (Py_UCS4)(unsigned char)suffix[i]) return 0;
    return 1;
}

/* Cut the word to k characters and append s. */
static void
pw_set(PW *w, Py_ssize_t k, const char *s)
{
    w->n = k;
    for (; *s; s++) w->p[w->n++] = (Py_UCS4)(unsigned char)*s;
}

enum { C_ALWAYS, C_M_POSITIVE, C_M_ABOVE_ONE, C_ION };

typedef struct {
    const char *suffix, *replacement;
    int condition;
} PorterRule;

static int
pw_condition(const PW *w, Py_ssize_t k, int condition)
{
    switch (condition) {
        case C_ALWAYS: return 1;
        case C_M_POSITIVE: return pw_measure(w, k) > 0;
        case C_M_ABOVE_ONE: return pw_measure(w, k) > 1;
        default: return pw_measure(w, k) > 1 && (w->p[k - 1] == 's' || w->p[k - 1] == 't');
    }
}

static void
pw_first_rule(PW *w, const PorterRule *rules, size_t count)
{
    for (size_t r = 0; r < count; r++) {
        if (pw_endswith(w, rules[r].suffix)) {
            Py_ssize_t k = w->n - (Py_ssize_t)strlen(rules[r].suffix);
            if (pw_condition(w, k, rules[r].condition)) pw_set(w, k, rules[r].replacement);
            return;
        }
    }
}

#define NR(a) (sizeof(a) / sizeof((a)[0]))

static const PorterRule porter_step1a[] = {
    {"sses", "ss", C_ALWAYS}, {"ies", "i", C_ALWAYS}, {"ss", "ss", C_ALWAYS}, {"s", "", C_ALWAYS}};
static const PorterRule porter_step2[] = {
    {"ational", "ate", C_M_POSITIVE}, {"tional", "tion", C_M_POSITIVE},
    {"enci", "ence", C_M_POSITIVE},   {"anci", "ance", C_M_POSITIVE},
    {"izer", "ize", C_M_POSITIVE},    {"bli", "ble", C_M_POSITIVE},
    {"alli", "al", C_M_POSITIVE},     {"entli", "ent", C_M_POSITIVE},
    {"eli", "e", C_M_POSITIVE},       {"ousli", "ous", C_M_POSITIVE},
    {"ization", "ize", C_M_POSITIVE}, {"ation", "ate", C_M_POSITIVE},
    {"ator", "ate", C_M_POSITIVE},    {"alism", "al", C_M_POSITIVE},
    {"iveness", "ive", C_M_POSITIVE}, {"fulness", "ful", C_M_POSITIVE},
    {"ousness", "ous", C_M_POSITIVE}, {"aliti", "al", C_M_POSITIVE},
    {"iviti", "ive", C_M_POSITIVE},   {"biliti", "ble", C_M_POSITIVE},
    {"fulli", "ful", C_M_POSITIVE}};
static const PorterRule porter_step3[] = {
    {"icate", "ic", C_M_POSITIVE}, {"ative", "", C_M_POSITIVE}, {"alize", "al", C_M_POSITIVE},
    {"iciti", "ic", C_M_POSITIVE}, {"ical", "ic", C_M_POSITIVE}, {"ful", "", C_M_POSITIVE},
    {"ness", "", C_M_POSITIVE}};
static const PorterRule porter_step4[] = {
    {"al", "", C_M_ABOVE_ONE},   {"ance", "", C_M_ABOVE_ONE}, {"ence", "", C_M_ABOVE_ONE},
    {"er", "", C_M_ABOVE_ONE},   {"ic", "", C_M_ABOVE_ONE},   {"able", "", C_M_ABOVE_ONE},
    {"ible", "", C_M_ABOVE_ONE}, {"ant", "", C_M_ABOVE_ONE},  {"ement", "", C_M_ABOVE_ONE},
    {"ment", "", C_M_ABOVE_ONE}, {"ent", "", C_M_ABOVE_ONE},  {"ion", "", C_ION},
    {"ou", "", C_M_ABOVE_ONE},   {"ism", "", C_M_ABOVE_ONE},  {"ate", "", C_M_ABOVE_ONE},
    {"iti", "", C_M_ABOVE_ONE},  {"ous", "", C_M_ABOVE_ONE},  {"ive", "", C_M_ABOVE_ONE},
    {"ize", "", C_M_ABOVE_ONE}};

static void
porter_1b(PW *w)
{
    Py_ssize_t n = w->n, k;
    if (pw_endswith(w, "ied")) {
        pw_set(w, n - 3, n == 4 ? "ie" : "i");
        return;
    }
    if (pw_endswith(w, "eed")) {
        if (pw_measure(w, n - 3) > 0) pw_set(w, n - 3, "ee");
        return;
    }
    if (pw_endswith(w, "ed") && pw_has_vowel(w, n - 2))
        k = n - 2;
    else if (pw_endswith(w, "ing") && pw_has_vowel(w, n - 3))
        k = n - 3;
    else
        return;
    w->n = k;
    if (pw_endswith(w, "at") || pw_endswith(w, "bl") || pw_endswith(w, "iz")) {
        pw_set(w, k, "e");
        return;
    }
    if (pw_ends_double_consonant(w, k)) {
        Py_UCS4 last = w->p[k - 1];
        if (last != 'l' && last != 's' && last != 'z') w->n = k - 1;
        return;
    }
    if (pw_endswith(w, "*d")) {
        pw_set(w, k - 2, "d");
        return;
    }
    if (pw_measure(w, k) == 1 && pw_ends_cvc(w, k)) pw_set(w, k, "e");
}

static void
porter_2(PW *w)
{
    while (pw_endswith(w, "alli") && pw_measure(w, w->n - 4) > 0) pw_set(w, w->n - 4, "al");
    for (size_t r = 0; r < NR(porter_step2); r++) {
        if (pw_endswith(w, porter_step2[r].suffix)) {
            Py_ssize_t k = w->n - (Py_ssize_t)strlen(porter_step2[r].suffix);
            if (pw_measure(w, k) > 0) pw_set(w, k, porter_step2[r].replacement);
            return;
        }
    }
    if (pw_endswith(w, "logi") && pw_measure(w, w->n - 3) > 0) pw_set(w, w->n - 4, "log");
}

static void
porter_stem_lowered(PW *w)
{
    /* step 1a */
    if (w->n == 4 && pw_endswith(w, "ies"))
        pw_set(w, 1, "ie");
    else
        pw_first_rule(w, porter_step1a, NR(porter_step1a));
    porter_1b(w);
    /* step 1c */
    if (pw_endswith(w, "y") && w->n - 1 > 1) {
        pw_pattern(w, w->n - 1);
        if (w->pat[w->n - 2] == 'c') w->p[w->n - 1] = 'i';
    }
    porter_2(w);
    pw_first_rule(w, porter_step3, NR(porter_step3));
    pw_first_rule(w, porter_step4, NR(porter_step4));
    /* step 5a */
    if (pw_endswith(w, "e")) {
        Py_ssize_t k = w->n - 1;
        int m = pw_measure(w, k);
        if (m > 1 || (m == 1 && !pw_ends_cvc(w, k))) w->n = k;
    }
    /* step 5b */
    if (pw_endswith(w, "ll") && pw_measure(w, w->n - 1) > 1) w->n -= 1;
}

PyObject *
nltk_porter_rules_c(PyObject *self, PyObject *arg)
{
    (void)self;
    Py_UCS4 local_p[WORD_LOCAL];
    char local_pat[WORD_LOCAL];
    Py_UCS4 *heap_p;
    Py_ssize_t n, cap;
    PW w;
    w.p = stem_word_buffer(arg, "nltk_porter_rules", local_p, &heap_p, &n, &cap);
    if (w.p == NULL) {
        return NULL;
    }
    char *heap_pat = NULL;
    w.pat = local_pat;
    if (cap > WORD_LOCAL) {
        w.pat = heap_pat = PyMem_Malloc((size_t)cap);
        if (heap_pat == NULL) {
            PyMem_Free(heap_p);
            return PyErr_NoMemory();
        }
    }
    w.n = n;
    porter_stem_lowered(&w);
    PyObject *out = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, w.p, w.n);
    PyMem_Free(heap_p);
    PyMem_Free(heap_pat);
    return out;
}

/* str.lower() of word: an exact ASCII str is lower-cased here (itself when it has no capital),
 * anything else by its own lower() (Unicode's rules, a subclass's override). */
PyObject *
str_lowered(PyObject *word)
{
    if (PyUnicode_CheckExact(word) && PyUnicode_IS_ASCII(word)) {
        const Py_UCS1 *p = PyUnicode_1BYTE_DATA(word);
        Py_ssize_t n = PyUnicode_GET_LENGTH(word), k = 0;
        while (k < n && !(p[k] >= 'A' && p[k] <= 'Z')) {
            k++;
        }
        if (k == n) {
            return Py_NewRef(word);
        }
        PyObject *out = PyUnicode_New(n, 127);
        if (out == NULL) {
            return NULL;
        }
        Py_UCS1 *q = PyUnicode_1BYTE_DATA(out);
        for (Py_ssize_t i = 0; i < n; i++) {
            q[i] = (p[i] >= 'A' && p[i] <= 'Z') ? (Py_UCS1)(p[i] + ('a' - 'A')) : p[i];
        }
        return out;
    }
    return PyObject_CallMethod(word, "lower", NULL);
}

PyObject *
nltk_porter_word_c(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "nltk_porter_word() takes 2 arguments (irregular, word)");
        return NULL;
    }
    PyObject *irregular = args[0], *word = args[1];
    if (!PyDict_Check(irregular)) {
        PyErr_SetString(PyExc_TypeError, "nltk_porter_word(): irregular must be a dict");
        return NULL;
    }
    if (check_str_arg(word, "nltk_porter_word") < 0) {
        return NULL;
    }
    PyObject *lowered = str_lowered(word);
    if (lowered == NULL) {
        return NULL;
    }
    /* The irregular forms first (a value is returned as the dict holds it). */
    PyObject *found = PyDict_GetItemWithError(irregular, lowered);
    if (found != NULL || PyErr_Occurred()) {
        Py_DECREF(lowered);
        return Py_XNewRef(found);
    }
    /* NLTK measures the length of the word as given, before lower-casing. */
    Py_ssize_t length = PyUnicode_CheckExact(word) ? PyUnicode_GET_LENGTH(word)
                                                   : PyObject_Length(word);
    if (length < 0) {
        Py_DECREF(lowered);
        return NULL;
    }
    if (length <= 2) {
        return lowered;
    }
    PyObject *out = nltk_porter_rules_c(self, lowered);
    Py_DECREF(lowered);
    return out;
}
