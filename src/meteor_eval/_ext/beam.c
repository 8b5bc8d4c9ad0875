/*
 * Compiled METEOR 1.5 beam search (spec sections 4.1 to 4.4).
 *
 * This is the same algorithm as the pure-Python reference in search.py, step for step, so that
 * both give identical alignments:
 *
 *   - fixed matches: alone at their reference position, covering only coverage-1 words;
 *   - paths ranked by (minus the integer objective, closed chunks, quirky distance) with a
 *     stable sort before every beam cut and once more after the last step;
 *   - successors generated in the same order: copies in candidate-list order, then the parent
 *     itself as the skip successor; the parent's distance grows by each acceptable candidate's
 *     offset after that candidate's copy is made.
 *
 * The reference sorts every successor of a step and keeps the first `beam`. Here, when the
 * ranks of a search fit in 64 bits (for sentences with the jar's weights, always), a
 * successor's rank is one integer key: the rank fields packed above its (parent, slot) index,
 * which orders like the generation index, so sorting the distinct keys is the stable sort
 * (search_packed()). Otherwise each successor is a small record ranked field by field, and the
 * first `beam` of the stable order are taken by a sorted insertion, or a stable merge sort for
 * wide beams and steps of few successors (search_general()). Only the winners are then
 * materialised (their parent's bit sets copied, the new match's spans set), in sorted order. A
 * path is a small header plus two bit sets (used hypothesis and reference positions); chosen
 * matches form linked lists in a node pool shared by all paths.
 *
 * align(by_ref, hyp_coverage, ref_coverage, weights, beam) returns the chosen Match objects (the
 * store's own objects) in reference order; align_stages() does the same from per-stage lists.
 */

#include "kernels.h"

#include <math.h>

void
work_free(Work *w)
{
    FREE_EACH(w->entries, w->objs, w->first, w->fixed_at, w->assigned, w->slot, w->hyp_cov,
              w->ref_cov, w->weight, w->cur_head, w->new_head, w->cur_bits, w->new_bits, w->succ,
              w->keys, w->tmp, w->node, w->gain, w->bucket_n, w->bucket_at, w->bucket_head,
              w->step,
              w->cur_w, w->new_w, w->cand_w, w->fan_gain);
    memset(w, 0, sizeof(*w));
}

/* Bound of |weight| x (hypothesis + reference words): the objective stays a 64-bit integer. */
#define OBJECTIVE_LIMIT 4611686018427387904.0 /* 2**62 */

#define GROW(ptr, cap, need) grow((void **)&(ptr), &(cap), (need), sizeof(*(ptr)))

static Span
make_span(int64_t start, int64_t len, Py_ssize_t base)
{
    Span s;
    const int64_t last = start + len - 1;
    s.w0 = base + (Py_ssize_t)(start >> 6);
    s.w1 = base + (Py_ssize_t)(last >> 6);
    s.m0 = ~(uint64_t)0 << (start & 63);
    s.m1 = ~(uint64_t)0 >> (63 - (last & 63));
    if (s.w0 == s.w1) {
        s.m0 &= s.m1;
    }
    return s;
}

static inline int
span_free(const uint64_t *bits, const Span *s)
{
    if (s->w0 == s->w1) {
        return (bits[s->w0] & s->m0) == 0;
    }
    if ((bits[s->w0] & s->m0) || (bits[s->w1] & s->m1)) {
        return 0;
    }
    for (Py_ssize_t k = s->w0 + 1; k < s->w1; k++) {
        if (bits[k]) {
            return 0;
        }
    }
    return 1;
}

static inline void
span_set(uint64_t *bits, const Span *s)
{
    bits[s->w0] |= s->m0;
    if (s->w0 != s->w1) {
        for (Py_ssize_t k = s->w0 + 1; k < s->w1; k++) {
            bits[k] = ~(uint64_t)0;
        }
        bits[s->w1] |= s->m1;
    }
}

/* Whether successor a ranks strictly before b (spec 4.3). */
static inline int
rank_less(const Succ *a, const Succ *b)
{
    if (a->neg_w != b->neg_w) {
        return a->neg_w < b->neg_w;
    }
    if (a->chunks != b->chunks) {
        return a->chunks < b->chunks;
    }
    return a->dist < b->dist;
}

static inline void
swap_keys(uint64_t *a, uint64_t *b)
{
    const uint64_t t = *a;
    *a = *b;
    *b = t;
}

/* Insertion sort of distinct keys; a key already at or above the largest before it (the usual
 * case: the beam's keys arrive almost sorted) costs one comparison with a register. */
static void
insertion_sort_keys(uint64_t *keys, Py_ssize_t n)
{
    if (n < 2) {
        return;
    }
    uint64_t top = keys[0]; /* the largest of keys[0..i), which sits at keys[i - 1] */
    for (Py_ssize_t i = 1; i < n; i++) {
        const uint64_t v = keys[i];
        if (v > top) {
            top = v;
            continue;
        }
        Py_ssize_t j = i;
        do {
            keys[j] = keys[j - 1];
            j--;
        } while (j > 0 && keys[j - 1] > v);
        keys[j] = v;
    }
}

/* heap_sort_keys(): the guaranteed O(n log n) fallback of partial_sort_keys(). */
DEFINE_HEAP_SORT(keys, uint64_t)

/* Put the k smallest of the distinct keys[0..n) first, in ascending order (the rest in any
 * order): quicksort that only recurses into parts overlapping the first k, with insertion sort
 * for short parts and heap sort when the partitions degenerate. */
static void
partial_sort_keys(uint64_t *keys, Py_ssize_t n, Py_ssize_t k, int depth)
{
    while (n > 16) {
        if (depth-- == 0) {
            heap_sort_keys(keys, n);
            return;
        }
        /* Median of three as pivot, moved to keys[n - 1]. */
        const Py_ssize_t mid = n / 2;
        if (keys[mid] < keys[0]) {
            swap_keys(&keys[mid], &keys[0]);
        }
        if (keys[n - 1] < keys[0]) {
            swap_keys(&keys[n - 1], &keys[0]);
        }
        if (keys[mid] < keys[n - 1]) {
            swap_keys(&keys[mid], &keys[n - 1]);
        }
        const uint64_t pivot = keys[n - 1];
        Py_ssize_t store = 0;
        for (Py_ssize_t i = 0; i < n - 1; i++) {
            if (keys[i] < pivot) {
                swap_keys(&keys[i], &keys[store]);
                store++;
            }
        }
        swap_keys(&keys[store], &keys[n - 1]);
        /* keys[0..store) < pivot = keys[store] < keys[store + 1..n) */
        if (store + 1 < k) {
            partial_sort_keys(keys + store + 1, n - store - 1, k - store - 1, depth);
        }
        n = store;
        if (k > n) {
            k = n;
        }
    }
    insertion_sort_keys(keys, n);
}

/* Stable merge sort of the indices of succ[0..n) by rank into order; tmp has room for n. For
 * ranks too wide to pack into one 64-bit key. */
static void
merge_sort_succ(const Succ *succ, Py_ssize_t n, uint64_t *order, uint64_t *tmp)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        order[i] = (uint64_t)i;
    }
    uint64_t *src = order, *dst = tmp;
    for (Py_ssize_t width = 1; width < n; width *= 2) {
        for (Py_ssize_t lo = 0; lo < n; lo += 2 * width) {
            const Py_ssize_t mid = lo + width < n ? lo + width : n;
            const Py_ssize_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            Py_ssize_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi) {
                if (rank_less(&succ[src[j]], &succ[src[i]])) {
                    dst[o++] = src[j++];
                }
                else {
                    dst[o++] = src[i++];
                }
            }
            while (i < mid) {
                dst[o++] = src[i++];
            }
            while (j < hi) {
                dst[o++] = src[j++];
            }
        }
        uint64_t *swap = src;
        src = dst;
        dst = swap;
    }
    if (src != order) {
        memcpy(order, src, (size_t)n * sizeof(uint64_t));
    }
}

/* Beams up to this width take the first k successors of a step by a sorted insertion when the
 * step has more than twice k of them; wider beams, and steps of fewer, sort every successor. */
#define SELECT_WIDEST 64

/* The first k (1 <= k <= n) of the stable sort of succ[0..n) by rank, in that order, into
 * order[0..k), without sorting the rest: the indices kept are sorted, and a successor enters
 * only if it ranks strictly before the last one kept (an equal rank loses to the earlier
 * index, as in the stable sort). Each successor costs one comparison once the beam is full:
 * long documents, where a common word has hundreds of candidates at each step, spent most of
 * their time sorting successors that could never be kept. For k > SELECT_WIDEST (or n close
 * to k) the merge sort, whose worst case does not grow with k. */
static void
select_best_succ(const Succ *succ, Py_ssize_t n, Py_ssize_t k, uint64_t *order, uint64_t *tmp)
{
    if (k > SELECT_WIDEST || n <= 2 * k) {
        merge_sort_succ(succ, n, order, tmp);
        return;
    }
    Py_ssize_t m = 0; /* order[0..m) holds the best so far, sorted */
    for (Py_ssize_t i = 0; i < n; i++) {
        const Succ *s = &succ[i];
        if (m == k && !rank_less(s, &succ[order[k - 1]])) {
            continue;
        }
        /* After every kept successor of equal rank (their indices are smaller). */
        Py_ssize_t lo = 0, hi = m;
        while (lo < hi) {
            const Py_ssize_t mid = (lo + hi) / 2;
            if (rank_less(s, &succ[order[mid]])) {
                hi = mid;
            }
            else {
                lo = mid + 1;
            }
        }
        const Py_ssize_t top = m < k ? m : k - 1;
        memmove(order + lo + 1, order + lo, (size_t)(top - lo) * sizeof(uint64_t));
        order[lo] = (uint64_t)i;
        if (m < k) {
            m++;
        }
    }
}

/* Room in the node pool for at least extra more nodes. */
static int
reserve_nodes(Work *w, Py_ssize_t extra)
{
    if (w->nodes + extra > w->node_cap) {
        Py_ssize_t cap = w->node_cap ? w->node_cap * 2 : 256;
        while (cap < w->nodes + extra) {
            cap *= 2;
        }
        if (cap > INT32_MAX) {
            PyErr_SetString(PyExc_OverflowError, "beam search: too many partial alignments");
            return -1;
        }
        Node *grown = PyMem_Realloc(w->node, (size_t)cap * sizeof(Node));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        w->node = grown;
        w->node_cap = cap;
    }
    return 0;
}

static int
add_node(Work *w, Py_ssize_t cand, int64_t parent, int64_t *out)
{
    if (reserve_nodes(w, 1) < 0) {
        return -1;
    }
    w->node[w->nodes].cand = (int32_t)cand;
    w->node[w->nodes].parent = (int32_t)parent;
    *out = (int64_t)w->nodes;
    w->nodes++;
    return 0;
}

/* The aligner weights as doubles, into w. */
int
read_weights(Work *w, PyObject *weights_obj)
{
    PyObject *weights = PySequence_Fast(weights_obj, "aligner_weights: expected a sequence of numbers");
    if (weights == NULL) {
        return -1;
    }
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(weights);
    if (GROW(w->weight, w->weight_cap, n ? n : 1) < 0) {
        Py_DECREF(weights);
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        w->weight[k] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(weights, k));
        if (w->weight[k] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(weights);
            return -1;
        }
    }
    w->n_weights = n;
    w->weight_bound = 0.0;
    for (Py_ssize_t k = 0; k < n; k++) {
        const double a = fabs(w->weight[k]);
        if (isnan(a) || a > w->weight_bound) {
            w->weight_bound = a;
            if (isnan(a)) {
                break;
            }
        }
    }
    Py_DECREF(weights);
    return 0;
}

/* Whether a candidate fits the store (0) or not (-1 with an exception set): a stage with a
 * weight, spans short enough for an Entry. */
int
entry_check(const Work *w, Py_ssize_t ref_len, Py_ssize_t hyp_len, int64_t stage)
{
    if (stage < 0 || stage >= w->n_weights) {
        PyErr_SetString(PyExc_IndexError, "aligner_weights: no weight for a stage");
        return -1;
    }
    if (stage > ENTRY_MAX_STAGE || hyp_len > ENTRY_MAX_HYP_LEN || ref_len > ENTRY_MAX_REF_LEN) {
        PyErr_SetString(PyExc_ValueError,
                        "a candidate is too long for the compiled aligner (at most 255 "
                        "reference words, 65,535 hypothesis words and stage 255)");
        return -1;
    }
    return 0;
}

/* The paths built at a step become the current ones (their heads and coverage bits swap with
 * the previous step's buffers, which the next step overwrites). */
static inline void
next_generation(Work *w)
{
    Head *th = w->cur_head;
    w->cur_head = w->new_head;
    w->new_head = th;
    uint64_t *tb = w->cur_bits;
    w->cur_bits = w->new_bits;
    w->new_bits = tb;
}

/* Objective gain of an entry: Python's int() and C's cast both truncate toward zero. */
static inline int64_t
entry_gain(const Work *w, const Entry *e)
{
    const double a = w->weight[e->stage];
    return (int64_t)((double)e->hyp_len * a) + (int64_t)((double)e->ref_len * a);
}

static inline int64_t
entry_offset(const Entry *e, Py_ssize_t ref_start)
{
    const int64_t d = (int64_t)ref_start - (int64_t)e->hyp_start;
    return d < 0 ? -d : d;
}

/* Entry k (filed under ref_start) as a candidate record. */
void
entry_cand(const Work *w, Py_ssize_t k, Py_ssize_t ref_start, Cand *out)
{
    const Entry *e = &w->entries[k];
    memset(out, 0, sizeof(*out));
    out->ref_start = ref_start;
    out->ref_len = e->ref_len;
    out->hyp_start = e->hyp_start;
    out->hyp_len = e->hyp_len;
    out->stage = e->stage;
    out->obj = w->objs != NULL ? w->objs[k] : NULL;
}

/* Start a store for a pair: per-position arrays sized and zeroed (counts in first[j + 1],
 * coverage counts), no entries yet. Candidates are then counted (first, coverage), filed with
 * store_file() and written at w->entries[w->slot[ref_start]++]. */
int
store_begin(Work *w, Py_ssize_t n_hyp, Py_ssize_t n_ref)
{
    const Py_ssize_t n = n_ref + 1;
    /* The four position arrays share pos_cap (they grow by the same rule from the same size). */
    Py_ssize_t c1 = w->pos_cap, c2 = w->pos_cap, c3 = w->pos_cap;
    if (GROW(w->first, w->pos_cap, n) < 0 ||
        grow((void **)&w->fixed_at, &c1, n, sizeof(Py_ssize_t)) < 0 ||
        grow((void **)&w->assigned, &c2, n, sizeof(Py_ssize_t)) < 0 ||
        grow((void **)&w->slot, &c3, n, sizeof(Py_ssize_t)) < 0 ||
        GROW(w->hyp_cov, w->hyp_cap, n_hyp ? n_hyp : 1) < 0 ||
        GROW(w->ref_cov, w->ref_cap, n_ref ? n_ref : 1) < 0) {
        return -1;
    }
    memset(w->first, 0, (size_t)n * sizeof(Py_ssize_t));
    memset(w->hyp_cov, 0, (size_t)(n_hyp ? n_hyp : 1) * sizeof(int64_t));
    memset(w->ref_cov, 0, (size_t)(n_ref ? n_ref : 1) * sizeof(int64_t));
    w->n_cands = 0;
    w->nodes = 0;
    return 0;
}

/* After counting: first[] as prefix sums, slot[j] = first[j], room for the entries. */
int
store_file(Work *w, Py_ssize_t n_ref)
{
    for (Py_ssize_t j = 0; j < n_ref; j++) {
        w->first[j + 1] += w->first[j];
        w->slot[j] = w->first[j];
    }
    w->n_cands = w->first[n_ref];
    if (w->n_cands > INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "beam search: more than 2**31 candidate matches");
        return -1;
    }
    return GROW(w->entries, w->entries_cap, w->n_cands ? w->n_cands : 1);
}

static inline void
count_cand(Work *w, int64_t ref_start, int64_t ref_len, int64_t hyp_start, int64_t hyp_len)
{
    w->first[ref_start + 1]++;
    for (int64_t j = ref_start; j < ref_start + ref_len; j++) {
        w->ref_cov[j]++;
    }
    for (int64_t i = hyp_start; i < hyp_start + hyp_len; i++) {
        w->hyp_cov[i]++;
    }
}

/* The store that appending raw[0..n_cands) (candidates in stage-list order, spans already
 * checked) would build: a stable bucket pass by reference start, so each position keeps stage
 * order, then each stage's own order. Both coverage counts are taken here. keep_objs: keep
 * each candidate's Match object (align() returns them). */
int
load_raw(Work *w, const Cand *raw, Py_ssize_t n_cands, Py_ssize_t n_hyp, Py_ssize_t n_ref,
         int keep_objs)
{
    if (store_begin(w, n_hyp, n_ref) < 0) {
        return -1;
    }
    for (Py_ssize_t k = 0; k < n_cands; k++) {
        const Cand *c = &raw[k];
        if (entry_check(w, (Py_ssize_t)c->ref_len, (Py_ssize_t)c->hyp_len, c->stage) < 0) {
            return -1;
        }
        count_cand(w, c->ref_start, c->ref_len, c->hyp_start, c->hyp_len);
    }
    if (store_file(w, n_ref) < 0) {
        return -1;
    }
    if (keep_objs && GROW(w->objs, w->objs_cap, n_cands ? n_cands : 1) < 0) {
        return -1;
    }
    for (Py_ssize_t k = 0; k < n_cands; k++) {
        const Cand *c = &raw[k];
        const Py_ssize_t at = w->slot[c->ref_start]++;
        Entry *e = &w->entries[at];
        e->hyp_start = (int32_t)c->hyp_start;
        e->hyp_len = (uint16_t)c->hyp_len;
        e->ref_len = (uint8_t)c->ref_len;
        e->stage = (uint8_t)c->stage;
        if (keep_objs) {
            w->objs[at] = c->obj;
        }
    }
    return 0;
}

/* Read Match objects of a sequence of lists (each a list of matches) into a new raw array;
 * by_position: list j holds the candidates whose reference span starts at j. */
static Cand *
read_lists(PyObject *lists, Py_ssize_t n_hyp, Py_ssize_t n_ref, int by_position, Py_ssize_t *n,
           const char *what)
{
    const Py_ssize_t n_lists = PySequence_Fast_GET_SIZE(lists);
    const Py_ssize_t n_cands = lists_total(PySequence_Fast_ITEMS(lists), n_lists, 1);
    if (n_cands < 0) {
        PyErr_Format(PyExc_TypeError, "%s: expected lists of matches", what);
        return NULL;
    }
    Cand *raw = PyMem_Malloc((size_t)(n_cands ? n_cands : 1) * sizeof(Cand));
    if (raw == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    Py_ssize_t at = 0;
    for (Py_ssize_t s = 0; s < n_lists; s++) {
        PyObject *lst = PySequence_Fast_GET_ITEM(lists, s);
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(lst); k++) {
            Cand *c = &raw[at++];
            if (read_match(PyList_GET_ITEM(lst, k), c, what) < 0) {
                PyMem_Free(raw);
                return NULL;
            }
            if ((by_position && c->ref_start != s) || !span_inside(c, n_hyp, n_ref)) {
                PyErr_SetString(PyExc_ValueError, "a candidate's span lies outside its segments");
                PyMem_Free(raw);
                return NULL;
            }
        }
    }
    *n = n_cands;
    return raw;
}

/* Bits needed to write 0..x. */
static inline int
bit_width(uint64_t x)
{
    int n = 0;
    while (x) {
        n++;
        x >>= 1;
    }
    return n;
}

static inline uint64_t
shifted(uint64_t v, int by)
{
    return by < 64 ? v << by : 0;
}

/* How successor ranks pack into one 64-bit key (rank fields, then an index in generation
 * order), so that the stable sort becomes a sort of distinct integers. */
typedef struct {
    int packed; /* 0: the ranks are too wide, sort with rank_less() instead */
    int64_t bias;
    int sh_w, sh_c, sh_d;
    int sh_p; /* search_packed(): the parent's index sits above this many slot bits */
} Packing;

/* Bounds of the packed rank fields over every path of a search, summed over its candidates
 * while search() computes their gains (bounds_add()): neg_w lies in [-gain_pos, gain_neg], dist
 * is at most the sum of all offsets (each candidate's offset counts at most once along a path).
 * too_wide: a gain or a sum beyond 2**62, so that the ranks are not packed (it stays set, so the
 * sums may go on wrapping after it without effect). */
typedef struct {
    uint64_t gain_pos, gain_neg, offsets;
    int too_wide;
} RankBounds;

static inline void
bounds_add(RankBounds *rb, int64_t gain, int64_t offset)
{
    const uint64_t limit = (uint64_t)1 << 62;
    if (gain < INT64_MIN / 2 || gain > INT64_MAX / 2) {
        rb->too_wide = 1;
        return;
    }
    if (gain >= 0) {
        rb->gain_pos += (uint64_t)gain;
    }
    else {
        rb->gain_neg += (uint64_t)-gain;
    }
    rb->offsets += (uint64_t)offset;
    rb->too_wide |= rb->gain_pos > limit || rb->gain_neg > limit || rb->offsets > limit;
}

/* Packing for every path of a search from the bounds of its rank fields, with bg bits for the
 * index below them; chunks are at most one per position plus the final one. */
static Packing
packing_for(const RankBounds *rb, Py_ssize_t n_ref, int bg)
{
    Packing pk = {0, 0, 0, 0, 0, 0};
    if (rb->too_wide) {
        return pk;
    }
    const int bd = bit_width(rb->offsets);
    const int bc = bit_width((uint64_t)n_ref + 1);
    const int bw = bit_width(rb->gain_pos + rb->gain_neg);
    if (bg + bd + bc + bw > 64) {
        return pk;
    }
    pk.packed = 1;
    pk.bias = (int64_t)rb->gain_pos;
    pk.sh_d = bg;
    pk.sh_c = bg + bd;
    pk.sh_w = bg + bd + bc;
    return pk;
}

/* What choosing entry f at reference position c adds to a packed key: minus its gain in the
 * objective field, its offset in the distance field; a chunk it closes is added apart. The key
 * delta of a fixed match, in a step and in a stretch of quiet steps. */
static inline uint64_t
entry_key(const Work *w, const Packing *pk, Py_ssize_t f, Py_ssize_t c)
{
    return shifted((uint64_t)-entry_gain(w, &w->entries[f]), pk->sh_w) +
           shifted((uint64_t)entry_offset(&w->entries[f], c), pk->sh_d);
}

/* Steps with at most this many successors are sorted whole by insertion when their buckets are
 * not merged (search_packed()): short arrays, mostly in order. */
#define INSERTION_ONLY 48

/* Materialise the successors w->succ[w->keys[0..k)] from the current paths into
 * new_head/new_bits, in that order; the step is at reference position c. */
static int
materialise(Work *w, Py_ssize_t k, Py_ssize_t bw, Py_ssize_t c, Py_ssize_t wh)
{
    for (Py_ssize_t i = 0; i < k; i++) {
        const Succ *s = &w->succ[w->keys[i]];
        const Head *parent = &w->cur_head[s->parent];
        Head *h = &w->new_head[i];
        uint64_t *bits = w->new_bits + i * bw;
        memcpy(bits, w->cur_bits + (Py_ssize_t)s->parent * bw, (size_t)bw * sizeof(uint64_t));
        h->neg_w = s->neg_w;
        h->chunks = s->chunks;
        h->dist = s->dist;
        h->idx = s->idx;
        h->last_end = s->last_end;
        h->chain = parent->chain;
        if (s->cand >= 0) {
            const Entry *m = &w->entries[s->cand];
            const Span hs = make_span(m->hyp_start, m->hyp_len, 0);
            const Span rs = make_span(c, m->ref_len, wh);
            span_set(bits, &hs);
            span_set(bits, &rs);
            if (add_node(w, s->cand, parent->chain, &h->chain) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* Whether entry m (at reference position c) overlaps no used position of a path. */
static inline int
entry_free(const uint64_t *bits, const Entry *m, Py_ssize_t c, Py_ssize_t wh)
{
    if (m->hyp_len == 1) {
        if (bits[m->hyp_start >> 6] & ((uint64_t)1 << (m->hyp_start & 63))) {
            return 0;
        }
    }
    else {
        const Span hs = make_span(m->hyp_start, m->hyp_len, 0);
        if (!span_free(bits, &hs)) {
            return 0;
        }
    }
    if (m->ref_len == 1) {
        return (bits[wh + (c >> 6)] & ((uint64_t)1 << (c & 63))) == 0;
    }
    const Span rs = make_span(c, m->ref_len, wh);
    return span_free(bits, &rs);
}

/* ---- The packed search: ranks as integers, successors in buckets ------------------------------
 *
 * When the ranks pack into one 64-bit key (every sentence pair; only documents with enormous
 * offset sums do not), a path's rank is one integer and a successor's key is its parent's plus
 * small deltas: minus the candidate's gain in the objective field, a chunk when the candidate
 * does not continue the open chunk, the offsets charged so far in the distance field, and the
 * generation index in the low bits (so that sorting the distinct keys is the stable sort).
 *
 * Each step files its successors in buckets, one per candidate of the position and one for
 * the skip and pass-through successors, each in parent order. The parents are in rank order
 * and a bucket adds nearly the same deltas to each parent, so every bucket arrives almost
 * sorted: an insertion sort orders it in about one comparison a key, and a merge of the
 * buckets' heads stops after the beam's width. That gives the same first `beam` keys as
 * sorting them all. A step that adds no candidate to any path (no candidate at the position,
 * or none fits) changes no path's bits and cuts nothing, so its paths are updated in place and
 * only reordered (copied) when their order changes; whether it does is seen while the skip
 * bucket is filled (a key below the one before it).
 *
 * A step first reads its candidates into StepCand records (load_step()): key deltas, masks and
 * ends are then derived once a step instead of once for each path, and a candidate whose words
 * each lie in one bit word (nearly all) is tested against a path with two masks. A path's bit
 * set is two machine words for segments of up to 64 words each (96% of the winners copied on
 * WMT22 pairs), so sharing it with the parent would save nothing over copying it. */

/* search_packed(): buckets are merged when there are at most BUCKET_MAX and each holds at most
 * BUCKET_MAX_KEPT keys (insertion sort stays short); other steps sort all keys with
 * partial_sort_keys(). search_packed_w(), whose buckets are sorted as they are filled, merges up
 * to BUCKET_MERGE_MAX of them (placing the buckets' first keys is quadratic in their number). */
#define BUCKET_MAX 8
#define BUCKET_MAX_KEPT 64
#define BUCKET_MERGE_MAX 64

/* Puts key v into head[1..m] (descending, below a sentinel head[0] = UINT64_MAX that ends the
 * scan); returns m + 1. */
static inline Py_ssize_t
head_insert(uint64_t *head, Py_ssize_t m, uint64_t v)
{
    Py_ssize_t j = m + 1;
    while (head[j - 1] < v) {
        head[j] = head[j - 1];
        j--;
    }
    head[j] = v;
    return m + 1;
}

/* The start of a merge of the sorted buckets keys[b * stride .. + count[b]) of distinct keys,
 * whose low bits (under a slot mask) are their bucket: the buckets' next keys are kept in
 * descending order in head[1..m] (room for n_b + 1, a sentinel head[0] first), so the smallest
 * is the last; at (room for 2 n_b) holds each bucket's next key and its end. Returns m. */
static inline Py_ssize_t
heads_start(const uint64_t *keys, Py_ssize_t stride, const Py_ssize_t *count, Py_ssize_t n_b,
            const uint64_t **at, uint64_t *head)
{
    const uint64_t **const end = at + n_b;
    Py_ssize_t m = 0;
    head[0] = UINT64_MAX;
    for (Py_ssize_t b = 0; b < n_b; b++) {
        at[b] = keys + b * stride;
        end[b] = at[b] + count[b];
        if (count[b] > 0) {
            m = head_insert(head, m, *at[b]);
        }
    }
    return m;
}

/* The merge's next key (one is left), taken from the heads; its bucket's next key, usually
 * close to it, goes back in after a short scan from the end. The bucket a key came from is read
 * from the key itself, so no list of buckets moves beside the keys. */
static inline uint64_t
heads_take(const uint64_t **at, Py_ssize_t n_b, uint64_t *head, Py_ssize_t *m,
           uint64_t slot_mask)
{
    const uint64_t v = head[(*m)--];
    const Py_ssize_t b = (Py_ssize_t)(v & slot_mask);
    if (++at[b] < at[n_b + b]) {
        *m = head_insert(head, *m, *at[b]);
    }
    return v;
}

/* The first k (at most their total) of the sorted buckets keys[b * stride .. + count[b]) of
 * distinct keys, merged into out (see heads_start()). */
static void
merge_buckets(const uint64_t *keys, Py_ssize_t stride, const Py_ssize_t *count, Py_ssize_t n_b,
              Py_ssize_t k, uint64_t slot_mask, uint64_t *out, const uint64_t **at,
              uint64_t *head)
{
    Py_ssize_t m = heads_start(keys, stride, count, n_b, at, head);
    for (Py_ssize_t i = 0; i < k; i++) {
        out[i] = heads_take(at, n_b, head, &m, slot_mask);
    }
}

/* The first k of a step's n distinct keys, filed in n_b buckets keys[b * stride ..) of count[b]
 * keys each in generation order, in ascending order in w->tmp (returned): each bucket sorted
 * by insertion and the buckets merged, or (many or long buckets) all keys sorted together. */
static const uint64_t *
order_step(Work *w, uint64_t *keys, Py_ssize_t stride, const Py_ssize_t *count, Py_ssize_t n_b,
           Py_ssize_t n, Py_ssize_t k, uint64_t slot_mask)
{
    uint64_t *out = w->tmp;
    if (n_b <= BUCKET_MAX && stride <= BUCKET_MAX_KEPT) {
        const uint64_t *at[2 * BUCKET_MAX];
        uint64_t head[BUCKET_MAX + 1];
        for (Py_ssize_t b = 0; b < n_b; b++) {
            insertion_sort_keys(keys + b * stride, count[b]);
        }
        merge_buckets(keys, stride, count, n_b, k, slot_mask, out, at, head);
        return out;
    }
    Py_ssize_t at = 0;
    for (Py_ssize_t b = 0; b < n_b; b++) {
        memcpy(out + at, keys + b * stride, (size_t)count[b] * sizeof(uint64_t));
        at += count[b];
    }
    if (n <= INSERTION_ONLY) {
        insertion_sort_keys(out, n);
    }
    else {
        partial_sort_keys(out, n, k, 2 * bit_width((uint64_t)n) + 2);
    }
    return out;
}

/* A path's bit set copied: two words (segments of up to 64 words each) without a call. */
static inline void
copy_bits(uint64_t *dst, const uint64_t *src, Py_ssize_t bw)
{
    if (bw == 2) {
        dst[0] = src[0];
        dst[1] = src[1];
    }
    else {
        memcpy(dst, src, (size_t)bw * sizeof(uint64_t));
    }
}

/* The step's candidates entries[lo..hi) (at reference position c) as StepCand records in
 * w->step: their key deltas, masks and ends, derived once for all the step's paths. */
static int
load_step(Work *w, const Packing *pk, Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t c, Py_ssize_t wh)
{
    if (GROW(w->step, w->step_cap, hi - lo ? hi - lo : 1) < 0) {
        return -1;
    }
    for (Py_ssize_t k = lo; k < hi; k++) {
        const Entry *m = &w->entries[k];
        StepCand *sc = &w->step[k - lo];
        sc->gain_key = shifted((uint64_t)-entry_gain(w, m), pk->sh_w);
        sc->off_key = shifted((uint64_t)entry_offset(m, c), pk->sh_d);
        sc->hs = make_span(m->hyp_start, m->hyp_len, 0);
        sc->ref_rest = m->ref_len > 1;
        if (sc->ref_rest) {
            sc->rs = make_span(c + 1, m->ref_len - 1, wh);
        }
        else {
            sc->rs = sc->hs;
            sc->rs.m0 = 0; /* tests nothing */
        }
        sc->one_word = sc->hs.w0 == sc->hs.w1 && sc->rs.w0 == sc->rs.w1;
        sc->hyp_start = m->hyp_start;
        sc->hyp_end = m->hyp_start + m->hyp_len;
        sc->idx = c + m->ref_len;
    }
    return 0;
}

/* Whether a step's candidate fits a path whose reference position c (the candidate's first
 * reference word) is free: none of its hypothesis words nor its other reference words is used. */
static inline int
step_free(const uint64_t *bits, const StepCand *sc)
{
    if (sc->one_word) {
        return ((bits[sc->hs.w0] & sc->hs.m0) | (bits[sc->rs.w0] & sc->rs.m0)) == 0;
    }
    if (sc->hs.w0 == sc->hs.w1) {
        if (bits[sc->hs.w0] & sc->hs.m0) {
            return 0;
        }
    }
    else if (!span_free(bits, &sc->hs)) {
        return 0;
    }
    return !sc->ref_rest || span_free(bits, &sc->rs);
}

/* Materialise the successors keyed by out[0..k) (full keys: rank, parent, slot) into
 * new_head/new_bits; the step is at reference position c, its candidates in w->step. */
static int
materialise_packed(Work *w, const Packing *pk, const uint64_t *out, Py_ssize_t k,
                   Py_ssize_t lo, Py_ssize_t skip_slot, Py_ssize_t bw, Py_ssize_t c,
                   Py_ssize_t wh)
{
    const uint64_t index_mask = pk->sh_d ? (~(uint64_t)0 >> (64 - pk->sh_d)) : 0;
    const uint64_t slot_mask = pk->sh_p ? (~(uint64_t)0 >> (64 - pk->sh_p)) : 0;
    const Py_ssize_t ref_word = wh + (c >> 6);
    const uint64_t ref_bit = (uint64_t)1 << (c & 63);
    if (skip_slot > 0 && reserve_nodes(w, k) < 0) {
        return -1;
    }
    /* Locals, not w's fields: the stores below through int64_t and uint64_t pointers could
     * alias those fields, so the compiler would load them again after each one. */
    Node *const node = w->node;
    Py_ssize_t nodes = w->nodes;
    const Head *const cur_head = w->cur_head;
    Head *const new_head = w->new_head;
    const uint64_t *const cur_bits = w->cur_bits;
    uint64_t *const new_bits = w->new_bits;
    const StepCand *const step = w->step;
    const int sh_p = pk->sh_p;
    for (Py_ssize_t i = 0; i < k; i++) {
        const uint64_t low = out[i] & index_mask;
        const Py_ssize_t p = (Py_ssize_t)(low >> sh_p);
        const Py_ssize_t slot = (Py_ssize_t)(low & slot_mask);
        const Head *parent = &cur_head[p];
        Head *h = &new_head[i];
        uint64_t *bits = new_bits + i * bw;
        copy_bits(bits, cur_bits + p * bw, bw);
        h->key = out[i] & ~index_mask;
        h->chain = parent->chain;
        if (slot < skip_slot) { /* a candidate */
            const StepCand *sc = &step[slot];
            span_set(bits, &sc->hs);
            bits[ref_word] |= ref_bit;
            if (sc->ref_rest) {
                span_set(bits, &sc->rs);
            }
            h->idx = sc->idx;
            h->last_end = sc->hyp_end;
            node[nodes].cand = (int32_t)(lo + slot);
            node[nodes].parent = (int32_t)parent->chain;
            h->chain = (int64_t)nodes++;
        }
        else if (!(bits[ref_word] & ref_bit)) { /* the skip */
            h->idx = parent->idx + 1;
            h->last_end = -1;
        }
        else if (c < parent->idx) { /* inside a match chosen earlier */
            h->idx = parent->idx;
            h->last_end = parent->last_end;
        }
        else { /* a fixed match's start */
            const Entry *m = &w->entries[w->fixed_at[c]];
            h->idx = c + m->ref_len;
            h->last_end = m->hyp_start + m->hyp_len;
        }
    }
    w->nodes = nodes;
    return 0;
}

/* Whether no candidate but a fixed match starts at reference position c: every path has exactly
 * one successor there (a skip, a pass-through or the fixed match) and no bit changes. */
static inline int
quiet_position(const Work *w, Py_ssize_t c)
{
    return w->first[c + 1] == w->first[c] || w->fixed_at[c] >= 0;
}

/* Forced inlining for the short kernels below (the packed searches' steps). */
#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE static inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define ALWAYS_INLINE static __forceinline
#else
#define ALWAYS_INLINE static inline
#endif

/* A function kept out of line: a loop of its own gets the registers for itself, where inlined
 * into the step loop its locals were spilled and reloaded from the stack on every iteration. */
#if defined(__GNUC__) || defined(__clang__)
#define NEVER_INLINE static __attribute__((noinline))
#elif defined(_MSC_VER)
#define NEVER_INLINE static __declspec(noinline)
#else
#define NEVER_INLINE static
#endif

/* The quiet positions from c on, walked for uniform_run() and uniform_run_w(): the delta they
 * add to every kept path's key, and the idx and last_end they leave (updated in place), from
 * the reference side's used bits `ref` (word d / 64 for position d: path 0's, standing for
 * all at positions from idx on). Returns the first position not walked. */
ALWAYS_INLINE Py_ssize_t
quiet_stretch(const Work *w, const Packing *pk, Py_ssize_t n_ref, const uint64_t *ref,
              Py_ssize_t c, int64_t *idx_io, int64_t *last_end_io, uint64_t *delta_out)
{
    int64_t idx = *idx_io, last_end = *last_end_io;
    const uint64_t one_chunk = (uint64_t)1 << pk->sh_c;
    uint64_t delta = 0;
    Py_ssize_t d = c;
    for (; d < n_ref && quiet_position(w, d); d++) {
        if (ref[d >> 6] & ((uint64_t)1 << (d & 63))) {
            if (d < idx) { /* inside the match that set idx (used in every path) */
                continue;
            }
            const Py_ssize_t f = w->fixed_at[d];
            if (f < 0) { /* unreachable with consistent fixed matches */
                break;
            }
            const Entry *m = &w->entries[f];
            delta += entry_key(w, pk, f, d);
            if (last_end != -1 && m->hyp_start != last_end) {
                delta += one_chunk;
            }
            idx = d + m->ref_len;
            last_end = m->hyp_start + m->hyp_len;
        }
        else { /* the skip (no candidate here) */
            if (last_end != -1) {
                delta += one_chunk;
            }
            last_end = -1;
            idx += 1;
        }
    }
    *idx_io = idx;
    *last_end_io = last_end;
    *delta_out = delta;
    return d;
}

/* Quiet steps from reference position c on, run at once when the kept paths share idx and
 * last_end (checked here); returns the first position not run (c itself when none is).
 *
 * Why the paths' successors are then identical up to their keys: a path's chosen matches all
 * end before its idx (a match sets idx to its end and idx never decreases), so at positions
 * from idx on each path's bits are the fixed matches' bits, the same in every path (path 0's
 * bits stand for all). A quiet step adds to a path's key a delta that depends only on the bit
 * at c, on idx and on last_end (a fixed match's gain and offset, a chunk when it does not
 * continue last_end; the skip's chunk when last_end is open), and sets idx and last_end from
 * those alone. So the steps add one delta to every key: the paths keep their order (no field
 * overflows: the packing bounds every path's fields) and no step cuts (one successor a path);
 * the kept paths' keys, idx and last_end are updated once at the end, as the steps one by
 * one would leave them. (The delta itself cannot change which path wins, as every later key
 * carries it; it is added so that a key stays the path's rank.) A used position at or past idx
 * that no fixed match starts (only with inconsistent fixed matches) ends the run, for the
 * step by step code to handle.
 *
 * On WMT22 pairs 42% of the steps (23,809 of 57,008 on 3,000 pairs) are quiet and find the
 * paths in step, a third of the path updates of the search. */
static Py_ssize_t
uniform_run(Work *w, const Packing *pk, Py_ssize_t n_ref, Py_ssize_t kept, Py_ssize_t wh,
            Py_ssize_t c)
{
    if (c >= n_ref || !quiet_position(w, c)) {
        return c;
    }
    Head *const head = w->cur_head;
    int64_t idx = head[0].idx, last_end = head[0].last_end;
    for (Py_ssize_t p = 1; p < kept; p++) {
        if (head[p].idx != idx || head[p].last_end != last_end) {
            return c;
        }
    }
    const uint64_t *bits = w->cur_bits; /* path 0's: at positions from idx on, every path's */
    uint64_t delta = 0;
    const Py_ssize_t d = quiet_stretch(w, pk, n_ref, bits + wh, c, &idx, &last_end, &delta);
    if (d > c) {
        for (Py_ssize_t p = 0; p < kept; p++) {
            head[p].key += delta;
            head[p].idx = idx;
            head[p].last_end = last_end;
        }
    }
    return d;
}

/* After the last position of a packed search: *best_chain is the chain of the best of
 * paths[0..kept), their open chunks closed (one_chunk more on a key whose last_end is open), the
 * first among equals in the current order (the stable sort's). The same rule for both kinds of
 * path record, Head (search_packed()) and PathW (search_packed_w()). */
#define SET_FINAL_CHAIN(best_chain, paths, kept, one_chunk)                                        \
    do {                                                                                           \
        Py_ssize_t best_ = 0;                                                                      \
        uint64_t best_key_ = 0;                                                                    \
        for (Py_ssize_t p_ = 0; p_ < (kept); p_++) {                                               \
            const uint64_t key_ =                                                                  \
                (paths)[p_].key + ((paths)[p_].last_end != -1 ? (one_chunk) : 0);                  \
            if (p_ == 0 || key_ < best_key_) {                                                     \
                best_ = p_;                                                                        \
                best_key_ = key_;                                                                  \
            }                                                                                      \
        }                                                                                          \
        *(best_chain) = (paths)[best_].chain;                                                      \
    } while (0)

/* The steps of search() over every reference position with packed keys; leaves the best final
 * path's chain in *best_chain. */
static int
search_packed(Work *w, const Packing *pk, Py_ssize_t n_ref, Py_ssize_t beam, Py_ssize_t wh,
              Py_ssize_t bw, int64_t *best_chain)
{
    const uint64_t index_mask = pk->sh_d ? (~(uint64_t)0 >> (64 - pk->sh_d)) : 0;
    const uint64_t one_chunk = (uint64_t)1 << pk->sh_c;
    const int sh_p = pk->sh_p;
    const uint64_t slot_mask = sh_p ? (~(uint64_t)0 >> (64 - sh_p)) : 0; /* a key's bucket */
    Py_ssize_t kept = 1;
    w->cur_head[0].key = shifted((uint64_t)pk->bias, pk->sh_w);
    int maybe_synced = 1; /* whether the kept paths may share idx and last_end (uniform_run()) */
    for (Py_ssize_t c = 0; c < n_ref; c++) {
        if (maybe_synced || kept == 1) {
            c = uniform_run(w, pk, n_ref, kept, wh, c);
            if (c == n_ref) {
                break;
            }
        }
        const Py_ssize_t lo = w->first[c], hi = w->first[c + 1];
        /* After a step at a fixed match, or at a position no candidate starts at or covers,
         * every path has the same idx and last_end (with consistent coverage counts; the run
         * checks): the quiet steps after it may run as one. */
        maybe_synced = w->fixed_at[c] >= 0 || (hi == lo && w->ref_cov[c] == 0);
        const Py_ssize_t n_b = hi - lo + 1, skip_b = hi - lo;
        if (GROW(w->bucket_n, w->bucket_cap, n_b) < 0) {
            return -1;
        }
        Py_ssize_t *count = w->bucket_n;
        memset(count, 0, (size_t)n_b * sizeof(Py_ssize_t));
        const Py_ssize_t ref_word = wh + (c >> 6);
        const uint64_t ref_bit = (uint64_t)1 << (c & 63);
        uint64_t *keys = w->keys;
        const Py_ssize_t stride = kept;
        uint64_t *skip_keys = keys + skip_b * stride;
        if (load_step(w, pk, lo, hi, c, wh) < 0) {
            return -1;
        }
        const StepCand *step = w->step;
        /* A fixed match starting here: its key delta (less the chunk) and hypothesis start. */
        const Py_ssize_t f = w->fixed_at[c];
        uint64_t fixed_key = 0;
        int64_t fixed_start = 0;
        if (f >= 0) {
            const Entry *m = &w->entries[f];
            fixed_key = entry_key(w, pk, f, c);
            fixed_start = m->hyp_start;
        }
        Py_ssize_t n_cand = 0, n_skip = 0;
        uint64_t skip_top = 0; /* the largest skip key so far */
        int skip_unsorted = 0; /* whether a skip key came below an earlier one */
        const Head *const cur_head = w->cur_head; /* locals: see materialise_packed() */
        const uint64_t *const cur_bits = w->cur_bits;
        for (Py_ssize_t p = 0; p < kept; p++) {
            const Head *h = &cur_head[p];
            const uint64_t *bits = cur_bits + p * bw;
            const uint64_t tag = ((uint64_t)p << sh_p);
            if (bits[ref_word] & ref_bit) {
                uint64_t key = h->key;
                if (c >= h->idx) { /* a fixed match's start (else inside a chosen match) */
                    if (f < 0) { /* unreachable with consistent fixed matches */
                        continue;
                    }
                    key += fixed_key;
                    if (h->last_end != -1 && fixed_start != h->last_end) {
                        key += one_chunk;
                    }
                }
                key |= tag | (uint64_t)skip_b;
                skip_unsorted |= key < skip_top;
                skip_top = key;
                skip_keys[n_skip++] = key;
                continue;
            }
            const int64_t last_end = h->last_end;
            uint64_t base = h->key;
            for (Py_ssize_t b = 0; b < skip_b; b++) {
                const StepCand *sc = &step[b];
                if (!step_free(bits, sc)) {
                    continue;
                }
                uint64_t key = base + sc->gain_key;
                if (last_end != -1 && sc->hyp_start != last_end) {
                    key += one_chunk;
                }
                keys[b * stride + count[b]++] = key | tag | (uint64_t)b;
                n_cand++;
                base += sc->off_key;
            }
            const uint64_t key = (base + (last_end != -1 ? one_chunk : 0)) | tag | (uint64_t)skip_b;
            skip_unsorted |= key < skip_top;
            skip_top = key;
            skip_keys[n_skip++] = key;
        }
        count[skip_b] = n_skip;
        const Py_ssize_t n = n_cand + n_skip;
        if (n == 0) { /* the jar warns and carries on with the best path */
            kept = 1;
            continue;
        }
        if (n_cand == 0 && n == kept) {
            /* One successor per path, in parent order, the same bits: no cut (kept stays), maybe
             * a new order. */
            if (!skip_unsorted) { /* in parent order already */
                for (Py_ssize_t p = 0; p < n; p++) {
                    Head *h = &w->cur_head[p];
                    const uint64_t *bits = w->cur_bits + p * bw;
                    h->key = skip_keys[p] & ~index_mask;
                    if (!(bits[ref_word] & ref_bit)) {
                        h->idx += 1;
                        h->last_end = -1;
                    }
                    else if (c >= h->idx) {
                        const Entry *m = &w->entries[w->fixed_at[c]];
                        h->idx = c + m->ref_len;
                        h->last_end = m->hyp_start + m->hyp_len;
                    }
                }
                continue;
            }
            insertion_sort_keys(skip_keys, n);
            if (materialise_packed(w, pk, skip_keys, n, lo, skip_b, bw, c, wh) < 0) {
                return -1;
            }
        }
        else {
            const Py_ssize_t k = n < beam ? n : beam; /* the beam's cut */
            const uint64_t *out = order_step(w, keys, stride, count, n_b, n, k, slot_mask);
            if (materialise_packed(w, pk, out, k, lo, skip_b, bw, c, wh) < 0) {
                return -1;
            }
            kept = k;
        }
        next_generation(w);
    }
    SET_FINAL_CHAIN(best_chain, w->cur_head, kept, one_chunk);
    return 0;
}

/* ---- The packed search for segments of up to 128 words ----------------------------------
 *
 * The same steps as search_packed(), on PathW records: a path's used words are W machine words
 * for each segment (W = 1 for segments of at most 64 words, 2 for at most 128), so a
 * candidate's test is 2W masks and a winner's bits are 2W ORs, with no span arithmetic and no
 * loop over words. Quiet steps update the paths in place (quiet_step_w()); at the other steps
 * a path's skip successor is a skip or a pass-through, told apart again by one bit when it wins
 * (win_skip(), from the bucket merges or materialise_w()). Each step is written once for a
 * constant W (always inlined into search_packed_1() and search_packed_2()), so that the compiler
 * unrolls the word loops. Longer segments use search_packed(). */

/* Bits of positions [start, start + len) (len >= 1) that fall in bit word `word`. */
static inline uint64_t
word_mask(int64_t start, int64_t len, int word)
{
    int64_t lo = start - 64 * (int64_t)word, hi = lo + len;
    if (hi <= 0 || lo >= 64) {
        return 0;
    }
    lo = lo < 0 ? 0 : lo;
    hi = hi > 64 ? 64 : hi;
    return (~(uint64_t)0 >> (64 - (hi - lo))) << lo;
}

/* The step's candidates entries[lo..hi) at reference position c as CandW records, each with
 * its empty bucket keys[b * stride + 1 ..) after a sentinel key 0 (b = k - lo). A key's slot
 * bits are added less skip_b (modulo 2**64), as every parent's key starts with skip_b in
 * them (see search_packed_w()). Returns 1 when a candidate has reference words after its first
 * (a ref_rest mask to test), 0 when none has, -1 with MemoryError. */
ALWAYS_INLINE int
load_step_w(Work *w, const Packing *pk, Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t c,
            uint64_t *keys, Py_ssize_t stride, const int W)
{
    if (GROW(w->cand_w, w->cand_w_cap, hi - lo ? hi - lo : 1) < 0) {
        return -1;
    }
    int rest = 0;
    for (Py_ssize_t k = lo; k < hi; k++) {
        const Entry *m = &w->entries[k];
        CandW *sc = &w->cand_w[k - lo];
        /* the slot (k - lo) in the low bits: a key is the tagged parent's (whose low bits
         * hold hi - lo, the skip's slot) plus this */
        sc->gain_key = shifted((uint64_t)-w->gain[k], pk->sh_w) + (uint64_t)(k - lo) -
                       (uint64_t)(hi - lo);
        keys[(k - lo) * stride] = 0;
        sc->end = keys + (k - lo) * stride + 1;
        sc->off_key = shifted((uint64_t)entry_offset(m, c), pk->sh_d);
        if (W == 1) {
            /* every span inside the one bit word: the masks without word_mask()'s clipping
             * (ref_rest is ref_mask less the step's own reference word c) */
            sc->hyp_mask[0] = (~(uint64_t)0 >> (64 - m->hyp_len)) << m->hyp_start;
            sc->ref_mask[0] = (~(uint64_t)0 >> (64 - m->ref_len)) << c;
            sc->ref_rest[0] = sc->ref_mask[0] & ~((uint64_t)1 << c);
        }
        else {
            for (int i = 0; i < W; i++) {
                sc->hyp_mask[i] = word_mask(m->hyp_start, m->hyp_len, i);
                sc->ref_mask[i] = word_mask(c, m->ref_len, i);
                sc->ref_rest[i] = m->ref_len > 1 ? word_mask(c + 1, m->ref_len - 1, i) : 0;
            }
        }
        sc->hyp_start = m->hyp_start;
        sc->entry = (int32_t)k;
        sc->hyp_end = (int16_t)(m->hyp_start + m->hyp_len);
        sc->idx = (int16_t)(c + m->ref_len);
        rest |= m->ref_len > 1;
    }
    return rest;
}

/* File the successor key k into candidate sc's bucket, kept sorted: a key is nearly always
 * above the one before it, and the sentinel before the bucket ends the scan back. */
ALWAYS_INLINE void
file_key(CandW *sc, uint64_t k)
{
    uint64_t *q = sc->end++;
    while (q[-1] > k) {
        q[0] = q[-1];
        q--;
    }
    *q = k;
}

/* The successors of path h at a step whose reference position is free in h: each candidate
 * of step[0..end) that fits h (none of its hypothesis words used, nor its other reference
 * words) filed into its bucket; returns h's skip key (key, its own key with the skip's slot,
 * plus the offsets of the candidates that fit and the chunk the skip closes). A candidate not
 * continuing the open chunk closes it (chunk: one_chunk when a chunk is open, else 0). Only
 * what can clash is tested: at a step with no candidate of more than one reference word
 * (rest = 0) the reference words are not, and when none of h's hypothesis words is one of
 * any_hyp (the union of the candidates') every candidate fits untested. h's words are read
 * into locals once: the stores into the buckets could alias them. */
ALWAYS_INLINE uint64_t
file_successors(const PathW *h, CandW *const step, CandW *const end, const uint64_t *any_hyp,
                uint64_t key, uint64_t chunk, const int W, const int rest)
{
    const int64_t last_end = h->last_end;
    uint64_t hyp[2], ref[2], clash = 0;
    for (int i = 0; i < W; i++) {
        hyp[i] = h->hyp[i];
        ref[i] = h->ref[i];
        clash |= hyp[i] & any_hyp[i];
    }
    if (!rest && !clash) {
        for (CandW *sc = step; sc < end; sc++) {
            file_key(sc, key + sc->gain_key + (sc->hyp_start == last_end ? 0 : chunk));
            key += sc->off_key;
        }
        return key + chunk;
    }
    for (CandW *sc = step; sc < end; sc++) {
        uint64_t used = 0;
        for (int i = 0; i < W; i++) {
            used |= hyp[i] & sc->hyp_mask[i];
            if (rest) {
                used |= ref[i] & sc->ref_rest[i];
            }
        }
        if (used) {
            continue;
        }
        file_key(sc, key + sc->gain_key + (sc->hyp_start == last_end ? 0 : chunk));
        key += sc->off_key;
    }
    return key + chunk;
}

/* What filing a step's successors reads (search_packed_w()). */
typedef struct {
    const PathW *cur; /* the kept paths */
    Py_ssize_t kept;
    CandW *step, *step_end; /* the step's candidates */
    uint64_t any_hyp[2];    /* the union of their hypothesis words */
    uint64_t skip_b;        /* the skip's slot */
    int ref_word;           /* the step's reference position c: its bit word and bit */
    uint64_t ref_bit;
    uint64_t one_chunk;
    Py_ssize_t c;
} FileStep;

/* File the successors of every kept path of a step (file_successors(), with its `rest`) into
 * their buckets, and each path's skip or pass-through successor into the skip bucket from
 * skip_keys on; returns the skip bucket's end, and sets *skip_unsorted when a skip key came
 * below an earlier one. Written once for each `rest`, so that the loop over the paths tests it
 * not once a path.
 *
 * A path's key carries its own index in the parent field (win_cand() and win_skip() write it,
 * whether the bucket merges or materialise_w() make the winners, and a step that keeps the
 * paths in place keeps it): the deltas added leave those bits alone (their
 * low bits are clear, or a candidate's slot, below the parent's index), so a successor's key
 * is one sum. Its slot bits start as the skip's (skip_b), and a candidate's key delta adds its
 * own slot less skip_b. */
ALWAYS_INLINE uint64_t *
file_step(const FileStep *fs, uint64_t *skip_end, int *skip_unsorted, const int W,
          const int rest)
{
    uint64_t skip_top = 0; /* the skip bucket's largest key (the sentinel's while empty) */
    const PathW *const end = fs->cur + fs->kept;
    for (const PathW *h = fs->cur; h < end; h++) {
        uint64_t key = h->key | fs->skip_b;
        if (h->ref[fs->ref_word] & fs->ref_bit) {
            if (fs->c >= h->idx) { /* used, with no fixed match: unreachable with consistent
                                    * fixed matches */
                continue;
            }
        }
        else {
            const uint64_t chunk = h->last_end != -1 ? fs->one_chunk : 0;
            key = file_successors(h, fs->step, fs->step_end, fs->any_hyp, key, chunk, W, rest);
        }
        /* The skip bucket is kept sorted as it is filled, like the others; its largest key
         * (skip_top, the sentinel 0 while it is empty) stays in a register, so a key above it
         * (nearly all) is appended without reading the one before. Keys are distinct, so only
         * a first key can equal it (a key 0 in an empty bucket, appended). A key that moves
         * back marks the paths' order as changed. */
        if (key >= skip_top) {
            *skip_end++ = key;
            skip_top = key;
        }
        else {
            uint64_t *q = skip_end++;
            do {
                q[0] = q[-1];
                q--;
            } while (q[-1] > key);
            *q = key;
            *skip_unsorted = 1;
        }
    }
    return skip_end;
}

/* Where a step's winners are made (materialise_w(), merge_paths_w()): the parents, the next
 * winner's place and its index in the parent field of its key, the step's candidates and the
 * node pool. Only ever a local of an inlined function, so that its fields live in registers. */
typedef struct {
    const PathW *cur; /* the kept paths */
    PathW *h;         /* the next winner's place in new_w */
    const CandW *step;
    Node *node;
    Py_ssize_t nodes;
    uint64_t index_mask;      /* a key's parent and slot bits */
    uint64_t tag, one_parent; /* the next winner's index in the parent field, and 1 there */
    uint64_t ref_bit;         /* the step's reference position c: its bit word and bit */
    int ref_word, sh_p;
} Winners;

/* The winners of a step at reference position c, which has candidates (in w->cand_w) and no
 * fixed match, to be written from new_w[0] on; nodes reserved for k of them. */
ALWAYS_INLINE int
winners_start(Winners *s, Work *w, const Packing *pk, Py_ssize_t k, Py_ssize_t c, const int W)
{
    if (reserve_nodes(w, k) < 0) { /* the step has candidates: a winner may take a node */
        return -1;
    }
    s->cur = w->cur_w;
    s->h = w->new_w;
    s->step = w->cand_w;
    s->node = w->node; /* locals, not w's fields: see materialise_packed() */
    s->nodes = w->nodes;
    s->index_mask = pk->sh_d ? (~(uint64_t)0 >> (64 - pk->sh_d)) : 0;
    s->tag = 0;
    s->one_parent = (uint64_t)1 << pk->sh_p;
    s->ref_bit = (uint64_t)1 << (c & 63);
    s->ref_word = W == 1 ? 0 : (int)(c >> 6);
    s->sh_p = pk->sh_p;
    return 0;
}

/* The next winner, the successor keyed v (full key: rank, parent, slot) that adds candidate sc
 * to its parent. */
ALWAYS_INLINE void
win_cand(Winners *s, uint64_t v, const CandW *sc, const int W)
{
    const uint64_t low = v & s->index_mask;
    const PathW *parent = &s->cur[low >> s->sh_p];
    PathW *h = s->h++;
    h->key = (v - low) | s->tag; /* its own index in the parent field */
    s->tag += s->one_parent;
    for (int j = 0; j < W; j++) {
        h->hyp[j] = parent->hyp[j] | sc->hyp_mask[j];
        h->ref[j] = parent->ref[j] | sc->ref_mask[j];
    }
    h->idx = sc->idx;
    h->last_end = sc->hyp_end;
    s->node[s->nodes].cand = sc->entry;
    s->node[s->nodes].parent = parent->chain;
    h->chain = (int32_t)s->nodes++;
}

/* The next winner, the skip successor keyed v: a skip (its parent's position c free) or a
 * pass-through (inside a match chosen earlier). */
ALWAYS_INLINE void
win_skip(Winners *s, uint64_t v, const int W)
{
    const uint64_t low = v & s->index_mask;
    const PathW *parent = &s->cur[low >> s->sh_p];
    PathW *h = s->h++;
    h->key = (v - low) | s->tag;
    s->tag += s->one_parent;
    for (int j = 0; j < W; j++) {
        h->hyp[j] = parent->hyp[j];
        h->ref[j] = parent->ref[j];
    }
    if (parent->ref[s->ref_word] & s->ref_bit) { /* inside a match chosen earlier */
        h->idx = parent->idx;
        h->last_end = parent->last_end;
    }
    else {
        h->idx = (int16_t)(parent->idx + 1);
        h->last_end = -1;
    }
    h->chain = parent->chain;
}

/* The next winner keyed v, from bucket b: candidate b's successor, or (b = skip_b) the skip. */
ALWAYS_INLINE void
win_slot(Winners *s, uint64_t v, Py_ssize_t b, Py_ssize_t skip_b, const int W)
{
    if (b < skip_b) {
        win_cand(s, v, &s->step[b], W);
    }
    else {
        win_skip(s, v, W);
    }
}

/* Materialise the successors keyed by out[0..k) (full keys: rank, parent, slot) into new_w;
 * the step is at reference position c, which has candidates (in w->cand_w) and no fixed match,
 * and skip_slot is the skip's slot. */
ALWAYS_INLINE int
materialise_w(Work *w, const Packing *pk, const uint64_t *out, Py_ssize_t k,
              Py_ssize_t skip_slot, Py_ssize_t c, const int W)
{
    const uint64_t slot_mask = pk->sh_p ? (~(uint64_t)0 >> (64 - pk->sh_p)) : 0;
    Winners s;
    if (winners_start(&s, w, pk, k, c, W) < 0) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        win_slot(&s, out[i], (Py_ssize_t)(out[i] & slot_mask), skip_slot, W);
    }
    w->nodes = s.nodes;
    return 0;
}

/* materialise_w() for one bit word and for two, out of line (see NEVER_INLINE). */
NEVER_INLINE int
materialise_1(Work *w, const Packing *pk, const uint64_t *out, Py_ssize_t k,
              Py_ssize_t skip_slot, Py_ssize_t c)
{
    return materialise_w(w, pk, out, k, skip_slot, c, 1);
}

NEVER_INLINE int
materialise_2(Work *w, const Packing *pk, const uint64_t *out, Py_ssize_t k,
              Py_ssize_t skip_slot, Py_ssize_t c)
{
    return materialise_w(w, pk, out, k, skip_slot, c, 2);
}

/* A winner taken by a merge of two or three buckets, whose buckets are known: candidate sc's
 * successor, or (skip) the skip's. */
ALWAYS_INLINE void
win_from(Winners *s, uint64_t v, const CandW *sc, const int skip, const int W)
{
    if (skip) {
        win_skip(s, v, W);
    }
    else {
        win_cand(s, v, sc, W);
    }
}

/* Two sorted runs of distinct keys, [a, a_end) from bucket sa (a_skip: the skip bucket) and
 * [b, b_end) from sb, merged into winners until s->h reaches end or both runs are used up. The
 * smaller of the two next keys is taken in stretches in which neither run can end nor the
 * winners fill (as many keys as the shortest of the three has left), then what is left of the
 * run not used up is taken. */
ALWAYS_INLINE void
merge_two_w(Winners *s, const uint64_t *a, const uint64_t *a_end, const CandW *sa,
            const int a_skip, const uint64_t *b, const uint64_t *b_end, const CandW *sb,
            const int b_skip, const PathW *const end, const int W)
{
    for (;;) {
        Py_ssize_t run = end - s->h;
        run = a_end - a < run ? a_end - a : run;
        run = b_end - b < run ? b_end - b : run;
        if (run == 0) {
            break;
        }
        for (const PathW *const stop = s->h + run; s->h < stop;) {
            const uint64_t x = *a, y = *b;
            if (y < x) {
                win_from(s, y, sb, b_skip, W);
                b++;
            }
            else {
                win_from(s, x, sa, a_skip, W);
                a++;
            }
        }
    }
    while (s->h < end && a < a_end) {
        win_from(s, *a++, sa, a_skip, W);
    }
    while (s->h < end && b < b_end) {
        win_from(s, *b++, sb, b_skip, W);
    }
}

/* Three sorted runs of distinct keys, a[0..na) and b[0..nb) from candidates 0 and 1 and c[0..nc)
 * from the skip, merged into the first `end - s->h` winners: the smallest of the three next
 * keys is taken directly (two comparisons), in stretches in which no run can end (as many keys
 * as the shortest run has left), then the two runs left are merged. */
ALWAYS_INLINE void
merge_three_w(Winners *s, const uint64_t *a, Py_ssize_t na, const uint64_t *b, Py_ssize_t nb,
              const uint64_t *c, Py_ssize_t nc, const PathW *const end, const int W)
{
    const uint64_t *const a_end = a + na, *const b_end = b + nb, *const c_end = c + nc;
    const CandW *const sa = s->step, *const sb = s->step + 1;
    for (;;) {
        Py_ssize_t run = end - s->h;
        run = a_end - a < run ? a_end - a : run;
        run = b_end - b < run ? b_end - b : run;
        run = c_end - c < run ? c_end - c : run;
        if (run == 0) {
            break;
        }
        for (const PathW *const stop = s->h + run; s->h < stop;) {
            const uint64_t x = *a, y = *b, z = *c;
            if (x < y) {
                if (x < z) {
                    win_cand(s, x, sa, W);
                    a++;
                }
                else {
                    win_skip(s, z, W);
                    c++;
                }
            }
            else if (y < z) {
                win_cand(s, y, sb, W);
                b++;
            }
            else {
                win_skip(s, z, W);
                c++;
            }
        }
    }
    if (a == a_end) {
        merge_two_w(s, b, b_end, sb, 0, c, c_end, NULL, 1, end, W);
    }
    else if (b == b_end) {
        merge_two_w(s, a, a_end, sa, 0, c, c_end, NULL, 1, end, W);
    }
    else { /* c used up, or the winners full */
        merge_two_w(s, a, a_end, sa, 0, b, b_end, sb, 0, end, W);
    }
}

/* merge_buckets() with each key made into its winner as it is taken (its bucket b, read from
 * the key, is its slot: a candidate's, or skip_b the skip's). */
ALWAYS_INLINE void
merge_many_w(Winners *s, const uint64_t *keys, Py_ssize_t stride, const Py_ssize_t *count,
             Py_ssize_t n_b, Py_ssize_t k, uint64_t slot_mask, const uint64_t **at,
             uint64_t *head, const int W)
{
    Py_ssize_t m = heads_start(keys, stride, count, n_b, at, head);
    for (Py_ssize_t i = 0; i < k; i++) {
        const uint64_t v = heads_take(at, n_b, head, &m, slot_mask);
        win_slot(s, v, (Py_ssize_t)(v & slot_mask), n_b - 1, W);
    }
}

/* The first k (at most their total) successors of a step whose n_b buckets are sorted, bucket b
 * keys[b * stride ..) of count[b] keys (the last bucket the skip's), made into new_w[0..k) in
 * rank order as a merge of the buckets takes them: the bucket a key comes from is known to the
 * merge of two or three buckets (most steps), so its slot is not decoded, and no list of the
 * winners' keys is written and read back. The step is at reference position c, which has
 * candidates (in w->cand_w) and no fixed match; w->bucket_at and w->bucket_head have room for
 * 2 n_b and n_b + 1. */
ALWAYS_INLINE int
merge_paths_w(Work *w, const Packing *pk, const uint64_t *keys, Py_ssize_t stride,
              const Py_ssize_t *count, Py_ssize_t n_b, Py_ssize_t k, uint64_t slot_mask,
              Py_ssize_t c, const int W)
{
    Winners s;
    if (winners_start(&s, w, pk, k, c, W) < 0) {
        return -1;
    }
    const PathW *const end = s.h + k;
    if (n_b == 2) {
        merge_two_w(&s, keys, keys + count[0], s.step, 0, keys + stride, keys + stride + count[1],
                    NULL, 1, end, W);
    }
    else if (n_b == 3) {
        merge_three_w(&s, keys, count[0], keys + stride, count[1], keys + 2 * stride, count[2],
                      end, W);
    }
    else {
        merge_many_w(&s, keys, stride, count, n_b, k, slot_mask, w->bucket_at, w->bucket_head,
                     W);
    }
    w->nodes = s.nodes;
    return 0;
}

/* merge_paths_w() for one bit word and for two, out of line (see NEVER_INLINE). */
NEVER_INLINE int
merge_paths_1(Work *w, const Packing *pk, const uint64_t *keys, Py_ssize_t stride,
              const Py_ssize_t *count, Py_ssize_t n_b, Py_ssize_t k, uint64_t slot_mask,
              Py_ssize_t c)
{
    return merge_paths_w(w, pk, keys, stride, count, n_b, k, slot_mask, c, 1);
}

NEVER_INLINE int
merge_paths_2(Work *w, const Packing *pk, const uint64_t *keys, Py_ssize_t stride,
              const Py_ssize_t *count, Py_ssize_t n_b, Py_ssize_t k, uint64_t slot_mask,
              Py_ssize_t c)
{
    return merge_paths_w(w, pk, keys, stride, count, n_b, k, slot_mask, c, 2);
}

/* uniform_run() on PathW records (the same rule; see there). */
ALWAYS_INLINE Py_ssize_t
uniform_run_w(Work *w, const Packing *pk, Py_ssize_t n_ref, Py_ssize_t kept, Py_ssize_t c,
              const int W)
{
    if (c >= n_ref || !quiet_position(w, c)) {
        return c;
    }
    PathW *const head = w->cur_w;
    const int64_t idx0 = head[0].idx, last_end0 = head[0].last_end;
    for (Py_ssize_t p = 1; p < kept; p++) {
        if (head[p].idx != idx0 || head[p].last_end != last_end0) {
            return c;
        }
    }
    int64_t idx = idx0, last_end = last_end0;
    const uint64_t *ref = head[0].ref; /* at positions from idx on, every path's */
    uint64_t delta = 0;
    const Py_ssize_t d = quiet_stretch(w, pk, n_ref, ref, c, &idx, &last_end, &delta);
    if (d > c) {
        for (Py_ssize_t p = 0; p < kept; p++) {
            head[p].key += delta;
            head[p].idx = (int16_t)idx;
            head[p].last_end = (int16_t)last_end;
        }
    }
    return d;
}

/* What a quiet step at reference position c adds: the fixed match starting there (f >= 0), its
 * key delta less the chunk, its hypothesis start, and the idx and last_end it sets. */
typedef struct {
    Py_ssize_t c, f;
    int ref_word;
    uint64_t ref_bit, one_chunk, fixed_key;
    int64_t fixed_start, fixed_idx, fixed_last_end;
} QuietStep;

/* A path's one successor at a quiet step: *key, *idx and *last_end (the path's) updated; 0 when
 * it has none (its position c used past its idx with no fixed match there: unreachable with
 * consistent fixed matches). */
ALWAYS_INLINE int
quiet_successor(const PathW *h, const QuietStep *q, uint64_t *key, int64_t *idx,
                int64_t *last_end)
{
    if (h->ref[q->ref_word] & q->ref_bit) {
        if (q->c < *idx) { /* inside a match chosen earlier: passes through */
            return 1;
        }
        if (q->f < 0) {
            return 0;
        }
        *key += q->fixed_key; /* a fixed match's start */
        if (*last_end != -1 && q->fixed_start != *last_end) {
            *key += q->one_chunk;
        }
        *idx = q->fixed_idx;
        *last_end = q->fixed_last_end;
        return 1;
    }
    if (*last_end != -1) { /* the skip */
        *key += q->one_chunk;
    }
    *idx += 1;
    *last_end = -1;
    return 1;
}

/* A quiet step (no candidate at reference position c, or a fixed match's) whose kept paths are
 * not in step (else uniform_run_w() takes it): every path has one successor, with the same bits
 * and chain, so each path is updated in place: its key takes the fixed match's delta or the
 * skip's chunk, idx and last_end what the successor sets. The paths then stay in order unless
 * a key came below the one before it; only then are they sorted, by their keys (which carry each
 * path's index, so the sort is stable) into new_w, their indices rewritten, and the buffers
 * swapped. A path with no successor (see quiet_successor()) is left out and the later paths
 * move down over it, with their new index. Returns the number of paths kept (0: none had a
 * successor, the paths are untouched). */
ALWAYS_INLINE Py_ssize_t
quiet_step_w(Work *w, const Packing *pk, Py_ssize_t kept, Py_ssize_t c, const int W)
{
    const int sh_p = pk->sh_p;
    const uint64_t index_mask = pk->sh_d ? (~(uint64_t)0 >> (64 - pk->sh_d)) : 0;
    QuietStep q = {c, w->fixed_at[c], W == 1 ? 0 : (int)(c >> 6), (uint64_t)1 << (c & 63),
                   (uint64_t)1 << pk->sh_c, 0, 0, 0, 0};
    if (q.f >= 0) {
        const Entry *m = &w->entries[q.f];
        q.fixed_key = entry_key(w, pk, q.f, c);
        q.fixed_start = m->hyp_start;
        q.fixed_idx = c + m->ref_len;
        q.fixed_last_end = m->hyp_start + m->hyp_len;
    }
    PathW *const cur = w->cur_w;
    uint64_t *const keys = w->keys; /* the keys in path order, for a sort */
    uint64_t top = 0;               /* the last key written (no key is below 0) */
    int unsorted = 0;
    Py_ssize_t p = 0;
    for (; p < kept; p++) {
        PathW *h = &cur[p];
        uint64_t key = h->key;
        int64_t idx = h->idx, last_end = h->last_end;
        if (!quiet_successor(h, &q, &key, &idx, &last_end)) {
            break;
        }
        unsorted |= key < top;
        top = key;
        keys[p] = key;
        h->key = key;
        h->idx = (int16_t)idx;
        h->last_end = (int16_t)last_end;
    }
    Py_ssize_t n = p;
    if (p < kept) { /* path p has no successor: the later paths that have one move down */
        for (p++; p < kept; p++) {
            const PathW *h = &cur[p];
            uint64_t key = h->key;
            int64_t idx = h->idx, last_end = h->last_end;
            if (!quiet_successor(h, &q, &key, &idx, &last_end)) {
                continue;
            }
            key = (key & ~index_mask) | ((uint64_t)n << sh_p);
            unsorted |= key < top;
            top = key;
            keys[n] = key;
            cur[n] = *h;
            cur[n].key = key;
            cur[n].idx = (int16_t)idx;
            cur[n].last_end = (int16_t)last_end;
            n++;
        }
    }
    if (unsorted) {
        if (n <= INSERTION_ONLY) {
            insertion_sort_keys(keys, n);
        }
        else { /* many keys may move back (a wide beam): O(n log n); the keys are distinct */
            partial_sort_keys(keys, n, n, 2 * bit_width((uint64_t)n) + 2);
        }
        PathW *const nw = w->new_w;
        for (Py_ssize_t i = 0; i < n; i++) {
            const uint64_t low = keys[i] & index_mask;
            nw[i] = cur[low >> sh_p];
            nw[i].key = (keys[i] - low) | ((uint64_t)i << sh_p);
        }
        w->cur_w = nw;
        w->new_w = cur;
    }
    return n;
}

/* quiet_step_w() for one bit word and for two, out of line (see NEVER_INLINE). */
NEVER_INLINE Py_ssize_t
quiet_step_1(Work *w, const Packing *pk, Py_ssize_t kept, Py_ssize_t c)
{
    return quiet_step_w(w, pk, kept, c, 1);
}

NEVER_INLINE Py_ssize_t
quiet_step_2(Work *w, const Packing *pk, Py_ssize_t kept, Py_ssize_t c)
{
    return quiet_step_w(w, pk, kept, c, 2);
}

/* search_packed() for segments of at most 64 W words each, on PathW records (w->cur_w[0] is
 * the start path); leaves the best final path's chain in *best_chain. */
ALWAYS_INLINE int
search_packed_w(Work *w, const Packing *pk, Py_ssize_t n_ref, Py_ssize_t beam,
                int64_t *best_chain, const int W)
{
    const uint64_t one_chunk = (uint64_t)1 << pk->sh_c;
    const int sh_p = pk->sh_p;
    const uint64_t slot_mask = sh_p ? (~(uint64_t)0 >> (64 - sh_p)) : 0; /* a key's bucket */
    Py_ssize_t kept = 1;
    w->cur_w[0].key = shifted((uint64_t)pk->bias, pk->sh_w);
    int maybe_synced = 1; /* whether the kept paths may share idx and last_end */
    for (Py_ssize_t c = 0; c < n_ref; c++) {
        if (maybe_synced || kept == 1) {
            maybe_synced = 0;
            c = uniform_run_w(w, pk, n_ref, kept, c, W);
            if (c == n_ref) {
                break;
            }
        }
        const Py_ssize_t lo = w->first[c], hi = w->first[c + 1];
        if (quiet_position(w, c)) {
            /* After a step at a fixed match, or at a position no candidate starts at or
             * covers, every path has the same idx and last_end (with consistent coverage
             * counts; the run checks): the quiet steps after it may run as one. */
            maybe_synced = w->fixed_at[c] >= 0 || w->ref_cov[c] == 0;
            const Py_ssize_t n = (W == 1 ? quiet_step_1 : quiet_step_2)(w, pk, kept, c);
            kept = n > 0 ? n : 1; /* none: the jar warns and carries on with the best path */
            continue;
        }
        /* From here on the position has candidates and none is fixed (a fixed match is the
         * only candidate at its position): a path whose position c is used is inside a match
         * chosen earlier, and passes through. */
        maybe_synced = 0;
        const Py_ssize_t n_b = hi - lo + 1, skip_b = hi - lo;
        if (GROW(w->bucket_n, w->bucket_cap, n_b) < 0 ||
            GROW(w->bucket_at, w->bucket_at_cap, 2 * n_b) < 0 ||
            GROW(w->bucket_head, w->bucket_head_cap, n_b + 1) < 0) {
            return -1;
        }
        Py_ssize_t *count = w->bucket_n;
        const int ref_word = W == 1 ? 0 : (int)(c >> 6);
        const uint64_t ref_bit = (uint64_t)1 << (c & 63);
        /* Bucket b is w->keys[b * stride + 1 ..), after a sentinel key 0 at w->keys[b * stride]:
         * no key is below it, so an insertion stops there without a test of the place. */
        uint64_t *const keys = w->keys + 1;
        const Py_ssize_t stride = kept + 1;
        uint64_t *const skip_keys = keys + skip_b * stride;
        skip_keys[-1] = 0;
        const int rest = load_step_w(w, pk, lo, hi, c, w->keys, stride, W);
        if (rest < 0) {
            return -1;
        }
        CandW *const step = w->cand_w;
        CandW *const step_end = step + skip_b;
        /* Each candidate bucket is kept sorted as it is filled (a key is nearly always above
         * the one before it), so no pass sorts it afterwards when the step's buckets are
         * merged; a step whose buckets are not merged (more than BUCKET_MERGE_MAX of them, or
         * more than BUCKET_MAX_KEPT paths) sorts all its keys together in order_step(), and
         * filing its buckets the same way keeps the loop free of a test of which kind of step
         * it is. */
        const int merged = n_b <= BUCKET_MERGE_MAX && kept <= BUCKET_MAX_KEPT;
        Py_ssize_t n_cand = 0;
        int skip_unsorted = 0; /* whether a skip key came below an earlier one */
        FileStep fs = {w->cur_w, kept, step, step_end, {0, 0}, (uint64_t)skip_b, ref_word,
                       ref_bit, one_chunk, c};
        for (const CandW *sc = step; sc < step_end; sc++) {
            for (int i = 0; i < W; i++) {
                fs.any_hyp[i] |= sc->hyp_mask[i];
            }
        }
        const uint64_t *const skip_end = rest ? file_step(&fs, skip_keys, &skip_unsorted, W, 1)
                                              : file_step(&fs, skip_keys, &skip_unsorted, W, 0);
        const Py_ssize_t n_skip = skip_end - skip_keys;
        count[skip_b] = n_skip;
        for (Py_ssize_t b = 0; b < skip_b; b++) {
            count[b] = step[b].end - (keys + b * stride);
            n_cand += count[b];
        }
        const Py_ssize_t n = n_cand + n_skip;
        if (n == 0) { /* the jar warns and carries on with the best path */
            kept = 1;
            continue;
        }
        const Py_ssize_t k = n < beam ? n : beam;
        if (n_cand == 0 && n == kept) {
            /* One successor per path, in parent order, the same bits: no cut, maybe a new
             * order. */
            if (!skip_unsorted) { /* in parent order already */
                PathW *const head = w->cur_w;
                for (Py_ssize_t p = 0; p < n; p++) {
                    head[p].key = skip_keys[p] & ~slot_mask; /* its index stays p */
                    if (!(head[p].ref[ref_word] & ref_bit)) { /* the skip (a pass-through
                                                                 * keeps idx and last_end) */
                        head[p].idx = (int16_t)(head[p].idx + 1);
                        head[p].last_end = -1;
                    }
                }
                continue;
            }
            if ((W == 1 ? materialise_1 : materialise_2)(w, pk, skip_keys, n, skip_b, c) < 0) {
                return -1;
            }
        }
        else {
            if (merged) { /* every bucket is sorted already */
                if ((W == 1 ? merge_paths_1 : merge_paths_2)(w, pk, keys, stride, count, n_b, k,
                                                             slot_mask, c) < 0) {
                    return -1;
                }
            }
            else {
                const uint64_t *out = order_step(w, keys, stride, count, n_b, n, k, slot_mask);
                if ((W == 1 ? materialise_1 : materialise_2)(w, pk, out, k, skip_b, c) < 0) {
                    return -1;
                }
            }
        }
        PathW *t = w->cur_w;
        w->cur_w = w->new_w;
        w->new_w = t;
        kept = k;
    }
    SET_FINAL_CHAIN(best_chain, w->cur_w, kept, one_chunk);
    return 0;
}

/* search_packed_w() for segments of at most 64 words each (one bit word a segment). */
static int
search_packed_1(Work *w, const Packing *pk, Py_ssize_t n_ref, Py_ssize_t beam,
                int64_t *best_chain)
{
    return search_packed_w(w, pk, n_ref, beam, best_chain, 1);
}

/* search_packed_w() for segments of at most 128 words each (two bit words a segment). */
static int
search_packed_2(Work *w, const Packing *pk, Py_ssize_t n_ref, Py_ssize_t beam,
                int64_t *best_chain)
{
    return search_packed_w(w, pk, n_ref, beam, best_chain, 2);
}

/* The steps of search() with each rank field apart, sorted by rank_less() (ranks too wide to
 * pack: pk is unused); leaves the best final path's chain in *best_chain. */
static int
search_general(Work *w, const Packing *pk, Py_ssize_t n_ref, Py_ssize_t beam, Py_ssize_t wh,
               Py_ssize_t bw, int64_t *best_chain)
{
    (void)pk;
    int64_t *gain = w->fan_gain;
    Py_ssize_t kept = 1;
    for (Py_ssize_t c = 0; c < n_ref; c++) {
        const Py_ssize_t lo = w->first[c], hi = w->first[c + 1];
        for (Py_ssize_t k = lo; k < hi; k++) { /* the step's gains, once for all its paths */
            gain[k - lo] = entry_gain(w, &w->entries[k]);
        }
        const Py_ssize_t ref_word = wh + (c >> 6);
        const uint64_t ref_bit = (uint64_t)1 << (c & 63);
        Succ *succ = w->succ;
        Py_ssize_t n = 0;
        for (Py_ssize_t p = 0; p < kept; p++) {
            const Head *h = &w->cur_head[p];
            const uint64_t *bits = w->cur_bits + p * bw;
            if (bits[ref_word] & ref_bit) {
                Succ *s = &succ[n];
                if (c < h->idx) { /* inside a match chosen earlier: pass through */
                    s->neg_w = h->neg_w;
                    s->chunks = h->chunks;
                    s->dist = h->dist;
                    s->idx = h->idx;
                    s->last_end = h->last_end;
                }
                else {
                    const Py_ssize_t f = w->fixed_at[c];
                    if (f < 0) { /* unreachable with consistent fixed matches */
                        continue;
                    }
                    const Entry *m = &w->entries[f];
                    s->neg_w = h->neg_w - entry_gain(w, m);
                    s->chunks =
                        h->chunks + (h->last_end != -1 && m->hyp_start != h->last_end);
                    s->dist = h->dist + entry_offset(m, c);
                    s->idx = c + m->ref_len;
                    s->last_end = m->hyp_start + m->hyp_len;
                }
                s->parent = (int32_t)p;
                s->cand = -1;
                n++;
                continue;
            }
            const int64_t last_end = h->last_end;
            int64_t dist = h->dist;
            for (Py_ssize_t k = lo; k < hi; k++) {
                const Entry *m = &w->entries[k];
                if (!entry_free(bits, m, c, wh)) {
                    continue;
                }
                Succ *s = &succ[n++];
                s->neg_w = h->neg_w - gain[k - lo];
                s->chunks = h->chunks + (last_end != -1 && m->hyp_start != last_end);
                s->dist = dist;
                s->idx = c + m->ref_len;
                s->last_end = m->hyp_start + m->hyp_len;
                s->parent = (int32_t)p;
                s->cand = (int32_t)k;
                dist += entry_offset(m, c);
            }
            Succ *s = &succ[n++];
            s->neg_w = h->neg_w;
            s->chunks = h->chunks + (last_end != -1);
            s->dist = dist;
            s->idx = h->idx + 1;
            s->last_end = -1;
            s->parent = (int32_t)p;
            s->cand = -1;
        }
        Py_ssize_t k;
        if (n == 0) { /* the jar warns and carries on with the best path */
            w->new_head[0] = w->cur_head[0];
            memcpy(w->new_bits, w->cur_bits, (size_t)bw * sizeof(uint64_t));
            k = 1;
        }
        else {
            k = n < beam ? n : beam;
            select_best_succ(w->succ, n, k, w->keys, w->tmp);
            if (materialise(w, k, bw, c, wh) < 0) {
                return -1;
            }
        }
        next_generation(w);
        kept = k;
    }
    /* After the last position: close open chunks, then the best path (first among equals
     * in the current order, which is the stable sort's). */
    Py_ssize_t best = 0;
    for (Py_ssize_t p = 0; p < kept; p++) {
        Head *h = &w->cur_head[p];
        if (h->last_end != -1) {
            h->chunks += 1;
        }
        const Head *b = &w->cur_head[best];
        if (h->neg_w < b->neg_w ||
            (h->neg_w == b->neg_w &&
             (h->chunks < b->chunks || (h->chunks == b->chunks && h->dist < b->dist)))) {
            best = p;
        }
    }
    *best_chain = w->cur_head[best].chain;
    return 0;
}

/* The beam search proper over the loaded store; fills w->assigned (entry per position). */
int
search(Work *w, Py_ssize_t n_hyp, Py_ssize_t n_ref, Py_ssize_t beam)
{
    /* The objective is a 64-bit integer (as the jar's): refuse weights that could overflow it
     * instead of returning another alignment (align.search.check_objective_weights, the same
     * rule in the twin). One product per pair: the bound is read with the weights, and the
     * weight at fault is looked for only when it fails. */
    const double words = (double)(n_hyp + n_ref);
    if (!(w->weight_bound * words < OBJECTIVE_LIMIT)) {
        for (Py_ssize_t k = 0; k < w->n_weights; k++) {
            const double a = w->weight[k];
            if (!(fabs(a) * words < OBJECTIVE_LIMIT)) {
                char *text = PyOS_double_to_string(a, 'r', 0, Py_DTSF_ADD_DOT_0, NULL);
                PyErr_Format(PyExc_ValueError,
                             "aligner_weights[%zd]: %s for %zd + %zd words could overflow the "
                             "search's 64-bit objective (|weight| x words must stay below "
                             "2**62)",
                             k, text != NULL ? text : "?", n_hyp, n_ref);
                PyMem_Free(text);
                return -1;
            }
        }
    }
    /* Fixed matches (spec 4.1), and in the same pass the buffers' sizes: the most paths any
     * step keeps (min(beam, product of (candidates + 1))), the most successors any step
     * generates (paths kept times (candidates + 1)) and the most candidates at a position plus
     * the skip. A product past 2**31 - 1 is an error only if the pair is searched. */
    Py_ssize_t n_fixed = 0;
    Py_ssize_t cap = 1, most = 1, most_succ = 1, most_fan = 1;
    int fan_ok = 1;
    w->nodes = 0;
    for (Py_ssize_t j = 0; j < n_ref; j++) {
        const Py_ssize_t fan = w->first[j + 1] - w->first[j] + 1;
        most_fan = fan > most_fan ? fan : most_fan;
        if (fan_ok) {
            /* cap <= 2**31 - 1 and fan <= 2**31 (at most 2**31 - 1 candidates): the product
             * fits in 64 bits, also where Py_ssize_t has 32 */
            const int64_t product = (int64_t)cap * (int64_t)fan;
            fan_ok = product <= INT32_MAX;
            if (fan_ok) {
                const Py_ssize_t succ = (Py_ssize_t)product;
                most_succ = succ > most_succ ? succ : most_succ;
                cap = succ > beam ? beam : succ;
                most = cap > most ? cap : most;
            }
        }
        w->fixed_at[j] = -1;
        w->assigned[j] = -1;
        if (fan != 2) {
            continue;
        }
        const Entry *c = &w->entries[w->first[j]];
        int ok = 1;
        for (Py_ssize_t r = j; ok && r < j + c->ref_len; r++) {
            ok = w->ref_cov[r] == 1;
        }
        for (int64_t h = c->hyp_start; ok && h < c->hyp_start + c->hyp_len; h++) {
            ok = w->hyp_cov[h] == 1;
        }
        if (ok) {
            w->fixed_at[j] = w->first[j];
            w->assigned[j] = w->first[j];
            n_fixed++;
        }
    }
    if (n_fixed != w->n_cands) {
        if (!fan_ok) {
            PyErr_SetString(PyExc_OverflowError, "beam search: too many partial alignments");
            return -1;
        }
        const Py_ssize_t wh = (n_hyp + 63) / 64, wr = (n_ref + 63) / 64, bw = wh + wr;
        /* Buffers in pairs share one capacity (they grow by the same rule from the same
         * size): new_head with cur_head, new_bits with cur_bits, keys and tmp with succ.
         * search_packed_w() puts a sentinel before each of a step's buckets: most_fan more. */
        const Py_ssize_t n_keys = most_succ + most_fan;
        Py_ssize_t head_cap = w->head_cap, bits_cap = w->bits_cap;
        Py_ssize_t keys_cap = w->succ_cap, tmp_cap = w->succ_cap;
        if (GROW(w->cur_head, w->head_cap, most) < 0 ||
            grow((void **)&w->new_head, &head_cap, most, sizeof(Head)) < 0 ||
            GROW(w->cur_bits, w->bits_cap, most * bw) < 0 ||
            grow((void **)&w->new_bits, &bits_cap, most * bw, sizeof(uint64_t)) < 0 ||
            GROW(w->succ, w->succ_cap, n_keys) < 0 ||
            grow((void **)&w->keys, &keys_cap, n_keys, sizeof(uint64_t)) < 0 ||
            grow((void **)&w->tmp, &tmp_cap, n_keys, sizeof(uint64_t)) < 0) {
            return -1;
        }
        /* Pairs of up to 128 words a side keep each entry's gain (a few thousand entries);
         * longer ones, whose entries can number millions, make a step's gains at the step. */
        const int words_w = n_hyp >= 1 && n_hyp <= 128 && n_ref <= 128;
        if ((words_w && GROW(w->gain, w->gain_cap, w->n_cands ? w->n_cands : 1) < 0) ||
            GROW(w->fan_gain, w->fan_gain_cap, most_fan) < 0) {
            return -1;
        }
        /* Each entry's gain (kept for pairs of up to 128 words), the bounds of the rank
         * fields, the start path's bits (the fixed matches'), in one pass over the positions. */
        memset(w->cur_bits, 0, (size_t)bw * sizeof(uint64_t));
        RankBounds rb = {0, 0, 0, 0};
        for (Py_ssize_t j = 0; j < n_ref; j++) {
            for (Py_ssize_t k = w->first[j]; k < w->first[j + 1]; k++) {
                const Entry *e = &w->entries[k];
                const int64_t gain = entry_gain(w, e);
                if (words_w) {
                    w->gain[k] = gain;
                }
                bounds_add(&rb, gain, entry_offset(e, j));
            }
            if (w->fixed_at[j] >= 0) {
                const Entry *c = &w->entries[w->fixed_at[j]];
                if (c->hyp_len == 1 && c->ref_len == 1) { /* most: one bit each */
                    w->cur_bits[c->hyp_start >> 6] |= (uint64_t)1 << (c->hyp_start & 63);
                    w->cur_bits[wh + (j >> 6)] |= (uint64_t)1 << (j & 63);
                }
                else {
                    const Span hs = make_span(c->hyp_start, c->hyp_len, 0);
                    const Span rs = make_span(j, c->ref_len, wh);
                    span_set(w->cur_bits, &hs);
                    span_set(w->cur_bits, &rs);
                }
            }
        }
        /* The low bits of a key tell successors apart: (parent, slot) in search_packed(),
         * slot being the candidate's place at the position or one past the last for the skip
         * (the same order as generation), which also bounds the generation index; most_fan
         * (the most candidates at a position, plus the skip) is taken in the loop above. */
        const int sh_p = bit_width((uint64_t)(most_fan - 1));
        Packing pk = packing_for(&rb, n_ref, bit_width((uint64_t)(most - 1)) + sh_p);
        pk.sh_p = sh_p;
        const Head start = {0, 0, 0, 0, -1, -1, 0};
        w->cur_head[0] = start;
        int64_t best_chain = -1;
        if (pk.packed && words_w) {
            /* both segments in at most two bit words each: cur_bits holds wh hypothesis
             * words, then wr reference words */
            Py_ssize_t cap_new = w->path_w_cap;
            if (GROW(w->cur_w, w->path_w_cap, most) < 0 ||
                grow((void **)&w->new_w, &cap_new, most, sizeof(PathW)) < 0) {
                return -1;
            }
            PathW *start_w = &w->cur_w[0];
            memset(start_w, 0, sizeof(*start_w));
            for (Py_ssize_t i = 0; i < wh; i++) {
                start_w->hyp[i] = w->cur_bits[i];
            }
            for (Py_ssize_t i = 0; i < wr; i++) {
                start_w->ref[i] = w->cur_bits[wh + i];
            }
            start_w->chain = -1;
            start_w->idx = 0;
            start_w->last_end = -1;
            const int one = n_hyp <= 64 && n_ref <= 64;
            if ((one ? search_packed_1 : search_packed_2)(w, &pk, n_ref, beam, &best_chain) <
                0) {
                return -1;
            }
        }
        else if ((pk.packed ? search_packed : search_general)(w, &pk, n_ref, beam, wh, bw,
                                                              &best_chain) < 0) {
            return -1;
        }
        /* The chain runs from the last chosen match back to the first, so the positions they
         * are filed under decrease along it: one walk down first[] finds them all. */
        Py_ssize_t j = n_ref - 1;
        for (int64_t node = best_chain; node != -1; node = w->node[node].parent) {
            const Py_ssize_t k = w->node[node].cand;
            while (w->first[j] > k) {
                j--;
            }
            w->assigned[j] = k;
        }
    }
    return 0;
}

/* The chosen Match objects in reference order (new list). */
static PyObject *
chosen_list(const Work *w, Py_ssize_t n_ref)
{
    Py_ssize_t n = 0;
    for (Py_ssize_t j = 0; j < n_ref; j++) {
        n += w->assigned[j] >= 0;
    }
    PyObject *result = PyList_New(n);
    if (result == NULL) {
        return NULL;
    }
    Py_ssize_t at = 0;
    for (Py_ssize_t j = 0; j < n_ref; j++) {
        if (w->assigned[j] >= 0) {
            PyObject *m = w->objs[w->assigned[j]];
            Py_INCREF(m);
            PyList_SET_ITEM(result, at++, m);
        }
    }
    return result;
}

/* What align() and align_stages() share once their candidates are read: the store loaded from
 * raw, its coverage counts replaced by hyp_cov and ref_cov when given (align()), the search and
 * the chosen Match list; NULL with an exception set. */
static PyObject *
align_raw(const Cand *raw, Py_ssize_t n_cands, Py_ssize_t n_hyp, Py_ssize_t n_ref,
          PyObject *weights_obj, Py_ssize_t beam, const int64_t *hyp_cov, const int64_t *ref_cov)
{
    Work w;
    memset(&w, 0, sizeof(w));
    PyObject *result = NULL;
    if (read_weights(&w, weights_obj) < 0 || load_raw(&w, raw, n_cands, n_hyp, n_ref, 1) < 0) {
        goto done;
    }
    if (hyp_cov != NULL) {
        /* the store's own coverage counts, as given */
        memcpy(w.hyp_cov, hyp_cov, (size_t)n_hyp * sizeof(int64_t));
        memcpy(w.ref_cov, ref_cov, (size_t)n_ref * sizeof(int64_t));
    }
    if (search(&w, n_hyp, n_ref, beam) < 0) {
        goto done;
    }
    result = chosen_list(&w, n_ref);
done:
    work_free(&w);
    return result;
}

PyObject *
beam_align_c(PyObject *self, PyObject *args)
{
    PyObject *by_ref_obj, *hyp_cov_obj, *ref_cov_obj, *weights_obj;
    Py_ssize_t beam;
    if (!PyArg_ParseTuple(args, "OOOOn:align", &by_ref_obj, &hyp_cov_obj, &ref_cov_obj,
                          &weights_obj, &beam)) {
        return NULL;
    }
    if (beam < 1) {
        PyErr_SetString(PyExc_ValueError, "beam: must be at least 1");
        return NULL;
    }
    PyObject *result = NULL;
    Py_ssize_t n_hyp = 0, n_ref_cov = 0, n_cands = 0;
    int64_t *hyp_cov = NULL, *ref_cov = NULL;
    Cand *raw = NULL;
    PyObject *by_ref = PySequence_Fast(by_ref_obj, "by_ref: expected a sequence of candidate lists");
    if (by_ref == NULL) {
        return NULL;
    }
    const Py_ssize_t n_ref = PySequence_Fast_GET_SIZE(by_ref);
    if (read_int64_sides(hyp_cov_obj, ref_cov_obj, "coverage: expected a sequence of ints",
                         "coverage: expected a sequence of ints", &hyp_cov, &n_hyp, &ref_cov,
                         &n_ref_cov) < 0) {
        goto done;
    }
    if (n_ref_cov != n_ref) {
        PyErr_SetString(PyExc_ValueError, "ref_coverage and by_ref differ in length");
        goto done;
    }
    raw = read_lists(by_ref, n_hyp, n_ref, 1, &n_cands, "by_ref");
    if (raw != NULL) {
        result = align_raw(raw, n_cands, n_hyp, n_ref, weights_obj, beam, hyp_cov, ref_cov);
    }
done:
    FREE_EACH(hyp_cov, ref_cov, raw);
    Py_DECREF(by_ref);
    return result;
}

/*
 * align_stages(stage_lists, n_hyp, n_ref, aligner_weights, beam) -> list
 *
 * align() on the candidate store that appending each stage's list in order would build: the
 * lists are distributed to their reference positions (a stable bucket pass, so each position
 * keeps stage order, then each stage's own order) and both coverage counts are taken here, so
 * the caller builds no store and no intermediate Python object is made.
 */
PyObject *
align_stages_c(PyObject *self, PyObject *args)
{
    PyObject *lists_obj, *weights_obj;
    Py_ssize_t n_hyp, n_ref, beam;
    if (!PyArg_ParseTuple(args, "OnnOn:align_stages", &lists_obj, &n_hyp, &n_ref, &weights_obj,
                          &beam)) {
        return NULL;
    }
    if (n_hyp < 0 || n_ref < 0) {
        PyErr_SetString(PyExc_ValueError, "segment lengths must not be negative");
        return NULL;
    }
    if (beam < 1) {
        PyErr_SetString(PyExc_ValueError, "beam: must be at least 1");
        return NULL;
    }
    PyObject *lists = PySequence_Fast(lists_obj, "stage_lists: expected a sequence of lists");
    if (lists == NULL) {
        return NULL;
    }
    PyObject *result = NULL;
    Py_ssize_t n_cands = 0;
    Cand *raw = read_lists(lists, n_hyp, n_ref, 0, &n_cands, "stage_lists");
    if (raw != NULL) {
        result = align_raw(raw, n_cands, n_hyp, n_ref, weights_obj, beam, NULL, NULL);
    }
    PyMem_Free(raw);
    Py_DECREF(lists);
    return result;
}
