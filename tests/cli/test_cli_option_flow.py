"""The parsed options travel one way: every command reads them in few places and no module is
entered more than twice by a call that receives them (``scripts/walk_args.py``, which runs the
command with a profile hook and records each package call given the options or the request).

A helper that took the whole set of options again (``load_systems(args)``, a metric builder in
``_request`` per metric, ``start_method_of(args)``) would send them out of ``cli/_request.py``
and back several times; these tests fail then.
"""

from __future__ import annotations

import collections
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
CAPTIONS = ROOT / "tests" / "data" / "captions"


def _walker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("walk_args", ROOT / "scripts" / "walk_args.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


WALK = _walker()


def _rooms(argv: list[str], *, request: bool = True) -> list[str]:
    return [module for module, _ in WALK.walk(argv, request=request)]


def _argv(command: str, tmp_path: Path) -> list[str]:
    return {
        "score": ["score", "--example", "--norm", "--modules", "exact,stem,synonym"],
        "bleu": ["bleu", "--example"],
        "rouge": ["rouge", "--example"],
        "compare": ["compare", "--example", "--metrics", "meteor,bleu,rouge"],
        "report": ["report", "--example", "--output", str(tmp_path / "report.html")],
        "caption": [
            "caption",
            "--annotations",
            str(CAPTIONS / "captions.json"),
            "--results",
            str(CAPTIONS / "results-1.json"),
            str(CAPTIONS / "results-2.json"),
        ],
        "train": [
            "train",
            "--input",
            str(ROOT / "tests" / "data" / "train_tiny.jsonl"),
            "--restarts",
            "0",
            "--out",
            str(tmp_path / "params.json"),
        ],
    }[command]


@pytest.mark.parametrize(
    "command", ["score", "bleu", "rouge", "compare", "report", "caption", "train"]
)
def test_no_module_is_entered_more_than_twice(command: str, tmp_path: Path) -> None:
    rooms = _rooms(_argv(command, tmp_path))
    entries = collections.Counter(rooms)
    assert max(entries.values()) <= 2, rooms
    # the walk saw the command run to its end: the request carried out, or the file written
    assert "meteor_eval.cli.validate" in rooms
    if command == "report":
        assert (tmp_path / "report.html").stat().st_size > 0
    elif command == "train":
        assert (tmp_path / "params.json").stat().st_size > 0
    else:
        assert rooms[-1] == "meteor_eval.comparison"


def test_a_scoring_command_hands_its_options_out_once(tmp_path: Path) -> None:
    """``score``: ``_run`` hands the options to ``_request``, which reads them (the metric's in
    ``options``) and checks the last against the systems; the request then goes to the
    library, and nothing after the run takes the options again."""
    assert _rooms(_argv("score", tmp_path)) == [
        "meteor_eval.cli",
        "meteor_eval.cli.validate",
        "meteor_eval.cli",
        "meteor_eval.cli._run",
        "meteor_eval.cli._request",
        "meteor_eval.cli.options",
        "meteor_eval.cli._request",
        "meteor_eval.comparison",
    ]


def test_from_stats_reads_the_overrides_in_one_visit(tmp_path: Path) -> None:
    from meteor_eval.cli import main

    stats = tmp_path / "example.stats"
    assert main(["score", "--example", "--stats", str(stats), "--format", "json"]) == 0
    rooms = _rooms(["score", "--from-stats", str(stats), "--alpha", "0.8"])
    assert rooms[3:] == [
        "meteor_eval.cli._run",
        "meteor_eval.cli._request",
        "meteor_eval.cli.options",
        "meteor_eval.cli._request",
        "meteor_eval.comparison",
    ]
