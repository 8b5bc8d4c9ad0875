"""Follow the command line's ``args`` through the package: which modules it visits, in order.

Runs ``meteor-eval`` in this process with a profile hook and records every call of a function
of the package that receives the parsed options (an ``argparse.Namespace``) as an argument, or
with ``--request`` also the :class:`meteor_eval.comparison.Request` built from them. A *stay* is
a run of consecutive such calls in one module, a *room* a module; a room entered more than twice
means the options go back and forth between modules. Prints the stays, then the totals::

    python scripts/walk_args.py score --example --norm --modules exact,stem,synonym
    python scripts/walk_args.py --request score --example --norm --modules exact,stem,synonym
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import sys
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))


def walk(argv: list[str], *, request: bool) -> list[tuple[str, list[str]]]:
    """The stays (module, functions called there in order) of ``meteor-eval argv``."""
    import meteor_eval.cli as cli
    from meteor_eval.comparison import Request

    kinds: tuple[type, ...] = (argparse.Namespace, Request) if request else (argparse.Namespace,)
    calls: list[tuple[str, str]] = []

    def hook(frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        if not module.startswith("meteor_eval"):
            return
        code = frame.f_code
        n = code.co_argcount + code.co_kwonlyargcount
        if any(isinstance(frame.f_locals.get(name), kinds) for name in code.co_varnames[:n]):
            calls.append((module, code.co_name))

    sys.setprofile(hook)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
            cli.main(argv)
    finally:
        sys.setprofile(None)
    stays: list[tuple[str, list[str]]] = []
    for module, function in calls:
        if stays and stays[-1][0] == module:
            stays[-1][1].append(function)
        else:
            stays.append((module, [function]))
    return stays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--request", action="store_true", help="follow the Request too")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="meteor-eval's arguments")
    args = parser.parse_args()
    stays = walk(args.command, request=args.request)
    for module, functions in stays:
        print(f"{module}: {' '.join(functions)}")
    entries = collections.Counter(module for module, _ in stays)
    again = ", ".join(f"{m} ({n})" for m, n in entries.most_common() if n > 2) or "none"
    print(f"{len(stays)} stays in {len(entries)} rooms; rooms entered more than twice: {again}")


if __name__ == "__main__":
    main()
