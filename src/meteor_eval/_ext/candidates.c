/*
 * One-word candidate generators of the exact, stem and synonym matchers:
 *
 *   equal_keys(...)      candidates of equal keys (exact: word identities; stem: stem
 *                        identities of words that differ);
 *   sets_intersect(...)  candidates whose synonym sets intersect and whose words differ.
 *
 * Each produces the same candidates in the same order as the pure-Python matcher it speeds up;
 * emit() writes them as Match objects (Python mode) or raw candidates (the pair kernel).
 */

#include "kernels.h"

/* ---------------------------------------------------------------------------------------------
 * Candidate generation kernels. Each returns a new list of Match objects (instances of the
 * tuple subclass passed as match_type) in exactly the order of the pure-Python matcher it
 * replaces; the Python code in meteor_eval.match stays the reference and the fallback.
 * ------------------------------------------------------------------------------------------- */


int
emit(Emit *e, Py_ssize_t ref_start, Py_ssize_t ref_len, Py_ssize_t hyp_start, Py_ssize_t hyp_len)
{
    if (e->mode == EMIT_FILL) {
        Work *w = e->work;
        Entry *x = &w->entries[w->slot[ref_start]++];
        x->hyp_start = (int32_t)hyp_start;
        x->hyp_len = (uint16_t)hyp_len;
        x->ref_len = (uint8_t)ref_len;
        x->stage = (uint8_t)e->stage;
        return 0;
    }
    if (e->budget > 0 && e->list == NULL && ++e->units > e->budget) {
        e->over = 1; /* no Python error: the caller reports the budget */
        return -1;
    }
    if (e->mode == EMIT_COUNT) {
        Work *w = e->work;
        if (entry_check(w, ref_len, hyp_len, e->stage) < 0) {
            return -1;
        }
        w->first[ref_start + 1]++;
        for (Py_ssize_t j = ref_start; j < ref_start + ref_len; j++) {
            w->ref_cov[j]++;
        }
        for (Py_ssize_t i = hyp_start; i < hyp_start + hyp_len; i++) {
            w->hyp_cov[i]++;
        }
        return 0;
    }
    if (e->list != NULL) {
        return append_match(e->list, e->type, ref_start, ref_len, hyp_start, hyp_len,
                            e->stage_obj);
    }
    if (ref_len > ENTRY_MAX_REF_LEN || hyp_len > ENTRY_MAX_HYP_LEN || e->stage > ENTRY_MAX_STAGE ||
        e->stage < 0) {
        PyErr_SetString(PyExc_ValueError,
                        "a candidate is too long for the compiled aligner (at most 255 "
                        "reference words, 65,535 hypothesis words and stage 255)");
        return -1;
    }
    if (reserve((void **)&e->raw, &e->cap, e->n + 1, 64, sizeof(Raw)) < 0) {
        return -1;
    }
    Raw *c = &e->raw[e->n++];
    c->ref_start = (int32_t)ref_start;
    c->ref_len = (uint8_t)ref_len;
    c->hyp_start = (int32_t)hyp_start;
    c->hyp_len = (uint16_t)hyp_len;
    c->stage = (uint8_t)e->stage;
    return 0;
}

/* Chains (kernels.h): a hash table from int64 keys to chains of hypothesis positions in
 * ascending order: the positions having a key are head[slot], next[head[slot]], ... (-1 ends a
 * chain). Built in time and memory linear in the number of (key, position) entries, so
 * candidate search costs the candidates found instead of comparing every pair of positions. Its
 * arrays only grow, so the pair kernel reuses one for every stage and pair of a batch. */

void
chains_free(Chains *c)
{
    FREE_EACH(c->keys, c->head, c->tail, c->next, c->pos, c->stamp, c->hits, c->set_slots,
              c->set_bits, c->set_used);
    memset(c, 0, sizeof(*c));
}

static inline uint64_t
key_hash(int64_t x)
{
    return ((uint64_t)x * UINT64_C(0x9E3779B97F4A7C15)) >> 17;
}

/* An empty table for up to `entries` entries, and (positions > 0) the stamp and hit arrays of
 * sets_core() for that many hypothesis positions. */
static int
chains_init(Chains *c, Py_ssize_t entries, Py_ssize_t positions)
{
    Py_ssize_t size = 16;
    while (size < 2 * entries) {
        size *= 2;
    }
    /* keys, head and tail share slot_cap; next and pos share entry_cap; stamp and hits
     * share pos_cap (each pair grows by the same rule from the same size). */
    Py_ssize_t head_cap = c->slot_cap, tail_cap = c->slot_cap, pos_cap = c->entry_cap;
    Py_ssize_t hits_cap = c->pos_cap;
    const Py_ssize_t need = entries ? entries : 1;
    if (grow((void **)&c->keys, &c->slot_cap, size, sizeof(int64_t)) < 0 ||
        grow((void **)&c->head, &head_cap, size, sizeof(Py_ssize_t)) < 0 ||
        grow((void **)&c->tail, &tail_cap, size, sizeof(Py_ssize_t)) < 0 ||
        grow((void **)&c->next, &c->entry_cap, need, sizeof(Py_ssize_t)) < 0 ||
        grow((void **)&c->pos, &pos_cap, need, sizeof(Py_ssize_t)) < 0) {
        return -1;
    }
    if (positions > 0 &&
        (grow((void **)&c->stamp, &c->pos_cap, positions, sizeof(Py_ssize_t)) < 0 ||
         grow((void **)&c->hits, &hits_cap, positions, sizeof(Py_ssize_t)) < 0)) {
        return -1;
    }
    c->mask = (uint64_t)size - 1;
    c->n = 0;
    for (Py_ssize_t k = 0; k < size; k++) {
        c->head[k] = -1;
    }
    return 0;
}

/* The slot of key (empty or holding it). */
static inline uint64_t
chains_slot(const Chains *c, int64_t key)
{
    uint64_t h = key_hash(key) & c->mask;
    while (c->head[h] >= 0 && c->keys[h] != key) {
        h = (h + 1) & c->mask;
    }
    return h;
}

/* Append position i to key's chain (positions must be added in ascending order). */
static inline void
chains_add(Chains *c, int64_t key, Py_ssize_t i)
{
    const uint64_t h = chains_slot(c, key);
    const Py_ssize_t k = c->n++;
    c->pos[k] = i;
    c->next[k] = -1;
    if (c->head[h] < 0) {
        c->keys[h] = key;
        c->head[h] = k;
    }
    else {
        c->next[c->tail[h]] = k;
    }
    c->tail[h] = k;
}

/* Candidates (j, 1, i, 1) for every reference j ascending and hypothesis i ascending with
 * hk[i] == rk[j], leaving out pairs of equal identities when `different` is set. The table c
 * is the caller's (emptied here, kept for reuse, freed by the caller with chains_free()). */
int
equal_keys_core(Emit *e, Chains *c, const int64_t *hk, Py_ssize_t nh, const int64_t *rk,
                Py_ssize_t nr, const int64_t *hid, const int64_t *rid, int different)
{
    if (nh == 0 || nr == 0) {
        return 0;
    }
    if (chains_init(c, nh, 0) < 0) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < nh; i++) {
        chains_add(c, hk[i], i);
    }
    for (Py_ssize_t j = 0; j < nr; j++) {
        const uint64_t h = chains_slot(c, rk[j]);
        for (Py_ssize_t k = c->head[h]; k >= 0; k = c->next[k]) {
            const Py_ssize_t i = c->pos[k];
            if (different && hid[i] == rid[j]) {
                continue;
            }
            if (emit(e, j, 1, i, 1) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

static inline int64_t
packed_at(const Packed *p, Py_ssize_t k)
{
    int64_t x;
    memcpy(&x, p->base + k * (Py_ssize_t)sizeof(int64_t), sizeof(int64_t));
    return x;
}

DEFINE_INSERTION_SORT(positions, Py_ssize_t)
DEFINE_HEAP_SORT(positions, Py_ssize_t)

/* Sort a reference word's hits ascending: by insertion when short, else by heap sort (no
 * recursion, O(n log n) for the rare long lists). */
static void
sort_positions(Py_ssize_t *a, Py_ssize_t n)
{
    if (n <= 24) {
        insertion_sort_positions(a, n);
    }
    else {
        heap_sort_positions(a, n);
    }
}

/* The index of the lowest set bit of x (x != 0). */
static inline int
lowest_bit(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int k = 0;
    while (!(x & 1)) {
        x >>= 1;
        k++;
    }
    return k;
#endif
}

/* A value of the hypothesis's synonym sets and the bit set of the positions whose set has it:
 * the set itself for a hypothesis of at most 64 words, else 1 + the index of its first 64-bit
 * word in set_bits; 0 is an empty slot (a value held has a position). */
struct SetSlot {
    int64_t value;
    uint64_t bits;
};

/* Hypotheses of at most this many words take sets_bits(). */
#define SETS_BITS_MAX 256

/* The slot of value in an open-addressing table of size mask + 1: its own or the empty one
 * where it would go. */
static inline struct SetSlot *
set_slot(struct SetSlot *slots, uint64_t mask, int64_t value)
{
    uint64_t h = key_hash(value) & mask;
    while (slots[h].bits != 0 && slots[h].value != value) {
        h = (h + 1) & mask;
    }
    return &slots[h];
}

/* The slot of value, claimed when empty: its value set and its index added to filled (the
 * slots to empty at the end), its bits left 0 for the caller to set. */
static inline struct SetSlot *
claim_slot(struct SetSlot *slots, uint64_t mask, int64_t value, Py_ssize_t *filled,
           Py_ssize_t *n_filled)
{
    struct SetSlot *slot = set_slot(slots, mask, value);
    if (slot->bits == 0) {
        slot->value = value;
        filled[(*n_filled)++] = slot - slots;
    }
    return slot;
}

/* sets_core() for a hypothesis of at most SETS_BITS_MAX words (same candidates, same order):
 * each distinct hypothesis value is one slot of an open-addressing table holding the bit set
 * of the positions whose set has it, so that a reference word's hits are the OR of its values'
 * bit sets, read out lowest bit first, which is the ascending order of positions (no chains, no
 * stamps, no sort). The table's slots are empty between calls: a call empties the slots it
 * filled (not the whole table) before it returns. The table has at least four slots a value
 * (at most a quarter full): at half full, a lookup of the WMT22 pairs read 0.6 slots past its
 * first on average; the table stays about 10 KiB for a sentence, in the first-level cache. */
static int
sets_bits(Emit *e, Chains *c, const Packed *hs, Py_ssize_t nh, const Packed *rs, Py_ssize_t nr,
          const int64_t *hid, const int64_t *rid, Py_ssize_t total)
{
    const Py_ssize_t words = (nh + 63) / 64;
    Py_ssize_t size = 16;
    while (size < 4 * total) {
        size *= 2;
    }
    const Py_ssize_t old_cap = c->set_slot_cap;
    if (grow((void **)&c->set_slots, &c->set_slot_cap, size, sizeof(struct SetSlot)) < 0) {
        return -1;
    }
    if (c->set_slot_cap != old_cap) { /* new or moved: every slot empty */
        memset(c->set_slots, 0, (size_t)c->set_slot_cap * sizeof(struct SetSlot));
    }
    if (grow((void **)&c->set_used, &c->set_used_cap, total, sizeof(Py_ssize_t)) < 0 ||
        (words > 1 && grow((void **)&c->set_bits, &c->set_bits_cap, (total + 1) * words,
                           sizeof(uint64_t)) < 0)) {
        return -1;
    }
    struct SetSlot *slots = c->set_slots;
    Py_ssize_t *filled = c->set_used, n_filled = 0;
    const uint64_t mask = (uint64_t)size - 1;
    int rc = 0;
    if (words == 1) { /* the common case: the bit set is the slot's own word */
        for (Py_ssize_t i = 0; i < nh; i++) {
            for (Py_ssize_t a = 0; a < hs[i].n; a++) {
                struct SetSlot *slot = claim_slot(slots, mask, packed_at(&hs[i], a), filled,
                                                  &n_filled);
                slot->bits |= UINT64_C(1) << i;
            }
        }
        for (Py_ssize_t j = 0; j < nr && rc == 0; j++) {
            uint64_t hits = 0; /* an empty slot's bits are 0 */
            for (Py_ssize_t a = 0; a < rs[j].n; a++) {
                hits |= set_slot(slots, mask, packed_at(&rs[j], a))->bits;
            }
            for (; hits != 0; hits &= hits - 1) {
                const Py_ssize_t i = (Py_ssize_t)lowest_bit(hits);
                if (hid[i] != rid[j] && emit(e, j, 1, i, 1) < 0) {
                    rc = -1;
                    break;
                }
            }
        }
    }
    else {
        uint64_t *bits = c->set_bits, *hits = c->set_bits;
        Py_ssize_t used = words; /* bits[0 .. words): a reference word's hits */
        for (Py_ssize_t i = 0; i < nh; i++) {
            for (Py_ssize_t a = 0; a < hs[i].n; a++) {
                struct SetSlot *slot = claim_slot(slots, mask, packed_at(&hs[i], a), filled,
                                                  &n_filled);
                if (slot->bits == 0) { /* claimed now: its words of bits start empty */
                    slot->bits = 1 + (uint64_t)used;
                    for (Py_ssize_t w = 0; w < words; w++) {
                        bits[used + w] = 0;
                    }
                    used += words;
                }
                bits[slot->bits - 1 + (uint64_t)(i >> 6)] |= UINT64_C(1) << (i & 63);
            }
        }
        for (Py_ssize_t j = 0; j < nr && rc == 0; j++) {
            for (Py_ssize_t w = 0; w < words; w++) {
                hits[w] = 0;
            }
            for (Py_ssize_t a = 0; a < rs[j].n; a++) {
                const struct SetSlot *slot = set_slot(slots, mask, packed_at(&rs[j], a));
                if (slot->bits != 0) {
                    for (Py_ssize_t w = 0; w < words; w++) {
                        hits[w] |= bits[slot->bits - 1 + (uint64_t)w];
                    }
                }
            }
            for (Py_ssize_t w = 0; w < words && rc == 0; w++) {
                for (uint64_t left = hits[w]; left != 0; left &= left - 1) {
                    const Py_ssize_t i = w * 64 + (Py_ssize_t)lowest_bit(left);
                    if (hid[i] != rid[j] && emit(e, j, 1, i, 1) < 0) {
                        rc = -1;
                        break;
                    }
                }
            }
        }
    }
    for (Py_ssize_t k = 0; k < n_filled; k++) {
        slots[filled[k]].bits = 0;
    }
    return rc;
}

/* Candidates (j, 1, i, 1) for every reference j ascending and hypothesis i ascending whose sets
 * share a value and whose identities differ.
 *
 * Every hypothesis value goes into a hash table of chains of the positions having it; a
 * reference word's hits are the union of its values' chains (each position once, by a stamp),
 * sorted ascending (the order of a pairwise merge). Time and memory are linear in the values
 * and the candidates found, not in the product of the lengths. The table c is the caller's, as
 * for equal_keys_core(). */
int
sets_core(Emit *e, Chains *c, const Packed *hs, Py_ssize_t nh, const Packed *rs, Py_ssize_t nr,
          const int64_t *hid, const int64_t *rid)
{
    Py_ssize_t total = 0, ref_total = 0;
    for (Py_ssize_t i = 0; i < nh; i++) {
        total += hs[i].n;
    }
    for (Py_ssize_t j = 0; j < nr; j++) {
        ref_total += rs[j].n;
    }
    if (total == 0 || ref_total == 0) {
        return 0; /* a side without synonym sets has no candidates */
    }
    if (nh <= SETS_BITS_MAX) {
        return sets_bits(e, c, hs, nh, rs, nr, hid, rid, total);
    }
    if (chains_init(c, total, nh) < 0) {
        return -1;
    }
    Py_ssize_t *stamp = c->stamp, *hits = c->hits;
    for (Py_ssize_t i = 0; i < nh; i++) {
        stamp[i] = -1;
        for (Py_ssize_t a = 0; a < hs[i].n; a++) {
            chains_add(c, packed_at(&hs[i], a), i);
        }
    }
    for (Py_ssize_t j = 0; j < nr; j++) {
        Py_ssize_t n = 0;
        for (Py_ssize_t a = 0; a < rs[j].n; a++) {
            const uint64_t h = chains_slot(c, packed_at(&rs[j], a));
            for (Py_ssize_t k = c->head[h]; k >= 0; k = c->next[k]) {
                const Py_ssize_t i = c->pos[k];
                if (stamp[i] != j) {
                    stamp[i] = j;
                    hits[n++] = i;
                }
            }
        }
        sort_positions(hits, n);
        for (Py_ssize_t k = 0; k < n; k++) {
            const Py_ssize_t i = hits[k];
            if (hid[i] != rid[j] && emit(e, j, 1, i, 1) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* What equal_keys() and sets_intersect() share once their arguments are parsed: both sides'
 * keys (sequences of ints) or, when `sets`, synonym sets (sequences of bytes of packed int64
 * values); the identities, read when `different` (always for sets) and as long as the sides;
 * and the one-word candidates in a new list of match_type objects of `stage`. */
static PyObject *
one_word_list(PyObject *h_obj, PyObject *r_obj, PyObject *hi_obj, PyObject *ri_obj,
              PyObject *stage, PyObject *type, int sets, int different)
{
    if (check_match_type(type) < 0) {
        return NULL;
    }
    PyObject *out = NULL, *hs = NULL, *rs = NULL;
    int64_t *hk = NULL, *rk = NULL, *hid = NULL, *rid = NULL;
    Packed *packed = NULL;
    Chains chains = {0};
    Py_ssize_t nh = 0, nr = 0, n3 = 0, n4 = 0;
    if (sets) {
        if (fast_sides(h_obj, r_obj, "hyp_sets: expected a sequence of bytes",
                       "ref_sets: expected a sequence of bytes", &hs, &rs) < 0) {
            goto done;
        }
        nh = PySequence_Fast_GET_SIZE(hs);
        nr = PySequence_Fast_GET_SIZE(rs);
        packed = PyMem_Malloc((size_t)(nh + nr + 1) * sizeof(Packed));
        if (packed == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        for (Py_ssize_t k = 0; k < nh + nr; k++) {
            PyObject *b =
                k < nh ? PySequence_Fast_GET_ITEM(hs, k) : PySequence_Fast_GET_ITEM(rs, k - nh);
            if (!PyBytes_Check(b) || PyBytes_GET_SIZE(b) % (Py_ssize_t)sizeof(int64_t) != 0) {
                PyErr_SetString(PyExc_TypeError, "sets: expected bytes of packed int64 values");
                goto done;
            }
            packed[k].base = PyBytes_AS_STRING(b);
            packed[k].n = PyBytes_GET_SIZE(b) / (Py_ssize_t)sizeof(int64_t);
        }
    }
    else {
        if (read_int64_sides(h_obj, r_obj, "hyp_keys: expected a sequence of ints",
                             "ref_keys: expected a sequence of ints", &hk, &nh, &rk, &nr) < 0) {
            goto done;
        }
    }
    if (different) {
        if (read_ids(hi_obj, ri_obj, &hid, &n3, &rid, &n4) < 0) {
            goto done;
        }
        if (n3 != nh || n4 != nr) {
            PyErr_SetString(PyExc_ValueError, sets ? "sets and identities differ in length"
                                                   : "keys and identities differ in length");
            goto done;
        }
    }
    Emit e;
    out = emit_list(&e, type, stage);
    if (out == NULL) {
        goto done;
    }
    const int rc = sets ? sets_core(&e, &chains, packed, nh, packed + nh, nr, hid, rid)
                        : equal_keys_core(&e, &chains, hk, nh, rk, nr, hid, rid, different);
    if (rc < 0) {
        Py_CLEAR(out);
    }
done:
    chains_free(&chains);
    FREE_EACH(hk, rk, hid, rid, packed);
    Py_XDECREF(hs);
    Py_XDECREF(rs);
    return out;
}

/*
 * equal_keys(hyp_keys, ref_keys, hyp_ids, ref_ids, stage, match_type, different) -> list
 *
 * One-word candidates (j, 1, i, 1, stage) for every reference j ascending and hypothesis i
 * ascending with hyp_keys[i] == ref_keys[j]; when `different` is true, pairs whose identities
 * (hyp_ids[i], ref_ids[j]) are equal are left out. Exact matching passes the identities as keys;
 * stem matching passes stem identities and different=True.
 */
PyObject *
equal_keys_c(PyObject *self, PyObject *args)
{
    PyObject *hk_obj, *rk_obj, *hi_obj, *ri_obj, *stage, *type;
    int different;
    if (!PyArg_ParseTuple(args, "OOOOOOp:equal_keys", &hk_obj, &rk_obj, &hi_obj, &ri_obj, &stage,
                          &type, &different)) {
        return NULL;
    }
    return one_word_list(hk_obj, rk_obj, hi_obj, ri_obj, stage, type, 0, different);
}

/*
 * sets_intersect(hyp_sets, ref_sets, hyp_ids, ref_ids, stage, match_type) -> list
 *
 * hyp_sets[i] and ref_sets[j] are bytes holding sorted, duplicate-free native int64 values
 * (synset identifiers). Candidates (j, 1, i, 1, stage) for every reference j ascending and
 * hypothesis i ascending whose sets share a value and whose identities differ.
 */
PyObject *
sets_intersect_c(PyObject *self, PyObject *args)
{
    PyObject *hs_obj, *rs_obj, *hi_obj, *ri_obj, *stage, *type;
    if (!PyArg_ParseTuple(args, "OOOOOO:sets_intersect", &hs_obj, &rs_obj, &hi_obj, &ri_obj,
                          &stage, &type)) {
        return NULL;
    }
    return one_word_list(hs_obj, rs_obj, hi_obj, ri_obj, stage, type, 1, 1);
}
