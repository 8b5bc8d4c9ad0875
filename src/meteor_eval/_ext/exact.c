/*
 * The exact per-stage search of the 2005 paper's alignment (flavour paper2005): the branch and
 * bound of meteor_eval.align._exact_search._Search, its pure-Python twin, in C (exact_search).
 *
 * Node for node the same search: the same greedy dive along the smallest bound, then the same
 * depth-first walk in the order of assignment vectors, every cut and bound computed the same
 * way, and the same budget accounting (a node at depth i costs node_cost[i] units whether it
 * is kept or cut), so a search cut by its budget stops at the same node and returns the same
 * alignment. The twin's docstrings explain why each cut is sound; this file only mirrors them.
 *
 * Sets are bit sets of W words (chosen and dead refs, the seen vertices of an augmenting-path
 * search). Where the twin copies a node's lists into each child, this file keeps one current
 * state (the chosen and dead refs and the matching of the undecided part) and an undo log of
 * its changes: making a child logs what it changes, and leaving it (a cut, or the walk going
 * back up) takes the log back to the child's mark. So memory is linear in the graph plus the
 * log, which holds the changes along the current path (each paid for in budget units), and a
 * few numbers (matches, crossings, matching size, mark) per depth. The dive makes each option,
 * takes it back, and makes the best one again. Nothing recurses: the walk keeps an explicit
 * stack and augmenting paths are breadth-first searches.
 *
 * exact_stages runs exhaustive.align_stages_bounded whole (each stage's filtering, components,
 * forced blocks and search) when the stages are a list or tuple of lists or tuples of
 * (int, int) tuples with non-negative positions below 2**31, and returns None otherwise, so
 * that the Python code handles (and names) anything else.
 */

#include "kernels.h"

#define EX_INF ((int64_t)1 << 60)
#define EX_NODE_COST 64 /* _exact_search._NODE_COST */

DEFINE_INSERTION_SORT(ex_cost, int64_t)
DEFINE_HEAP_SORT(ex_cost, int64_t)

/* a[0 .. n) ascending: nothing to do when it already is (candidates mostly come sorted),
 * insertion for short arrays, heap sort otherwise (no callback per comparison). */
static void
sort_int64(int64_t *a, Py_ssize_t n)
{
    Py_ssize_t k = 1;
    while (k < n && a[k - 1] <= a[k]) {
        k++;
    }
    if (k >= n) {
        return;
    }
    if (n <= 32) {
        insertion_sort_ex_cost(a, n);
    }
    else {
        heap_sort_ex_cost(a, n);
    }
}

/* A node's numbers; its sets and matching are the search's current state (Ex), which an undo
 * log takes back to the node's parent from mark on. */
typedef struct {
    int64_t size, cross, nu; /* matches, crossings, size of the undecided part's matching */
    Py_ssize_t mark;         /* the undo log's length before the node was made */
} ExNode;

/* One change of the current state: a matching entry (at32) or a bit-set word (at64) and the
 * value it had. */
typedef struct {
    int32_t *at32;
    uint64_t *at64;
    uint64_t old;
} ExUndo;

typedef struct {
    int32_t nh, nr;       /* undecided hyps and refs of the component */
    int32_t *hyps, *refs; /* local indices, ascending */
    int block;            /* complete bipartite? */
    int64_t *table;       /* blocks only: nh * nr crossings with the placed pairs */
} ExComp;

typedef struct {
    int32_t hl, hh, rl, rh, group;
} ExBox;

typedef struct {
    int32_t n, m, W, Wn; /* hyps, refs, words of a ref set, words of a hyp set */
    int64_t left, best_cross, target;
    int64_t *hyp_pos, *ref_pos;
    int32_t *adj_start, *adj; /* hyp -> refs (CSR, ascending) */
    int64_t *adj_static;      /* per edge: crossings with the pairs already placed */
    int32_t *radj_start, *radj;
    int64_t *node_cost;
    int32_t ncomps;
    ExComp *comps;
    int32_t *comp_hyps, *comp_refs; /* storage of every component's hyps and refs */
    int64_t *tables;
    int32_t *comp_of, *left_in_comp, *twin_prev;
    int32_t *rtwin_head, *rtwin_next; /* per ref: lowest ref of its twin group, next higher */
    int32_t *choice, *incumbent, *mate_h, *mate_r;
    ExNode *slots; /* the walk's path: depth 0 .. n */
    /* the current node's state and the undo log back to the root */
    uint64_t *chosen, *dead; /* W words each */
    int32_t *mh, *mr;
    ExUndo *log;
    Py_ssize_t log_n, log_cap;
    int oom; /* the log could not grow: the search stops with MemoryError */
    /* scratch */
    int32_t *queue, *came_from, *live;
    uint64_t *seen;
    int64_t *extra, *dp, *costs;
    ExBox *boxes;
    int32_t nboxes, ngroups;
} Ex;

/* -- bit sets ------------------------------------------------------------------------------ */

static inline int
bit_get(const uint64_t *bits, int32_t y)
{
    return (int)((bits[y >> 6] >> (y & 63)) & 1);
}

static inline void
bit_set(uint64_t *bits, int32_t y)
{
    bits[y >> 6] |= (uint64_t)1 << (y & 63);
}

/* How many bits of bits (W words) lie above y. */
static inline int64_t
count_above(const uint64_t *bits, int32_t W, int32_t y)
{
    int32_t w = (y + 1) >> 6;
    if (w >= W) {
        return 0;
    }
    int64_t c = __builtin_popcountll(bits[w] >> ((y + 1) & 63));
    for (w++; w < W; w++) {
        c += __builtin_popcountll(bits[w]);
    }
    return c;
}

static inline int64_t
min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* -- set-up -------------------------------------------------------------------------------- */

static void
ex_free(Ex *s)
{
    FREE_EACH(s->chosen, s->dead, s->mh, s->mr, s->log, s->hyp_pos, s->ref_pos, s->adj_start, s->adj, s->adj_static, s->radj_start,
              s->radj, s->node_cost, s->comps, s->comp_hyps, s->comp_refs, s->tables, s->comp_of,
              s->left_in_comp, s->twin_prev, s->rtwin_head, s->rtwin_next, s->choice,
              s->incumbent, s->mate_h, s->mate_r, s->slots, s->queue, s->came_from, s->live,
              s->seen, s->extra, s->dp, s->costs, s->boxes);
}

/* -- the current state and its undo log ---------------------------------------------------- */

static inline void
log_change(Ex *s, int32_t *at32, uint64_t *at64, uint64_t old)
{
    if (s->log_n == s->log_cap &&
        grow((void **)&s->log, &s->log_cap, s->log_n + 1, sizeof(ExUndo)) < 0) {
        PyErr_Clear(); /* reported as MemoryError once the search stops */
        s->oom = 1;
        return;
    }
    ExUndo *u = &s->log[s->log_n++];
    u->at32 = at32;
    u->at64 = at64;
    u->old = old;
}

/* *at = v, logged. */
static inline void
set_entry(Ex *s, int32_t *at, int32_t v)
{
    if (*at != v) {
        log_change(s, at, NULL, (uint64_t)(uint32_t)*at);
        *at = v;
    }
}

/* Bit y of bits set, logged. */
static inline void
set_bit_logged(Ex *s, uint64_t *bits, int32_t y)
{
    uint64_t *word = &bits[y >> 6];
    uint64_t v = *word | ((uint64_t)1 << (y & 63));
    if (v != *word) {
        log_change(s, NULL, word, *word);
        *word = v;
    }
}

/* Back to the state of the log's first mark changes. */
static void
undo_to(Ex *s, Py_ssize_t mark)
{
    while (s->log_n > mark) {
        ExUndo *u = &s->log[--s->log_n];
        if (u->at32 != NULL) {
            *u->at32 = (int32_t)(uint32_t)u->old;
        }
        else {
            *u->at64 = u->old;
        }
    }
}

typedef struct {
    int64_t h, r;
} ExPair;

/* A qsort comparator `name` of T ordering by the field first, then by the field second. */
#define TWO_FIELD_CMP(name, T, first, second)                                                      \
    static int name(const void *a, const void *b)                                                  \
    {                                                                                              \
        const T *x = a, *y = b;                                                                    \
        if (x->first != y->first) {                                                                \
            return x->first < y->first ? -1 : 1;                                                   \
        }                                                                                          \
        return (x->second > y->second) - (x->second < y->second);                                  \
    }

TWO_FIELD_CMP(pair_cmp, ExPair, h, r)

typedef struct {
    uint64_t key;
    int32_t idx;
} ExKey;

TWO_FIELD_CMP(key_cmp, ExKey, key, idx)

static int
same_list(const int32_t *start, const int32_t *list, int32_t a, int32_t b)
{
    int32_t la = start[a + 1] - start[a], lb = start[b + 1] - start[b];
    return la == lb && memcmp(list + start[a], list + start[b], (size_t)la * sizeof(int32_t)) == 0;
}

/* Per vertex, the previous vertex with the same neighbour list (-1: none), in out. */
static int
previous_twins(int32_t count, const int32_t *start, const int32_t *list, int32_t *out)
{
    ExKey *keys = PyMem_Malloc(((size_t)count + 1) * sizeof(ExKey));
    if (keys == NULL) {
        return -1;
    }
    for (int32_t v = 0; v < count; v++) {
        uint64_t h = 1469598103934665603ULL ^ (uint64_t)(start[v + 1] - start[v]);
        for (int32_t e = start[v]; e < start[v + 1]; e++) {
            h = (h ^ (uint64_t)list[e]) * 1099511628211ULL;
        }
        keys[v].key = h;
        keys[v].idx = v;
        out[v] = -1;
    }
    qsort(keys, (size_t)count, sizeof(ExKey), key_cmp);
    int32_t run = 0;
    for (int32_t k = 0; k < count; k++) {
        if (k > 0 && keys[k].key != keys[k - 1].key) {
            run = k;
        }
        for (int32_t q = k - 1; q >= run; q--) {
            if (same_list(start, list, keys[q].idx, keys[k].idx)) {
                out[keys[k].idx] = keys[q].idx;
                break;
            }
        }
    }
    PyMem_Free(keys);
    return 0;
}

/* Reads one (h, r) pair of ints into p; -1 with TypeError otherwise. */
static int
read_pair(PyObject *item, ExPair *p)
{
    if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2) {
        PyErr_SetString(PyExc_TypeError, "exact_search() takes (hyp, ref) tuples of ints");
        return -1;
    }
    p->h = PyLong_AsLongLong(PyTuple_GET_ITEM(item, 0));
    if (p->h == -1 && PyErr_Occurred()) {
        return -1;
    }
    p->r = PyLong_AsLongLong(PyTuple_GET_ITEM(item, 1));
    if (p->r == -1 && PyErr_Occurred()) {
        return -1;
    }
    return 0;
}

/* The first index of sorted[0..count) whose value is not below v (count when none). */
static Py_ssize_t
lower_bound(const int64_t *sorted, Py_ssize_t count, int64_t v)
{
    Py_ssize_t lo = 0, hi = count;
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        if (sorted[mid] < v) {
            lo = mid + 1;
        }
        else {
            hi = mid;
        }
    }
    return lo;
}

static int32_t
find_pos(const int64_t *sorted, int32_t count, int64_t v)
{
    return (int32_t)lower_bound(sorted, count, v);
}

#define EX_ALLOC(ptr, count)                                                                       \
    do {                                                                                           \
        (ptr) = PyMem_Calloc((size_t)(count) + 1, sizeof(*(ptr)));                                 \
        if ((ptr) == NULL) {                                                                       \
            goto nomem;                                                                            \
        }                                                                                          \
    } while (0)

static int augment(Ex *s, int32_t u, const int32_t *start, const int32_t *list, int32_t *mate,
                   int32_t *back);

/* Everything _Search.__init__ builds; -1 with an exception set. edges: every edge, in the
 * caller's order, and edge_comp the index of its component. */
static int
ex_setup(Ex *s, ExPair *edges, int32_t *edge_comp, int32_t n_edges, int32_t ncomps,
         const ExPair *base, Py_ssize_t n_base)
{
    /* Sort the edges by (h, r), carrying their component along: pack the component into a
     * parallel array through an index sort. */
    ExPair *sorted = NULL;
    int64_t *rs = NULL;
    int32_t *tmp = NULL;
    EX_ALLOC(sorted, n_edges);
    /* The edges are distinct, so (h, r) is a total order; each edge's component is found
     * again through its positions below. */
    memcpy(sorted, edges, (size_t)n_edges * sizeof(ExPair));
    {
        int32_t k = 1;
        while (k < n_edges && pair_cmp(&sorted[k - 1], &sorted[k]) < 0) {
            k++;
        }
        if (k < n_edges) {
            qsort(sorted, (size_t)n_edges, sizeof(ExPair), pair_cmp);
        }
    }
    int32_t n = 0;
    for (int32_t e = 0; e < n_edges; e++) {
        if (e == 0 || sorted[e].h != sorted[e - 1].h) {
            n++;
        }
    }
    EX_ALLOC(rs, n_edges);
    for (int32_t e = 0; e < n_edges; e++) {
        rs[e] = sorted[e].r;
    }
    sort_int64(rs, n_edges);
    int32_t m = 0;
    for (int32_t e = 0; e < n_edges; e++) {
        if (e == 0 || rs[e] != rs[m - 1]) {
            rs[m++] = rs[e];
        }
    }
    s->n = n;
    s->m = m;
    s->W = (m + 63) / 64;
    s->Wn = (n + 63) / 64;
    s->ref_pos = rs;
    rs = NULL;
    EX_ALLOC(s->hyp_pos, n);
    EX_ALLOC(s->adj_start, n + 1);
    EX_ALLOC(s->adj, n_edges);
    EX_ALLOC(s->adj_static, n_edges);
    EX_ALLOC(s->radj_start, m + 1);
    EX_ALLOC(s->radj, n_edges);
    int32_t i = -1;
    for (int32_t e = 0; e < n_edges; e++) {
        if (e == 0 || sorted[e].h != sorted[e - 1].h) {
            i++;
            s->hyp_pos[i] = sorted[e].h;
            s->adj_start[i] = e;
        }
        int32_t j = find_pos(s->ref_pos, m, sorted[e].r);
        s->adj[e] = j;
        s->radj_start[j + 1]++;
        int64_t crossings = 0;
        for (Py_ssize_t b = 0; b < n_base; b++) {
            crossings += (base[b].h < sorted[e].h) != (base[b].r < sorted[e].r);
        }
        s->adj_static[e] = crossings;
    }
    s->adj_start[n] = n_edges;
    for (int32_t j = 0; j < m; j++) {
        s->radj_start[j + 1] += s->radj_start[j];
    }
    EX_ALLOC(tmp, m);
    for (int32_t x = 0; x < n; x++) {
        for (int32_t e = s->adj_start[x]; e < s->adj_start[x + 1]; e++) {
            int32_t j = s->adj[e];
            s->radj[s->radj_start[j] + tmp[j]++] = x;
        }
    }
    EX_ALLOC(s->node_cost, n);
    int64_t pairs_after = 0;
    for (int32_t x = n - 1; x >= 0; x--) {
        s->node_cost[x] = EX_NODE_COST + n + pairs_after;
        pairs_after += s->adj_start[x + 1] - s->adj_start[x];
    }

    /* Components: each hyp's component from its edges (in the caller's order). */
    EX_ALLOC(s->comp_of, n);
    EX_ALLOC(s->left_in_comp, n);
    int32_t *ref_comp = tmp; /* reuse: m entries */
    for (int32_t e = 0; e < n_edges; e++) {
        int32_t x = find_pos(s->hyp_pos, n, edges[e].h);
        int32_t j = find_pos(s->ref_pos, m, edges[e].r);
        s->comp_of[x] = edge_comp[e];
        ref_comp[j] = edge_comp[e];
    }
    s->ncomps = ncomps;
    EX_ALLOC(s->comps, ncomps);
    EX_ALLOC(s->comp_hyps, n);
    EX_ALLOC(s->comp_refs, m);
    int64_t table_size = 0;
    for (int32_t x = 0; x < n; x++) {
        s->comps[s->comp_of[x]].nh++;
    }
    for (int32_t j = 0; j < m; j++) {
        s->comps[ref_comp[j]].nr++;
    }
    {
        int32_t at_h = 0, at_r = 0;
        for (int32_t c = 0; c < ncomps; c++) {
            ExComp *comp = &s->comps[c];
            comp->hyps = s->comp_hyps + at_h;
            comp->refs = s->comp_refs + at_r;
            at_h += comp->nh;
            at_r += comp->nr;
            comp->nh = comp->nr = 0;
        }
    }
    for (int32_t x = 0; x < n; x++) {
        ExComp *comp = &s->comps[s->comp_of[x]];
        comp->hyps[comp->nh++] = x;
    }
    for (int32_t j = 0; j < m; j++) {
        ExComp *comp = &s->comps[ref_comp[j]];
        comp->refs[comp->nr++] = j;
    }
    for (int32_t c = 0; c < ncomps; c++) {
        ExComp *comp = &s->comps[c];
        int64_t edges_in = 0;
        for (int32_t t = 0; t < comp->nh; t++) {
            int32_t x = comp->hyps[t];
            edges_in += s->adj_start[x + 1] - s->adj_start[x];
            s->left_in_comp[x] = comp->nh - t;
        }
        comp->block = edges_in == (int64_t)comp->nh * comp->nr;
        if (comp->block) {
            table_size += (int64_t)comp->nh * comp->nr;
        }
    }
    EX_ALLOC(s->tables, table_size);
    {
        int64_t at = 0;
        for (int32_t c = 0; c < ncomps; c++) {
            ExComp *comp = &s->comps[c];
            if (!comp->block) {
                continue;
            }
            comp->table = s->tables + at;
            /* A complete block: each hyp's adjacency is exactly the block's refs. */
            for (int32_t t = 0; t < comp->nh; t++) {
                memcpy(comp->table + (int64_t)t * comp->nr,
                       s->adj_static + s->adj_start[comp->hyps[t]],
                       (size_t)comp->nr * sizeof(int64_t));
            }
            at += (int64_t)comp->nh * comp->nr;
        }
    }

    /* Twins. */
    EX_ALLOC(s->twin_prev, n);
    EX_ALLOC(s->rtwin_head, m);
    EX_ALLOC(s->rtwin_next, m);
    if (previous_twins(n, s->adj_start, s->adj, s->twin_prev) < 0) {
        goto nomem;
    }
    if (previous_twins(m, s->radj_start, s->radj, tmp) < 0) {
        goto nomem;
    }
    for (int32_t j = 0; j < m; j++) {
        s->rtwin_next[j] = -1;
        if (tmp[j] < 0) {
            s->rtwin_head[j] = j;
        }
        else {
            s->rtwin_head[j] = s->rtwin_head[tmp[j]];
            s->rtwin_next[tmp[j]] = j;
        }
    }

    /* Scratch, the root and the initial matching. */
    int32_t most = n > m ? n : m;
    EX_ALLOC(s->queue, most + 1);
    EX_ALLOC(s->came_from, most);
    EX_ALLOC(s->live, m);
    EX_ALLOC(s->seen, (s->W > s->Wn ? s->W : s->Wn));
    EX_ALLOC(s->extra, m);
    EX_ALLOC(s->dp, most + 1);
    EX_ALLOC(s->costs, n);
    EX_ALLOC(s->boxes, n);
    EX_ALLOC(s->choice, n);
    EX_ALLOC(s->incumbent, n);
    EX_ALLOC(s->mate_h, n);
    EX_ALLOC(s->mate_r, m);
    EX_ALLOC(s->slots, n + 2);
    for (int32_t x = 0; x < n; x++) {
        s->choice[x] = -1;
        s->incumbent[x] = m;
        s->mate_h[x] = -1;
    }
    for (int32_t j = 0; j < m; j++) {
        s->mate_r[j] = -1;
    }
    s->target = 0;
    for (int32_t c = 0; c < ncomps; c++) {
        ExComp *comp = &s->comps[c];
        if (comp->block) {
            s->target += comp->nh < comp->nr ? comp->nh : comp->nr;
            continue;
        }
        for (int32_t t = 0; t < comp->nh; t++) {
            memset(s->seen, 0, (size_t)s->W * sizeof(uint64_t));
            s->target += augment(s, comp->hyps[t], s->adj_start, s->adj, s->mate_h, s->mate_r);
        }
    }
    EX_ALLOC(s->chosen, s->W);
    EX_ALLOC(s->dead, s->W);
    EX_ALLOC(s->mh, n);
    EX_ALLOC(s->mr, m);
    memcpy(s->mh, s->mate_h, (size_t)n * sizeof(int32_t));
    memcpy(s->mr, s->mate_r, (size_t)m * sizeof(int32_t));
    s->log_n = 0; /* the initial matching is the root's: nothing to undo */
    ExNode *root = &s->slots[0];
    root->size = root->cross = 0;
    root->nu = s->target;
    root->mark = 0;
    s->best_cross = EX_INF;
    FREE_EACH(sorted, tmp);
    return 0;
nomem:
    FREE_EACH(sorted, rs, tmp);
    PyErr_NoMemory();
    return -1;
}

/* -- matching repairs ---------------------------------------------------------------------- */

/* _exact_search._augment: an augmenting path from the free vertex u, breadth-first, applied;
 * 1 if found. s->seen (a bit set over the other side) holds the vertices the path may
 * not use and is updated. */
static int
augment(Ex *s, int32_t u, const int32_t *start, const int32_t *list, int32_t *mate,
        int32_t *back)
{
    int32_t *queue = s->queue, *came_from = s->came_from;
    uint64_t *seen = s->seen;
    int32_t head = 0, tail = 0;
    queue[tail++] = u;
    while (head < tail) {
        int32_t x = queue[head++];
        for (int32_t e = start[x]; e < start[x + 1]; e++) {
            int32_t y = list[e];
            if (bit_get(seen, y)) {
                continue;
            }
            bit_set(seen, y);
            came_from[y] = x;
            int32_t z = back[y];
            if (z < 0) {
                for (;;) {
                    int32_t w = came_from[y];
                    int32_t prev = mate[w];
                    set_entry(s, &mate[w], y);
                    set_entry(s, &back[y], w);
                    if (w == u) {
                        return 1;
                    }
                    y = prev;
                }
            }
            queue[tail++] = z;
        }
    }
    return 0;
}

/* From a free hyp: the path may not use the dead refs. */
static inline int
augment_hyp(Ex *s, int32_t x, int32_t *mh, int32_t *mr, const uint64_t *dead)
{
    memcpy(s->seen, dead, (size_t)s->W * sizeof(uint64_t));
    return augment(s, x, s->adj_start, s->adj, mh, mr);
}

/* From a free ref: the path may not use the hyps up to i (decided ones). */
static inline int
augment_ref(Ex *s, int32_t y, int32_t *mr, int32_t *mh, int32_t i)
{
    int32_t full = (i + 1) >> 6;
    for (int32_t w = 0; w < s->Wn; w++) {
        s->seen[w] = w < full ? ~(uint64_t)0 : 0;
    }
    if (((i + 1) & 63) != 0) {
        s->seen[full] = ((uint64_t)1 << ((i + 1) & 63)) - 1;
    }
    return augment(s, y, s->radj_start, s->radj, mr, mh);
}

/* Dead refs of component c under dead. */
static inline int32_t
dead_in(const ExComp *comp, const uint64_t *dead)
{
    int32_t count = 0;
    for (int32_t t = 0; t < comp->nr; t++) {
        count += bit_get(dead, comp->refs[t]);
    }
    return count;
}

/* Ref y dies (its bit set in dead): its hyp, if any, loses it and looks for another path that
 * avoids the dead refs; what the matching's size loses (0 or 1). */
static inline int64_t
kill_ref(Ex *s, int32_t y, int32_t *mh, int32_t *mr)
{
    set_bit_logged(s, s->dead, y);
    int32_t x = mr[y];
    if (x < 0) {
        return 0;
    }
    set_entry(s, &mr[y], -1);
    set_entry(s, &mh[x], -1);
    return 1 - augment_hyp(s, x, mh, mr, s->dead);
}

/* _Search._match_child (and _child_match): hyp i takes ref j. */
static void
match_child(Ex *s, int32_t i, int32_t j, int64_t new_cross, const ExNode *node, ExNode *child)
{
    set_bit_logged(s, s->chosen, j);
    child->size = node->size + 1;
    child->cross = new_cross;
    const ExComp *comp = &s->comps[s->comp_of[i]];
    if (comp->block) {
        int64_t a = s->left_in_comp[i];
        int64_t b = comp->nr - dead_in(comp, s->dead);
        int64_t killed = 0;
        for (int32_t y = s->rtwin_head[j]; y != j; y = s->rtwin_next[y]) {
            if (!bit_get(s->dead, y)) {
                set_bit_logged(s, s->dead, y);
                killed++;
            }
        }
        set_bit_logged(s, s->dead, j);
        child->nu = node->nu - min64(a, b) + min64(a - 1, b - 1 - killed);
        return;
    }
    int32_t *mh = s->mh, *mr = s->mr;
    int64_t nu = node->nu;
    if (mh[i] == j) {
        set_entry(s, &mh[i], -1);
        set_entry(s, &mr[j], -1);
        nu -= 1;
        set_bit_logged(s, s->dead, j);
    }
    else {
        int32_t r0 = mh[i];
        if (r0 >= 0) {
            set_entry(s, &mh[i], -1);
            set_entry(s, &mr[r0], -1);
            nu -= 1 - augment_ref(s, r0, mr, mh, i);
        }
        nu -= kill_ref(s, j, mh, mr);
    }
    /* Unused lower twins of j, ascending, each removed before its repair (a twin's bit is still
     * the parent's when it is read: each is visited once, and only j was set before). */
    for (int32_t y = s->rtwin_head[j]; y != j; y = s->rtwin_next[y]) {
        if (!bit_get(s->dead, y)) {
            nu -= kill_ref(s, y, mh, mr);
        }
    }
    child->nu = nu;
}

/* _Search._skip_child (and _child_skip): hyp i stays unmatched. */
static void
skip_child(Ex *s, int32_t i, const ExNode *node, ExNode *child)
{
    child->size = node->size;
    child->cross = node->cross;
    child->nu = node->nu;
    const ExComp *comp = &s->comps[s->comp_of[i]];
    if (comp->block) {
        int64_t a = s->left_in_comp[i];
        int64_t b = comp->nr - dead_in(comp, s->dead);
        child->nu = node->nu - min64(a, b) + min64(a - 1, b);
        return;
    }
    int32_t r0 = s->mh[i];
    if (r0 < 0) {
        return;
    }
    set_entry(s, &s->mh[i], -1);
    set_entry(s, &s->mr[r0], -1);
    child->nu -= 1 - augment_ref(s, r0, s->mr, s->mh, i);
}

/* -- the bound ----------------------------------------------------------------------------- */

/* _block_bound: cheapest order-preserving completion of a block from its hyp start on; adds
 * the boxes of its future pairs. */
static int64_t
block_bound(Ex *s, const ExComp *comp, int32_t start)
{
    int32_t *live = s->live;
    int32_t b = 0;
    for (int32_t t = 0; t < comp->nr; t++) {
        if (!bit_get(s->dead, comp->refs[t])) {
            live[b++] = t;
        }
    }
    int32_t a = comp->nh - start;
    if (b == 0) {
        return 0;
    }
    /* The boxes of _boxes. */
    const int32_t *hyps = comp->hyps, *refs = comp->refs;
    int32_t group = s->ngroups++;
    if (a >= b) {
        int32_t d = a - b;
        for (int32_t t = 0; t < b; t++) {
            ExBox *box = &s->boxes[s->nboxes++];
            box->hl = hyps[start + t];
            box->hh = hyps[start + t + d];
            box->rl = box->rh = refs[live[t]];
            box->group = group;
        }
    }
    else {
        int32_t d = b - a;
        for (int32_t q = 0; q < a; q++) {
            ExBox *box = &s->boxes[s->nboxes++];
            box->hl = box->hh = hyps[start + q];
            box->rl = refs[live[q]];
            box->rh = refs[live[q + d]];
            box->group = group;
        }
    }
    int64_t *extra = s->extra;
    if (count_above(s->chosen, s->W, refs[0]) == 0) {
        memset(extra, 0, (size_t)b * sizeof(int64_t));
    }
    else {
        for (int32_t t = 0; t < b; t++) {
            extra[t] = count_above(s->chosen, s->W, refs[live[t]]);
        }
    }
    const int64_t *table = comp->table;
    const int64_t nr = comp->nr;
    if (a == b) {
        int64_t sum = 0;
        for (int32_t t = 0; t < b; t++) {
            sum += table[(start + t) * nr + live[t]] + extra[t];
        }
        return sum;
    }
    int64_t *dp = s->dp;
    if (a >= b) {
        dp[0] = 0;
        for (int32_t t = 1; t <= b; t++) {
            dp[t] = EX_INF;
        }
        for (int32_t q = 0; q < a; q++) {
            const int64_t *row = table + (start + q) * nr;
            int32_t hi = q + 1 < b ? q + 1 : b;
            int32_t lo = b - a + q > 0 ? b - a + q : 0;
            for (int32_t t = hi; t > lo; t--) {
                int64_t v = dp[t - 1] + row[live[t - 1]] + extra[t - 1];
                if (v < dp[t]) {
                    dp[t] = v;
                }
            }
        }
        return dp[b];
    }
    dp[0] = 0;
    for (int32_t q = 1; q <= a; q++) {
        dp[q] = EX_INF;
    }
    for (int32_t t = 0; t < b; t++) {
        int32_t col = live[t];
        int64_t cost = extra[t];
        int32_t hi = t + 1 < a ? t + 1 : a;
        int32_t lo = a - b + t > 0 ? a - b + t : 0;
        for (int32_t q = hi; q > lo; q--) {
            int64_t v = dp[q - 1] + table[(start + q - 1) * nr + col] + cost;
            if (v < dp[q]) {
                dp[q] = v;
            }
        }
    }
    return dp[a];
}

/* _free_bound: the cheapest per-hyp options of as many hyps as the matching still pairs. */
static int64_t
free_bound(Ex *s, const ExComp *comp, int32_t start)
{
    int32_t need = 0, nc = 0;
    int64_t *costs = s->costs;
    for (int32_t q = start; q < comp->nh; q++) {
        int32_t x = comp->hyps[q];
        if (s->mh[x] >= 0) {
            need++;
        }
        int64_t best = EX_INF;
        for (int32_t e = s->adj_start[x]; e < s->adj_start[x + 1]; e++) {
            int32_t y = s->adj[e];
            if (!bit_get(s->dead, y)) {
                int64_t c = s->adj_static[e] + count_above(s->chosen, s->W, y);
                if (c < best) {
                    best = c;
                }
            }
        }
        if (best < EX_INF) {
            costs[nc++] = best;
        }
    }
    if (need == 0) {
        return 0;
    }
    if (nc <= 32) {
        insertion_sort_ex_cost(costs, nc);
    }
    else {
        heap_sort_ex_cost(costs, nc);
    }
    int64_t sum = 0;
    for (int32_t q = 0; q < need && q < nc; q++) {
        sum += costs[q];
    }
    return sum;
}

/* _group_crossings: future pairs of different blocks whose boxes are strictly anti-ordered. */
static int64_t
group_crossings(const Ex *s)
{
    int64_t total = 0;
    for (int32_t p = 0; p < s->nboxes; p++) {
        const ExBox *u = &s->boxes[p];
        for (int32_t q = p + 1; q < s->nboxes; q++) {
            const ExBox *v = &s->boxes[q];
            if (v->group == u->group) {
                continue;
            }
            if ((u->hh < v->hl && u->rl > v->rh) || (v->hh < u->hl && v->rl > u->rh)) {
                total++;
            }
        }
    }
    return total;
}

/* _bound: crossings of node plus a lower bound on those still to come (early exit at limit). */
static int64_t
bound(Ex *s, int32_t lo, const ExNode *node, int64_t limit)
{
    int64_t total = node->cross;
    s->nboxes = 0;
    s->ngroups = 0;
    for (int32_t c = 0; c < s->ncomps; c++) {
        const ExComp *comp = &s->comps[c];
        if (comp->hyps[comp->nh - 1] < lo) {
            continue;
        }
        int32_t start = 0, hi = comp->nh - 1; /* bisect_left(comp.hyps, lo) */
        while (start < hi) {
            int32_t mid = start + (hi - start) / 2;
            if (comp->hyps[mid] < lo) {
                start = mid + 1;
            }
            else {
                hi = mid;
            }
        }
        total += comp->block ? block_bound(s, comp, start) : free_bound(s, comp, start);
        if (total >= limit) {
            return total;
        }
    }
    if (s->ngroups < 2) {
        return total;
    }
    return total + group_crossings(s);
}

/* -- the search ---------------------------------------------------------------------------- */

/* _Search.expand: child of node (depth i, the current state) for option k into child, and its
 * bound in *value. 1: kept (the current state is the child's); 0: cut (the current state is
 * still node's); -1: the budget is spent; -2: no memory. */
static int
expand(Ex *s, int32_t i, const ExNode *node, int32_t k, int64_t limit, ExNode *child,
       int64_t *value)
{
    s->left -= s->node_cost[i];
    if (s->left < 0) {
        return -1;
    }
    int32_t deg = s->adj_start[i + 1] - s->adj_start[i];
    if (k < deg) {
        int32_t e = s->adj_start[i] + k;
        int32_t j = s->adj[e];
        if (bit_get(s->dead, j)) {
            return 0;
        }
        int32_t p = s->twin_prev[i];
        if (p >= 0 && s->choice[p] > j) {
            return 0;
        }
        int64_t new_cross = node->cross + s->adj_static[e] + count_above(s->chosen, s->W, j);
        if (new_cross >= limit) {
            return 0;
        }
        child->mark = s->log_n;
        match_child(s, i, j, new_cross, node, child);
    }
    else {
        child->mark = s->log_n;
        skip_child(s, i, node, child);
    }
    if (s->oom) {
        return -2;
    }
    if (child->nu < s->target - child->size) {
        undo_to(s, child->mark);
        return 0;
    }
    int64_t v = bound(s, i + 1, child, limit);
    if (v >= limit) {
        undo_to(s, child->mark);
        return 0;
    }
    *value = v;
    return 1;
}

static inline int32_t
option_ref(const Ex *s, int32_t i, int32_t k)
{
    return k < s->adj_start[i + 1] - s->adj_start[i] ? s->adj[s->adj_start[i] + k] : -1;
}

static void
record(Ex *s, const ExNode *leaf)
{
    s->best_cross = leaf->cross;
    for (int32_t x = 0; x < s->n; x++) {
        s->incumbent[x] = s->choice[x] >= 0 ? s->choice[x] : s->m;
    }
}

/* _Search._dive; 0 done (with or without an incumbent), -1 budget spent, -2 no memory. Each
 * option is made and taken back; the best one is made again (its units are already paid). The
 * current state is left at the last node reached. */
static int
dive(Ex *s)
{
    ExNode trial;
    for (int32_t i = 0; i < s->n; i++) {
        const ExNode *node = &s->slots[i];
        int32_t best_k = -1;
        int64_t best_value = EX_INF;
        int32_t n_opts = s->adj_start[i + 1] - s->adj_start[i] + 1;
        for (int32_t k = 0; k < n_opts; k++) {
            int64_t value;
            int r = expand(s, i, node, k, best_value, &trial, &value);
            if (r < 0) {
                return r;
            }
            if (r) {
                undo_to(s, trial.mark);
                best_k = k;
                best_value = value;
            }
        }
        if (best_k < 0) {
            return 0;
        }
        int32_t opt = option_ref(s, i, best_k);
        s->choice[i] = opt;
        ExNode *child = &s->slots[i + 1];
        child->mark = s->log_n;
        if (opt >= 0) {
            int64_t new_cross = node->cross + s->adj_static[s->adj_start[i] + best_k] +
                                count_above(s->chosen, s->W, opt);
            match_child(s, i, opt, new_cross, node, child);
        }
        else {
            skip_child(s, i, node, child);
        }
        if (s->oom) {
            return -2;
        }
    }
    record(s, &s->slots[s->n]);
    return 0;
}

/* _Search._depth_first; 0 done, -1 budget spent, -2 no memory. */
static int
depth_first(Ex *s)
{
    int32_t n = s->n;
    int32_t *next_opt = PyMem_Calloc((size_t)n + 1, sizeof(int32_t));
    int8_t *rel = PyMem_Calloc((size_t)n + 1, sizeof(int8_t));
    int status = 0;
    if (next_opt == NULL || rel == NULL) {
        status = -2;
        goto done;
    }
    int32_t depth = 0;
    while (depth >= 0) {
        int32_t i = depth;
        const ExNode *node = &s->slots[i];
        int found = 0;
        int8_t child_rel = 0;
        if (i == n) {
            if (node->cross < s->best_cross || rel[i] < 0) {
                record(s, node);
                memset(rel, 0, (size_t)n + 1);
            }
        }
        else {
            int32_t n_opts = s->adj_start[i + 1] - s->adj_start[i] + 1;
            int32_t k = next_opt[i];
            while (k < n_opts) {
                int32_t opt = option_ref(s, i, k);
                child_rel = rel[i];
                if (child_rel == 0) {
                    int32_t key = opt >= 0 ? opt : s->m;
                    int32_t inc = s->incumbent[i];
                    child_rel = key < inc ? -1 : (key > inc ? 1 : 0);
                }
                int64_t limit = child_rel > 0 ? s->best_cross : s->best_cross + 1;
                int64_t value;
                int r = expand(s, i, node, k, limit, &s->slots[i + 1], &value);
                if (r < 0) {
                    status = r;
                    goto done;
                }
                k++;
                if (r) {
                    s->choice[i] = opt;
                    found = 1;
                    break;
                }
            }
            next_opt[i] = k;
        }
        if (!found) {
            if (depth > 0) {
                undo_to(s, s->slots[depth].mark); /* back to the parent's state */
            }
            depth--;
        }
        else {
            depth++;
            next_opt[depth] = 0;
            rel[depth] = child_rel;
        }
    }
done:
    PyMem_Free(next_opt);
    PyMem_Free(rel);
    return status;
}

/* The whole search of one stage's undecided components (edges, each with its component's
 * index in edge_comp) against the pairs already placed (base): the chosen pairs into out (room
 * for n_edges, ascending by hyp) and their number, whether the budget ran out and the units
 * left. 0, or -1 with an exception set. */
static int
ex_search(ExPair *edges, int32_t *edge_comp, int32_t n_edges, int32_t ncomps,
          const ExPair *base, Py_ssize_t n_base, int64_t budget, ExPair *out, int32_t *n_out,
          int *ran_out, int64_t *left)
{
    Ex s;
    memset(&s, 0, sizeof(s));
    int result = -1;
    if (ex_setup(&s, edges, edge_comp, n_edges, ncomps, base, n_base) < 0) {
        goto done;
    }
    s.left = budget;
    int status = dive(&s);
    if (status == 0) {
        undo_to(&s, 0); /* the walk starts from the root */
        status = depth_first(&s);
    }
    if (status == -2) {
        PyErr_NoMemory();
        goto done;
    }
    if (status == -1 && s.best_cross == EX_INF) {
        /* _maximum_matching: the initial matching, blocks paired in order. */
        for (int32_t x = 0; x < s.n; x++) {
            s.incumbent[x] = s.mate_h[x] >= 0 ? s.mate_h[x] : s.m;
        }
        for (int32_t c = 0; c < s.ncomps; c++) {
            const ExComp *comp = &s.comps[c];
            if (comp->block) {
                for (int32_t t = 0; t < comp->nh && t < comp->nr; t++) {
                    s.incumbent[comp->hyps[t]] = comp->refs[t];
                }
            }
        }
    }
    int32_t count = 0;
    for (int32_t x = 0; x < s.n; x++) {
        if (s.incumbent[x] < s.m) {
            out[count].h = s.hyp_pos[x];
            out[count].r = s.ref_pos[s.incumbent[x]];
            count++;
        }
    }
    *n_out = count;
    *ran_out = status == -1;
    *left = s.left;
    result = 0;
done:
    ex_free(&s);
    return result;
}

/* pairs[0 .. count) as a list (as_tuple 0) or tuple of (hyp, ref) tuples. */
static PyObject *
pairs_object(const ExPair *pairs, Py_ssize_t count, int as_tuple)
{
    PyObject *out = as_tuple ? PyTuple_New(count) : PyList_New(count);
    if (out == NULL) {
        return NULL;
    }
    /* Each new object is stored in its container at once, so a failure needs only the outer
     * one released (a tuple or list releases its items, skipping the slots still empty). */
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *pair = PyTuple_New(2);
        if (pair == NULL) {
            goto fail;
        }
        if (as_tuple) {
            PyTuple_SET_ITEM(out, k, pair);
        }
        else {
            PyList_SET_ITEM(out, k, pair);
        }
        PyObject *h = PyLong_FromLongLong(pairs[k].h);
        if (h == NULL) {
            goto fail;
        }
        PyTuple_SET_ITEM(pair, 0, h);
        PyObject *r = PyLong_FromLongLong(pairs[k].r);
        if (r == NULL) {
            goto fail;
        }
        PyTuple_SET_ITEM(pair, 1, r);
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

PyObject *
exact_search_c(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *comps_obj, *base_obj;
    long long budget;
    if (!PyArg_ParseTuple(args, "O!O!L", &PyList_Type, &comps_obj, &PyList_Type, &base_obj,
                          &budget)) {
        return NULL;
    }
    ExPair *edges = NULL, *base = NULL, *out = NULL;
    int32_t *edge_comp = NULL;
    PyObject *result = NULL;
    Py_ssize_t ncomps = PyList_GET_SIZE(comps_obj);
    const Py_ssize_t n_edges = lists_total(PySequence_Fast_ITEMS(comps_obj), ncomps, 0);
    if (n_edges < 0) {
        PyErr_SetString(PyExc_TypeError, "exact_search() takes non-empty lists of pairs");
        return NULL;
    }
    if (n_edges == 0 || n_edges > INT32_MAX / 2) {
        PyErr_SetString(PyExc_ValueError, "exact_search() takes 1 to 2**30 candidate pairs");
        return NULL;
    }
    Py_ssize_t n_base = PyList_GET_SIZE(base_obj);
    edges = PyMem_Malloc((size_t)n_edges * sizeof(ExPair));
    out = PyMem_Malloc((size_t)n_edges * sizeof(ExPair));
    edge_comp = PyMem_Malloc((size_t)n_edges * sizeof(int32_t));
    base = PyMem_Malloc(((size_t)n_base + 1) * sizeof(ExPair));
    if (edges == NULL || out == NULL || edge_comp == NULL || base == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    {
        Py_ssize_t e = 0;
        for (Py_ssize_t c = 0; c < ncomps; c++) {
            PyObject *comp = PyList_GET_ITEM(comps_obj, c);
            for (Py_ssize_t k = 0; k < PyList_GET_SIZE(comp); k++) {
                if (read_pair(PyList_GET_ITEM(comp, k), &edges[e]) < 0) {
                    goto done;
                }
                edge_comp[e++] = (int32_t)c;
            }
        }
    }
    for (Py_ssize_t b = 0; b < n_base; b++) {
        if (read_pair(PyList_GET_ITEM(base_obj, b), &base[b]) < 0) {
            goto done;
        }
    }
    int32_t n_out;
    int ran_out;
    int64_t left;
    if (ex_search(edges, edge_comp, (int32_t)n_edges, (int32_t)ncomps, base, n_base, budget, out,
                  &n_out, &ran_out, &left) < 0) {
        goto done;
    }
    PyObject *pairs = pairs_object(out, n_out, 0);
    if (pairs != NULL) {
        result = Py_BuildValue("(NOL)", pairs, ran_out ? Py_True : Py_False, (long long)left);
    }
done:
    FREE_EACH(edges, out, edge_comp, base);
    return result;
}

/* -- whole stages (exhaustive.align_stages_bounded) --------------------------------------- */

static int
int64_in(const int64_t *sorted, Py_ssize_t count, int64_t v)
{
    Py_ssize_t at = lower_bound(sorted, count, v);
    return at < count && sorted[at] == v;
}

/* Reads a stage's pairs (exact tuples of two ints) into *pairs (grown as needed); 1 when read,
 * 0 when the stage is not a list or tuple of such pairs or holds a negative or too large position (the
 * caller then leaves the stages to the Python code, which names the fault), -1 on error. */
static int
read_stage(PyObject *stage, ExPair **pairs, Py_ssize_t *cap, Py_ssize_t *count)
{
    if (!PyList_CheckExact(stage) && !PyTuple_CheckExact(stage)) {
        return 0; /* not consumed: an iterator stays whole for the Python code */
    }
    PyObject *fast = PySequence_Fast(stage, "");
    if (fast == NULL) {
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (grow((void **)pairs, cap, n + 1, sizeof(ExPair)) < 0) {
        Py_DECREF(fast);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *item = items[k];
        if (!PyTuple_CheckExact(item) || PyTuple_GET_SIZE(item) != 2 ||
            !PyLong_CheckExact(PyTuple_GET_ITEM(item, 0)) ||
            !PyLong_CheckExact(PyTuple_GET_ITEM(item, 1))) {
            Py_DECREF(fast);
            return 0;
        }
        int overflow_h, overflow_r;
        long long h = PyLong_AsLongLongAndOverflow(PyTuple_GET_ITEM(item, 0), &overflow_h);
        long long r = PyLong_AsLongLongAndOverflow(PyTuple_GET_ITEM(item, 1), &overflow_r);
        if (overflow_h || overflow_r || h < 0 || r < 0 || h > INT32_MAX || r > INT32_MAX) {
            Py_DECREF(fast);
            return 0;
        }
        (*pairs)[k].h = h;
        (*pairs)[k].r = r;
    }
    *count = n;
    Py_DECREF(fast);
    return 1;
}

/* pairs[0 .. n) (positions in 0 .. 2**31 - 1) sorted by (hyp, ref), through one 64-bit key a
 * pair in keys (room for n). */
static void
sort_pairs(ExPair *pairs, Py_ssize_t n, int64_t *keys)
{
    for (Py_ssize_t k = 0; k < n; k++) {
        keys[k] = (pairs[k].h << 32) | pairs[k].r;
    }
    sort_int64(keys, n);
    for (Py_ssize_t k = 0; k < n; k++) {
        pairs[k].h = keys[k] >> 32;
        pairs[k].r = keys[k] & 0xffffffff;
    }
}

/* One stage's choice (_align_stage) of the sorted distinct candidates cands[0 .. n), none on a
 * position of fixed[0 .. n_fixed): the chosen pairs appended to fixed (ascending by hyp from
 * fixed[n_fixed]) and their number, and whether the budget ran out. 0, or -1 with an exception
 * set. fixed has room for n_fixed + n. */
static int
stage_choice(const ExPair *cands, Py_ssize_t n, ExPair *fixed, Py_ssize_t n_fixed, int64_t budget,
             Py_ssize_t *n_chosen, int *ran_out)
{
    *ran_out = 0;
    *n_chosen = 0;
    if (n == 0) {
        return 0;
    }
    int status = -1;
    int64_t *hs = NULL, *rs = NULL;
    int32_t *hyp_of = NULL, *ref_of = NULL, *rstart = NULL, *rlist = NULL, *fill = NULL;
    int32_t *hstart = NULL, *comp_h = NULL, *comp_r = NULL, *queue = NULL, *edge_comp = NULL;
    ExPair *free_edges = NULL, *chosen = NULL;
    EX_ALLOC(hs, n);
    EX_ALLOC(rs, n);
    Py_ssize_t nh = 0, nr = 0;
    for (Py_ssize_t e = 0; e < n; e++) {
        if (nh == 0 || hs[nh - 1] != cands[e].h) {
            hs[nh++] = cands[e].h;
        }
        rs[e] = cands[e].r;
    }
    sort_int64(rs, n);
    for (Py_ssize_t e = 0; e < n; e++) {
        if (nr == 0 || rs[nr - 1] != rs[e]) {
            rs[nr++] = rs[e];
        }
    }
    ExPair *placed = fixed + n_fixed;
    if (nh == n && nr == n) {
        /* Every candidate is an isolated pair: all of them are chosen. */
        memcpy(placed, cands, (size_t)n * sizeof(ExPair));
        *n_chosen = n;
        status = 0;
        goto done;
    }
    /* The candidate graph in local indices: hyp -> edges (cands are sorted by hyp), ref -> hyps. */
    EX_ALLOC(hstart, nh + 1);
    EX_ALLOC(hyp_of, n);
    EX_ALLOC(ref_of, n);
    EX_ALLOC(rstart, nr + 1);
    EX_ALLOC(rlist, n);
    EX_ALLOC(fill, nr);
    {
        int32_t x = -1;
        for (Py_ssize_t e = 0; e < n; e++) {
            if (e == 0 || cands[e].h != cands[e - 1].h) {
                hstart[++x] = (int32_t)e;
            }
            hyp_of[e] = x;
            ref_of[e] = find_pos(rs, (int32_t)nr, cands[e].r);
            rstart[ref_of[e] + 1]++;
        }
        hstart[nh] = (int32_t)n;
    }
    for (Py_ssize_t j = 0; j < nr; j++) {
        rstart[j + 1] += rstart[j];
    }
    for (Py_ssize_t e = 0; e < n; e++) {
        int32_t j = ref_of[e];
        rlist[rstart[j] + fill[j]++] = hyp_of[e];
    }
    /* Connected components, breadth-first from each hyp not yet reached, in ascending order. */
    EX_ALLOC(comp_h, nh); /* component of each hyp, -1 + 0: none yet (stored + 1) */
    EX_ALLOC(comp_r, nr);
    EX_ALLOC(queue, nh);
    EX_ALLOC(free_edges, n);
    EX_ALLOC(edge_comp, n);
    Py_ssize_t n_placed = 0, n_free = 0;
    int32_t n_comps = 0, n_seen = 0;
    for (int32_t x0 = 0; x0 < nh; x0++) {
        if (comp_h[x0] != 0) {
            continue;
        }
        int32_t label = ++n_seen;
        int32_t head = 0, tail = 0, refs_in = 0;
        int64_t edges_in = 0;
        queue[tail++] = x0;
        comp_h[x0] = label;
        while (head < tail) {
            int32_t x = queue[head++];
            edges_in += hstart[x + 1] - hstart[x];
            for (int32_t e = hstart[x]; e < hstart[x + 1]; e++) {
                int32_t j = ref_of[e];
                if (comp_r[j] != 0) {
                    continue;
                }
                comp_r[j] = label;
                refs_in++;
                for (int32_t q = rstart[j]; q < rstart[j + 1]; q++) {
                    int32_t y = rlist[q];
                    if (comp_h[y] == 0) {
                        comp_h[y] = label;
                        queue[tail++] = y;
                    }
                }
            }
        }
        if (tail == refs_in && edges_in == (int64_t)tail * refs_in) {
            /* Decided up front (an isolated pair, or a square complete block): in order. The
             * block's refs, ascending, are any of its hyps' candidates. */
            for (int32_t q = 1; q < tail; q++) { /* insertion sort of the block's hyps */
                int32_t v = queue[q], w = q;
                while (w > 0 && queue[w - 1] > v) {
                    queue[w] = queue[w - 1];
                    w--;
                }
                queue[w] = v;
            }
            for (int32_t q = 0; q < tail; q++) {
                placed[n_placed].h = hs[queue[q]];
                placed[n_placed].r = rs[ref_of[hstart[queue[0]] + q]];
                n_placed++;
            }
        }
        else {
            for (int32_t q = 0; q < tail; q++) {
                int32_t x = queue[q];
                for (int32_t e = hstart[x]; e < hstart[x + 1]; e++) {
                    free_edges[n_free] = cands[e];
                    edge_comp[n_free] = n_comps;
                    n_free++;
                }
            }
            n_comps++;
        }
    }
    if (n_comps > 0) {
        EX_ALLOC(chosen, n);
        int32_t n_out;
        int64_t left;
        /* The search sees every pair placed so far: earlier stages' and this stage's forced. */
        if (ex_search(free_edges, edge_comp, (int32_t)n_free, n_comps, fixed,
                      n_fixed + n_placed, budget, chosen, &n_out, ran_out, &left) < 0) {
            goto done;
        }
        memcpy(placed + n_placed, chosen, (size_t)n_out * sizeof(ExPair));
        n_placed += n_out;
    }
    sort_pairs(placed, n_placed, (int64_t *)hs); /* hs has room for n >= n_placed keys */
    *n_chosen = n_placed;
    status = 0;
    goto done;
nomem:
    PyErr_NoMemory();
done:
    FREE_EACH(hs, rs, hyp_of, ref_of, rstart, rlist, fill, hstart, comp_h, comp_r, queue,
              edge_comp, free_edges, chosen);
    return status;
}

PyObject *
exact_stages_c(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *stages_obj;
    long long budget;
    if (!PyArg_ParseTuple(args, "OL", &stages_obj, &budget)) {
        return NULL;
    }
    if (!PyList_CheckExact(stages_obj) && !PyTuple_CheckExact(stages_obj)) {
        Py_RETURN_NONE;
    }
    PyObject *stages = PySequence_Fast(stages_obj, "");
    if (stages == NULL) {
        return NULL;
    }
    Py_ssize_t n_stages = PySequence_Fast_GET_SIZE(stages);
    PyObject *chosen = PyTuple_New(n_stages);
    PyObject *spent = PyList_New(0);
    ExPair *pairs = NULL, *fixed = NULL;
    int64_t *used_h = NULL, *used_r = NULL, *keys = NULL;
    Py_ssize_t cap = 0, fixed_cap = 0, used_cap_h = 0, used_cap_r = 0, n_fixed = 0, keys_cap = 0;
    PyObject *result = NULL;
    if (chosen == NULL || spent == NULL) {
        goto done;
    }
    for (Py_ssize_t k = 0; k < n_stages; k++) {
        Py_ssize_t count = 0;
        int read = read_stage(PySequence_Fast_GET_ITEM(stages, k), &pairs, &cap, &count);
        if (read <= 0) {
            if (read == 0) {
                Py_INCREF(Py_None);
                result = Py_None;
            }
            goto done;
        }
        /* Drop the pairs on positions matched by earlier stages; sort; drop duplicates. */
        Py_ssize_t kept = 0;
        for (Py_ssize_t e = 0; e < count; e++) {
            if (!int64_in(used_h, n_fixed, pairs[e].h) && !int64_in(used_r, n_fixed, pairs[e].r)) {
                pairs[kept++] = pairs[e];
            }
        }
        if (grow((void **)&keys, &keys_cap, kept + 1, sizeof(int64_t)) < 0) {
            goto done;
        }
        sort_pairs(pairs, kept, keys);
        Py_ssize_t n = 0;
        for (Py_ssize_t e = 0; e < kept; e++) {
            if (n == 0 || pairs[e].h != pairs[n - 1].h || pairs[e].r != pairs[n - 1].r) {
                pairs[n++] = pairs[e];
            }
        }
        if (grow((void **)&fixed, &fixed_cap, n_fixed + n + 1, sizeof(ExPair)) < 0) {
            goto done;
        }
        Py_ssize_t n_chosen;
        int ran_out;
        if (stage_choice(pairs, n, fixed, n_fixed, budget, &n_chosen, &ran_out) < 0) {
            goto done;
        }
        PyObject *stage_pairs = pairs_object(fixed + n_fixed, n_chosen, 1);
        if (stage_pairs == NULL) {
            goto done;
        }
        PyTuple_SET_ITEM(chosen, k, stage_pairs);
        if (ran_out) {
            PyObject *index = PyLong_FromSsize_t(k);
            if (index == NULL || PyList_Append(spent, index) < 0) {
                Py_XDECREF(index);
                goto done;
            }
            Py_DECREF(index);
        }
        n_fixed += n_chosen;
        if (grow((void **)&used_h, &used_cap_h, n_fixed + 1, sizeof(int64_t)) < 0 ||
            grow((void **)&used_r, &used_cap_r, n_fixed + 1, sizeof(int64_t)) < 0) {
            goto done;
        }
        for (Py_ssize_t e = 0; e < n_fixed; e++) {
            used_h[e] = fixed[e].h;
            used_r[e] = fixed[e].r;
        }
        sort_int64(used_h, n_fixed);
        sort_int64(used_r, n_fixed);
    }
    {
        PyObject *spent_tuple = PyList_AsTuple(spent);
        if (spent_tuple != NULL) {
            result = Py_BuildValue("(ON)", chosen, spent_tuple);
        }
    }
done:
    Py_DECREF(stages);
    Py_XDECREF(chosen);
    Py_XDECREF(spent);
    FREE_EACH(pairs, fixed, used_h, used_r, keys);
    return result;
}

/* -- a batch of pairs of word types (the paper2005 flavour's block path) ------------------- */

enum { P5_EXACT = 0, P5_STEM = 1, P5_SYNONYM = 2 };

/* The grow-only scratch of one paper2005_rows call (every pair reuses it). */
typedef struct {
    int64_t *side, *keys;    /* identities then keys of both sides; sort keys */
    Packed *sets;            /* synonym sets of both sides */
    unsigned char *used;     /* positions matched by earlier stages: hyps, then refs */
    int32_t *stage_of;       /* stage of each fixed pair */
    int32_t *by_ref;         /* fixed pair at each ref position, or -1 */
    ExPair *pairs, *fixed;
    Py_ssize_t side_cap, keys_cap, sets_cap, used_cap, stage_cap, ref_cap, pairs_cap, fixed_cap;
    Chains chains;
    Emit e;
} P5Scratch;

/* One pair's stages, search and 23-number row (the jar's order), as
 * Pipeline._align_paper2005 then word_stats do with no function words: 0, or -1 with an
 * exception set; each stage whose search ran out is appended to spent (a list of ints). */
static int
p5_pair(P5Scratch *sc, const unsigned char *kinds, Py_ssize_t n_stages, const int32_t *hyp,
        Py_ssize_t nh, const int32_t *ref, Py_ssize_t nr, const int64_t *stems,
        const int64_t *starts, const char *pool, int64_t budget, int64_t *row, PyObject *spent)
{
    const Py_ssize_t n = nh + nr;
    if (grow((void **)&sc->side, &sc->side_cap, 2 * n + 1, sizeof(int64_t)) < 0 ||
        grow((void **)&sc->sets, &sc->sets_cap, n + 1, sizeof(Packed)) < 0 ||
        grow((void **)&sc->used, &sc->used_cap, n + 1, 1) < 0 ||
        grow((void **)&sc->by_ref, &sc->ref_cap, nr + 1, sizeof(int32_t)) < 0) {
        return -1;
    }
    int64_t *hid = sc->side, *rid = sc->side + nh, *hkey = sc->side + n, *rkey = hkey + nh;
    for (Py_ssize_t k = 0; k < n; k++) {
        const int32_t t = k < nh ? hyp[k] : ref[k - nh];
        sc->side[k] = t;
        sc->used[k] = 0;
    }
    Py_ssize_t n_fixed = 0;
    for (Py_ssize_t s = 0; s < n_stages; s++) {
        Emit *e = &sc->e;
        e->n = 0;
        e->stage = s;
        int rc = 0;
        if (kinds[s] == P5_EXACT) {
            rc = equal_keys_core(e, &sc->chains, hid, nh, rid, nr, hid, rid, 0);
        }
        else if (kinds[s] == P5_STEM) {
            for (Py_ssize_t k = 0; k < n; k++) {
                hkey[k] = stems[sc->side[k]];
            }
            rc = equal_keys_core(e, &sc->chains, hkey, nh, rkey, nr, hid, rid, 1);
        }
        else {
            for (Py_ssize_t k = 0; k < n; k++) {
                const int64_t t = sc->side[k];
                sc->sets[k].base = pool + starts[t] * (Py_ssize_t)sizeof(int64_t);
                sc->sets[k].n = (Py_ssize_t)(starts[t + 1] - starts[t]);
            }
            rc = sets_core(e, &sc->chains, sc->sets, nh, sc->sets + nh, nr, hid, rid);
        }
        if (rc < 0) {
            return -1;
        }
        /* Drop the pairs on positions matched by earlier stages; sort; drop duplicates. */
        if (grow((void **)&sc->pairs, &sc->pairs_cap, e->n + 1, sizeof(ExPair)) < 0 ||
            grow((void **)&sc->keys, &sc->keys_cap, e->n + 1, sizeof(int64_t)) < 0) {
            return -1;
        }
        Py_ssize_t kept = 0;
        for (Py_ssize_t k = 0; k < e->n; k++) {
            const Raw *c = &e->raw[k];
            if (!sc->used[c->hyp_start] && !sc->used[nh + c->ref_start]) {
                sc->pairs[kept].h = c->hyp_start;
                sc->pairs[kept].r = c->ref_start;
                kept++;
            }
        }
        sort_pairs(sc->pairs, kept, sc->keys);
        Py_ssize_t m = 0;
        for (Py_ssize_t k = 0; k < kept; k++) {
            if (m == 0 || sc->pairs[k].h != sc->pairs[m - 1].h ||
                sc->pairs[k].r != sc->pairs[m - 1].r) {
                sc->pairs[m++] = sc->pairs[k];
            }
        }
        if (grow((void **)&sc->fixed, &sc->fixed_cap, n_fixed + m + 1, sizeof(ExPair)) < 0 ||
            grow((void **)&sc->stage_of, &sc->stage_cap, n_fixed + m + 1, sizeof(int32_t)) < 0) {
            return -1;
        }
        Py_ssize_t n_chosen;
        int ran_out;
        if (stage_choice(sc->pairs, m, sc->fixed, n_fixed, budget, &n_chosen, &ran_out) < 0) {
            return -1;
        }
        if (ran_out) {
            PyObject *index = PyLong_FromSsize_t(s);
            if (index == NULL || PyList_Append(spent, index) < 0) {
                Py_XDECREF(index);
                return -1;
            }
            Py_DECREF(index);
        }
        for (Py_ssize_t k = n_fixed; k < n_fixed + n_chosen; k++) {
            sc->used[sc->fixed[k].h] = 1;
            sc->used[nh + sc->fixed[k].r] = 1;
            sc->stage_of[k] = (int32_t)s;
        }
        n_fixed += n_chosen;
    }
    /* word_stats_python over the matches in reference order; no function words. */
    for (Py_ssize_t j = 0; j < nr; j++) {
        sc->by_ref[j] = -1;
    }
    for (Py_ssize_t k = 0; k < n_fixed; k++) {
        sc->by_ref[sc->fixed[k].r] = (int32_t)k;
    }
    memset(row, 0, 23 * sizeof(int64_t));
    row[0] = nh;
    row[1] = nr;
    int64_t chunks = 0, ref_end = -1, hyp_end = -1;
    for (Py_ssize_t j = 0; j < nr; j++) {
        const int32_t k = sc->by_ref[j];
        if (k < 0) {
            continue;
        }
        const int64_t i = sc->fixed[k].h;
        if (j != ref_end || i != hyp_end) {
            chunks++;
        }
        ref_end = j + 1;
        hyp_end = i + 1;
        const int32_t s = sc->stage_of[k];
        if (s < 4) {
            row[4 + 4 * s]++;
            row[5 + 4 * s]++;
        }
    }
    row[20] = chunks;
    row[21] = n_fixed;
    row[22] = n_fixed;
    return 0;
}

PyObject *
paper2005_rows_c(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *kinds_obj, *hyp_obj, *hoff_obj, *ref_obj, *roff_obj, *stem_obj, *start_obj;
    PyObject *pool_obj, *out_obj;
    long long budget;
    if (!PyArg_ParseTuple(args, "O!OOOOOOOLO:paper2005_rows", &PyBytes_Type, &kinds_obj,
                          &hyp_obj, &hoff_obj, &ref_obj, &roff_obj, &stem_obj, &start_obj,
                          &pool_obj, &budget, &out_obj)) {
        return NULL;
    }
    const unsigned char *kinds = (const unsigned char *)PyBytes_AS_STRING(kinds_obj);
    const Py_ssize_t n_stages = PyBytes_GET_SIZE(kinds_obj);
    for (Py_ssize_t s = 0; s < n_stages; s++) {
        if (kinds[s] > P5_SYNONYM) {
            PyErr_SetString(PyExc_ValueError, "kinds: 0 (exact), 1 (stem) or 2 (synonym)");
            return NULL;
        }
    }
    if (n_stages > 255) {
        PyErr_SetString(PyExc_ValueError, "kinds: at most 255 stages");
        return NULL;
    }
    PairBatch batch;
    memset(&batch, 0, sizeof(batch));
    Py_buffer sv = {0}, stv = {0}, pv = {0};
    P5Scratch sc;
    memset(&sc, 0, sizeof(sc));
    PyObject *result = NULL, *spent = NULL, *ran_out = PyList_New(0);
    if (ran_out == NULL) {
        return NULL;
    }
    if (batch_open(&batch, hyp_obj, hoff_obj, ref_obj, roff_obj, out_obj) < 0) {
        goto done;
    }
    const Py_ssize_t n_types = get_items(stem_obj, &sv, 8, "stems", 0);
    const Py_ssize_t n_starts = n_types < 0 ? -1 : get_items(start_obj, &stv, 8, "starts", 0);
    const Py_ssize_t n_pool = n_starts < 0 ? -1 : get_items(pool_obj, &pv, 8, "pool", 0);
    if (n_pool < 0) {
        goto done;
    }
    if (n_starts != n_types + 1) {
        PyErr_SetString(PyExc_ValueError, "starts: expected one more than stems");
        goto done;
    }
    const Py_ssize_t n_pairs = batch.n_pairs, n_hyp_ids = batch.n_hyp_ids;
    const int64_t *hoff = batch.hoff, *roff = batch.roff, *starts = stv.buf;
    const int32_t *hyp = batch.hyp, *ref = batch.ref;
    for (Py_ssize_t t = 0; t < n_types; t++) {
        if (starts[t] < 0 || starts[t] > starts[t + 1] || starts[t + 1] > n_pool) {
            PyErr_SetString(PyExc_ValueError, "starts: not ascending within the pool");
            goto done;
        }
    }
    for (Py_ssize_t k = 0; k < n_hyp_ids + batch.n_ref_ids; k++) {
        const int32_t t = k < n_hyp_ids ? hyp[k] : ref[k - n_hyp_ids];
        if (t < 0 || t >= n_types) {
            PyErr_SetString(PyExc_ValueError, "ids: a word type outside the tables");
            goto done;
        }
    }
    int64_t *out = batch.out;
    for (Py_ssize_t k = 0; k < n_pairs; k++) {
        if (spent == NULL && (spent = PyList_New(0)) == NULL) {
            goto done;
        }
        if (p5_pair(&sc, kinds, n_stages, hyp + hoff[k], (Py_ssize_t)(hoff[k + 1] - hoff[k]),
                    ref + roff[k], (Py_ssize_t)(roff[k + 1] - roff[k]), sv.buf, starts, pv.buf,
                    budget, out + 23 * k, spent) < 0) {
            goto done;
        }
        if (PyList_GET_SIZE(spent) > 0) {
            PyObject *stages = PyList_AsTuple(spent);
            PyObject *item = stages == NULL ? NULL : Py_BuildValue("(nN)", k, stages);
            if (item == NULL || PyList_Append(ran_out, item) < 0) {
                Py_XDECREF(item);
                goto done;
            }
            Py_DECREF(item);
            Py_CLEAR(spent);
        }
    }
    result = Py_NewRef(ran_out);
done:
    Py_XDECREF(spent);
    Py_DECREF(ran_out);
    chains_free(&sc.chains);
    FREE_EACH(sc.side, sc.keys, sc.sets, sc.used, sc.stage_of, sc.by_ref, sc.pairs, sc.fixed,
              sc.e.raw);
    batch_close(&batch);
    release_buffer(&sv);
    release_buffer(&stv);
    release_buffer(&pv);
    return result;
}
