"""What a small METEOR score from the command line does not load or make (issue 23, row (a)).

A corpus score of the METEOR 1.5 flavour runs the batch path: it makes no segment record, no
alignment and no significance settings, in one process no chunk of files, and runs neither the
paper2005 nor the NLTK aligner,
so those classes (dataclasses, whose methods are compiled when the class is made) and modules
are not made or imported; the Arabic stem table's patterns are not compiled, and the table of
the JVM's powers is inflated only as far as the task's exponent. The names stay where they were
(PEP 562 module attributes), the same dataclasses.
"""

from __future__ import annotations

import dataclasses
import pickle
from collections.abc import Callable
from pathlib import Path

import pytest

from fakes import run_fresh

#: Modules a ``score`` run of the METEOR 1.5 flavour has no use for.
UNUSED_MODULES = (
    "meteor_eval._file_chunk",
    "meteor_eval._significance_settings",
    "meteor_eval.align._alignment",
    "meteor_eval.align._exact_search",
    "meteor_eval.align.exhaustive",
    "meteor_eval.align.greedy",
    "meteor_eval.distributed",
    "meteor_eval.documents",
    "meteor_eval.match._segment",
    "meteor_eval.metrics.bleu",
    "meteor_eval.metrics.meteor.nltk",
    "meteor_eval.metrics.meteor.paper2005",
    "meteor_eval.metrics.rouge",
    "meteor_eval.significance",
    "meteor_eval.statsfile",
    "meteor_eval.tables",
    "csv",
    "decimal",
    "encodings.ascii",
    "gzip",
    "hashlib",
    "logging",
    "numpy",
)

_PROBE = """
import sys
before = set(sys.modules)  # a site hook of the machine may load some of them
from meteor_eval.cli import main
status = main({argv!r})
from meteor_eval import comparison, io
from meteor_eval.align import alignment
from meteor_eval.match import base
from meteor_eval.resources import jvm_pow, stemmers
from meteor_eval.text import tokenize
loaded = [name for name in {unused!r} if name in sys.modules and name not in before]
made = [name for name, module in (("Segment", base), ("Alignment", alignment),
        ("Significance", comparison), ("FileChunk", io)) if name in vars(module)]
print("STATUS", status, file=sys.stderr)
print("LOADED", *loaded, file=sys.stderr)
print("MADE", *made, file=sys.stderr)
print("PATTERNS", sum(p._pattern is not None for p in (stemmers._JAVA_WHITESPACE,
      stemmers._JAVA_INT, stemmers._ASCII_NOT_JAVA, stemmers._BREAK_NOT_JAVA,
      stemmers._JAVA_LINE_BREAK)),
      tokenize._UNICODE14_UPPER_RE._pattern is not None, file=sys.stderr)
print("POW", jvm_pow._payload.cache_info().currsize,
      len(jvm_pow._inflated().text) < 50_000, file=sys.stderr)
"""


def _report(argv: list[str]) -> dict[str, list[str]]:
    done = run_fresh(_PROBE.format(argv=argv, unused=UNUSED_MODULES))
    return {line.split()[0]: line.split()[1:] for line in done.stderr.splitlines()}


def test_a_corpus_score_loads_and_makes_only_what_it_uses(
    xray_head: Callable[[int], dict[str, str]], tmp_path: Path
) -> None:
    files = xray_head(30)
    hyp, ref = tmp_path / "h", tmp_path / "r"
    # A Greek line: java_lower's capital-sigma rule runs, the Unicode 14 pattern need not.
    hyp.write_text(Path(files["sys1"]).read_text(encoding="utf-8") + "ΟΔΟΣ Σ\n", "utf-8")
    ref.write_text(Path(files["ref"]).read_text(encoding="utf-8") + "οδος σ\n", "utf-8")
    argv = ["score", "--hyp", str(hyp), "--ref", str(ref), "--lang", "en", "--format", "json"]
    report = _report([*argv, "--no-progress", "--jobs", "1", "--norm"])
    assert report["STATUS"] == ["0"]
    assert report["LOADED"] == []
    assert report["MADE"] == []
    assert report["PATTERNS"] == ["0", "False"]
    assert report["POW"] == ["0", "True"]


def test_segment_level_output_makes_no_segment_record_either(
    xray_head: Callable[[int], dict[str, str]],
) -> None:
    files = xray_head(5)
    argv = ["score", "--hyp", files["sys1"], "--ref", files["ref"], "--lang", "en"]
    report = _report([*argv, "--format", "json", "--no-progress", "--sentence-level"])
    assert report["STATUS"] == ["0"]
    assert "meteor_eval.align.greedy" not in report["LOADED"]
    assert "Segment" not in report["MADE"]


@pytest.mark.parametrize(
    ("module", "name", "home"),
    [
        ("meteor_eval.match.base", "Segment", "meteor_eval.match._segment"),
        ("meteor_eval.align.alignment", "Alignment", "meteor_eval.align._alignment"),
        ("meteor_eval.comparison", "Significance", "meteor_eval._significance_settings"),
        ("meteor_eval.io", "FileChunk", "meteor_eval._file_chunk"),
    ],
)
def test_the_records_keep_their_names_in_a_new_process(module: str, name: str, home: str) -> None:
    done = run_fresh(
        "import dataclasses, importlib, sys\n"
        f"module = importlib.import_module({module!r})\n"
        f"print({name!r} in vars(module), {home!r} in sys.modules, {name!r} in dir(module))\n"
        f"from {module} import {name}\n"
        f"print({name} is getattr(importlib.import_module({home!r}), {name!r}),\n"
        f"      dataclasses.is_dataclass({name}), {name!r} in vars(module))\n"
    )
    assert done.stdout.split() == ["False", "False", "True", "True", "True", "True"]


def test_the_records_are_the_same_dataclasses_as_before() -> None:
    import meteor_eval
    from meteor_eval import comparison
    from meteor_eval.align.alignment import Alignment
    from meteor_eval.match.base import Match, Segment

    segment = Segment(("a", "b"), (1, 2))
    assert [f.name for f in dataclasses.fields(segment)] == ["tokens", "ids", "interned"]
    assert segment == Segment(("a", "b"), (1, 2), interned=(object(), None))  # type: ignore[arg-type]
    assert repr(segment) == "Segment(tokens=('a', 'b'), ids=(1, 2))"
    alignment = Alignment(("a",), ("a",), (Match(0, 1, 0, 1, 0),), ("exact",), 1)
    assert pickle.loads(pickle.dumps(alignment)) == alignment
    assert dataclasses.replace(alignment, chunks=2).chunks == 2
    assert meteor_eval.Alignment is Alignment
    significance = comparison.Significance("bs", n_samples=10)
    assert dataclasses.asdict(significance)["method"] == "bs"
    assert pickle.loads(pickle.dumps(significance)) == significance
    from meteor_eval import io
    from meteor_eval.io import FileChunk

    chunk = FileChunk(3, (("h", 0, 10), ("r", 0, 12)), 2)
    assert pickle.loads(pickle.dumps(chunk)) == chunk
    assert dataclasses.replace(chunk, lines=1).lines == 1
    assert repr(chunk) == "FileChunk(first_line=3, ranges=(('h', 0, 10), ('r', 0, 12)), lines=2)"
    assert io.FileChunk is FileChunk and "FileChunk" in io.__all__
    for module in (comparison, meteor_eval.align.alignment, meteor_eval.match.base, io):
        with pytest.raises(AttributeError, match="has no attribute 'Missing'"):
            module.Missing  # noqa: B018
