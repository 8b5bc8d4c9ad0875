"""Build of the optional compiled beam search; every other setting lives in pyproject.toml.

The extension ``meteor_eval.align._beam`` makes METEOR 1.5 scoring several times faster. It is
optional: when it cannot be compiled (no C compiler or Python headers) the build prints a warning
and the package installs without it, using the pure-Python aligner, which gives identical
results. Set ``METEOR_EVAL_NO_EXTENSION=1`` to skip the extension on purpose.
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


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
        sys.stderr.write(
            f"warning: meteor_eval.align._beam was not compiled ({exc}); "
            "the pure-Python aligner will be used (same results, slower)\n"
        )


extensions = []
if os.environ.get("METEOR_EVAL_NO_EXTENSION") != "1":
    extensions.append(
        Extension(
            "meteor_eval.align._beam",
            sources=[
                "src/meteor_eval/align/_beam.c",
                "src/meteor_eval/align/_text.c",
                "src/meteor_eval/align/_normalize.c",
            ],
            optional=True,
        )
    )

setup(ext_modules=extensions, cmdclass={"build_ext": OptionalBuildExt})
