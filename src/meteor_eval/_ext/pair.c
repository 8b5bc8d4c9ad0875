/*
 * The fused METEOR 1.5 pair kernel: candidates of every stage (candidates.c, paraphrase.c),
 * the beam search (beam.c) and the word statistics (stats.c) of hypothesis/reference pairs of
 * word-type ids, without Python objects in between:
 *
 *   meteor15_pair(...)  one pair: its statistics tuple and, on request, the chosen matches;
 *   meteor15_rows(...)  a batch of pairs (concatenated id arrays and offsets): each pair's
 *                       23 statistics in the jar's order written straight into a caller's
 *                       int64 block, with the tables parsed and the workspace allocated once
 *                       per batch.
 *
 * The candidate store holds 8-byte entries filed by reference position; for long pairs it is
 * built in two passes over the generators (count, then file each candidate), so its memory is
 * linear in the number of candidate matches; the generators find candidates through hash tables, so their
 * time is linear in the candidates found. The number of candidates is the work a pair costs:
 * above a caller's budget the pair is refused before its store is built.
 */

#include "kernels.h"

enum { KIND_EXACT, KIND_STEM, KIND_SYNONYM, KIND_PARAPHRASE };

/* Pairs of at most this many tokens (both sides) generate their candidates once into a raw
 * array; longer ones run the generators twice (count, then file) to keep memory at 8 bytes a
 * candidate. Both give the same store. */
#define ONE_PASS_TOKENS 2048

/* The per-type tables and settings shared by every pair of a call. */
typedef struct {
    const unsigned char *kinds;
    Py_ssize_t n_stages;
    Py_ssize_t n_types;
    const int32_t *hashes, *stems, *para;
    const unsigned char *functions;
    const int64_t *starts;
    const char *pool;
    Py_ssize_t pool_len;
    Trie trie;
    Py_ssize_t beam;
    int64_t budget;
    Py_buffer views[6]; /* hashes, stems, paraphrase ids, functions, synonym starts, pool */
    Py_buffer trie_views[4];
} Tables;

static void
tables_close(Tables *t)
{
    release_buffers(t->views, 6);
    trie_close(t->trie_views);
}

/* Read the tables a configuration uses; t must start zeroed and is released by tables_close()
 * whatever happens. */
static int
tables_open(Tables *t, PyObject *kinds_obj, PyObject *hash_obj, PyObject *stem_obj,
            PyObject *para_obj, PyObject *func_obj, PyObject *start_obj, PyObject *pool_obj,
            PyObject *trie_obj)
{
    t->kinds = (const unsigned char *)PyBytes_AS_STRING(kinds_obj);
    t->n_stages = PyBytes_GET_SIZE(kinds_obj);
    if (t->n_stages > ENTRY_MAX_STAGE) {
        PyErr_SetString(PyExc_ValueError, "kinds: at most 255 stages");
        return -1;
    }
    t->n_types = get_items(hash_obj, &t->views[0], 4, "hashes", 0);
    if (t->n_types < 0 || get_items(func_obj, &t->views[3], 1, "functions", 0) < 0) {
        return -1;
    }
    if (t->views[3].len < t->n_types) {
        PyErr_SetString(PyExc_ValueError, "functions: shorter than hashes");
        return -1;
    }
    t->hashes = t->views[0].buf;
    t->functions = t->views[3].buf;
    for (Py_ssize_t s = 0; s < t->n_stages; s++) {
        const unsigned char kind = t->kinds[s];
        if (kind == KIND_STEM && t->stems == NULL) {
            if (stem_obj == Py_None ||
                get_items(stem_obj, &t->views[1], 4, "stems", 0) < t->n_types) {
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_ValueError, "stems: missing or shorter than hashes");
                }
                return -1;
            }
            t->stems = t->views[1].buf;
        }
        else if (kind == KIND_PARAPHRASE && t->para == NULL) {
            if (para_obj == Py_None || trie_obj == Py_None ||
                get_items(para_obj, &t->views[2], 4, "paraphrase_ids", 0) < t->n_types) {
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_ValueError,
                                    "paraphrase_ids or trie: missing or shorter than hashes");
                }
                return -1;
            }
            t->para = t->views[2].buf;
        }
        else if (kind == KIND_SYNONYM && t->starts == NULL) {
            if (start_obj == Py_None || pool_obj == Py_None ||
                get_items(start_obj, &t->views[4], 8, "synonym_starts", 0) < t->n_types + 1 ||
                (t->pool_len = get_items(pool_obj, &t->views[5], 8, "synonym_pool", 0)) < 0) {
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_ValueError, "synonym tables: missing or too short");
                }
                return -1;
            }
            t->starts = t->views[4].buf;
            t->pool = t->views[5].buf;
        }
        else if (kind > KIND_PARAPHRASE) {
            PyErr_SetString(PyExc_ValueError, "kinds: expected values 0 to 3");
            return -1;
        }
    }
    if (t->para != NULL) {
        PyObject *parts = PySequence_Fast(trie_obj, "trie: expected a 4- or 5-tuple");
        if (parts == NULL) {
            return -1;
        }
        const Py_ssize_t n_parts = PySequence_Fast_GET_SIZE(parts);
        if (n_parts != 4 && n_parts != 5) {
            PyErr_SetString(PyExc_ValueError, "trie: expected a 4- or 5-tuple");
            Py_DECREF(parts);
            return -1;
        }
        PyObject **items = PySequence_Fast_ITEMS(parts);
        int rc = trie_open(&t->trie, t->trie_views, items[0], items[1], items[2], items[3]);
        if (rc == 0 && n_parts == 5 && items[4] != Py_None) {
            t->trie.walks = walk_cache_of(items[4]);
            rc = t->trie.walks == NULL ? -1 : 0;
        }
        Py_DECREF(parts);
        if (rc < 0) {
            return -1;
        }
    }
    return 0;
}

/* Per-pair scratch arrays, grown only. */
typedef struct {
    int64_t *side; /* identities of both sides, then keys of both sides */
    Py_ssize_t side_cap;
    unsigned char *flags;
    Py_ssize_t flags_cap;
    Packed *sets;
    Py_ssize_t sets_cap;
    Cand *chosen;
    Py_ssize_t chosen_cap;
    Emit para; /* raw paraphrase candidates, generated once and replayed by both passes */
    Emit all;  /* a short pair's raw candidates of every stage */
    Chains chains; /* the exact, stem and synonym generators' hash table */
} Scratch;

static void
scratch_free(Scratch *s)
{
    FREE_EACH(s->side, s->flags, s->sets, s->chosen, s->para.raw, s->all.raw);
    chains_free(&s->chains);
}

#define SCRATCH_GROW(ptr, cap, need) grow((void **)&(ptr), &(cap), (need), sizeof(*(ptr)))

/* Run the generator of every stage (in stage order, only the first for identical segments,
 * spec 3.5) into e; paraphrase candidates are replayed from sc->para.raw. */
static int
generate(const Tables *t, Scratch *sc, Emit *e, const int32_t *hyp, Py_ssize_t nh,
         const int32_t *ref, Py_ssize_t nr, int identical)
{
    int64_t *hid = sc->side, *rid = sc->side + nh, *hkey = sc->side + nh + nr;
    int64_t *rkey = hkey + nh;
    for (Py_ssize_t s = 0; s < t->n_stages; s++) {
        e->stage = s;
        int rc = 0;
        switch (t->kinds[s]) {
        case KIND_EXACT:
            rc = equal_keys_core(e, &sc->chains, hid, nh, rid, nr, hid, rid, 0);
            break;
        case KIND_STEM:
            for (Py_ssize_t k = 0; k < nh + nr; k++) {
                hkey[k] = t->stems[k < nh ? hyp[k] : ref[k - nh]];
            }
            rc = equal_keys_core(e, &sc->chains, hkey, nh, rkey, nr, hid, rid, 1);
            break;
        case KIND_SYNONYM:
            rc = sets_core(e, &sc->chains, sc->sets, nh, sc->sets + nh, nr, hid, rid);
            break;
        default: { /* KIND_PARAPHRASE: replay this stage's raw candidates, unbudgeted */
            const int64_t budget = e->budget;
            e->budget = 0;
            for (Py_ssize_t k = 0; k < sc->para.n && rc == 0; k++) {
                const Raw *c = &sc->para.raw[k];
                if (c->stage == s) {
                    rc = emit(e, c->ref_start, c->ref_len, c->hyp_start, c->hyp_len);
                }
            }
            e->budget = budget;
            break;
        }
        }
        if (rc < 0) {
            return -1;
        }
        if (identical) {
            break;
        }
    }
    return 0;
}

/* Whether every id of ids[0..n) indexes a row of the tables. */
static inline int
ids_in_tables(const Tables *t, const int32_t *ids, Py_ssize_t n)
{
    const Py_ssize_t n_types = t->n_types;
    int ok = 1;
    for (Py_ssize_t k = 0; k < n; k++) { /* no branch a token: almost every batch is valid */
        ok &= (ids[k] >= 0) & ((Py_ssize_t)ids[k] < n_types);
    }
    return ok;
}

/* The synonym set of each id of ids[0..n) as a view of the pool into out; -1 (no exception
 * set) when a type's start and end are not a span of the pool. */
static int
set_views(const Tables *t, const int32_t *ids, Py_ssize_t n, Packed *out)
{
    const int64_t *const starts = t->starts;
    const char *const pool = t->pool;
    const int64_t pool_len = t->pool_len;
    for (Py_ssize_t k = 0; k < n; k++) {
        const int64_t a = starts[ids[k]], b = starts[ids[k] + 1];
        if (a < 0 || b < a || b > pool_len) {
            return -1;
        }
        out[k].base = pool + a * (int64_t)sizeof(int64_t);
        out[k].n = (Py_ssize_t)(b - a);
    }
    return 0;
}

/* File a short pair's raw candidates (every stage's, in generation order) into w's store, as
 * counting them with emit() in EMIT_COUNT mode and then filing them in EMIT_FILL mode did:
 * the same per-position counts and coverage, the same entries in the same order, and the
 * same IndexError for a stage without a weight (the spans and stage were checked when each
 * candidate was kept raw). One loop a pass, with no call and no mode test a candidate. */
static int
file_raw(Work *w, const Raw *raw, Py_ssize_t n, Py_ssize_t nr)
{
    Py_ssize_t *const first = w->first;
    int64_t *const ref_cov = w->ref_cov, *const hyp_cov = w->hyp_cov;
    const Py_ssize_t n_weights = w->n_weights;
    for (Py_ssize_t k = 0; k < n; k++) {
        const Raw c = raw[k];
        if ((Py_ssize_t)c.stage >= n_weights) {
            PyErr_SetString(PyExc_IndexError, "aligner_weights: no weight for a stage");
            return -1;
        }
        first[c.ref_start + 1]++;
        if (c.ref_len == 1 && c.hyp_len == 1) { /* every one-word stage's candidate */
            ref_cov[c.ref_start]++;
            hyp_cov[c.hyp_start]++;
            continue;
        }
        for (int32_t j = c.ref_start; j < c.ref_start + c.ref_len; j++) {
            ref_cov[j]++;
        }
        for (int32_t i = c.hyp_start; i < c.hyp_start + c.hyp_len; i++) {
            hyp_cov[i]++;
        }
    }
    if (store_file(w, nr) < 0) {
        return -1;
    }
    Entry *const entries = w->entries;
    Py_ssize_t *const slot = w->slot;
    for (Py_ssize_t k = 0; k < n; k++) {
        const Raw c = raw[k];
        Entry *x = &entries[slot[c.ref_start]++];
        x->hyp_start = c.hyp_start;
        x->hyp_len = c.hyp_len;
        x->ref_len = c.ref_len;
        x->stage = c.stage;
    }
    return 0;
}

/*
 * One pair into w's store, searched: 0 on success (w->assigned set, row written to head and
 * counts), 1 when the candidates exceed t->budget (*units set, no exception), -1 with an
 * exception set.
 */
static int
pair_core(const Tables *t, Work *w, Scratch *sc, const int32_t *hyp, Py_ssize_t nh,
          const int32_t *ref, Py_ssize_t nr, int64_t head[7], int64_t *counts,
          Py_ssize_t *n_chosen, int64_t *units)
{
    if (!ids_in_tables(t, hyp, nh) || !ids_in_tables(t, ref, nr)) {
        PyErr_SetString(PyExc_ValueError, "a word-type id is outside the tables");
        return -1;
    }
    if (SCRATCH_GROW(sc->side, sc->side_cap, 2 * (nh + nr) + 1) < 0 ||
        SCRATCH_GROW(sc->flags, sc->flags_cap, nh + nr + 1) < 0 ||
        SCRATCH_GROW(sc->chosen, sc->chosen_cap, nr + 1) < 0) {
        return -1;
    }
    int64_t *hid = sc->side, *rid = sc->side + nh, *hkey = sc->side + nh + nr;
    int64_t *rkey = hkey + nh;
    int identical = nh == nr;
    {
        /* The tables in locals: built with -fno-strict-aliasing, a store through hid or flags
         * would otherwise make the compiler load t->hashes and t->functions again each time. */
        const int32_t *const hashes = t->hashes;
        const unsigned char *const functions = t->functions;
        unsigned char *const flags = sc->flags;
        for (Py_ssize_t i = 0; i < nh; i++) {
            hid[i] = hashes[hyp[i]];
            flags[i] = functions[hyp[i]];
        }
        int same = identical;
        for (Py_ssize_t j = 0; j < nr; j++) {
            rid[j] = hashes[ref[j]];
            flags[nh + j] = functions[ref[j]];
            same &= rid[j] == hid[j < nh ? j : 0];
        }
        identical = same;
    }
    const Py_ssize_t stages_run = identical && t->n_stages > 0 ? 1 : t->n_stages;
    /* Per-side inputs of the stages that run: synonym sets, paraphrase candidates. */
    sc->para.n = 0;
    sc->para.units = 0;
    sc->para.over = 0;
    sc->para.budget = t->budget;
    sc->para.list = NULL;
    sc->para.mode = EMIT_DEFAULT;
    for (Py_ssize_t s = 0; s < stages_run; s++) {
        if (t->kinds[s] == KIND_SYNONYM) {
            if (SCRATCH_GROW(sc->sets, sc->sets_cap, nh + nr + 1) < 0) {
                return -1;
            }
            if (set_views(t, hyp, nh, sc->sets) < 0 || set_views(t, ref, nr, sc->sets + nh) < 0) {
                PyErr_SetString(PyExc_ValueError, "synonym_starts: outside the pool");
                return -1;
            }
        }
        else if (t->kinds[s] == KIND_PARAPHRASE) {
            const int32_t *const para = t->para;
            for (Py_ssize_t i = 0; i < nh; i++) {
                hkey[i] = para[hyp[i]];
            }
            for (Py_ssize_t j = 0; j < nr; j++) {
                rkey[j] = para[ref[j]];
            }
            sc->para.stage = s;
            if (paraphrase_core(&sc->para, &t->trie, hkey, nh, rkey, nr) < 0) {
                if (sc->para.over) {
                    *units = sc->para.units;
                    return 1;
                }
                return -1;
            }
        }
    }
    if (store_begin(w, nh, nr) < 0) {
        return -1;
    }
    Emit e;
    memset(&e, 0, sizeof(e));
    e.work = w;
    if (nh + nr <= ONE_PASS_TOKENS) {
        /* A short pair: generate once into the raw array (12 bytes a candidate), then count
         * and file from it; cheaper than running the generators twice. */
        Emit *all = &sc->all;
        all->list = NULL;
        all->mode = EMIT_DEFAULT;
        all->n = 0;
        all->over = 0;
        all->budget = t->budget;
        all->units = sc->para.units;
        if (generate(t, sc, all, hyp, nh, ref, nr, identical) < 0) {
            if (all->over) {
                *units = all->units;
                return 1;
            }
            return -1;
        }
        if (file_raw(w, all->raw, all->n, nr) < 0) {
            return -1;
        }
        e.units = all->units;
    }
    else {
        /* A long pair (a document): pass 1 counts the candidates of each position and the
         * coverage (stopping at the budget), pass 2 files them; memory stays at the 8-byte
         * entries. */
        e.mode = EMIT_COUNT;
        e.budget = t->budget;
        e.units = sc->para.units;
        if (generate(t, sc, &e, hyp, nh, ref, nr, identical) < 0) {
            if (e.over) {
                *units = e.units;
                return 1;
            }
            return -1;
        }
        if (store_file(w, nr) < 0) {
            return -1;
        }
        e.mode = EMIT_FILL;
        e.budget = 0;
        if (generate(t, sc, &e, hyp, nh, ref, nr, identical) < 0) {
            return -1;
        }
    }
    if (search(w, nh, nr, t->beam) < 0) {
        return -1;
    }
    Py_ssize_t n = 0;
    for (Py_ssize_t j = 0; j < nr; j++) {
        if (w->assigned[j] >= 0) {
            entry_cand(w, w->assigned[j], j, &sc->chosen[n++]);
        }
    }
    memset(counts, 0, (size_t)(4 * t->n_stages + 1) * sizeof(int64_t));
    stats_core(sc->chosen, n, sc->flags, nh, sc->flags + nh, nr, head, counts);
    *n_chosen = n;
    *units = e.units;
    return 0;
}

/* What one meteor15_pair() or meteor15_rows() call holds: the tables, the beam search's
 * workspace, the scratch arrays and the per-stage counts of a pair. */
typedef struct {
    Tables t;
    Work w;
    Scratch sc;
    int64_t *counts;
} Call;

/* A zeroed call for this beam width and budget (<= 0: none); -1 with ValueError for a beam
 * below 1. call_end() releases it whatever happens after. */
static int
call_begin(Call *c, Py_ssize_t beam, long long budget)
{
    if (beam < 1) {
        PyErr_SetString(PyExc_ValueError, "beam: must be at least 1");
        return -1;
    }
    memset(c, 0, sizeof(*c));
    c->t.beam = beam;
    c->t.budget = budget > 0 ? budget : 0;
    return 0;
}

/* Read the tables (tables_open()) and the aligner weights, and allocate the counts. */
static int
call_open(Call *c, PyObject *kinds_obj, PyObject *hash_obj, PyObject *stem_obj,
          PyObject *para_obj, PyObject *func_obj, PyObject *start_obj, PyObject *pool_obj,
          PyObject *trie_obj, PyObject *weights_obj)
{
    if (tables_open(&c->t, kinds_obj, hash_obj, stem_obj, para_obj, func_obj, start_obj,
                    pool_obj, trie_obj) < 0 ||
        read_weights(&c->w, weights_obj) < 0) {
        return -1;
    }
    c->counts = PyMem_Calloc((size_t)(4 * c->t.n_stages + 1), sizeof(int64_t));
    if (c->counts == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void
call_end(Call *c)
{
    work_free(&c->w);
    scratch_free(&c->sc);
    PyMem_Free(c->counts);
    tables_close(&c->t);
}

/*
 * meteor15_pair(kinds, hyp, ref, hashes, stems, paraphrase_ids, functions, synonym_starts,
 *               synonym_pool, trie, aligner_weights, beam, match_type, budget=0)
 *     -> (row, matches) or (None, units)
 *
 * One METEOR 1.5 hypothesis/reference pair from start to statistics, without Python objects
 * in between: kinds[k] is the module of stage k (0 exact, 1 stem, 2 synonym, 3 paraphrase);
 * hyp and ref are int32 word-type ids indexing the per-type tables: hashes (int32 Java hash,
 * the word identity), stems (int32 stem identity), paraphrase_ids (int32 table token id, -1
 * unknown), functions (uint8 function-word flag) and the packed synonym sets
 * synonym_pool[synonym_starts[v] .. synonym_starts[v + 1]) (int64, sorted). Tables a
 * configuration does not use may be None. trie is (nodes, token, record_b, root or None) of the
 * paraphrase index (format version 2), or None; a fifth item, when given and not None, is a
 * paraphrase_walk_cache() bound to that index, which keeps the walks of the references met
 * (the same candidates, fewer lookups in the index).
 *
 * Candidates are generated stage by stage in the matchers' orders (only the first stage runs
 * when both segments have the same identities, spec 3.5), aligned by the beam search, and
 * counted as word_stats() does. row is word_stats()'s tuple; matches is the list of chosen
 * match_type objects when match_type is given, else None. With budget > 0, a pair with more
 * candidate matches than budget is not aligned: the result is (None, units), units being the
 * candidates counted when the budget was passed.
 */
PyObject *
meteor15_pair_c(PyObject *self, PyObject *args)
{
    PyObject *kinds_obj, *hyp_obj, *ref_obj, *hash_obj, *stem_obj, *para_obj, *func_obj;
    PyObject *start_obj, *pool_obj, *trie_obj, *weights_obj, *type;
    Py_ssize_t beam;
    long long budget = 0;
    if (!PyArg_ParseTuple(args, "O!OOOOOOOOOOnO|L:meteor15_pair", &PyBytes_Type, &kinds_obj,
                          &hyp_obj, &ref_obj, &hash_obj, &stem_obj, &para_obj, &func_obj,
                          &start_obj, &pool_obj, &trie_obj, &weights_obj, &beam, &type,
                          &budget)) {
        return NULL;
    }
    Call c;
    if (call_begin(&c, beam, budget) < 0) {
        return NULL;
    }
    if (type != Py_None && check_match_type(type) < 0) {
        return NULL;
    }
    Py_buffer hv = {0}, rv = {0};
    PyObject *row = NULL, *matches = NULL, *result = NULL;

    const Py_ssize_t nh = get_items(hyp_obj, &hv, 4, "hyp", 0);
    const Py_ssize_t nr = nh < 0 ? -1 : get_items(ref_obj, &rv, 4, "ref", 0);
    if (nr < 0 || call_open(&c, kinds_obj, hash_obj, stem_obj, para_obj, func_obj, start_obj,
                            pool_obj, trie_obj, weights_obj) < 0) {
        goto done;
    }
    int64_t head[7], units = 0;
    Py_ssize_t n_chosen = 0;
    const int rc = pair_core(&c.t, &c.w, &c.sc, hv.buf, nh, rv.buf, nr, head, c.counts,
                             &n_chosen, &units);
    if (rc < 0) {
        goto done;
    }
    if (rc == 1) {
        result = Py_BuildValue("(OL)", Py_None, (long long)units);
        goto done;
    }
    for (Py_ssize_t k = 0; k < n_chosen; k++) {
        if (c.sc.chosen[k].stage >= c.t.n_stages) {
            PyErr_SetString(PyExc_IndexError, "a match's stage is not below n_stages");
            goto done;
        }
    }
    row = stats_tuple(head, c.counts, c.t.n_stages);
    if (row == NULL) {
        goto done;
    }
    if (type != Py_None) {
        matches = PyList_New(n_chosen);
        if (matches == NULL) {
            goto done;
        }
        for (Py_ssize_t k = 0; k < n_chosen; k++) {
            const Cand *m_c = &c.sc.chosen[k];
            PyObject *stage = PyLong_FromLongLong(m_c->stage);
            if (stage == NULL) {
                goto done;
            }
            PyObject *m = new_match((PyTypeObject *)type, m_c->ref_start, m_c->ref_len,
                                    m_c->hyp_start, m_c->hyp_len, stage);
            Py_DECREF(stage);
            if (m == NULL) {
                goto done;
            }
            PyList_SET_ITEM(matches, k, m);
        }
    }
    else {
        matches = Py_NewRef(Py_None);
    }
    result = PyTuple_Pack(2, row, matches);
done:
    Py_XDECREF(row);
    Py_XDECREF(matches);
    call_end(&c);
    release_buffer(&hv);
    release_buffer(&rv);
    return result;
}

/* The jar's statistics row (23 numbers: lengths, function words, four stages, chunks,
 * matched) from the kernel's head and per-stage counts; stages beyond four are cut, missing
 * ones are zero (as MeteorStats.to_row()). */
static void
jar_row(int64_t *out, const int64_t head[7], const int64_t *counts, Py_ssize_t n_stages)
{
    out[0] = head[0];
    out[1] = head[1];
    out[2] = head[2];
    out[3] = head[3];
    for (Py_ssize_t k = 0; k < 16; k++) {
        out[4 + k] = k < 4 * n_stages ? counts[k] : 0;
    }
    out[20] = head[4];
    out[21] = head[5];
    out[22] = head[6];
}

/*
 * meteor15_rows(kinds, hyp_ids, hyp_offsets, ref_ids, ref_offsets, hashes, stems,
 *               paraphrase_ids, functions, synonym_starts, synonym_pool, trie,
 *               aligner_weights, beam, budget, out) -> None or (index, units)
 *
 * meteor15_pair() of many pairs at once: pair k is hyp_ids[hyp_offsets[k] ..
 * hyp_offsets[k + 1]] against ref_ids[ref_offsets[k] .. ref_offsets[k + 1]] (int32 ids, int64
 * offsets), and its 23 statistics in the jar's order are written to row k of out (a writable
 * int64 buffer of at least 23 values per pair). The tables are read and the workspace grown
 * once for the whole batch. With budget > 0, the first pair whose candidate matches exceed it
 * stops the batch: the result is (its index, the candidates counted); rows before it are
 * written.
 */
PyObject *
meteor15_rows_c(PyObject *self, PyObject *args)
{
    PyObject *kinds_obj, *hyp_obj, *hoff_obj, *ref_obj, *roff_obj, *hash_obj, *stem_obj;
    PyObject *para_obj, *func_obj, *start_obj, *pool_obj, *trie_obj, *weights_obj, *out_obj;
    Py_ssize_t beam;
    long long budget;
    if (!PyArg_ParseTuple(args, "O!OOOOOOOOOOOOnLO:meteor15_rows", &PyBytes_Type, &kinds_obj,
                          &hyp_obj, &hoff_obj, &ref_obj, &roff_obj, &hash_obj, &stem_obj,
                          &para_obj, &func_obj, &start_obj, &pool_obj, &trie_obj, &weights_obj,
                          &beam, &budget, &out_obj)) {
        return NULL;
    }
    Call c;
    if (call_begin(&c, beam, budget) < 0) {
        return NULL;
    }
    PairBatch batch;
    memset(&batch, 0, sizeof(batch));
    PyObject *result = NULL;
    if (batch_open(&batch, hyp_obj, hoff_obj, ref_obj, roff_obj, out_obj) < 0) {
        goto done;
    }
    const int64_t *hoff = batch.hoff, *roff = batch.roff;
    if (call_open(&c, kinds_obj, hash_obj, stem_obj, para_obj, func_obj, start_obj, pool_obj,
                  trie_obj, weights_obj) < 0) {
        goto done;
    }
    const int32_t *hyp = batch.hyp, *ref = batch.ref;
    int64_t *out = batch.out;
    for (Py_ssize_t k = 0; k < batch.n_pairs; k++) {
        int64_t head[7], units = 0;
        Py_ssize_t n_chosen = 0;
        const int rc = pair_core(&c.t, &c.w, &c.sc, hyp + hoff[k],
                                 (Py_ssize_t)(hoff[k + 1] - hoff[k]), ref + roff[k],
                                 (Py_ssize_t)(roff[k + 1] - roff[k]), head, c.counts, &n_chosen,
                                 &units);
        if (rc < 0) {
            goto done;
        }
        if (rc == 1) {
            result = Py_BuildValue("(nL)", k, (long long)units);
            goto done;
        }
        jar_row(out + 23 * k, head, c.counts, c.t.n_stages);
    }
    result = Py_NewRef(Py_None);
done:
    call_end(&c);
    batch_close(&batch);
    return result;
}

/*
 * packed_set_ends(sets, first) -> bytes
 *
 * The synonym column of a word-type table's new rows (match/word_types.py): the sets of a
 * batch (packed int64 values, one object with a length a type) are appended in order to a
 * pool of `first` items, and each ends where the pool's length then is, in items; those ends
 * come back as native int64 bytes. ValueError when a set is not a whole number of items (what
 * array.frombytes refuses).
 */
PyObject *
packed_set_ends_c(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *sets;
    long long first;
    if (!PyArg_ParseTuple(args, "O!L:packed_set_ends", &PyList_Type, &sets, &first)) {
        return NULL;
    }
    const Py_ssize_t n = PyList_GET_SIZE(sets);
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(int64_t));
    if (out == NULL) {
        return NULL;
    }
    char *ends = PyBytes_AS_STRING(out);
    int64_t end = (int64_t)first;
    for (Py_ssize_t k = 0; k < n; k++) {
        if (k >= PyList_GET_SIZE(sets)) { /* a __len__ below emptied the list */
            Py_DECREF(out);
            PyErr_SetString(PyExc_RuntimeError, "packed_set_ends: the list changed size");
            return NULL;
        }
        PyObject *set = PyList_GET_ITEM(sets, k);
        Py_ssize_t size;
        if (PyBytes_CheckExact(set)) {
            size = PyBytes_GET_SIZE(set);
        } else { /* any object with a length, as len() takes it */
            Py_INCREF(set);
            size = PyObject_Length(set);
            Py_DECREF(set);
            if (size < 0) {
                Py_DECREF(out);
                return NULL;
            }
        }
        if (size % (Py_ssize_t)sizeof(int64_t) != 0) {
            Py_DECREF(out);
            PyErr_SetString(PyExc_ValueError, "bytes length not a multiple of item size");
            return NULL;
        }
        end += (int64_t)(size / (Py_ssize_t)sizeof(int64_t));
        memcpy(ends + k * (Py_ssize_t)sizeof(int64_t), &end, sizeof(end));
    }
    return out;
}
