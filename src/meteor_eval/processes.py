"""How ``jobs`` worker processes start, and what they must know of the process that starts them.

**The start method** (``start_method=``, ``--start-method``, or the environment variable
``METEOR_EVAL_START_METHOD``; the keyword or option wins over the variable):

* ``"auto"`` (the default): on Linux (and other POSIX systems but macOS), ``fork`` when this
  process runs a single thread, otherwise ``forkserver`` (or ``spawn`` where there is none);
  on macOS and Windows, the platform's own default, ``spawn``.
* ``"fork"``, ``"forkserver"``, ``"spawn"``: that method (refused where the platform lacks it).

Why: ``fork`` is the cheapest start (a worker begins with this process's imports and loaded
resources, copy-on-write) but copies only the thread that calls it; if another thread holds a
lock at that moment (logging, an allocator, a web server's pool), the child can deadlock. With
one thread there is no other holder, so ``auto`` forks only then, and never on macOS (its
system libraries are not safe to use after ``fork`` even then, which is why Python itself
stopped forking there). Threads are counted in ``/proc/self/task`` where it exists (native
threads of libraries count too), elsewhere as Python's threads; the threads that importing
numpy started are not counted when :func:`import_numpy` saw them start, or, whoever imported
numpy, when :func:`watch_numpy_import` was called before (the command line does this with
``--jobs``: its metrics may import numpy, whose BLAS starts its pool of threads at once; a plain
METEOR run does not import it, so it does not pay that import either). Otherwise a
worker is started from a clean process (``forkserver`` forks it from a single-threaded server
process; ``spawn`` starts a new interpreter) and loads its resources once in its initializer.
The results are identical whatever the method.

**What a worker must know** beyond the metric's configuration, whatever the method:

* match modules registered at run time (:func:`meteor_eval.match.registry.register`) that the
  configuration uses: their declarations are sent to each worker, which registers them; a
  declaration that cannot be pickled (a ``lambda``, a function defined inside another) is
  refused with a :class:`~meteor_eval.errors.ConfigError` unless workers fork;
* the work budgets of :data:`meteor_eval.limits.WORK_BUDGET`, as this process has them.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import TYPE_CHECKING, Any

from meteor_eval.errors import ConfigError

if TYPE_CHECKING:
    import multiprocessing.context

__all__ = [
    "ENV_VARIABLE",
    "START_METHODS",
    "WorkerState",
    "apply_worker_state",
    "choose_start_method",
    "context",
    "forks_beside_numpy_only",
    "import_numpy",
    "resolve_start_method",
    "thread_count",
    "watch_numpy_import",
    "worker_state",
]

#: The accepted values of ``start_method`` (``auto`` chooses among the others).
START_METHODS: tuple[str, ...] = ("auto", "fork", "forkserver", "spawn")

#: The environment variable that sets the default start method.
ENV_VARIABLE = "METEOR_EVAL_START_METHOD"

#: What a worker needs besides its metric: ``(runtime match modules, WORK_BUDGET)``.
WorkerState = tuple[tuple[Any, ...], dict[str, int]]


def resolve_start_method(start_method: str | None = None) -> str:
    """The start method asked for: ``start_method``, else the environment variable, else
    ``"auto"`` (checked, but ``auto`` not yet resolved: see :func:`choose_start_method`).

    Raises:
        ConfigError: an unknown name (naming where it came from), or a method this platform
            does not have.
    """
    where = "start_method"
    if start_method is None:
        start_method = os.environ.get(ENV_VARIABLE) or "auto"
        where = ENV_VARIABLE
    if start_method not in START_METHODS:
        raise ConfigError(
            f"{where}: {start_method!r} is invalid; allowed: {', '.join(START_METHODS)}"
        )
    if start_method != "auto":
        import multiprocessing

        available = multiprocessing.get_all_start_methods()
        if start_method not in available:
            raise ConfigError(
                f"{where}: {start_method!r} is not available on this platform; allowed: auto, "
                f"{', '.join(available)}"
            )
    return start_method


def thread_count() -> int:
    """Threads of this process: every thread the kernel knows of on Linux (native threads of
    libraries included), else the Python threads."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return threading.active_count()


#: The threads (ids in ``/proc/self/task``) that numpy's import started (:func:`import_numpy`).
_numpy_threads: frozenset[str] = frozenset()


def _thread_ids() -> frozenset[str] | None:
    """The ids of this process's threads (Linux), else None."""
    try:
        return frozenset(os.listdir("/proc/self/task"))
    except OSError:
        return None


def import_numpy() -> int:
    """Import numpy, noting the threads its import starts; the number of them.

    numpy's BLAS (OpenBLAS) starts a pool of ``cores - 1`` threads when it is loaded, which
    would stop ``auto`` from forking. They are safe to fork beside: they wait for a matrix
    product, and OpenBLAS registers a handler that stops them before any ``fork``
    (``pthread_atfork``) and starts new ones when next needed. So :func:`choose_start_method`
    does not count those threads, by their ids (threads started later count, whoever started
    them). Changing their number instead (``OPENBLAS_NUM_THREADS``) would change the sums of
    large matrix products (resampling in significance tests), so it is not done. Nothing is
    noted when numpy is already imported (whoever imported it may have started other threads
    since), where threads have no ids to read, or when the BLAS is not OpenBLAS.
    """
    if "numpy" in sys.modules:
        return 0
    _stop_watching()
    before = _thread_ids()
    import numpy

    return _note_numpy_threads(before, numpy)


def _note_numpy_threads(before: frozenset[str] | None, numpy: Any) -> int:
    """Note the threads started since ``before`` (numpy's import) as numpy's; their number."""
    global _numpy_threads
    after = _thread_ids()
    if before is not None and after is not None and _blas_is_openblas(numpy):
        _numpy_threads = after - before
    return len(_numpy_threads)


class _NumpyImportWatch:
    """A finder first on ``sys.meta_path`` until numpy's import begins (:func:`watch_numpy_import`):
    it finds numpy's spec through the other finders and has its loader note the threads that
    executing the package starts, as :func:`import_numpy` does, whoever imports it."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "numpy":
            return None
        _stop_watching()
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = None if find is None else find(name, path, target)
            if spec is not None:
                break
        else:
            return None
        run = getattr(spec.loader, "exec_module", None)
        if run is None:
            return spec

        def exec_module(module: Any) -> None:
            before = _thread_ids()
            run(module)
            _note_numpy_threads(before, module)

        # The loader is this spec's own object (a path finder makes one per call).
        setattr(spec.loader, "exec_module", exec_module)  # noqa: B010
        return spec


_WATCH = _NumpyImportWatch()


def _stop_watching() -> None:
    if _WATCH in sys.meta_path:
        sys.meta_path.remove(_WATCH)


def watch_numpy_import() -> None:
    """Note the threads that numpy's import starts when it happens, whoever imports it (what
    :func:`import_numpy` notes, without importing numpy now: a run that never needs it, such as
    a plain METEOR score, does not pay its import). Nothing to do when numpy is imported
    already."""
    if "numpy" not in sys.modules and _WATCH not in sys.meta_path:
        sys.meta_path.insert(0, _WATCH)


def _blas_is_openblas(numpy: Any) -> bool:
    """Whether numpy's BLAS is OpenBLAS, by numpy's build record (numpy 1.26 and later): only
    OpenBLAS's threads are known to stop around a fork. Another BLAS (MKL, BLIS, Accelerate),
    or a numpy that does not say, keeps its threads counted."""
    try:
        name = numpy.__config__.CONFIG["Build Dependencies"]["blas"]["name"]
    except (AttributeError, KeyError, TypeError):
        return False
    return isinstance(name, str) and "openblas" in name.lower()


def _numpy_threads_running() -> int:
    """How many of the threads numpy's import started still run."""
    if not _numpy_threads:
        return 0
    ids = _thread_ids()
    return len(ids & _numpy_threads) if ids is not None else 0


def forks_beside_numpy_only() -> bool:
    """True when this process's threads other than the calling one are those numpy's import
    started (:func:`import_numpy`), and there are some: a fork then needs no warning.

    Python 3.12 and later warn at every ``fork`` of a process with several threads
    (``DeprecationWarning``: "This process ... is multi-threaded, use of fork() may lead to
    deadlocks in the child"); the command line would show it on every ``--jobs`` run.
    """
    numpy_threads = _numpy_threads_running()
    return numpy_threads > 0 and thread_count() - numpy_threads <= 1


def choose_start_method(start_method: str | None = None) -> str:
    """The start method workers will use (``auto`` resolved as the module docstring says).

    Raises:
        ConfigError: as :func:`resolve_start_method`.
    """
    import multiprocessing

    method = resolve_start_method(start_method)
    if method != "auto":
        return method
    available = multiprocessing.get_all_start_methods()
    if sys.platform == "darwin" or "fork" not in available:
        return available[0]  # the platform's default: spawn on macOS and Windows
    if thread_count() - _numpy_threads_running() <= 1:
        return "fork"
    return "forkserver" if "forkserver" in available else "spawn"


def context(method: str) -> multiprocessing.context.BaseContext:
    """The multiprocessing context of a resolved start method.

    A forkserver imports the package once, so each worker it forks starts with the modules
    loaded (its resources are still loaded in the worker's initializer).
    """
    import multiprocessing

    ctx = multiprocessing.get_context(method)
    if method == "forkserver":
        # The scorer module itself: the package imports its names on first use.
        ctx.set_forkserver_preload(["meteor_eval.pool", "meteor_eval.metrics.meteor.scorer"])
    return ctx


def _module_names(config: object) -> tuple[str, ...]:
    modules = getattr(config, "modules", ())
    return tuple(name for name in modules if isinstance(name, str))


def worker_state(config: object, method: str) -> WorkerState:
    """What workers started by ``method`` need for ``config`` besides the configuration.

    Raises:
        ConfigError: a match module registered at run time cannot be sent to a worker that
            does not fork (its declaration does not pickle).
    """
    import pickle

    from meteor_eval import limits
    from meteor_eval.match import registry

    extra = []
    for name in _module_names(config):
        module = registry.get(name)
        if any(module is builtin for builtin in registry.BUILTIN_MODULES):
            continue
        if method != "fork":
            try:
                pickle.dumps(module)
            except Exception as exc:  # pickling raises many types: any failure is refused
                raise ConfigError(
                    f"modules: {name!r} was registered at run time with functions that cannot "
                    f"be sent to worker processes started by {method} ({exc}); define them at "
                    "the top level of an importable module, or use start_method='fork' "
                    "(--start-method fork)"
                ) from None
        extra.append(module)
    return tuple(extra), dict(limits.WORK_BUDGET)


def apply_worker_state(state: WorkerState) -> None:
    """In a worker: register the runtime match modules and set the work budgets of the parent."""
    from meteor_eval import limits
    from meteor_eval.match import registry

    modules, budgets = state
    for module in modules:
        registry.register(module, replace=True)
    limits.WORK_BUDGET.clear()
    limits.WORK_BUDGET.update(budgets)
