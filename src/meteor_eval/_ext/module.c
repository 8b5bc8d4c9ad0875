/*
 * The extension module meteor_eval._ext._kernels: one module object holding the functions of
 * every kernel. Each C file of this folder keeps its method table beside its code (see
 * kernels.h for the list); this file only gathers them. meteor_eval._ext (__init__.py) is the one
 * place that imports the module and says which kernels are compiled.
 */

#include "kernels.h"

static struct PyModuleDef kernels_module = {
    PyModuleDef_HEAD_INIT, "_kernels",
    "Compiled METEOR kernels: normaliser, Java hash, stemmers, candidate generators, beam "
    "search, word statistics, the fused pair kernel, NLTK's greedy alignment and the paraphrase "
    "index builder's tokeniser.",
    -1, NULL,
};

PyMODINIT_FUNC
PyInit__kernels(void)
{
    PyMethodDef *tables[] = {
        meteor_normalize_methods, meteor_hash_methods,  meteor_stem_methods,
        meteor_candidate_methods, meteor_paraphrase_methods, meteor_beam_methods,
        meteor_stats_methods,     meteor_pair_methods,  meteor_greedy_methods,
        meteor_tokens_methods,
        meteor_texttok_methods,
        meteor_bleu_methods,
        meteor_lcs_methods,
        meteor_rouge_methods,
        meteor_frontend_methods,
        meteor_caption_methods,
        meteor_ptb_methods,
    };
    PyObject *module = PyModule_Create(&kernels_module);
    if (module == NULL) {
        return NULL;
    }
#ifdef Py_GIL_DISABLED
    /* Free-threaded CPython: the kernels keep no global state and read only their arguments;
     * the one shared input, a scorer's word-type tables, is read and grown under the Python
     * lock WordTypes.lock (docs/threading.md), so the GIL need not be re-enabled on import. */
    if (PyUnstable_Module_SetGIL(module, Py_MOD_GIL_NOT_USED) < 0) {
        Py_DECREF(module);
        return NULL;
    }
#endif
    for (size_t k = 0; k < sizeof(tables) / sizeof(tables[0]); k++) {
        if (PyModule_AddFunctions(module, tables[k]) < 0) {
            Py_DECREF(module);
            return NULL;
        }
    }
    /* The paraphrase index layout the paraphrase kernels read (kernels.h): Python code pairs a
     * build with the index format it understands, so a stale build is not handed new arrays. */
    if (PyModule_AddIntConstant(module, "_paraphrase_layout", PARAPHRASE_LAYOUT) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
