/*
 * Paraphrase candidates of two segments over the memory-mapped paraphrase index (a trie of
 * table token ids with record lists, see resources/_paraphrase_format.py: a node table of
 * (first child, first record) pairs, the edge tokens and the records' phrase-B nodes), in
 * METEOR 1.5's order:
 *
 *   paraphrase(...)       the candidates, as the pure-Python matcher in match/paraphrase.py
 *                         produces them;
 *   paraphrase_root(...)  a direct lookup table of the trie root's children;
 *   paraphrase_walk_cache()  a cache of the reference segments' walks for the pair kernels;
 *   paraphrase_vocab(...), paraphrase_vocab_ids(...)  the vocabulary's word -> id table.
 */

#include "kernels.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

/* One trie position reached from a start: (node, start, depth). */
typedef struct {
    uint32_t node;
    int32_t start;
    int32_t depth;
} Step;

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(address) __builtin_prefetch(address)
#else
#define PREFETCH(address) ((void)0)
#endif

/* First position in token[lo..hi) whose value is >= word (hi when none), hi > lo. Branch-free
 * halving with both possible next probes prefetched: the child lists of common words span
 * dozens of cache lines of the memory-mapped index, and this overlaps their misses. */
static inline Py_ssize_t
lower_bound_u32(const uint32_t *token, Py_ssize_t lo, Py_ssize_t hi, uint32_t word)
{
    const uint32_t *base = token + lo;
    Py_ssize_t n = hi - lo;
    while (n > 1) {
        const Py_ssize_t half = n / 2;
        PREFETCH(base + half / 2);
        PREFETCH(base + half + half / 2);
        base = base[half] < word ? base + half : base;
        n -= half;
    }
    return (base - token) + (*base < word);
}

/* ---- Steps met before ----------------------------------------------------------------------
 *
 * A walk past the root finds each child by a binary search over the parent's child list, about
 * a dozen reads scattered over the memory-mapped index for the common words, while the same
 * (node, word) steps come back in segment after segment ("of the", "in the", ...). The cache
 * of reference walks (below) also keeps a direct-mapped table of the steps searched before:
 * (parent node, word) -> child node, or HOP_NONE when the parent has no such child. A slot
 * holds the last step hashed to it; the table answers exactly what the search would (it stores
 * the search's own result), so it changes only the speed. */

#define HOP_NONE UINT32_MAX

typedef struct {
    uint32_t node; /* parent node; HOP_NONE: empty slot */
    uint32_t word;
    uint32_t child; /* HOP_NONE: the parent has no child for word */
} Hop;

/* A table of steps: its slots (NULL: none yet), their number, and whether they are the large
 * table's own mapping. */
typedef struct {
    Hop *slot;
    uint64_t n;
    int mapped;
} Hops;

/* The large table: 4 MiB of slots, two huge pages (see hops_new); 349,525 slots. */
#define HUGE_PAGE ((size_t)2 << 20)
#define HOP_MAPPED (2 * HUGE_PAGE)
#define HOP_SLOTS (HOP_MAPPED / sizeof(Hop))
#define HOP_BYTES (HOP_SLOTS * sizeof(Hop))

/* A cache starts with a small table (256 KiB, 21,845 slots) and moves to the large one after
 * HOP_GROW_AFTER pairs, taking the small table's steps with it (hops_carry): every slot of a
 * table is written when it is made, so the large table is 4 MiB of a process's memory from its
 * first pair on, which a job of a few thousand segments (where it saves little time) does not
 * need. The small table holds the steps of about a thousand pairs (a pair stores about twenty
 * new steps), so past that its steps are overwritten before they come back: on WMT22 the
 * walks of the first 20,000 pairs cost a quarter fewer instructions with the large table from
 * the start. Any size answers exactly what the search would. */
#define HOP_SMALL_BYTES ((size_t)256 << 10)
#define HOP_GROW_AFTER 4096

/* A table of steps in *h, every slot empty: the large one or the small one. 0, or -1 when it
 * cannot be allocated (*h is left without slots). The large table's probes land anywhere in
 * 4 MiB, a page table walk each with 4 KiB pages (the address translation cache covers far
 * less), so on Linux it is mapped on its own, 2 MiB aligned, and asked for huge pages
 * (transparent huge pages, "madvise" or "always"; elsewhere or when refused, ordinary pages). */
static int
hops_new(Hops *h, int large)
{
    h->slot = NULL;
    h->n = 0;
    h->mapped = 0;
    if (!large) {
        const uint64_t n = HOP_SMALL_BYTES / sizeof(Hop);
        Hop *small = PyMem_Malloc((size_t)n * sizeof(Hop));
        if (small == NULL) {
            return -1;
        }
        memset(small, 0xFF, (size_t)n * sizeof(Hop));
        h->slot = small;
        h->n = n;
        return 0;
    }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    void *map = mmap(NULL, HOP_MAPPED + HUGE_PAGE, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) {
        return -1;
    }
    /* Keep the aligned HOP_MAPPED bytes, give back the rest. */
    char *start = map, *aligned = (char *)(((uintptr_t)start + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));
    if (aligned > start) {
        munmap(start, (size_t)(aligned - start));
    }
    const size_t tail = (size_t)(start + HOP_MAPPED + HUGE_PAGE - (aligned + HOP_MAPPED));
    if (tail > 0) {
        munmap(aligned + HOP_MAPPED, tail);
    }
    (void)madvise(aligned, HOP_MAPPED, MADV_HUGEPAGE); /* advice only: a refusal is fine */
    Hop *hops = (Hop *)aligned;
    h->mapped = 1;
#else
    Hop *hops = PyMem_Malloc(HOP_BYTES);
    if (hops == NULL) {
        return -1;
    }
#endif
    memset(hops, 0xFF, HOP_BYTES);
    h->slot = hops;
    h->n = HOP_SLOTS;
    return 0;
}

static void
hops_free(Hops *h)
{
    if (h->slot == NULL) {
        return;
    }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (h->mapped) {
        munmap(h->slot, HOP_MAPPED);
    } else {
        PyMem_Free(h->slot);
    }
#else
    PyMem_Free(h->slot);
#endif
    h->slot = NULL;
    h->n = 0;
    h->mapped = 0;
}

static inline Hop *
hop_slot(const Hops *hops, uint32_t node, uint32_t word)
{
    const uint64_t h = (((uint64_t)node << 32) | word) * UINT64_C(0x9E3779B97F4A7C15);
    return &hops->slot[((h >> 32) * hops->n) >> 32]; /* the high bits, scaled to the slots */
}

/* Copy the steps held by small into large (an empty table of more slots), each to its own
 * slot there (a later one replacing an earlier one on the same slot, as any store does): the
 * steps searched while the table was small are still known after it grows. */
static void
hops_carry(Hops *large, const Hops *small)
{
    for (uint64_t k = 0; k < small->n; k++) {
        const Hop hop = small->slot[k];
        if (hop.node != HOP_NONE) {
            *hop_slot(large, hop.node, hop.word) = hop;
        }
    }
}

/* A walk from one start that is still going: its start, its node, the next position. */
typedef struct {
    const uint32_t *base; /* remaining search range of the current child lookup */
    const uint32_t *end;  /* end of the child list */
    Py_ssize_t n;
    uint32_t word;
    uint32_t node;
    int32_t start;
    int32_t pos;
} Walker;

/* The grow-only arrays of walk_all() and of the occurrence tables of one pair: kept by the walk
 * cache between pairs (one allocation per array for a whole job instead of about eight
 * allocations and frees a pair), or local to a call without a cache. */
typedef struct {
    Step *steps; /* depth-major steps of a walk */
    Py_ssize_t steps_cap;
    Walker *walkers;
    Py_ssize_t walkers_cap;
    Py_ssize_t *per_start;
    Py_ssize_t per_start_cap;
    int32_t *searching; /* walkers whose binary search is still going */
    Py_ssize_t searching_cap;
    Step *out[2]; /* the start-major steps of the hypothesis (0) and of a reference (1) */
    Py_ssize_t out_cap[2];
} WalkWork;

static void
walk_work_free(WalkWork *w)
{
    FREE_EACH(w->steps, w->walkers, w->per_start, w->searching, w->out[0], w->out[1]);
    memset(w, 0, sizeof(*w));
}

#define WORK_GROW(w, field, need) grow((void **)&(w)->field, &(w)->field##_cap, (need), \
                                       sizeof(*(w)->field))

/* Walk the trie from every start of ids; steps in start order, shallow first. Returns the
 * number of steps written to w->out[side] (grown as needed) or -1 with an exception set.
 *
 * The walks advance together, one depth at a time, and their child lookups (binary searches
 * over the memory-mapped index, mostly cache misses) run in lockstep, one halving step of each
 * in turn with the next probe prefetched, so that the misses of independent walks overlap;
 * only the walks still searching are visited in each round (a list of their indices).
 * hops, when not NULL, is the table of steps searched before (see Hop): it answers the steps it
 * holds and learns the others. */
static Py_ssize_t
walk_all(const Trie *t, const Hops *hops, const int64_t *ids, Py_ssize_t n, WalkWork *w,
         int side)
{
    Py_ssize_t count = 0;
    if (WORK_GROW(w, steps, n * 4 + 4) < 0 || WORK_GROW(w, walkers, n ? n : 1) < 0 ||
        WORK_GROW(w, per_start, n + 1) < 0 || WORK_GROW(w, searching, n ? n : 1) < 0) {
        return -1;
    }
    Step *steps = w->steps;
    Walker *walkers = w->walkers;
    Py_ssize_t *per_start = w->per_start;
    int32_t *searching_at = w->searching;
    memset(per_start, 0, (size_t)(n + 1) * sizeof(Py_ssize_t));
    Py_ssize_t active = 0;
    for (Py_ssize_t s = 0; s < n; s++) {
        if (t->root != NULL && ids[s] >= 0 && ids[s] < t->root_len) {
            PREFETCH(&t->root[ids[s]]);
        }
        walkers[active].node = 0;
        walkers[active].start = (int32_t)s;
        walkers[active].pos = (int32_t)s;
        active++;
    }
    while (active > 0) {
        /* Start this depth's lookups; walks that cannot go on are dropped. */
        Py_ssize_t searching = 0, unsettled = 0;
        for (Py_ssize_t k = 0; k < active; k++) {
            Walker *wk = &walkers[k];
            const int64_t word = ids[wk->pos];
            if (word < 0 || word > UINT32_MAX) {
                continue;
            }
            Walker next = *wk;
            next.word = (uint32_t)word;
            if (wk->node == 0 && t->root != NULL) {
                if (word >= t->root_len || t->root[word] == UINT32_MAX) {
                    continue;
                }
                const uint32_t child = t->root[word];
                if (child < t->node[0].first_child || child >= t->node[1].first_child ||
                    child >= t->nodes) {
                    PyErr_SetString(PyExc_ValueError, "paraphrase index: stale root table");
                    return -1;
                }
                next.base = t->token + child;
                next.end = NULL; /* found: no search, no read of the token array */
                next.n = 1;
            }
            else {
                if (hops != NULL) {
                    const Hop *hop = hop_slot(hops, wk->node, next.word);
                    if (hop->node == wk->node && hop->word == next.word) {
                        if (hop->child == HOP_NONE) {
                            continue;
                        }
                        next.base = t->token + hop->child;
                        next.end = NULL; /* known: no search */
                        next.n = 1;
                        walkers[searching++] = next;
                        continue;
                    }
                }
                const Py_ssize_t lo = t->node[wk->node].first_child,
                                 hi = t->node[wk->node + 1].first_child;
                if (lo > hi || hi > t->nodes) {
                    PyErr_SetString(PyExc_ValueError, "paraphrase index: corrupt trie");
                    return -1;
                }
                if (lo == hi) {
                    continue;
                }
                next.base = t->token + lo;
                next.end = t->token + hi;
                next.n = hi - lo;
                PREFETCH(next.base + next.n / 2);
                if (next.n > 1) {
                    searching_at[unsettled++] = (int32_t)searching;
                }
            }
            walkers[searching++] = next;
        }
        /* Lockstep binary searches: base ends just before the first token >= word, or at it. */
        while (unsettled > 0) {
            Py_ssize_t still = 0;
            for (Py_ssize_t q = 0; q < unsettled; q++) {
                Walker *wk = &walkers[searching_at[q]];
                const Py_ssize_t half = wk->n / 2;
                wk->base = wk->base[half] < wk->word ? wk->base + half : wk->base;
                wk->n -= half;
                PREFETCH(wk->base + wk->n / 2);
                if (wk->n > 1) {
                    searching_at[still++] = searching_at[q];
                }
            }
            unsettled = still;
        }
        /* Record the steps found; walks that reached the end of ids stop. */
        active = 0;
        for (Py_ssize_t k = 0; k < searching; k++) {
            Walker wk = walkers[k];
            const uint32_t *found = wk.base;
            if (wk.end != NULL) {
                found += *wk.base < wk.word;
                const int missing = found == wk.end || *found != wk.word;
                if (hops != NULL && (wk.node != 0 || t->root == NULL)) {
                    Hop *hop = hop_slot(hops, wk.node, wk.word);
                    hop->node = wk.node;
                    hop->word = wk.word;
                    hop->child = missing ? HOP_NONE : (uint32_t)(found - t->token);
                }
                if (missing) {
                    continue;
                }
            }
            const uint32_t node = (uint32_t)(found - t->token);
            PREFETCH(&t->node[node]); /* both ranges: its children and its records */
            if (count == w->steps_cap) {
                if (WORK_GROW(w, steps, count + 1) < 0) {
                    return -1;
                }
                steps = w->steps;
            }
            steps[count].node = node;
            steps[count].start = wk.start;
            steps[count].depth = wk.pos - wk.start + 1;
            count++;
            per_start[wk.start + 1]++;
            if (wk.pos + 1 < n) {
                wk.node = node;
                wk.pos++;
                if (hops != NULL && ids[wk.pos] >= 0 && ids[wk.pos] <= UINT32_MAX) {
                    PREFETCH(hop_slot(hops, node, (uint32_t)ids[wk.pos]));
                }
                walkers[active++] = wk;
            }
        }
    }
    /* Depth-major to start-major order: a start's steps come out shallow first. */
    if (grow((void **)&w->out[side], &w->out_cap[side], count ? count : 1, sizeof(Step)) < 0) {
        return -1;
    }
    Step *sorted = w->out[side];
    for (Py_ssize_t s = 0; s < n; s++) {
        per_start[s + 1] += per_start[s];
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        sorted[per_start[steps[k].start] + steps[k].depth - 1] = steps[k];
    }
    return count;
}

/* The trie nodes one side reaches, as an open-addressing hash table: each distinct node with
 * its steps chained in start order (steps are generated in start order). Replaces sorting the
 * steps and a binary search per record. */
typedef struct {
    uint32_t node;
    int32_t head; /* first step of the node, -1 for an empty slot */
    int32_t tail;
} Slot;

/* Bits of the filter in front of the hash table: a bit per hashed node of the side (about 30
 * a sentence), so that the records naming none of them (all but 3% on WMT22 pairs) are passed
 * over by a test that the branch predictor gets right instead of a probe of the table whose
 * outcome it cannot guess (up to half the slots are taken). A long document sets most bits:
 * the filter then passes most records on to the probe, still correctly. */
#define FILTER_BITS 12

typedef struct {
    Slot *slots;
    Py_ssize_t slots_cap; /* grow-only: a table is reused from pair to pair */
    uint32_t mask;
    int32_t *next; /* next step of the same node, or -1 */
    Py_ssize_t next_cap;
    uint64_t filter[(1 << FILTER_BITS) / 64]; /* bit filter_bit(node) of every node held */
} Occurrences;

static void
occurrences_free(Occurrences *o)
{
    FREE_EACH(o->slots, o->next);
    o->slots = NULL;
    o->next = NULL;
    o->slots_cap = 0;
    o->next_cap = 0;
}

static inline uint32_t
node_hash(uint32_t node)
{
    return node * 2654435761u;
}

/* The node's bit in the filter: the hash's high bits (the table uses its low ones). */
static inline uint32_t
filter_bit(uint32_t node)
{
    return node_hash(node) >> (32 - FILTER_BITS);
}

/* Whether node may be held (no false negatives). */
static inline int
occurrences_may_hold(const Occurrences *o, uint32_t node)
{
    const uint32_t bit = filter_bit(node);
    return (int)((o->filter[bit >> 6] >> (bit & 63)) & 1);
}

static int
occurrences_build(Occurrences *o, const Step *steps, Py_ssize_t n)
{
    if (n > INT32_MAX / 4) {
        PyErr_SetString(PyExc_OverflowError, "paraphrase: too many phrases");
        return -1;
    }
    uint32_t size = 16;
    while ((Py_ssize_t)size < 2 * n) {
        size *= 2;
    }
    if (grow((void **)&o->slots, &o->slots_cap, size, sizeof(Slot)) < 0 ||
        grow((void **)&o->next, &o->next_cap, n ? n : 1, sizeof(int32_t)) < 0) {
        return -1;
    }
    o->mask = size - 1;
    for (uint32_t k = 0; k < size; k++) {
        o->slots[k].head = -1;
    }
    memset(o->filter, 0, sizeof(o->filter));
    for (Py_ssize_t k = 0; k < n; k++) {
        const uint32_t node = steps[k].node;
        const uint32_t bit = filter_bit(node);
        o->filter[bit >> 6] |= UINT64_C(1) << (bit & 63);
        uint32_t at = node_hash(node) & o->mask;
        while (o->slots[at].head >= 0 && o->slots[at].node != node) {
            at = (at + 1) & o->mask;
        }
        Slot *slot = &o->slots[at];
        o->next[k] = -1;
        if (slot->head < 0) {
            slot->node = node;
            slot->head = (int32_t)k;
        }
        else {
            o->next[slot->tail] = (int32_t)k;
        }
        slot->tail = (int32_t)k;
    }
    return 0;
}

/* First step of node, or -1. */
static inline int32_t
occurrences_find(const Occurrences *o, uint32_t node)
{
    uint32_t at = node_hash(node) & o->mask;
    for (;;) {
        const Slot *slot = &o->slots[at];
        if (slot->head < 0) {
            return -1;
        }
        if (slot->node == node) {
            return slot->head;
        }
        at = (at + 1) & o->mask;
    }
}

/* ---- The walks of references met before ---------------------------------------------------
 *
 * A reference is usually scored against many hypotheses (one per system), and its walks, the
 * slowest part of a pair's paraphrase candidates (cache misses all over the index), depend on
 * its table token ids only. The cache keeps the steps of each distinct sequence of ids, up to
 * WALK_CACHE_BYTES, and starts afresh when that is passed. It is tied to one index (the caller
 * binds it with the index arrays) and used by one thread at a time: a thread that finds it busy
 * walks without it. */

#define WALK_CACHE_BYTES ((size_t)32 << 20)
/* Taking and giving back the cache: an atomic test-and-set where the compiler has one (free-
 * threaded builds run kernels at once); elsewhere the GIL already serialises the kernels. */
#if defined(__GNUC__) || defined(__clang__)
#define CACHE_TAKE(flag) (!__atomic_test_and_set(&(flag), __ATOMIC_ACQUIRE))
#define CACHE_GIVE(flag) __atomic_clear(&(flag), __ATOMIC_RELEASE)
#else
#define CACHE_TAKE(flag) ((flag) ? 0 : ((flag) = 1))
#define CACHE_GIVE(flag) ((flag) = 0)
#endif
#define WALK_CACHE_NAME "meteor_eval.paraphrase_walk_cache"

typedef struct {
    uint64_t hash;
    Py_ssize_t n_ids, n_steps;
    int64_t *ids; /* the key, then the steps */
    Step *steps;
    Occurrences *occ; /* the nodes of the steps, as the other side's pass probes them; NULL
                       * when it could not be allocated (then built for each pair) */
} WalkEntry;

struct WalkCache {
    WalkEntry *slots; /* open addressing; ids == NULL: empty */
    size_t mask, used, bytes;
    Hops hops;     /* steps searched before: small at the first walk, large later */
    WalkWork work; /* the walks' arrays, reused from pair to pair */
    Occurrences hfound, rfound; /* the hypothesis's occurrences, an uncached reference's */
    uint64_t pairs; /* pairs walked with this cache (HOP_GROW_AFTER) */
    char busy; /* taken by the thread using the cache (CACHE_TAKE) */
};

static void
walk_cache_clear(struct WalkCache *c)
{
    for (size_t k = 0; c->slots != NULL && k <= c->mask; k++) {
        PyMem_Free(c->slots[k].ids);
        PyMem_Free(c->slots[k].steps);
        if (c->slots[k].occ != NULL) {
            occurrences_free(c->slots[k].occ);
            PyMem_Free(c->slots[k].occ);
        }
    }
    PyMem_Free(c->slots);
    c->slots = NULL;
    c->mask = 0;
    c->used = 0;
    c->bytes = 0;
}

static void
walk_cache_destroy(PyObject *capsule)
{
    struct WalkCache *c = PyCapsule_GetPointer(capsule, WALK_CACHE_NAME);
    if (c != NULL) {
        walk_cache_clear(c);
        hops_free(&c->hops);
        walk_work_free(&c->work);
        occurrences_free(&c->hfound);
        occurrences_free(&c->rfound);
        PyMem_Free(c);
    }
}

struct WalkCache *
walk_cache_of(PyObject *capsule)
{
    if (!PyCapsule_IsValid(capsule, WALK_CACHE_NAME)) {
        PyErr_SetString(PyExc_TypeError, "trie: item 5 must be a paraphrase_walk_cache()");
        return NULL;
    }
    return PyCapsule_GetPointer(capsule, WALK_CACHE_NAME);
}

static uint64_t
ids_hash(const int64_t *ids, Py_ssize_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n;
    for (Py_ssize_t k = 0; k < n; k++) {
        h = (h ^ (uint64_t)ids[k]) * 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
    }
    return h;
}

/* The slot of ids in the cache: its entry, or the empty slot where it would go. */
static WalkEntry *
walk_cache_slot(struct WalkCache *c, const int64_t *ids, Py_ssize_t n, uint64_t h)
{
    for (size_t at = (size_t)h & c->mask;; at = (at + 1) & c->mask) {
        WalkEntry *e = &c->slots[at];
        if (e->ids == NULL || (e->hash == h && e->n_ids == n &&
                               memcmp(e->ids, ids, (size_t)n * sizeof(int64_t)) == 0)) {
            return e;
        }
    }
}

/* Keep a copy of the walk of ids (count steps) with its occurrence table; the entry, or NULL
 * when it is not kept (a failure to allocate only skips it, no exception is left set). */
static const WalkEntry *
walk_cache_put(struct WalkCache *c, const int64_t *ids, Py_ssize_t n, uint64_t h,
               const Step *steps, Py_ssize_t count)
{
    Py_ssize_t table = 16;
    while (table < 2 * count) {
        table *= 2;
    }
    const size_t size = (size_t)n * sizeof(int64_t) + (size_t)count * sizeof(Step) + 64 +
                        sizeof(Occurrences) + (size_t)table * sizeof(Slot) +
                        (size_t)count * sizeof(int32_t);
    if (size > WALK_CACHE_BYTES / 8) {
        return NULL; /* a document: not worth a cache of sentences */
    }
    if (c->bytes + size > WALK_CACHE_BYTES || (c->slots != NULL && 2 * (c->used + 1) > c->mask)) {
        if (c->bytes + size > WALK_CACHE_BYTES || c->mask + 1 >= ((size_t)1 << 20)) {
            walk_cache_clear(c);
        }
        else { /* double the table */
            WalkEntry *old = c->slots;
            const size_t old_size = c->mask + 1;
            c->slots = PyMem_Calloc(old_size * 2, sizeof(WalkEntry));
            if (c->slots == NULL) {
                c->slots = old;
                PyErr_Clear();
                return NULL;
            }
            c->mask = old_size * 2 - 1;
            for (size_t k = 0; k < old_size; k++) {
                if (old[k].ids != NULL) {
                    *walk_cache_slot(c, old[k].ids, old[k].n_ids, old[k].hash) = old[k];
                }
            }
            PyMem_Free(old);
        }
    }
    if (c->slots == NULL) {
        c->slots = PyMem_Calloc(1024, sizeof(WalkEntry));
        if (c->slots == NULL) {
            PyErr_Clear();
            return NULL;
        }
        c->mask = 1023;
    }
    WalkEntry *e = walk_cache_slot(c, ids, n, h);
    if (e->ids != NULL) {
        return e;
    }
    int64_t *key = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(int64_t));
    Step *copy = PyMem_Malloc((size_t)(count ? count : 1) * sizeof(Step));
    Occurrences *occ = PyMem_Calloc(1, sizeof(Occurrences));
    if (key == NULL || copy == NULL) {
        FREE_EACH(key, copy, occ);
        return NULL;
    }
    if (occ != NULL && occurrences_build(occ, steps, count) < 0) {
        occurrences_free(occ);
        PyMem_Free(occ);
        occ = NULL;
        PyErr_Clear();
    }
    memcpy(key, ids, (size_t)n * sizeof(int64_t));
    memcpy(copy, steps, (size_t)count * sizeof(Step));
    e->hash = h;
    e->n_ids = n;
    e->n_steps = count;
    e->ids = key;
    e->steps = copy;
    e->occ = occ;
    c->used++;
    c->bytes += size;
    return e;
}

/* One pass: side A walks, side B occurrences; a_is_ref says which side is the reference. */
static int
paraphrase_pass(const Trie *t, const Step *a_steps, Py_ssize_t na, const Step *b_steps,
                const Occurrences *b_found, int a_is_ref, Emit *e)
{
    for (Py_ssize_t k = 0; k < na; k++) {
        /* Two-stage prefetch: the record list bounds of a later step, then the record list of
         * a nearer one (whose bounds were fetched earlier). */
        if (k + 8 < na) {
            PREFETCH(&t->node[a_steps[k + 8].node]);
        }
        if (k + 4 < na) {
            const uint32_t ahead = t->node[a_steps[k + 4].node].record_start;
            if (ahead < t->records) {
                PREFETCH(&t->record_b[ahead]);
            }
        }
        const uint32_t node = a_steps[k].node;
        const Py_ssize_t r0 = t->node[node].record_start, r1 = t->node[node + 1].record_start;
        if (r0 >= r1) {
            continue;
        }
        if (r1 > t->records) {
            PyErr_SetString(PyExc_ValueError, "paraphrase index: corrupt record list");
            return -1;
        }
        for (Py_ssize_t r = r0; r < r1; r++) {
            const uint32_t b_node = t->record_b[r];
            if (!occurrences_may_hold(b_found, b_node)) {
                continue;
            }
            for (int32_t at = occurrences_find(b_found, b_node); at >= 0;
                 at = b_found->next[at]) {
                const Step *b = &b_steps[at];
                int rc = a_is_ref ? emit(e, a_steps[k].start, a_steps[k].depth, b->start,
                                         b->depth)
                                  : emit(e, b->start, b->depth, a_steps[k].start,
                                         a_steps[k].depth);
                if (rc < 0) {
                    return -1;
                }
            }
        }
    }
    return 0;
}

/* The paraphrase candidates of two segments of table token ids (-1: unknown), in the
 * matcher's order: pass 1 with the reference walking (A in the reference, B in the hypothesis),
 * then pass 2 the other way round. With a walk cache, a reference met before brings its steps
 * and its occurrence table (pass 2 probes it) from the cache, and the per-pair arrays are the
 * cache's own, reused. */
int
paraphrase_core(Emit *e, const Trie *t, const int64_t *hids, Py_ssize_t nh, const int64_t *rids,
                Py_ssize_t nr)
{
    if (nh == 0 || nr == 0) {
        return 0;
    }
    if (nh > INT32_MAX / 4 || nr > INT32_MAX / 4) {
        PyErr_SetString(PyExc_OverflowError, "paraphrase: segment too long");
        return -1;
    }
    int rc = -1;
    const Step *ref_steps = NULL; /* work->out[1], or the cache's copy */
    const Occurrences *ref_found = NULL; /* *rfound, or the cache's table */
    WalkWork local_work;
    Occurrences local_found[2];
    memset(&local_work, 0, sizeof(local_work));
    memset(local_found, 0, sizeof(local_found));
    WalkWork *work = &local_work;
    Occurrences *hfound = &local_found[0], *rfound = &local_found[1];
    struct WalkCache *cache = t->walks;
    if (cache != NULL && !CACHE_TAKE(cache->busy)) {
        cache = NULL; /* in use by another thread: walk without it */
    }
    const Hops *hops = NULL;
    if (cache != NULL) {
        work = &cache->work;
        hfound = &cache->hfound;
        rfound = &cache->rfound;
        /* A failure to allocate only walks without the table (or keeps the small one). */
        if (cache->hops.slot == NULL) {
            (void)hops_new(&cache->hops, 0);
        } else if (cache->hops.n < HOP_SLOTS && ++cache->pairs == HOP_GROW_AFTER) {
            Hops large;
            if (hops_new(&large, 1) == 0) {
                hops_carry(&large, &cache->hops);
                hops_free(&cache->hops);
                cache->hops = large;
            }
        }
        hops = cache->hops.slot != NULL ? &cache->hops : NULL;
    }
    const Py_ssize_t hn = walk_all(t, hops, hids, nh, work, 0);
    if (hn < 0) {
        goto done;
    }
    const Step *hsteps = work->out[0];
    for (Py_ssize_t k = 0; k < hn; k++) {
        if (hsteps[k].node >= t->nodes) {
            PyErr_SetString(PyExc_ValueError, "paraphrase index: corrupt trie");
            goto done;
        }
    }
    Py_ssize_t rn = -1;
    const uint64_t rhash = cache != NULL ? ids_hash(rids, nr) : 0;
    if (cache != NULL && cache->slots != NULL) {
        const WalkEntry *hit = walk_cache_slot(cache, rids, nr, rhash);
        if (hit->ids != NULL) {
            rn = hit->n_steps;
            ref_steps = hit->steps;
            ref_found = hit->occ;
        }
    }
    if (ref_steps == NULL) {
        rn = walk_all(t, hops, rids, nr, work, 1);
        if (rn < 0) {
            goto done;
        }
        ref_steps = work->out[1];
        for (Py_ssize_t k = 0; k < rn; k++) { /* checked once: a cached walk is trusted */
            if (ref_steps[k].node >= t->nodes) {
                PyErr_SetString(PyExc_ValueError, "paraphrase index: corrupt trie");
                goto done;
            }
        }
        if (cache != NULL) {
            const WalkEntry *kept = walk_cache_put(cache, rids, nr, rhash, ref_steps, rn);
            if (kept != NULL) {
                ref_steps = kept->steps;
                ref_found = kept->occ;
            }
        }
    }
    if (hn == 0 || rn == 0) {
        rc = 0;
        goto done;
    }
    if (ref_found == NULL) {
        if (occurrences_build(rfound, ref_steps, rn) < 0) {
            goto done;
        }
        ref_found = rfound;
    }
    if (occurrences_build(hfound, hsteps, hn) < 0 ||
        paraphrase_pass(t, ref_steps, rn, hsteps, hfound, 1, e) < 0 ||
        paraphrase_pass(t, hsteps, hn, ref_steps, ref_found, 0, e) < 0) {
        goto done;
    }
    rc = 0;
done:
    if (cache != NULL) {
        CACHE_GIVE(cache->busy);
    }
    walk_work_free(&local_work);
    occurrences_free(&local_found[0]);
    occurrences_free(&local_found[1]);
    return rc;
}

static int
get_u32_buffer(PyObject *obj, Py_buffer *view, const char *what)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) {
        return -1;
    }
    if (view->len % 4 != 0) {
        PyErr_Format(PyExc_ValueError, "%s: expected packed unsigned 32-bit values", what);
        PyBuffer_Release(view);
        view->obj = NULL;
        return -1;
    }
    return 0;
}

/* The trie of a paraphrase index from its node table, token and record_b buffers (native
 * uint32; the node table holds nodes + 1 (first child, first record) pairs) and an optional root
 * table (None or a paraphrase_root() result); views[0..3] must start zeroed and are released by
 * trie_close() whatever happens. */
int
trie_open(Trie *t, Py_buffer views[4], PyObject *node_obj, PyObject *tok_obj, PyObject *rb_obj,
          PyObject *root_obj)
{
    if (get_u32_buffer(node_obj, &views[0], "nodes") < 0 ||
        get_u32_buffer(tok_obj, &views[1], "token") < 0 ||
        get_u32_buffer(rb_obj, &views[2], "record_b") < 0) {
        return -1;
    }
    t->node = views[0].buf;
    t->token = views[1].buf;
    t->record_b = views[2].buf;
    t->nodes = views[1].len / 4;
    t->records = views[2].len / 4;
    t->root = NULL;
    t->root_len = 0;
    t->walks = NULL;
    if (root_obj != Py_None) {
        if (get_u32_buffer(root_obj, &views[3], "root") < 0) {
            return -1;
        }
        t->root = views[3].buf;
        t->root_len = views[3].len / 4;
    }
    if (views[0].len != (t->nodes + 1) * (Py_ssize_t)sizeof(TrieNode) || t->nodes < 1) {
        PyErr_SetString(PyExc_ValueError, "paraphrase index: section sizes disagree");
        return -1;
    }
    return 0;
}

void
trie_close(Py_buffer views[4])
{
    release_buffers(views, 4);
}

/*
 * paraphrase(nodes, token, record_b, hyp_ids, ref_ids, stage, match_type, root=None,
 *            walks=None)
 *
 * The paraphrase matcher's candidates (see match/paraphrase.py for the order): the three index
 * arrays are buffers of native uint32 (nodes: the node table, (first child, first record)
 * pairs), the ids are table token ids (-1 for unknown words).
 * root, when given, is paraphrase_root() of the same arrays: the first step of every walk is
 * then one table read instead of a binary search over the root's children (same result).
 * walks, when given, is a paraphrase_walk_cache() bound to the same index, as the pair kernels
 * use it (reference walks and steps met before are reused; same result).
 */
PyObject *
paraphrase_c(PyObject *self, PyObject *args)
{
    PyObject *node_obj, *tok_obj, *rb_obj, *h_obj, *r_obj, *stage, *type;
    PyObject *root_obj = Py_None, *walks_obj = Py_None;
    if (!PyArg_ParseTuple(args, "OOOOOOO|OO:paraphrase", &node_obj, &tok_obj, &rb_obj, &h_obj,
                          &r_obj, &stage, &type, &root_obj, &walks_obj)) {
        return NULL;
    }
    if (check_match_type(type) < 0) {
        return NULL;
    }
    Py_buffer views[4];
    memset(views, 0, sizeof(views));
    Trie t;
    int64_t *hids = NULL, *rids = NULL;
    PyObject *out = NULL;
    Py_ssize_t nh = 0, nr = 0;
    if (trie_open(&t, views, node_obj, tok_obj, rb_obj, root_obj) < 0) {
        goto done;
    }
    if (walks_obj != Py_None) {
        if (!PyCapsule_IsValid(walks_obj, WALK_CACHE_NAME)) {
            PyErr_SetString(PyExc_TypeError, "walks: expected a paraphrase_walk_cache() or None");
            goto done;
        }
        t.walks = PyCapsule_GetPointer(walks_obj, WALK_CACHE_NAME);
    }
    if (read_ids(h_obj, r_obj, &hids, &nh, &rids, &nr) < 0) {
        goto done;
    }
    Emit e;
    out = emit_list(&e, type, stage);
    if (out == NULL) {
        goto done;
    }
    if (paraphrase_core(&e, &t, hids, nh, rids, nr) < 0) {
        Py_CLEAR(out);
    }
done:
    trie_close(views);
    PyMem_Free(hids);
    PyMem_Free(rids);
    return out;
}

/*
 * paraphrase_root(nodes, token) -> bytes
 *
 * Direct lookup table of the trie root's children for paraphrase(): native uint32 entry w is
 * the root's child whose token is w (the first one, as the binary search finds), or
 * 0xFFFFFFFF; the table ends after the largest token the root has a child for.
 */
PyObject *
paraphrase_root_c(PyObject *self, PyObject *args)
{
    PyObject *node_obj, *tok_obj;
    if (!PyArg_ParseTuple(args, "OO:paraphrase_root", &node_obj, &tok_obj)) {
        return NULL;
    }
    Py_buffer fc = {0}, tok = {0};
    PyObject *out = NULL;
    if (get_u32_buffer(node_obj, &fc, "nodes") < 0 || get_u32_buffer(tok_obj, &tok, "token") < 0) {
        goto done;
    }
    const TrieNode *node = fc.buf;
    const uint32_t *token = tok.buf;
    const Py_ssize_t nodes = tok.len / 4;
    if (fc.len != (nodes + 1) * (Py_ssize_t)sizeof(TrieNode) || nodes < 1 ||
        node[0].first_child > node[1].first_child || node[1].first_child > (uint32_t)nodes) {
        PyErr_SetString(PyExc_ValueError, "paraphrase index: corrupt trie");
        goto done;
    }
    const Py_ssize_t lo = node[0].first_child, hi = node[1].first_child;
    uint32_t largest = 0;
    for (Py_ssize_t k = lo; k < hi; k++) {
        if (token[k] > largest) {
            largest = token[k];
        }
    }
    /* Every token labels at least one edge, so a sound index has fewer tokens than nodes; a
     * larger id (damage) would size the table up to 16 GiB. */
    if (largest >= (uint32_t)nodes) {
        PyErr_SetString(PyExc_ValueError, "paraphrase index: corrupt token id");
        goto done;
    }
    const Py_ssize_t size = hi > lo ? (Py_ssize_t)largest + 1 : 0;
    out = PyBytes_FromStringAndSize(NULL, size * 4);
    if (out == NULL) {
        goto done;
    }
    uint32_t *table = (uint32_t *)PyBytes_AS_STRING(out);
    memset(table, 0xFF, (size_t)size * 4);
    for (Py_ssize_t k = lo; k < hi; k++) {
        if (table[token[k]] == UINT32_MAX) {
            table[token[k]] = (uint32_t)k;
        }
    }
done:
    release_buffer(&fc);
    release_buffer(&tok);
    return out;
}

PyObject *
paraphrase_walk_cache_c(PyObject *self, PyObject *unused)
{
    return calloc_capsule(sizeof(struct WalkCache), WALK_CACHE_NAME, walk_cache_destroy);
}

/* ---- The vocabulary's word -> id table -----------------------------------------------------
 *
 * The index's vocabulary section is the table's words in id order, UTF-8 (surrogates written
 * as "surrogatepass" does), separated by '\n'. paraphrase_vocab() copies it and builds an
 * open-addressing table over it (FNV-1a of each word's bytes, slot = id + 1, 0 empty), so that
 * opening a table makes no Python object per word; paraphrase_vocab_ids() looks tokens up by
 * their UTF-8 bytes. Decoding is a bijection between such bytes and str, so a byte-equal word
 * is the equal str: the ids are those of the dict {word: id} built from the decoded words (a
 * repeated word keeps its last id, as the dict does). */

#define VOCAB_NAME "meteor_eval.paraphrase_vocab"

typedef struct {
    char *blob;        /* the section's bytes, copied */
    uint32_t *starts;  /* count + 1 offsets: word k is blob[starts[k], starts[k + 1] - 1) */
    uint32_t *slots;   /* mask + 1 slots: word id + 1, or 0 */
    uint64_t mask;
    Py_ssize_t count;
} VocabTable;

static void
vocab_destroy(PyObject *capsule)
{
    VocabTable *v = PyCapsule_GetPointer(capsule, VOCAB_NAME);
    if (v != NULL) {
        PyMem_Free(v->blob);
        PyMem_Free(v->starts);
        PyMem_Free(v->slots);
        PyMem_Free(v);
    }
}

static inline uint64_t
vocab_hash(const unsigned char *p, Py_ssize_t n)
{
    uint64_t h = 14695981039346656037ULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        h = (h ^ p[k]) * 1099511628211ULL;
    }
    return h ^ (h >> 29);
}

/* The slot holding the word of these bytes, or the empty slot where it would go. */
static inline uint64_t
vocab_slot(const VocabTable *v, const unsigned char *p, Py_ssize_t n)
{
    uint64_t s = vocab_hash(p, n) & v->mask;
    for (;;) {
        const uint32_t id1 = v->slots[s];
        if (id1 == 0) {
            return s;
        }
        const uint32_t lo = v->starts[id1 - 1], hi = v->starts[id1] - 1;
        if ((Py_ssize_t)(hi - lo) == n && memcmp(v->blob + lo, p, (size_t)n) == 0) {
            return s;
        }
        s = (s + 1) & v->mask;
    }
}

/*
 * paraphrase_vocab(section) -> (capsule, count)
 *
 * The word -> id table of a vocabulary section (any buffer of bytes) and its number of words
 * (one more than its '\n' bytes).
 */
PyObject *
paraphrase_vocab_c(PyObject *self, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    PyObject *capsule = NULL;
    VocabTable *v = PyMem_Calloc(1, sizeof(VocabTable));
    if (v == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    const Py_ssize_t size = view.len;
    if (size >= (Py_ssize_t)UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "paraphrase_vocab: section too large");
        goto fail;
    }
    v->blob = PyMem_Malloc(size > 0 ? (size_t)size : 1);
    if (v->blob == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    if (size > 0) {
        memcpy(v->blob, view.buf, (size_t)size);
    }
    Py_ssize_t count = 1;
    for (const char *p = v->blob, *end = v->blob + size;
         (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++) {
        count++;
    }
    v->count = count;
    v->starts = PyMem_Malloc((size_t)(count + 1) * sizeof(uint32_t));
    uint64_t slots = 16;
    while (slots < 2 * (uint64_t)count) {
        slots *= 2;
    }
    v->mask = slots - 1;
    v->slots = PyMem_Calloc((size_t)slots, sizeof(uint32_t));
    if (v->starts == NULL || v->slots == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    Py_ssize_t word = 0, at = 0;
    v->starts[0] = 0;
    while (word < count) {
        const char *nl = memchr(v->blob + at, '\n', (size_t)(size - at));
        const Py_ssize_t stop = nl != NULL ? nl - v->blob : size;
        v->starts[word + 1] = (uint32_t)(stop + 1);
        /* starts[word + 1] is set first: vocab_slot() reads the words up to this one. */
        const uint64_t s = vocab_slot(v, (const unsigned char *)v->blob + at, stop - at);
        v->slots[s] = (uint32_t)(word + 1); /* a repeated word: its last id, as a dict */
        at = stop + 1;
        word++;
    }
    capsule = PyCapsule_New(v, VOCAB_NAME, vocab_destroy);
    if (capsule == NULL) {
        goto fail;
    }
    PyObject *out = Py_BuildValue("(Nn)", capsule, count);
    PyBuffer_Release(&view);
    return out;
fail:
    if (v != NULL) {
        PyMem_Free(v->blob);
        PyMem_Free(v->starts);
        PyMem_Free(v->slots);
        PyMem_Free(v);
    }
done:
    PyBuffer_Release(&view);
    return NULL;
}

/*
 * paraphrase_vocab_ids(vocab, tokens) -> list[int]
 *
 * The id of each token (a sequence of str) in a paraphrase_vocab() table, -1 for a word it
 * does not hold (and for an item that is not a str).
 */
PyObject *
paraphrase_vocab_ids_c(PyObject *self, PyObject *args)
{
    PyObject *capsule, *tokens;
    if (!PyArg_ParseTuple(args, "OO:paraphrase_vocab_ids", &capsule, &tokens)) {
        return NULL;
    }
    const VocabTable *v = PyCapsule_GetPointer(capsule, VOCAB_NAME);
    if (v == NULL) {
        return NULL;
    }
    PyObject *seq = PySequence_Fast(tokens, "paraphrase_vocab_ids: expected a sequence");
    if (seq == NULL) {
        return NULL;
    }
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    PyObject *out = PyList_New(n);
    if (out == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *token = items[k];
        long id = -1;
        if (PyUnicode_Check(token)) {
            const char *p;
            Py_ssize_t len;
            PyObject *encoded = NULL;
            if (PyUnicode_IS_ASCII(token)) {
                p = (const char *)PyUnicode_DATA(token);
                len = PyUnicode_GET_LENGTH(token);
            } else {
                /* Lone surrogates as the section stores them (the str's UTF-8 cache is not
                 * filled: it would keep a second copy of every non-ASCII word type). */
                encoded = PyUnicode_AsEncodedString(token, "utf-8", "surrogatepass");
                if (encoded == NULL) {
                    Py_DECREF(out);
                    Py_DECREF(seq);
                    return NULL;
                }
                p = PyBytes_AS_STRING(encoded);
                len = PyBytes_GET_SIZE(encoded);
            }
            const uint32_t id1 = v->slots[vocab_slot(v, (const unsigned char *)p, len)];
            id = (long)id1 - 1;
            Py_XDECREF(encoded);
        }
        PyObject *value = PyLong_FromLong(id);
        if (value == NULL) {
            Py_DECREF(out);
            Py_DECREF(seq);
            return NULL;
        }
        PyList_SET_ITEM(out, k, value);
    }
    Py_DECREF(seq);
    return out;
}
