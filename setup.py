"""Build of the optional compiled kernels; every other setting lives in pyproject.toml.

The extension ``meteor_eval._ext._kernels`` holds the compiled kernels (the normaliser, the Java
hash, the stemmers, the candidate generators, the beam search, the word statistics, the fused
pair kernel and NLTK's greedy alignment), built as one module from the C files of
``src/meteor_eval/_ext/`` (one file per concern). It makes METEOR scoring several times faster.
It is optional: when it cannot be compiled (no C compiler or Python headers) the build prints a
warning and the package installs without it, using the pure-Python twin of every kernel, which
gives identical results. Set ``METEOR_EVAL_NO_EXTENSION=1`` to skip the extension on purpose, or
``METEOR_EVAL_REQUIRE_EXTENSION=1`` to make a failed compilation fail the build (CI sets it, so
that a C error cannot hide behind the fallback).
The C sources ship in the source distribution, not in wheels.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

EXT_DIR = Path("src", "meteor_eval", "_ext")
# One file per concern (kernels.h lists them); module.c gathers their functions into one module.
SOURCES = (
    "module.c",
    "normalize.c",
    "hash.c",
    "stem.c",
    "match.c",
    "candidates.c",
    "paraphrase.c",
    "beam.c",
    "stats.c",
    "pair.c",
    "greedy.c",
    "tokens.c",
    "texttok.c",
    "bleu.c",
    "lcs.c",
    "rouge.c",
    "frontend.c",
    "caption.c",
    "ptb.c",
    "wordnet.c",
    "exact.c",
)


class OptionalBuildExt(build_ext):
    """``build_ext`` that warns instead of failing when the C compiler does."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            self._skip(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            self._skip(exc)

    @staticmethod
    def _skip(exc: BaseException) -> None:
        if os.environ.get("METEOR_EVAL_REQUIRE_EXTENSION") == "1":
            raise SystemExit(
                f"error: meteor_eval._ext._kernels did not compile ({exc}) and "
                "METEOR_EVAL_REQUIRE_EXTENSION=1 asks for it"
            ) from exc
        sys.stderr.write(
            f"warning: meteor_eval._ext._kernels was not compiled ({exc}); "
            "the pure-Python kernels will be used (same results, slower)\n"
        )


extensions = []
if os.environ.get("METEOR_EVAL_NO_EXTENSION") != "1":
    extensions.append(
        Extension(
            "meteor_eval._ext._kernels",
            sources=[(EXT_DIR / name).as_posix() for name in SOURCES],
            depends=[
                (EXT_DIR / name).as_posix() for name in ("kernels.h", "rows.h", "intl_tables.h")
            ],
            optional=True,
        )
    )

setup(ext_modules=extensions, cmdclass={"build_ext": OptionalBuildExt})
