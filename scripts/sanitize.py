"""Build the compiled kernels with AddressSanitizer and UndefinedBehaviorSanitizer; run their tests.

The extension is built with ``-fsanitize=address,undefined -fno-omit-frame-pointer -g -O1`` in a
staging copy of the checkout (``build/sanitize/tree``: ``src``, ``tests``, ``scripts`` and the build
files; the shared data folder is linked beside it, so the golden tests find it as usual), never in
the checkout itself. The tests that drive the C code (:data:`TESTS`) then run against that copy with
the ASan runtime preloaded into Python, ``PYTHONMALLOC=malloc`` (so that the kernels' reads past a
Python object's memory hit ASan's red zones instead of pymalloc's arenas), and every sanitizer told
to abort on its first report and to write it to ``build/sanitize/reports``. Any report, a crash or a
failing test fails the run (exit status 1). Leak detection is off: CPython does not free everything
at exit.

Usage::

    python scripts/sanitize.py              # build, then run TESTS (about 3 minutes on 2 cores)
    python scripts/sanitize.py -- -k beam   # extra arguments go to pytest
    python scripts/sanitize.py --tests tests/unit/text  # other tests than TESTS

Needs gcc (or clang) with the sanitizer runtimes (``libasan``, ``libubsan``). ``.ci/run`` runs it
before the README's test command.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STAGING = ROOT / "build" / "sanitize"
FLAGS = "-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1"

#: The tests that run the C kernels: the hypothesis fuzz tests of every kernel, the parity tests
#: of each kernel against its pure-Python twin, and the METEOR 1.5 goldens (the fused pair
#: kernel end to end on the shared data).
TESTS = (
    "tests/property/test_kernels_fuzz.py",
    "tests/unit/test_ext.py",
    "tests/unit/text/test_compiled_normalize.py",
    "tests/unit/text/test_tokenize.py",
    "tests/unit/resources/test_compiled_stemmers.py",
    "tests/unit/match/test_compiled_matchers.py",
    "tests/unit/match/test_paraphrase.py",
    "tests/unit/resources/test_paraphrase_damage.py",
    "tests/unit/resources/test_paraphrase_index_golden.py",
    "tests/unit/align/test_beam_equivalence.py",
    "tests/unit/align/test_greedy_compiled.py",
    "tests/unit/stats/test_stats_meteor_rows.py",
    "tests/unit/metrics/test_compiled_pair.py",
    "tests/unit/test_segment_fast_paths.py",
    "tests/reference/test_meteor15_golden.py",
    "tests/reference/test_meteor15_edge_cases.py",
    "tests/reference/test_meteor15_longdoc.py",
    "tests/property/test_caption_kernels.py",
)


def _run(command: list[str], **kwargs: object) -> None:
    print("+", " ".join(command), flush=True)
    subprocess.run(command, check=True, **kwargs)  # type: ignore[call-overload]


def stage(staging: Path) -> Path:
    """A fresh copy of ``src``, ``tests``, ``scripts`` (the tests load the golden scripts'
    helpers) and the build files under ``staging/tree``."""
    tree = staging / "tree"
    if tree.exists():
        shutil.rmtree(tree)
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "*.egg-info", ".hypothesis")
    for name in ("src", "tests", "scripts"):
        shutil.copytree(ROOT / name, tree / name, ignore=ignore)
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, tree / name)
    # Instrumented code runs several times slower: no hypothesis deadline in this run.
    (tree / "sanitize_profile.py").write_text(
        "from hypothesis import settings\n\n"
        'settings.register_profile("sanitize", deadline=None)\n'
        'settings.load_profile("sanitize")\n'
    )
    shared = staging / "shared"  # the tests look for ../shared beside the checkout
    if not shared.exists() and (ROOT.parent / "shared").is_dir():
        shared.symlink_to(ROOT.parent / "shared", target_is_directory=True)
    return tree


def build(tree: Path) -> Path:
    """Build the sanitised extension in place in ``tree``; the path of the built module."""
    env = dict(os.environ, CFLAGS=FLAGS, LDFLAGS="-fsanitize=address,undefined")
    env.pop("METEOR_EVAL_NO_EXTENSION", None)
    command = [sys.executable, "setup.py", "-q", "build_ext", "--inplace", "--force"]
    command += ["--build-temp", str(tree.parent / "temp")]
    _run(command, cwd=tree, env=env)
    built = sorted((tree / "src" / "meteor_eval" / "_ext").glob("_kernels*.so"))
    # setup.py only warns when the compiler fails; without the module there is nothing to test.
    if not built or b"__asan_" not in built[0].read_bytes():
        raise SystemExit("sanitize: the instrumented extension was not built (see above)")
    return built[0]


def runtime_library(name: str) -> str:
    """The absolute path of a sanitizer runtime (``libasan.so``) as the compiler reports it."""
    compiler = os.environ.get("CC", "gcc").split()[0]
    found = subprocess.run(
        [compiler, f"-print-file-name={name}"], capture_output=True, text=True, check=True
    ).stdout.strip()
    if not os.path.isabs(found):
        raise SystemExit(f"sanitize: {compiler} has no {name}")
    return found


def sanitizer_env(tree: Path, reports: Path) -> dict[str, str]:
    """The environment of the sanitised test run."""
    log = f"log_path={reports / 'report'}"
    return dict(
        os.environ,
        LD_PRELOAD=runtime_library("libasan.so"),
        ASAN_OPTIONS=f"detect_leaks=0:abort_on_error=1:{log}",
        UBSAN_OPTIONS=f"halt_on_error=1:abort_on_error=1:print_stacktrace=1:{log}",
        PYTHONMALLOC="malloc",
        PYTHONPATH=os.pathsep.join([str(tree / "src"), str(tree)]),
        PYTHONDONTWRITEBYTECODE="1",
        METEOR_EVAL_PURE_PYTHON="0",
    )


def run_tests(tree: Path, tests: list[str], extra: list[str]) -> int:
    """Run ``tests`` in ``tree`` under the sanitizers; 0 when they pass and nothing was reported."""
    reports = tree.parent / "reports"
    shutil.rmtree(reports, ignore_errors=True)
    reports.mkdir(parents=True)
    env = sanitizer_env(tree, reports)
    check = "import meteor_eval._ext as e; print(e.built_module(), e.kernel_status())"
    _run([sys.executable, "-c", check], cwd=tree, env=env)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2"]
    command += ["-p", "sanitize_profile"]
    status = subprocess.run([*command, *tests, *extra], cwd=tree, env=env).returncode
    found = sorted(reports.iterdir())
    for path in found:
        print(f"--- sanitizer report {path.name} ---\n{path.read_text(errors='replace')}")
    if found:
        print(f"sanitize: {len(found)} sanitizer report(s) in {reports}", file=sys.stderr)
        return 1
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--staging", type=Path, default=STAGING, help="default: build/sanitize")
    parser.add_argument("--tests", nargs="+", default=list(TESTS), help="default: TESTS")
    parser.add_argument("pytest_args", nargs="*", help="after --: more arguments for pytest")
    args = parser.parse_args(argv)
    tree = stage(args.staging.resolve())
    module = build(tree)
    print(f"sanitize: built {module.relative_to(ROOT)}", flush=True)
    return run_tests(tree, args.tests, args.pytest_args)


if __name__ == "__main__":
    sys.exit(main())
